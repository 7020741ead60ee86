"""The `classical` rule set (seeds 000 and 001), table-driven.

One case per row of seed 000's tables and per ruling of docs/rules/classical.md,
named after the row. Every expected total and breakdown is worked out by hand from the seed
(the arithmetic is in the comment next to each case), never copied from the code's output.

Unless a case says otherwise: the winner sits South in the East round, East deals, North
discards the winning tile, no bonus tiles. Score = basic points x 2^doublings, capped at
the limit (2000). A non-dealer winning on a non-dealer's discard is paid 2x the score by
the discarder alone.

Fillers: the tested set goes with three chows and a pair that score nothing and make no
pattern: b1-b2-b3 (a terminal, so no All simples), c4-c5-c6 (no terminal, so no "Honour or
terminal in each set"), d2-d3-d4 and the pair d5 d5; the winning tile c6 completes the
c4-c5-c6 chow, so the tested set stays concealed.
"""

import pytest

from scoring.engine import patterns, score, score_json
from scoring.engine.decompose import readings
from scoring.engine.errors import EngineError
from scoring.engine.hand import parse_hand
from scoring.engine.random_hands import random_hands
from scoring.engine.rulesets.classical import LIMIT_HANDS, RULESET, VALUE_DEFAULTS

FILL = "b1 b2 b3 c4 c5 c6 d2 d3 d4 d5 d5"  # 11 tiles: three chows and a minor pair
CHOWS = "b1 b2 b3 c4 c5 c6 c7 c8 c9 d2 d3 d4"  # 12 tiles: four chows, add a pair


def hand(
    tiles,
    win="c6",
    by="discard",
    discarder="N",
    seat="S",
    prevailing="E",
    dealer="E",
    melds=(),
    bonus="",
    last_tile=False,
    first_turn=False,
    options=None,
):
    """A hand as contract JSON. `melds`: "tiles" (exposed) or ("tiles", True) (concealed)."""
    data = {
        "tiles": tiles,
        "melds": [
            {"tiles": m, "concealed": False}
            if isinstance(m, str)
            else {"tiles": m[0], "concealed": m[1]}
            for m in melds
        ],
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


def rows(result):
    """Breakdown as (name, points, doublings) tuples."""
    return [(i["name"], i.get("points"), i.get("doublings")) for i in result["breakdown"]]


def run(data, options=None):
    out = score_json(data, "classical", options)
    assert out["ok"], out.get("error")
    assert sum(out["payments"].values()) == 0
    return out


MJ = ("Mahjong", 20, None)
CONC = ("Concealed hand", 10, None)
WALL = ("Winning tile from the wall", 2, None)
NO_POINTS = ("No points", None, 1)


def limit_rows(name, limit=2000):
    return [(name, limit, None)]


# --- seed 000 "Basic Scoring": one case per row, melded (exposed) and concealed column ----
SET_CASES = [
    # Pong - Minor tiles: melded 2 / -, concealed 4 / 1.
    pytest.param(
        hand(FILL, melds=["c8 c8 c8"]),
        22,  # 20 + 2 = 22, no doubling
        [MJ, ("Exposed pong of minor tiles (c8)", 2, None)],
        id="exposed minor pong",
    ),
    pytest.param(
        hand(FILL + " c8 c8 c8"),
        68,  # 20 + 10 concealed + 4 = 34; 1 doubling -> 68
        [MJ, CONC, ("Concealed pong of minor tiles (c8)", 4, 1)],
        id="concealed minor pong",
    ),
    # Kong - Minor tiles: melded 8 / 1, concealed 16 / 1.
    pytest.param(
        hand(FILL, melds=["c8 c8 c8 c8"]),
        56,  # 20 + 8 = 28; x2 = 56
        [MJ, ("Exposed kong of minor tiles (c8)", 8, 1)],
        id="exposed minor kong",
    ),
    pytest.param(
        hand(FILL, melds=[("c8 c8 c8 c8", True)]),
        92,  # a declared concealed kong keeps the hand concealed: 20 + 10 + 16 = 46; x2 = 92
        [MJ, CONC, ("Concealed kong of minor tiles (c8)", 16, 1)],
        id="concealed minor kong",
    ),
    # Pong - Major tiles: melded 4 / -, concealed 8 / 1.
    pytest.param(
        hand(FILL, melds=["b9 b9 b9"]),
        24,  # 20 + 4
        [MJ, ("Exposed pong of terminals (b9)", 4, None)],
        id="exposed terminal pong",
    ),
    pytest.param(
        hand(FILL + " b9 b9 b9"),
        76,  # 20 + 10 + 8 = 38; x2 = 76
        [MJ, CONC, ("Concealed pong of terminals (b9)", 8, 1)],
        id="concealed terminal pong",
    ),
    # Kong - Major tiles: melded 16 / 1, concealed 32 / 1.
    pytest.param(
        hand(FILL, melds=["b9 b9 b9 b9"]),
        72,  # 20 + 16 = 36; x2 = 72
        [MJ, ("Exposed kong of terminals (b9)", 16, 1)],
        id="exposed terminal kong",
    ),
    pytest.param(
        hand(FILL, melds=[("b9 b9 b9 b9", True)]),
        124,  # 20 + 10 + 32 = 62; x2 = 124
        [MJ, CONC, ("Concealed kong of terminals (b9)", 32, 1)],
        id="concealed terminal kong",
    ),
    # Pongs - Wind (West: neither South's own wind nor the prevailing East): 4 / -, 8 / 1.
    pytest.param(
        hand(FILL, melds=["ww ww ww"]),
        24,  # 20 + 4
        [MJ, ("Exposed pong of winds (ww)", 4, None)],
        id="exposed wind pong",
    ),
    pytest.param(
        hand(FILL + " ww ww ww"),
        76,  # 20 + 10 + 8 = 38; x2 = 76
        [MJ, CONC, ("Concealed pong of winds (ww)", 8, 1)],
        id="concealed wind pong",
    ),
    # Pongs - Prevailing Wind (East in the East round): 4 / 1, 8 / 1.
    pytest.param(
        hand(FILL, melds=["we we we"]),
        48,  # 20 + 4 = 24; x2 = 48
        [MJ, ("Exposed pong of prevailing wind (we)", 4, 1)],
        id="exposed prevailing wind pong",
    ),
    pytest.param(
        hand(FILL + " we we we"),
        76,  # 20 + 10 + 8 = 38; x2 = 76
        [MJ, CONC, ("Concealed pong of prevailing wind (we)", 8, 1)],
        id="concealed prevailing wind pong",
    ),
    # Pong - Personal Wind (South for the South seat): 4 / 1, 8 / 1.
    pytest.param(
        hand(FILL, melds=["ws ws ws"]),
        48,  # 20 + 4 = 24; x2 = 48
        [MJ, ("Exposed pong of own wind (ws)", 4, 1)],
        id="exposed own wind pong",
    ),
    pytest.param(
        hand(FILL + " ws ws ws"),
        76,  # 20 + 10 + 8 = 38; x2 = 76
        [MJ, CONC, ("Concealed pong of own wind (ws)", 8, 1)],
        id="concealed own wind pong",
    ),
    # Pong - Prevailing Wind and Personal Wind (South seat, South round): 8 / 2, 16 / 2.
    pytest.param(
        hand(FILL, melds=["ws ws ws"], prevailing="S"),
        112,  # 20 + 8 = 28; x4 = 112
        [MJ, ("Exposed pong of double wind (ws)", 8, 2)],
        id="exposed double wind pong",
    ),
    pytest.param(
        hand(FILL + " ws ws ws", prevailing="S"),
        184,  # 20 + 10 + 16 = 46; x4 = 184
        [MJ, CONC, ("Concealed pong of double wind (ws)", 16, 2)],
        id="concealed double wind pong",
    ),
    # Kong - Wind: 16 / 1, 32 / 1.
    pytest.param(
        hand(FILL, melds=["ww ww ww ww"]),
        72,  # 20 + 16 = 36; x2 = 72
        [MJ, ("Exposed kong of winds (ww)", 16, 1)],
        id="exposed wind kong",
    ),
    pytest.param(
        hand(FILL, melds=[("ww ww ww ww", True)]),
        124,  # 20 + 10 + 32 = 62; x2 = 124
        [MJ, CONC, ("Concealed kong of winds (ww)", 32, 1)],
        id="concealed wind kong",
    ),
    # Kong - Prevailing Wind: 16 / 2, 32 / 2.
    pytest.param(
        hand(FILL, melds=["we we we we"]),
        144,  # 20 + 16 = 36; x4 = 144
        [MJ, ("Exposed kong of prevailing wind (we)", 16, 2)],
        id="exposed prevailing wind kong",
    ),
    pytest.param(
        hand(FILL, melds=[("we we we we", True)]),
        248,  # 20 + 10 + 32 = 62; x4 = 248
        [MJ, CONC, ("Concealed kong of prevailing wind (we)", 32, 2)],
        id="concealed prevailing wind kong",
    ),
    # Kong - Personal Wind: 16 / 2, 32 / 2.
    pytest.param(
        hand(FILL, melds=["ws ws ws ws"]),
        144,  # 20 + 16 = 36; x4 = 144
        [MJ, ("Exposed kong of own wind (ws)", 16, 2)],
        id="exposed own wind kong",
    ),
    pytest.param(
        hand(FILL, melds=[("ws ws ws ws", True)]),
        248,  # 20 + 10 + 32 = 62; x4 = 248
        [MJ, CONC, ("Concealed kong of own wind (ws)", 32, 2)],
        id="concealed own wind kong",
    ),
    # Kong - Prevailing Wind and Personal Wind: 32 / 4, 64 / 4.
    pytest.param(
        hand(FILL, melds=["ws ws ws ws"], prevailing="S"),
        832,  # 20 + 32 = 52; x16 = 832
        [MJ, ("Exposed kong of double wind (ws)", 32, 4)],
        id="exposed double wind kong",
    ),
    pytest.param(
        hand(FILL, melds=[("ws ws ws ws", True)], prevailing="S"),
        1504,  # 20 + 10 + 64 = 94; x16 = 1504
        [MJ, CONC, ("Concealed kong of double wind (ws)", 64, 4)],
        id="concealed double wind kong",
    ),
    # Pong - Dragons: 4 / 2, 8 / 2.
    pytest.param(
        hand(FILL, melds=["dr dr dr"]),
        96,  # 20 + 4 = 24; x4 = 96
        [MJ, ("Exposed pong of dragons (dr)", 4, 2)],
        id="exposed dragon pong",
    ),
    pytest.param(
        hand(FILL + " dr dr dr"),
        152,  # 20 + 10 + 8 = 38; x4 = 152
        [MJ, CONC, ("Concealed pong of dragons (dr)", 8, 2)],
        id="concealed dragon pong",
    ),
    # Kong - Dragons: 16 / 2, 32 / 2.
    pytest.param(
        hand(FILL, melds=["dg dg dg dg"]),
        144,  # 20 + 16 = 36; x4 = 144
        [MJ, ("Exposed kong of dragons (dg)", 16, 2)],
        id="exposed dragon kong",
    ),
    pytest.param(
        hand(FILL, melds=[("dw dw dw dw", True)]),
        248,  # 20 + 10 + 32 = 62; x4 = 248
        [MJ, CONC, ("Concealed kong of dragons (dw)", 32, 2)],
        id="concealed dragon kong",
    ),
    # Chow: 0 / None both columns. Four chows and a minor pair: only "No points" doubles.
    pytest.param(
        hand(CHOWS + " d5 d5"),
        60,  # 20 + 10 = 30; No points x2 = 60
        [MJ, CONC, NO_POINTS],
        id="concealed chow",
    ),
    pytest.param(
        hand(FILL, melds=["c7 c8 c9"]),
        40,  # 20 (exposed chow: no concealed bonus) = 20; No points x2 = 40
        [MJ, NO_POINTS],
        id="exposed chow",
    ),
    # Pairs: minor 0, major 0, ordinary wind 0, prevailing 2, personal 2, double 4, dragon 2.
    pytest.param(
        hand(CHOWS + " b5 b5"),
        60,  # 20 + 10 + 0 = 30; No points x2 = 60
        [MJ, CONC, NO_POINTS],
        id="minor pair",
    ),
    pytest.param(
        hand(CHOWS + " d9 d9"),
        60,  # 20 + 10 + 0 = 30; No points x2 = 60
        [MJ, CONC, NO_POINTS],
        id="terminal pair",
    ),
    pytest.param(
        hand(CHOWS + " wn wn"),
        60,  # North is nobody's lucky wind here: 20 + 10 + 0 = 30; No points x2 = 60
        [MJ, CONC, NO_POINTS],
        id="ordinary wind pair",
    ),
    pytest.param(
        hand(CHOWS + " we we"),
        32,  # 20 + 10 + 2 = 32; the pair scored, so no "No points"
        [MJ, CONC, ("Pair of prevailing wind (we)", 2, None)],
        id="prevailing wind pair",
    ),
    pytest.param(
        hand(CHOWS + " ws ws"),
        32,  # 20 + 10 + 2 = 32
        [MJ, CONC, ("Pair of own wind (ws)", 2, None)],
        id="own wind pair",
    ),
    pytest.param(
        hand(CHOWS + " ws ws", prevailing="S"),
        34,  # 20 + 10 + 4 = 34
        [MJ, CONC, ("Pair of double wind (ws)", 4, None)],
        id="double wind pair",
    ),
    pytest.param(
        hand(CHOWS + " dr dr"),
        32,  # 20 + 10 + 2 = 32
        [MJ, CONC, ("Pair of dragons (dr)", 2, None)],
        id="dragon pair",
    ),
]


# --- seed 000 "Bonus Tiles: Seasons and Flowers" ------------------------------------------
# Base: four chows and a minor pair, concealed, on a discard: 20 + 10 = 30.
BONUS_CASES = [
    pytest.param(
        hand(CHOWS + " d5 d5", bonus="s4"),
        32,  # s4 is North's season (nobody's here): 30 + 2 = 32, no doubling (No points is
        # lost: a bonus tile scored points)
        [MJ, CONC, ("Flowers and seasons (1)", 2, None)],
        id="season",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", bonus="f3"),
        32,  # f3 is West's flower: 30 + 2 = 32
        [MJ, CONC, ("Flowers and seasons (1)", 2, None)],
        id="flower",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", bonus="f3 s4"),
        34,  # 30 + 2 + 2 = 34: one line for all bonus tiles
        [MJ, CONC, ("Flowers and seasons (2)", 4, None)],
        id="season and flower",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", bonus="s2"),
        64,  # 30 + 2 = 32; own season (South = summer) x2 = 64
        [MJ, CONC, ("Flowers and seasons (1)", 2, None), ("Own season (s2)", None, 1)],
        id="own season",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", bonus="f2"),
        64,  # 30 + 2 = 32; own flower (South = orchid) x2 = 64
        [MJ, CONC, ("Flowers and seasons (1)", 2, None), ("Own flower (f2)", None, 1)],
        id="own flower",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", bonus="f1"),
        64,  # 30 + 2 = 32; flower of the prevailing East (plum) x2 = 64
        [
            MJ,
            CONC,
            ("Flowers and seasons (1)", 2, None),
            ("Flower of the prevailing wind (f1)", None, 1),
        ],
        id="prevailing wind flower",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", bonus="s1"),
        64,  # 30 + 2 = 32; season of the prevailing East (spring) x2 = 64
        [
            MJ,
            CONC,
            ("Flowers and seasons (1)", 2, None),
            ("Season of the prevailing wind (s1)", None, 1),
        ],
        id="prevailing wind season",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", bonus="f1", seat="E", discarder="N"),
        128,  # ruling: East in the East round with f1 gets both rows: 32 x2 x2 = 128
        [
            MJ,
            CONC,
            ("Flowers and seasons (1)", 2, None),
            ("Own flower (f1)", None, 1),
            ("Flower of the prevailing wind (f1)", None, 1),
        ],
        id="own and prevailing flower",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", bonus="f1 f2 f3 f4"),
        304,  # 30 + 4 x 2 = 38; own f2, prevailing f1, bouquet: 3 doublings, 38 x8 = 304
        [
            MJ,
            CONC,
            ("Flowers and seasons (4)", 8, None),
            ("Own flower (f2)", None, 1),
            ("Flower of the prevailing wind (f1)", None, 1),
            ("Four flowers", None, 1),
        ],
        id="four flowers",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", bonus="s1 s2 s3 s4"),
        304,  # 30 + 8 = 38; own s2, prevailing s1, bouquet: 38 x8 = 304
        [
            MJ,
            CONC,
            ("Flowers and seasons (4)", 8, None),
            ("Own season (s2)", None, 1),
            ("Season of the prevailing wind (s1)", None, 1),
            ("Four seasons", None, 1),
        ],
        id="four seasons",
    ),
]


# --- seed 000 "Mahjong Bonus" --------------------------------------------------------------
MAHJONG_CASES = [
    pytest.param(
        hand(CHOWS + " d5 d5", by="wall"),
        64,  # 20 + 2 (wall: 22) + 10 = 32; No points x2 = 64 (the Mahjong bonus points do
        # not spoil No points: only sets, the pair and bonus tiles do)
        [MJ, WALL, CONC, NO_POINTS],
        id="mahjong from the wall",
    ),
    pytest.param(
        hand(FILL, melds=["c8 c8 c8"]),
        22,  # discard: 20 + 0; 20 + 2 for the exposed minor pong = 22
        [MJ, ("Exposed pong of minor tiles (c8)", 2, None)],
        id="mahjong from a player discard",
    ),
    pytest.param(
        hand("b1 b2 b3 c4 c5 c6 c7 c8 c9 d5 d5", by="replacement", melds=["d8 d8 d8 d8"]),
        56,  # kong box: 20 + 0; exposed minor kong 8 / 1: 28 x2 = 56
        [MJ, ("Exposed kong of minor tiles (d8)", 8, 1)],
        id="mahjong from the kong box",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5"),
        60,  # concealed: 20 + 10 = 30; No points x2 = 60 (exposed, the same hand is 40)
        [MJ, CONC, NO_POINTS],
        id="mahjong concealed",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", by="wall", last_tile=True),
        128,  # 20 + 2 + 10 = 32; last wall tile, No points: x4 = 128
        [MJ, WALL, CONC, ("Last wall tile", None, 1), NO_POINTS],
        id="last wall tile",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", last_tile=True),
        120,  # 20 + 10 = 30; last discarded tile, No points: x4 = 120
        [MJ, CONC, ("Last discarded tile", None, 1), NO_POINTS],
        id="last discarded tile",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", by="robbing_kong"),
        120,  # pays as a discard: 20 + 10 = 30; robbing a kong, No points: x4 = 120
        [MJ, CONC, ("Robbing a kong", None, 1), NO_POINTS],
        id="robbing a kong",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", by="wall", seat="E", first_turn=True),
        2000,  # limit hand
        limit_rows("Heavenly hand"),
        id="heavenly hand",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", discarder="E", first_turn=True),
        2000,  # limit hand (non-dealer, on the dealer's first discard)
        limit_rows("Earthly hand"),
        id="earthly hand",
    ),
]


# --- seed 000 "Special Hands" ------------------------------------------------------------
SPECIAL_CASES = [
    pytest.param(
        hand(CHOWS + " d5 d5"),
        60,  # only 20 + 10 and no set, pair or bonus tile scoring: 30 x2 = 60
        [MJ, CONC, NO_POINTS],
        id="no points",
    ),
    pytest.param(
        hand("c2 c3 c4 c5 c6 c7 b6 b7 b8 d3 d3 d3 d5 d5", win="c7"),
        136,  # 20 + 10 + 4 (concealed d3 pong, 1) = 34; + All simples: 2 doublings, x4 = 136
        [MJ, CONC, ("Concealed pong of minor tiles (d3)", 4, 1), ("All simples", None, 1)],
        id="all simples",
    ),
    pytest.param(
        hand("b1 b2 b3 b4 b5 b6 b7 b8 b9 d2 d3 d4 d5 d5", win="b9"),
        120,  # 20 + 10 = 30; No points, Three consecutive chows (b 123 456 789): x4 = 120
        [MJ, CONC, NO_POINTS, ("Three consecutive chows", None, 1)],
        id="three consecutive chows",
    ),
    pytest.param(
        hand("b9 b9 b9 c5 c5 c5 d7 d7", win="d7", melds=["c2 c2 c2", "d3 d3 d3"]),
        288,  # 20 + 2 + 2 (exposed c2, d3) + 8 (concealed b9, 1) + 4 (concealed c5, 1) = 36;
        # doublings b9, c5, Four triplets (2 concealed) = 3: 36 x8 = 288
        [
            MJ,
            ("Exposed pong of minor tiles (c2)", 2, None),
            ("Exposed pong of minor tiles (d3)", 2, None),
            ("Concealed pong of terminals (b9)", 8, 1),
            ("Concealed pong of minor tiles (c5)", 4, 1),
            ("Four triplets", None, 1),
        ],
        id="four triplets 1 (fewer than 3 concealed)",
    ),
    pytest.param(
        hand("b9 b9 b9 c2 c2 c2 c5 c5 c5 d2 d3 d4 d7 d7", win="d4"),
        736,  # 20 + 10 + 8 + 4 + 4 = 46; doublings b9, c2, c5, Three and one = 4: x16 = 736
        [
            MJ,
            CONC,
            ("Concealed pong of terminals (b9)", 8, 1),
            ("Concealed pong of minor tiles (c2)", 4, 1),
            ("Concealed pong of minor tiles (c5)", 4, 1),
            ("Three and one", None, 1),
        ],
        id="three and one",
    ),
    pytest.param(
        hand("b9 b9 b9 c2 c2 c2 c5 c5 c5 d7 d7", win="d7", melds=["d3 d3 d3"]),
        1216,  # 20 + 2 (exposed d3) + 8 + 4 + 4 = 38; doublings 1 + 1 + 1 + 2 = 5: x32 = 1216
        [
            MJ,
            ("Exposed pong of minor tiles (d3)", 2, None),
            ("Concealed pong of terminals (b9)", 8, 1),
            ("Concealed pong of minor tiles (c2)", 4, 1),
            ("Concealed pong of minor tiles (c5)", 4, 1),
            ("Four triplets, three concealed", None, 2),
        ],
        id="four triplets 2 (3 concealed)",
    ),
    pytest.param(
        hand(
            "c1 c1 c5 c5 c5 c9 c9 c9",
            win="c1",
            melds=["c2 c3 c4", "c6 c7 c8"],
            options={"limit": 100000},
        ),
        32768,  # 20 + 4 (concealed c5, 1) + 8 (concealed c9, 1) = 32; + One suit only 8:
        # 10 doublings, 32 x 1024 = 32768 (limit raised so it shows uncapped)
        [
            MJ,
            ("Concealed pong of minor tiles (c5)", 4, 1),
            ("Concealed pong of terminals (c9)", 8, 1),
            ("One suit only", None, 8),
        ],
        id="one suit only",
    ),
    pytest.param(
        hand(
            "b9 b9 b9 c2 c2 c2 c5 c5 c5 d7 d7", by="wall", win="d7", melds=[("d3 d3 d3 d3", True)]
        ),
        2000,  # four pongs/kongs, all concealed: limit
        limit_rows("Four triplets, all concealed"),
        id="four triplets 3 (all concealed)",
    ),
    pytest.param(
        hand("b9 b9 b9 c2 c2 c2 c5 c5 c5 d3 d3 d3 d7 d7", win="d7"),
        2000,  # four concealed pongs, the pair from a discard: limit
        limit_rows("Four concealed triplets"),
        id="four concealed triplets",
    ),
    pytest.param(
        hand("c1 c1 c1 c2 c3 c4 c5 c5 c6 c7 c8 c9 c9 c9", by="wall", win="c5"),
        2000,  # limit
        limit_rows("Nine gates"),
        id="nine gates",
    ),
    pytest.param(
        hand("d1 d1 d1 ww ww ww wn wn", win="wn", melds=["b1 b1 b1", "c9 c9 c9"]),
        1408,  # 20 + 4 + 4 (exposed b1, c9) + 8 (concealed d1, 1) + 8 (concealed ww, 1) = 44;
        # pair wn 0; doublings d1, ww, Four triplets, All honours and terminals, Honour or
        # terminal in each set = 5: 44 x32 = 1408
        [
            MJ,
            ("Exposed pong of terminals (b1)", 4, None),
            ("Exposed pong of terminals (c9)", 4, None),
            ("Concealed pong of terminals (d1)", 8, 1),
            ("Concealed pong of winds (ww)", 8, 1),
            ("Four triplets", None, 1),
            ("All honours and terminals", None, 1),
            ("Honour or terminal in each set", None, 1),
        ],
        id="all honours/terminals (mixed)",
    ),
    pytest.param(
        hand("b1 b2 b3 b7 b8 b9 c7 c8 c9 d1 d1 d1 wn wn", win="wn"),
        152,  # 20 + 10 + 8 (concealed d1, 1) = 38; + Honour or terminal in each set: x4 = 152
        [
            MJ,
            CONC,
            ("Concealed pong of terminals (d1)", 8, 1),
            ("Honour or terminal in each set", None, 1),
        ],
        id="honour/terminal in each set",
    ),
    pytest.param(
        hand("c5 c5 c5 c7 c8 c9 dr dr ww ww ww", win="c9", melds=["c2 c3 c4"]),
        272,  # 20 + 4 (concealed c5, 1) + 8 (concealed ww, 1) + 2 (dragon pair) = 34;
        # + One suit with honours: 3 doublings, 34 x8 = 272
        [
            MJ,
            ("Concealed pong of minor tiles (c5)", 4, 1),
            ("Concealed pong of winds (ww)", 8, 1),
            ("Pair of dragons (dr)", 2, None),
            ("One suit with honours", None, 1),
        ],
        id="one suit with honours",
    ),
    pytest.param(
        hand("b2 b3 b4 c5 c6 c7 dg dg dg dw dw", win="c7", melds=["dr dr dr"]),
        1088,  # 20 + 4 (exposed dr, 2) + 8 (concealed dg, 2) + 2 (dw pair) = 34;
        # 2 + 2 + Little three dragons 1 = 5 doublings: 34 x32 = 1088
        [
            MJ,
            ("Exposed pong of dragons (dr)", 4, 2),
            ("Concealed pong of dragons (dg)", 8, 2),
            ("Pair of dragons (dw)", 2, None),
            ("Little three dragons", None, 1),
        ],
        id="little three dragons",
    ),
    pytest.param(
        hand("dr dr dr dg dg dg dw dw dw b2 b3 b4 c5 c5", win="b4"),
        2000,
        limit_rows("Big three dragons"),
        id="big three dragons",
    ),
    pytest.param(
        hand("ws ws ws ww ww ww wn wn c2 c3 c4", win="c4", melds=["we we we"]),
        2000,
        limit_rows("Little four winds"),
        id="little four winds",
    ),
    pytest.param(
        hand("c5 c5", win="c5", melds=["we we we", "ws ws ws", "ww ww ww", "wn wn wn"]),
        2000,
        limit_rows("Big four winds"),
        id="big four winds",
    ),
    pytest.param(
        hand("dg dg dg ww ww ww wn wn", win="wn", melds=["we we we", "dr dr dr"]),
        2000,
        limit_rows("All honours"),
        id="all honours",
    ),
    pytest.param(
        hand("b1 b1 b1 b9 b9 b9 c1 c1 c1 d1 d1", win="d1", melds=["c9 c9 c9"]),
        2000,
        limit_rows("All terminals"),
        id="all terminals",
    ),
    pytest.param(
        hand("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw", win="dw"),
        2000,
        limit_rows("Thirteen orphans"),
        id="thirteen orphans",
    ),
]


@pytest.mark.parametrize(
    ("data", "total", "breakdown"),
    SET_CASES + BONUS_CASES + MAHJONG_CASES + SPECIAL_CASES,
)
def test_seed_table_rows(data, total, breakdown):
    out = run(data)
    assert out["rules"] == "classical"
    assert out["total"] == total
    assert rows(out) == breakdown
    assert out["allowed"] is True
    capped = data["options"].get("limit", 2000)
    assert out["limit"] is (total == capped)


# --- rulings --------------------------------------------------------------------------------


def test_contract_example_exactly():
    data = {
        "tiles": "b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr",
        "melds": [{"tiles": "ww ww ww", "concealed": False}],
        "winning_tile": "d9",
        "won_by": "discard",
        "discarder": "N",
        "seat_wind": "S",
        "prevailing_wind": "E",
        "dealer": "E",
        "bonus": "f2 s3",
        "last_tile": False,
        "first_turn": False,
        "options": {},
    }
    # 20 + 4 + 4 + 2 + 4 = 34; concealed c5 pong 1 + own flower 1: 34 x4 = 136; N pays 2x.
    assert score_json(data, "classical") == {
        "ok": True,
        "rules": "classical",
        "total": 136,
        "limit": False,
        "allowed": True,
        "breakdown": [
            {"name": "Mahjong", "points": 20},
            {"name": "Exposed pong of winds (ww)", "points": 4},
            {"name": "Concealed pong of minor tiles (c5)", "points": 4, "doublings": 1},
            {"name": "Pair of dragons (dr)", "points": 2},
            {"name": "Flowers and seasons (2)", "points": 4},
            {"name": "Own flower (f2)", "doublings": 1},
        ],
        "payments": {"E": 0, "S": 272, "W": 0, "N": -272},
    }


# Payments: seed 000's table. The test hand is four chows and a minor pair, concealed:
# on a discard 20 + 10 = 30, No points x2 = 60; self-drawn 20 + 2 + 10 = 32 x2 = 64.
PAYMENT_CASES = [
    pytest.param(
        hand(CHOWS + " d5 d5", by="wall", seat="E"),
        64,
        {"E": 384, "S": -128, "W": -128, "N": -128},  # each pays 2 x 64
        id="dealer self-drawn: each pays 2x",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", seat="E", discarder="W"),
        60,
        {"E": 240, "S": 0, "W": -240, "N": 0},  # discarder pays 2 x 2 x 60
        id="dealer on a discard: discarder pays 4x",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", by="wall"),
        64,
        {"E": -128, "S": 256, "W": -64, "N": -64},  # dealer 2 x 64, others 64
        id="non-dealer self-drawn: each 1x, dealer 2x",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5"),
        60,
        {"E": 0, "S": 120, "W": 0, "N": -120},  # discarder 2 x 60
        id="non-dealer on a discard: discarder pays 2x",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", discarder="E"),
        60,
        {"E": -240, "S": 240, "W": 0, "N": 0},  # discarder is the dealer: 2 x 2 x 60
        id="non-dealer on the dealer's discard: 4x",
    ),
    pytest.param(
        hand("b1 b2 b3 c4 c5 c6 c7 c8 c9 d5 d5", by="replacement", melds=["d8 d8 d8 d8"]),
        56,  # 20 + 8 (exposed minor kong, 1) = 28 x2 = 56, paid as self-drawn
        {"E": -112, "S": 224, "W": -56, "N": -56},
        id="replacement win pays as self-drawn",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", by="robbing_kong", discarder="W"),
        120,  # 30; robbing a kong, No points: x4 = 120; the robbed W pays as discarder 2x
        {"E": 0, "S": 240, "W": -240, "N": 0},
        id="robbing a kong pays as a discard",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", by="robbing_kong", discarder="E"),
        120,  # the robbed player is the dealer: 4 x 120
        {"E": -480, "S": 480, "W": 0, "N": 0},
        id="robbing the dealer's kong pays 4x",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", by="wall", dealer="W"),
        64,  # West deals: West pays 2x, East and North 1x
        {"E": -64, "S": 256, "W": -128, "N": -64},
        id="dealer other than East pays double",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", seat="W", dealer="W", discarder="S"),
        60,  # the dealer (West) wins on South's discard: South pays 4 x 60
        {"E": 0, "S": -240, "W": 240, "N": 0},
        id="dealer other than East wins on a discard",
    ),
    pytest.param(
        hand(CHOWS + " d5 d5", by="wall", seat="E", first_turn=True),
        2000,  # heavenly hand: the dealer self-drawn, each pays 2 x 2000
        {"E": 12000, "S": -4000, "W": -4000, "N": -4000},
        id="heavenly hand payments",
    ),
]


@pytest.mark.parametrize(("data", "total", "payments"), PAYMENT_CASES)
def test_payments(data, total, payments):
    out = run(data)
    assert out["total"] == total
    assert out["payments"] == payments


def test_limit_caps_the_score():
    # One suit only (see the table): 32 x 2^10 = 32768, capped at the default 2000.
    data = hand("c1 c1 c5 c5 c5 c9 c9 c9", win="c1", melds=["c2 c3 c4", "c6 c7 c8"])
    out = run(data)
    assert out["total"] == 2000
    assert out["limit"] is True
    assert out["payments"] == {"E": 0, "S": 4000, "W": 0, "N": -4000}
    assert ("One suit only", None, 8) in rows(out)


@pytest.mark.parametrize(
    ("hand_options", "cli_options", "total"),
    [
        pytest.param({"limit": 1000}, None, 1000, id="limit from the hand's options"),
        pytest.param({}, {"limit": 1000}, 1000, id="limit from the command line"),
        pytest.param({}, {"limit": "1500"}, 1500, id="limit as a command-line string"),
        pytest.param({"limit": 500}, {"limit": 1000}, 500, id="hand options override"),
    ],
)
def test_limit_option(hand_options, cli_options, total):
    data = hand(
        "c1 c1 c5 c5 c5 c9 c9 c9",
        win="c1",
        melds=["c2 c3 c4", "c6 c7 c8"],
        options=hand_options,
    )
    out = run(data, cli_options)
    assert out["total"] == total
    assert out["limit"] is True


def test_limit_hand_scores_the_limit_option():
    data = hand("dr dr dr dg dg dg dw dw dw b2 b3 b4 c5 c5", win="b4", options={"limit": 500})
    out = run(data)
    assert (out["total"], out["limit"]) == (500, True)
    assert rows(out) == [("Big three dragons", 500, None)]
    assert out["payments"] == {"E": 0, "S": 1000, "W": 0, "N": -1000}


def test_uncapped_hand_is_not_limit():
    # concealed double wind kong (table): 1504 < 2000
    out = run(hand(FILL, melds=[("ws ws ws ws", True)], prevailing="S"))
    assert (out["total"], out["limit"]) == (1504, False)


@pytest.mark.parametrize("bad", [0, -5, "lots", True])
def test_bad_limit_option_is_named(bad):
    with pytest.raises(EngineError, match="limit"):
        score(hand(CHOWS + " d5 d5", options={"limit": bad}), "classical")


def test_unknown_option_is_named():
    with pytest.raises(EngineError, match="min_faan"):
        score(hand(CHOWS + " d5 d5"), "classical", {"min_faan": 3})


def test_best_reading_pongs_beat_chows():
    # c2c2c2 c3c3c3 c4c4c4 as three concealed pongs: 20 + 10 + 4 + 4 + 4 = 42; doublings
    # 3 pongs + All simples + Three and one = 5: 42 x32 = 1344.
    # As three chows: 20 + 10 = 30; No points + All simples: 30 x4 = 120. Pongs win.
    out = run(hand("c2 c2 c2 c3 c3 c3 c4 c4 c4 b6 b7 b8 d5 d5", win="b8"))
    assert out["total"] == 1344
    assert rows(out) == [
        MJ,
        CONC,
        ("Concealed pong of minor tiles (c2)", 4, 1),
        ("Concealed pong of minor tiles (c3)", 4, 1),
        ("Concealed pong of minor tiles (c4)", 4, 1),
        ("All simples", None, 1),
        ("Three and one", None, 1),
    ]


def test_best_reading_winning_discard_in_a_pong():
    # Won on a discarded c4: as pongs the c4 pong counts exposed: 20 + 10 + 4 + 4 + 2 = 40;
    # c2, c3 concealed + All simples = 3 doublings (only 2 concealed pongs: no Three and
    # one): 40 x8 = 320. As chows: 30 x4 = 120. 320 wins.
    out = run(hand("c2 c2 c2 c3 c3 c3 c4 c4 c4 b6 b7 b8 d5 d5", win="c4"))
    assert out["total"] == 320
    assert ("Exposed pong of minor tiles (c4)", 2, None) in rows(out)


def test_winning_tile_placed_where_it_is_worth_most():
    # c5 c5 c5 c5 c6 c7 won on a discarded c5: in the pong it makes the pong exposed
    # (20 + 10 + 2 = 32); in the chow the pong stays concealed (20 + 10 + 4 = 34, x2 = 68).
    out = run(hand("b1 b2 b3 d2 d3 d4 c5 c5 c5 c5 c6 c7 d8 d8", win="c5"))
    assert out["total"] == 68
    assert rows(out) == [MJ, CONC, ("Concealed pong of minor tiles (c5)", 4, 1)]


def test_winning_discard_completes_an_exposed_set():
    # Four concealed pongs but the discarded c5 completes the c5 pong: it counts exposed.
    # 20 + 10 (hand still concealed) + 8 (b9, 1) + 4 (c2, 1) + 2 (c5 exposed) + 4 (d3, 1) = 48;
    # 3 + Four triplets with 3 concealed 2 = 5 doublings: 48 x32 = 1536 (not the limit).
    out = run(hand("b9 b9 b9 c2 c2 c2 c5 c5 c5 d3 d3 d3 d7 d7", win="c5"))
    assert out["total"] == 1536
    assert out["limit"] is False
    assert rows(out) == [
        MJ,
        CONC,
        ("Concealed pong of terminals (b9)", 8, 1),
        ("Concealed pong of minor tiles (c2)", 4, 1),
        ("Exposed pong of minor tiles (c5)", 2, None),
        ("Concealed pong of minor tiles (d3)", 4, 1),
        ("Four triplets, three concealed", None, 2),
    ]


def test_same_hand_self_drawn_is_four_concealed_triplets():
    out = run(hand("b9 b9 b9 c2 c2 c2 c5 c5 c5 d3 d3 d3 d7 d7", win="c5", by="wall"))
    assert rows(out) == limit_rows("Four concealed triplets")


def test_robbing_a_kong_keeps_other_sets_concealed():
    # The robbed c6 completes the c4-c6 chow (a robbed tile can only complete a chow: the
    # winner cannot hold another copy of it), so the c8 pong stays concealed and the hand
    # keeps its concealed bonus: 20 + 10 + 4 (c8, 1) = 34; robbing a kong 1: x4 = 136.
    out = run(hand(FILL + " c8 c8 c8", by="robbing_kong"))
    assert out["total"] == 136
    assert rows(out) == [
        MJ,
        CONC,
        ("Concealed pong of minor tiles (c8)", 4, 1),
        ("Robbing a kong", None, 1),
    ]


def test_pair_is_listed_after_the_sets():
    # The pair's tile (we) sorts before the pong's (wn); the breakdown still reads sets first.
    # 20 + 10 + 8 (concealed wn pong, 1) + 2 (prevailing wind pair) = 40; x2 = 80
    out = run(hand("b1 b2 b3 c4 c5 c6 d2 d3 d4 we we wn wn wn"))
    assert out["total"] == 80
    assert rows(out) == [
        MJ,
        CONC,
        ("Concealed pong of winds (wn)", 8, 1),
        ("Pair of prevailing wind (we)", 2, None),
    ]


def test_bonus_tiles_do_not_spoil_all_simples():
    # All chows of simples: 20 + 10 = 30, No points + All simples: x4 = 120.
    plain = run(hand("c2 c3 c4 c5 c6 c7 b6 b7 b8 d2 d3 d4 d5 d5", win="c7"))
    assert plain["total"] == 120
    # With f3 (nobody's lucky flower here): 30 + 2 = 32; All simples stays, No points goes
    # (a bonus tile scored points): 32 x2 = 64.
    out = run(hand("c2 c3 c4 c5 c6 c7 b6 b7 b8 d2 d3 d4 d5 d5", win="c7", bonus="f3"))
    assert out["total"] == 64
    assert rows(out) == [
        MJ,
        CONC,
        ("Flowers and seasons (1)", 2, None),
        ("All simples", None, 1),
    ]


def test_bonus_tiles_do_not_spoil_one_suit():
    data = hand(
        "c1 c1 c5 c5 c5 c9 c9 c9",
        win="c1",
        melds=["c2 c3 c4", "c6 c7 c8"],
        bonus="s4",
        options={"limit": 100000},
    )
    # 32 + 2 = 34; 10 doublings as in the table: 34 x 1024 = 34816
    assert run(data)["total"] == 34816


def test_exposed_meld_spoils_the_concealed_bonus():
    # Same tiles as "concealed chow" with c7-c8-c9 exposed: no +10 (40 against 60).
    assert run(hand(FILL, melds=["c7 c8 c9"]))["total"] == 40
    assert run(hand(CHOWS + " d5 d5"))["total"] == 60


def test_seven_pairs_is_not_a_classical_hand():
    data = hand("b1 b1 b5 b5 c3 c3 c7 c7 d2 d2 we we dr dr", win="dr")
    with pytest.raises(EngineError, match="not complete under the classical rules"):
        score(data, "classical")
    out = score_json(data, "classical")
    assert out["ok"] is False
    assert "seven pairs" in out["error"]


def test_seven_pairs_tiles_that_also_make_sets_score_as_sets():
    # b1b2b3 x2, c4c5c6 x2, pair d9: 20 + 10 = 30, No points: x2 = 60.
    out = run(hand("b1 b1 b2 b2 b3 b3 c4 c4 c5 c5 c6 c6 d9 d9", win="d9"))
    assert out["total"] == 60
    assert rows(out) == [MJ, CONC, NO_POINTS]


def test_little_snake_is_not_a_classical_hand():
    data = hand("b1 b2 b3 b4 b5 b6 b7 b8 b9 we ws ww dr dg", win="dg")
    with pytest.raises(EngineError, match="not complete under the classical rules"):
        score(data, "classical")


def test_incomplete_hand_is_refused():
    data = hand("b1 b2 b4 c4 c5 c6 c7 c8 c9 d2 d3 d4 d5 d5", win="c6")
    with pytest.raises(EngineError, match="not a complete"):
        score(data, "classical")


def test_last_tile_on_a_replacement_is_last_wall_tile():
    # After drawing the last wall tile a kong's replacement wins: counted as the last wall
    # tile (self-drawn). 20 + 8 (exposed d8 kong, 1) = 28; + last wall tile: x4 = 112.
    data = hand(
        "b1 b2 b3 c4 c5 c6 c7 c8 c9 d5 d5",
        by="replacement",
        melds=["d8 d8 d8 d8"],
        last_tile=True,
    )
    out = run(data)
    assert out["total"] == 112
    assert rows(out)[-1] == ("Last wall tile", None, 1)


# --- values (club settings) -----------------------------------------------------------------


def test_value_defaults_hold_the_seed_numbers():
    expected = {
        "mahjong.points": 20,
        "mahjong.wall.points": 2,
        "mahjong.replacement.points": 0,
        "mahjong.concealed.points": 10,
        "pong.minor.exposed.points": 2,
        "pong.minor.concealed.points": 4,
        "pong.minor.concealed.doublings": 1,
        "kong.terminal.concealed.points": 32,
        "pong.double_wind.exposed.doublings": 2,
        "kong.double_wind.concealed.points": 64,
        "kong.double_wind.concealed.doublings": 4,
        "pong.dragon.exposed.doublings": 2,
        "pair.double_wind.points": 4,
        "pair.dragon.points": 2,
        "bonus.flower.points": 2,
        "bonus.four_seasons.doublings": 1,
        "hand.four_triplets_three_concealed.doublings": 2,
        "hand.one_suit_only.doublings": 8,
    }
    for key, value in expected.items():
        assert VALUE_DEFAULTS[key] == value, key
    assert all(type(v) is int for v in VALUE_DEFAULTS.values())
    assert RULESET.describe()["options"]["limit"]["default"] == 2000


def test_overridden_value_is_used_and_default_untouched():
    club = RULESET.with_overrides(values={"pong.minor.concealed.points": 6})
    data = hand(FILL + " c8 c8 c8")
    # 20 + 10 + 6 = 36; x2 = 72 (default 68)
    out = score(data, club).to_dict()
    assert out["total"] == 72
    assert ("Concealed pong of minor tiles (c8)", 6, 1) in rows(out)
    assert run(data)["total"] == 68


def test_overridden_zero_row_starts_scoring():
    # A club giving exposed chows 1 point: the declared c7-c9 chow scores, and so does the
    # c4-c6 chow completed by the winning discard (it counts as exposed); No points is gone:
    # 20 + 1 + 1 = 22, no doubling.
    club = RULESET.with_overrides(values={"chow.exposed.points": 1})
    out = score(hand(FILL, melds=["c7 c8 c9"]), club).to_dict()
    assert out["total"] == 22
    assert rows(out) == [
        MJ,
        ("Exposed chow (c7 c8 c9)", 1, None),
        ("Exposed chow (c4 c5 c6)", 1, None),
    ]


def test_overridden_limit_option_default():
    club = RULESET.with_overrides(options={"limit": 1000})
    out = score(hand("dr dr dr dg dg dg dw dw dw b2 b3 b4 c5 c5", win="b4"), club)
    assert out.total == 1000


def test_unknown_value_is_named():
    with pytest.raises(EngineError, match="pong.minor.melded.points"):
        RULESET.with_overrides(values={"pong.minor.melded.points": 3})


# --- cross-check with the shared pattern predicates -----------------------------------------

# Breakdown name -> the shared predicate (patterns.py) that must agree with it.
PATTERN_ITEMS = {
    "All simples": patterns.all_simples,
    "Three consecutive chows": patterns.three_consecutive_chows,
    "One suit only": patterns.one_suit_only,
    "All honours and terminals": patterns.terminals_and_honours_only,
    "Honour or terminal in each set": patterns.terminal_or_honour_in_each_group,
    "One suit with honours": patterns.one_suit_with_honours,
    "Little three dragons": patterns.little_three_dragons,
}
LIMIT_PREDICATES = (
    patterns.nine_gates,
    patterns.big_three_dragons,
    patterns.little_four_winds,
    patterns.big_four_winds,
    patterns.all_honours,
    patterns.all_terminals,
)


def test_every_reading_agrees_with_shared_patterns():
    """score_reading detects the hand patterns inline (for speed); on 3,000 seeded random
    hands its items must agree with patterns.py, and the total must be the breakdown's own
    arithmetic: sum of points x 2^(sum of doublings), capped at the limit."""
    opts = RULESET.resolve_options(None)
    checked = 0
    for data in random_hands(3000, seed=11):
        hand = parse_hand(data)
        for reading in readings(hand):
            result = RULESET.score_reading(hand, reading, opts)
            if reading.shape not in ("standard", "thirteen_orphans"):
                assert result is None
                continue
            assert sum(result.payments.values()) == 0
            names = [i.name for i in result.breakdown]
            if names[0] in LIMIT_HANDS:
                assert result.total == 2000 and result.limit
                assert (
                    hand.first_turn
                    or reading.shape == "thirteen_orphans"
                    or patterns.concealed_pongs(reading) == 4
                    or any(p(hand, reading) for p in LIMIT_PREDICATES)
                ), names
                continue
            assert not any(p(hand, reading) for p in LIMIT_PREDICATES), names
            for name, predicate in PATTERN_ITEMS.items():
                assert (name in names) == predicate(hand, reading), (name, data)
            points = sum(i.points or 0 for i in result.breakdown)
            doublings = sum(i.doublings or 0 for i in result.breakdown)
            assert result.total == min(points * 2**doublings, 2000)
            assert result.limit == (points * 2**doublings >= 2000)
            checked += 1
    assert checked > 2000
