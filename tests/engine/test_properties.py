"""Properties that hold for every rule set in the registry (hypothesis).

Missing rule sets are skipped by name. Settings stay modest so the suite stays fast.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import EngineError, parse_hand, score_json
from scoring.engine.decompose import readings
from scoring.engine.result import result_json
from scoring.engine.rulesets import RULESET_NAMES, get_ruleset
from scoring.engine.shapes import SHAPES
from tests.engine.conftest import (
    accepted_by,
    junk_inputs,
    legal_hands,
    shuffled_copy,
    tile_strings,
)

PROPERTY = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
rulesets = pytest.mark.parametrize("name", RULESET_NAMES)


def limit_options(ruleset) -> list[str]:
    """Options that cap `total`: the declared one, else 'limit' and 'max_...' options."""
    if ruleset.limit_option:
        return [ruleset.limit_option]
    return [k for k in ruleset.option_defaults if k == "limit" or k.startswith("max_")]


def shape_of(hand: dict) -> set[str]:
    return {r.shape for r in readings(parse_hand(hand))}


# -- the core on its own ----------------------------------------------------------------


@PROPERTY
@given(legal_hands())
def test_every_random_hand_is_legal_and_complete(hand):
    parsed = parse_hand(hand)
    found = readings(parsed)
    assert found, hand
    counts = Counter(parsed.all_tiles)
    assert max(counts.values()) <= 4
    assert len(parsed.all_tiles) == 14 + parsed.kong_count


@PROPERTY
@given(legal_hands())
def test_readings_account_for_every_tile_and_the_winning_tile(hand):
    parsed = parse_hand(hand)
    exposed_win = parsed.won_by in ("discard", "robbing_kong")
    for reading in readings(parsed):
        if not reading.groups:
            continue
        tiles = sorted(t for g in reading.groups for t in g.tiles)
        assert tiles == list(parsed.all_tiles)
        (winning,) = [g for g in reading.groups if g.winning]
        assert parsed.winning_tile in winning.tiles and not winning.declared
        assert winning.concealed is not exposed_win
        declared = [g for g in reading.groups if g.declared]
        assert [(g.kind, g.tile, g.concealed) for g in declared] == [
            (m.kind, m.tile, m.concealed) for m in parsed.melds
        ]
        assert reading.groups[: len(declared)] == tuple(declared)


@PROPERTY
@given(legal_hands(), st.randoms(use_true_random=False))
def test_writing_a_hand_differently_gives_the_same_hand(hand, rng):
    assert parse_hand(shuffled_copy(hand, rng)) == parse_hand(hand)


def test_random_hands_cover_every_shape():
    from scoring.engine.random_hands import random_hands

    seen = Counter()
    for hand in random_hands(3000, seed=5):
        seen.update(shape_of(hand))
    assert set(seen) == set(SHAPES)


@pytest.mark.parametrize("shape", SHAPES)
def test_each_shape_strategy_makes_that_shape(shape):
    @settings(max_examples=30, deadline=None)
    @given(legal_hands(shape))
    def check(hand):
        assert shape in shape_of(hand)

    check()


@PROPERTY
@given(junk_inputs)
def test_junk_never_raises_anything_but_engine_error(data):
    try:
        parse_hand(data)
    except EngineError as error:
        assert str(error).endswith((".", ")")) and len(str(error)) < 400


@PROPERTY
@given(tile_strings, tile_strings)
def test_random_tile_strings_parse_or_are_refused_clearly(tiles, bonus):
    data = {
        "tiles": tiles,
        "winning_tile": (tiles.split() or ["b1"])[0],
        "won_by": "wall",
        "seat_wind": "E",
        "prevailing_wind": "E",
        "bonus": bonus,
    }
    try:
        parse_hand(data)
    except EngineError as error:
        assert str(error)


# -- every rule set ------------------------------------------------------------------------


@rulesets
def test_every_random_legal_hand_scores(name):
    ruleset = get_ruleset(name)

    @PROPERTY
    @given(legal_hands())
    def check(hand):
        out = score_json(hand, ruleset)
        if accepted_by(name, hand):
            assert out["ok"], (hand, out)
        if not out["ok"]:
            assert out["error"] and set(out) == {"ok", "rules", "error"}
            return
        assert out["rules"] == name
        assert isinstance(out["total"], int) and not isinstance(out["total"], bool)
        assert isinstance(out["limit"], bool) and isinstance(out["allowed"], bool)
        assert list(out["payments"]) == ["E", "S", "W", "N"]
        assert sum(out["payments"].values()) == 0
        if not out["allowed"]:
            assert set(out["payments"].values()) == {0}
        for item in out["breakdown"]:
            assert isinstance(item["name"], str) and item["name"]
            assert set(item) - {"name"} <= {"points", "doublings", "faan", "fan"}
        result = ruleset.score(parse_hand(hand))
        assert result_json(result) == json.dumps(result.to_dict(), ensure_ascii=False)

    check()


@rulesets
def test_order_of_tiles_and_melds_never_changes_the_result(name):
    ruleset = get_ruleset(name)

    @PROPERTY
    @given(legal_hands(), st.randoms(use_true_random=False))
    def check(hand, rng):
        assert score_json(shuffled_copy(hand, rng), ruleset) == score_json(hand, ruleset)

    check()


# u3a has no cap: its points simply add up (seed 004).
@pytest.mark.parametrize("name", [n for n in RULESET_NAMES if n != "u3a"])
def test_totals_never_exceed_the_limit(name):
    ruleset = get_ruleset(name)
    caps = limit_options(ruleset)
    assert caps, f"rule set '{name}' should declare its limit option"

    @PROPERTY
    @given(legal_hands(), st.sampled_from(caps), st.integers(1, 3000), st.booleans())
    def check(hand, option, cap, use_default):
        options = None if use_default else {option: cap}
        out = score_json(hand, ruleset, options)
        if out["ok"]:
            limit = ruleset.resolve_options(options)[option]
            assert out["total"] <= limit, (hand, options, out)

    check()


@rulesets
def test_junk_gives_an_error_dict_never_another_exception(name):
    ruleset = get_ruleset(name)

    @PROPERTY
    @given(junk_inputs)
    def check(data):
        out = score_json(data, ruleset)
        assert out["rules"] == name
        if not out["ok"]:
            assert isinstance(out["error"], str) and out["error"]

    check()


@rulesets
def test_random_hands_pass_through_every_rule_set_quickly(name):
    """A fixed batch (no hypothesis): a crash on any of them is a bug to report."""
    ruleset = get_ruleset(name)
    from scoring.engine.random_hands import random_hands

    for hand in random_hands(500, seed=11):
        out = score_json(hand, ruleset)
        assert out["ok"] or "error" in out
