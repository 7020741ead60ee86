"""A reload of the table page keeps what was typed into the quick-entry form for the hand
being played (and its payments preview); once the hand is saved, a reload shows the next
hand's form blank."""

import pytest
from playwright.sync_api import expect

from club.roles import make_coordinator
from games.models import Match
from games.start import start_play
from scoring.engine.rulesets.base import RuleSet
from scoring.models import Hand
from tests.browser.helpers import log_in
from tests.factories import UserFactory
from tests.games.helpers import one_named_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not hasattr(RuleSet, "check_total"), reason="the engine's RuleSet.check_total is not merged"
    ),
]
PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Betty", "Carol", "Dot"]


def test_a_reload_keeps_the_entries_until_the_hand_is_saved(live_server, browser):
    session = one_named_table("u3a", NAMES)
    start_play(session)
    make_coordinator(UserFactory(username="boss"))
    page = log_in(browser.new_page(viewport=PHONE), live_server.url, "boss")
    page.goto(f"{live_server.url}/play/{session.pk}/tables/1/")
    form = page.locator("#win-form")
    form.get_by_role("group", name="Who won?").get_by_label("Carol", exact=False).check()
    form.get_by_label("On a discard").check()
    form.get_by_role("group", name="Who discarded").get_by_label("Dot", exact=False).check()
    form.get_by_label("Total the table agreed (points)").fill("8")

    page.reload()
    expect(page.locator(".board-hand")).to_have_text("Hand 1")
    form = page.locator("#win-form")
    expect(
        form.get_by_role("group", name="Who won?").get_by_label("Carol", exact=False)
    ).to_be_checked()
    expect(form.get_by_label("On a discard")).to_be_checked()
    who_paid = form.get_by_role("group", name="Who discarded")
    expect(who_paid.get_by_label("Dot", exact=False)).to_be_checked()
    expect(form.get_by_label("Total the table agreed (points)")).to_have_value("8")
    expect(page.locator("#preview")).to_contain_text("Carol receives")  # worked out again

    form.get_by_role("button", name="Save hand 1").click()
    expect(page.locator("#preview")).to_contain_text("Hand 1 saved: Carol won on Dot's discard")
    page.reload()
    expect(page.locator(".board-hand")).to_have_text("Hand 2")
    form = page.locator("#win-form")
    expect(form.get_by_role("button", name="Save hand 2")).to_be_visible()
    expect(form.locator("input:checked")).to_have_count(0)
    expect(form.get_by_label("Total the table agreed (points)")).to_have_value("")
    match = Match.objects.get(session=session)
    assert [
        (h.number, h.winner, h.discarder, h.total) for h in Hand.objects.filter(match=match)
    ] == [(1, 2, 3, 8)]
