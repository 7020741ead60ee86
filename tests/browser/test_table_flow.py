"""A table's evening in a real browser on a tablet: start play, record wins, a draw and a
goulash hand under U3A house rules, undo, and watch the deal, winds and tallies follow."""

import pytest
from playwright.sync_api import expect

from club.roles import make_coordinator
from games.models import Match
from games.start import start_play
from scoring.engine.rulesets.base import RuleSet
from tests.browser.helpers import log_in, record_quick_win
from tests.factories import UserFactory
from tests.games.helpers import one_named_table

# Wins need the engine's quick-entry payments (RuleSet.check_total / payments).
pytestmark = pytest.mark.skipif(
    not hasattr(RuleSet, "check_total"), reason="the engine's RuleSet.check_total is not merged"
)
TABLET = {"width": 1024, "height": 768}
NAMES = ["Ann", "Betty", "Carol", "Dot"]


def card(page, name):
    return page.locator(".seat-card", has_text=name)


def expect_board(page, hand, dealer, winds, tallies):
    expect(page.locator(".board-hand")).to_have_text(f"Hand {hand}")
    expect(page.locator(".board-line")).to_contain_text(f"{dealer} deals")
    for name, wind, tally in zip(NAMES, winds, tallies, strict=True):
        expect(card(page, name).locator(".seat-wind")).to_contain_text(wind)
        expect(card(page, name).locator(".seat-tally")).to_have_text(f"Tally {tally}")


def test_a_u3a_evening_at_one_table(live_server, browser, transactional_db):
    session = one_named_table("u3a", NAMES)
    boss = UserFactory(username="boss")
    make_coordinator(boss)

    page = log_in(browser.new_page(viewport=TABLET), live_server.url, "boss")
    page.goto(f"{live_server.url}/club/sessions/{session.pk}/")
    page.get_by_role("button", name="Start play at the tables").click()
    expect(page.get_by_role("status")).to_contain_text("Play has started at 1 table")
    page.get_by_role("link", name="Table 1").click()

    expect(page.locator(".board-line")).to_contain_text("East round")
    expect_board(page, 1, "Ann", ["East", "South", "West", "North"], [0, 0, 0, 0])

    # Betty draws her own winning tile: everyone pays her; Ann loses the deal.
    record_quick_win(page, 1, "Betty", "Self-drawn from the wall", 10)
    expect(page.get_by_text("Hand 1 saved: Betty won self-drawn")).to_be_visible()
    expect_board(page, 2, "Betty", ["North", "East", "South", "West"], [-10, 30, -10, -10])

    # Betty, the dealer, wins on Carol's discard: only Carol pays, Betty keeps the deal.
    record_quick_win(page, 2, "Betty", "On a discard", 8, discarder="Carol")
    expect_board(page, 3, "Betty", ["North", "East", "South", "West"], [-10, 38, -18, -10])

    # The wall runs out: same dealer, and the next hand is a goulash hand.
    page.get_by_role("button", name="Record a draw for hand 3").click()
    expect(page.get_by_text("Goulash hand: pot 20")).to_be_visible()
    # The next hand's form is back in view after the draw (the draw box is below it).
    expect(page.locator("#win-form .tiles-players").first).to_be_in_viewport()
    expect_board(page, 4, "Betty", ["North", "East", "South", "West"], [-10, 38, -18, -10])

    # Dot wins the goulash: she takes the pot, and the deal passes to Carol.
    record_quick_win(page, 4, "Dot", "Self-drawn from the wall", 6)
    expect(page.locator(".goulash-flag")).to_have_count(0)
    expect_board(page, 5, "Carol", ["West", "North", "East", "South"], [-15, 33, -23, 5])

    # Undo it: the goulash hand is to play again, the tallies go back, the hand stays listed.
    page.get_by_text("Undo the last hand").click()
    page.get_by_role("button", name="Undo hand 4").click()
    expect(page.get_by_text("Goulash hand: pot 20")).to_be_visible()
    expect_board(page, 4, "Betty", ["North", "East", "South", "West"], [-10, 38, -18, -10])
    expect(page.locator(".hand-line.voided")).to_contain_text("undone")

    match = Match.objects.get(session=session)
    assert [h.number for h in match.live_hands()] == [1, 2, 3]
    assert match.replay()[-1].goulash is True
    # The table page polls the server; closed, it cannot reach the next test's database.
    page.close()


def test_two_devices_that_disagree_about_a_hand_choose_without_recording_it_again(
    live_server, browser, transactional_db
):
    """Ann's tablet saves hand 1 first; Carol's phone, with another winner typed in, is
    shown both and chooses. Nothing of the phone's is carried into hand 2's form."""
    session = one_named_table("u3a", NAMES)
    boss = UserFactory(username="boss")
    make_coordinator(boss)
    start_play(session)
    table = f"{live_server.url}/play/{session.pk}/tables/1/"
    tablet = log_in(browser.new_context(viewport=TABLET).new_page(), live_server.url, "boss")
    phone = log_in(browser.new_context(viewport=TABLET).new_page(), live_server.url, "boss")
    tablet.goto(table)
    phone.goto(table)

    form = phone.locator("#win-form")
    form.get_by_role("group", name="Who won?").get_by_label("Carol", exact=False).check()
    form.get_by_label("Self-drawn from the wall").check()
    form.get_by_label("Total the table agreed (points)").fill("12")
    expect(phone.locator("#preview")).to_contain_text("Carol receives 36")
    record_quick_win(tablet, 1, "Betty", "Self-drawn from the wall", 10)
    form.get_by_role("button", name="Save hand 1").click()

    conflict = phone.locator(".conflict")
    expect(conflict).to_contain_text("Hand 1 was saved on another device first")
    expect(conflict).to_contain_text("Betty won self-drawn from the wall, 10 points")
    expect(conflict).to_contain_text("Carol won self-drawn from the wall, 12 points")
    expect(phone.locator(".board-hand")).to_have_text("Hand 2")
    expect(phone.get_by_label("Total the table agreed (points)")).to_have_value("")
    expect(phone.locator("#win-form input:checked")).to_have_count(0)

    # "The same hand" goes on with hand 2; "ours is different" opens hand 1's correction
    # with the phone's entries.
    same = conflict.get_by_role("link", name="That is the same hand: carry on with hand 2")
    expect(same).to_have_attribute("href", f"/play/{session.pk}/tables/1/")
    conflict.get_by_role("link", name="Ours is different: correct hand 1").click()
    expect(phone.get_by_label("Total (points)")).to_have_value("12")
    who_won = phone.get_by_role("group", name="Who won?")
    expect(who_won.get_by_label("Carol", exact=False)).to_be_checked()

    match = Match.objects.get(session=session)
    assert [(h.number, h.total) for h in match.live_hands()] == [(1, 10)]
    # The table pages poll the server; closed, they cannot reach the next test's database.
    tablet.context.close()
    phone.context.close()
