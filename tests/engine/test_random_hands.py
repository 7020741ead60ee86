from scoring.engine import get_ruleset
from scoring.engine.decompose import readings
from scoring.engine.hand import parse_hand
from scoring.engine.random_hands import random_hands


def test_hands_can_be_limited_to_a_rule_sets_shapes():
    shapes = get_ruleset("classical").shapes
    drawn = {
        r.shape
        for hand in random_hands(400, seed=7, shapes=shapes)
        for r in readings(parse_hand(hand))
    }
    assert drawn <= set(shapes)
    unlimited = {r.shape for hand in random_hands(400, seed=7) for r in readings(parse_hand(hand))}
    assert "seven_pairs" in unlimited
