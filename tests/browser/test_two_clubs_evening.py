"""Two clubs' evenings at the same time on one installation, in real browsers.

Club A ("alder") runs its evening in the browser at its own address: the coordinator on a
tablet checks eight members in by tapping their names, makes and publishes the seating and
starts play; Ann, seated at table 1, records two wins on her tablet; the coordinator ends
the evening and reads the results. All the while a thread, logged in as a member of club B
("birch", tests/two_clubs.py), records hands at B's table 1 through B's address.

At the end A's results show A's members and figures and nothing of B's, and B's pages (B's
member on a phone) show B's and nothing of A's. Screenshots at tablet and phone size go to
test-results/two-clubs/; the browser watch (tests/browser/conftest.py) fails the test on
any console error or failed request.
"""

import datetime
import re
import shutil
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect

from club.models import Club, Member, Session
from club.roles import make_coordinator
from games.models import Match
from scoring.models import Hand
from tests.browser.helpers import log_in, record_quick_win
from tests.concurrency.browsers import Browser
from tests.factories import UserFactory
from tests.test_two_clubs import shows
from tests.two_clubs import B_SLUG, build_club

TABLET = {"width": 800, "height": 1280}
PHONE = {"width": 390, "height": 844}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-results" / "two-clubs"
A_SLUG = "alder"
A_NAMES = [
    ("Ann Ashdown", "Ann"),
    ("Bea Brown", "Bea"),
    ("Cyd Cotton", "Cyd"),
    ("Dot Dimmock", "Dot"),
    ("Eve Elmhurst", "Eve"),
    ("Fay Fenwick", "Fay"),
    ("Gus Gorringe", "Gus"),
    ("Hal Hartigan", "Hal"),
]


class ClubA:
    """What B's pages must not show of A: its members' names."""

    def __init__(self, club, session):
        self.club, self.session = club, session
        # Full names and surnames: the table names are parts of other words ("Evening").
        self.words = [name for name, _ in A_NAMES] + [name.split()[1] for name, _ in A_NAMES]
        self.figures: set[int] = set()


@pytest.fixture
def shots():
    shutil.rmtree(SCREENSHOTS, ignore_errors=True)
    SCREENSHOTS.mkdir(parents=True)
    taken = []

    def shot(page, name):
        taken.append(name)
        page.screenshot(path=str(SCREENSHOTS / f"{len(taken):02d}-{name}.png"), full_page=True)

    return shot


@pytest.fixture
def two_evenings(transactional_db):
    a = Club.objects.create(name="Alder Mahjong Club", slug=A_SLUG, rule_set="u3a")
    make_coordinator(UserFactory(username="alderboss"), a)
    for name, table_name in A_NAMES:
        member = Member.objects.create(club=a, name=name, table_name=table_name)
        if table_name == "Ann":
            member.user = UserFactory(username="ann")
            member.fixed_table = 1
            member.save()
    session = Session.objects.create(club=a, date=datetime.date.today(), venue="Alder Hall")
    today = datetime.date.today()
    b = build_club(
        B_SLUG,
        "Bravx",
        today=today,
        totals=(7919, 17, 19, 21),
        starting_tally=3700,
        dates=(today - datetime.timedelta(days=49), today + datetime.timedelta(days=35)),
    )
    return ClubA(a, session), b


class RecordsAtB(threading.Thread):
    """B's member at table 1 recording hands through B's address, one every second or so,
    until told to stop: wins by quick entry, as the table's page posts them."""

    def __init__(self, live_server, b, first_hand: int):
        super().__init__(daemon=True)
        self.browser = Browser(live_server, b.seated.user)
        self.path = f"/c/{B_SLUG}/play/{b.session.pk}/tables/1/win/"
        self.hand = first_hand
        self.answers: list[tuple[int, int, bool]] = []
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set() and len(self.answers) < 12:
            data = {"hand": self.hand, "winner": self.hand % 4, "won_by": "wall", "total": 8}
            answer = self.browser.post(self.path, data, {"HX-Request": "true"})
            saved = f"Hand {self.hand} saved" in answer.body
            self.answers.append((self.hand, answer.status, saved))
            if saved:
                self.hand += 1
            self.stop.wait(1.0)


def test_two_clubs_evenings_at_the_same_time(
    live_server, browser, browser_watch, two_evenings, shots
):
    a, b = two_evenings
    # Its answer (404) and Chromium's console line about it.
    browser_watch.allow(
        rf"(answer 404: GET|status of 404).*/c/{A_SLUG}/play/{b.session.pk}/tables/1/",
        "B's table asked for at A's address, on purpose: not found",
    )
    base_a = f"{live_server.url}/c/{A_SLUG}"
    base_b = f"{live_server.url}/c/{B_SLUG}"
    b_match = Match.objects.get(pk=b.match.pk)
    b_hands_before = b_match.live_hands().count()
    recorder = RecordsAtB(live_server, b, first_hand=b_match.replay()[-1].hand)
    recorder.start()
    try:
        # A's coordinator checks everyone in on a tablet.
        tablet = browser.new_context(viewport=TABLET, has_touch=True)
        boss = log_in(tablet.new_page(), base_a, "alderboss")
        expect(boss.get_by_role("heading", level=1)).to_contain_text("Tonight:")
        boss.locator("#step-check_in").get_by_role("link").click()
        expect(boss.get_by_role("heading", level=1)).to_contain_text("Check-in")
        counts = boss.locator("#checkin-counts")
        for here, (_, table_name) in enumerate(A_NAMES, start=1):
            row = boss.locator("#checkin-list li", has_text=table_name).first
            row.get_by_role("button", name=re.compile(table_name)).tap()
            expect(counts).to_contain_text(f"{here} here")
        shots(boss, "a-check-in-tablet")

        # The seating, published; play starts.
        boss.get_by_role("link", name="Home").click()
        boss.locator("#step-seating").get_by_role("link", name="Seating").click()
        boss.get_by_role("button", name="Make the seating").click()
        expect(boss.get_by_role("heading", name="Table 2")).to_be_visible()
        boss.get_by_role("button", name="Publish").click()
        expect(boss.get_by_role("button", name="Unpublish to change")).to_be_visible()
        shots(boss, "a-seating-tablet")
        boss.get_by_role("link", name="Home").click()
        boss.locator("#step-start").get_by_role("button", name="Start play at the tables").click()
        expect(boss.locator("#step-tables")).to_contain_text("2 tables playing")

        # Ann records two wins at table 1 while B's table records too.
        ann = log_in(browser.new_context(viewport=TABLET).new_page(), base_a, "ann")
        a_match = Match.objects.get(session=a.session, table_number=1)
        names = [chair.member.table_name for chair in a_match.chair_list()]
        ann.goto(f"{base_a}/play/{a.session.pk}/tables/1/")
        expect(ann.locator(".seat-name", has_text="(you)")).to_have_count(1)
        record_quick_win(ann, 1, names[1], "Self-drawn from the wall", 10)
        record_quick_win(ann, 2, names[2], "On a discard", 6, discarder=names[0])
        shots(ann, "a-table-1-tablet")
        assert any(saved for _, _, saved in recorder.answers), recorder.answers

        # A's evening ends; its results.
        boss.get_by_role("link", name="Home").click()
        boss.locator("#step-end").get_by_role("link", name="End the evening").click()
        boss.get_by_role("button", name="Yes, end the evening").click()
        expect(boss.locator("#step-end")).to_contain_text("The evening is over")
        boss.locator("#step-results").get_by_role("link", name="Tonight's results").click()
        expect(boss.get_by_text("Final results.")).to_be_visible()
        shots(boss, "a-results-tablet")
        a_results = boss.content()
    finally:
        recorder.stop.set()
        recorder.join(timeout=30)

    # B's thread recorded at the same time, every answer a saved hand.
    assert len(recorder.answers) >= 3, recorder.answers
    assert all(status == 200 and saved for _, status, saved in recorder.answers), recorder.answers
    b_match.refresh_from_db()
    assert b_match.live_hands().count() == b_hands_before + len(recorder.answers)
    assert not Hand.objects.filter(match__session=a.session, club=b.club).exists()

    # A's results: A's eight members, none of B's words or figures.
    rows = boss.locator(".results-table tbody tr")
    expect(rows).to_have_count(len(A_NAMES))
    for _, table_name in A_NAMES:
        expect(boss.locator(".results-table")).to_contain_text(table_name)
    assert shows(b, a_results) == []

    # Ann on her phone: A's results; then B's member on a phone at B's address.
    phone_a = log_in(browser.new_context(viewport=PHONE).new_page(), base_a, "ann")
    phone_a.goto(f"{base_a}/standings/evening/{a.session.pk}/")
    expect(phone_a.locator("#your-place")).to_contain_text("You are")
    shots(phone_a, "a-results-phone")
    assert shows(b, phone_a.content()) == []

    phone_b = log_in(browser.new_context(viewport=PHONE).new_page(), base_b, b.seated.user.username)
    phone_b.goto(f"{base_b}/standings/evening/{b.session.pk}/")
    expect(phone_b.get_by_role("heading", level=1)).to_contain_text("Results for")
    b_page = phone_b.content()
    assert b.seated.table_name in b_page
    assert shows(a, b_page) == []
    shots(phone_b, "b-results-phone")
    phone_b.goto(f"{base_b}/play/{b.session.pk}/tables/1/")
    expect(phone_b.locator(".board-hand")).to_have_text(f"Hand {recorder.hand}")
    assert shows(a, phone_b.content()) == []
    shots(phone_b, "b-table-1-phone")

    # And B's pages are not reached through A's address.
    phone_b.goto(f"{base_a}/play/{b.session.pk}/tables/1/")
    expect(phone_b.locator("body")).not_to_contain_text(b.seated.table_name)
    assert not recorder.is_alive()
    print(f"B's table saved {len(recorder.answers)} hands while A's evening ran")
