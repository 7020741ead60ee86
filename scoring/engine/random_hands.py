"""Seeded random LEGAL winning hands in contract JSON, for the benchmark and property tests.

Every shape appears: standard hands (with exposed chows, pongs and kongs, concealed kongs,
flushes, honour and terminal hands), seven pairs (sometimes with four of a kind), thirteen
orphans, double and triple knitting and the little snake. Never more than 4 of a tile.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Iterator

from .tiles import BONUS_TILES, CODES, HONOURS, MAJORS, SIMPLES, WINDS

SHAPE_WEIGHTS = (
    ("standard", 82),
    ("seven_pairs", 6),
    ("thirteen_orphans", 3),
    ("double_knitting", 3),
    ("triple_knitting", 3),
    ("little_snake", 3),
)
_SHAPES = tuple(s for s, _ in SHAPE_WEIGHTS)
_SHAPE_CUMULATIVE = []
_total = 0
for _shape, _weight in SHAPE_WEIGHTS:
    _total += _weight
    _SHAPE_CUMULATIVE.append(_total)

# Standard hands come in flavours, so flushes, honour hands and limit hands turn up often.
FLAVOURS = (
    "mixed",
    "mixed",
    "mixed",
    "one_suit_with_honours",
    "one_suit",
    "honours",
    "majors",
    "simples",
)
_SUIT = tuple(range(27))
_ALL = tuple(range(34))
_BONUS = tuple(sorted(BONUS_TILES))


class _Retry(Exception):
    """This attempt ran out of tiles; start the hand again."""


def _weighted_shape(rng: random.Random) -> str:
    x = rng.random() * _total
    for shape, bound in zip(_SHAPES, _SHAPE_CUMULATIVE, strict=True):
        if x < bound:
            return shape
    return _SHAPES[-1]


def _pool(rng: random.Random, flavour: str) -> tuple[int, ...]:
    suit = rng.randrange(3)
    suit_tiles = tuple(range(suit * 9, suit * 9 + 9))
    if flavour == "one_suit":
        return suit_tiles
    if flavour == "one_suit_with_honours":
        return suit_tiles + tuple(sorted(HONOURS))
    if flavour == "honours":
        return tuple(sorted(HONOURS)) + _SUIT[: rng.choice((0, 27))]
    if flavour == "majors":
        return tuple(sorted(MAJORS))
    if flavour == "simples":
        return tuple(sorted(SIMPLES))
    return _ALL


def _take(counts: list[int], tiles: tuple[int, ...]) -> bool:
    """Add the tiles if no tile goes over 4."""
    for t in set(tiles):
        if counts[t] + tiles.count(t) > 4:
            return False
    for t in tiles:
        counts[t] += 1
    return True


def _random_set(rng: random.Random, pool: tuple[int, ...], counts: list[int]) -> tuple[str, int]:
    pool_set = set(pool)
    for _ in range(40):
        roll = rng.random()
        kind = "chow" if roll < 0.45 else "pong" if roll < 0.85 else "kong"
        tile = rng.choice(pool)
        if kind == "chow":
            if tile >= 27 or tile % 9 > 6 or tile + 1 not in pool_set or tile + 2 not in pool_set:
                continue
            tiles = (tile, tile + 1, tile + 2)
        else:
            tiles = (tile,) * (3 if kind == "pong" else 4)
        if _take(counts, tiles):
            return kind, tile
    raise _Retry


def _standard(rng: random.Random) -> tuple[list[int], list[dict]]:
    """Concealed tiles and declared melds of a random four-sets-and-a-pair hand."""
    while True:
        try:
            pool = _pool(rng, rng.choice(FLAVOURS))
            counts = [0] * 34
            sets = [_random_set(rng, pool, counts) for _ in range(4)]
            pair = next((t for t in rng.sample(pool, len(pool)) if counts[t] <= 2), None)
            if pair is None:
                raise _Retry
            counts[pair] += 2
            break
        except _Retry:
            continue
    expose_chance = 0.0 if rng.random() < 0.4 else rng.choice((0.25, 0.5, 0.9))
    concealed = [pair, pair]
    melds = []
    for kind, tile in sets:
        tiles = (
            (tile, tile + 1, tile + 2) if kind == "chow" else (tile,) * (3 if kind == "pong" else 4)
        )
        if kind == "kong":
            melds.append(
                {"tiles": " ".join(CODES[t] for t in tiles), "concealed": rng.random() < 0.4}
            )
        elif rng.random() < expose_chance:
            melds.append({"tiles": " ".join(CODES[t] for t in tiles), "concealed": False})
        else:
            concealed.extend(tiles)
    return concealed, melds


def _seven_pairs(rng: random.Random) -> list[int]:
    pool = _pool(rng, rng.choice(("mixed", "mixed", "one_suit_with_honours", "one_suit", "majors")))
    tiles = rng.sample(pool, 7) if len(pool) >= 7 else rng.sample(_ALL, 7)
    if rng.random() < 0.1:
        tiles[6] = tiles[0]  # four of a kind as two pairs
    return tiles * 2


def _thirteen_orphans(rng: random.Random) -> list[int]:
    majors = sorted(MAJORS)
    return majors + [rng.choice(majors)]


def _double_knitting(rng: random.Random) -> list[int]:
    a, b = rng.sample((0, 1, 2), 2)
    uses = [0] * 9
    tiles = []
    while len(tiles) < 14:
        n = rng.randrange(9)
        if uses[n] < 4:
            uses[n] += 1
            tiles += [a * 9 + n, b * 9 + n]
    return tiles


def _triple_knitting(rng: random.Random) -> list[int]:
    uses = [0] * 9
    tiles = []
    while len(tiles) < 12:
        n = rng.randrange(9)
        if uses[n] < 4:
            uses[n] += 1
            tiles += [n, 9 + n, 18 + n]
    while True:
        m = rng.randrange(9)
        if uses[m] < 4:
            a, b = rng.sample((0, 1, 2), 2)
            return tiles + [a * 9 + m, b * 9 + m]


def _little_snake(rng: random.Random) -> list[int]:
    suit = rng.randrange(3)
    return list(range(suit * 9, suit * 9 + 9)) + rng.sample(sorted(HONOURS), 5)


def _bonus(rng: random.Random) -> list[int]:
    roll = rng.random()
    if roll < 0.3:
        return []
    if roll < 0.35:
        return list(_BONUS[:4])  # all four flowers
    if roll < 0.38:
        return list(_BONUS[4:])  # all four seasons
    if roll < 0.40:
        return list(_BONUS)  # all eight
    return rng.sample(_BONUS, rng.choice((1, 1, 2, 2, 3, 4)))


def random_hand(
    rng: random.Random, shape: str | None = None, shapes: Collection[str] | None = None
) -> dict:
    """One random legal winning hand (contract JSON) drawn with `rng`.

    `shapes` limits the draw to the shapes a rule set accepts (seven pairs is no winning
    hand in classical, so a classical benchmark should not be fed any).
    """
    if shape is None:
        shape = _weighted_shape(rng)
        while shapes is not None and shape not in shapes:
            shape = _weighted_shape(rng)
    melds: list[dict] = []
    if shape == "standard":
        concealed, melds = _standard(rng)
    else:
        concealed = {
            "seven_pairs": _seven_pairs,
            "thirteen_orphans": _thirteen_orphans,
            "double_knitting": _double_knitting,
            "triple_knitting": _triple_knitting,
            "little_snake": _little_snake,
        }[shape](rng)
    winning = rng.choice(concealed)
    bonus = _bonus(rng)
    has_kong = any(len(m["tiles"].split()) == 4 for m in melds)
    copies = concealed.count(winning)  # robbing a kong needs the only copy in the hand
    for m in melds:
        copies += m["tiles"].split().count(CODES[winning])

    roll = rng.random()
    if roll < 0.35:
        won_by = "wall"
    elif roll < 0.45:
        won_by = "replacement" if (has_kong or bonus) else "wall"
    elif roll < 0.9:
        won_by = "discard"
    else:
        won_by = "robbing_kong" if copies == 1 else "discard"

    seat = rng.choice(WINDS)
    dealer = "E" if rng.random() < 0.85 else rng.choice(WINDS)
    hand: dict = {}
    rng.shuffle(concealed)
    hand["tiles"] = " ".join(CODES[t] for t in concealed)
    if melds or rng.random() < 0.5:
        rng.shuffle(melds)
        hand["melds"] = melds
    hand["winning_tile"] = CODES[winning]
    hand["won_by"] = won_by
    if won_by in ("discard", "robbing_kong"):
        hand["discarder"] = rng.choice([w for w in WINDS if w != seat])
    hand["seat_wind"] = seat
    hand["prevailing_wind"] = rng.choice(WINDS)
    if dealer != "E" or rng.random() < 0.5:
        hand["dealer"] = dealer
    if bonus or rng.random() < 0.5:
        rng.shuffle(bonus)
        hand["bonus"] = " ".join(CODES[t] for t in bonus)
    roll = rng.random()
    if roll < 0.05:
        hand["last_tile"] = True
    elif roll < 0.07 and not melds:
        # Heavenly hand (dealer, self-drawn) or earthly hand (non-dealer, dealer's discard).
        if seat == dealer:
            hand["won_by"] = "wall"
            hand.pop("discarder", None)
        else:
            hand["won_by"] = "discard"
            hand["discarder"] = dealer
        hand["first_turn"] = True
    return hand


def random_hands(n: int, seed: int = 0, shapes: Collection[str] | None = None) -> Iterator[dict]:
    """`n` random legal winning hands (of the given shapes); the same seed gives the same hands."""
    rng = random.Random(seed)
    for _ in range(n):
        yield random_hand(rng, shapes=shapes)
