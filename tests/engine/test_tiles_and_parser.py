"""Tile codes, predicates and `parse_hand` validation."""

import re

import pytest

from scoring.engine import EngineError, parse_hand
from scoring.engine import tiles as T
from scoring.engine.hand import Meld


def hand(**changes):
    """A valid hand (the contract's example) with some fields changed; None removes one."""
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
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


# -- tiles ---------------------------------------------------------------------------


def test_tile_numbering_matches_the_design():
    assert [
        T.parse_tile(c) for c in ("b1", "b9", "c1", "d9", "we", "wn", "dr", "dw", "f1", "s4")
    ] == [
        0,
        8,
        9,
        26,
        27,
        30,
        31,
        33,
        34,
        41,
    ]


def test_codes_round_trip_and_are_lower_case():
    for tile in range(42):
        assert T.parse_tile(T.code(tile)) == tile
        assert T.code(tile) == T.code(tile).lower()


@pytest.mark.parametrize("text", ["B1", "We", "wE", "DR", " c5 "])
def test_codes_are_case_insensitive(text):
    assert T.code(T.parse_tile(text)) == text.strip().lower()


@pytest.mark.parametrize("bad", ["x7", "b0", "b10", "", "f5", "w"])
def test_unknown_code_is_named(bad):
    with pytest.raises(EngineError, match=f"Tile '{bad}' is not a tile code"):
        T.parse_tile(bad)


def test_parse_tile_rejects_non_text():
    with pytest.raises(EngineError, match="written as text"):
        T.parse_tile(5)


def test_parse_tiles_keeps_order_and_names_bad_code():
    assert T.parse_tiles("c2  b1\tdr") == (10, 0, 31)
    with pytest.raises(EngineError, match="'zz'"):
        T.parse_tiles("b1 zz")
    with pytest.raises(EngineError, match="string of codes"):
        T.parse_tiles(["b1"])


def test_predicates_agree_with_their_sets():
    for t in range(34):
        assert T.is_suit(t) == (t in T.SUIT_TILES)
        assert T.is_honour(t) == (t in T.HONOURS)
        assert T.is_wind(t) == (t in T.WIND_TILES)
        assert T.is_dragon(t) == (t in T.DRAGON_TILES)
        assert T.is_terminal(t) == (t in T.TERMINALS)
        assert T.is_simple(t) == (t in T.SIMPLES)
        assert T.is_major(t) == (T.is_terminal(t) or T.is_honour(t))
        assert not T.is_bonus(t)
    assert {0, 8, 9, 17, 18, 26} == T.TERMINALS
    assert len(T.SIMPLES) == 21 and len(T.HONOURS) == 7 and len(T.MAJORS) == 13


def test_suit_number_and_bonus_numbers():
    assert (T.suit_of(T.parse_tile("c7")), T.number_of(T.parse_tile("c7"))) == (1, 7)
    assert T.suit_of(T.parse_tile("we")) is None and T.number_of(T.parse_tile("dr")) is None
    assert [T.bonus_number(t) for t in T.FLOWERS + T.SEASONS] == [1, 2, 3, 4] * 2
    assert all(T.is_flower(t) for t in T.FLOWERS) and all(T.is_season(t) for t in T.SEASONS)
    assert not T.is_flower(T.SEASONS[0])
    assert T.WIND_TILE["W"] == T.parse_tile("ww") and T.WIND_NUMBER["N"] == 4
    with pytest.raises(EngineError):
        T.bonus_number(0)


# -- parse_hand: the good path -------------------------------------------------------


def test_contract_example_parses():
    h = parse_hand(hand())
    assert h.concealed == tuple(sorted(T.parse_tiles("b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr")))
    assert h.melds == (Meld("pong", T.parse_tile("ww"), False),)
    assert h.winning_tile == T.parse_tile("d9")
    assert (h.won_by, h.discarder, h.seat_wind, h.prevailing_wind, h.dealer) == (
        "discard",
        "N",
        "S",
        "E",
        "E",
    )
    assert h.bonus == (T.parse_tile("f2"), T.parse_tile("s3"))
    assert not h.self_drawn and not h.is_concealed and not h.is_dealer
    assert len(h.all_tiles) == 14 and h.all_tiles == tuple(sorted(h.all_tiles))


def test_defaults_for_optional_fields():
    h = parse_hand(
        hand(
            melds=None,
            tiles="b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr ww ww ww",
            dealer=None,
            bonus=None,
            last_tile=None,
            first_turn=None,
            options=None,
            won_by="wall",
            discarder=None,
        )
    )
    assert (h.melds, h.dealer, h.bonus, h.last_tile, h.first_turn, dict(h.options)) == (
        (),
        "E",
        (),
        False,
        False,
        {},
    )
    assert h.self_drawn and h.is_concealed


def test_meld_kinds_and_concealed_kong():
    h = parse_hand(
        hand(
            tiles="c5 c5 c5 d7 d8 d9 dr dr",
            melds=[{"tiles": "b3 b1 b2"}, {"tiles": "ww ww ww ww", "concealed": True}],
        )
    )
    assert h.melds == (Meld("chow", 0, False), Meld("kong", T.parse_tile("ww"), True))
    assert h.is_concealed is False  # the exposed chow spoils it
    assert h.kong_count == 1 and len(h.all_tiles) == 15


def test_only_concealed_kongs_keep_the_hand_concealed():
    h = parse_hand(
        hand(
            tiles="b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr",
            melds=[{"tiles": "ww ww ww ww", "concealed": True}],
        )
    )
    assert h.is_concealed


def test_meld_order_and_tile_order_do_not_matter():
    a = parse_hand(
        hand(tiles="c5 c5 d7 d8 d9 dr dr c5", melds=[{"tiles": "ww ww ww"}, {"tiles": "b1 b2 b3"}])
    )
    b = parse_hand(
        hand(tiles="dr c5 d9 d8 c5 d7 dr c5", melds=[{"tiles": "b2 b3 b1"}, {"tiles": "ww ww ww"}])
    )
    assert a == b


def test_case_insensitive_winds_and_won_by():
    h = parse_hand(hand(seat_wind="s", prevailing_wind="e", discarder="n", won_by="Discard"))
    assert (h.seat_wind, h.prevailing_wind, h.discarder, h.won_by) == ("S", "E", "N", "discard")


def test_dealer_flag():
    assert parse_hand(hand(seat_wind="E", discarder="N")).is_dealer


# -- parse_hand: every error names the culprit -----------------------------------------

ERRORS = [
    ("not an object", ["b1"], "must be a JSON object"),
    ("unknown field", hand(winning="d9"), "unknown field 'winning'"),
    ("no tiles", hand(tiles=None), "no 'tiles'"),
    ("tiles not a string", hand(tiles=["b1"]), "'tiles' must be a string"),
    ("bad code", hand(tiles="b1 b2 b3 c5 c5 c5 d7 d8 d9 dr x7"), "Tile 'x7' in 'tiles'"),
    (
        "bonus in tiles",
        hand(tiles="b1 b2 b3 c5 c5 c5 d7 d8 d9 dr f1"),
        "Bonus tile f1 is in 'tiles'",
    ),
    ("melds not a list", hand(melds="ww ww ww"), "'melds' must be a list"),
    ("meld not an object", hand(melds=["ww ww ww"]), "Meld 1 must be an object"),
    ("meld without tiles", hand(melds=[{"concealed": False}]), "Meld 1 has no 'tiles'"),
    ("meld unknown field", hand(melds=[{"tiles": "ww ww ww", "open": 1}]), "unknown field 'open'"),
    (
        "meld concealed not bool",
        hand(melds=[{"tiles": "ww ww ww", "concealed": "no"}]),
        "'concealed' of meld 'ww ww ww' must be true or false",
    ),
    ("meld not a set", hand(melds=[{"tiles": "b1 b2 b4"}]), "Meld 'b1 b2 b4' is not a set"),
    ("honour chow", hand(melds=[{"tiles": "we ws ww"}]), "Meld 'we ws ww' is not a set"),
    (
        "chow across suits",
        hand(melds=[{"tiles": "b8 b9 c1"}]),
        "Meld 'b8 b9 c1' is not a set: a chow is three suit tiles in a row, all of one suit",
    ),
    ("bonus in meld", hand(melds=[{"tiles": "f1 f1 f1"}]), "Bonus tile f1 is in meld 'f1 f1 f1'"),
    (
        "concealed pong",
        hand(melds=[{"tiles": "ww ww ww", "concealed": True}]),
        "only a kong can be declared concealed",
    ),
    (
        "concealed chow",
        hand(
            tiles="c5 c5 c5 d7 d8 d9 dr dr ww ww ww",
            melds=[{"tiles": "b1 b2 b3", "concealed": True}],
        ),
        "only a kong can be declared concealed",
    ),
    ("no winning tile", hand(winning_tile=None), "no 'winning_tile'"),
    ("winning tile not a string", hand(winning_tile=26), "'winning_tile' must be one tile code"),
    ("two winning tiles", hand(winning_tile="d9 d8"), "must be one tile code"),
    ("winning tile bonus", hand(winning_tile="f2"), "winning tile f2 is a bonus tile"),
    ("winning tile absent", hand(winning_tile="c1"), "winning tile c1 is not among 'tiles'"),
    ("winning tile only in meld", hand(winning_tile="ww"), "winning tile ww is not among 'tiles'"),
    ("no won_by", hand(won_by=None), "no 'won_by'"),
    (
        "bad won_by",
        hand(won_by="luck"),
        "'won_by' must be wall, replacement, discard or robbing_kong",
    ),
    ("won_by wrong type", hand(won_by=3), "'won_by' must be"),
    ("discard without discarder", hand(discarder=None), "needs 'discarder'"),
    (
        "robbing without discarder",
        hand(won_by="robbing_kong", discarder=None),
        "whose kong was robbed",
    ),
    ("discarder is winner", hand(discarder="S"), "The discarder (S) is the winner's own seat"),
    (
        "discarder on self draw",
        hand(won_by="wall"),
        "'discarder' is 'N' but the hand was self-drawn",
    ),
    ("bad discarder", hand(discarder="X"), "'discarder' must be a wind letter"),
    ("no seat wind", hand(seat_wind=None), "no 'seat_wind'"),
    ("bad seat wind", hand(seat_wind="East"), "'seat_wind' must be a wind letter"),
    ("bad prevailing wind", hand(prevailing_wind=1), "'prevailing_wind' must be a wind letter"),
    ("bad dealer", hand(dealer="Q"), "'dealer' must be a wind letter"),
    ("bonus not a string", hand(bonus=["f1"]), "'bonus' must be a string"),
    ("suit tile as bonus", hand(bonus="f1 b1"), "b1 in 'bonus' is not a flower or season"),
    ("bonus twice", hand(bonus="f2 F2"), "Bonus tile f2 is listed twice"),
    ("last_tile not bool", hand(last_tile="yes"), "'last_tile' must be true or false"),
    ("first_turn not bool", hand(first_turn=1), "'first_turn' must be true or false"),
    ("options not object", hand(options=[1]), "'options' must be an object"),
    (
        "fifth tile",
        hand(tiles="b1 b2 b3 c5 c5 c5 c5 c5 d9 dr dr", winning_tile="d9"),
        "There are 5 of c5 in this hand; a set has only 4 of each tile.",
    ),
    (
        "fifth tile across meld",
        hand(tiles="b1 b2 b3 c5 c5 c5 d7 d8 d9 ww ww", winning_tile="d9"),
        "There are 5 of ww in this hand",
    ),
    (
        "too few tiles",
        hand(tiles="b1 b2 b3 c5 c5 c5 d7 d8 d9 dr"),
        re.compile(
            r"This hand has 13 tiles \(10 in 'tiles' and 3 in melds\); a winning hand has 14 \(14\)"
        ),
    ),
    (
        "kong without replacement",
        hand(
            tiles="b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr",
            melds=[{"tiles": "ww ww ww ww"}],
            winning_tile="d9",
        ),
        None,
    ),  # valid: 11 + 4 = 15 = 14 + 1 kong
    (
        "kong counted",
        hand(tiles="b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr dr", melds=[{"tiles": "ww ww ww ww"}]),
        re.compile(r"has 16 tiles .* 14 plus 1 for the kong \(15\)"),
    ),
    (
        "robbed tile held twice",
        hand(tiles="b1 b2 b3 c5 c5 c5 d8 d8 d9 d9 d9", won_by="robbing_kong"),
        "robbed kong's tile d9 came from another player's pong",
    ),
]


@pytest.mark.parametrize(("data", "message"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_invalid_hands_are_refused_with_a_named_reason(data, message):
    """`message` is a substring of the error, or a compiled pattern searched in it."""
    if message is None:
        parse_hand(data)
        return
    with pytest.raises(EngineError) as info:
        parse_hand(data)
    text = str(info.value)
    if isinstance(message, re.Pattern):
        assert message.search(text), text
    else:
        assert message in text


def test_robbing_a_kong_with_one_copy_is_fine():
    h = parse_hand(hand(won_by="robbing_kong", discarder="W"))
    assert h.won_by == "robbing_kong" and h.discarder == "W"


def test_empty_discarder_counts_as_absent_on_self_draw():
    assert parse_hand(hand(won_by="wall", discarder="")).discarder is None
    assert parse_hand(hand(won_by="replacement", discarder=None)).discarder is None


def test_error_messages_are_short_for_huge_values():
    with pytest.raises(EngineError) as info:
        parse_hand(hand(tiles=list(range(10_000))))
    assert len(str(info.value)) < 200
