"""Score a hand (practice): the tile picker and its live preview under the club's rules,
winds chosen by hand; nothing recorded."""

from html import unescape

import pytest

from scoring.engine import score
from scoring.models import Hand
from scoring.picker import steps_for

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
        assert label in html
    assert "Tap the tiles below" in html


def test_the_contract_hand_is_scored_item_by_item(member_client, club):
    steps = " ".join(steps_for(CONTRACT_HAND))
    response, html = post(
        member_client, steps, winning="d9", won_by="discard", discarder="N", seat_wind="S"
    )
    expected = score(CONTRACT_HAND, "classical")
    assert response.context["preview"].result == expected.to_dict()
    for item in expected.breakdown:
        assert item.name in html
    assert "136 points" in html
    assert "South receives 272" in html and "North pays 272" in html
    assert not Hand.objects.exists()
