"""A hand worked out from its tiles is named by what made it (the records page shows it);
a total agreed at the table has no name."""

import pytest

from games.start import start_play
from scoring.engine import score
from scoring.models import features
from scoring.recording import Win, record_full, record_win
from tests.games.helpers import seated_session

CLASSICAL = [
    {"name": "Mahjong", "points": 20},
    {"name": "Exposed kong of winds (wn)", "points": 16, "doublings": 1},
    {"name": "Exposed pong of minor tiles (b5)", "points": 2},
    {"name": "Flowers and seasons (1)", "points": 4},
    {"name": "Season of the prevailing wind (s1)", "doublings": 1},
]


def test_doublings_first_then_points_without_tile_codes_or_the_base_points():
    assert features(CLASSICAL) == [
        "Exposed kong of winds",
        "Season of the prevailing wind",
        "Flowers and seasons",
    ]


def test_items_worth_nothing_are_left_out_and_names_said_once():
    u3a = [
        {"name": "Chicken", "points": 0},
        {"name": "Pong/Kong of Dragons (dg)", "points": 1},
        {"name": "Pong/Kong of Dragons (dr)", "points": 1},
        {"name": "Semi-pure hand with Honours", "points": 3},
    ]
    assert features(u3a) == ["Semi-pure hand with Honours", "Pong/Kong of Dragons"]
    assert features([]) == []


@pytest.mark.parametrize("rules", ["hk", "fan"])
def test_faan_and_fan_items_are_features(rules):
    hand = {
        "tiles": "dr dr dr b1 b2 b3 c4 c5 c6 d7 d8 d9 ws ws",
        "winning_tile": "b3",
        "won_by": "wall",
        "seat_wind": "E",
        "prevailing_wind": "E",
    }
    names = features(score(hand, rules).to_dict()["breakdown"])
    assert names and all("(" not in name for name in names)
    assert any("ragon" in name for name in names)


@pytest.mark.django_db
def test_the_records_page_names_a_full_hand_and_says_a_quick_one_was_agreed(club, member_client):
    club.rule_set = "u3a"
    club.save()
    match = start_play(seated_session(club))[0]
    record_win(match, 1, Win(1, "wall", None, 3))
    full = record_full(
        match,
        2,
        Win(
            2,
            "wall",
            None,
            tiles={
                "tiles": "dr dr dr dg dg dg b1 b2 b3 b4 b5 b6 b9 b9",
                "winning_tile": "b3",
            },
        ),
    )
    assert full.features  # the engine found something to name
    page = member_client.get("/standings/records/").content.decode()
    assert ", ".join(full.features) in page
    assert "Total agreed at the table" in page
