"""What a person at the table sees when the club's computer is briefly gone: a save that
gets no answer, or the 503 page, says so at the button itself ("Saving…", then "Not saved –
press again") with the words beside it, keeps the entries, and pressing the button again
saves once. The check-in button shows "here" only when the
server said so."""

import re

import pytest
from playwright.sync_api import expect

from club.models import Attendance, Club
from club.roles import make_coordinator
from games.models import Match
from games.start import start_play
from scoring.models import Hand
from tests.browser.helpers import log_in
from tests.factories import MemberFactory, SessionFactory, UserFactory
from tests.games.helpers import one_named_table

pytestmark = pytest.mark.django_db(transaction=True)
TABLET = {"width": 1024, "height": 768}
NAMES = ["Ann", "Betty", "Carol", "Dot"]
LOST = "Not saved: the connection to the club’s computer was lost."
RESTARTING = "the club’s computer is restarting"


@pytest.fixture(autouse=True)
def deliberate_failures(browser_watch):
    """The failures these tests make on purpose (the routes below), and what the browser
    and htmx log about them; anything else still fails the test."""
    why = "the connection is cut or the server restarting, on purpose"
    browser_watch.allow(r"/tables/1/win/ net::ERR_CONNECTION_RESET", why)
    browser_watch.allow(r"Failed to load resource: net::ERR_CONNECTION_RESET .*/tables/1/win/", why)
    browser_watch.allow(r"/check-in/\d+/ net::ERR_INTERNET_DISCONNECTED", why)
    browser_watch.allow(r"Failed to load resource: net::ERR_INTERNET_DISCONNECTED", why)
    browser_watch.allow(
        r"(answer 503: POST |status of 503 .*|Error Code 503 from )[^ ]*/tables/1/win/", why
    )
    browser_watch.allow(r"console error: htmx:(afterRequest|sendError|timeout), \[object HTML", why)


@pytest.fixture
def table_page(live_server, browser):
    session = one_named_table("u3a", NAMES)
    start_play(session)
    make_coordinator(UserFactory(username="boss"))
    page = log_in(browser.new_page(viewport=TABLET), live_server.url, "boss")
    page.goto(f"{live_server.url}/play/{session.pk}/tables/1/")
    yield page, Match.objects.get(session=session)
    page.close()


def fill_win(page):
    form = page.locator("#win-form")
    form.get_by_role("group", name="Who won?").get_by_label("Betty", exact=False).check()
    form.get_by_label("Self-drawn from the wall").check()
    form.get_by_label("Total the table agreed (points)").fill("10")
    expect(page.locator("#preview")).to_contain_text("receives")
    return form


def expect_entries_kept(page):
    form = page.locator("#win-form")
    expect(
        form.get_by_role("group", name="Who won?").get_by_label("Betty", exact=False)
    ).to_be_checked()
    expect(form.get_by_label("Self-drawn from the wall")).to_be_checked()
    expect(form.get_by_label("Total the table agreed (points)")).to_have_value("10")
    expect(page.locator(".board-hand")).to_have_text("Hand 1")


WIN_URL = re.compile(r"/tables/1/win/$")
UNSAVED = "Not saved – press again"

# Every text the Save button shows, in order, from the moment it is pressed.
WATCH_SAVE = """() => {
  window.saveSaid = [];
  const save = document.querySelector("#win-form .save-button");
  new MutationObserver(() => window.saveSaid.push(save.textContent))
    .observe(save, {childList: true, characterData: true, subtree: true});
}"""


def expect_beside_save(page, alert):
    """The message is right after Save's row, in view with the button."""
    expect(page.locator("#win-form .save-row + .connection-lost")).to_have_count(1)
    expect(alert).to_be_in_viewport()
    expect(page.locator("#win-form .save-button")).to_be_in_viewport()


WAITING = "#outbox-notice .outbox-count"
SENT = "Everything waiting has been sent"


# The two 503s: the club's computer restarting, and its database refusing writes (read-only
# or full: club/read_only.py), whose page says so in a header the tablet's words follow.
ANSWERS_503 = {
    "restarting": (
        {},
        RESTARTING,
        ["The scores are safe", "press the button again in a minute"],
    ),
    "read-only": (
        {"Club-Database": "read-only"},
        "cannot save anything just now",
        [
            "What was saved before is safe",
            "press the button again in a little while",
            "If it still fails after a few minutes, tell the coordinator",
        ],
    ),
}


@pytest.mark.parametrize("why", ANSWERS_503)
def test_a_save_answered_with_the_503_page_says_why_and_keeps_the_entries(table_page, why):
    """The 503 page is an answer: the button says the hand was not saved, the message
    beside it says why in words that fit (a restart is a minute; a database refusing
    writes has no set time and is the coordinator's to hear of), the entries stay, and
    pressing again saves."""
    page, match = table_page
    headers, words, more = ANSWERS_503[why]
    fill_win(page)
    save = page.locator("#win-form .save-button")
    expect(save).to_have_text("Save hand 1")
    page.evaluate(WATCH_SAVE)
    page.route(
        WIN_URL,
        lambda route: route.fulfill(status=503, headers=headers, body="Not now"),
    )
    save.click()
    alert = page.get_by_role("alert").filter(has_text=words)
    for text in more:
        expect(alert).to_contain_text(text)
    expect(save).to_have_text(UNSAVED)
    assert page.evaluate("window.saveSaid") == ["Saving…", UNSAVED]
    expect_beside_save(page, alert)
    expect_entries_kept(page)
    assert not Hand.objects.filter(match=match).exists()

    # Back again: the same press saves the hand, once, and the message goes.
    page.unroute(WIN_URL)
    save.click()
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved")).to_be_visible()
    expect(page.locator(".board-hand")).to_have_text("Hand 2")
    expect(page.locator(".connection-lost")).to_have_count(0)
    assert [(h.number, h.winner, h.total) for h in Hand.objects.filter(match=match)] == [(1, 1, 10)]


def test_a_save_without_an_answer_waits_on_the_device_and_is_sent_once(table_page):
    """The connection drops before the server has the hand: no "press again", the hand
    waits in the table page's outbox (outbox.js) and the board moves on; the page sends it
    by itself when the server answers again (first the 503 of a restart: still waiting)."""
    page, match = table_page
    fill_win(page)
    page.route(WIN_URL, lambda route: route.abort("connectionreset"))
    page.locator("#win-form .save-button").click()
    expect(page.locator(WAITING)).to_have_text("1 hand waiting to be sent")
    expect(page.locator(".board-hand")).to_have_text("Hand 2")
    expect(page.locator(".waiting-list")).to_contain_text("Betty won self-drawn from the wall")
    expect(page.get_by_role("alert").filter(has_text=LOST)).to_have_count(0)
    expect(page.locator("#win-form .save-button")).to_have_text("Save hand 2")
    assert not Hand.objects.filter(match=match).exists()

    page.unroute(WIN_URL)
    restarting = []
    page.route(
        WIN_URL,
        lambda route: (
            restarting.append(1) or route.fulfill(status=503, body="Please try again in a minute")
        ),
    )
    page.wait_for_timeout(6000)  # the outbox tries every 5 s: the 503 leaves it waiting
    assert restarting
    expect(page.locator(WAITING)).to_have_text("1 hand waiting to be sent")
    page.unroute(WIN_URL)
    expect(page.locator("#outbox-notice")).to_contain_text(SENT, timeout=15000)
    expect(page.locator(".board-hand")).to_have_text("Hand 2")
    assert [(h.number, h.winner, h.total) for h in Hand.objects.filter(match=match)] == [(1, 1, 10)]


def test_a_save_that_hangs_gives_up_waits_on_the_device_and_is_sent_once(table_page):
    """No answer at all (the request hangs): after the form's timeout (20 s; 1 s here) the
    hand waits in the outbox, and is sent by itself, once."""
    page, match = table_page
    fill_win(page)
    page.locator("#win-form").evaluate(
        """form => form.setAttribute("hx-request", '{"timeout": 1000}')"""
    )
    page.route(WIN_URL, lambda route: None)  # held: never answered
    save = page.locator("#win-form .save-button")
    save.click()
    expect(save).to_have_text("Saving…")
    expect(page.locator(WAITING)).to_have_text("1 hand waiting to be sent")
    expect(page.locator(".board-hand")).to_have_text("Hand 2")
    page.unroute(WIN_URL)
    expect(page.locator("#outbox-notice")).to_contain_text(SENT, timeout=15000)
    assert Hand.objects.filter(match=match).count() == 1


def test_a_save_too_large_for_the_server_says_so_and_keeps_the_entries(
    table_page, settings, browser_watch
):
    """The server answers 400 (its page for a post over DATA_UPLOAD_MAX_MEMORY_SIZE): the
    form says the entries were too much, not "something went wrong"; nothing is saved."""
    why = "the post is made too large on purpose"
    browser_watch.allow(
        r"(answer 400: POST |status of 400 .*|Error Code 400 from )[^ ]*/tables/1/win/", why
    )
    page, match = table_page
    fill_win(page)
    big = "notes=" + "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    page.route(WIN_URL, lambda route: route.continue_(post_data=big))
    page.get_by_role("button", name="Save hand 1").click()
    alert = page.get_by_role("alert").filter(has_text="more than the club’s computer accepts")
    expect(alert).to_contain_text("Your entries are kept — make them shorter")
    expect_entries_kept(page)
    assert not Hand.objects.filter(match=match).exists()


def test_a_save_whose_answer_was_lost_is_not_saved_twice(table_page):
    """The server saved the hand but the answer never came back: the outbox sends it again
    with its key, and the server answers that it was saved already."""
    page, match = table_page
    fill_win(page)

    def reach_the_server_then_drop(route):
        route.fetch()  # the server records the hand ...
        route.abort("connectionreset")  # ... and the answer is lost on the way back

    page.route(WIN_URL, reach_the_server_then_drop)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.locator(WAITING)).to_have_text("1 hand waiting to be sent")
    assert Hand.objects.filter(match=match).count() == 1

    page.unroute(WIN_URL)
    expect(page.locator("#outbox-notice")).to_contain_text(SENT, timeout=15000)
    expect(page.get_by_role("status").filter(has_text="That was saved already.")).to_be_visible()
    expect(page.locator(".board-hand")).to_have_text("Hand 2")
    assert Hand.objects.filter(match=match).count() == 1


def test_the_check_in_button_shows_here_only_when_the_server_said_so(live_server, browser):
    session = SessionFactory(club=Club.objects.current())
    ann = MemberFactory(name="Ann Archer", table_name="Ann")
    make_coordinator(UserFactory(username="boss"))
    page = log_in(browser.new_page(viewport=TABLET), live_server.url, "boss")
    page.goto(f"{live_server.url}/club/sessions/{session.pk}/check-in/")
    row = page.locator(f"#member-{ann.pk}")
    toggle = row.get_by_role("button", name=re.compile("Ann Archer"))
    expect(toggle).to_have_attribute("aria-pressed", "false")

    check_in_url = re.compile(rf"/check-in/{ann.pk}/$")
    page.route(check_in_url, lambda route: route.abort("internetdisconnected"))
    toggle.click()
    alert = page.get_by_role("alert").filter(has_text=LOST)
    expect(alert).to_contain_text("tap the name again")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_contain_text("Not here yet")
    expect(toggle).to_be_enabled()
    assert not Attendance.objects.filter(session=session).exists()

    page.unroute(check_in_url)
    toggle.click()
    expect(row.get_by_role("button", name=re.compile("Ann Archer"))).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(row).to_contain_text("✓ Here")
    expect(page.locator(".connection-lost")).to_have_count(0)
    assert Attendance.objects.filter(session=session, member=ann).count() == 1
