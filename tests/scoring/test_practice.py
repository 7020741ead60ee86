"""Score a hand (practice): the tile picker and its live preview under the club's rules,
winds chosen by hand; nothing recorded."""

import random
from html import unescape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import get_ruleset, score, score_json
from scoring.engine.random_hands import random_hand
from scoring.models import Hand
from scoring.picker import steps_for
from scoring.picker_words import item_in_words
from tests.scoring.test_picker_words import developer_speak

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
URL = "/scoring/practice/"

CONTRACT_HAND = {
    "tiles": "b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr",
    "melds": [{"tiles": "ww ww ww", "concealed": False}],
    "winning_tile": "d9",
    "won_by": "discard",
    "discarder": "N",
    "seat_wind": "S",
    "prevailing_wind": "E",
    "bonus": "f2 s3",
}


def post(client, steps="", **data):
    data = {"steps": steps, "seat_wind": "E", "prevailing_wind": "E", "dealer": "E", **data}
    response = client.post(URL, data, **HTMX)
    assert response.status_code == 200
    return response, unescape(response.content.decode())


def test_the_practice_page_needs_a_login(client, club):
    response = client.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_any_member_sees_the_empty_picker(member_client):
    response = member_client.get(URL)
    html = unescape(response.content.decode())
    assert response.status_code == 200
    assert "Score a hand (practice)" in html
    for label in (
        "3 Bamboo",
        "9 Characters",
        "1 Dots",
        "East wind",
        "Red dragon",
        "Flower 1: Plum",
        "Season 4: Winter",
    ):
        assert label in html.replace("\u00ad", "")  # a long word may break at a soft hyphen
    assert "Tap the tiles below" in html


def test_the_contract_hand_is_scored_item_by_item(member_client, club):
    steps = " ".join(steps_for(CONTRACT_HAND))
    response, html = post(
        member_client, steps, winning="d9", won_by="discard", discarder="N", seat_wind="S"
    )
    expected = score(CONTRACT_HAND, "classical")
    assert response.context["preview"].result == expected.to_dict()
    for item in expected.breakdown:
        assert item_in_words(item.name) in html
    assert "136 points" in html
    assert "South receives 272" in html and "North pays 272" in html
    assert not Hand.objects.exists()


def _picker_data(hand: dict) -> dict:
    """What a member taps and chooses on the practice page to build `hand`."""
    data = {
        "steps": " ".join(steps_for(hand)),
        "winning": hand["winning_tile"],
        "won_by": hand["won_by"],
        "seat_wind": hand["seat_wind"],
        "prevailing_wind": hand["prevailing_wind"],
        "dealer": hand.get("dealer", "E"),
    }
    if "discarder" in hand:
        data["discarder"] = hand["discarder"]
    for flag in ("last_tile", "first_turn"):
        if hand.get(flag):
            data[flag] = "on"
    return data


@pytest.mark.parametrize("rules", ["classical", "hk", "fan", "u3a"])
@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_the_pickers_score_is_the_engines_for_the_same_hand(member_client, club, rules, seed):
    """Property: any legal hand tapped into the picker is scored exactly as the engine
    scores its JSON under the club's rules (or refused when the engine refuses it, in a
    player's words)."""
    if club.rule_set != rules:
        club.rule_set = rules
        club.save()
    ruleset = get_ruleset(rules)
    hand = random_hand(random.Random(seed), shapes=ruleset.shapes)
    response = member_client.post(URL, _picker_data(hand), **HTMX)
    preview = response.context["preview"]
    expected = score_json(hand, ruleset)
    if expected["ok"]:
        assert preview.result == expected
        html = unescape(response.content.decode())
        for item in expected["breakdown"]:
            assert item_in_words(item["name"]) in html
    else:
        # Refused as the engine refuses it, said in a player's words.
        assert preview.result is None and preview.error
        assert preview.reason in ("", expected["error"])
        assert not developer_speak(preview.error), preview.error
