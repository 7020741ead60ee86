"""A Wi-Fi drop stops no one (issue #20): the table page's outbox (static/js/outbox*.js).

Offline (Playwright's offline mode), quick-entry wins, a draw, kong chips and an undo wait
on the device with their one-time keys while the board moves on by itself; back online the
page sends them in order and the server has exactly those records, once. An answer lost on
the way back is sent again and recognised ("already saved"); a hand another tablet recorded
differently stops the queue and shows both; logging out with hands waiting is held back.

Console errors: none, except where a test cuts a request on purpose (the lost answer),
which each such test allows by name with its reason."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from club.models import Session
from club.roles import make_coordinator
from games.models import Match, TableKey
from games.start import end_evening, start_play
from scoring.models import Hand, KongChips, SentWrite
from tests.browser.helpers import kept_for_a_drop, log_in, record_quick_win
from tests.factories import UserFactory
from tests.games.helpers import one_named_table

pytestmark = pytest.mark.django_db(transaction=True)
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Betty", "Carol", "Dot"]
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "outbox"
NOTICE = "#outbox-notice .outbox-count"


@pytest.fixture
def table(live_server):
    session = one_named_table("u3a", NAMES)
    start_play(session)
    make_coordinator(UserFactory(username="boss"))
    return f"{live_server.url}/play/{session.pk}/tables/1/", Match.objects.get(session=session)


def open_table(browser, live_server, url, viewport=TABLET):
    page = log_in(browser.new_context(viewport=viewport).new_page(), live_server.url, "boss")
    page.goto(url)
    expect(page.locator("html")).to_have_attribute("data-outbox", "on")
    # Opened with the connection, as on the night: the service worker has kept the page and
    # its files before any drop (going offline mid-install fails its fetches, and it tries
    # again on the next visit).
    return kept_for_a_drop(page)


def enter_win(page, hand, winner, how, total, discarder=None):
    """A win typed and saved with no payments preview (there is none offline)."""
    form = page.locator("#win-form")
    expect(form.locator(".form-heading")).to_have_text(f"Record hand {hand}")
    form.get_by_role("group", name="Who won?").get_by_label(winner, exact=False).check()
    form.get_by_label(how).check()
    if discarder:
        form.get_by_role("group", name="Who discarded").get_by_label(discarder, exact=False).check()
    form.get_by_label("Total the table agreed (points)").fill(str(total))
    form.get_by_role("button", name=f"Save hand {hand}").click()


def expect_board(page, hand, dealer, goulash=False):
    expect(page.locator(".board-hand")).to_have_text(f"Hand {hand}")
    expect(page.locator(".board-line")).to_contain_text(f"{dealer} deals")
    expect(page.locator(".seat-card.is-dealer")).to_contain_text(dealer)
    expect(page.locator(".goulash-flag")).to_have_count(1 if goulash else 0)


def kong_chips(page, who, kind="Concealed kong"):
    box = page.locator(".kong-box")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    form = page.locator("#kong-form")
    form.get_by_role("group", name="Who made the kong?").get_by_label(who, exact=False).check()
    form.get_by_label(kind, exact=False).check()
    form.get_by_role("button", name="Save kong chips").click()


def undo(page, hand):
    box = page.locator(".undo-box")
    if box.get_attribute("open") is None:
        box.locator("summary").click()
    box.get_by_role("button", name=f"Undo hand {hand}").click()


def hands_of(match):
    return [
        (h.number, h.winner, h.won_by, h.discarder, h.total, h.is_voided)
        for h in Hand.objects.filter(match=match).order_by("recorded_at")
    ]


def test_five_entries_made_offline_move_the_board_on_and_are_saved_once_in_order(
    table, live_server, browser
):
    url, match = table
    page = open_table(browser, live_server, url)
    record_quick_win(page, 1, "Ann", "Self-drawn from the wall", 10)  # online: Ann keeps the deal
    expect_board(page, 2, "Ann")

    page.context.set_offline(True)
    # An undo of a saved hand waits; the board goes back to hand 1 at once.
    undo(page, 1)
    expect(page.locator(NOTICE)).to_have_text("1 entry waiting to be sent")
    expect_board(page, 1, "Ann")
    enter_win(page, 1, "Betty", "Self-drawn from the wall", 10)
    expect_board(page, 2, "Betty")  # Betty won: the deal passes to her
    expect(page.locator(NOTICE)).to_have_text("2 entries waiting to be sent")
    enter_win(page, 2, "Betty", "On a discard", 8, discarder="Carol")
    expect_board(page, 3, "Betty")  # the dealer won: she keeps the deal
    kong_chips(page, "Carol")
    expect_board(page, 3, "Betty")
    page.get_by_role("button", name="Record a draw for hand 3").click()
    expect_board(page, 4, "Betty", goulash=True)  # a draw: the same dealer, a goulash hand
    # Checked on the device as the server checks it, in its words (the page's JSON): a
    # goulash hand of 4 points and a discarder who is the winner are refused, kept nowhere.
    enter_win(page, 4, "Dot", "Self-drawn from the wall", 4)
    refusal = page.locator("#win-form .outbox-refusal")
    expect(refusal).to_have_text(
        "4 points is too few for a goulash hand: a goulash hand needs at least 5 points; "
        "this club's usual minimum is 3 points."
    )
    enter_win(page, 4, "Dot", "On a discard", 8, discarder="Dot")
    expect(refusal).to_have_text("The winner cannot also be the one who pays for it.")
    expect(page.locator(NOTICE)).to_have_text("5 entries waiting to be sent")
    enter_win(page, 4, "Dot", "Self-drawn from the wall", 6)
    expect_board(page, 5, "Carol")  # whoever wins the goulash, the dealer passes the dice
    # Undo while hand 4 still waits: it simply leaves the list, and is never sent.
    undo(page, 4)
    expect_board(page, 4, "Betty", goulash=True)
    expect(page.locator(NOTICE)).to_have_text("5 entries waiting to be sent")
    waiting = page.locator(".waiting-list .hand-line")
    expect(waiting).to_have_count(5)
    expect(waiting.first).to_contain_text("Draw: the wall ran out")
    expect(waiting.first).to_contain_text("to be checked")
    expect(page.locator(".waiting-list")).to_contain_text(
        "Hand 2 Betty won on Carol's discard, 8 points"
    )
    expect(page.locator("#outbox-notice")).to_contain_text("No connection")
    expect(page.locator("#win-form .save-button")).to_have_text("Save hand 4")
    # The players' buttons show the winds of the hand being played now.
    who_won = page.locator("#win-form").get_by_role("group", name="Who won?")
    expect(who_won.get_by_role("radio", name="Betty East, deals")).to_have_count(1)
    assert hands_of(match) == [(1, 0, "wall", None, 10, False)]  # nothing reached the server

    page.context.set_offline(False)
    expect(page.locator("#outbox-notice")).to_contain_text("Everything waiting has been sent")
    expect(page.locator(".waiting-list")).to_have_count(0)
    expect(page.locator(".goulash-flag")).to_have_text("Goulash hand: pot 20")  # the server's
    expect_board(page, 4, "Betty", goulash=True)
    assert hands_of(match) == [
        (1, 0, "wall", None, 10, True),  # undone
        (1, 1, "wall", None, 10, False),
        (2, 1, "discard", 2, 8, False),
        (3, None, "", None, None, False),
    ]
    assert [(k.hand_number, k.chair, k.kind) for k in KongChips.objects.filter(match=match)] == [
        (3, 2, "concealed")
    ]
    assert list(
        SentWrite.objects.filter(match=match).order_by("made_at").values_list("kind", flat=True)
    ) == ["win", "undo", "win", "win", "kong", "draw"]  # the online win's key, then the five
    assert (
        page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('table-outbox'))") == []
    )


def test_an_answer_lost_on_the_way_back_is_sent_again_and_saved_once(
    table, live_server, browser, browser_watch
):
    """The server made the write, but its answer never arrived (as when the server restarts
    or the Wi-Fi drops just then): the outbox sends it again with the same key, and the
    server, which keeps the keys in its database, answers "already saved"."""
    why = "the answer to the first send is cut on purpose after the server made the write"
    browser_watch.allow(r"/tables/1/(win|draw)/ net::ERR_CONNECTION_RESET", why)
    browser_watch.allow(r"Failed to load resource: net::ERR_CONNECTION_RESET", why)
    browser_watch.allow(r"console error: htmx:(afterRequest|sendError), \[object HTML", why)
    url, match = table
    page = open_table(browser, live_server, url)
    cut = []

    def reach_the_server_then_drop(route):
        if len(cut) < 1:
            cut.append(route.request.post_data)
            route.fetch()  # the server records it ...
            route.abort("connectionreset")  # ... and the answer is lost on the way back
        else:
            route.continue_()

    # An htmx save whose answer is lost: it waits in the outbox, the board moves on.
    page.route(re.compile(r"/tables/1/win/$"), reach_the_server_then_drop)
    enter_win(page, 1, "Betty", "Self-drawn from the wall", 10)
    expect_board(page, 2, "Betty")
    assert Hand.objects.filter(match=match).count() == 1  # made once, already
    # The retry (every 5 s while entries wait) sends it again: already saved.
    expect(page.locator("#outbox-notice")).to_contain_text(
        "Everything waiting has been sent", timeout=15000
    )
    expect(page.locator(".answer")).to_contain_text("That was saved already.")
    expect_board(page, 2, "Betty")

    # Hands sent by the outbox after a drop: the first one's answer is lost too.
    page.context.set_offline(True)
    enter_win(page, 2, "Carol", "Self-drawn from the wall", 12)
    page.get_by_role("button", name="Record a draw for hand 3").click()
    expect(page.locator(NOTICE)).to_have_text("2 hands waiting to be sent")
    cut.clear()
    page.unroute(re.compile(r"/tables/1/win/$"))
    page.route(re.compile(r"/tables/1/win/$"), reach_the_server_then_drop)
    page.context.set_offline(False)
    expect(page.locator("#outbox-notice")).to_contain_text(
        "Everything waiting has been sent", timeout=15000
    )
    assert len(cut) == 1
    expect_board(page, 4, "Carol", goulash=True)  # Carol won hand 2; the draw kept her deal
    assert [(h.number, h.winner, h.total) for h in match.live_hands()] == [
        (1, 1, 10),
        (2, 2, 12),
        (3, None, None),
    ]
    assert Hand.objects.filter(match=match).count() == 3
    assert SentWrite.objects.filter(match=match).count() == 3


def test_two_tablets_at_one_table_one_offline_recording_hand_1_differently(
    table, live_server, browser
):
    url, match = table
    online = open_table(browser, live_server, url)
    offline = open_table(browser, live_server, url)
    offline.context.set_offline(True)
    enter_win(offline, 1, "Carol", "Self-drawn from the wall", 12)
    enter_win(offline, 2, "Dot", "Self-drawn from the wall", 8)
    expect(offline.locator(NOTICE)).to_have_text("2 hands waiting to be sent")
    record_quick_win(online, 1, "Betty", "Self-drawn from the wall", 10)

    offline.context.set_offline(False)
    panel = offline.locator("#outbox-stopped")
    expect(panel).to_contain_text("Hand 1 was recorded differently on another device")
    expect(panel.locator(".outbox-ours")).to_contain_text(
        "Hand 1: Carol won self-drawn from the wall, 12 points"
    )
    expect(panel.locator(".outbox-ours")).to_contain_text("Hand 2: Dot won")
    expect(panel.locator(".outbox-theirs")).to_have_text(
        "Hand 1: Betty won self-drawn from the wall, 10 points"
    )
    expect(panel.get_by_role("button", name="Ours is right: correct hand 1")).to_be_visible()
    expect(offline.locator(NOTICE)).to_have_text("2 hands waiting to be sent")
    expect(offline.locator(".conflict")).to_have_count(0)  # one set of choices: the panel's
    # The next hand can still be recorded: the board is what the server will hold once the
    # rest is sent (its hand 1, Betty's, then our hand 2, Dot's), and the form is at hand 3.
    expect(offline.locator("#record")).to_be_visible()
    expect_board(offline, 3, "Carol")
    expect(offline.locator("#win-form .save-button")).to_have_text("Save hand 3")
    expect(panel).to_contain_text("You can go on recording the next hand below")
    assert [(h.number, h.winner, h.total) for h in Hand.objects.filter(match=match)] == [(1, 1, 10)]
    for size, viewport in (("tablet", TABLET), ("phone", PHONE)):
        offline.set_viewport_size(viewport)
        SHOTS.mkdir(parents=True, exist_ok=True)
        offline.screenshot(path=SHOTS / f"conflict-{size}.png")
        assert offline.evaluate("document.documentElement.scrollWidth <= innerWidth")
    offline.set_viewport_size(TABLET)

    # Drop ours: hand 1 stays Betty's; the next waiting hand (Dot's, as hand 2) goes on.
    panel.get_by_role("button", name="Drop ours: keep the other device’s").click()
    expect(offline.locator("#outbox-notice")).to_contain_text("Everything waiting has been sent")
    expect(panel).to_be_hidden()
    assert [(h.number, h.winner, h.total) for h in Hand.objects.filter(match=match)] == [
        (1, 1, 10),
        (2, 3, 8),
    ]


def test_keep_ours_opens_the_correction_with_our_hand(table, live_server, browser):
    url, match = table
    online = open_table(browser, live_server, url)
    offline = open_table(browser, live_server, url)
    offline.context.set_offline(True)
    enter_win(offline, 1, "Carol", "Self-drawn from the wall", 12)
    record_quick_win(online, 1, "Betty", "Self-drawn from the wall", 10)
    offline.context.set_offline(False)
    offline.get_by_role("button", name="Ours is right: correct hand 1").click()
    expect(offline.get_by_label("Total (points)")).to_have_value("12")
    expect(
        offline.get_by_role("group", name="Who won?").get_by_label("Carol", exact=False)
    ).to_be_checked()
    assert (
        offline.evaluate("Object.keys(localStorage).filter(k => k.startsWith('table-outbox'))")
        == []
    )
    assert [(h.number, h.winner) for h in Hand.objects.filter(match=match)] == [(1, 1)]


def test_three_hands_waiting_on_a_tablet_and_a_phone(table, live_server, browser):
    url, match = table
    for size, viewport in (("tablet", TABLET), ("phone", PHONE)):
        page = open_table(browser, live_server, url, viewport)
        page.context.set_offline(True)
        enter_win(page, 1, "Betty", "Self-drawn from the wall", 10)
        enter_win(page, 2, "Carol", "On a discard", 8, discarder="Ann")
        page.get_by_role("button", name="Record a draw for hand 3").click()
        expect(page.locator(NOTICE)).to_have_text("3 hands waiting to be sent")
        # After a draw the next hand's form is back in view: no scroll before the next win.
        expect(page.locator("#win-form .tiles-players").first).to_be_in_viewport()
        expect(page.locator(NOTICE)).to_be_in_viewport()
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SHOTS / f"waiting-{size}.png")
        page.screenshot(path=SHOTS / f"waiting-{size}-full.png", full_page=True)
        # Clear this device's outbox before the next size: nothing is sent.
        page.evaluate("localStorage.clear()")
        page.context.close()
    assert not Hand.objects.filter(match=match).exists()


def two_hands_waiting_on_a_phone(browser, live_server, url):
    """A phone at the table, offline, with hands 1 and 2 waiting to be sent."""
    page = open_table(browser, live_server, url, PHONE)
    page.context.set_offline(True)
    enter_win(page, 1, "Betty", "Self-drawn from the wall", 10)
    enter_win(page, 2, "Carol", "On a discard", 8, discarder="Ann")
    expect(page.locator(NOTICE)).to_have_text("2 hands waiting to be sent")
    return page


def test_a_hand_half_typed_while_the_waiting_ones_are_sent_is_kept(table, live_server, browser):
    """Back online, each hand sent puts the server's table in: the next hand, half typed on
    the phone meanwhile, stays as it was (the choices, the total, the cursor in the total's
    box), and is then saved with its payments worked out as usual."""
    url, match = table
    page = two_hands_waiting_on_a_phone(browser, live_server, url)
    form = page.locator("#win-form")
    expect(form.locator(".form-heading")).to_have_text("Record hand 3")
    form.get_by_role("group", name="Who won?").get_by_label("Dot", exact=False).check()
    form.get_by_label("Self-drawn from the wall").check()
    total = form.get_by_label("Total the table agreed (points)")
    total.fill("1")
    total.press_sequentially("2")

    page.context.set_offline(False)
    expect(page.locator("#outbox-notice")).to_contain_text("Everything waiting has been sent")
    assert [h[:2] for h in hands_of(match)] == [(1, 1), (2, 2)]
    form = page.locator("#win-form")
    expect(form.locator(".form-heading")).to_have_text("Record hand 3")
    expect(
        form.get_by_role("group", name="Who won?").get_by_label("Dot", exact=False)
    ).to_be_checked()
    expect(form.get_by_label("Self-drawn from the wall")).to_be_checked()
    total = form.get_by_label("Total the table agreed (points)")
    expect(total).to_have_value("12")
    expect(total).to_be_focused()
    # With nothing left waiting, the payments are worked out for it as for any hand.
    expect(page.locator("#preview")).to_contain_text("receives")
    form.get_by_role("button", name="Save hand 3").click()
    expect(page.locator(".board-hand")).to_have_text("Hand 4")
    assert hands_of(match)[-1] == (3, 3, "wall", None, 12, False)


def test_kong_chips_half_chosen_while_the_waiting_ones_are_sent_are_kept(
    table, live_server, browser
):
    """The same for kong chips: chosen (who, which kind) but not yet saved when the waiting
    hands go, they stay chosen and the box stays open. Saved, they go with the save: the
    next kong of the same hand starts empty, also after a reload."""
    url, match = table
    page = two_hands_waiting_on_a_phone(browser, live_server, url)
    page.locator(".kong-box summary").click()
    form = page.locator("#kong-form")
    who = form.get_by_role("group", name="Who made the kong?").get_by_label("Dot", exact=False)
    who.check()
    form.get_by_label("Kong on a discard", exact=False).check()

    page.context.set_offline(False)
    expect(page.locator("#outbox-notice")).to_contain_text("Everything waiting has been sent")
    assert [h[:2] for h in hands_of(match)] == [(1, 1), (2, 2)]
    expect(page.locator(".kong-box")).to_have_attribute("open", "")
    form = page.locator("#kong-form")
    expect(
        form.get_by_role("group", name="Who made the kong?").get_by_label("Dot", exact=False)
    ).to_be_checked()
    expect(form.get_by_label("Kong on a discard", exact=False)).to_be_checked()
    form.get_by_role("button", name="Save kong chips").click()
    expect(page.locator(".kong-box summary")).to_have_text("Kong chips: 1 saved this hand")
    # The next hand's form is back in view after kong chips (their box is below it).
    expect(page.locator("#win-form .tiles-players").first).to_be_in_viewport()
    assert [(k.hand_number, k.chair, k.kind) for k in KongChips.objects.filter(match=match)] == [
        (3, 3, "discard")
    ]
    page.reload()
    expect(page.locator("#kong-form input[type=radio]:checked")).to_have_count(0)


def test_logging_out_with_hands_waiting_is_held_back(table, live_server, browser, browser_watch):
    """Log out with hands waiting: the outbox holds the logout back (the shell's cancelable
    `club:before-clear`) and asks. "Log out anyway" goes on with the logout, which clears
    the device only once the server answers: offline it says so and the hands stay; back
    online they are sent, and the logout then clears the device."""
    url, match = table
    page = open_table(browser, live_server, url)
    page.context.set_offline(True)
    enter_win(page, 1, "Betty", "Self-drawn from the wall", 10)
    enter_win(page, 2, "Betty", "Self-drawn from the wall", 10)
    page.get_by_role("button", name="Log out").click()
    panel = page.locator("#outbox-stopped")
    expect(panel).to_contain_text(
        "2 hands are waiting to be sent; connect to the club’s Wi-Fi first"
    )
    expect(page.locator(".site-footer")).to_contain_text("Logged in as boss")

    browser_watch.allow(
        r"(request failed: POST|console error: Failed to load resource: net::ERR_INTERNET_"
        r"DISCONNECTED \().*/accounts/logout/",
        "the logout sent without a connection: what the test checks",
    )
    panel.get_by_role("button", name="Log out anyway (they will be lost)").click()
    expect(
        page.get_by_role("alert").filter(has_text="Logging out needs the connection")
    ).to_be_visible()
    expect(page.locator(NOTICE)).to_have_text("2 hands waiting to be sent")  # nothing lost yet

    page.context.set_offline(False)
    expect(page.locator("#outbox-notice")).to_contain_text("Everything waiting has been sent")
    assert [h.number for h in Hand.objects.filter(match=match)] == [1, 2]
    page.get_by_role("button", name="Log out").click()  # nothing waits: no question
    expect(page.get_by_role("navigation").get_by_role("link", name="Log in")).to_be_visible()
    assert page.evaluate("Object.keys(localStorage)") == []
    page.context.close()


def test_at_a_table_of_five_the_dreamer_moves_on_offline(live_server, browser):
    """The Dreamer sits out by the flow: offline, the board and the player buttons follow
    (Eve dreams hand 1, plays North in hand 2; Ann, the old dealer, dreams)."""
    session = one_named_table("u3a", [*NAMES, "Eve"])
    start_play(session)
    make_coordinator(UserFactory(username="boss"))
    url = f"{live_server.url}/play/{session.pk}/tables/1/"
    page = open_table(browser, live_server, url)
    who_won = page.locator("#win-form").get_by_role("group", name="Who won?")
    expect(who_won.get_by_role("radio", name="Eve", exact=False)).to_have_count(0)
    page.context.set_offline(True)
    enter_win(page, 1, "Betty", "On a discard", 10, discarder="Dot")
    expect_board(page, 2, "Betty")
    expect(page.locator(".seat-card", has_text="Ann")).to_contain_text("sits out this hand")
    expect(page.locator(".seat-card", has_text="Eve")).to_contain_text("North")
    expect(who_won.get_by_role("radio", name="Eve North")).to_have_count(1)
    expect(who_won.get_by_role("radio", name="Ann", exact=False)).to_have_count(0)
    expect(who_won.get_by_role("radio", name="Betty East, deals")).to_have_count(1)
    # The buttons work as the server's: Eve wins hand 2 offline, then all is sent.
    enter_win(page, 2, "Eve", "Self-drawn from the wall", 8)
    expect_board(page, 3, "Carol")
    page.context.set_offline(False)
    expect(page.locator("#outbox-notice")).to_contain_text("Everything waiting has been sent")
    expect_board(page, 3, "Carol")
    expect(page.locator(".seat-card", has_text="Betty")).to_contain_text("sits out this hand")
    match = Match.objects.get(session=session)
    assert [(h.number, h.winner, h.discarder) for h in match.live_hands()] == [
        (1, 1, 3),
        (2, 4, None),
    ]


def test_an_evening_ended_before_the_hands_were_sent_stops_and_asks(table, live_server, browser):
    url, match = table
    page = open_table(browser, live_server, url)
    page.context.set_offline(True)
    enter_win(page, 1, "Betty", "Self-drawn from the wall", 10)
    enter_win(page, 2, "Carol", "Self-drawn from the wall", 12)
    end_evening(Session.objects.get(pk=match.session_id))
    page.context.set_offline(False)
    panel = page.locator("#outbox-stopped")
    # Every hand waiting is named, in a sentence.
    expect(panel.locator("h2")).to_have_text(
        re.compile(
            r"^The coordinator ended the evening at \d\d:\d\d before hands 1 and 2 could be sent\.$"
        )
    )
    expect(panel.locator(".outbox-ours")).to_contain_text("Hand 1: Betty won self-drawn")
    expect(panel.locator(".outbox-ours")).to_contain_text("Hand 2: Carol won self-drawn")
    expect(panel).to_contain_text("no more hands can be recorded here")
    expect(page.locator("#record")).to_be_hidden()  # said plainly in the panel
    expect(page.locator(".evening-ended")).to_have_count(0)  # the panel's choices only
    expect_board(page, 3, "Carol")  # the board agrees with the list: hands 1 and 2 waiting
    expect(panel.get_by_role("button", name="Try sending again")).to_be_visible()
    assert not Hand.objects.filter(match=match).exists()
    panel.get_by_role("button", name="Drop hand 1 (it will be lost)").click()
    # Carol's hand moves up a number: it would be hand 1 once the evening reopens.
    expect(panel.locator("h2")).to_contain_text("before hand 1 could be sent.")
    expect(panel.locator(".outbox-ours")).to_have_text(
        "Hand 1: Carol won self-drawn from the wall, 12 points"
    )
    expect_board(page, 2, "Betty")  # Carol won Ann's deal: it passes on
    panel.get_by_role("button", name="Drop hand 1 (it will be lost)").click()
    expect(panel).to_be_hidden()
    expect(page.locator(".waiting-list")).to_have_count(0)
    expect(page.locator(".board-hand")).to_have_text("Hand 1")  # the server's, again
    # Nothing waits and nothing can be recorded: the page says so plainly.
    expect(page.locator(".evening-over")).to_contain_text("no more hands can be recorded")
    assert not Hand.objects.filter(match=match).exists()


def test_a_login_that_ran_out_stops_and_keeps_the_hands(table, live_server, browser, browser_watch):
    why = "the device's login is removed on purpose: the server refuses the send (403)"
    browser_watch.allow(r"answer 403: POST [^ ]*/tables/1/win/", why)
    browser_watch.allow(r"status of 403 .*/tables/1/win/", why)
    url, match = table
    page = open_table(browser, live_server, url)
    page.context.set_offline(True)
    enter_win(page, 1, "Betty", "Self-drawn from the wall", 10)
    page.context.clear_cookies()
    page.context.set_offline(False)
    panel = page.locator("#outbox-stopped")
    expect(panel).to_contain_text("This device must log in again before these can be sent")
    login = panel.get_by_role("link", name="Log in again, then come back to this table")
    expect(login).to_have_attribute("href", re.compile(r"/accounts/login/\?next=%2Fplay%2F"))
    expect(page.locator(NOTICE)).to_have_text("1 hand waiting to be sent")
    assert not Hand.objects.filter(match=match).exists()
    # Logged in again and back at the table: the hand is sent by itself, once.
    log_in(page, live_server.url, "boss")
    page.goto(url)
    expect(page.locator("#outbox-notice")).to_contain_text("Everything waiting has been sent")
    assert [(h.number, h.winner) for h in Hand.objects.filter(match=match)] == [(1, 1)]


def open_by_card(browser, key, live_server, viewport=TABLET):
    """A tablet with no login that scanned the table's card."""
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{live_server.url}/t/{key.code}/")
    expect(page.locator("html")).to_have_attribute("data-outbox", "on")
    return kept_for_a_drop(page)


def test_a_tablet_whose_card_was_stopped_during_a_drop_is_told_so_and_sends_with_the_new_card(
    table, live_server, browser, browser_watch
):
    """No login to ask for: the panel says the card no longer opens the table; scanning the
    table's new card brings the tablet back, and what waited is sent, once."""
    why = "the table's card is stopped on purpose: the server refuses the send (403)"
    browser_watch.allow(r"answer 403: POST [^ ]*/tables/1/win/", why)
    browser_watch.allow(r"status of 403 .*/tables/1/win/", why)
    url, match = table
    old = TableKey.objects.for_tables(match.session, [1])[1]
    page = open_by_card(browser, old, live_server)
    page.context.set_offline(True)
    enter_win(page, 1, "Betty", "Self-drawn from the wall", 10)
    new, _ = TableKey.reissue(match.session, 1, None, old.pk)  # a lost card, meanwhile
    page.context.set_offline(False)
    panel = page.locator("#outbox-stopped")
    expect(panel).to_contain_text("The table’s card no longer opens this table on this device")
    expect(panel).to_contain_text("Ask the coordinator for the table’s new card")
    expect(panel.get_by_role("link", name=re.compile("Log in"))).to_have_count(0)
    assert not Hand.objects.filter(match=match).exists()

    page.goto(f"{live_server.url}/t/{new.code}/")
    expect(page.locator("#outbox-notice")).to_contain_text("Everything waiting has been sent")
    hand = Hand.objects.get(match=match)
    assert (hand.number, hand.winner, hand.recorded_with) == (1, 1, new)
    page.context.close()


def test_a_tablet_by_card_whose_evening_ended_during_a_drop_is_told_so(table, live_server, browser):
    url, match = table
    page = open_by_card(browser, TableKey.objects.for_tables(match.session, [1])[1], live_server)
    page.context.set_offline(True)
    enter_win(page, 1, "Betty", "Self-drawn from the wall", 10)
    end_evening(match.session)
    page.context.set_offline(False)
    panel = page.locator("#outbox-stopped")
    expect(panel).to_contain_text("The coordinator ended the evening at")
    expect(panel).to_contain_text("before hand 1 could be sent.")
    assert not Hand.objects.filter(match=match).exists()
    page.context.close()
