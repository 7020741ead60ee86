"""A whole club evening in real browsers, as the people in the hall would live it.

The coordinator on a tablet checks in eighteen members by tapping their names, adds a
walk-in, makes and publishes the seating and starts play. Four tables record hands side by
side, each on its own device logged in as a member seated there: quick-entry wins, a full
hand tapped out in the tile picker, a draw and its goulash hand, a hand undone. A late
arrival and an early leaver change two tables during play; the coordinator corrects a
hand, ends the evening and reads the results, and a member finds her place on her phone.
Mid-evening a stranger starts a second club by the sign-up page on a phone: the club
served at the root stays there (its tablets record on, its pages answer where they did).
One table's tablet loses the Wi-Fi and records two hands that wait on it while the evening
is ended; back online it names both, and they are dropped as the page offers.

axe-core (its default rule set, best practices included) checks every page the evening
visits and the important htmx answers; all its findings are gathered and must be none.
Each step leaves a full-page screenshot in test-results/whole-evening/.

The keyboard-only check-in is its own test at the end of this module.
"""

import datetime
import re
import shutil
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import pytest
from playwright.sync_api import expect

from club.models import Club, Member, Seat, Session
from games.models import Match
from scoring.models import Hand, KongChips
from scoring.results import ordinal
from scoring.templatetags.standings_tags import signed
from tests.browser.helpers import (
    axe_violations,
    is_focused,
    kept_for_a_drop,
    log_in,
    record_quick_win,
    tab_to,
)
from tests.factories import CoordinatorFactory, UserFactory
from tests.faults.server import Gunicorn

TABLET = {"width": 800, "height": 1280}
TABLE_TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "whole-evening"

# Eighteen members; the first four have logins and always sit at tables 1 to 4 (the
# club's "always at table N"), so each recording table has someone who may record there;
# Edna has a login to look on her phone. Larry (not among them) arrives late.
NAMES = [
    ("Ann Archer", "Ann"),
    ("Bill Brown", "Bill"),
    ("Cath Cole", "Cath"),
    ("Dave Dunn", "Dave"),
    ("Edna Ellis", "Edna"),
    ("Frank Ford", "Frank"),
    ("Gwen Gray", "Gwen"),
    ("Harry Hill", "Harry"),
    ("Iris Irving", "Iris"),
    ("Jack Jones", "Jack"),
    ("Kath King", "Kath"),
    ("Len Lamb", "Len"),
    ("Mary Moss", "Mary"),
    ("Ned Nash", "Ned"),
    ("Olive Owen", "Olive"),
    ("Percy Pike", "Percy"),
    ("Queenie Quinn", "Queenie"),
    ("Ron Reed", "Ron"),
]
TABLE_LOGINS = {1: "ann", 2: "bill", 3: "cath", 4: "dave"}
PHONE_LOGIN = "edna"
WALK_IN = "Wendy Walker"
LATE = ("Larry Late", "Larry")
# The club a stranger starts mid-evening, and its first coordinator's login.
SECOND_CLUB = {"name": "Hilltop Tiles", "slug": "hilltop-tiles", "username": "hilda"}
SECOND_PASSWORD = "tiles-and-tea-2026"


class Evening:
    """What the journey carries from step to step: the server, the screenshots and the
    accessibility findings gathered on every page visited."""

    def __init__(self, base: str, session: Session, screenshots: Path):
        self.base = base
        self.session = session
        self.screenshots = screenshots
        self.shots = 0
        self.checked: list[str] = []
        self.problems: list[str] = []

    def url(self, path: str) -> str:
        return self.base + path

    def look(self, page, name: str) -> None:
        """axe on the page as it is now, and a full-page screenshot named after the step."""
        where = f"{name} ({page.url.removeprefix(self.base)})"
        self.checked.append(where)
        self.problems += axe_violations(page, where)
        # Nothing may make the page wider than the screen (a wide table scrolls inside its
        # own box): the whole page sliding sideways under a finger loses older players.
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if overflow > 0:
            self.problems.append(f"{where}: the page is {overflow} px wider than the screen")
        self.shots += 1
        path = self.screenshots / f"{self.shots:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)

    def table_page(self, page, number: int):
        page.goto(self.url(f"/play/{self.session.pk}/tables/{number}/"))
        expect(page.get_by_role("heading", level=1)).to_contain_text(f"Table {number}")
        return page

    def table_page_catches_up(self, page, number: int, players: int):
        """A table's tablet left open while the coordinator moved its players: its poll sees
        the new match and reloads the page by itself, with no one touching it. (Going to the
        page from the test instead would race that reload: one aborts the other.)"""
        expect(page.locator(".seat-card")).to_have_count(players, timeout=20_000)
        page.wait_for_load_state("load")
        expect(page.get_by_role("heading", level=1)).to_contain_text(f"Table {number}")
        return page


@pytest.fixture
def screenshots(request):
    """The folder the journey's screenshots go to, one per server (live_server,
    gunicorn-production), emptied first so a run shows only its own steps."""
    folder = SCREENSHOTS / request.node.callspec.params["site"]
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


@pytest.fixture(params=["live_server", "gunicorn-production"])
def site(request, club_evening):
    """The server the hall's devices talk to: Django's live server, and a real gunicorn
    with DEBUG off serving the static files from `collectstatic` through the production
    storage (whitenoise's manifest), as a club's own computer would. Both use the test
    database; the gunicorn stops before it is emptied. Both let strangers start clubs
    (CLUB_SIGNUP), as a hosted installation does; the club is made before the server
    starts (with sign-up on, a site with no club yet lists clubs at its root)."""
    if request.param == "live_server":
        request.getfixturevalue("settings").CLUB_SIGNUP = True
        yield request.getfixturevalue("live_server").url
        return
    server = Gunicorn(
        static_root=request.getfixturevalue("production_static"), env={"CLUB_SIGNUP": "true"}
    )
    try:
        server.start()
        server.wait_until_ready()
        yield server.url
    finally:
        server.close()


@pytest.fixture
def new_context(browser, site, club_evening):
    """Browser contexts (one per device in the hall), all
    closed while the evening's data still exists: an open context keeps its connections to
    the live server, and with them the server's database connections."""
    made = []

    def make(**kwargs):
        made.append(browser.new_context(**kwargs))
        return made[-1]

    yield make
    for context in made:
        context.close()


@pytest.fixture
def club_evening(transactional_db):
    club = Club.objects.current()
    club.name = "Riverside Mahjong"
    club.rule_set = "u3a"  # house rules: a draw makes the next hand a goulash hand
    # 19 people (18 members and a walk-in) make four tables of four and one of three; the
    # planner never mixes fives and threes, so the table of five comes from the late
    # arrival, who always sits at table 1.
    club.odd_tables = Club.OddTables.THREE
    club.save()
    for index, (name, table_name) in enumerate(NAMES):
        member = Member.objects.create(club=club, name=name, table_name=table_name)
        number = index + 1
        if number in TABLE_LOGINS:
            member.user = UserFactory(username=TABLE_LOGINS[number])
            member.fixed_table = number
        elif table_name.lower() == PHONE_LOGIN:
            # Table 2 records hands, so she has a result for the season's standings (a
            # table that never records one, like the three here, gives nobody a result).
            member.user = UserFactory(username=PHONE_LOGIN)
            member.fixed_table = 2
        member.save()
    Member.objects.create(club=club, name=LATE[0], table_name=LATE[1], fixed_table=1)
    CoordinatorFactory(username="boss")
    session = Session.objects.create(club=club, date=datetime.date.today(), venue="The Hall")
    return session


def names_at(session, number: int) -> list[str]:
    """The table names at table `number` of the seating, East first."""
    seats = Seat.objects.filter(plan__session=session, table__number=number)
    return [s.member.table_name for s in seats.select_related("member").order_by("position")]


def in_play(session, number: int) -> Match:
    return Match.objects.get(session=session, table_number=number, status=Match.Status.IN_PLAY)


def chair_names(match: Match) -> list[str]:
    """The players' table names in chair order: chair 0 dealt the first hand (East)."""
    return [chair.member.table_name for chair in match.chair_list()]


def expect_board(page, match: Match):
    """The table page shows the hand, dealer and every tally the database holds."""
    match = Match.objects.get(pk=match.pk)
    state = match.replay()[-1]
    names = chair_names(match)
    expect(page.locator(".board-hand")).to_have_text(f"Hand {state.hand}")
    expect(page.locator(".board-line")).to_contain_text(f"{names[state.dealer]} deals")
    for name, tally in zip(names, match.tallies(), strict=True):
        card = page.locator(".seat-card", has_text=name)
        expect(card.locator(".seat-tally")).to_have_text(f"Tally {tally}")


# --- the steps -------------------------------------------------------------------------------


def coordinator_checks_everyone_in(evening: Evening, page):
    expect(page.get_by_role("heading", level=1)).to_contain_text("Tonight:")
    evening.look(page, "tonight-before")
    page.locator("#step-check_in").get_by_role("link").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Check-in")
    evening.look(page, "check-in-empty")
    counts = page.locator("#checkin-counts")
    for here, (_, table_name) in enumerate(NAMES, start=1):
        row = page.locator("#checkin-list li", has_text=table_name).first
        row.get_by_role("button", name=re.compile(table_name)).tap()
        expect(row).to_contain_text("✓ Here")
        expect(counts).to_contain_text(f"{here} here")
    page.get_by_label("Name of the walk-in or guest").fill(WALK_IN)
    page.get_by_role("button", name="Check them in").click()
    expect(page.locator("#walk-in [role=status]")).to_contain_text(f"{WALK_IN} is added")
    expect(counts).to_contain_text(f"{len(NAMES) + 1} here")
    evening.look(page, "check-in-all-here")
    assert evening.session.attendances.count() == len(NAMES) + 1


def coordinator_seats_the_room_and_starts_play(evening: Evening, page):
    page.get_by_role("link", name="Home").click()
    page.locator("#step-seating").get_by_role("link", name="Seating").click()
    page.get_by_role("button", name="Make the seating").click()
    expect(page.get_by_role("heading", name="Table 5")).to_be_visible()
    evening.look(page, "seating-made")
    sizes = [len(names_at(evening.session, n)) for n in range(1, 6)]
    assert sizes == [4, 4, 4, 4, 3]
    for number, username in TABLE_LOGINS.items():
        assert Member.objects.get(user__username=username).table_name in names_at(
            evening.session, number
        )
    # Two people swapped by tapping one name, then the other (nobody with a fixed table).
    fixed = {m.table_name for m in Member.objects.exclude(fixed_table=None)}
    one = next(n for n in names_at(evening.session, 2) if n not in fixed)
    other = next(n for n in names_at(evening.session, 5) if n not in fixed)
    page.get_by_role("button", name=one, exact=True).tap()
    expect(page.locator("#answer")).to_contain_text(f"{one} is chosen")
    page.get_by_role("button", name=other, exact=True).tap()
    expect(page.locator("#answer")).to_contain_text(f"{one} now sits at table 5")
    evening.look(page, "seating-swapped")
    assert one in names_at(evening.session, 5) and other in names_at(evening.session, 2)
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_role("button", name="Unpublish to change")).to_be_visible()
    evening.look(page, "seating-published")
    page.get_by_role("link", name="Home").click()
    page.locator("#step-start").get_by_role("button", name="Start play at the tables").click()
    expect(page.locator("#step-tables")).to_contain_text("5 tables playing")
    evening.look(page, "tonight-playing")


def tables_record_side_by_side(evening: Evening, pages: dict[int, object]):
    session = evening.session
    a, b, c, d = (pages[n] for n in (1, 2, 3, 4))
    names = {n: chair_names(in_play(session, n)) for n in (1, 2, 3, 4)}  # East first
    for number, page in pages.items():
        evening.table_page(page, number)
        expect(page.locator(".seat-name", has_text="(you)")).to_have_count(1)
    evening.look(a, "table-1-start")

    # A: a non-dealer draws the winning tile from the wall.
    record_quick_win(a, 1, names[1][1], "Self-drawn from the wall", 10)
    evening.look(a, "table-1-self-drawn")

    # B: a whole hand tapped out in the tile picker, scored before it is saved.
    b.get_by_role("link", name="Work out the score from the tiles").click()
    expect(b.get_by_role("heading", level=1)).to_contain_text("work out the score of hand 1")
    evening.look(b, "table-2-picker-empty")
    tiles = b.locator(".picker-tiles")
    labels = [f"{n} Bamboo" for n in range(1, 10)]
    labels += ["2 Characters", "3 Characters", "4 Characters", "Red dragon", "Red dragon"]
    # Tapped as a player does, looking at the count after each tile (taps faster than the
    # answers are tests/browser/test_picker.py's business, not the evening's).
    for count, label in enumerate(labels, start=1):
        tiles.get_by_role("button", name=label, exact=True).click()
        expect(b.locator("#hand-heading")).to_have_text(re.compile(rf": {count} tiles?$"))
    how = b.locator(".picker-how")
    how.get_by_role("group", name="Who won?").get_by_label(names[2][2], exact=False).check()
    how.get_by_label("Self-drawn from the wall").check()
    preview = b.locator("#picker-preview")
    total = preview.locator(".breakdown-total")
    expect(total).to_have_text(re.compile(r"^\d+ points?$"))
    shown_total = int(total.inner_text().split()[0])
    expect(preview).to_contain_text(f"{names[2][2]} receives")
    evening.look(b, "table-2-picker-scored")
    assert not Hand.objects.filter(match__table_number=2).exists()  # seen before saving
    b.get_by_role("button", name="Save hand 1").click()
    expect(b.locator(".board-hand")).to_have_text("Hand 2")
    hand = Hand.objects.get(match__table_number=2)
    assert hand.entry == Hand.Entry.FULL and hand.winner == 2 and hand.total == shown_total
    expect(b.locator(".message-success")).to_have_text(
        f"Hand 1 saved: {names[2][2]} won self-drawn from the wall, {hand.total} points."
    )

    # C: the wall runs out; under the house rules the next hand is a goulash hand.
    c.get_by_role("button", name="Record a draw for hand 1").click()
    expect(c.get_by_text("Goulash hand: pot 20")).to_be_visible()
    evening.look(c, "table-3-draw-goulash-next")

    # D: a win on a discard.
    record_quick_win(d, 1, names[4][0], "On a discard", 8, discarder=names[4][3])

    # A again: the new dealer wins on a discard.
    record_quick_win(a, 2, names[1][1], "On a discard", 6, discarder=names[1][2])

    # C: the goulash hand is won: its winner takes the pot.
    record_quick_win(c, 2, names[3][3], "Self-drawn from the wall", 5)
    expect(c.locator(".goulash-flag")).to_have_count(0)
    assert in_play(session, 3).live_hands().get(number=2).goulash

    # D: a second win, entered by mistake, and undone.
    record_quick_win(d, 2, names[4][1], "Self-drawn from the wall", 4)
    d.get_by_text("Undo the last hand").click()
    evening.look(d, "table-4-undo-offered")
    d.get_by_role("button", name="Undo hand 2").click()
    expect(d.locator(".hand-line.voided")).to_contain_text("undone")
    evening.look(d, "table-4-undone")

    for number, page in pages.items():
        expect_board(page, in_play(session, number))
    assert [h.number for h in in_play(session, 4).live_hands()] == [1]


def a_stranger_starts_a_second_club(evening: Evening, stranger, coordinator, tables, phone):
    """Mid-evening, someone on the internet starts a club of their own on a phone. The
    club served at the root stays there (a second club once moved it to /c/<slug>/ and
    every tablet's page answered 404): the tablets record on at the addresses they opened,
    and its standings and login page answer where they always did."""
    session = evening.session
    stranger.goto(evening.url("/signup/"))
    expect(stranger.get_by_role("heading", level=1)).to_have_text("Start your club")
    stranger.get_by_label("The club's name").fill(SECOND_CLUB["name"])
    stranger.get_by_label("The club's address").fill(SECOND_CLUB["slug"])
    stranger.get_by_label("Hong Kong Old Style faan").check()
    stranger.get_by_label("Your login name").fill(SECOND_CLUB["username"])
    stranger.get_by_label("Your password", exact=True).fill(SECOND_PASSWORD)
    stranger.get_by_label("Your password again").fill(SECOND_PASSWORD)
    evening.look(stranger, "second-club-sign-up")
    stranger.get_by_role("button", name="Start the club").click()
    expect(stranger).to_have_url(evening.url(f"/c/{SECOND_CLUB['slug']}/"))
    expect(stranger.get_by_text(f"{SECOND_CLUB['name']} is started at")).to_be_visible()
    evening.look(stranger, "second-club-started")
    assert Club.objects.count() == 2

    # Table 1's tablet, left open, records its next hand at the address it opened.
    names = chair_names(in_play(session, 1))
    hand = in_play(session, 1).replay()[-1].hand
    record_quick_win(tables[1], hand, names[3], "Self-drawn from the wall", 8)
    # Every table's page still answers at its root address and shows its board.
    for number, page in tables.items():
        address = evening.url(f"/play/{session.pk}/tables/{number}/")
        page.goto(address)
        expect(page).to_have_url(address)
        expect(page.get_by_role("heading", level=1)).to_contain_text(f"Table {number}")
        expect_board(page, in_play(session, number))
    evening.look(tables[1], "table-1-after-second-club")
    # The club's standings (the coordinator's tablet) and login page (a member's phone,
    # not logged in yet) answer at the root as before.
    coordinator.goto(evening.url("/standings/"))
    expect(coordinator).to_have_url(evening.url("/standings/"))
    expect(coordinator.get_by_role("heading", level=1)).to_contain_text("Season standings")
    expect(coordinator.locator("body")).to_contain_text("Riverside Mahjong")
    phone.goto(evening.url("/accounts/login/"))
    expect(phone).to_have_url(evening.url("/accounts/login/"))
    expect(phone.get_by_label("Username")).to_be_visible()
    evening.look(phone, "login-after-second-club")


def hands_recorded_at(session, number: int) -> int:
    """Every hand the server holds for table `number` tonight, undone ones too."""
    return Hand.objects.filter(match__session=session, match__table_number=number).count()


def a_tablet_records_two_hands_offline(evening: Evening, page) -> int:
    """Table 2's tablet loses the Wi-Fi: two wins wait on it (its outbox) while its board
    moves on. Returns the first waiting hand's number."""
    match = in_play(evening.session, 2)
    names = chair_names(match)
    hand = match.replay()[-1].hand
    saved = hands_recorded_at(evening.session, 2)
    kept_for_a_drop(page)  # opened with the connection: its page is kept on the device
    page.context.set_offline(True)
    form = page.locator("#win-form")
    for number, winner, total in ((hand, names[0], 10), (hand + 1, names[3], 12)):
        expect(form.locator(".form-heading")).to_have_text(f"Record hand {number}")
        form.get_by_role("group", name="Who won?").get_by_label(winner, exact=False).check()
        form.get_by_label("Self-drawn from the wall").check()
        form.get_by_label("Total the table agreed (points)").fill(str(total))
        form.get_by_role("button", name=f"Save hand {number}").click()
    expect(page.locator(".board-hand")).to_have_text(f"Hand {hand + 2}")
    evening.look(page, "table-2-offline-two-waiting")
    assert hands_recorded_at(evening.session, 2) == saved  # nothing sent
    return hand


def the_offline_tablet_finds_the_evening_ended(evening: Evening, page, hand: int):
    """Back online after the evening was ended: both waiting hands are named, and dropped
    as the page offers; then it says plainly that no more hands can be recorded."""
    saved = hands_recorded_at(evening.session, 2)
    page.context.set_offline(False)
    panel = page.locator("#outbox-stopped")
    expect(panel.locator("h2")).to_have_text(
        re.compile(
            rf"^The coordinator ended the evening at \d\d:\d\d before hands {hand} and "
            rf"{hand + 1} could be sent\.$"
        )
    )
    expect(panel).to_contain_text("no more hands can be recorded here")
    evening.look(page, "table-2-back-evening-ended")
    panel.get_by_role("button", name=f"Drop hand {hand} (it will be lost)").click()
    expect(panel.locator("h2")).to_contain_text(f"before hand {hand} could be sent.")
    panel.get_by_role("button", name=f"Drop hand {hand} (it will be lost)").click()
    expect(panel).to_be_hidden()
    expect(page.locator(".waiting-list")).to_have_count(0)
    expect(page.locator(".evening-over")).to_contain_text("no more hands can be recorded")
    evening.look(page, "table-2-hands-dropped")
    # Dropped: the server never had them, so the evening's results stand as shown.
    assert hands_recorded_at(evening.session, 2) == saved


def a_late_arrival_and_an_early_leaver(evening: Evening, coordinator, pages):
    session = evening.session
    coordinator.goto(evening.url(f"/club/sessions/{session.pk}/seating/manage/"))
    evening.look(coordinator, "seating-during-play")
    first_match = in_play(session, 1)

    # Larry always sits at table 1: he joins it as its fifth, the Dreamer.
    coordinator.get_by_label("Who has arrived?").select_option(label=LATE[1])
    coordinator.get_by_role("button", name="Give them a seat").click()
    expect(coordinator.locator("#answer")).to_contain_text(f"{LATE[1]} joins table 1")
    evening.look(coordinator, "late-arrival-seated")

    # Someone at table 4 goes home: it plays on as a table of three. (The five's Dreamer is
    # not offered to fill the chair: Larry always sits at table 1.)
    leaver = next(n for n in names_at(session, 4) if n != "Dave")
    coordinator.get_by_label("Who is leaving?").select_option(label=f"{leaver} (table 4)")
    coordinator.get_by_role("button", name="Take them out").click()
    expect(coordinator.locator("#answer")).to_contain_text(
        f"{leaver} has left. Table 4 goes on with three players."
    )
    evening.look(coordinator, "leaver-taken-out")
    assert sorted(len(names_at(session, n)) for n in range(1, 6)) == [3, 3, 4, 4, 5]

    # Table 1's page: five players now, hand 1 again, and the two hands played before.
    a = evening.table_page_catches_up(pages[1], 1, players=5)
    expect(a.locator(".seat-card", has_text=LATE[1])).to_be_visible()
    expect(a.locator(".seat-card.sits-out")).to_have_count(1)
    earlier = a.locator(".earlier")
    expect(earlier).to_contain_text("Before the table changed")
    expect(earlier.locator(".hand-line")).to_have_count(first_match.live_hands().count())
    expect_board(a, in_play(session, 1))
    evening.look(a, "table-1-now-five")
    east = chair_names(in_play(session, 1))[0]
    record_quick_win(a, 1, east, "Self-drawn from the wall", 7)
    expect_board(a, in_play(session, 1))

    # Table 4's page: three players, and its hand kept above.
    d = evening.table_page_catches_up(pages[4], 4, players=3)
    expect(d.locator(".seat-card", has_text=leaver)).to_have_count(0)
    expect(d.locator(".earlier .hand-line").first).to_be_visible()
    d.get_by_role("button", name="Record a draw for hand 1").click()
    expect(d.get_by_text("Goulash hand: pot")).to_be_visible()
    evening.look(d, "table-4-now-three")
    expect_board(d, in_play(session, 4))


def coordinator_corrects_a_hand(evening: Evening, page, table_c):
    match = in_play(evening.session, 3)
    names = chair_names(match)
    before = match.tallies()
    page.goto(evening.url(f"/scoring/matches/{match.pk}/"))
    evening.look(page, "scoresheet-table-3")
    # Hand 1 was no draw after all: someone went out on a discard. Hand 2 is then no
    # goulash hand, and every tally after it is worked out again.
    page.get_by_role("link", name="Correct hand 1").click()
    evening.look(page, "correct-hand-form")
    page.get_by_label("Someone went out (a win)").check()
    page.get_by_role("group", name="Who won?").get_by_label(names[1], exact=False).check()
    page.get_by_label("On a discard").check()
    page.get_by_role("group", name="Who discarded").get_by_label(names[2], exact=False).check()
    page.get_by_label("Total (points)").fill("8")
    page.get_by_label("Why is it being corrected?").fill(f"{names[1]} went out on a discard")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.get_by_text("Hand 1 is corrected")).to_be_visible()
    after = Match.objects.get(pk=match.pk).tallies()
    assert after != before
    assert not Match.objects.get(pk=match.pk).live_hands().get(number=2).goulash
    expect(page.locator(".final-tally")).to_have_text([str(t) for t in after])
    evening.look(page, "scoresheet-corrected")
    table_c.reload()
    for name, tally in zip(names, after, strict=True):
        card = table_c.locator(".seat-card", has_text=name)
        expect(card.locator(".seat-tally")).to_have_text(f"Tally {tally}")
    evening.look(table_c, "table-3-after-correction")


def chair_totals(match: Match) -> list[int]:
    """Each chair's result at a match, from the hands and kong chips that count."""
    records = list(match.live_hands()) + list(
        KongChips.objects.filter(match=match, voided_at__isnull=True)
    )
    return [sum(r.payments[c.number] for r in records) for c in match.chair_list()]


def expected_results(session) -> list[tuple[str, str, int]]:
    """(place, name, result) for everyone who played, from the hands and kong chips that
    count, ranked by the evening's total (equal totals share a place)."""
    totals: dict[int, int] = defaultdict(int)
    names: dict[int, str] = {}
    for match in Match.objects.filter(session=session):
        for chair, total in zip(match.chair_list(), chair_totals(match), strict=True):
            names[chair.member_id] = chair.member.table_name
            totals[chair.member_id] += total
    ranked = sorted(totals.items(), key=lambda item: -item[1])
    rows, place, previous = [], 0, None
    for index, (member_id, total) in enumerate(ranked, start=1):
        if total != previous:
            place = index
        rows.append((ordinal(place), names[member_id], total))
        previous = total
    return rows


def expected_winners(match: Match) -> list[str]:
    """Who ended ahead at a match; nobody when no hand counts or all are level."""
    totals = chair_totals(match)
    if not match.live_hands().exists() or min(totals) == max(totals):
        return []
    chairs = match.chair_list()
    return [c.member.table_name for c, t in zip(chairs, totals, strict=True) if t == max(totals)]


def coordinator_ends_the_evening(evening: Evening, page):
    page.get_by_role("link", name="Home").click()
    page.locator("#step-end").get_by_role("link", name="End the evening").click()
    evening.look(page, "end-confirm")
    page.get_by_role("button", name="Yes, end the evening").click()
    expect(page.locator("#step-end")).to_contain_text("The evening is over")
    evening.look(page, "tonight-over")
    page.locator("#step-results").get_by_role("link", name="Tonight's results").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Results for")
    expect(page.get_by_text("Final results.")).to_be_visible()
    evening.look(page, "evening-results")
    expected = expected_results(evening.session)
    assert len(expected) == len(NAMES) + 2  # the walk-in and the late arrival played too
    rows = page.locator(".results-table tbody tr")
    expect(rows).to_have_count(len(expected))
    shown = []
    for row in rows.all():
        cells = row.locator("td, th")
        place, name, result = (cells.nth(i).inner_text().strip() for i in range(3))
        shown.append((place, name.removesuffix(" (you)"), result))
    assert sorted(shown) == sorted((p, n, signed(t)) for p, n, t in expected)
    assert [p for p, _, _ in shown] == [p for p, _, _ in expected]
    for match in Match.objects.filter(session=evening.session):
        card = page.locator(f"section:has(#table-{match.pk})")
        if not (match.is_in_play or match.live_hands().exists() or match.kong_chips.exists()):
            expect(card).to_have_count(0)  # nothing happened in it: not listed
            continue
        winners = expected_winners(match)
        if winners:
            expect(card).to_contain_text(f"Winner: {' and '.join(winners)}.")
        else:  # only draws, or nobody ahead
            expect(card).not_to_contain_text("Winner")
    headings = page.locator("section.card h3").all_inner_texts()
    assert len(set(headings)) == len(headings), headings  # one name per table's section
    # Larry sat out the only hand played after he came: no place at that table.
    # (Each figure says its unit: the club plays U3A, in chips.)
    expect(page.locator("section.card li", has_text=LATE[1])).to_have_text(f"{LATE[1]} 0 chips")


def member_finds_her_place_on_a_phone(evening: Evening, page):
    me = Member.objects.get(user__username=PHONE_LOGIN)
    log_in(page, evening.base, PHONE_LOGIN)
    # No tap after logging in: her home page says how she did tonight.
    expected = expected_results(evening.session)
    place, _, total = next(r for r in expected if r[1] == me.table_name)
    expect(page.locator("#your-last-evening")).to_contain_text(f"Tonight {signed(total)} chips, ")
    expect(page.locator("#your-last-evening")).to_contain_text(f"{place} of {len(expected)}")
    evening.look(page, "phone-home")
    page.get_by_role("link", name="Results").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Season standings")
    mine = page.locator(".compact-board li.me")  # a phone's board: place, name, total
    expect(mine).to_contain_text(me.table_name)
    expect(mine).to_contain_text("(you)")
    expect(mine).to_be_visible()
    expect(page.locator("#your-last-evening")).to_contain_text(signed(total))
    evening.look(page, "phone-season-standings")
    page.get_by_role("link", name="Latest evening", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Results for")
    expect(page.locator("#your-place")).to_contain_text(f"You are {place} of")
    expect(page.locator("#your-place")).to_contain_text(signed(total))
    expect(page.locator("tr.me")).to_be_visible()
    evening.look(page, "phone-evening-result")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def coordinator_changes_the_rule_set(evening: Evening, page):
    """Settings, U3A to fan: the options shown become fan's (under gunicorn the swap was once
    refused, 414, and "Limit"/"Min points" stayed), and what is typed there is saved."""
    page.goto(evening.url("/settings/"))
    expect(page.get_by_label("Min points", exact=True)).to_be_visible()
    page.get_by_label("Rule set", exact=True).select_option("fan")
    expect(page.get_by_label("Min fan", exact=True)).to_have_value("1")
    expect(page.get_by_label("Min points", exact=True)).to_have_count(0)
    page.get_by_label("Min fan", exact=True).fill("2")
    page.get_by_role("button", name="Save settings").click()
    page.get_by_role("button", name="Confirm: play Fan").click()
    expect(page.get_by_text("The club's settings are saved.")).to_be_visible()
    evening.look(page, "settings-rule-set-changed")
    club = Club.objects.get(pk=evening.session.club_id)
    assert (club.rule_set, club.rule_options) == ("fan", {"min_fan": 2})


def test_a_whole_club_evening(site, new_context, club_evening, screenshots):
    evening = Evening(site, club_evening, screenshots)
    tablet = new_context(viewport=TABLET, has_touch=True)
    coordinator = log_in(tablet.new_page(), evening.base, "boss")
    coordinator_checks_everyone_in(evening, coordinator)
    coordinator_seats_the_room_and_starts_play(evening, coordinator)

    tables = {}
    for number, username in TABLE_LOGINS.items():
        tables[number] = log_in(
            new_context(viewport=TABLE_TABLET).new_page(), evening.base, username
        )
    tables_record_side_by_side(evening, tables)
    stranger = new_context(viewport=PHONE, has_touch=True).new_page()
    phone = new_context(viewport=PHONE).new_page()
    a_stranger_starts_a_second_club(evening, stranger, coordinator, tables, phone)
    a_late_arrival_and_an_early_leaver(evening, coordinator, tables)
    coordinator_corrects_a_hand(evening, coordinator, tables[3])
    waiting = a_tablet_records_two_hands_offline(evening, tables[2])
    coordinator_ends_the_evening(evening, coordinator)
    the_offline_tablet_finds_the_evening_ended(evening, tables[2], waiting)

    member_finds_her_place_on_a_phone(evening, phone)
    coordinator_changes_the_rule_set(evening, coordinator)

    assert len(list(screenshots.glob("*.png"))) == evening.shots
    print(f"axe checked {len(evening.checked)} pages; {evening.shots} screenshots in {screenshots}")
    assert evening.problems == [], "\n".join(evening.problems)


# --- check-in by keyboard alone ---------------------------------------------------------------


def outline_of(page) -> str:
    """The focused element's outline, as drawn."""
    return page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return `${s.outlineStyle} ${s.outlineWidth}`; }"
    )


def expect_focus_visible(page):
    style, width = outline_of(page).split()
    assert style != "none" and float(width.removesuffix("px")) >= 2, (style, width)


def test_check_in_with_the_keyboard_alone(live_server, browser, transactional_db):
    club = Club.objects.current()
    club.collects_table_money, club.table_money = True, Decimal("2.50")
    club.save()
    people = [
        Member.objects.create(club=club, name=name, table_name=table_name)
        for name, table_name in NAMES[:4]
    ]
    CoordinatorFactory(username="boss")
    session = Session.objects.create(club=club, date=datetime.date.today())
    page = log_in(browser.new_page(viewport=TABLET), live_server.url, "boss")
    page.goto(f"{live_server.url}/club/sessions/{session.pk}/check-in/")
    counts = page.locator("#checkin-counts")
    expect(counts).to_contain_text("0 here")

    # Tab to the first name and press Enter: checked in, and the focus stays on the name.
    first = page.locator(f"#member-{people[0].pk}")
    tab_to(page, first.locator("button.toggle"))
    expect_focus_visible(page)
    page.keyboard.press("Enter")
    expect(first).to_contain_text("✓ Here")
    expect(counts).to_contain_text("1 here")
    expect(first.locator("button.toggle")).to_be_focused()

    # The next stop is their Paid tick: the space bar marks it.
    page.keyboard.press("Tab")
    paid = first.get_by_role("button", name=re.compile("Paid £2.50"))
    expect(paid).to_be_focused()
    expect_focus_visible(page)
    page.keyboard.press("Space")
    expect(paid).to_have_attribute("aria-pressed", "true")
    expect(counts).to_contain_text("1 paid: £2.50")
    expect(paid).to_be_focused()

    # On to the second name with Tab; a mistaken third, undone from Shift+Tab.
    second, third = (page.locator(f"#member-{p.pk}") for p in people[1:3])
    tab_to(page, second.locator("button.toggle"))
    page.keyboard.press("Space")
    expect(counts).to_contain_text("2 here")
    expect(second.locator("button.toggle")).to_be_focused()
    tab_to(page, third.locator("button.toggle"))
    page.keyboard.press("Enter")
    expect(counts).to_contain_text("3 here")
    expect(third.locator("button.toggle")).to_be_focused()
    tab_to(page, second.locator("button.toggle"), key="Shift+Tab")
    tab_to(page, third.locator("button.toggle"))
    page.keyboard.press("Enter")
    expect(third).to_contain_text("Not here yet")
    expect(counts).to_contain_text("2 here")

    # The walk-in form: type the name, Enter sends it.
    name_box = page.get_by_label("Name of the walk-in or guest")
    tab_to(page, name_box)
    expect_focus_visible(page)
    page.keyboard.type(WALK_IN)
    page.keyboard.press("Enter")
    expect(page.locator("#walk-in [role=status]")).to_contain_text(f"{WALK_IN} is added")
    expect(counts).to_contain_text("3 here")
    expect(name_box).to_be_focused()
    assert session.attendances.count() == 3
    assert session.attendances.filter(paid=True).get().member == people[0]
    assert not is_focused(page.locator("body"))
