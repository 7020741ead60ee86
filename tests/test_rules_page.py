""" "Our rules": the club's rule set as the club plays it, every number from the rule set's
data with the club's own values."""

import re

import pytest
from django.urls import reverse

from club.models import Club
from scoring.engine import get_ruleset
from scoring.rulebook import rulebook


def page_for(client) -> str:
    response = client.get(reverse("scoring:rules"))
    assert response.status_code == 200
    return response.content.decode()


def row(page: str, label: str) -> str:
    """The 'Scores' cell of the first row called `label`, tags dropped."""
    cell = re.search(rf"<tr><td>{re.escape(label)}</td><td>(.*?)</td></tr>", page, re.S)
    assert cell, label
    return " ".join(re.sub(r"<[^>]+>", " ", cell.group(1)).split())


@pytest.mark.parametrize("name", ["classical", "hk", "fan", "u3a"])
def test_every_value_of_every_rule_set_is_on_the_page(name):
    ruleset = get_ruleset(name)
    book = rulebook(ruleset, ruleset.starting_tally)
    shown = sum(len(group.rows) for group in book.groups)
    # Points and doublings of one item share a row; every other value has its own.
    items = {key.removesuffix(".points").removesuffix(".doublings") for key in ruleset.values}
    assert shown == len(items)
    assert book.payments and book.intro and book.house_changes == 0


def test_classical_page_with_the_clubs_limit_and_a_house_value(client, club):
    Club.objects.filter(pk=club.pk).update(
        rule_set="classical",
        rule_options={"limit": 1000},
        rule_values={"pong.dragon.exposed.points": 6},
        starting_tally=1500,
    )
    page = page_for(client)  # no login needed: the rules are no secret
    assert "Classical" in page and "1000 points (the limit)" in page
    assert "<dt>Each player starts with</dt><dd>1500</dd>" in page
    assert "any complete hand may go out" in page
    assert (
        row(page, "Dragon, exposed")
        == "6 points, 2 doublings house rule (the book: 4 points, 2 doublings)"
    )
    assert row(page, "Minor, concealed") == "4 points, 1 doubling"
    assert "The club has changed 1 of the rule book" in page
    assert "the discarder pays four times the score" in page


def test_hk_minimum_limit_hands_and_points_table(client, club):
    Club.objects.filter(pk=club.pk).update(rule_set="hk", rule_options={"min_faan": 2})
    page = page_for(client)
    assert "2 faan: a smaller hand may not go out" in page and "10 faan (the limit)" in page
    assert row(page, "Thirteen orphans") == "the limit"
    assert "Points paid for each number of faan" in page and row(page, "Faan, 3") == "8 points"


def test_fan_payments_use_the_clubs_values(client, club):
    Club.objects.filter(pk=club.pk).update(rule_set="fan", rule_values={"pay.discard.discarder": 3})
    page = page_for(client)
    assert "the discarder pays the points × 3 and each other player the points × 1" in page
    assert row(page, "Discard, discarder").startswith("3 times house rule")


def test_u3a_has_no_limit_and_its_chips(client, club):
    Club.objects.filter(pk=club.pk).update(rule_set="u3a", rule_values={"goulash.stake.chips": 10})
    page = page_for(client)
    assert "no limit" in page and "3 points: a smaller hand may not go out" in page
    assert "wins the pot: 10 chips from each player" in page
    assert row(page, "Stake") == "10 chips house rule (the book: 5 chips)"


def test_the_menu_and_home_link_our_rules(member_client):
    home = member_client.get(reverse("home")).content.decode()
    assert home.count(f'href="{reverse("scoring:rules")}"') == 2  # the menu and the card
