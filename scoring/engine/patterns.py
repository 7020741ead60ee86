"""Pattern predicates shared by the rule sets: ``f(hand, reading) -> bool`` (or a count).

Predicates about the tiles (simples, flushes, honours, terminals) look at every tile of the
hand, melds included, whatever the shape; predicates about sets look at the reading's groups
and are False for shapes without groups (thirteen orphans, knitting, little snake).
Bonus tiles never count (rulings).
"""

from __future__ import annotations

from .decompose import Group, Reading
from .hand import Hand
from .tiles import (
    DRAGON_TILES,
    GREEN,
    HONOURS,
    MAJORS,
    RED,
    SIMPLES,
    SUIT_TILES,
    TERMINALS,
    WHITE,
    WIND_TILES,
)


def _suits(tiles) -> set[int]:
    return {t // 9 for t in tiles if t < 27}


def sets_of(reading: Reading) -> tuple[Group, ...]:
    """The chows, pongs and kongs of the reading."""
    return tuple(g for g in reading.groups if g.kind != "pair")


def pair_of(reading: Reading) -> Group | None:
    """The pair of a standard reading, else None."""
    return reading.pair


def seven_pairs_with_quad(reading: Reading) -> bool:
    """Seven pairs that use four of a kind as two pairs."""
    return reading.shape == "seven_pairs" and len({g.tile for g in reading.groups}) < 7


def all_simples(hand: Hand, reading: Reading) -> bool:
    """Only suit tiles 2-8."""
    return hand.distinct_tiles <= SIMPLES


def all_chows(hand: Hand, reading: Reading) -> bool:
    """A standard hand whose four sets are all chows (the pair is free)."""
    return reading.shape == "standard" and all(
        g.kind == "chow" for g in reading.groups if g.kind != "pair"
    )


def all_pongs(hand: Hand, reading: Reading) -> bool:
    """A standard hand with no chow; kongs count as pongs."""
    return reading.shape == "standard" and all(g.kind != "chow" for g in reading.groups)


def one_suit_only(hand: Hand, reading: Reading) -> bool:
    """Every tile of one suit, no honours."""
    tiles = hand.distinct_tiles
    return tiles <= SUIT_TILES and len(_suits(tiles)) == 1


def one_suit_with_honours(hand: Hand, reading: Reading) -> bool:
    """One suit plus honours, at least one of each."""
    tiles = hand.distinct_tiles
    return len(_suits(tiles)) == 1 and not tiles.isdisjoint(HONOURS)


def all_honours(hand: Hand, reading: Reading) -> bool:
    return hand.distinct_tiles <= HONOURS


def all_terminals(hand: Hand, reading: Reading) -> bool:
    """Only suit 1s and 9s."""
    return hand.distinct_tiles <= TERMINALS


def terminals_and_honours_only(hand: Hand, reading: Reading) -> bool:
    """Only terminals and honours, with both present (the mixed hand)."""
    tiles = hand.distinct_tiles
    return tiles <= MAJORS and not tiles.isdisjoint(TERMINALS) and not tiles.isdisjoint(HONOURS)


def _group_has_major(g: Group) -> bool:
    if g.kind == "chow":
        return g.tile % 9 in (0, 6)  # 1-2-3 or 7-8-9
    return g.tile in MAJORS


def terminal_or_honour_in_each_group(hand: Hand, reading: Reading) -> bool:
    """Every set and the pair hold a terminal or an honour (shapes with groups only)."""
    return bool(reading.groups) and all(_group_has_major(g) for g in reading.groups)


def dragon_pongs(reading: Reading) -> int:
    """Pongs and kongs of dragons."""
    return sum(1 for g in reading.groups if g.kind in ("pong", "kong") and g.tile in DRAGON_TILES)


def wind_pongs(reading: Reading) -> int:
    """Pongs and kongs of winds."""
    return sum(1 for g in reading.groups if g.kind in ("pong", "kong") and g.tile in WIND_TILES)


def kongs(reading: Reading) -> int:
    return sum(1 for g in reading.groups if g.kind == "kong")


def concealed_pongs(reading: Reading) -> int:
    """Pongs and kongs counted as concealed (a set completed by a winning discard is not)."""
    return sum(1 for g in reading.groups if g.kind in ("pong", "kong") and g.concealed)


def _pair_in(reading: Reading, tiles: frozenset[int]) -> bool:
    pair = reading.pair
    return pair is not None and pair.tile in tiles


def little_three_dragons(hand: Hand, reading: Reading) -> bool:
    """Two dragon pongs/kongs and a pair of the third dragon."""
    return dragon_pongs(reading) == 2 and _pair_in(reading, DRAGON_TILES)


def big_three_dragons(hand: Hand, reading: Reading) -> bool:
    return dragon_pongs(reading) == 3


def little_four_winds(hand: Hand, reading: Reading) -> bool:
    """Three wind pongs/kongs and a pair of the fourth wind."""
    return wind_pongs(reading) == 3 and _pair_in(reading, WIND_TILES)


def big_four_winds(hand: Hand, reading: Reading) -> bool:
    return wind_pongs(reading) == 4


def nine_gates(hand: Hand, reading: Reading) -> bool:
    """Concealed 1112345678999 of one suit plus any tile of that suit, no meld at all."""
    if hand.melds or reading.shape != "standard":
        return False
    tiles = hand.concealed
    suit = tiles[0] // 9
    if tiles[0] >= 27 or tiles[-1] >= 27 or tiles[-1] // 9 != suit:
        return False
    counts = [0] * 9
    base = suit * 9
    for t in tiles:
        counts[t - base] += 1
    return counts[0] >= 3 and counts[8] >= 3 and all(counts[n] >= 1 for n in range(1, 8))


def three_consecutive_chows(hand: Hand, reading: Reading) -> bool:
    """Chows 1-2-3, 4-5-6 and 7-8-9 of one suit."""
    chows = {g.tile for g in reading.groups if g.kind == "chow"}
    return any({b, b + 3, b + 6} <= chows for b in (0, 9, 18))


def _dragon_and_one_suit(hand: Hand, reading: Reading, dragon: int, suit: int, chows: bool):
    """A pong/kong of `dragon`, every other tile of `suit` (0 bamboo, 1 characters, 2 dots);
    with `chows` False the other sets must be pongs or kongs too."""
    if not any(g.tile == dragon and g.is_pong_or_kong for g in reading.groups):
        return False
    if not chows and any(g.kind == "chow" for g in reading.groups):
        return False
    return all(t == dragon or (t < 27 and t // 9 == suit) for t in hand.distinct_tiles)


def jade_dragon(hand: Hand, reading: Reading, *, chows: bool = True) -> bool:
    """Green dragon pong/kong, the rest bamboo."""
    return _dragon_and_one_suit(hand, reading, GREEN, 0, chows)


def ruby_dragon(hand: Hand, reading: Reading, *, chows: bool = True) -> bool:
    """Red dragon pong/kong, the rest characters."""
    return _dragon_and_one_suit(hand, reading, RED, 1, chows)


def pearl_dragon(hand: Hand, reading: Reading, *, chows: bool = True) -> bool:
    """White dragon pong/kong, the rest dots (circles)."""
    return _dragon_and_one_suit(hand, reading, WHITE, 2, chows)
