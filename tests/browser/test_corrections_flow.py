"""Correcting a hand in a real browser, and typing a paper sheet in by keyboard alone."""

import pytest
from playwright.sync_api import expect

from club.roles import make_coordinator
from games.models import Match
from games.start import start_play
from scoring.recording import Win, record_draw, record_win
from tests.browser.helpers import log_in
from tests.factories import UserFactory
from tests.games.helpers import one_named_table

TABLET = {"width": 1024, "height": 768}
NAMES = ["Ann", "Betty", "Carol", "Dot"]


@pytest.fixture
def u3a_table(transactional_db):
    session = one_named_table("u3a", NAMES)
    (match,) = start_play(session)
    boss = UserFactory(username="boss")
    make_coordinator(boss)
    return match


@pytest.fixture
def tablet(browser):
    """A tablet-sized page, closed after the test: the table page polls every few seconds,
    and a poll reaching the server after the test's data is gone would create a club."""
    context = browser.new_context(viewport=TABLET)
    yield context.new_page()
    context.close()


def tallies_on_table_page(page) -> list[str]:
    return [
        " ".join(
            page.locator(".seat-card", has_text=name).locator(".seat-tally").inner_text().split()
        )
        for name in NAMES
    ]


def test_correct_a_hand_and_see_the_tallies_follow(live_server, tablet, u3a_table):
    match = u3a_table
    record_win(match, 1, Win(1, "wall", None, 10))
    record_draw(match, 2)  # so hand 3 is a goulash
    record_win(match, 3, Win(2, "wall", None, 10))
    page = tablet
    log_in(page, live_server.url, "boss")
    page.goto(f"{live_server.url}/play/{match.session_id}/tables/1/")
    expect(page.get_by_text("(goulash hand)")).to_be_visible()
    before = tallies_on_table_page(page)

    page.get_by_role("link", name="The scoresheet").click()
    page.get_by_role("link", name="Correct hand 2").click()
    page.get_by_label("Someone went out (a win)").check()
    page.get_by_role("group", name="Who won?").get_by_label("Betty", exact=False).check()
    page.get_by_label("On a discard").check()
    page.get_by_role("group", name="Who discarded").get_by_label("Dot", exact=False).check()
    page.get_by_label("Total (points)").fill("8")
    page.get_by_label("Why is it being corrected?").fill("Betty went out on Dot's tile")
    page.get_by_role("button", name="Save the correction").click()

    expect(page.get_by_text("Hand 2 is corrected")).to_be_visible()
    match.refresh_from_db()
    final = page.locator(".final-tally")
    expect(final).to_have_text([str(t) for t in match.tallies()])
    hand2 = page.locator("#hand-2")
    expect(hand2).to_contain_text("Betty won on Dot's discard, 8 points")
    expect(hand2).to_contain_text("Was: Draw: the wall ran out")
    expect(page.locator("#hand-3")).not_to_contain_text("goulash")

    page.get_by_role("link", name="← Table 1").click()
    after = tallies_on_table_page(page)
    assert after != before
    assert after == [f"Tally {t}" for t in match.tallies()]
    assert not Match.objects.get(pk=match.pk).live_hands().get(number=3).goulash


def test_a_paper_sheet_typed_with_the_keyboard_only(live_server, tablet, u3a_table):
    match = u3a_table
    Match.objects.filter(pk=match.pk).update(status="finished", ending="closed")
    page = tablet
    log_in(page, live_server.url, "boss")
    page.goto(f"{live_server.url}/scoring/matches/{match.pk}/paper/")
    page.get_by_label("Hand 1: who won").focus()
    # Enter and Tab both move on; "x" is a draw, so its winner and total stay empty.
    for keys in ["1", "w", "", "10", "b", "d", "c", "8", "", "x", "", "", "c", "w", "", "6"]:
        if keys:
            page.keyboard.type(keys)
        page.keyboard.press("Enter")
    expect(page.get_by_label("Hand 5: who won")).to_be_focused()
    page.get_by_role("button", name="Save the whole sheet").click()
    expect(page.get_by_text("Table 1's sheet is recorded: 4 hands.")).to_be_visible()
    outcomes = [h.flow_outcome() for h in match.live_hands()]
    assert outcomes == [
        {"winner": 0, "won_by": "wall", "discarder": None},
        {"winner": 1, "won_by": "discard", "discarder": 2},
        {"draw": True},
        {"winner": 2, "won_by": "wall", "discarder": None},
    ]
    assert match.live_hands().get(number=4).goulash
