"""Table keys in a real browser: a tablet with no login scans the table's card (opens
/t/<code>/) and is at the table page with no tap; it records a whole match by quick entry;
the coordinator's score sheet says "recorded on the table 1 tablet"; a phone types the code
at /t/. The coordinator's Table keys page and the printed card are photographed."""

from pathlib import Path

from playwright.sync_api import expect

from club.roles import make_coordinator
from games.models import Match, TableKey
from games.start import end_evening, start_play
from scoring.models import Hand
from tests.browser.helpers import (
    TARGETS_TOO_SMALL,
    axe_violations,
    kept_for_a_drop,
    log_in,
    record_quick_win,
)
from tests.factories import UserFactory
from tests.games.helpers import one_named_table

TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Betty", "Carol", "Dot"]
SHOTS = Path("test-results/table-keys")
# A one-round fan match: four hands, each won by the player after the dealer (the deal
# passes every hand under fan): (winner, total in fan).
MATCH = [("Betty", 8), ("Carol", 10), ("Dot", 9), ("Ann", 8)]


def checked(page, where: str) -> None:
    problems = axe_violations(page, where) + [
        f"{where}: tap target too small: {t}" for t in page.evaluate(TARGETS_TOO_SMALL)
    ]
    assert problems == [], "\n".join(problems)


def test_a_tablet_with_no_login_records_a_whole_match_with_the_tables_key(
    live_server, browser, transactional_db, browser_watch
):
    SHOTS.mkdir(parents=True, exist_ok=True)
    session = one_named_table("fan", NAMES)
    boss = UserFactory(username="boss")
    make_coordinator(boss)
    start_play(session)
    # The club's settings play four rounds; one round keeps the browser's match short.
    Match.objects.filter(session=session).update(flow_options={"rounds": 1})

    # The coordinator's Table keys page (its first visit issues the card) and its print.
    coordinator = log_in(browser.new_page(viewport=TABLET), live_server.url, "boss")
    coordinator.goto(f"{live_server.url}/club/sessions/{session.pk}/")
    coordinator.get_by_role("link", name="Table keys (tablets without logins)").click()
    key = TableKey.objects.get(session=session, table_number=1)
    expect(coordinator.locator(".key-code")).to_have_text(key.shown_code)
    expect(coordinator.get_by_role("img", name="QR code that opens table 1")).to_be_visible()
    checked(coordinator, "Table keys page")
    coordinator.screenshot(path=SHOTS / "keys-page-tablet.png", full_page=True)
    coordinator.emulate_media(media="print")
    qr = coordinator.locator(".key-qr").bounding_box()
    # At least 4 cm wide on paper (CSS: 96 px to the inch, 2.54 cm to the inch).
    assert qr["width"] / 96 * 2.54 >= 4, qr
    coordinator.screenshot(path=SHOTS / "keys-page-printed.png", full_page=True)
    # The seating's Print: each table's card carries its QR code and code too.
    coordinator.goto(f"{live_server.url}/club/sessions/{session.pk}/seating/print/")
    expect(coordinator.locator(".print-card .key-code")).to_have_text(key.shown_code)
    coordinator.screenshot(path=SHOTS / "seating-card-printed.png", full_page=True)
    assert coordinator.locator(".print-card .key-qr").bounding_box()["width"] / 96 * 2.54 >= 4
    coordinator.emulate_media(media="screen")

    # The tablet: no login. Scanning the card opens its address; no tap to the table page.
    tablet = browser.new_context(viewport=TABLET, has_touch=True).new_page()
    tablet.goto(f"{live_server.url}/t/{key.code}/")  # what the camera does: no tap here
    expect(tablet).to_have_url(f"{live_server.url}/play/{session.pk}/tables/1/")
    expect(tablet.locator(".board-hand")).to_have_text("Hand 1")
    checked(tablet, "table page with a key")

    # A whole match by quick entry. Each win: who won, how, the total, Save.
    for hand, (winner, total) in enumerate(MATCH, start=1):
        record_quick_win(
            tablet,
            hand,
            winner,
            "Self-drawn from the wall",
            total,
            unit="fan",
            last=hand == len(MATCH),
        )
    tablet.screenshot(path=SHOTS / "table-match-over-tablet.png", full_page=True)
    match = Match.objects.get(session=session)
    assert not match.is_in_play
    hands = list(Hand.objects.filter(match=match).order_by("number"))
    assert [h.total for h in hands] == [t for _, t in MATCH]
    assert all(h.recorded_with == key and h.recorded_by is None for h in hands)

    # The coordinator's score sheet says where each hand was recorded.
    coordinator.goto(f"{live_server.url}/scoring/matches/{match.pk}/")
    expect(coordinator.get_by_text("(recorded on the table 1 tablet)")).to_have_count(len(MATCH))

    # A phone without a camera: the code typed at /t/, in small letters with spaces.
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    phone.goto(f"{live_server.url}/t/")
    expect(phone.get_by_label("Type the code on the table's card")).to_be_visible()
    checked(phone, "/t/ on a phone")
    phone.get_by_label("Type the code on the table's card").fill("0000 0000 00")
    phone.get_by_role("button", name="Open the table").click()
    expect(phone.get_by_text("That code does not open a table.")).to_be_visible()
    phone.screenshot(path=SHOTS / "type-code-phone-refused.png", full_page=True)
    code = phone.get_by_label("Type the code on the table's card")
    expect(code).to_have_value("0000 0000 00")  # what was typed stays
    code.fill(key.shown_code.lower().replace("-", " "))
    phone.screenshot(path=SHOTS / "type-code-phone.png", full_page=True)
    phone.get_by_role("button", name="Open the table").click()
    expect(phone).to_have_url(f"{live_server.url}/play/{session.pk}/tables/1/")
    expect(phone.locator(".board-hand")).to_have_text("Match over")
    # Taps from sitting down: the scan opens the page (0 taps); the first hand is then
    # record_quick_win's four: who won, how, the total's box (and its digits), Save.
    # A lost card: the coordinator re-issues it (htmx swaps the table's card in place); the
    # old card stops at once, on the tablet that held it.
    refused = r"/play/\d+/tables/1/\)?$"
    browser_watch.allow(r"answer 403: GET \S+" + refused, "the old card is refused")
    browser_watch.allow(r"status of 403 \(Forbidden\) \(\S+" + refused, "its console line")
    coordinator.goto(f"{live_server.url}/play/{session.pk}/keys/")
    # It asks first: the card's "Re-issue" opens to say what happens, then a second press.
    coordinator.get_by_text("Re-issue table 1's card (lost card)").click()
    expect(coordinator.locator("#key-card-1")).to_contain_text("stops working at once")
    coordinator.screenshot(path=SHOTS / "keys-page-reissue-asks.png", full_page=True)
    coordinator.get_by_role("button", name="Yes, make a new card for table 1").click()
    expect(coordinator.locator("#key-card-1 .message")).to_contain_text("Table 1 has a new card")
    new = TableKey.objects.live().get(session=session, table_number=1)
    assert new.pk != key.pk
    expect(coordinator.locator("#key-card-1 .key-code")).to_have_text(new.shown_code)
    expect(coordinator.locator("#keys-status")).to_contain_text("Table 1 has a new card")
    coordinator.screenshot(path=SHOTS / "keys-page-reissued.png", full_page=True)
    tablet.reload()
    expect(tablet.get_by_role("heading", name="This table card does not work")).to_be_visible()
    for page in (tablet, phone, coordinator):
        page.close()


def test_leaving_the_table_leaves_nothing_readable_on_a_shared_tablet(
    live_server, browser, transactional_db, browser_watch
):
    """A tablet that came in with the table's card has no login to log out of: "Leave this
    table" forgets the key and clears what the device kept (its stores, the worker's copy
    of the table page), after warning of hands still waiting to be sent."""
    session = one_named_table("u3a", NAMES)
    start_play(session)
    key = TableKey.objects.for_tables(session, [1])[1]
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{key.code}/")
    expect(page.locator(".board-hand")).to_have_text("Hand 1")
    kept_for_a_drop(page)
    page.evaluate(
        """() => { sessionStorage.setItem("typed", "Carol 8");
                   localStorage.setItem("table-outbox:999", JSON.stringify({entries: [{}]})); }"""
    )
    leave = page.get_by_role("button", name="Leave this table (forget its card on this device)")
    leave.click()
    expect(page.get_by_role("alert")).to_contain_text("1 hand is waiting on this tablet")
    leave.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Open a table")  # /t/
    stores = page.evaluate(
        """async () => ({caches: await caches.keys(), local: Object.keys(localStorage),
             session: Object.keys(sessionStorage).filter((k) => !k.startsWith("htmx-"))})"""
    )
    assert stores == {"caches": [], "local": [], "session": []}
    page.goto(f"{live_server.url}/play/{session.pk}/tables/1/")
    expect(page.get_by_label("Username")).to_be_visible()  # the table is not open to it now
    context.close()


def test_a_card_device_stops_asking_for_news_once_the_evening_ends(
    live_server, browser, transactional_db, browser_watch
):
    """Reported: after "End the evening" the card device's page went on polling, each poll
    refused (403, a console error). Now the next poll brings the last board and says why,
    and no poll follows (the browser watch fails on any refused request)."""
    session = one_named_table("u3a", NAMES)
    start_play(session)
    key = TableKey.objects.for_tables(session, [1])[1]
    page = browser.new_context(viewport=TABLET).new_page()
    page.goto(f"{live_server.url}/t/{key.code}/")
    expect(page.locator(".board-hand")).to_have_text("Hand 1")
    kept_for_a_drop(page)  # the service worker has kept the page (its own fetch is done)
    polls = []
    page.on("request", lambda request: "/poll/" in request.url and polls.append(request.url))
    end_evening(session)
    expect(page.get_by_text("The coordinator has ended the evening")).to_be_visible(timeout=10_000)
    asked = len(polls)
    page.wait_for_timeout(6_000)  # longer than the poll's interval (about 4 s)
    assert len(polls) == asked, polls
    page.close()
