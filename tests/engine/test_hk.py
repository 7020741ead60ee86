"""The `hk` rule set (seed 002, Hong Kong Old Style faan), table-driven.

Every expected value below is worked out by hand from seed 002's score table and
docs/rules/hk.md, never copied from the engine's output. Conventions of the cases:

- The winner is South in an East round, winning on a discard by North, with the bonus tile
  f1 (not South's own: 0 faan, and not "no bonus tiles" either), unless the case says
  otherwise. The hand's own options set ``min_faan`` 0, so every case is paid.
- Faan to points (seed): 0:1, 1:2, 2:4, 3:8, 4-6:16, 7-9:32, 10-12:64, 13+:128.
- On a discard the discarder pays 2x points and the other two 1x; self-drawn, all three pay
  2x. "max" scores max_faan (10 by default) = 64 points.
"""

from __future__ import annotations

import pytest

from scoring.engine import score
from scoring.engine.errors import EngineError
from scoring.engine.rulesets.hk import MAX, RULESET, VALUE_DEFAULTS, points_for_faan

# A hand worth nothing: chows b234 c345 d678, a pong of b9 (no faan in hk), a pair of West
# (neither South's seat wind nor the East round's wind). Not all simples, no flush.
PLAIN = "b2 b3 b4 c3 c4 c5 d6 d7 d8 b9 b9 b9 ww ww"
# The same hand with the b9 pong exposed.
PLAIN_OPEN = "b2 b3 b4 c3 c4 c5 d6 d7 d8 ww ww"


def hand(
    tiles: str,
    win: str,
    by: str = "discard",
    *,
    melds: tuple[str, ...] = (),
    concealed_kongs: tuple[str, ...] = (),
    discarder: str = "N",
    seat: str = "S",
    wind: str = "E",
    dealer: str = "E",
    bonus: str = "f1",
    last: bool = False,
    first: bool = False,
    options: dict | None = None,
) -> dict:
    """A contract JSON hand; ``options`` None means the hand's own min_faan is 0."""
    data = {
        "tiles": tiles,
        "melds": [{"tiles": m, "concealed": False} for m in melds]
        + [{"tiles": m, "concealed": True} for m in concealed_kongs],
        "winning_tile": win,
        "won_by": by,
        "seat_wind": seat,
        "prevailing_wind": wind,
        "dealer": dealer,
        "bonus": bonus,
        "last_tile": last,
        "first_turn": first,
        "options": {"min_faan": 0} if options is None else options,
    }
    if by in ("discard", "robbing_kong"):
        data["discarder"] = discarder
    return data


def pay(E: int = 0, S: int = 0, W: int = 0, N: int = 0) -> dict[str, int]:
    return {"E": E, "S": S, "W": W, "N": N}


def breakdown(result) -> list[tuple[str, int]]:
    return [(item.name, item.faan) for item in result.breakdown]


# Payments written out once per points value, South winning (arithmetic in the names):
# discard by North: North -2p, East -p, West -p, South +4p.
# self-drawn: East, West, North -2p each, South +6p.
D1 = pay(E=-1, S=4, W=-1, N=-2)  # 0 faan = 1 point
D2 = pay(E=-2, S=8, W=-2, N=-4)  # 1 faan = 2 points
D4 = pay(E=-4, S=16, W=-4, N=-8)  # 2 faan = 4 points
D8 = pay(E=-8, S=32, W=-8, N=-16)  # 3 faan = 8 points
D16 = pay(E=-16, S=64, W=-16, N=-32)  # 4-6 faan = 16 points
D64 = pay(E=-64, S=256, W=-64, N=-128)  # 10 faan (max) = 64 points
S1 = pay(E=-2, S=6, W=-2, N=-2)  # 0 faan = 1 point, self-drawn
S2 = pay(E=-4, S=12, W=-4, N=-4)  # 1 faan = 2 points, self-drawn
S4 = pay(E=-8, S=24, W=-8, N=-8)  # 2 faan = 4 points, self-drawn
S32 = pay(E=-64, S=192, W=-64, N=-64)  # 7-9 faan = 32 points, self-drawn
S64 = pay(E=-128, S=384, W=-128, N=-128)  # 10 faan (max) = 64 points, self-drawn

M = 10  # max_faan default: what "max" scores

# (hand, total faan, breakdown, limit, payments)
CASES = [
    # ---- Alternate winning hands ---------------------------------------------------------
    pytest.param(
        hand("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw", "dw"),
        M,
        [("Thirteen Orphans", M)],
        True,
        D64,
        id="Thirteen Orphans: max",
    ),
    pytest.param(
        hand("c1 c1 c1 c2 c3 c4 c5 c5 c6 c7 c8 c9 c9 c9", "c5"),
        M,
        [("Nine Gates", M)],
        True,
        D64,
        id="Nine Gates: max",
    ),
    pytest.param(
        hand(PLAIN, "d8", bonus="f1 f2 f3 f4 s1 s2 s3 s4"),
        M,
        [("Eight Treasures", M)],
        True,
        D64,
        id="Eight Treasures: max",
    ),
    pytest.param(
        # seven different pairs, a terminal and an honour among them: Seven Pairs 2 only
        hand("b2 b2 b5 b5 c3 c3 c7 c7 d4 d4 d9 d9 wn wn", "wn"),
        2,
        [("Seven Pairs", 2)],
        False,
        D4,
        id="Seven Pairs: 2",
    ),
    # ---- Faan from winning move ----------------------------------------------------------
    pytest.param(
        hand(PLAIN, "d8", "wall", first=True),
        M,
        [("Win with your first draw", M)],
        True,
        S64,
        id="Win with your first draw: max",
    ),
    pytest.param(
        # normal draw from the wall (closed) 1 + last draw 1 = 2
        hand(PLAIN, "d8", "wall", last=True),
        2,
        [("Normal draw from the wall", 1), ("Last draw from the wall", 1)],
        False,
        S4,
        id="Last draw from the wall: 1",
    ),
    pytest.param(
        hand(PLAIN, "d8", last=True),
        1,
        [("Steal the last discard", 1)],
        False,
        D2,
        id="Steal the last discard: 1",
    ),
    pytest.param(
        # a replacement draw is not also a "normal draw from the wall"
        hand(PLAIN, "d8", "replacement"),
        1,
        [("Any draw from the dead wall", 1)],
        False,
        S2,
        id="Any draw from the dead wall: 1 closed",
    ),
    pytest.param(
        hand(PLAIN_OPEN, "d8", "replacement", melds=("b9 b9 b9",)),
        1,
        [("Any draw from the dead wall", 1)],
        False,
        S2,
        id="Any draw from the dead wall: 1 open",
    ),
    pytest.param(
        # pays as a discard: North (robbed) 2x2, East and West 1x2
        hand(PLAIN, "d8", "robbing_kong"),
        1,
        [("Steal from a small kong", 1)],
        False,
        D2,
        id="Steal from a small kong: 1",
    ),
    pytest.param(
        hand(PLAIN, "d8", "wall"),
        1,
        [("Normal draw from the wall", 1)],
        False,
        S2,
        id="Normal draw from the wall: 1 closed",
    ),
    pytest.param(
        hand(PLAIN_OPEN, "d8", "wall", melds=("b9 b9 b9",)),
        0,
        [],
        False,
        S1,
        id="Normal draw from the wall: (-) open scores nothing",
    ),
    # ---- Faan from bonuses ---------------------------------------------------------------
    pytest.param(
        # all seasons 2 + South's own season s2 1 = 3
        hand(PLAIN, "d8", bonus="s1 s2 s3 s4"),
        3,
        [("Season or flower of your seat (s2)", 1), ("All seasons", 2)],
        False,
        D8,
        id="All seasons: 2",
    ),
    pytest.param(
        # all flowers 2 + South's own flower f2 1 = 3
        hand(PLAIN, "d8", bonus="f1 f2 f3 f4"),
        3,
        [("Season or flower of your seat (f2)", 1), ("All flowers", 2)],
        False,
        D8,
        id="All flowers: 2",
    ),
    pytest.param(
        # f2 and s2 are both South's: 1 + 1 = 2
        hand(PLAIN, "d8", bonus="f2 s2 s3"),
        2,
        [("Season or flower of your seat (f2)", 1), ("Season or flower of your seat (s2)", 1)],
        False,
        D4,
        id="Per season or flower of your seat: 1 each",
    ),
    pytest.param(
        # West's own is number 3: f3 1, s1 nothing; West wins, North pays 2x2, E and S 1x2
        hand(PLAIN, "d8", seat="W", bonus="f3 s1"),
        1,
        [("Season or flower of your seat (f3)", 1)],
        False,
        pay(E=-2, S=-2, W=8, N=-4),
        id="Per season or flower of your seat: West's is f3/s3",
    ),
    pytest.param(
        hand(PLAIN, "d8", bonus=""),
        1,
        [("No bonus tiles at all", 1)],
        False,
        D2,
        id="No bonus tiles at all: 1",
    ),
    # ---- Faan from suits -----------------------------------------------------------------
    pytest.param(
        # only reading: b123 b456 b678 b999 + b55; 6 faan -> 16 points
        hand("b1 b2 b3 b4 b5 b5 b5 b6 b6 b7 b8 b9 b9 b9", "b1"),
        6,
        [("Full Flush", 6)],
        False,
        D16,
        id="Full Flush: 6 closed",
    ),
    pytest.param(
        hand("b1 b2 b3 b4 b5 b5 b5 b6 b6 b7 b8", "b1", melds=("b9 b9 b9",)),
        5,
        [("Full Flush", 5)],
        False,
        D16,
        id="Full Flush: 5 open",
    ),
    pytest.param(
        # c123 c456 c678 c55 + a pong of West (no faan for South in an East round)
        hand("c1 c2 c3 c4 c5 c5 c5 c6 c6 c7 c8 ww ww ww", "c1"),
        3,
        [("Half Flush", 3)],
        False,
        D8,
        id="Half Flush: 3 closed",
    ),
    pytest.param(
        hand("c1 c2 c3 c4 c5 c5 c5 c6 c6 c7 c8", "c1", melds=("ww ww ww",)),
        2,
        [("Half Flush", 2)],
        False,
        D4,
        id="Half Flush: 2 open",
    ),
    pytest.param(
        # b234 b234 c456 c456 d99: 3; its seven-pairs reading is worth only 2
        hand("b2 b3 b4 b2 b3 b4 c4 c5 c6 c4 c5 c6 d9 d9", "d9"),
        3,
        [("Two sets of two matching chow of one suit", 3)],
        False,
        D8,
        id="Two sets of two matching chow of one suit: 3 closed",
    ),
    pytest.param(
        # closed only: with an exposed b234 neither matching-chow row scores
        hand("b2 b3 b4 c4 c5 c6 c4 c5 c6 d9 d9", "d9", melds=("b2 b3 b4",)),
        0,
        [],
        False,
        D1,
        id="Two sets of two matching chow of one suit: (-) open scores nothing",
    ),
    pytest.param(
        hand("b2 b3 b4 b2 b3 b4 c4 c5 c6 d7 d8 d9 wn wn", "wn"),
        1,
        [("Two matching chow of one suit", 1)],
        False,
        D2,
        id="Two matching chow of one suit: 1 closed",
    ),
    pytest.param(
        hand("b2 b3 b4 c4 c5 c6 d7 d8 d9 wn wn", "wn", melds=("b2 b3 b4",)),
        0,
        [],
        False,
        D1,
        id="Two matching chow of one suit: (-) open scores nothing",
    ),
    pytest.param(
        hand("b1 b2 b3 b4 b5 b6 b7 b8 b9 c5 c5 c5 wn wn", "b9"),
        2,
        [("Pure Straight", 2)],
        False,
        D4,
        id="Pure Straight: 2 closed",
    ),
    pytest.param(
        hand("b1 b2 b3 b4 b5 b6 b7 b8 b9 wn wn", "b9", melds=("c5 c5 c5",)),
        1,
        [("Pure Straight", 1)],
        False,
        D2,
        id="Pure Straight: 1 open",
    ),
    pytest.param(
        hand("b3 b4 b5 c3 c4 c5 d3 d4 d5 b7 b8 b9 wn wn", "b9"),
        2,
        [("Three matching chow of different suits", 2)],
        False,
        D4,
        id="Three matching chow of different suits: 2 closed",
    ),
    pytest.param(
        hand("c3 c4 c5 d3 d4 d5 b7 b8 b9 wn wn", "b9", melds=("b3 b4 b5",)),
        1,
        [("Three matching chow of different suits", 1)],
        False,
        D2,
        id="Three matching chow of different suits: 1 open",
    ),
    # ---- Faan from melds -----------------------------------------------------------------
    pytest.param(
        hand(
            "ww ww",
            "ww",
            melds=("b2 b2 b2 b2", "c5 c5 c5 c5", "wn wn wn wn"),
            concealed_kongs=("d7 d7 d7 d7",),
        ),
        M,
        [("Four kongs", M)],
        True,
        D64,
        id="Four kongs: max",
    ),
    pytest.param(
        hand("b6 b7 b8 wn wn", "b8", melds=("b2 b2 b2 b2", "c5 c5 c5 c5", "d7 d7 d7 d7")),
        2,
        [("Three kongs", 2)],
        False,
        D4,
        id="Three kongs: 2",
    ),
    pytest.param(
        # self-drawn: all four pungs concealed
        hand("b2 b2 b2 c5 c5 c5 d7 d7 d7 b9 b9 b9 wn wn", "b9", "wall"),
        M,
        [("Four pungs", M)],
        True,
        S64,
        id="Four pungs: max closed (self-drawn)",
    ),
    pytest.param(
        # won on the pair: the four pungs are still all concealed
        hand("b2 b2 b2 c5 c5 c5 d7 d7 d7 b9 b9 b9 wn wn", "wn"),
        M,
        [("Four pungs", M)],
        True,
        D64,
        id="Four pungs: max closed (won on the pair)",
    ),
    pytest.param(
        # the discard completes the b2 pung, which counts as exposed: four pungs open 2 +
        # three closed pungs (c5 d7 b9) 2 = 4 -> 16 points
        hand("b2 b2 b2 c5 c5 c5 d7 d7 d7 b9 b9 b9 wn wn", "b2"),
        4,
        [("Four pungs", 2), ("Three closed pungs", 2)],
        False,
        D16,
        id="Four pungs: 2 when the discard completes a pung",
    ),
    pytest.param(
        hand("d7 d7 d7 b9 b9 b9 wn wn", "wn", melds=("b2 b2 b2", "c5 c5 c5")),
        2,
        [("Four pungs", 2)],
        False,
        D4,
        id="Four pungs: 2 open",
    ),
    pytest.param(
        hand("b2 b2 b2 c5 c5 c5 d7 d7 d7 b6 b7 b8 wn wn", "b8"),
        2,
        [("Three closed pungs", 2)],
        False,
        D4,
        id="Three closed pungs: 2",
    ),
    pytest.param(
        # a concealed kong is a closed pung: d7 kong + b2 c5 pongs
        hand("b2 b2 b2 c5 c5 c5 b6 b7 b8 wn wn", "b8", concealed_kongs=("d7 d7 d7 d7",)),
        2,
        [("Three closed pungs", 2)],
        False,
        D4,
        id="Three closed pungs: 2 with a concealed kong",
    ),
    pytest.param(
        # the discard completes d7 d7 d7: only two closed pungs left
        hand("b2 b2 b2 c5 c5 c5 d7 d7 d7 b6 b7 b8 wn wn", "d7"),
        0,
        [],
        False,
        D1,
        id="Three closed pungs: not when the discard completes one",
    ),
    pytest.param(
        hand("d5 d5 d5 b7 b8 b9 wn wn", "b9", melds=("b5 b5 b5", "c5 c5 c5")),
        2,
        [("Three pungs with the same number", 2)],
        False,
        D4,
        id="Three pungs with the same number: 2",
    ),
    pytest.param(
        # little three dragons 2 + dr pung 1 + dg pung 1 = 4 -> 16 points
        hand("dr dr dr dg dg dg dw dw b2 b3 b4 c6 c7 c8", "c8"),
        4,
        [
            ("Two dragon pungs + dragon pair", 2),
            ("One dragon pung (dr)", 1),
            ("One dragon pung (dg)", 1),
        ],
        False,
        D16,
        id="2 pungs + 1 pair of dragons: 2 (counted once) + dragon pungs",
    ),
    # ---- Faan from honours / terminals ---------------------------------------------------
    pytest.param(
        hand("we we we ws ws ws ww ww ww wn wn b2 b3 b4", "b4"),
        M,
        [("Three wind pungs + wind pair or pung", M)],
        True,
        D64,
        id="Three wind pungs + wind pair: max",
    ),
    pytest.param(
        hand("b5 b5", "b5", melds=("we we we", "ws ws ws", "ww ww ww", "wn wn wn")),
        M,
        [("Three wind pungs + wind pair or pung", M)],
        True,
        D64,
        id="Three wind pungs + wind pung: max",
    ),
    pytest.param(
        hand("dr dr dr dg dg dg dw dw dw b2 b3 b4 c5 c5", "c5"),
        M,
        [("Three dragon pungs", M)],
        True,
        D64,
        id="Three dragon pungs: max",
    ),
    pytest.param(
        hand("ws ws ws dr dr dr dg dg dg wn wn", "wn", melds=("we we we",)),
        M,
        [("Only honours", M)],
        True,
        D64,
        id="Only honours: max",
    ),
    pytest.param(
        hand("b2 b3 b4 c3 c4 c5 d6 d7 d8 b6 b6 b6 c8 c8", "d8"),
        1,
        [("All Simples", 1)],
        False,
        D2,
        id="All Simples: 1",
    ),
    pytest.param(
        hand("b9 b9 b9 c1 c1 c1 d9 d9 d9 c9 c9", "c9", melds=("b1 b1 b1",)),
        M,
        [("Only terminals", M)],
        True,
        D64,
        id="Only terminals: max",
    ),
    pytest.param(
        hand("b2 b3 b4 c3 c4 c5 d6 d7 d8 dr dr dr ww ww", "d8"),
        1,
        [("One dragon pung (dr)", 1)],
        False,
        D2,
        id="One dragon pung: 1",
    ),
    pytest.param(
        hand(PLAIN_OPEN, "d8", melds=("dg dg dg dg",)),
        1,
        [("One dragon pung (dg)", 1)],
        False,
        D2,
        id="One dragon pung: 1 for a kong",
    ),
    pytest.param(
        # b123 c789 d123 b999 c11: a terminal in every set and in the pair
        hand("b1 b2 b3 c7 c8 c9 d1 d2 d3 b9 b9 b9 c1 c1", "b3"),
        3,
        [("At least one terminal in each meld", 3)],
        False,
        D8,
        id="At least one terminal in each meld: 3 closed",
    ),
    pytest.param(
        hand("b1 b2 b3 d1 d2 d3 b9 b9 b9 c1 c1", "b3", melds=("c7 c8 c9",)),
        2,
        [("At least one terminal in each meld", 2)],
        False,
        D4,
        id="At least one terminal in each meld: 2 open",
    ),
    pytest.param(
        # a dragon pung holds no terminal: only the dragon pung scores
        hand("b1 b2 b3 c7 c8 c9 d1 d2 d3 dr dr dr c1 c1", "b3"),
        1,
        [("One dragon pung (dr)", 1)],
        False,
        D2,
        id="At least one terminal in each meld: honours are not terminals",
    ),
    pytest.param(
        # four pungs open 2 + only terminals and honours 2 = 4; d1 ww closed: only 2
        hand("d1 d1 d1 ww ww ww dr dr", "dr", melds=("b1 b1 b1", "c9 c9 c9")),
        4,
        [("Four pungs", 2), ("Only terminals and honours", 2)],
        False,
        D16,
        id="Only terminals and honours: 2",
    ),
    pytest.param(
        hand("b2 b3 b4 c3 c4 c5 d6 d7 d8 we we we ww ww", "d8"),
        1,
        [("Prevalent wind (we)", 1)],
        False,
        D2,
        id="Prevalent wind: 1",
    ),
    pytest.param(
        hand("b2 b3 b4 c3 c4 c5 d6 d7 d8 ws ws ws ww ww", "d8"),
        1,
        [("Seat wind (ws)", 1)],
        False,
        D2,
        id="Seat wind: 1",
    ),
    pytest.param(
        # East in the East round: both 1 + 1 = 2 -> 4 points; East wins, North pays 2x4
        # (bonus f3: East's own flower is f1)
        hand("b2 b3 b4 c3 c4 c5 d6 d7 d8 we we we ww ww", "d8", seat="E", bonus="f3"),
        2,
        [("Prevalent wind (we)", 1), ("Seat wind (we)", 1)],
        False,
        pay(E=16, S=-4, W=-4, N=-8),
        id="Prevalent wind + seat wind: both when they coincide",
    ),
    # ---- Seven Pairs rulings -------------------------------------------------------------
    pytest.param(
        # dragon pairs are not pungs: nothing but Seven Pairs
        hand("b2 b2 b5 b5 c3 c3 c7 c7 d4 d4 dr dr dg dg", "dg"),
        2,
        [("Seven Pairs", 2)],
        False,
        D4,
        id="Seven Pairs: no faan from sets",
    ),
    pytest.param(
        # 2 + full flush closed 6 + normal draw 1 = 9 -> 32 points, self-drawn
        hand("b1 b1 b2 b2 b4 b4 b5 b5 b7 b7 b8 b8 b9 b9", "b9", "wall"),
        9,
        [("Seven Pairs", 2), ("Full Flush", 6), ("Normal draw from the wall", 1)],
        False,
        S32,
        id="Seven Pairs: flush and winning move still count",
    ),
    pytest.param(
        # 2 + all simples 1 = 3
        hand("b2 b2 b5 b5 b8 b8 c3 c3 c6 c6 d4 d4 d7 d7", "d7"),
        3,
        [("Seven Pairs", 2), ("All Simples", 1)],
        False,
        D8,
        id="Seven Pairs: All Simples still counts",
    ),
    pytest.param(
        # 2 + only terminals and honours 2 = 4
        hand("b1 b1 b9 b9 c1 c1 c9 c9 d1 d1 we we dr dr", "dr"),
        4,
        [("Seven Pairs", 2), ("Only terminals and honours", 2)],
        False,
        D16,
        id="Seven Pairs: Only terminals and honours still counts",
    ),
    # ---- Other winning-move rulings ------------------------------------------------------
    pytest.param(
        # "first draw": a first-turn win on a discard is not a draw
        hand(PLAIN, "d8", first=True),
        0,
        [],
        False,
        D1,
        id="Win with your first draw: not on a discard",
    ),
    pytest.param(
        # on top of each other: robbing 1 + last discard 1 = 2
        hand(PLAIN, "d8", "robbing_kong", last=True),
        2,
        [("Steal from a small kong", 1), ("Steal the last discard", 1)],
        False,
        D4,
        id="Steal from a small kong + last discard: 2",
    ),
    pytest.param(
        # dead wall 1 + last draw 1 = 2, paid as self-drawn
        hand(PLAIN, "d8", "replacement", last=True),
        2,
        [("Any draw from the dead wall", 1), ("Last draw from the wall", 1)],
        False,
        S4,
        id="Any draw from the dead wall + last draw: 2",
    ),
    # ---- Best reading --------------------------------------------------------------------
    pytest.param(
        # c222 c333 c444: three closed pungs 2 beats c234 x3 (one pair of matching chows, 1)
        hand("c2 c2 c2 c3 c3 c3 c4 c4 c4 b7 b8 b9 wn wn", "b9"),
        2,
        [("Three closed pungs", 2)],
        False,
        D4,
        id="Best reading: pungs rather than chows",
    ),
    pytest.param(
        # the winning b2 goes in the b234 chow, so the b2 pung stays closed: 3 closed pungs
        hand("b2 b2 b2 b2 b3 b4 c5 c5 c5 d7 d7 d7 wn wn", "b2"),
        2,
        [("Three closed pungs", 2)],
        False,
        D4,
        id="Best reading: the winning tile where it is worth most",
    ),
    # ---- Payments ------------------------------------------------------------------------
    pytest.param(
        # half flush 3 = 8 points; the dealer (East) discards and pays 2x8 like anyone
        hand("c1 c2 c3 c4 c5 c5 c5 c6 c6 c7 c8 ww ww ww", "c1", discarder="E"),
        3,
        [("Half Flush", 3)],
        False,
        pay(E=-16, S=32, W=-8, N=-8),
        id="Payments: the dealer discarding pays like anyone",
    ),
    pytest.param(
        # dealer East self-draws: normal draw 1 = 2 points, everyone pays 2x2 (f3: not East's)
        hand(PLAIN, "d8", "wall", seat="E", bonus="f3"),
        1,
        [("Normal draw from the wall", 1)],
        False,
        pay(E=12, S=-4, W=-4, N=-4),
        id="Payments: the dealer winning self-drawn is paid like anyone",
    ),
]


@pytest.mark.parametrize(("data", "total", "items", "limit", "payments"), CASES)
def test_score_table(data, total, items, limit, payments):
    result = score(data, "hk")
    assert result.rules == "hk"
    assert result.total == total
    assert breakdown(result) == items
    assert result.limit is limit
    assert result.allowed is True
    assert dict(result.payments) == payments
    assert sum(result.payments.values()) == 0


# ---- Faan to points ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faan", "points"),
    [
        (0, 1),
        (1, 2),
        (2, 4),
        (3, 8),
        (4, 16),
        (5, 16),
        (6, 16),
        (7, 32),
        (8, 32),
        (9, 32),
        (10, 64),
        (11, 64),
        (12, 64),
        (13, 128),
        (20, 128),
    ],
)
def test_faan_to_points(faan, points):
    assert points_for_faan(VALUE_DEFAULTS, faan) == points


# ---- The seed's numbers as values ----------------------------------------------------------

SEED_VALUES = {
    "special.thirteen_orphans": MAX,
    "special.nine_gates": MAX,
    "special.eight_treasures": MAX,
    "special.seven_pairs": 2,
    "move.first_draw": MAX,
    "move.last_wall_draw": 1,
    "move.last_discard": 1,
    "move.dead_wall_draw": 1,
    "move.robbing_kong": 1,
    "move.wall_draw.closed": 1,
    "move.wall_draw.open": 0,
    "bonus.all_seasons": 2,
    "bonus.all_flowers": 2,
    "bonus.seat_tile": 1,
    "bonus.none": 1,
    "suit.full_flush.closed": 6,
    "suit.full_flush.open": 5,
    "suit.half_flush.closed": 3,
    "suit.half_flush.open": 2,
    "suit.two_double_chows.closed": 3,
    "suit.two_double_chows.open": 0,
    "suit.double_chow.closed": 1,
    "suit.double_chow.open": 0,
    "suit.pure_straight.closed": 2,
    "suit.pure_straight.open": 1,
    "suit.three_suit_chows.closed": 2,
    "suit.three_suit_chows.open": 1,
    "meld.four_kongs": MAX,
    "meld.three_kongs": 2,
    "meld.four_pungs.closed": MAX,
    "meld.four_pungs.open": 2,
    "meld.three_closed_pungs": 2,
    "meld.three_same_number_pungs": 2,
    "honours.four_winds": MAX,
    "honours.three_dragon_pungs": MAX,
    "honours.little_three_dragons": 2,
    "honours.dragon_pung": 1,
    "honours.prevailing_wind": 1,
    "honours.seat_wind": 1,
    "honours.only_honours": MAX,
    "honours.only_terminals": MAX,
    "honours.terminals_and_honours": 2,
    "honours.all_simples": 1,
    "honours.terminal_in_each_meld.closed": 3,
    "honours.terminal_in_each_meld.open": 2,
}


def test_value_defaults_are_the_seed_table():
    table = {k: v for k, v in RULESET.value_defaults.items() if not k.startswith("points.")}
    assert table == SEED_VALUES
    assert dict(RULESET.option_defaults) == {"min_faan": 3, "max_faan": 10, "players": 4}


# ---- Options: max_faan ---------------------------------------------------------------------

# Full flush closed 6 + normal draw 1 + no bonus tiles 1 = 8, self-drawn.
FLUSH_8 = dict(tiles="b1 b2 b3 b4 b5 b5 b5 b6 b6 b7 b8 b9 b9 b9", win="b1", by="wall", bonus="")


@pytest.mark.parametrize(
    ("max_faan", "total", "limit", "payments"),
    [
        pytest.param(10, 8, False, S32, id="under the default limit: 8 faan, 32 points"),
        pytest.param(8, 8, True, S32, id="max_faan 8: exactly at the limit"),
        pytest.param(7, 7, True, S32, id="max_faan 7: capped at 7, 32 points"),
        # 6 faan = 16 points, each pays 2x16 = 32
        pytest.param(
            6, 6, True, pay(E=-32, S=96, W=-32, N=-32), id="max_faan 6: capped at 6, 16 points"
        ),
    ],
)
def test_max_faan_caps(max_faan, total, limit, payments):
    data = hand(**FLUSH_8, options={"min_faan": 0, "max_faan": max_faan})
    result = score(data, "hk")
    assert result.total == total
    assert result.limit is limit
    assert dict(result.payments) == payments
    # the breakdown keeps every element's own faan even when capped
    assert breakdown(result) == [
        ("Full Flush", 6),
        ("Normal draw from the wall", 1),
        ("No bonus tiles at all", 1),
    ]


def test_sum_of_exactly_max_faan_is_the_limit():
    # b123 b456 b789 b666 b33 self-drawn, no bonus: full flush 6 + pure straight 2 + normal
    # draw 1 + no bonus 1 = 10 = max_faan -> limit, 64 points, each pays 128
    data = hand("b1 b2 b3 b4 b5 b6 b7 b8 b9 b6 b6 b6 b3 b3", "b9", "wall", bonus="")
    result = score(data, "hk")
    assert result.total == 10
    assert result.limit is True
    assert breakdown(result) == [
        ("Full Flush", 6),
        ("Pure Straight", 2),
        ("Normal draw from the wall", 1),
        ("No bonus tiles at all", 1),
    ]
    assert dict(result.payments) == S64


def test_max_hand_scores_max_faan_option():
    # Thirteen Orphans with max_faan 13: 13 faan = 128 points; North 2x128, E and W 128
    data = hand("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw", "dw", options={"max_faan": 13})
    result = score(data, "hk")
    assert result.total == 13
    assert result.limit is True
    assert breakdown(result) == [("Thirteen Orphans", 13)]
    assert dict(result.payments) == pay(E=-128, S=512, W=-128, N=-256)


def test_several_max_elements_are_all_listed_total_is_max():
    # dr dg dw pungs + we pung + wn pair, closed, won on the pair: three dragon pungs, only
    # honours and four (closed) pungs are each max; the hand scores 10, not 30
    data = hand("dr dr dr dg dg dg dw dw dw we we we wn wn", "wn")
    result = score(data, "hk")
    assert result.total == 10
    assert result.limit is True
    assert breakdown(result) == [
        ("Four pungs", 10),
        ("Three dragon pungs", 10),
        ("Only honours", 10),
    ]
    assert dict(result.payments) == D64


# ---- Options: min_faan ---------------------------------------------------------------------


def test_below_min_faan_is_not_allowed_and_pays_nothing():
    # three kongs 2 < default min_faan 3
    data = hand(
        "b6 b7 b8 wn wn",
        "b8",
        melds=("b2 b2 b2 b2", "c5 c5 c5 c5", "d7 d7 d7 d7"),
        options={},
    )
    result = score(data, "hk")
    assert result.total == 2
    assert result.allowed is False
    assert breakdown(result) == [("Three kongs", 2)]
    assert dict(result.payments) == pay()


def test_exactly_min_faan_is_allowed():
    # half flush closed 3 = default min_faan 3: 8 points
    data = hand("c1 c2 c3 c4 c5 c5 c5 c6 c6 c7 c8 ww ww ww", "c1", options={})
    result = score(data, "hk")
    assert result.total == 3
    assert result.allowed is True
    assert dict(result.payments) == D8


def test_min_faan_from_the_caller_and_the_hand_overrides_it():
    # pure straight closed 2: not allowed at min_faan 3 (caller), allowed when the hand says 1
    data = hand("b1 b2 b3 b4 b5 b6 b7 b8 b9 c5 c5 c5 wn wn", "b9", options={})
    assert score(data, "hk", options={"min_faan": 3}).allowed is False
    assert score(data, "hk", options={"min_faan": 2}).allowed is True
    data["options"] = {"min_faan": 1}
    result = score(data, "hk", options={"min_faan": 3})
    assert result.allowed is True
    assert dict(result.payments) == D4


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"min_faan": 11}, id="min_faan above max_faan"),
        pytest.param({"max_faan": 0}, id="max_faan below 1"),
        pytest.param({"min_faan": -1}, id="negative min_faan"),
        pytest.param({"min_fan": 1}, id="unknown option"),
    ],
)
def test_bad_options_are_refused(options):
    data = hand(PLAIN, "d8", options={})
    with pytest.raises(EngineError):
        score(data, "hk", options=options)


# ---- Club overrides ------------------------------------------------------------------------


def test_value_override_changes_a_row():
    # a club scoring Seven Pairs 4 and 1 faan = 3 points: 4 faan still pays 16
    ruleset = RULESET.with_overrides(values={"special.seven_pairs": 4, "points.faan.1": 3})
    data = hand("b2 b2 b5 b5 c3 c3 c7 c7 d4 d4 d9 d9 wn wn", "wn")
    result = score(data, ruleset)
    assert result.total == 4
    assert breakdown(result) == [("Seven Pairs", 4)]
    assert dict(result.payments) == D16
    # 1 faan now pays 3 points: steal the last discard, North 2x3, East and West 3
    result = score(hand(PLAIN, "d8", last=True), ruleset)
    assert dict(result.payments) == pay(E=-3, S=12, W=-3, N=-6)


def test_value_override_turns_a_max_row_into_faan():
    # Thirteen Orphans at 8 faan: not the limit, 32 points
    ruleset = RULESET.with_overrides(values={"special.thirteen_orphans": 8})
    data = hand("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw", "dw")
    result = score(data, ruleset)
    assert result.total == 8
    assert result.limit is False
    assert breakdown(result) == [("Thirteen Orphans", 8)]
    assert dict(result.payments) == pay(E=-32, S=128, W=-32, N=-64)


@pytest.mark.parametrize(
    "values",
    [
        pytest.param({"honours.all_simples": -2}, id="negative faan"),
        pytest.param({"points.faan.3": -1}, id="max in the points table"),
        pytest.param({"honours.all_simple": 1}, id="unknown value"),
    ],
)
def test_bad_values_are_refused(values):
    with pytest.raises(EngineError):
        RULESET.with_overrides(values=values)


def test_bad_club_options_are_refused():
    with pytest.raises(EngineError):
        RULESET.with_overrides(options={"min_faan": 8, "max_faan": 7})


# ---- Hands that are not hk hands -----------------------------------------------------------


def test_four_of_a_kind_is_not_two_pairs():
    data = hand("b2 b2 b2 b2 c3 c3 c7 c7 d4 d4 d9 d9 wn wn", "wn")
    with pytest.raises(EngineError):
        score(data, "hk")


def test_knitted_shapes_are_not_hk_hands():
    # u3a's double knitting: seven pairs of the same number in two suits
    data = hand("b1 c1 b2 c2 b3 c3 b4 c4 b5 c5 b6 c6 b7 c7", "c7")
    with pytest.raises(EngineError):
        score(data, "hk")


def test_contract_json():
    # one dragon pung 1 + no bonus tiles 1 = 2 faan = 4 points
    data = hand("b2 b3 b4 c3 c4 c5 d6 d7 d8 dr dr dr ww ww", "d8", bonus="")
    assert score(data, "hk").to_dict() == {
        "ok": True,
        "rules": "hk",
        "total": 2,
        "limit": False,
        "allowed": True,
        "breakdown": [
            {"name": "One dragon pung (dr)", "faan": 1},
            {"name": "No bonus tiles at all", "faan": 1},
        ],
        "payments": {"E": -4, "S": 16, "W": -4, "N": -8},
    }
