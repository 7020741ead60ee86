"""The room display on a TV: 1 to 20 tables fit a 1920x1080 and a 1280x720 screen without
scrolling, every figure inside its card, type as large as the card allows; a phone gets an
ordinary page. Screenshots go to test-results/room/."""

import datetime
from pathlib import Path

import pytest
from playwright.sync_api import expect

from club.models import Club, Member, Session
from tests.browser.helpers import axe_violations, log_in
from tests.factories import CoordinatorFactory
from tests.scoring.standings_helpers import play, session_on, win

SCREENS = {"1080p": {"width": 1920, "height": 1080}, "720p": {"width": 1280, "height": 720}}
SHOTS = Path("test-results/room")
# The longest table name the members' form allows (40 characters), and long figures.
LONGEST = "Christopher Montgomery-Fitzwilliam Smyth"

# Everything inside the page and every element inside its card: no scrolling, nothing cut.
OVERFLOWS = """() => {
  const problems = [];
  const root = document.documentElement;
  if (root.scrollWidth > innerWidth || root.scrollHeight > innerHeight)
    problems.push(`page ${root.scrollWidth}x${root.scrollHeight} on ${innerWidth}x${innerHeight}`);
  for (const card of document.querySelectorAll('.room-card, .room-leaders')) {
    const box = card.getBoundingClientRect();
    if (box.right > innerWidth + 0.5 || box.bottom > innerHeight + 0.5)
      problems.push(`card off the screen: ${card.textContent.trim().slice(0, 30)}`);
    for (const el of [card, ...card.querySelectorAll('*')]) {
      const r = el.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5
          || r.bottom > box.bottom + 0.5)
        problems.push(`outside its card: ${el.tagName} ${el.textContent.trim().slice(0, 40)}`);
      if (el.clientWidth && (el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight))
        problems.push(`cut: ${el.tagName}.${el.className} ${el.textContent.trim().slice(0, 40)}`
                      + ` ${el.scrollWidth}>${el.clientWidth} or ${el.scrollHeight}>${el.clientHeight}`);
    }
  }
  return problems;
}"""
SMALLEST_TYPE = """() => Math.min(...[...document.querySelectorAll('.room-card li, .room-leaders li')]
  .map((el) => parseFloat(getComputedStyle(el).fontSize)))"""


@pytest.fixture
def club(transactional_db):
    return Club.objects.create(name="Riverside Mahjong Club")


@pytest.fixture
def coordinator(transactional_db):
    return CoordinatorFactory(username="boss")


def evening_in_play(club, tables: int) -> Session:
    """`tables` tables in play tonight (every third a table of five), a few hands each,
    the longest name the form allows and four-figure tallies at the last table."""
    members = []
    session = session_on(club, datetime.date.today(), Session.Status.IN_PLAY)
    for number in range(1, tables + 1):
        size = 5 if number % 3 == 0 and number != tables else 4
        seated = [
            Member.objects.create(
                club=club, name=f"Member {number}-{n}", table_name=f"Margaret {number}{'ABCDE'[n]}"
            )
            for n in range(size)
        ]
        if number == tables:
            seated[1].table_name = LONGEST
            seated[1].save()
        members += seated
        # (Tables of five have no hands yet: who sits out which hand is the flow's business.)
        hands = [win(n % 4, 24 + n, _pays(n % 4, 24 + n)) for n in range(number % 5 + 1)]
        if size == 5:
            hands = []
        elif number == tables:
            hands.append(win(0, 1000, _pays(0, 1000)))
        play(session, number, seated, hands, ending=None)
    for member in members:
        session.attendances.create(member=member)
    return session


def _pays(winner: int, total: int) -> list[int]:
    """A self-drawn win at a table of four."""
    return [3 * total if chair == winner else -total for chair in range(4)]


@pytest.mark.parametrize("tables", [1, 4, 8, 12, 16, 20])
def test_the_room_display_fits_a_tv_without_scrolling(
    live_server, browser, club, coordinator, tables
):
    evening_in_play(club, tables)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for screen, viewport in SCREENS.items():
        page = browser.new_page(viewport=viewport)
        log_in(page, live_server.url, "boss")
        page.goto(f"{live_server.url}/standings/room/")
        cards = page.locator(".room-card")
        expect(cards).to_have_count(tables)
        expect(cards.last).to_contain_text(f"Table {tables}")
        expect(cards.last).to_contain_text(LONGEST)
        expect(cards.first).to_contain_text("Hand ")
        expect(cards.first).to_contain_text("Dealer: ")
        page.screenshot(path=SHOTS / f"room-{tables}-tables-{screen}.png")
        assert page.evaluate(OVERFLOWS) == [], (tables, screen)
        smallest = page.evaluate(SMALLEST_TYPE)
        print(f"{tables} tables on {screen}: smallest type {smallest:.1f}px")
        # Readable across a hall: at least 1.5% of the screen's height even with 20 tables.
        assert smallest >= 0.015 * viewport["height"], (tables, screen, smallest)
        if tables in (4, 20):
            assert axe_violations(page, f"room display, {tables} tables, {screen}") == []
        page.close()


def test_the_room_display_on_a_phone_is_an_ordinary_page(live_server, browser, club, coordinator):
    evening_in_play(club, 6)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    log_in(page, live_server.url, "boss")
    page.goto(f"{live_server.url}/standings/room/")
    expect(page.locator(".room-card")).to_have_count(6)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / "room-6-tables-phone.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.evaluate(SMALLEST_TYPE) >= 20
    assert axe_violations(page, "room display on a phone") == []
