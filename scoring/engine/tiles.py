"""Tile numbering, codes and predicates.

Tiles are small ints for speed: b1..b9 = 0..8, c1..c9 = 9..17, d1..d9 = 18..26,
winds we ws ww wn = 27..30, dragons dr dg dw = 31..33, flowers f1..f4 = 34..37,
seasons s1..s4 = 38..41.
"""

from __future__ import annotations

from .errors import EngineError, quote_input

SUIT_LETTERS = ("b", "c", "d")
SUIT_NAMES = ("bamboo", "characters", "dots")

CODES: tuple[str, ...] = (
    tuple(f"{s}{n}" for s in SUIT_LETTERS for n in range(1, 10))
    + ("we", "ws", "ww", "wn", "dr", "dg", "dw")
    + tuple(f"f{n}" for n in range(1, 5))
    + tuple(f"s{n}" for n in range(1, 5))
)
TILE_COUNT = 34  # distinct playing tiles (bonus tiles aside)
ALL_TILE_COUNT = len(CODES)  # 42 with the bonus tiles

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33

WINDS = ("E", "S", "W", "N")
WIND_TILE = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
WIND_NUMBER = {"E": 1, "S": 2, "W": 3, "N": 4}
DRAGONS = (RED, GREEN, WHITE)
FLOWERS = (34, 35, 36, 37)
SEASONS = (38, 39, 40, 41)

# Every spelling case of every code, so parsing is one dict lookup per tile.
_TILE_BY_TEXT: dict[str, int] = {}
for _tile, _code in enumerate(CODES):
    for _spelling in {
        _code,
        _code.upper(),
        _code[0].upper() + _code[1],
        _code[0] + _code[1].upper(),
    }:
        _TILE_BY_TEXT[_spelling] = _tile

TILE_CODES_HELP = "use b1-b9, c1-c9, d1-d9, we ws ww wn, dr dg dw, f1-f4, s1-s4"

# Precomputed sets: membership tests are the fast path for the rule sets.
SUIT_TILES = frozenset(range(27))
HONOURS = frozenset(range(27, 34))
WIND_TILES = frozenset((EAST, SOUTH, WEST, NORTH))
DRAGON_TILES = frozenset(DRAGONS)
TERMINALS = frozenset(t for t in range(27) if t % 9 in (0, 8))
SIMPLES = frozenset(t for t in range(27) if t % 9 not in (0, 8))
MAJORS = TERMINALS | HONOURS
BONUS_TILES = frozenset(FLOWERS + SEASONS)
FLOWER_TILES = frozenset(FLOWERS)
SEASON_TILES = frozenset(SEASONS)
PLAYING_TILES = frozenset(range(TILE_COUNT))
# The thirteen different terminals and honours of Thirteen Orphans.
ORPHANS = tuple(sorted(MAJORS))


def code(tile: int) -> str:
    """The lower-case code of a tile, e.g. 0 -> "b1"."""
    return CODES[tile]


def parse_tile(text: object) -> int:
    """One tile code (case-insensitive) -> tile int; EngineError names a bad code."""
    try:
        return _TILE_BY_TEXT[text]  # type: ignore[index]
    except (KeyError, TypeError):
        pass
    if isinstance(text, str):
        tile = _TILE_BY_TEXT.get(text.strip().lower())
        if tile is not None:
            return tile
        raise EngineError(f"Tile {quote_input(text)} is not a tile code ({TILE_CODES_HELP}).")
    raise EngineError(
        f"A tile must be a code such as 'b1' written as text, not {quote_input(text)}."
    )


def parse_tiles(text: object) -> tuple[int, ...]:
    """A string of codes separated by spaces -> tuple of tile ints (in the given order)."""
    if not isinstance(text, str):
        raise EngineError(
            f"Tiles must be a string of codes separated by spaces, not {quote_input(text)}."
        )
    lookup = _TILE_BY_TEXT
    try:
        return tuple([lookup[part] for part in text.split()])
    except KeyError:
        return tuple(parse_tile(part) for part in text.split())


def codes(tiles) -> str:
    """Tile ints -> "b1 b2 b3"."""
    return " ".join(CODES[t] for t in tiles)


def is_suit(tile: int) -> bool:
    return tile < 27


def is_honour(tile: int) -> bool:
    return 27 <= tile < 34


def is_wind(tile: int) -> bool:
    return 27 <= tile <= 30


def is_dragon(tile: int) -> bool:
    return 31 <= tile <= 33


def is_terminal(tile: int) -> bool:
    """Suit 1s and 9s."""
    return tile < 27 and tile % 9 in (0, 8)


def is_simple(tile: int) -> bool:
    """Suit 2-8 (minor tiles)."""
    return tile < 27 and tile % 9 not in (0, 8)


def is_major(tile: int) -> bool:
    """Terminal or honour."""
    return tile in MAJORS


def suit_of(tile: int) -> int | None:
    """0 bamboo, 1 characters, 2 dots; None for honours and bonus tiles."""
    return tile // 9 if tile < 27 else None


def number_of(tile: int) -> int | None:
    """1-9 for suit tiles, None otherwise."""
    return tile % 9 + 1 if tile < 27 else None


def is_bonus(tile: int) -> bool:
    return tile >= 34


def is_flower(tile: int) -> bool:
    return 34 <= tile <= 37


def is_season(tile: int) -> bool:
    return 38 <= tile <= 41


def bonus_number(tile: int) -> int:
    """f1/s1 -> 1 ... f4/s4 -> 4 (East, South, West, North)."""
    if tile < 34:
        raise EngineError(f"{CODES[tile]} is not a flower or season.")
    return (tile - 34) % 4 + 1


def wind_of_tile(tile: int) -> str | None:
    """27 -> "E" ... 30 -> "N"; None for other tiles."""
    return WINDS[tile - 27] if 27 <= tile <= 30 else None
