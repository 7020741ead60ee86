"""Every reading of a hand: the ways its tiles can be grouped into a winning shape.

Speed matters (the CLI scores tens of thousands of hands a second), so the concealed tiles
are split per suit, each suit's 9 counts decomposed once and memoised, and honours read
directly (they only form pongs and pairs).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from operator import itemgetter

from .hand import Hand
from .shapes import special_shapes


@dataclass(frozen=True, slots=True)
class Group:
    kind: str  # "chow" | "pong" | "kong" | "pair"
    tile: int  # lowest tile
    # For scoring: False for exposed melds AND for the group completed by a winning
    # discard / robbed kong (rulings: that set counts as exposed).
    concealed: bool
    declared: bool  # it was a declared meld
    winning: bool  # the winning tile sits in this group (in this reading)

    @property
    def tiles(self) -> tuple[int, ...]:
        t = self.tile
        if self.kind == "chow":
            return (t, t + 1, t + 2)
        return (t,) * {"pair": 2, "pong": 3, "kong": 4}[self.kind]

    @property
    def is_set(self) -> bool:
        return self.kind != "pair"

    @property
    def is_pong_or_kong(self) -> bool:
        return self.kind == "pong" or self.kind == "kong"


@dataclass(frozen=True, slots=True, init=False)
class Reading:
    shape: str  # "standard" | "seven_pairs" | "thirteen_orphans" | "double_knitting" | ...
    groups: tuple[Group, ...]  # declared melds first, then concealed groups, sorted

    def __init__(self, shape: str, groups: tuple[Group, ...]) -> None:
        # Written out: slot setters cost half of frozen dataclass assignment.
        _set_reading_shape(self, shape)
        _set_reading_groups(self, groups)

    @property
    def sets(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind != "pair")

    @property
    def pair(self) -> Group | None:
        """The pair of a standard reading (None for other shapes)."""
        if self.shape != "standard":
            return None
        for g in self.groups:
            if g.kind == "pair":
                return g
        return None

    @property
    def winning_group(self) -> Group | None:
        for g in self.groups:
            if g.winning:
                return g
        return None


_set_reading_shape = Reading.__dict__["shape"].__set__
_set_reading_groups = Reading.__dict__["groups"].__set__

# Groups are interned: a few hundred distinct values cover every hand.
_GROUPS: dict[tuple, Group] = {}


def _group(kind: str, tile: int, concealed: bool, declared: bool, winning: bool) -> Group:
    key = (kind, tile, concealed, declared, winning)
    group = _GROUPS.get(key)
    if group is None:
        group = _GROUPS[key] = Group(kind, tile, concealed, declared, winning)
    return group


@lru_cache(maxsize=1 << 16)
def _local_splits(
    counts: tuple[int, ...], with_pair: bool
) -> frozenset[tuple[tuple[str, int], ...]]:
    """All ways to split one suit's 9 counts into pongs and chows (and one pair if asked).

    Groups are (kind, index 0-8), each split sorted, so equal splits reached in a different
    order collapse into one.
    """
    i = 0
    while i < 9 and counts[i] == 0:
        i += 1
    if i == 9:
        return frozenset(((),)) if not with_pair else frozenset()
    found: set[tuple[tuple[str, int], ...]] = set()
    c = counts[i]
    if c >= 3:
        rest = counts[:i] + (c - 3,) + counts[i + 1 :]
        for sub in _local_splits(rest, with_pair):
            found.add(tuple(sorted((("pong", i), *sub))))
    if i <= 6 and counts[i + 1] and counts[i + 2]:
        rest = counts[:i] + (c - 1, counts[i + 1] - 1, counts[i + 2] - 1) + counts[i + 3 :]
        for sub in _local_splits(rest, with_pair):
            found.add(tuple(sorted((("chow", i), *sub))))
    if with_pair and c >= 2:
        rest = counts[:i] + (c - 2,) + counts[i + 1 :]
        for sub in _local_splits(rest, False):
            found.add(tuple(sorted((("pair", i), *sub))))
    return frozenset(found)


def _variants_of(base: int, splits) -> tuple[tuple[tuple[Group, ...], Group | None], ...]:
    """(sets, pair) per split, as concealed non-winning Groups with real tiles."""
    out = []
    for split in sorted(splits):
        sets = []
        pair = None
        for kind, i in sorted(split, key=_BY_INDEX):  # sets by tile
            if kind == "pair":
                pair = _group("pair", base + i, True, False, False)
            else:
                sets.append(_group(kind, base + i, True, False, False))
        out.append((tuple(sets), pair))
    return tuple(out)


_BY_INDEX = itemgetter(1, 0)


@lru_cache(maxsize=1 << 16)
def _suit_variants(base: int, counts: tuple[int, ...]):
    """Every (sets, pair) of one suit's 9 counts; () if they cannot be split."""
    remainder = sum(counts) % 3
    if remainder == 1:
        return ()
    return _variants_of(base, _local_splits(counts, remainder == 2))


@lru_cache(maxsize=1 << 12)
def _honour_variants(counts: tuple[int, ...]):
    """Honours form only pongs (3) and pairs (2); 1 or 4 concealed cannot be sets
    (a kong must be declared)."""
    split = []
    for i, c in enumerate(counts):
        if c == 3:
            split.append(("pong", i))
        elif c == 2:
            split.append(("pair", i))
        elif c:
            return ()
    if sum(1 for kind, _ in split if kind == "pair") > 1:
        return ()
    return _variants_of(27, (tuple(split),))


def _place(variants, winning_tile: int, exposed_win: bool):
    """The variants once per distinct group the winning tile can sit in, that group marked
    winning (and not concealed after a discard / robbed kong)."""
    out = []
    concealed = not exposed_win
    for sets, pair in variants:
        last = None  # sets are sorted and interned: equal groups are the same, side by side
        for index, g in enumerate(sets):
            t = g.tile
            if g is not last and (
                t == winning_tile or (g.kind == "chow" and t < winning_tile <= t + 2)
            ):
                last = g
                winner = _group(g.kind, t, concealed, False, True)
                out.append((sets[:index] + (winner,) + sets[index + 1 :], pair))
        if pair is not None and pair.tile == winning_tile:
            out.append((sets, _group("pair", winning_tile, concealed, False, True)))
    return tuple(out)


# Each part of the concealed tiles (one suit, or the honours) is read once: its sorted tiles
# -> variants, and with the winning tile placed, (tiles, winning tile, exposed win) ->
# variants. 20,000 random hands hold only a few thousand distinct parts. Cleared when full,
# so memory stays flat on endless input.
_PARTS: dict[tuple[int, ...], tuple] = {}
_PLACED: dict[tuple, tuple] = {}
_CACHE_LIMIT = 1 << 16
_NO_WIN = (-1, False)


def _part_variants(tiles: tuple[int, ...], base: int):
    """Variants of one part (sorted tiles of one suit, or honours with base 27)."""
    variants = _PARTS.get(tiles)
    if variants is None:
        counts = [0] * 9
        for t in tiles:
            counts[t - base] += 1
        if base < 27:
            variants = _suit_variants(base, tuple(counts))
        else:
            variants = _honour_variants(tuple(counts[:7]))
        if len(_PARTS) >= _CACHE_LIMIT:
            _PARTS.clear()
        _PARTS[tiles] = variants
    return variants


def _placed_variants(tiles: tuple[int, ...], base: int, winning_tile: int, exposed_win: bool):
    """Variants of the part holding the winning tile, the winning group marked."""
    key = (tiles, winning_tile, exposed_win)
    variants = _PLACED.get(key)
    if variants is None:
        variants = _part_variants(tiles, base)
        if variants:
            variants = _place(variants, winning_tile, exposed_win)
        if len(_PLACED) >= _CACHE_LIMIT:
            _PLACED.clear()
        _PLACED[key] = variants
    return variants


def _standard_readings(
    concealed: tuple[int, ...], declared: tuple[Group, ...], winning_tile: int, exposed_win: bool
) -> list[Reading]:
    # The tiles are sorted, so each suit (and the honours) is one slice.
    ends = (bisect_left(concealed, 9), bisect_left(concealed, 18), bisect_left(concealed, 27))
    winning_base = winning_tile - winning_tile % 9
    parts = []
    pairs = 0
    single = True
    start = 0
    for base, stop in zip(_BASES, (*ends, len(concealed)), strict=True):
        if stop == start:
            continue
        tiles = concealed[start:stop]
        start = stop
        if base == winning_base:
            variants = _placed_variants(tiles, base, winning_tile, exposed_win)
        else:
            variants = _part_variants(tiles, base)
        if not variants:
            return []
        if variants[0][1] is not None:
            pairs += 1
        if len(variants) > 1:
            single = False
        parts.append(variants)
    if pairs != 1:
        return []
    combos = [tuple(p[0] for p in parts)] if single else product(*parts)
    found = []
    for combo in combos:
        groups = list(declared)
        pair = None
        for sets, part_pair in combo:
            groups += sets
            if part_pair is not None:
                pair = part_pair
        groups.append(pair)
        found.append(Reading("standard", tuple(groups)))
    return found


_BASES = (0, 9, 18, 27)


def _seven_pairs_readings(counts: list[int], winning_tile: int, exposed_win: bool) -> list[Reading]:
    groups = []
    for t in range(34):
        for _ in range(counts[t] // 2):
            if t == winning_tile and not any(g.winning for g in groups):
                groups.append(_group("pair", t, not exposed_win, False, True))
            else:
                groups.append(_group("pair", t, True, False, False))
    return [Reading("seven_pairs", tuple(groups))]


def readings(hand: Hand) -> tuple[Reading, ...]:
    """Every reading of the hand (deduplicated); () when it is not a winning shape.

    Groups of a standard reading: declared melds (in the hand's order), then the concealed
    sets by tile, then the pair.
    """
    concealed = hand.concealed
    winning_tile = hand.winning_tile
    won_by = hand.won_by
    exposed_win = won_by == "discard" or won_by == "robbing_kong"
    melds = hand.melds
    declared = tuple([_group(m.kind, m.tile, m.concealed, True, False) for m in melds])
    found = _standard_readings(concealed, declared, winning_tile, exposed_win)
    if not melds and len(concealed) == 14:
        counts = [0] * 34
        for t in concealed:
            counts[t] += 1
        for shape in special_shapes(counts):
            if shape == "seven_pairs":
                found.extend(_seven_pairs_readings(counts, winning_tile, exposed_win))
            else:
                found.append(Reading(shape, ()))
    return tuple(found)
