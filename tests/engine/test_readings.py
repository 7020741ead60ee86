"""Readings (decompose + shapes), patterns, results and the RuleSet base class."""

import json

import pytest

from scoring.engine import EngineError, Item, Result, parse_hand, score_json
from scoring.engine import patterns as P
from scoring.engine.decompose import readings
from scoring.engine.result import error_dict, error_json
from scoring.engine.rulesets import RULESET_NAMES, get_ruleset
from scoring.engine.rulesets.base import RuleSet, settle, zero_payments
from scoring.engine.tiles import parse_tile


def make(tiles, winning=None, won_by="wall", melds=(), **extra):
    data = {
        "tiles": tiles,
        "melds": [
            {"tiles": m[0], "concealed": m[1]} if isinstance(m, tuple) else {"tiles": m}
            for m in melds
        ],
        "winning_tile": winning or tiles.split()[-1],
        "won_by": won_by,
        "seat_wind": "S",
        "prevailing_wind": "E",
    }
    if won_by in ("discard", "robbing_kong"):
        data["discarder"] = "N"
    data.update(extra)
    return parse_hand(data)


def summary(reading):
    """(kind, code, concealed, declared, winning) per group: easy to compare by eye."""
    from scoring.engine.tiles import code

    return [(g.kind, code(g.tile), g.concealed, g.declared, g.winning) for g in reading.groups]


# -- standard readings -----------------------------------------------------------------


def test_pongs_or_chows_both_read():
    hand = make("c2 c2 c2 c3 c3 c3 c4 c4 c4 b5 b5 b6 b7 b8", winning="b8")
    found = {tuple(g.kind for g in r.groups) for r in readings(hand)}
    assert found == {
        ("chow", "chow", "chow", "chow", "pair"),
        ("chow", "pong", "pong", "pong", "pair"),
    }


def test_one_reading_per_placement_of_the_winning_tile():
    # c3 can complete the chow c2-c4 (three identical chows count once) or the pong c3.
    hand = make("c2 c2 c2 c3 c3 c3 c4 c4 c4 b5 b5 b6 b7 b8", winning="c3")
    placements = sorted((r.winning_group.kind, r.winning_group.tile) for r in readings(hand))
    assert placements == [("chow", parse_tile("c2")), ("pong", parse_tile("c3"))]
    # Exactly one group is marked winning in every reading.
    assert all(sum(g.winning for g in r.groups) == 1 for r in readings(hand))


def test_winning_tile_in_pair_or_in_chow():
    # b1 b1 b1 b2 b3 is pair b1 + chow b1-b3: the winning b1 may sit in either.
    hand = make("b1 b1 b1 b2 b3 c4 c5 c6 d7 d8 d9 ww ww ww", winning="b1")
    assert sorted(r.winning_group.kind for r in readings(hand)) == ["chow", "pair"]
    hand = make("b1 b1 b1 b2 b3 c4 c5 c6 d7 d8 d9 ww ww ww", winning="b2")
    assert sorted(r.winning_group.kind for r in readings(hand)) == ["chow"]


def test_discard_makes_the_completed_group_exposed():
    hand = make("b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr ww ww ww", winning="c5", won_by="discard")
    (reading,) = readings(hand)
    pong = next(g for g in reading.groups if g.tile == parse_tile("c5"))
    assert pong.winning and not pong.concealed
    assert P.concealed_pongs(reading) == 1  # ww stays concealed, c5 counts as exposed
    drawn = make("b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr ww ww ww", winning="c5", won_by="wall")
    assert P.concealed_pongs(readings(drawn)[0]) == 2


def test_robbing_a_kong_makes_the_completed_group_exposed():
    hand = make("b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr ww ww ww", winning="d8", won_by="robbing_kong")
    (reading,) = readings(hand)
    assert reading.winning_group.kind == "chow" and not reading.winning_group.concealed


def test_declared_melds_come_first_and_keep_their_flags():
    hand = make(
        "b1 b2 b3 c5 c5 c5 dr dr", winning="dr", melds=[("d7 d8 d9", False), ("ww ww ww ww", True)]
    )
    (reading,) = readings(hand)
    assert summary(reading) == [
        ("chow", "d7", False, True, False),
        ("kong", "ww", True, True, False),
        ("chow", "b1", True, False, False),
        ("pong", "c5", True, False, False),
        ("pair", "dr", True, False, True),
    ]


def test_four_concealed_identical_tiles_can_split():
    # Four c5 concealed: pong + chow c5-c7, or pair + two chows.
    hand = make("c5 c5 c5 c5 c6 c6 c7 c7 b1 b2 b3 ww ww ww", winning="ww")
    shapes = {tuple(sorted(g.kind for g in r.groups)) for r in readings(hand)}
    assert ("chow", "chow", "chow", "pair", "pong") in shapes


@pytest.mark.parametrize(
    "tiles",
    [
        "b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr ww ww wn",  # a single honour
        "b1 b2 b4 c5 c5 c5 d7 d8 d9 dr dr ww ww ww",  # a gap
        "b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr dr dr ww",  # four concealed honours are not a kong
    ],
)
def test_incomplete_hands_have_no_reading(tiles):
    assert readings(make(tiles)) == ()


def test_readings_are_independent_of_input_order():
    a = make("b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr ww ww ww", winning="c5")
    b = make("ww dr c5 b3 d9 c5 ww b1 d8 dr c5 b2 ww d7", winning="c5")
    assert readings(a) == readings(b)


# -- special shapes --------------------------------------------------------------------


def shapes_of(tiles, **kw):
    return sorted(r.shape for r in readings(make(tiles, **kw)))


def test_seven_pairs():
    hand = make("b1 b1 c3 c3 d5 d5 we we dr dr b9 b9 c7 c7", winning="c7", won_by="discard")
    (reading,) = readings(hand)
    assert reading.shape == "seven_pairs" and len(reading.groups) == 7
    assert [g.winning for g in reading.groups].count(True) == 1
    assert not reading.winning_group.concealed  # completed by the discard


def test_seven_pairs_with_four_of_a_kind_is_yielded_for_the_rule_set_to_judge():
    (reading,) = [
        r
        for r in readings(make("b1 b1 b1 b1 c3 c3 d5 d5 we we dr dr b9 b9"))
        if r.shape == "seven_pairs"
    ]
    assert [g.tile for g in reading.groups].count(0) == 2


def test_seven_pairs_that_also_read_as_standard():
    # 11 22 33 pairs in one suit also make two chows: both readings appear.
    assert "standard" in shapes_of("b1 b1 b2 b2 b3 b3 c5 c5 d7 d7 d8 d8 d9 d9", winning="c5")
    assert "seven_pairs" in shapes_of("b1 b1 b2 b2 b3 b3 c5 c5 d7 d7 d8 d8 d9 d9", winning="c5")


def test_seven_pairs_needs_no_melds():
    hand = make("b1 b1 c3 c3 d5 d5 we we dr dr b9", winning="b9", melds=["c7 c7 c7"])
    assert readings(hand) == ()


def test_thirteen_orphans():
    assert shapes_of("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw") == ["thirteen_orphans"]
    assert shapes_of("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw b1", winning="b1") == [
        "thirteen_orphans"
    ]
    assert readings(make("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dg dg")) == ()  # dw missing
    (reading,) = readings(make("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw"))
    assert reading.groups == ()


def test_double_knitting():
    # Seven knitted pairs of bamboo + characters, same number each.
    assert shapes_of("b1 c1 b2 c2 b4 c4 b5 c5 b7 c7 b8 c8 b9 c9") == ["double_knitting"]
    assert shapes_of("b1 c1 b1 c1 b4 c4 b5 c5 b7 c7 b8 c8 b9 c9") == ["double_knitting"]
    # A third suit, an honour or an unmatched number spoil it.
    assert readings(make("b1 c1 b2 c2 b4 c4 b5 c5 b7 c7 b8 c8 b9 d9")) == ()
    assert readings(make("b1 c1 b2 c2 b4 c4 b5 c5 b7 c7 b8 c8 we we")) == ()
    assert readings(make("b1 c1 b2 c2 b4 c4 b5 c5 b7 c7 b8 c8 b9 c8")) == ()


def test_triple_knitting():
    tiles = "b1 c1 d1 b3 c3 d3 b5 c5 d5 b9 c9 d9 b7 d7"
    assert shapes_of(tiles) == ["triple_knitting"]
    assert shapes_of("b1 c1 d1 b1 c1 d1 b5 c5 d5 b9 c9 d9 c2 d2") == ["triple_knitting"]
    # The pair must be one number in two suits; two half pairs fail.
    assert readings(make("b1 c1 d1 b3 c3 d3 b5 c5 d5 b9 c9 d9 b7 d8")) == ()
    assert readings(make("b1 c1 d1 b3 c3 d3 b5 c5 d5 b9 c9 d9 b7 b7")) == ()
    assert readings(make("b1 c1 d1 b3 c3 d3 b5 c5 d5 b9 c9 d9 we we")) == ()


def test_little_snake():
    assert shapes_of("d1 d2 d3 d4 d5 d6 d7 d8 d9 we ws ww dr dg") == ["little_snake"]
    assert readings(make("d1 d2 d3 d4 d5 d6 d7 d8 d9 we ws ww dr dr")) == ()  # a pair, not five
    assert readings(make("d1 d2 d3 d4 d5 d6 d7 d8 b9 we ws ww dr dg")) == ()  # two suits


def test_special_shapes_have_one_reading_each():
    for tiles in (
        "b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw",
        "d1 d2 d3 d4 d5 d6 d7 d8 d9 we ws ww dr dg",
    ):
        for won_by in ("wall", "discard"):
            assert len(readings(make(tiles, won_by=won_by))) == 1


# -- patterns ----------------------------------------------------------------------------


def first(tiles, **kw):
    hand = make(tiles, **kw)
    return hand, readings(hand)[0]


def test_tile_patterns():
    h, r = first("b2 b3 b4 c5 c5 c5 d6 d7 d8 b8 b8 c2 c3 c4", winning="c4")
    assert P.all_simples(h, r) and not P.one_suit_only(h, r)
    h, r = first("b2 b3 b4 b5 b5 b5 b6 b7 b8 b9 b9 b1 b2 b3", winning="b3")
    assert P.one_suit_only(h, r) and not P.one_suit_with_honours(h, r) and not P.all_simples(h, r)
    h, r = first("b2 b3 b4 b5 b5 b5 b6 b7 b8 dr dr we we we", winning="we")
    assert P.one_suit_with_honours(h, r) and not P.one_suit_only(h, r)
    h, r = first("we we we ws ws ws dr dr dr dg dg dg dw dw", winning="dw")
    assert P.all_honours(h, r) and not P.terminals_and_honours_only(h, r)
    h, r = first("b1 b1 b1 b9 b9 b9 c1 c1 c1 d9 d9 d9 c9 c9", winning="c9")
    assert P.all_terminals(h, r) and P.all_pongs(h, r) and not P.terminals_and_honours_only(h, r)
    h, r = first("b1 b1 b1 b9 b9 b9 we we we d9 d9 d9 dr dr", winning="dr")
    assert P.terminals_and_honours_only(h, r) and P.terminal_or_honour_in_each_group(h, r)


def test_bonus_tiles_never_count_in_patterns():
    h, r = first("b2 b3 b4 c5 c5 c5 d6 d7 d8 b8 b8 c2 c3 c4", winning="c4", bonus="f1 s2")
    assert P.all_simples(h, r)


def test_melds_count_in_tile_patterns():
    h, r = first("b2 b3 b4 c5 c5 c5 d6 d7 d8 b8 b8", winning="b8", melds=["we we we"])
    assert not P.all_simples(h, r)


def test_group_patterns():
    h, r = first("b1 b2 b3 b4 b5 b6 b7 b8 b9 c2 c3 c4 d5 d5", winning="d5")
    assert P.all_chows(h, r) and P.three_consecutive_chows(h, r) and not P.all_pongs(h, r)
    h, r = first("b2 b3 b4 b4 b5 b6 b7 b8 b9 c2 c3 c4 d5 d5", winning="d5")
    assert not P.three_consecutive_chows(h, r)
    h, r = first("b1 b2 b3 c7 c8 c9 d1 d2 d3 b9 b9 b9 we we", winning="we")
    assert P.terminal_or_honour_in_each_group(h, r)
    h, r = first("b1 b2 b3 c6 c7 c8 d1 d2 d3 b9 b9 b9 we we", winning="we")
    assert not P.terminal_or_honour_in_each_group(h, r)


def test_dragon_and_wind_patterns():
    h, r = first("dr dr dr dg dg dg dw dw b1 b2 b3 c5 c5 c5", winning="c5")
    assert P.dragon_pongs(r) == 2 and P.little_three_dragons(h, r) and not P.big_three_dragons(h, r)
    h, r = first("dw dw b1 b2 b3 c5 c5 c5", winning="c5", melds=["dr dr dr", ("dg dg dg dg", True)])
    assert P.little_three_dragons(h, r) and P.kongs(r) == 1
    h, r = first("dr dr dr dg dg dg dw dw dw b1 b2 b3 c5 c5", winning="c5")
    assert P.big_three_dragons(h, r) and not P.little_three_dragons(h, r)
    h, r = first("we we we ws ws ws ww ww ww wn wn b1 b2 b3", winning="b3")
    assert P.wind_pongs(r) == 3 and P.little_four_winds(h, r) and not P.big_four_winds(h, r)
    h, r = first("we we we ws ws ws ww ww ww wn wn wn b1 b1", winning="b1")
    assert P.big_four_winds(h, r)


def test_nine_gates():
    h, r = first("c1 c1 c1 c2 c3 c4 c5 c6 c7 c8 c9 c9 c9 c5", winning="c5")
    assert P.nine_gates(h, r)
    h, r = first("c1 c1 c1 c2 c3 c4 c5 c6 c7 c8 c9 c9 c9 c1", winning="c1")
    assert P.nine_gates(h, r)
    h, r = first("c1 c1 c1 c2 c3 c4 c5 c6 c7 c8 c8 c8 c9 c9", winning="c9")
    assert not P.nine_gates(h, r)  # only two c9
    h, r = first("c1 c1 c1 c2 c3 c4 c5 c6 c7 c8 c8 c9 c9 c9", winning="c8", won_by="discard")
    assert P.nine_gates(h, r)  # a discard completes it too (rule sets may differ)
    h, r = first("c1 c1 c1 c2 c3 c4 c5 c6 c7 c9 c9", winning="c9", melds=["c8 c8 c8"])
    assert not P.nine_gates(h, r)  # a declared meld spoils it


def test_group_patterns_are_false_without_groups():
    h, r = first("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw")
    assert not P.all_pongs(h, r) and not P.terminal_or_honour_in_each_group(h, r)
    assert P.terminals_and_honours_only(h, r)  # a tile pattern still applies


# -- results -------------------------------------------------------------------------------


def test_result_to_dict_order_and_omitted_fields():
    result = Result(
        "classical",
        136,
        False,
        True,
        (Item("Mahjong", points=20), Item("Own flower (f2)", doublings=1)),
        {"N": -272, "S": 272, "E": 0, "W": 0},
    )
    out = result.to_dict()
    assert list(out) == ["ok", "rules", "total", "limit", "allowed", "breakdown", "payments"]
    assert out["ok"] is True
    assert out["breakdown"] == [
        {"name": "Mahjong", "points": 20},
        {"name": "Own flower (f2)", "doublings": 1},
    ]
    assert list(out["payments"]) == ["E", "S", "W", "N"]
    assert Item("x", faan=2, fan=0).to_dict() == {"name": "x", "faan": 2, "fan": 0}


def test_error_dict_and_its_fast_json():
    assert error_dict("hk", "Bad.") == {"ok": False, "rules": "hk", "error": "Bad."}
    for message in ("Bad.", 'Tile "x" \\ é\n\t\u2028 ✓'):
        assert error_json("u3a", message) == json.dumps(
            error_dict("u3a", message), ensure_ascii=False
        )


# -- RuleSet base ----------------------------------------------------------------------------


class Toy(RuleSet):
    """Scores one point per pong; seven pairs refused in score_reading; no knitting."""

    name = "toy"
    title = "Toy rules"
    option_defaults = {"min_points": 1, "double_all": False}
    minimum_option = "min_points"
    value_defaults = {"pong.points": 1}
    shapes = frozenset({"standard", "seven_pairs"})

    def score_reading(self, hand, reading, opts):
        if reading.shape == "seven_pairs":
            raise EngineError("Seven pairs are not a toy hand.")
        total = self.values["pong.points"] * sum(g.kind != "chow" for g in reading.sets)
        if opts["double_all"]:
            total *= 2
        owed = {s: total for s in ("E", "S", "W", "N") if s != hand.seat_wind}
        return Result(
            self.name,
            total,
            False,
            True,
            (Item("Pongs", points=total),),
            settle(hand.seat_wind, owed),
        )


TOY = Toy()
PONGS_OR_CHOWS = "c2 c2 c2 c3 c3 c3 c4 c4 c4 b5 b5 b6 b7 b8"


def test_best_reading_wins():
    result = TOY.score(make(PONGS_OR_CHOWS))
    assert result.total == 3 and result.payments == {"E": -3, "S": 9, "W": -3, "N": -3}


def test_minimum_option_applied():
    result = TOY.score(make("c2 c3 c4 c2 c3 c4 b1 b2 b3 d4 d5 d6 b5 b5"))
    assert result.total == 0 and not result.allowed and result.payments == zero_payments()


def test_options_overrides_and_hand_options():
    hand = make(PONGS_OR_CHOWS, options={"double_all": True})
    assert TOY.score(hand).total == 6
    assert TOY.score(make(PONGS_OR_CHOWS), {"double_all": "true"}).total == 6
    assert TOY.score(hand, {"double_all": False}).total == 6  # the hand's own options win
    club = TOY.with_overrides(options={"min_points": "5"}, values={"pong.points": 2})
    assert club.score(make(PONGS_OR_CHOWS)).allowed is True  # 6 >= 5
    assert (
        club.with_overrides(options={"min_points": 7}).score(make(PONGS_OR_CHOWS)).allowed is False
    )
    assert TOY.values["pong.points"] == 1 and TOY.option_defaults["min_points"] == 1  # untouched
    assert club.describe()["values"]["pong.points"] == {"value": 2, "default": 1}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"limit": 5},
            "Unknown option 'limit' for the toy rules; the options are: min_points, double_all.",
        ),
        (
            {"min_points": "lots"},
            "Option 'min_points' of the toy rules must be a whole number, not 'lots'.",
        ),
        ({"min_points": True}, "must be a whole number"),
        ({"min_points": 2.5}, "must be a whole number"),
        ({"double_all": "maybe"}, "Option 'double_all' of the toy rules must be true or false"),
        ({"double_all": 1}, "must be true or false"),
        ([1], "Options must be an object"),
    ],
)
def test_bad_options_are_named(options, message):
    with pytest.raises(EngineError) as info:
        TOY.resolve_options(options)
    assert message in str(info.value)


def test_bad_overrides_are_named():
    with pytest.raises(EngineError, match="Unknown value 'pong.pts'"):
        TOY.with_overrides(values={"pong.pts": 2})
    with pytest.raises(EngineError, match="whole number"):
        TOY.with_overrides(values={"pong.points": "x"})


def test_refused_and_unaccepted_shapes():
    with pytest.raises(EngineError, match="Seven pairs are not a toy hand."):
        TOY.score(make("b1 b1 c3 c3 d5 d5 we we dr dr b9 b9 c7 c7"))
    with pytest.raises(
        EngineError, match="little snake hand, which is not a winning hand under the toy rules"
    ):
        TOY.score(make("d1 d2 d3 d4 d5 d6 d7 d8 d9 we ws ww dr dg"))


def test_incomplete_hand_message_names_the_tiles():
    with pytest.raises(EngineError) as info:
        TOY.score(make("b1 b2 b4 c5 c5 c5 d7 d8 d9 dr dr", melds=["ww ww ww"], winning="d9"))
    assert str(info.value) == (
        "This is not a complete winning hand: the concealed tiles "
        "b1 b2 b4 c5 c5 c5 d7 d8 d9 dr dr do not make 3 sets and a pair."
    )


def test_settle_sums_to_zero():
    payments = settle("W", {"E": 8, "N": 4})
    assert payments == {"E": -8, "S": 0, "W": 12, "N": -4} and sum(payments.values()) == 0


# -- registry and public API ----------------------------------------------------------------


def test_registry_names_and_unknown_rule_set():
    assert RULESET_NAMES == ("classical", "hk", "fan", "u3a")
    with pytest.raises(
        EngineError, match="Unknown rule set 'mcr'; choose one of classical, hk, fan, u3a."
    ):
        get_ruleset("mcr")
    assert get_ruleset(TOY) is TOY


def test_score_json_never_raises_for_bad_input():
    assert score_json({"tiles": 5}, TOY) == {
        "ok": False,
        "rules": "toy",
        "error": "'tiles' must be a string of codes separated by spaces, such as 'b1 b2 b3', not 5.",
    }
    assert score_json({}, "nonsense")["ok"] is False
    good = {
        "tiles": PONGS_OR_CHOWS,
        "winning_tile": "b8",
        "won_by": "wall",
        "seat_wind": "E",
        "prevailing_wind": "E",
    }
    assert score_json(good, TOY)["total"] == 3


def test_random_hands_are_reproducible_and_legal():
    from scoring.engine.random_hands import random_hands

    first = list(random_hands(200, seed=1))
    assert first == list(random_hands(200, seed=1))
    assert first != list(random_hands(200, seed=2))
    for hand in first:
        assert readings(parse_hand(hand)), hand


def test_registered_names_load():
    for name in RULESET_NAMES:
        ruleset = get_ruleset(name.upper())
        assert ruleset.name == name and ruleset.title
        described = ruleset.describe()
        assert set(described["options"]) == set(ruleset.option_defaults)
        assert set(described["values"]) == set(ruleset.value_defaults)


def test_engine_imports_no_django():
    import subprocess
    import sys

    code = (
        "import sys, scoring.engine as e\n"
        "from scoring.engine import cli, patterns, random_hands\n"
        "for n in e.RULESET_NAMES: e.get_ruleset(n)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_rule_sets_choose_whether_seven_pairs_may_hold_four_of_a_kind():
    from scoring.engine import score_json

    quad_pairs = {
        "tiles": "b2 b2 b2 b2 c3 c3 c5 c5 d7 d7 we we dr dr",
        "winning_tile": "dr",
        "won_by": "wall",
        "seat_wind": "E",
        "prevailing_wind": "E",
    }
    for refusing in ("hk", "fan"):
        out = score_json(quad_pairs, refusing)
        assert not out["ok"] and "four of a kind as two pairs" in out["error"], refusing
    assert score_json(quad_pairs, "u3a")["ok"]
