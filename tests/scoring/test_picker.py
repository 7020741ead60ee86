"""The picker's hand, replayed from its steps: taps, declared sets with the fewest taps,
tiles used up, undo, the winning tile, and the contract JSON it makes."""

import pytest

from scoring.engine import score_json
from scoring.engine.random_hands import random_hands
from scoring.engine.tiles import CODES
from scoring.picker import Draft, PickerError, steps_for


def offers(steps: str) -> list[str]:
    return [offer.step for offer in Draft.from_steps(steps).offers()]


def test_a_third_copy_offers_a_pong_and_a_fourth_a_kong():
    assert offers("b3 b3") == []
    assert offers("b3 b3 b3") == ["pong-b3"]
    assert offers("b3 b3 b3 b3") == ["kong-b3", "ckong-b3"]


def test_a_run_offers_a_chow_and_honours_never_do():
    assert offers("c4 c5 c6") == ["chow-c4"]
    assert offers("c5 c6 c7 c4") == ["chow-c4"]  # the last tap is the run's end
    assert set(offers("d2 d4 d5 d3")) == {"chow-d1", "chow-d2", "chow-d3"} - {"chow-d1"}
    assert offers("c8 c9 d1") == []  # no run across suits
    assert offers("we ws ww") == []


def test_declaring_moves_the_tiles_out_of_the_concealed_hand():
    draft = Draft.from_steps("dr b3 b3 b3 pong-b3 c4 c5 c6 chow-c4")
    assert [m.label for m in draft.melds] == [
        "Exposed pong of 3 Bamboo",
        "Chow 4 Characters to 6 Characters",
    ]
    assert draft.concealed == [31]
    assert draft.tile_count == 7


def test_a_fourth_tile_turns_an_exposed_pong_into_a_kong():
    draft = Draft.from_steps("b3 b3 b3 pong-b3 b3")
    assert [o.step for o in draft.offers()] == ["kong-b3"]
    draft.take("kong-b3")
    assert draft.melds[0].kind == "kong" and not draft.concealed
    assert "b3" in draft.used_up()


def test_a_concealed_kong_is_marked_concealed():
    draft = Draft.from_steps("dg dg dg dg ckong-dg")
    assert draft.melds[0].concealed and draft.melds[0].label == "Concealed kong of Green dragon"


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ("c5 c5 c5 c5 c5", "All four 5 Characters are already in the hand."),
        ("f1 f1", "Flower 1: Plum is already laid out; there is only one."),
        ("b3 b3 pong-b3", "Tap 3 Bamboo 3 times first, then declare the pong."),
        ("c4 c6 chow-c4", "Tap the three tiles of the chow first, then declare it."),
        ("c8 c9 chow-c8", "A chow is three tiles in a row of one suit, from 8 Characters."),
        ("x9", "That tap was not a tile the picker knows: tap a tile below."),
        ("b3 b3 b3 ckong-b3", "Tap 3 Bamboo 4 times first, then declare the concealed kong."),
        (
            " ".join([*(c for c in CODES[:10] for _ in range(4)), "c2"]),
            "That is more tiles than any hand holds: undo or start again.",
        ),
    ],
)
def test_impossible_steps_are_refused_in_plain_words(steps, message):
    with pytest.raises(PickerError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Draft.from_steps(steps)


def test_replay_keeps_every_step_before_a_bad_one():
    draft, problem = Draft.replay("b1 b2 zz b3")
    assert draft.steps == ["b1", "b2"] and "not a tile the picker knows" in problem


def test_used_up_tiles_and_bonus_tiles_grey_out():
    draft = Draft.from_steps("d1 d1 d1 pong-d1 d1 s2")
    assert draft.used_up() == {"d1", "s2"}


def test_the_winning_tile_is_the_one_marked_else_the_last_tapped():
    draft = Draft.from_steps("b1 b2 b3 s1")
    assert draft.winning_tile(None) == "b3"
    assert draft.winning_tile("b1") == "b1"
    assert draft.winning_tile("c9") == "b3"  # not in the hand: ignored


def test_every_random_legal_hand_round_trips_through_the_picker():
    for hand in random_hands(300, seed=10):
        draft = Draft.from_steps(" ".join(steps_for(hand)))
        fields = {k: v for k, v in hand.items() if k not in ("tiles", "melds", "bonus")}
        fields.pop("winning_tile")
        built = draft.contract(hand["winning_tile"], **fields)
        assert score_json(built, "u3a") == score_json(hand, "u3a")
        assert sorted(built["tiles"].split()) == sorted(hand["tiles"].split())
        assert sorted(m["tiles"] for m in built["melds"]) == sorted(
            " ".join(sorted(m["tiles"].split())) for m in hand.get("melds", [])
        )
        assert sorted(built["bonus"].split()) == sorted(hand.get("bonus", "").split())
