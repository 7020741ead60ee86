"""Every reading of a hand: the ways its tiles can be grouped into a winning shape.

Speed matters (the CLI scores tens of thousands of hands a second), so the concealed tiles
are split per suit, each suit's 9 counts decomposed once and memoised, and honours read
directly (they only form pongs and pairs).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from .hand import Hand, Meld
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


@dataclass(frozen=True, slots=True)
class Reading:
    shape: str  # "standard" | "seven_pairs" | "thirteen_orphans" | "double_knitting" | ...
    groups: tuple[Group, ...]  # declared melds first, then concealed groups, sorted

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


@lru_cache(maxsize=1 << 16)
def _suit_splits(base: int, counts: tuple[int, ...]) -> tuple[tuple[tuple[str, int], ...], ...]:
    """Splits of one suit with real tile numbers (base = 0, 9 or 18); () if impossible."""
    remainder = sum(counts) % 3
    if remainder == 1:
        return ()
    splits = _local_splits(counts, remainder == 2)
    return tuple(sorted(tuple((kind, base + i) for kind, i in split) for split in splits))


def _standard_splits(counts: list[int]) -> list[list[tuple[str, int]]]:
    """Every split of the concealed tiles into sets and exactly one pair."""
    honour_groups: list[tuple[str, int]] = []
    pairs = 0
    for t in range(27, 34):
        c = counts[t]
        if c == 0:
            continue
        if c == 3:
            honour_groups.append(("pong", t))
        elif c == 2:
            honour_groups.append(("pair", t))
            pairs += 1
        else:  # 1 or 4 concealed honours cannot be sets (a kong must be declared)
            return []
    suit_remainders = [sum(counts[b : b + 9]) % 3 for b in (0, 9, 18)]
    if 1 in suit_remainders or pairs + suit_remainders.count(2) != 1:
        return []
    per_suit = []
    for b in (0, 9, 18):
        block = tuple(counts[b : b + 9])
        if any(block):
            splits = _suit_splits(b, block)
            if not splits:
                return []
            per_suit.append(splits)
    return [[g for part in combo for g in part] + honour_groups for combo in product(*per_suit)]


def _group_order(g: tuple[str, int]) -> tuple[bool, int, str]:
    return (g[0] == "pair", g[1], g[0])


def _placements(
    shape: str,
    declared: tuple[Group, ...],
    groups: list[tuple[str, int]],
    winning_tile: int,
    exposed_win: bool,
) -> list[Reading]:
    """One reading per distinct group the winning tile can sit in."""
    groups = sorted(groups, key=_group_order)
    candidates = []
    for kind, tile in groups:
        holds = tile <= winning_tile <= tile + 2 if kind == "chow" else tile == winning_tile
        if holds and (kind, tile) not in candidates:
            candidates.append((kind, tile))
    readings = []
    for candidate in candidates:
        out = list(declared)
        marked = False
        for kind, tile in groups:
            if not marked and (kind, tile) == candidate:
                marked = True
                out.append(_group(kind, tile, not exposed_win, False, True))
            else:
                out.append(_group(kind, tile, True, False, False))
        readings.append(Reading(shape, tuple(out)))
    return readings


def readings(hand: Hand) -> tuple[Reading, ...]:
    """Every reading of the hand (deduplicated); () when it is not a winning shape."""
    return _readings(
        hand.concealed,
        hand.melds,
        hand.winning_tile,
        hand.won_by == "discard" or hand.won_by == "robbing_kong",
    )


@lru_cache(maxsize=4096)
def _readings(
    concealed: tuple[int, ...],
    melds: tuple[Meld, ...],
    winning_tile: int,
    exposed_win: bool,
) -> tuple[Reading, ...]:
    counts = [0] * 34
    for t in concealed:
        counts[t] += 1
    declared = tuple(_group(m.kind, m.tile, m.concealed, True, False) for m in melds)
    found: list[Reading] = []
    for split in _standard_splits(counts):
        found.extend(_placements("standard", declared, split, winning_tile, exposed_win))
    if not melds and len(concealed) == 14:
        for shape in special_shapes(counts):
            if shape == "seven_pairs":
                pairs = [("pair", t) for t in range(34) for _ in range(counts[t] // 2)]
                found.extend(_placements(shape, (), pairs, winning_tile, exposed_win))
            else:
                found.append(Reading(shape, ()))
    return tuple(dict.fromkeys(found))
