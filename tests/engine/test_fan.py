"""The `fan` rule set (seed 003), table-driven.

One case per item of seed 003's lists and per fan ruling, named after the item. Expected fan,
breakdown and payments are worked out by hand from the seed and docs/rules/fan.md (arithmetic in the
comments), never copied from the code's output.

Unless a case says otherwise the winner sits South in the East round, East deals, North
discards the winning tile and the winner holds one bonus tile, f3 (West's flower: no fan, and
it stops "No Flowers or Seasons").

Points from fan (seed 002): 0:1, 1:2, 2:4, 3:8, 4-6:16, 7-9:32, 10-12:64, 13+:128.
On a discard the discarder pays 2p, the other two p each (winner +4p);
self-drawn all three pay 2p (winner +6p).
"""

import pytest

from scoring.engine.errors import EngineError
from scoring.engine.hand import parse_hand
from scoring.engine.rulesets.fan import RULESET

ZERO = {"E": 0, "S": 0, "W": 0, "N": 0}

# Three chows, a minor pong and a pair in three suits: worth nothing by itself.
CHICKEN = "b1 b2 b3 c4 c5 c6 d7 d8 d9 b5 b5 b5 c9 c9"


def hand(
    tiles,
    win,
    by="discard",
    discarder="N",
    seat="S",
    prevailing="E",
    melds=(),
    bonus="f3",
    last_tile=False,
    first_turn=False,
    dealer="E",
    options=None,
):
    """A hand as the contract's JSON. `melds`: (tiles, concealed) pairs."""
    data = {
        "tiles": tiles,
        "melds": [{"tiles": t, "concealed": c} for t, c in melds],
        "winning_tile": win,
        "won_by": by,
        "seat_wind": seat,
        "prevailing_wind": prevailing,
        "dealer": dealer,
        "bonus": bonus,
        "last_tile": last_tile,
        "first_turn": first_turn,
        "options": options or {},
    }
    if by in ("discard", "robbing_kong"):
        data["discarder"] = discarder
    return data


def case(data, options, total, breakdown, payments, *, limit=False, allowed=True, id):
    return pytest.param(data, options, total, breakdown, payments, limit, allowed, id=id)


def score(data, options=None, ruleset=RULESET):
    return ruleset.score(parse_hand(data), options)


def check(result, total, breakdown, payments, limit=False, allowed=True):
    assert result.rules == "fan"
    assert [(item.name, item.fan) for item in result.breakdown] == breakdown
    assert result.total == total
    assert result.limit is limit
    assert result.allowed is allowed
    assert dict(result.payments) == payments
    assert sum(result.payments.values()) == 0


# Payments used again and again (p = points from the fan total):
D2 = {"E": -2, "S": 8, "W": -2, "N": -4}  # 1 fan, p=2, discard by N: N 2*2, E/W 2, S +8
D4 = {"E": -4, "S": 16, "W": -4, "N": -8}  # 2 fan, p=4: N 8, E/W 4, S +16
D8 = {"E": -8, "S": 32, "W": -8, "N": -16}  # 3 fan, p=8: N 16, E/W 8, S +32
D16 = {"E": -16, "S": 64, "W": -16, "N": -32}  # 4-6 fan, p=16: N 32, E/W 16, S +64
D64 = {"E": -64, "S": 256, "W": -64, "N": -128}  # 10 fan (max), p=64: N 128, E/W 64, S +256
W2 = {"E": -4, "S": 12, "W": -4, "N": -4}  # 1 fan self-drawn, p=2: each 2*2=4, S +12
W4 = {"E": -8, "S": 24, "W": -8, "N": -8}  # 2 fan self-drawn, p=4: each 8, S +24
W64 = {"E": -128, "S": 384, "W": -128, "N": -128}  # max self-drawn, p=64: each 128, S +384

CASES = [
    # ---------------------------------------------------------------- Winning Bonuses
    case(
        hand(CHICKEN, "d9", by="wall"),
        None,
        1,  # Self Pick 1
        [("Self Pick", 1)],
        W2,
        id="self_pick",
    ),
    case(
        hand(CHICKEN, "d9", by="wall", last_tile=True),
        None,
        2,  # Self Pick 1 + Out on Last Tile 1 = 2 -> p=4, each pays 8
        [("Self Pick", 1), ("Out on Last Tile", 1)],
        W4,
        id="out_on_last_tile",
    ),
    case(
        hand(CHICKEN, "d9", last_tile=True),
        None,
        1,  # Out on Last Discard 1
        [("Out on Last Discard", 1)],
        D2,
        id="out_on_last_discard",
    ),
    case(
        hand(CHICKEN, "d9", by="robbing_kong", discarder="W"),
        None,
        1,  # Robbing a Kong 1 -> p=2; W (robbed) pays as discarder 4, E and N 2 each
        [("Robbing a Kong", 1)],
        {"E": -2, "S": 8, "W": -4, "N": -2},
        id="robbing_a_kong",
    ),
    case(
        hand(CHICKEN, "d9", by="robbing_kong", discarder="W", last_tile=True),
        None,
        2,  # ruling: a robbed kong after the last tile is a last discard: 1 + 1 = 2 -> p=4
        [("Out on Last Discard", 1), ("Robbing a Kong", 1)],
        {"E": -4, "S": 16, "W": -8, "N": -4},
        id="robbing_a_kong_after_last_tile",
    ),
    case(
        hand(CHICKEN, "d9", by="replacement"),
        None,
        2,  # ruling: a supplement win is self-drawn too: Self Pick 1 + Supplement 1 = 2 -> p=4
        [("Self Pick", 1), ("Out on a Supplement Tile", 1)],
        W4,
        id="out_on_a_supplement_tile",
    ),
    # ---------------------------------------------------------------- Pungs and Chows
    case(
        hand("b1 b2 b3 b6 b7 b8 c4 c5 c6 d7 d8 d9 c9 c9", "c9"),
        None,
        1,  # 4 Chows 1
        [("4 Chows", 1)],
        D2,
        id="4_chows",
    ),
    case(
        hand("b2 b2 b2 c5 c5 c5 d7 d7 d7 b9 b9 b9 c3 c3", "c3"),
        None,
        3,  # 4 Pungs 3 (all concealed but won on a discard: not Hidden Treasure) -> p=8
        [("4 Pungs", 3)],
        D8,
        id="4_pungs",
    ),
    case(
        hand(
            "c5 c5 c5 d7 d7 d7 b9 b9 b9 c3 c3",
            "c3",
            melds=[("b2 b2 b2 b2", False)],
        ),
        None,
        3,  # a kong counts as a pung: 4 Pungs 3; kongs score no fan by default -> p=8
        [("4 Pungs", 3)],
        D8,
        id="4_pungs_kong_counts_as_pung",
    ),
    case(
        hand("c2 c2 c2 c3 c3 c3 c4 c4 c4 b5 b5 b5 d9 d9", "d9"),
        None,
        3,  # best reading: as pungs 4 Pungs 3; as three chows + pung nothing -> 3, p=8
        [("4 Pungs", 3)],
        D8,
        id="best_reading_pungs_over_chows",
    ),
    # ---------------------------------------------------------------- Purity
    case(
        hand("b1 b2 b3 b5 b5 b5 b6 b7 b8 ww ww ww b9 b9", "b9"),
        None,
        3,  # Semi-Pure 3 (West wind is neither S's seat nor the E round: nothing) -> p=8
        [("Semi-Pure", 3)],
        D8,
        id="semi_pure",
    ),
    case(
        hand("d1 d1 d2 d3 d4 d6 d6 d6 d7 d8 d9", "d1", melds=[("d5 d5 d5", False)]),
        None,
        6,  # Pure 6 -> p=16
        [("Pure", 6)],
        D16,
        id="pure",
    ),
    case(
        hand("we we we ws ws ws ww ww ww dr dr dr dg dg", "dg"),
        None,
        10,  # max: only the max hand is listed, at max_fan 10 -> p=64
        [("All Honors", 10)],
        D64,
        limit=True,
        id="winds_and_dragons_only",
    ),
    # ---------------------------------------------------------------- Dragons
    case(
        hand("b1 b2 b3 c4 c5 c6 d7 d8 d9 dr dr dr c9 c9", "c9"),
        None,
        1,  # 1 Dragon Pung 1
        [("1 Dragon Pung (dr)", 1)],
        D2,
        id="1_dragon_pung",
    ),
    case(
        hand("b1 b2 b3 c4 c5 c6 d7 d8 d9 c9 c9", "c9", melds=[("dg dg dg dg", False)]),
        None,
        1,  # a kong of dragons is a dragon pung: 1
        [("1 Dragon Pung (dg)", 1)],
        D2,
        id="1_dragon_pung_kong",
    ),
    case(
        hand("b1 b2 b3 c4 c5 c6 dr dr dr dg dg dg c9 c9", "c9"),
        None,
        2,  # 2 Dragon Pungs 2 (the row's value, not 1 + 2) -> p=4
        [("2 Dragon Pungs (dr dg)", 2)],
        D4,
        id="2_dragon_pungs",
    ),
    case(
        hand("b1 b2 b3 c4 c5 c6 dr dr dr dg dg dg dw dw", "dw"),
        None,
        4,  # 3 Little Dragons 4, instead of the 2 Dragon Pungs row -> p=16
        [("3 Little Dragons", 4)],
        D16,
        id="3_little_dragons",
    ),
    case(
        hand("b1 b2 b3 dr dr dr dg dg dg dw dw dw c9 c9", "c9"),
        None,
        10,  # max
        [("3 Big Dragons", 10)],
        D64,
        limit=True,
        id="3_big_dragons",
    ),
    # ---------------------------------------------------------------- Winds
    case(
        hand("b1 b2 b3 c4 c5 c6 d7 d8 d9 ws ws ws c9 c9", "c9"),
        None,
        1,  # South's own wind 1
        [("Pung/Kong of Player's Own Wind (ws)", 1)],
        D2,
        id="pung_of_own_wind",
    ),
    case(
        hand("b1 b2 b3 c4 c5 c6 d7 d8 d9 we we we c9 c9", "c9"),
        None,
        1,  # East round's wind 1
        [("Pung/Kong of Wind of the Round (we)", 1)],
        D2,
        id="pung_of_wind_of_the_round",
    ),
    case(
        hand(  # f1 is East's flower: nothing for West
            "b1 b2 b3 c4 c5 c6 d7 d8 d9 ww ww ww c9 c9", "c9", seat="W", prevailing="W", bonus="f1"
        ),
        None,
        2,  # West in the West round: own wind 1 + round wind 1 = 2 -> p=4;
        # winner W +16, N (discarder) 8, E and S 4
        [
            ("Pung/Kong of Player's Own Wind (ww)", 1),
            ("Pung/Kong of Wind of the Round (ww)", 1),
        ],
        {"E": -4, "S": -4, "W": 16, "N": -8},
        id="own_wind_is_round_wind",
    ),
    case(
        hand("b1 b2 b3 c4 c5 c6 d7 d8 d9 wn wn wn c9 c9", "c9"),
        None,
        0,  # North wind for South in the East round: 0 fan < min 1 -> not allowed
        [],
        ZERO,
        allowed=False,
        id="pung_of_other_wind_scores_nothing",
    ),
    case(
        hand("we we we ws ws ws ww ww ww wn wn b1 b2 b3", "b3"),
        None,
        10,  # three wind pungs and the fourth wind as the pair: max
        [("4 Winds", 10)],
        D64,
        limit=True,
        id="4_winds_including_a_pair",
    ),
    case(
        hand("we we we ws ws ws ww ww ww wn wn wn b5 b5", "b5"),
        None,
        10,  # four wind pungs: max
        [("4 Winds", 10)],
        D64,
        limit=True,
        id="4_winds_four_pungs",
    ),
    # ---------------------------------------------------------------- Flowers & Seasons
    case(
        hand(CHICKEN, "d9", bonus="f2"),
        None,
        1,  # f2 is South's flower: 1
        [("Flower/Season of Player's Own Wind (f2)", 1)],
        D2,
        id="flower_of_own_wind",
    ),
    case(
        hand(CHICKEN, "d9", bonus="f2 s2"),
        None,
        2,  # each own-wind bonus tile: f2 1 + s2 1 = 2 -> p=4
        [
            ("Flower/Season of Player's Own Wind (f2)", 1),
            ("Flower/Season of Player's Own Wind (s2)", 1),
        ],
        D4,
        id="flower_and_season_of_own_wind",
    ),
    case(
        hand(CHICKEN, "d9", bonus=""),
        None,
        1,  # No Flowers or Seasons 1
        [("No Flowers or Seasons", 1)],
        D2,
        id="no_flowers_or_seasons",
    ),
    case(
        hand(CHICKEN, "d9", bonus="f1 f2 f3 f4"),
        None,
        3,  # own flower f2 1 + All Flowers 2 = 3 -> p=8
        [("Flower/Season of Player's Own Wind (f2)", 1), ("All Flowers", 2)],
        D8,
        id="all_flowers",
    ),
    case(
        hand(CHICKEN, "d9", bonus="s1 s2 s3 s4"),
        None,
        3,  # own season s2 1 + All Seasons 2 = 3 -> p=8
        [("Flower/Season of Player's Own Wind (s2)", 1), ("All Seasons", 2)],
        D8,
        id="all_seasons",
    ),
    case(
        hand(CHICKEN, "d9", bonus="f1 f2 f3 f4 s1 s2 s3 s4"),
        None,
        6,  # f2 1 + s2 1 + All Flowers 2 + All Seasons 2 = 6 -> p=16
        [
            ("Flower/Season of Player's Own Wind (f2)", 1),
            ("Flower/Season of Player's Own Wind (s2)", 1),
            ("All Flowers", 2),
            ("All Seasons", 2),
        ],
        D16,
        id="all_flowers_and_all_seasons",
    ),
    # ---------------------------------------------------------------- Special Hands
    case(
        hand("b1 b1 b4 b4 c2 c2 c7 c7 d3 d3 d8 d8 ww ww", "ww"),
        None,
        4,  # 7 Pairs 4 -> p=16
        [("7 Pairs", 4)],
        D16,
        id="7_pairs",
    ),
    case(
        hand("b2 b2 b2 b2 b3 b3 b4 b4 c5 c5 c6 c6 c7 c7", "c7"),
        None,
        1,  # the seven-pairs reading needs b2 b2 b2 b2 as two pairs: refused ("no quads");
        # the standard reading b2-b3-b4 twice, c5-c6-c7 twice, b2 pair: 4 Chows 1
        [("4 Chows", 1)],
        D2,
        id="7_pairs_quad_scores_as_standard_hand",
    ),
    case(
        hand("b1 b1 b2 b2 b4 b4 b5 b5 b7 b7 b8 b8 b9 b9", "b9"),
        None,
        10,  # Pure 6 + 7 Pairs 4 = 10 = max_fan: reaches the limit -> p=64
        [("Pure", 6), ("7 Pairs", 4)],
        D64,
        limit=True,
        id="7_pairs_pure_reaches_limit",
    ),
    case(
        hand("b1 b1 b2 b2 b4 b4 b5 b5 b7 b7 b8 b8 b9 b9", "b9", by="wall"),
        None,
        10,  # Self Pick 1 + Pure 6 + 7 Pairs 4 = 11, capped at 10 -> p=64, each 128
        [("Self Pick", 1), ("Pure", 6), ("7 Pairs", 4)],
        W64,
        limit=True,
        id="fan_capped_at_max_fan",
    ),
    case(
        hand("b2 b2 b2 c5 c5 c5 d7 d7 d7 b9 b9 b9 c3 c3", "c3", by="wall"),
        None,
        10,  # four concealed pungs, self-drawn: max -> p=64, each pays 128
        [("Hidden Treasure", 10)],
        W64,
        limit=True,
        id="hidden_treasure",
    ),
    case(
        hand(
            "c5 c5 c5 d7 d7 d7 b9 b9 b9 c3 c3",
            "c3",
            by="wall",
            melds=[("b2 b2 b2 b2", True)],
        ),
        None,
        10,  # a declared concealed kong is a concealed pung: max
        [("Hidden Treasure", 10)],
        W64,
        limit=True,
        id="hidden_treasure_with_concealed_kong",
    ),
    case(
        hand("c5 c5 c5 d7 d7 d7 b9 b9 b9 c3 c3", "c3", by="wall", melds=[("b2 b2 b2", False)]),
        None,
        4,  # an exposed pung spoils it: Self Pick 1 + 4 Pungs 3 = 4 -> p=16, each 32
        [("Self Pick", 1), ("4 Pungs", 3)],
        {"E": -32, "S": 96, "W": -32, "N": -32},
        id="hidden_treasure_not_with_exposed_pung",
    ),
    case(
        hand("ws ws ws wn wn wn dr dr dr dg dg dg dw dw", "dw"),
        None,
        10,  # max (the little dragons and own wind do not add to a max hand)
        [("All Honors", 10)],
        D64,
        limit=True,
        id="all_honors",
    ),
    case(
        hand("we we ws ws ww ww wn wn dr dr dg dg dw dw", "dw"),
        None,
        10,  # seven pairs of honours: All Honors, max
        [("All Honors", 10)],
        D64,
        limit=True,
        id="all_honors_seven_pairs",
    ),
    case(
        hand("we we we ws ws ws ww ww ww wn wn wn dr dr", "dr"),
        None,
        10,  # two max hands: both listed, the hand still scores max_fan once
        [("All Honors", 10), ("4 Winds", 10)],
        D64,
        limit=True,
        id="two_max_hands",
    ),
    case(
        hand("b1 b1 b1 b9 b9 b9 c1 c1 c1 d9 d9 d9 c9 c9", "c9"),
        None,
        10,  # max
        [("All Terminals", 10)],
        D64,
        limit=True,
        id="all_terminals",
    ),
    case(
        hand("c1 c1 c1 c2 c3 c4 c5 c5 c6 c7 c8 c9 c9 c9", "c5"),
        None,
        10,  # 1112345678999 + c5, concealed: max
        [("Nine Gates", 10)],
        D64,
        limit=True,
        id="nine_gates",
    ),
    case(
        hand("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw", "dw"),
        None,
        10,  # max
        [("Thirteen Orphans", 10)],
        D64,
        limit=True,
        id="thirteen_orphans",
    ),
    case(
        hand(
            "b9 b9",
            "b9",
            melds=[
                ("b2 b2 b2 b2", False),
                ("c5 c5 c5 c5", False),
                ("d7 d7 d7 d7", True),
                ("wn wn wn wn", False),
            ],
        ),
        None,
        10,  # max
        [("All Kongs", 10)],
        D64,
        limit=True,
        id="all_kongs",
    ),
    case(
        hand("dg dg dg b1 b2 b3 b4 b5 b6 b8 b8 b8 b9 b9", "b9"),
        None,
        10,  # green dragon pung + bamboo: max
        [("Jade Dragon", 10)],
        D64,
        limit=True,
        id="jade_dragon",
    ),
    case(
        hand("dw dw dw d1 d2 d3 d4 d5 d6 d8 d8 d8 d9 d9", "d9"),
        None,
        10,  # white dragon pung + circles (dots): max
        [("Pearl Dragon", 10)],
        D64,
        limit=True,
        id="pearl_dragon",
    ),
    case(
        hand("dr dr dr c1 c2 c3 c4 c5 c6 c8 c8 c8 c9 c9", "c9"),
        None,
        10,  # red dragon pung + characters: max
        [("Ruby Dragon", 10)],
        D64,
        limit=True,
        id="ruby_dragon",
    ),
    case(
        hand("dg dg dg d1 d2 d3 d4 d5 d6 d8 d8 d8 d9 d9", "d9"),
        None,
        4,  # green dragon with circles is no Jade Dragon: Semi-Pure 3 + 1 Dragon Pung 1 = 4
        [("Semi-Pure", 3), ("1 Dragon Pung (dg)", 1)],
        D16,
        id="dragon_with_the_wrong_suit",
    ),
    case(
        hand(CHICKEN, "d9", by="wall", seat="E", first_turn=True),
        None,
        10,  # the dealer (E) wins on the deal: max -> p=64, S W N pay 128 each, E +384
        [("Heavenly Hand", 10)],
        {"E": 384, "S": -128, "W": -128, "N": -128},
        limit=True,
        id="heavenly_hand",
    ),
    case(
        hand(CHICKEN, "d9", discarder="E", first_turn=True),
        None,
        10,  # South wins on East's first discard: max -> p=64, E pays 128, W and N 64
        [("Earthly Hand", 10)],
        {"E": -128, "S": 256, "W": -64, "N": -64},
        limit=True,
        id="earthly_hand",
    ),
    case(
        hand(CHICKEN, "d9", discarder="N", first_turn=True),
        None,
        0,  # first turn but North's discard, not the dealer's: no Earthly Hand, 0 fan
        [],
        ZERO,
        allowed=False,
        id="earthly_hand_needs_the_dealers_discard",
    ),
    # ---------------------------------------------------------------- points table brackets
    case(
        hand("b1 b2 b3 b5 b6 b7 dr dr dr dg dg dg b9 b9", "b9"),
        None,
        5,  # Semi-Pure 3 + 2 Dragon Pungs 2 = 5 -> 4-6 bracket, p=16
        [("Semi-Pure", 3), ("2 Dragon Pungs (dr dg)", 2)],
        D16,
        id="points_5_fan",
    ),
    case(
        hand("d1 d1 d2 d3 d4 d6 d6 d6 d7 d8 d9", "d1", by="wall", melds=[("d5 d5 d5", False)]),
        None,
        7,  # Self Pick 1 + Pure 6 = 7 -> 7-9 bracket, p=32, each pays 64
        [("Self Pick", 1), ("Pure", 6)],
        {"E": -64, "S": 192, "W": -64, "N": -64},
        id="points_7_fan",
    ),
    case(
        hand("b1 b2 b3 b5 b6 b7 dr dr dr dg dg dg dw dw", "dw", by="wall", bonus=""),
        None,
        9,  # Self Pick 1 + Semi-Pure 3 + 3 Little Dragons 4 + No Flowers 1 = 9 -> p=32
        [
            ("Self Pick", 1),
            ("Semi-Pure", 3),
            ("3 Little Dragons", 4),
            ("No Flowers or Seasons", 1),
        ],
        {"E": -64, "S": 192, "W": -64, "N": -64},
        id="points_9_fan",
    ),
    case(
        hand("b1 b1 b2 b2 b4 b4 b5 b5 b7 b7 b8 b8 b9 b9", "b9", by="wall", bonus=""),
        {"max_fan": 13},
        12,  # Self Pick 1 + Pure 6 + No Flowers 1 + 7 Pairs 4 = 12 < 13 -> 10-12, p=64
        [("Self Pick", 1), ("Pure", 6), ("No Flowers or Seasons", 1), ("7 Pairs", 4)],
        W64,
        id="points_12_fan",
    ),
    case(
        hand(
            "b1 b1 b2 b2 b4 b4 b5 b5 b7 b7 b8 b8 b9 b9",
            "b9",
            by="wall",
            bonus="",
            last_tile=True,
        ),
        {"max_fan": 13},
        13,  # 12 above + Out on Last Tile 1 = 13 = max_fan -> limit, p=128, each 256
        [
            ("Self Pick", 1),
            ("Out on Last Tile", 1),
            ("Pure", 6),
            ("No Flowers or Seasons", 1),
            ("7 Pairs", 4),
        ],
        {"E": -256, "S": 768, "W": -256, "N": -256},
        limit=True,
        id="points_13_fan",
    ),
    # ---------------------------------------------------------------- options
    case(
        hand(CHICKEN, "d9"),
        None,
        0,  # 0 fan < min_fan 1: may not go out, no payments
        [],
        ZERO,
        allowed=False,
        id="below_min_fan",
    ),
    case(
        hand(CHICKEN, "d9"),
        {"min_fan": 0},
        0,  # 0 fan allowed -> p=1: N 2, E 1, W 1, S +4
        [],
        {"E": -1, "S": 4, "W": -1, "N": -2},
        id="min_fan_0",
    ),
    case(
        hand(CHICKEN, "d9", bonus="f2"),
        {"min_fan": 2},
        1,  # own flower 1 < 2: not allowed
        [("Flower/Season of Player's Own Wind (f2)", 1)],
        ZERO,
        allowed=False,
        id="min_fan_2_below",
    ),
    case(
        hand(CHICKEN, "d9", bonus="f2 s2"),
        {"min_fan": 2},
        2,  # 1 + 1 = 2 >= 2: allowed, p=4
        [
            ("Flower/Season of Player's Own Wind (f2)", 1),
            ("Flower/Season of Player's Own Wind (s2)", 1),
        ],
        D4,
        id="min_fan_2_reached",
    ),
    case(
        hand(CHICKEN, "d9", bonus="f2", options={"min_fan": 2}),
        {"min_fan": 1},
        1,  # the hand's own options override the club's: min 2, 1 fan -> not allowed
        [("Flower/Season of Player's Own Wind (f2)", 1)],
        ZERO,
        allowed=False,
        id="hand_option_overrides_club_option",
    ),
    case(
        hand("ws ws ws wn wn wn dr dr dr dg dg dg dw dw", "dw"),
        {"max_fan": 13},
        13,  # a max hand scores max_fan 13 -> p=128: N 256, E/W 128, S +512
        [("All Honors", 13)],
        {"E": -128, "S": 512, "W": -128, "N": -256},
        limit=True,
        id="max_fan_13_max_hand",
    ),
    case(
        hand("b1 b1 b2 b2 b4 b4 b5 b5 b7 b7 b8 b8 b9 b9", "b9"),
        {"max_fan": 8},
        8,  # Pure 6 + 7 Pairs 4 = 10, capped at 8 -> p=32: N 64, E/W 32, S +128
        [("Pure", 6), ("7 Pairs", 4)],
        {"E": -32, "S": 128, "W": -32, "N": -64},
        limit=True,
        id="max_fan_8_caps",
    ),
    # ---------------------------------------------------------------- 9-piece penalty
    case(
        hand("d1 d1 d2 d3 d4 d6 d6 d6 d7 d8 d9", "d1", melds=[("d5 d5 d5", False)]),
        {"liable": "N"},
        6,  # Pure 6 -> p=16; N would pay 32, E 16, W 16: N pays all 64
        [("Pure", 6)],
        {"E": 0, "S": 64, "W": 0, "N": -64},
        id="liable_discarder_pays_for_everyone",
    ),
    case(
        hand("d1 d1 d2 d3 d4 d6 d6 d6 d7 d8 d9", "d1", melds=[("d5 d5 d5", False)]),
        {"liable": "E"},
        6,  # Pure 6 -> p=16; N (discarder) would pay 32, E 16, W 16: E pays all 64
        [("Pure", 6)],
        {"E": -64, "S": 64, "W": 0, "N": 0},
        id="liable_other_player_on_a_discard",
    ),
    case(
        hand(
            "d1 d1 d2 d3 d4 d6 d6 d6 d7 d8 d9",
            "d1",
            by="wall",
            melds=[("d5 d5 d5", False)],
            options={"liable": "W"},
        ),
        None,
        7,  # Self Pick 1 + Pure 6 = 7 -> p=32; each would pay 64: W pays 3 * 64 = 192
        [("Self Pick", 1), ("Pure", 6)],
        {"E": 0, "S": 192, "W": -192, "N": 0},
        id="liable_player_pays_for_self_drawn_win",
    ),
    case(
        hand(CHICKEN, "d9", options={"liable": "w"}),
        None,
        0,  # lower-case letter accepted; 0 fan not allowed: nobody pays anything
        [],
        ZERO,
        allowed=False,
        id="liable_no_payment_when_not_allowed",
    ),
    case(
        hand(CHICKEN, "d9", bonus="f2", options={"liable": ""}),
        None,
        1,  # empty = nobody liable: the usual payments, p=2
        [("Flower/Season of Player's Own Wind (f2)", 1)],
        D2,
        id="liable_empty_is_nobody",
    ),
]


@pytest.mark.parametrize(
    ("data", "options", "total", "breakdown", "payments", "limit", "allowed"),
    CASES,
)
def test_fan(data, options, total, breakdown, payments, limit, allowed):
    check(score(data, options), total, breakdown, payments, limit, allowed)


# ---------------------------------------------------------------- club value overrides

KONG_HAND = hand(
    "c5 c5 c5 b9 b9 b9 c3 c3",
    "c3",
    melds=[("b2 b2 b2 b2", False), ("d7 d7 d7 d7", True)],
)


def test_kongs_score_nothing_by_default():
    # 4 Pungs 3 only -> p=8
    check(score(KONG_HAND), 3, [("4 Pungs", 3)], D8)


def test_kong_bonus_when_a_club_sets_it():
    # "Some groups score extra bonuses for concealed vs. exposed Kongs":
    # 4 Pungs 3 + Exposed Kong 1 + Concealed Kong 2 = 6 -> p=16
    club = RULESET.with_overrides(values={"sets.kong.exposed.fan": 1, "sets.kong.concealed.fan": 2})
    check(
        score(KONG_HAND, ruleset=club),
        6,
        [("4 Pungs", 3), ("Exposed Kong (b2)", 1), ("Concealed Kong (d7)", 2)],
        D16,
    )


def test_club_changes_little_dragons_value():
    # a club adding little dragons on top of the two pungs sets the row to 6
    club = RULESET.with_overrides(values={"dragons.little_three.fan": 6})
    result = score(hand("b1 b2 b3 c4 c5 c6 dr dr dr dg dg dg dw dw", "dw"), ruleset=club)
    # 6 -> 4-6 bracket, p=16
    check(result, 6, [("3 Little Dragons", 6)], D16)


def test_club_changes_points_table():
    club = RULESET.with_overrides(values={"points.fan_1": 3})
    # own flower 1 fan -> p=3: N 6, E 3, W 3, S +12
    check(
        score(hand(CHICKEN, "d9", bonus="f2"), ruleset=club),
        1,
        [("Flower/Season of Player's Own Wind (f2)", 1)],
        {"E": -3, "S": 12, "W": -3, "N": -6},
    )


def test_unknown_value_is_refused():
    with pytest.raises(EngineError, match="four_chow"):
        RULESET.with_overrides(values={"sets.four_chow.fan": 2})


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("data", "options", "match"),
    [
        pytest.param(
            hand("b1 b1 b1 b1 b4 b4 c2 c2 c7 c7 d3 d3 d8 d8", "d8"),
            None,
            "four of a kind",
            id="7_pairs_no_quads",
        ),
        pytest.param(
            # u3a's double knitting is no winning hand under fan
            hand("b1 c1 b2 c2 b3 c3 b5 c5 b6 c6 b8 c8 b9 c9", "c9"),
            None,
            "not a winning hand under the fan rules",
            id="knitted_hand_not_a_fan_hand",
        ),
        pytest.param(
            hand(CHICKEN, "d9", options={"liable": "S"}), None, "winner", id="liable_winner"
        ),
        pytest.param(
            hand(CHICKEN, "d9", options={"liable": "X"}), None, "liable", id="liable_bad_seat"
        ),
        pytest.param(hand(CHICKEN, "d9"), {"max_fan": 0}, "max_fan", id="max_fan_0"),
        pytest.param(hand(CHICKEN, "d9"), {"min_fan": -1}, "min_fan", id="min_fan_negative"),
        pytest.param(hand(CHICKEN, "d9"), {"min_fan": 11}, "min_fan", id="min_fan_above_max"),
        pytest.param(hand(CHICKEN, "d9"), {"max_faan": 10}, "max_faan", id="unknown_option"),
    ],
)
def test_errors(data, options, match):
    with pytest.raises(EngineError, match=match):
        score(data, options)


def test_describe_lists_options_and_values():
    described = RULESET.describe()
    text = repr(described)
    for key in ("min_fan", "max_fan", "purity.pure.fan", "points.fan_13_up"):
        assert key in text


def test_contract_json_through_the_public_api():
    from scoring.engine import get_ruleset, score_json

    assert get_ruleset("fan") is RULESET
    # Semi-Pure 3 + 1 Dragon Pung 1 = 4 -> p=16; discard by N: N 32, E 16, W 16, S +64
    data = hand("dg dg dg d1 d2 d3 d4 d5 d6 d8 d8 d8 d9 d9", "d9", options={"liable": ""})
    assert score_json(data, "fan", {"max_fan": "10"}) == {
        "ok": True,
        "rules": "fan",
        "total": 4,
        "limit": False,
        "allowed": True,
        "breakdown": [
            {"name": "Semi-Pure", "fan": 3},
            {"name": "1 Dragon Pung (dg)", "fan": 1},
        ],
        "payments": {"E": -16, "S": 64, "W": -16, "N": -32},
    }
    bad = score_json(hand(CHICKEN, "d9", options={"liable": "Q"}), "fan")
    assert bad["ok"] is False and "liable" in bad["error"]
