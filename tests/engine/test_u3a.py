"""The `u3a` rule set (seed 004, Balsall Common U3A house rules).

One case per row of the seed's tables and per u3a ruling (docs/rules/u3a.md and
docs/engine.md). Every expected value is worked out by hand from the seed; the arithmetic is in
the comment above each case. Unless a case says otherwise the winner sits South (S), the round is
East (E), East deals and there are no bonus tiles. Red flowers are f1-f4 (f1 is the flower of
the East round), blue flowers s1-s4 (s2 is the flower of the South seat).
"""

from __future__ import annotations

import pytest

from scoring.engine import EngineError, score
from scoring.engine.rulesets.u3a import (
    OPTION_DEFAULTS,
    RULESET,
    VALUE_DEFAULTS,
    goulash_payments,
    kong_payments,
)


def X(tiles: str) -> dict:
    """An exposed meld."""
    return {"tiles": tiles, "concealed": False}


def C(tiles: str) -> dict:
    """A declared concealed kong."""
    return {"tiles": tiles, "concealed": True}


def H(
    tiles: str,
    win: str,
    won_by: str = "wall",
    discarder: str | None = None,
    *,
    seat: str = "S",
    round: str = "E",
    melds: tuple[dict, ...] = (),
    bonus: str = "",
    last_tile: bool = False,
    options: dict | None = None,
) -> dict:
    data = {
        "tiles": tiles,
        "melds": list(melds),
        "winning_tile": win,
        "won_by": won_by,
        "seat_wind": seat,
        "prevailing_wind": round,
        "dealer": "E",
        "bonus": bonus,
        "last_tile": last_tile,
        "options": options or {},
    }
    if discarder is not None:
        data["discarder"] = discarder
    return data


ZERO = {"E": 0, "S": 0, "W": 0, "N": 0}

# Breakdown names, exactly as seed 004 prints them.
DRAGON = "Pong/Kong of Dragons ({})"
ROUND_WIND = "Pong/Kong of Wind of round ({})"
SEAT_WIND = "Pong/Kong of Wind of your seat ({})"
LAST_TILE = "Win on last tile of the wall"
LAST_DISCARD = "Win on last discard"
REPLACEMENT = "Win on replacement tile from the flower wall"
SELF_DRAW = "Self-draw to Mahjong"
CONCEALED = "Concealed hand"
NO_FLOWERS = "No Flowers"
RED_BOUQUET = "All 4 Red Flowers (Bouquet)"
BLUE_BOUQUET = "All 4 Blue Flowers (Bouquet)"
ROUND_FLOWER = "Flower for Round (Red) ({})"
SEAT_FLOWER = "Flower for Seat (Blue) ({})"
SEMI_PURE = "Semi-pure hand with Honours"


def check(data, options, total, breakdown, allowed, payments):
    result = score(data, "u3a", options)
    assert [(item.name, item.points) for item in result.breakdown] == breakdown
    assert result.total == total
    assert result.total == sum(points for _, points in breakdown)
    assert result.allowed is allowed
    assert dict(result.payments) == payments
    assert sum(result.payments.values()) == 0
    assert result.limit is False
    assert result.rules == "u3a"


# ---------------------------------------------------------------------------------------
# Basic Mahjong Hands: shape (Chicken 0, Sequence 1, All Pongs 3) + purity (mixed 0,
# semi-pure with honours 3, pure 6)

BASIC_HANDS = [
    # b123 c234 c555 d789 b77, self-drawn, concealed: Chicken 0 + self-draw 1 + concealed 1
    # + no flowers 1 = 3. Self-drawn: each other player pays 3, S gets 3 x 3 = 9.
    pytest.param(
        H("b1 b2 b3 c2 c3 c4 c5 c5 c5 d7 d8 d9 b7 b7", "d9"),
        None,
        3,
        [("Chicken", 0), (SELF_DRAW, 1), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -3, "S": 9, "W": -3, "N": -3},
        id="Chicken",
    ),
    # Exposed chow b123, c234 c555 d789 b77 on W's discard, bonus f3 (red flower of the
    # West round: nothing in the East round, and it spoils No Flowers). Chicken 0 = 0 < 3:
    # not allowed, no payments.
    pytest.param(
        H(
            "c2 c3 c4 c5 c5 c5 d7 d8 d9 b7 b7",
            "d9",
            "discard",
            "W",
            melds=(X("b1 b2 b3"),),
            bonus="f3",
        ),
        None,
        0,
        [("Chicken", 0)],
        False,
        ZERO,
        id="Chicken below the minimum",
    ),
    # b123 c456 d789 b678 + ww pair, concealed, on N's discard: Sequence 1 + concealed 1
    # + no flowers 1 = 3. Only N pays: N -3, S +3.
    pytest.param(
        H("b1 b2 b3 c4 c5 c6 d7 d8 d9 b6 b7 b8 ww ww", "c6", "discard", "N"),
        None,
        3,
        [("Sequence", 1), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 3, "W": 0, "N": -3},
        id="Sequence",
    ),
    # Winner West. Exposed c999, b222 d555 c777 b88 on E's discard, bonus s3 (blue flower of
    # the West seat): All Pongs 3 + seat flower 1 = 4. The dealer pays no more: E -4, W +4.
    pytest.param(
        H(
            "b2 b2 b2 d5 d5 d5 c7 c7 c7 b8 b8",
            "c7",
            "discard",
            "E",
            seat="W",
            melds=(X("c9 c9 c9"),),
            bonus="s3",
        ),
        None,
        4,
        [("All Pongs", 3), (SEAT_FLOWER.format("s3"), 1)],
        True,
        {"E": -4, "S": 0, "W": 4, "N": 0},
        id="All Pongs",
    ),
    # Exposed wn pong (not S's wind, not the round's), c123 c456 c789 c22 on W's discard:
    # Chicken 0 + semi-pure 3 + no flowers 1 = 4. W -4, S +4.
    pytest.param(
        H(
            "c1 c2 c3 c4 c5 c6 c7 c8 c9 c2 c2",
            "c5",
            "discard",
            "W",
            melds=(X("wn wn wn"),),
        ),
        None,
        4,
        [("Chicken", 0), (SEMI_PURE, 3), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 4, "W": -4, "N": 0},
        id="Semi-pure hand with Honours",
    ),
    # Exposed chow d123, d456 d777 d999 d22 on N's discard: Chicken 0 + pure 6 + no flowers 1
    # = 7. N -7, S +7.
    pytest.param(
        H(
            "d4 d5 d6 d7 d7 d7 d9 d9 d9 d2 d2",
            "d2",
            "discard",
            "N",
            melds=(X("d1 d2 d3"),),
        ),
        None,
        7,
        [("Chicken", 0), ("Pure", 6), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 7, "W": 0, "N": -7},
        id="Pure",
    ),
    # b123 b234 b456 b789 b55, self-drawn, concealed: Sequence 1 + pure 6 + self-draw 1
    # + concealed 1 + no flowers 1 = 10. Each pays 10, S +30.
    pytest.param(
        H("b1 b2 b3 b4 b5 b6 b7 b8 b9 b2 b3 b4 b5 b5", "b5"),
        None,
        10,
        [("Sequence", 1), ("Pure", 6), (SELF_DRAW, 1), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -10, "S": 30, "W": -10, "N": -10},
        id="Sequence and Pure",
    ),
    # rulings: "a pure all-pong hand is 9 before extras". Exposed c222, c444 c666 c888 c99
    # on E's discard: All Pongs 3 + pure 6 + no flowers 1 = 10. E -10, S +10.
    pytest.param(
        H(
            "c4 c4 c4 c6 c6 c6 c8 c8 c8 c9 c9",
            "c9",
            "discard",
            "E",
            melds=(X("c2 c2 c2"),),
        ),
        None,
        10,
        [("All Pongs", 3), ("Pure", 6), (NO_FLOWERS, 1)],
        True,
        {"E": -10, "S": 10, "W": 0, "N": 0},
        id="All Pongs and Pure",
    ),
    # Exposed dr pong, b333 b555 b777 ws-pair on N's discard (pairs score nothing in u3a):
    # All Pongs 3 + semi-pure 3 + dragon pong 1 + no flowers 1 = 8. N -8, S +8.
    pytest.param(
        H(
            "b3 b3 b3 b5 b5 b5 b7 b7 b7 ws ws",
            "ws",
            "discard",
            "N",
            melds=(X("dr dr dr"),),
        ),
        None,
        8,
        [("All Pongs", 3), (SEMI_PURE, 3), (DRAGON.format("dr"), 1), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 8, "W": 0, "N": -8},
        id="All Pongs and Semi-pure hand with Honours",
    ),
]


# ---------------------------------------------------------------------------------------
# Special Mahjong Hands: printed base + '+' items (instead of shape + purity)

SPECIAL_HANDS = [
    # Exposed dr and dg pongs, dw pong, b234, c55 on W's discard: 3 Big Dragons 6 + three
    # dragon pongs 3 + no flowers 1 = 10 (as a basic hand: Chicken 0 + 3 + 1 = 4). W -10.
    pytest.param(
        H(
            "dw dw dw b2 b3 b4 c5 c5",
            "b4",
            "discard",
            "W",
            melds=(X("dr dr dr"), X("dg dg dg")),
        ),
        None,
        10,
        [
            ("3 Big Dragons", 6),
            (DRAGON.format("dr"), 1),
            (DRAGON.format("dg"), 1),
            (DRAGON.format("dw"), 1),
            (NO_FLOWERS, 1),
        ],
        True,
        {"E": 0, "S": 10, "W": -10, "N": 0},
        id="3 Big Dragons",
    ),
    # Exposed we, ws pongs, ww pong, wn pair, c345, self-drawn: Little Winds 8 + round wind
    # (we) 1 + seat wind (ws) 1 + self-draw 1 + no flowers 1 = 12. Each pays 12, S +36.
    pytest.param(
        H(
            "ww ww ww wn wn c3 c4 c5",
            "c5",
            melds=(X("we we we"), X("ws ws ws")),
        ),
        None,
        12,
        [
            ("Little Winds", 8),
            (ROUND_WIND.format("we"), 1),
            (SEAT_WIND.format("ws"), 1),
            (SELF_DRAW, 1),
            (NO_FLOWERS, 1),
        ],
        True,
        {"E": -12, "S": 36, "W": -12, "N": -12},
        id="Little Winds",
    ),
    # Winner East in the East round. Concealed we kong, exposed wn pong, ws ww pongs, d55
    # on N's discard: Big 4 Winds 10 + round wind (we) 1 + seat wind (we) 1 + no flowers 1
    # = 13. Not concealed (exposed wn). N -13, E +13.
    pytest.param(
        H(
            "ws ws ws ww ww ww d5 d5",
            "d5",
            "discard",
            "N",
            seat="E",
            melds=(C("we we we we"), X("wn wn wn")),
        ),
        None,
        13,
        [
            ("Big 4 Winds", 10),
            (ROUND_WIND.format("we"), 1),
            (SEAT_WIND.format("we"), 1),
            (NO_FLOWERS, 1),
        ],
        True,
        {"E": 13, "S": 0, "W": 0, "N": -13},
        id="Big 4 Winds",
    ),
    # Winner West, South round. Exposed dg, we ww dr pongs, wn pair on S's discard:
    # All Honours 10 + dragons dr, dg 2 + seat wind (ww) 1 + no flowers 1 = 14
    # (round wind is ws: no pong). S -14, W +14.
    pytest.param(
        H(
            "we we we ww ww ww dr dr dr wn wn",
            "wn",
            "discard",
            "S",
            seat="W",
            round="S",
            melds=(X("dg dg dg"),),
        ),
        None,
        14,
        [
            ("All Honours", 10),
            (DRAGON.format("dr"), 1),
            (DRAGON.format("dg"), 1),
            (SEAT_WIND.format("ww"), 1),
            (NO_FLOWERS, 1),
        ],
        True,
        {"E": 0, "S": -14, "W": 14, "N": 0},
        id="All Honours",
    ),
    # Exposed b111, b999 c111 d999 c99 on N's discard, bonus f1 (red flower of the East
    # round): All Terminal 10 + round flower 1 = 11. N -11, S +11.
    pytest.param(
        H(
            "b9 b9 b9 c1 c1 c1 d9 d9 d9 c9 c9",
            "c9",
            "discard",
            "N",
            melds=(X("b1 b1 b1"),),
            bonus="f1",
        ),
        None,
        11,
        [("All Terminal", 10), (ROUND_FLOWER.format("f1"), 1)],
        True,
        {"E": 0, "S": 11, "W": 0, "N": -11},
        id="All Terminal",
    ),
    # Kongs b2 (exposed), c3 (exposed), d4 (concealed), dr (exposed), ws pair on E's
    # discard: All Kongs 10 + dragon (dr) 1 + no flowers 1 = 12 (the pair of the seat wind
    # scores nothing). E -12, S +12.
    pytest.param(
        H(
            "ws ws",
            "ws",
            "discard",
            "E",
            melds=(
                X("b2 b2 b2 b2"),
                X("c3 c3 c3 c3"),
                C("d4 d4 d4 d4"),
                X("dr dr dr dr"),
            ),
        ),
        None,
        12,
        [("All Kongs", 10), (DRAGON.format("dr"), 1), (NO_FLOWERS, 1)],
        True,
        {"E": -12, "S": 12, "W": 0, "N": 0},
        id="All Kongs",
    ),
    # Exposed dg, b222 b444 b666 b88 on W's discard: Jade Dragon 10 + dragon (dg) 1
    # + no flowers 1 = 12 (as All Pongs + semi-pure it would be 3 + 3 + 1 + 1 = 8). W -12.
    pytest.param(
        H(
            "b2 b2 b2 b4 b4 b4 b6 b6 b6 b8 b8",
            "b8",
            "discard",
            "W",
            melds=(X("dg dg dg"),),
        ),
        None,
        12,
        [("Jade Dragon", 10), (DRAGON.format("dg"), 1), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 12, "W": -12, "N": 0},
        id="Jade Dragon",
    ),
    # Concealed c111 c333 c555 dr-pong c77 on N's discard: Ruby Dragon 10 + dragon (dr) 1
    # + concealed 1 + no flowers 1 = 13 (not Hidden Treasure: won on a discard). N -13.
    pytest.param(
        H("c1 c1 c1 c3 c3 c3 c5 c5 c5 dr dr dr c7 c7", "c7", "discard", "N"),
        None,
        13,
        [("Ruby Dragon", 10), (DRAGON.format("dr"), 1), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 13, "W": 0, "N": -13},
        id="Ruby Dragon",
    ),
    # Winner West, South round. Exposed dw kong, d111 d222 d999 d55 self-drawn, bonus f2
    # (red flower of the South round): Pearl Dragon 10 + dragon (dw) 1 + self-draw 1
    # + round flower 1 = 13. Each pays 13, W +39.
    pytest.param(
        H(
            "d1 d1 d1 d2 d2 d2 d9 d9 d9 d5 d5",
            "d5",
            seat="W",
            round="S",
            melds=(X("dw dw dw dw"),),
            bonus="f2",
        ),
        None,
        13,
        [
            ("Pearl Dragon", 10),
            (DRAGON.format("dw"), 1),
            (SELF_DRAW, 1),
            (ROUND_FLOWER.format("f2"), 1),
        ],
        True,
        {"E": -13, "S": -13, "W": 39, "N": -13},
        id="Pearl Dragon",
    ),
]


# ---------------------------------------------------------------------------------------
# Special Concealed Mahjong Hands: printed base, no points for honour pongs or for being
# concealed; self-draw, flowers, last tile and replacement still count.

SPECIAL_CONCEALED_HANDS = [
    # b11 c44 d77 we-we dr-dr b55 c99 on E's discard: 7 Pairs 6 + no flowers 1 = 7. E -7.
    pytest.param(
        H("b1 b1 c4 c4 d7 d7 we we dr dr b5 b5 c9 c9", "c9", "discard", "E"),
        None,
        7,
        [("7 Pairs", 6), (NO_FLOWERS, 1)],
        True,
        {"E": -7, "S": 7, "W": 0, "N": 0},
        id="7 Pairs",
    ),
    # Pairs b1c1 b2c2 b3c3 b5c5 b6c6 b8c8 b9c9, self-drawn: Double Knitting 6 + self-draw 1
    # + no flowers 1 = 8. Each pays 8, S +24.
    pytest.param(
        H("b1 c1 b2 c2 b3 c3 b5 c5 b6 c6 b8 c8 b9 c9", "c9"),
        None,
        8,
        [("Double Knitting", 6), (SELF_DRAW, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -8, "S": 24, "W": -8, "N": -8},
        id="Double Knitting",
    ),
    # Triples 1, 4, 6, 8 in all three suits, pair b9 d9 on W's discard, bonus s2 (blue
    # flower of the South seat): Triple Knitting 6 + seat flower 1 = 7. W -7.
    pytest.param(
        H(
            "b1 c1 d1 b4 c4 d4 b6 c6 d6 b8 c8 d8 b9 d9",
            "d9",
            "discard",
            "W",
            bonus="s2",
        ),
        None,
        7,
        [("Triple Knitting", 6), (SEAT_FLOWER.format("s2"), 1)],
        True,
        {"E": 0, "S": 7, "W": -7, "N": 0},
        id="Triple Knitting",
    ),
    # c1112345678999 + c5, self-drawn: 9 Gates 10 + self-draw 1 + no flowers 1 = 12 (as a
    # basic hand, c111 c234 c55 c678 c999: Chicken 0 + pure 6 + 1 + 1 + 1 = 9). S +36.
    pytest.param(
        H("c1 c1 c1 c2 c3 c4 c5 c6 c7 c8 c9 c9 c9 c5", "c5"),
        None,
        12,
        [("9 Gates", 10), (SELF_DRAW, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -12, "S": 36, "W": -12, "N": -12},
        id="9 Gates",
    ),
    # One of each terminal and honour + dw, on N's discard: 13 Orphans 10 + no flowers 1
    # = 11. N -11.
    pytest.param(
        H("b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dw dw", "dw", "discard", "N"),
        None,
        11,
        [("13 Orphans", 10), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 11, "W": 0, "N": -11},
        id="13 Orphans",
    ),
    # b222 c777 d444 b999 c11 all from the wall, bonus f3 (nothing): Hidden Treasure 10
    # + self-draw 1 = 11 (as All Pongs: 3 + self-draw 1 + concealed 1 = 5). S +33.
    pytest.param(
        H("b2 b2 b2 c7 c7 c7 d4 d4 d4 b9 b9 b9 c1 c1", "c1", bonus="f3"),
        None,
        11,
        [("Hidden Treasure", 10), (SELF_DRAW, 1)],
        True,
        {"E": -11, "S": 33, "W": -11, "N": -11},
        id="Hidden Treasure",
    ),
    # d1-d9 + we ws wn dr dg, self-drawn: Little Snake 10 + self-draw 1 + no flowers 1 = 12.
    pytest.param(
        H("d1 d2 d3 d4 d5 d6 d7 d8 d9 we ws wn dr dg", "dg"),
        None,
        12,
        [("Little Snake", 10), (SELF_DRAW, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -12, "S": 36, "W": -12, "N": -12},
        id="Little Snake",
    ),
    # b1-b9 + dr pong + ws pair on W's discard: Great Snake 10 + no flowers 1 = 11; the dr
    # pong and the concealed hand score nothing (as a basic hand: Chicken 0 + semi-pure 3
    # + dr 1 + concealed 1 + no flowers 1 = 6). W -11.
    pytest.param(
        H("b1 b2 b3 b4 b5 b6 b7 b8 b9 dr dr dr ws ws", "ws", "discard", "W"),
        None,
        11,
        [("Great Snake", 10), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 11, "W": -11, "N": 0},
        id="Great Snake",
    ),
]


# ---------------------------------------------------------------------------------------
# The '+' items, one point each

EXTRAS = [
    # Exposed dr pong, exposed dw kong, b234 c678 d99 on W's discard: Chicken 0 + dr 1
    # + dw 1 + no flowers 1 = 3 (each dragon pong/kong scores). W -3.
    pytest.param(
        H(
            "b2 b3 b4 c6 c7 c8 d9 d9",
            "c8",
            "discard",
            "W",
            melds=(X("dr dr dr"), X("dw dw dw dw")),
        ),
        None,
        3,
        [("Chicken", 0), (DRAGON.format("dr"), 1), (DRAGON.format("dw"), 1), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 3, "W": -3, "N": 0},
        id="Pong/Kong of Dragons",
    ),
    # West round. Exposed ww pong, b234 c678 d999 c11 self-drawn: Chicken 0 + round wind
    # (ww) 1 + self-draw 1 + no flowers 1 = 3. Each pays 3, S +9.
    pytest.param(
        H(
            "b2 b3 b4 c6 c7 c8 d9 d9 d9 c1 c1",
            "c1",
            round="W",
            melds=(X("ww ww ww"),),
        ),
        None,
        3,
        [("Chicken", 0), (ROUND_WIND.format("ww"), 1), (SELF_DRAW, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -3, "S": 9, "W": -3, "N": -3},
        id="Pong/Kong of Wind of round",
    ),
    # Winner North. Concealed wn kong, b234 c678 d999 c11 on E's discard: Chicken 0 + seat
    # wind (wn) 1 + concealed 1 (a declared concealed kong keeps the hand concealed) + no
    # flowers 1 = 3. E -3, N +3.
    pytest.param(
        H(
            "b2 b3 b4 c6 c7 c8 d9 d9 d9 c1 c1",
            "c1",
            "discard",
            "E",
            seat="N",
            melds=(C("wn wn wn wn"),),
        ),
        None,
        3,
        [("Chicken", 0), (SEAT_WIND.format("wn"), 1), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -3, "S": 0, "W": 0, "N": 3},
        id="Pong/Kong of Wind of your seat",
    ),
    # Winner East in the East round. Exposed we pong, b234 c678 d999 c11 on S's discard:
    # Chicken 0 + round wind 1 + seat wind 1 (both rows) + no flowers 1 = 3. S -3, E +3.
    pytest.param(
        H(
            "b2 b3 b4 c6 c7 c8 d9 d9 d9 c1 c1",
            "c1",
            "discard",
            "S",
            seat="E",
            melds=(X("we we we"),),
        ),
        None,
        3,
        [
            ("Chicken", 0),
            (ROUND_WIND.format("we"), 1),
            (SEAT_WIND.format("we"), 1),
            (NO_FLOWERS, 1),
        ],
        True,
        {"E": 3, "S": -3, "W": 0, "N": 0},
        id="Pong/Kong of Wind of round and of your seat",
    ),
    # Exposed chow b123, c456 d222 b789 c99, last tile of the wall, bonus s2: Chicken 0
    # + last tile 1 + self-draw 1 + seat flower (s2) 1 = 3. Each pays 3, S +9.
    pytest.param(
        H(
            "c4 c5 c6 d2 d2 d2 b7 b8 b9 c9 c9",
            "c9",
            melds=(X("b1 b2 b3"),),
            bonus="s2",
            last_tile=True,
        ),
        None,
        3,
        [("Chicken", 0), (LAST_TILE, 1), (SELF_DRAW, 1), (SEAT_FLOWER.format("s2"), 1)],
        True,
        {"E": -3, "S": 9, "W": -3, "N": -3},
        id="Win on last tile of the wall",
    ),
    # Exposed chow b123, c456 dg-pong b789 c99 on N's last discard: Chicken 0 + dg 1
    # + last discard 1 + no flowers 1 = 3. N -3.
    pytest.param(
        H(
            "c4 c5 c6 dg dg dg b7 b8 b9 c9 c9",
            "c9",
            "discard",
            "N",
            melds=(X("b1 b2 b3"),),
            last_tile=True,
        ),
        None,
        3,
        [("Chicken", 0), (DRAGON.format("dg"), 1), (LAST_DISCARD, 1), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 3, "W": 0, "N": -3},
        id="Win on last discard",
    ),
    # Exposed chow b123, c456 d222 b789 c99 won on the replacement for flower f1 (red flower
    # of the East round): Chicken 0 + replacement 1 + self-draw 1 + round flower 1 = 3.
    # A replacement win pays as self-drawn: each pays 3, S +9.
    pytest.param(
        H(
            "c4 c5 c6 d2 d2 d2 b7 b8 b9 c9 c9",
            "c9",
            "replacement",
            melds=(X("b1 b2 b3"),),
            bonus="f1",
        ),
        None,
        3,
        [("Chicken", 0), (REPLACEMENT, 1), (SELF_DRAW, 1), (ROUND_FLOWER.format("f1"), 1)],
        True,
        {"E": -3, "S": 9, "W": -3, "N": -3},
        id="Win on replacement tile from the flower wall",
    ),
    # Kong to Mahjong: exposed d2 kong and b123 chow, c456 b789 c99 won on the kong's
    # replacement: Chicken 0 + replacement 1 + self-draw 1 (the seed's "two points") + no
    # flowers 1 = 3. Each pays 3, S +9; no kong chips (kind "replacement_win").
    pytest.param(
        H(
            "c4 c5 c6 b7 b8 b9 c9 c9",
            "c9",
            "replacement",
            melds=(X("d2 d2 d2 d2"), X("b1 b2 b3")),
        ),
        None,
        3,
        [("Chicken", 0), (REPLACEMENT, 1), (SELF_DRAW, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -3, "S": 9, "W": -3, "N": -3},
        id="Kong to Mahjong",
    ),
    # Exposed pong c777, b123 c456 d789 b55 self-drawn, bonus s2: Chicken 0 + self-draw 1
    # + seat flower 1 = 2 < 3: not allowed, nobody pays.
    pytest.param(
        H(
            "b1 b2 b3 c4 c5 c6 d7 d8 d9 b5 b5",
            "b5",
            melds=(X("c7 c7 c7"),),
            bonus="s2",
        ),
        None,
        2,
        [("Chicken", 0), (SELF_DRAW, 1), (SEAT_FLOWER.format("s2"), 1)],
        False,
        ZERO,
        id="Self-draw to Mahjong",
    ),
    # b123 c456 d789 c777 b55 concealed, on W's discard (winning on a discard does not spoil
    # a concealed hand): Chicken 0 + concealed 1 + no flowers 1 = 2 < 3: not allowed.
    pytest.param(
        H("b1 b2 b3 c4 c5 c6 d7 d8 d9 c7 c7 c7 b5 b5", "b5", "discard", "W"),
        None,
        2,
        [("Chicken", 0), (CONCEALED, 1), (NO_FLOWERS, 1)],
        False,
        ZERO,
        id="Concealed hand",
    ),
    # Exposed chow b123, c456 dg-pong b789 c99 on E's discard, no bonus tiles: Chicken 0
    # + dg 1 + no flowers 1 = 2 < 3: not allowed.
    pytest.param(
        H(
            "c4 c5 c6 dg dg dg b7 b8 b9 c9 c9",
            "c9",
            "discard",
            "E",
            melds=(X("b1 b2 b3"),),
        ),
        None,
        2,
        [("Chicken", 0), (DRAGON.format("dg"), 1), (NO_FLOWERS, 1)],
        False,
        ZERO,
        id="No Flowers",
    ),
    # Exposed chow b123, c456 d222 b789 c99 on W's discard, bonus f1-f4 + s2: Chicken 0
    # + red bouquet 1 + round flower (f1) 1 + seat flower (s2) 1 = 3. W -3.
    pytest.param(
        H(
            "c4 c5 c6 d2 d2 d2 b7 b8 b9 c9 c9",
            "c9",
            "discard",
            "W",
            melds=(X("b1 b2 b3"),),
            bonus="f1 f2 f3 f4 s2",
        ),
        None,
        3,
        [
            ("Chicken", 0),
            (RED_BOUQUET, 1),
            (ROUND_FLOWER.format("f1"), 1),
            (SEAT_FLOWER.format("s2"), 1),
        ],
        True,
        {"E": 0, "S": 3, "W": -3, "N": 0},
        id="All 4 Red Flowers (Bouquet)",
    ),
    # Winner West, South round. Exposed chow b123, c456 d222 b789 c99 self-drawn, bonus
    # s1-s4: Chicken 0 + self-draw 1 + blue bouquet 1 + seat flower (s3) 1 = 3. W +9.
    pytest.param(
        H(
            "c4 c5 c6 d2 d2 d2 b7 b8 b9 c9 c9",
            "c9",
            seat="W",
            round="S",
            melds=(X("b1 b2 b3"),),
            bonus="s1 s2 s3 s4",
        ),
        None,
        3,
        [("Chicken", 0), (SELF_DRAW, 1), (BLUE_BOUQUET, 1), (SEAT_FLOWER.format("s3"), 1)],
        True,
        {"E": -3, "S": -3, "W": 9, "N": -3},
        id="All 4 Blue Flowers (Bouquet)",
    ),
    # Exposed dg pong, c456 d222 b789 c99 on N's discard, bonus f1 (the East round's red
    # flower): Chicken 0 + dg 1 + round flower 1 = 2 < 3: not allowed.
    pytest.param(
        H(
            "c4 c5 c6 d2 d2 d2 b7 b8 b9 c9 c9",
            "c9",
            "discard",
            "N",
            melds=(X("dg dg dg"),),
            bonus="f1",
        ),
        None,
        2,
        [("Chicken", 0), (DRAGON.format("dg"), 1), (ROUND_FLOWER.format("f1"), 1)],
        False,
        ZERO,
        id="Flower for Round (Red)",
    ),
    # Same with bonus s2 (the South seat's blue flower): Chicken 0 + dg 1 + seat flower 1
    # + self-draw 1 = 3. Each pays 3, S +9.
    pytest.param(
        H(
            "c4 c5 c6 d2 d2 d2 b7 b8 b9 c9 c9",
            "c9",
            melds=(X("dg dg dg"),),
            bonus="s2",
        ),
        None,
        3,
        [("Chicken", 0), (DRAGON.format("dg"), 1), (SELF_DRAW, 1), (SEAT_FLOWER.format("s2"), 1)],
        True,
        {"E": -3, "S": 9, "W": -3, "N": -3},
        id="Flower for Seat (Blue)",
    ),
    # Red flowers go with the round, blue with the seat: South seat, East round, bonus f2 s1
    # (f2 = South's red flower, s1 = East's blue flower) score nothing and spoil No Flowers.
    # Exposed dg, c456 d222 b789 c99 self-drawn: Chicken 0 + dg 1 + self-draw 1 = 2 < 3.
    pytest.param(
        H(
            "c4 c5 c6 d2 d2 d2 b7 b8 b9 c9 c9",
            "c9",
            melds=(X("dg dg dg"),),
            bonus="f2 s1",
        ),
        None,
        2,
        [("Chicken", 0), (DRAGON.format("dg"), 1), (SELF_DRAW, 1)],
        False,
        ZERO,
        id="Flowers of another round or seat score nothing",
    ),
]


# ---------------------------------------------------------------------------------------
# Rulings

RULINGS = [
    # c222 c333 c444 b678 d55 on W's discard: as pongs Chicken 0 + concealed 1 + no flowers
    # 1 = 2 (not allowed); as chows c234 x3 it is Sequence 1 + 1 + 1 = 3. Best reading: 3.
    pytest.param(
        H("c2 c2 c2 c3 c3 c3 c4 c4 c4 b6 b7 b8 d5 d5", "d5", "discard", "W"),
        None,
        3,
        [("Sequence", 1), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 3, "W": -3, "N": 0},
        id="Best reading: chows worth more than pongs",
    ),
    # c222 c333 c444 c666 c88 on N's discard: as chows Chicken 0 + pure 6 + 1 + 1 = 8; as
    # pongs All Pongs 3 + pure 6 + concealed 1 + no flowers 1 = 11. Best: 11. N -11.
    pytest.param(
        H("c2 c2 c2 c3 c3 c3 c4 c4 c4 c6 c6 c6 c8 c8", "c8", "discard", "N"),
        None,
        11,
        [("All Pongs", 3), ("Pure", 6), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 11, "W": 0, "N": -11},
        id="Best reading: pongs worth more than chows",
    ),
    # Winner East, East round. dr dg we pongs, b555, b33, all from the wall: Hidden Treasure
    # would be 10 + self-draw 1 + no flowers 1 = 12; as a basic hand it is All Pongs 3
    # + semi-pure 3 + dr 1 + dg 1 + round wind 1 + seat wind 1 + self-draw 1 + concealed 1
    # + no flowers 1 = 13. The winner gets the better: 13, each pays 13, E +39.
    pytest.param(
        H("dr dr dr dg dg dg we we we b5 b5 b5 b3 b3", "b3", seat="E"),
        None,
        13,
        [
            ("All Pongs", 3),
            (SEMI_PURE, 3),
            (DRAGON.format("dr"), 1),
            (DRAGON.format("dg"), 1),
            (ROUND_WIND.format("we"), 1),
            (SEAT_WIND.format("we"), 1),
            (SELF_DRAW, 1),
            (CONCEALED, 1),
            (NO_FLOWERS, 1),
        ],
        True,
        {"E": 39, "S": -13, "W": -13, "N": -13},
        id="Best hand: a Hidden Treasure worth more as All Pongs",
    ),
    # b222 b444 b666 b888 b99 from the wall: as a basic hand All Pongs 3 + pure 6 + concealed
    # 1 + self-draw 1 + no flowers 1 = 12; Hidden Treasure 10 + self-draw 1 + no flowers 1
    # = 12. Equal: the special hand is named. Each pays 12, S +36.
    pytest.param(
        H("b2 b2 b2 b4 b4 b4 b6 b6 b6 b8 b8 b8 b9 b9", "b9"),
        None,
        12,
        [("Hidden Treasure", 10), (SELF_DRAW, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -12, "S": 36, "W": -12, "N": -12},
        id="Best hand: equal points name the special hand",
    ),
    # The Hidden Treasure tiles won on E's discard are not Hidden Treasure ("win by
    # self-draw"): All Pongs 3 + concealed 1 + no flowers 1 = 5. E -5.
    pytest.param(
        H("b2 b2 b2 c7 c7 c7 d4 d4 d4 b9 b9 b9 c1 c1", "c1", "discard", "E"),
        None,
        5,
        [("All Pongs", 3), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -5, "S": 5, "W": 0, "N": 0},
        id="Hidden Treasure needs self-draw",
    ),
    # With a declared concealed kong it is not Hidden Treasure ("no Kongs"): All Pongs 3
    # + self-draw 1 + concealed 1 + no flowers 1 = 6. Each pays 6, S +18.
    pytest.param(
        H(
            "c7 c7 c7 d4 d4 d4 b9 b9 b9 c1 c1",
            "c1",
            melds=(C("b2 b2 b2 b2"),),
        ),
        None,
        6,
        [("All Pongs", 3), (SELF_DRAW, 1), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -6, "S": 18, "W": -6, "N": -6},
        id="Hidden Treasure has no kongs",
    ),
    # Great Snake tiles with the dr pong exposed: not a special concealed hand. Chicken 0
    # + semi-pure 3 + dr 1 + no flowers 1 = 5. W -5.
    pytest.param(
        H(
            "b1 b2 b3 b4 b5 b6 b7 b8 b9 ws ws",
            "ws",
            "discard",
            "W",
            melds=(X("dr dr dr"),),
        ),
        None,
        5,
        [("Chicken", 0), (SEMI_PURE, 3), (DRAGON.format("dr"), 1), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 5, "W": -5, "N": 0},
        id="Special concealed hands must be concealed",
    ),
    # A special concealed hand with a winning-move item: 7 Pairs won on the last tile of the
    # wall, bonus f1 and s2: 7 Pairs 6 + last tile 1 + self-draw 1 + round flower 1 + seat
    # flower 1 = 10 (no point for the dr and we pairs, none for being concealed). S +30.
    pytest.param(
        H(
            "b1 b1 c4 c4 d7 d7 we we dr dr b5 b5 c9 c9",
            "c9",
            bonus="f1 s2",
            last_tile=True,
        ),
        None,
        10,
        [
            ("7 Pairs", 6),
            (LAST_TILE, 1),
            (SELF_DRAW, 1),
            (ROUND_FLOWER.format("f1"), 1),
            (SEAT_FLOWER.format("s2"), 1),
        ],
        True,
        {"E": -10, "S": 30, "W": -10, "N": -10},
        id="Special concealed hands keep self-draw, flowers and last tile",
    ),
    # "Any seven pairs": four b1 count as two pairs. Self-drawn: 7 Pairs 6 + self-draw 1
    # + no flowers 1 = 8. S +24.
    pytest.param(
        H("b1 b1 b1 b1 c4 c4 d7 d7 we we dr dr c9 c9", "c9"),
        None,
        8,
        [("7 Pairs", 6), (SELF_DRAW, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -8, "S": 24, "W": -8, "N": -8},
        id="7 Pairs: four of a kind is two pairs",
    ),
    # Robbing a kong pays as a discard, the robbed player (W) paying: b123 c456 dg-pong b789
    # c99 concealed, robbing W's b9 kong: Chicken 0 + dg 1 + concealed 1 + no flowers 1 = 3
    # (no self-draw). W -3.
    pytest.param(
        H("b1 b2 b3 c4 c5 c6 dg dg dg b7 b8 b9 c9 c9", "b9", "robbing_kong", "W"),
        None,
        3,
        [("Chicken", 0), (DRAGON.format("dg"), 1), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 3, "W": -3, "N": 0},
        id="Robbing a kong pays as a discard",
    ),
    # Great Snake with the honour pong declared as a concealed kong (dr), self-drawn:
    # Great Snake 10 + self-draw 1 + no flowers 1 = 12 (no point for the dr kong). S +36.
    pytest.param(
        H(
            "b1 b2 b3 b4 b5 b6 b7 b8 b9 ws ws",
            "ws",
            melds=(C("dr dr dr dr"),),
        ),
        None,
        12,
        [("Great Snake", 10), (SELF_DRAW, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -12, "S": 36, "W": -12, "N": -12},
        id="Great Snake with a concealed kong",
    ),
    # last_tile with a robbed kong counts as the last discard: b123 c456 dg-pong b789 c99
    # concealed, robbing W's b9 kong: Chicken 0 + dg 1 + last discard 1 + concealed 1
    # + no flowers 1 = 4. W -4.
    pytest.param(
        H(
            "b1 b2 b3 c4 c5 c6 dg dg dg b7 b8 b9 c9 c9",
            "b9",
            "robbing_kong",
            "W",
            last_tile=True,
        ),
        None,
        4,
        [
            ("Chicken", 0),
            (DRAGON.format("dg"), 1),
            (LAST_DISCARD, 1),
            (CONCEALED, 1),
            (NO_FLOWERS, 1),
        ],
        True,
        {"E": 0, "S": 4, "W": -4, "N": 0},
        id="Last tile with a robbed kong is the last discard",
    ),
    # Heavenly / earthly hands are not in the seed: the Chicken case with first_turn is
    # still 0 + 1 + 1 + 1 = 3, each pays 3.
    pytest.param(
        {**H("b1 b2 b3 c2 c3 c4 c5 c5 c5 d7 d8 d9 b7 b7", "d9"), "first_turn": True},
        None,
        3,
        [("Chicken", 0), (SELF_DRAW, 1), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -3, "S": 9, "W": -3, "N": -3},
        id="First turn scores nothing extra",
    ),
    # Bonus tiles never spoil purity: the Pure hand with f3 and s4 (neither the East round's
    # nor the South seat's): Chicken 0 + pure 6 = 6 (and no No Flowers). N -6.
    pytest.param(
        H(
            "d4 d5 d6 d7 d7 d7 d9 d9 d9 d2 d2",
            "d2",
            "discard",
            "N",
            melds=(X("d1 d2 d3"),),
            bonus="f3 s4",
        ),
        None,
        6,
        [("Chicken", 0), ("Pure", 6)],
        True,
        {"E": 0, "S": 6, "W": 0, "N": -6},
        id="Bonus tiles do not spoil purity",
    ),
]


# ---------------------------------------------------------------------------------------
# Options: min_points, goulash, players

OPTIONS = [
    # min_points 5 (e.g. a three-player table that agreed to it): the Semi-pure hand with
    # Honours (0 + 3 + 1 = 4) may not go out.
    pytest.param(
        H(
            "c1 c2 c3 c4 c5 c6 c7 c8 c9 c2 c2",
            "c5",
            "discard",
            "W",
            melds=(X("wn wn wn"),),
        ),
        {"min_points": 5},
        4,
        [("Chicken", 0), (SEMI_PURE, 3), (NO_FLOWERS, 1)],
        False,
        ZERO,
        id="min_points 5 refuses 4 points",
    ),
    # The hand's own options override the club's: min_points 2 lets the 2-point
    # "Concealed hand" case out: Chicken 0 + concealed 1 + no flowers 1 = 2. W -2.
    pytest.param(
        H(
            "b1 b2 b3 c4 c5 c6 d7 d8 d9 c7 c7 c7 b5 b5",
            "b5",
            "discard",
            "W",
            options={"min_points": 2},
        ),
        {"min_points": 5},
        2,
        [("Chicken", 0), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": 0, "S": 2, "W": -2, "N": 0},
        id="hand option min_points 2 overrides the club's",
    ),
    # Goulash hand, 4 points (the Semi-pure case): under the goulash minimum of 5.
    pytest.param(
        H(
            "c1 c2 c3 c4 c5 c6 c7 c8 c9 c2 c2",
            "c5",
            "discard",
            "W",
            melds=(X("wn wn wn"),),
            options={"goulash": True},
        ),
        None,
        4,
        [("Chicken", 0), (SEMI_PURE, 3), (NO_FLOWERS, 1)],
        False,
        ZERO,
        id="goulash: 4 points may not go out",
    ),
    # Goulash hand, the Pure case (0 + 6 + 1 = 7 >= 5) on N's discard: the winner takes the
    # pot of 4 x 5 = 20 chips, nothing else: S +20 - 5 = +15, everyone else -5.
    pytest.param(
        H(
            "d4 d5 d6 d7 d7 d7 d9 d9 d9 d2 d2",
            "d2",
            "discard",
            "N",
            melds=(X("d1 d2 d3"),),
            options={"goulash": True},
        ),
        None,
        7,
        [("Chicken", 0), ("Pure", 6), (NO_FLOWERS, 1)],
        True,
        {"E": -5, "S": 15, "W": -5, "N": -5},
        id="goulash: the winner takes the pot",
    ),
    # Goulash hand with exactly 5 points (the "Hidden Treasure needs self-draw" hand: All
    # Pongs 3 + concealed 1 + no flowers 1 = 5) on E's discard: allowed; the pot as above,
    # the discarder pays no more than the others.
    pytest.param(
        H(
            "b2 b2 b2 c7 c7 c7 d4 d4 d4 b9 b9 b9 c1 c1",
            "c1",
            "discard",
            "E",
            options={"goulash": True},
        ),
        None,
        5,
        [("All Pongs", 3), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -5, "S": 15, "W": -5, "N": -5},
        id="goulash: exactly 5 points go out",
    ),
    # Three-player table (nobody sits North), the Chicken case self-drawn: 3 points, E and
    # W pay 3 each, S +6, N 0.
    pytest.param(
        H("b1 b2 b3 c2 c3 c4 c5 c5 c5 d7 d8 d9 b7 b7", "d9"),
        {"players": 3},
        3,
        [("Chicken", 0), (SELF_DRAW, 1), (CONCEALED, 1), (NO_FLOWERS, 1)],
        True,
        {"E": -3, "S": 6, "W": -3, "N": 0},
        id="three players: self-drawn, two pay",
    ),
    # Three-player goulash: the pot is 3 x 5 = 15, S nets +10, E and W -5.
    pytest.param(
        H(
            "d4 d5 d6 d7 d7 d7 d9 d9 d9 d2 d2",
            "d2",
            "discard",
            "W",
            melds=(X("d1 d2 d3"),),
            options={"goulash": True},
        ),
        {"players": 3},
        7,
        [("Chicken", 0), ("Pure", 6), (NO_FLOWERS, 1)],
        True,
        {"E": -5, "S": 10, "W": -5, "N": 0},
        id="three players: goulash pot of 15",
    ),
]


@pytest.mark.parametrize(
    ("data", "options", "total", "breakdown", "allowed", "payments"),
    BASIC_HANDS + SPECIAL_HANDS + SPECIAL_CONCEALED_HANDS + EXTRAS + RULINGS + OPTIONS,
)
def test_hand(data, options, total, breakdown, allowed, payments):
    check(data, options, total, breakdown, allowed, payments)


# ---------------------------------------------------------------------------------------
# Kong chips and the goulash pot


@pytest.mark.parametrize(
    ("kind", "seat", "seats", "expected"),
    [
        # Hidden kong: each other player pays 3; 3 x 3 = 9.
        pytest.param(
            "concealed",
            "S",
            ("E", "S", "W", "N"),
            {"E": -3, "S": 9, "W": -3, "N": -3},
            id="concealed kong",
        ),
        # Kong by discard: each pays 2 (the discarder no more); 3 x 2 = 6.
        pytest.param(
            "discard",
            "W",
            ("E", "S", "W", "N"),
            {"E": -2, "S": -2, "W": 6, "N": -2},
            id="kong by discard",
        ),
        # Fourth tile added to an exposed pong: each pays 1; 3 x 1 = 3.
        pytest.param(
            "added", "E", ("E", "S", "W", "N"), {"E": 3, "S": -1, "W": -1, "N": -1}, id="added kong"
        ),
        # Kong to Mahjong: no kong chips.
        pytest.param(
            "replacement_win",
            "N",
            ("E", "S", "W", "N"),
            {"E": 0, "S": 0, "W": 0, "N": 0},
            id="kong whose replacement tile wins",
        ),
        # Three players: hidden kong 2 x 3 = 6.
        pytest.param(
            "concealed",
            "E",
            ("E", "S", "W"),
            {"E": 6, "S": -3, "W": -3, "N": 0},  # nobody sits North
            id="concealed kong, three players",
        ),
    ],
)
def test_kong_payments(kind, seat, seats, expected):
    assert kong_payments(kind, seat, seats) == expected


def test_kong_payments_default_seats():
    # Added kong by N: 3 x 1 = 3.
    assert kong_payments("added", "N") == {"E": -1, "S": -1, "W": -1, "N": 3}


@pytest.mark.parametrize(
    ("kind", "seat", "seats", "words"),
    [
        pytest.param("exposed", "S", ("E", "S", "W", "N"), "exposed", id="unknown kind"),
        pytest.param("concealed", "N", ("E", "S", "W"), "N", id="seat not at the table"),
    ],
)
def test_kong_payments_errors(kind, seat, seats, words):
    with pytest.raises(EngineError, match=words):
        kong_payments(kind, seat, seats)


def test_goulash_payments():
    # 4 x 5 = 20 in the pot; the winner put in 5 of them: +15, others -5.
    assert goulash_payments("W") == {"E": -5, "S": -5, "W": 15, "N": -5}
    # Three players: 3 x 5 = 15, winner +10.
    assert goulash_payments("E", ("E", "S", "W")) == {"E": 10, "S": -5, "W": -5, "N": 0}


# ---------------------------------------------------------------------------------------
# Data, overrides and errors


def test_value_defaults_are_the_seed_tables():
    assert VALUE_DEFAULTS == {
        "basic.chicken.points": 0,
        "basic.sequence.points": 1,
        "basic.all_pongs.points": 3,
        "basic.semi_pure.points": 3,
        "basic.pure.points": 6,
        "special.big_three_dragons.points": 6,
        "special.little_winds.points": 8,
        "special.big_four_winds.points": 10,
        "special.all_honours.points": 10,
        "special.all_terminals.points": 10,
        "special.all_kongs.points": 10,
        "special.jade_dragon.points": 10,
        "special.ruby_dragon.points": 10,
        "special.pearl_dragon.points": 10,
        "concealed.seven_pairs.points": 6,
        "concealed.double_knitting.points": 6,
        "concealed.triple_knitting.points": 6,
        "concealed.nine_gates.points": 10,
        "concealed.thirteen_orphans.points": 10,
        "concealed.hidden_treasure.points": 10,
        "concealed.little_snake.points": 10,
        "concealed.great_snake.points": 10,
        "extra.dragon_pong.points": 1,
        "extra.round_wind_pong.points": 1,
        "extra.seat_wind_pong.points": 1,
        "extra.last_tile.points": 1,
        "extra.last_discard.points": 1,
        "extra.replacement.points": 1,
        "extra.self_draw.points": 1,
        "extra.concealed_hand.points": 1,
        "extra.no_flowers.points": 1,
        "extra.red_bouquet.points": 1,
        "extra.blue_bouquet.points": 1,
        "extra.round_flower.points": 1,
        "extra.seat_flower.points": 1,
        "payment.chips_per_point": 1,
        "kong.concealed.chips": 3,
        "kong.discard.chips": 2,
        "kong.added.chips": 1,
        "goulash.stake.chips": 5,
        "goulash.min_points": 5,
    }
    assert OPTION_DEFAULTS == {"min_points": 3, "goulash": False, "players": 4}


def test_club_override_of_a_value():
    # A club values Pure at 7: the Pure case becomes Chicken 0 + 7 + no flowers 1 = 8.
    club = RULESET.with_overrides(values={"basic.pure.points": 7})
    data = H("d4 d5 d6 d7 d7 d7 d9 d9 d9 d2 d2", "d2", "discard", "N", melds=(X("d1 d2 d3"),))
    result = score(data, club)
    assert result.total == 8
    assert dict(result.payments) == {"E": 0, "S": 8, "W": 0, "N": -8}
    # The rule set itself is unchanged: 7.
    assert score(data, "u3a").total == 7


def test_club_override_of_an_option():
    # min_points 0: the 0-point Chicken may go out, and pays nothing (0 chips).
    club = RULESET.with_overrides(options={"min_points": 0})
    data = H(
        "c2 c3 c4 c5 c5 c5 d7 d8 d9 b7 b7",
        "d9",
        "discard",
        "W",
        melds=(X("b1 b2 b3"),),
        bonus="f3",
    )
    result = score(data, club)
    assert result.total == 0
    assert result.allowed is True
    assert dict(result.payments) == ZERO


@pytest.mark.parametrize(
    ("options", "words"),
    [
        pytest.param({"players": 2}, "players", id="players 2"),
        pytest.param({"min_points": -3}, "min_points", id="negative min_points"),
        pytest.param({"goulash": "maybe"}, "goulash", id="goulash not true or false"),
    ],
)
def test_bad_club_settings_are_refused_when_saved(options, words):
    with pytest.raises(EngineError, match=words):
        RULESET.with_overrides(options=options)


def test_command_line_strings_are_converted():
    # --option players=3 --option goulash=true: the Pure case (7 points) on W's discard is a
    # three-player goulash hand: pot 3 x 5 = 15, S +10, E and W -5.
    club = RULESET.with_overrides(options={"players": "3", "goulash": "true"})
    data = H("d4 d5 d6 d7 d7 d7 d9 d9 d9 d2 d2", "d2", "discard", "W", melds=(X("d1 d2 d3"),))
    assert dict(score(data, club).payments) == {"E": -5, "S": 10, "W": -5, "N": 0}


@pytest.mark.parametrize(
    ("data", "options", "words"),
    [
        pytest.param(
            H("b1 b2 b3 c2 c3 c4 c5 c5 c5 d7 d8 d9 b7 b8", "d9"),
            None,
            "complete",
            id="not a complete hand",
        ),
        pytest.param(
            H("b1 b2 b3 c2 c3 c4 c5 c5 c5 d7 d8 d9 b7 b7", "d9"),
            {"minimum": 3},
            "minimum",
            id="unknown option",
        ),
        pytest.param(
            H("b1 b2 b3 c2 c3 c4 c5 c5 c5 d7 d8 d9 b7 b7", "d9"),
            {"players": 5},
            "players",
            id="players must be 3 or 4",
        ),
        pytest.param(
            H("b1 b2 b3 c2 c3 c4 c5 c5 c5 d7 d8 d9 b7 b7", "d9"),
            {"min_points": -1},
            "min_points",
            id="min_points must not be negative",
        ),
        pytest.param(
            H("b1 b2 b3 c2 c3 c4 c5 c5 c5 d7 d8 d9 b7 b7", "d9", seat="N"),
            {"players": 3},
            "nobody sits North",
            id="three players: nobody sits North",
        ),
        pytest.param(
            H("b1 b2 b3 c2 c3 c4 c5 c5 c5 d7 d8 d9 b7 b7", "d9", "discard", "N"),
            {"players": 3},
            "nobody sits North",
            id="three players: North cannot discard",
        ),
    ],
)
def test_errors(data, options, words):
    with pytest.raises(EngineError, match=words):
        score(data, "u3a", options)
