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


def test_a_save_without_an_answer_says_so_keeps_the_entries_and_saves_once(table_page):
    page, match = table_page
    fill_win(page)
    save = page.locator("#win-form .save-button")
    expect(save).to_have_text("Save hand 1")
    page.evaluate(WATCH_SAVE)

    # The connection drops before the server has the hand: the button says "Saving…" at
    # once, then that it was not saved, with the message beside it.
    page.route(WIN_URL, lambda route: route.abort("connectionreset"))
    save.click()
    alert = page.get_by_role("alert").filter(has_text=LOST)
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("Your entries are kept — press the button again.")
    expect(save).to_have_text(UNSAVED)
    assert page.evaluate("window.saveSaid") == ["Saving…", UNSAVED]
    expect_beside_save(page, alert)
    expect_entries_kept(page)
    assert not Hand.objects.filter(match=match).exists()

    # The club's computer is restarting: the 503 page, which htmx does not swap in.
    page.unroute(WIN_URL)
    page.route(
        WIN_URL,
        lambda route: route.fulfill(status=503, body="Please try again in a minute"),
    )
    save.click()
    alert = page.get_by_role("alert").filter(has_text=RESTARTING)
    expect(alert).to_contain_text("The scores are safe")
    expect(alert).to_contain_text("press the button again in a minute")
    expect(save).to_have_text(UNSAVED)
    expect(page.get_by_role("alert").filter(has_text=LOST)).to_have_count(0)  # one box
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


def test_a_save_that_hangs_gives_up_says_so_at_the_button_and_saves_once(table_page):
    """No answer at all (the request hangs): after the form's timeout (20 s; 1 s here) the
    button says so, and pressing it again saves the hand once."""
    page, match = table_page
    fill_win(page)
    page.locator("#win-form").evaluate(
        """form => form.setAttribute("hx-request", '{"timeout": 1000}')"""
    )
    page.route(WIN_URL, lambda route: None)  # held: never answered
    save = page.locator("#win-form .save-button")
    save.click()
    expect(save).to_have_text("Saving…")
    alert = page.get_by_role("alert").filter(has_text="did not answer in time")
    expect(alert).to_contain_text("Your entries are kept — press the button again")
    expect(save).to_have_text(UNSAVED)
    expect_beside_save(page, alert)
    expect_entries_kept(page)

    page.unroute(WIN_URL)
    save.click()
    expect(page.get_by_role("status").filter(has_text="Hand 1 saved")).to_be_visible()
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
    """The server saved the hand but the answer never came back: pressing again is safe."""
    page, match = table_page
    fill_win(page)

    def reach_the_server_then_drop(route):
        route.fetch()  # the server records the hand ...
        route.abort("connectionreset")  # ... and the answer is lost on the way back

    page.route(WIN_URL, reach_the_server_then_drop)
    page.get_by_role("button", name="Save hand 1").click()
    expect(page.get_by_role("alert").filter(has_text=LOST)).to_be_visible()
    expect_entries_kept(page)
    assert Hand.objects.filter(match=match).count() == 1

    page.unroute(WIN_URL)
    page.get_by_role("button", name=UNSAVED).click()
    expect(page.get_by_role("status").filter(has_text="Hand 1 is saved.")).to_be_visible()
    expect(page.locator(".board-hand")).to_have_text("Hand 2")
    expect(page.locator(".connection-lost")).to_have_count(0)
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
