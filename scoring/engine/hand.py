"""The hand as the engine sees it, and `parse_hand`, which validates contract JSON."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .errors import EngineError
from .tiles import (
    _TILE_BY_TEXT,
    CODES,
    TILE_CODES_HELP,
    WINDS,
    codes,
    parse_tile,
)

MELD_KINDS = ("chow", "pong", "kong")
WON_BY = ("wall", "replacement", "discard", "robbing_kong")
SELF_DRAWN = frozenset(("wall", "replacement"))
HAND_FIELDS = (
    "tiles",
    "melds",
    "winning_tile",
    "won_by",
    "discarder",
    "seat_wind",
    "prevailing_wind",
    "dealer",
    "bonus",
    "last_tile",
    "first_turn",
    "options",
)
_HAND_FIELD_SET = frozenset(HAND_FIELDS)
_MELD_FIELDS = frozenset(("tiles", "concealed"))
_EMPTY_OPTIONS: Mapping[str, object] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Meld:
    """A set declared before the win."""

    kind: str  # "chow" | "pong" | "kong"
    tile: int  # lowest tile of the set
    concealed: bool  # True only for a declared concealed kong

    @property
    def tiles(self) -> tuple[int, ...]:
        t = self.tile
        if self.kind == "chow":
            return (t, t + 1, t + 2)
        return (t,) * (4 if self.kind == "kong" else 3)


@dataclass(frozen=True, slots=True)
class Hand:
    concealed: tuple[int, ...]  # concealed tiles incl. the winning tile, sorted
    melds: tuple[Meld, ...]  # sorted by (tile, kind), so input order never matters
    winning_tile: int
    won_by: str  # "wall" | "replacement" | "discard" | "robbing_kong"
    discarder: str | None  # "E".."N" for discard / robbing_kong, else None
    seat_wind: str
    prevailing_wind: str
    dealer: str = "E"
    bonus: tuple[int, ...] = ()  # sorted bonus tiles
    last_tile: bool = False
    first_turn: bool = False
    options: Mapping[str, object] = field(
        default_factory=lambda: _EMPTY_OPTIONS
    )  # raw; the rule set validates it
    # Derived once at construction: rule sets ask for them many times per hand.
    all_tiles: tuple[int, ...] = field(init=False, repr=False, compare=False)
    distinct_tiles: frozenset[int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        everything = list(self.concealed)
        for meld in self.melds:
            everything.extend(meld.tiles)
        everything.sort()
        object.__setattr__(self, "all_tiles", tuple(everything))
        object.__setattr__(self, "distinct_tiles", frozenset(everything))

    @property
    def self_drawn(self) -> bool:
        return self.won_by in SELF_DRAWN

    @property
    def is_concealed(self) -> bool:
        """No meld declared except concealed kongs (winning on a discard is fine)."""
        return all(meld.concealed for meld in self.melds)

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == self.dealer

    @property
    def kong_count(self) -> int:
        return sum(1 for meld in self.melds if meld.kind == "kong")


def _meld_from_tiles(tiles: list[int], text: str, concealed: bool) -> Meld:
    tiles = sorted(tiles)
    first = tiles[0]
    if len(tiles) in (3, 4) and all(t == first for t in tiles):
        kind = "pong" if len(tiles) == 3 else "kong"
        if concealed and kind != "kong":
            raise EngineError(
                f"Meld '{text}' is marked concealed, but only a kong can be declared concealed."
            )
        return Meld(kind, first, concealed)
    if len(tiles) == 3 and tiles[1] == first + 1 and tiles[2] == first + 2:
        if first >= 27 or first // 9 != tiles[2] // 9:
            raise EngineError(
                f"Meld '{text}' is not a set: a chow is three suit tiles in a row, all of one suit."
            )
        if concealed:
            raise EngineError(
                f"Meld '{text}' is marked concealed, but only a kong can be declared concealed."
            )
        return Meld("chow", first, False)
    raise EngineError(
        f"Meld '{text}' is not a set: a meld is a chow (three in a row of one suit), "
        "a pong (three alike) or a kong (four alike)."
    )


def _parse_meld(raw: object, position: int) -> Meld:
    if not isinstance(raw, Mapping):
        raise EngineError(
            f"Meld {position} must be an object such as "
            f'{{"tiles": "ww ww ww", "concealed": false}}, not {raw!r}.'
        )
    for key in raw:
        if key not in _MELD_FIELDS:
            raise EngineError(
                f"Meld {position} has an unknown field {key!r}; a meld has only 'tiles' and 'concealed'."
            )
    if "tiles" not in raw:
        raise EngineError(f"Meld {position} has no 'tiles'.")
    text = raw["tiles"]
    if not isinstance(text, str):
        raise EngineError(
            f"The tiles of meld {position} must be a string of codes such as 'ww ww ww', not {text!r}."
        )
    concealed = raw.get("concealed", False)
    if not isinstance(concealed, bool):
        raise EngineError(f"'concealed' of meld '{text}' must be true or false, not {concealed!r}.")
    tiles = _tiles_of(text, f"meld '{text}'")
    if not tiles:
        raise EngineError(f"Meld {position} has no tiles.")
    for t in tiles:
        if t >= 34:
            raise EngineError(
                f"Bonus tile {CODES[t]} is in meld '{text}'; put flowers and seasons in 'bonus'."
            )
    return _meld_from_tiles(tiles, text, concealed)


def _tiles_of(text: str, where: str) -> list[int]:
    lookup = _TILE_BY_TEXT
    parts = text.split()
    try:
        return [lookup[p] for p in parts]
    except KeyError:
        pass
    tiles = []
    for p in parts:
        tile = lookup.get(p.lower())
        if tile is None:
            raise EngineError(f"Tile '{p}' in {where} is not a tile code ({TILE_CODES_HELP}).")
        tiles.append(tile)
    return tiles


def _wind(data: Mapping, name: str, default: str | None = None) -> str:
    value = data.get(name, default)
    if value is None:
        raise EngineError(f"The hand has no '{name}'; give a wind letter E, S, W or N.")
    if isinstance(value, str):
        letter = value.strip().upper()
        if letter in WINDS:
            return letter
    raise EngineError(f"'{name}' must be a wind letter E, S, W or N, not {value!r}.")


def _flag(data: Mapping, name: str) -> bool:
    value = data.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise EngineError(f"'{name}' must be true or false, not {value!r}.")
    return value


def parse_hand(data: Mapping) -> Hand:
    """Contract JSON (already decoded) -> Hand, checking everything that can be checked
    without deciding whether the tiles form a winning shape (that is `readings`)."""
    if not isinstance(data, Mapping):
        raise EngineError(
            f"A hand must be a JSON object with 'tiles', 'winning_tile', 'won_by', "
            f"'seat_wind' and 'prevailing_wind', not {_short(data)}."
        )
    for key in data:
        if key not in _HAND_FIELD_SET:
            raise EngineError(
                f"The hand has an unknown field {key!r}; the fields are {', '.join(HAND_FIELDS)}."
            )

    # Concealed tiles.
    if "tiles" not in data:
        raise EngineError("The hand has no 'tiles' (the concealed tiles, winning tile included).")
    text = data["tiles"]
    if not isinstance(text, str):
        raise EngineError(
            f"'tiles' must be a string of codes separated by spaces, such as 'b1 b2 b3', not {_short(text)}."
        )
    concealed = _tiles_of(text, "'tiles'")
    for t in concealed:
        if t >= 34:
            raise EngineError(
                f"Bonus tile {CODES[t]} is in 'tiles'; put flowers and seasons in 'bonus'."
            )
    concealed.sort()

    # Declared melds.
    raw_melds = data.get("melds")
    if raw_melds is None:
        melds: tuple[Meld, ...] = ()
    elif isinstance(raw_melds, list | tuple):
        melds = tuple(
            sorted(
                (_parse_meld(raw, i) for i, raw in enumerate(raw_melds, 1)),
                key=lambda m: (m.tile, m.kind, m.concealed),
            )
        )
    else:
        raise EngineError(f"'melds' must be a list of melds, not {_short(raw_melds)}.")

    # Winning tile.
    if "winning_tile" not in data:
        raise EngineError("The hand has no 'winning_tile'.")
    raw_winning = data["winning_tile"]
    if not isinstance(raw_winning, str):
        raise EngineError(
            f"'winning_tile' must be one tile code such as 'd9', not {_short(raw_winning)}."
        )
    if len(raw_winning.split()) != 1:
        raise EngineError(f"'winning_tile' must be one tile code, not '{raw_winning}'.")
    winning = parse_tile(raw_winning.strip())
    if winning >= 34:
        raise EngineError(
            f"The winning tile {CODES[winning]} is a bonus tile; give the tile that completed the hand."
        )

    # How it was won.
    won_by = data.get("won_by")
    if isinstance(won_by, str):
        won_by = won_by.strip().lower()
    if won_by is None:
        raise EngineError(
            "The hand has no 'won_by'; give wall, replacement, discard or robbing_kong."
        )
    if won_by not in WON_BY:
        raise EngineError(
            f"'won_by' must be wall, replacement, discard or robbing_kong, not {_short(won_by)}."
        )
    seat_wind = _wind(data, "seat_wind")
    prevailing_wind = _wind(data, "prevailing_wind")
    dealer = _wind(data, "dealer", "E")
    raw_discarder = data.get("discarder")
    if raw_discarder == "":
        raw_discarder = None
    if won_by in SELF_DRAWN:
        if raw_discarder is not None:
            raise EngineError(
                f"'discarder' is {_short(raw_discarder)} but the hand was self-drawn ({won_by}); "
                "leave 'discarder' out or use won_by 'discard'."
            )
        discarder = None
    else:
        if raw_discarder is None:
            who = (
                "whose kong was robbed"
                if won_by == "robbing_kong"
                else "who discarded the winning tile"
            )
            raise EngineError(
                f"A win by {won_by.replace('_', ' ')} needs 'discarder': the wind of the player {who}."
            )
        discarder = _wind(data, "discarder")
        if discarder == seat_wind:
            raise EngineError(
                f"The discarder ({discarder}) is the winner's own seat; give the seat of another player."
            )

    # Bonus tiles.
    raw_bonus = data.get("bonus", "")
    if raw_bonus is None:
        raw_bonus = ""
    if not isinstance(raw_bonus, str):
        raise EngineError(
            f"'bonus' must be a string of codes such as 'f1 s3', not {_short(raw_bonus)}."
        )
    bonus = _tiles_of(raw_bonus, "'bonus'")
    seen_bonus: set[int] = set()
    for t in bonus:
        if t < 34:
            raise EngineError(
                f"{CODES[t]} in 'bonus' is not a flower or season; bonus tiles are f1-f4 and s1-s4."
            )
        if t in seen_bonus:
            raise EngineError(f"Bonus tile {CODES[t]} is listed twice; a set has only one of each.")
        seen_bonus.add(t)
    bonus.sort()

    last_tile = _flag(data, "last_tile")
    first_turn = _flag(data, "first_turn")
    options = data.get("options")
    if options is None:
        options = _EMPTY_OPTIONS
    elif not isinstance(options, Mapping):
        raise EngineError(
            f"'options' must be an object such as {{\"limit\": 1000}}, not {_short(options)}."
        )
    else:
        options = MappingProxyType(dict(options))

    # Counts: at most 4 of a tile, and the right number of tiles.
    counts = [0] * 34
    for t in concealed:
        counts[t] += 1
    for meld in melds:
        for t in meld.tiles:
            counts[t] += 1
    for t in range(34):
        if counts[t] > 4:
            raise EngineError(
                f"There are {counts[t]} of {CODES[t]} in this hand; a set has only 4 of each tile."
            )
    if winning not in concealed:
        raise EngineError(
            f"The winning tile {CODES[winning]} is not among 'tiles'; "
            "'tiles' must include the tile that completed the hand."
        )
    if won_by == "robbing_kong" and counts[winning] != 1:
        raise EngineError(
            f"The robbed kong's tile {CODES[winning]} came from another player's pong, "
            f"so the winner cannot hold another {CODES[winning]}."
        )
    kongs = sum(1 for m in melds if m.kind == "kong")
    tile_total = len(concealed) + sum(4 if m.kind == "kong" else 3 for m in melds)
    if tile_total != 14 + kongs:
        kong_note = f" plus {kongs} for the kong{'s' if kongs > 1 else ''}" if kongs else ""
        raise EngineError(
            f"This hand has {tile_total} tiles ({len(concealed)} in 'tiles' and "
            f"{tile_total - len(concealed)} in melds); a winning hand has 14{kong_note} "
            f"({14 + kongs}), bonus tiles aside."
        )

    return Hand(
        concealed=tuple(concealed),
        melds=melds,
        winning_tile=winning,
        won_by=won_by,
        discarder=discarder,
        seat_wind=seat_wind,
        prevailing_wind=prevailing_wind,
        dealer=dealer,
        bonus=tuple(bonus),
        last_tile=last_tile,
        first_turn=first_turn,
        options=options,
    )


def _short(value: object) -> str:
    """A value for an error message, cut short so one bad line cannot flood the output."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def describe_hand(hand: Hand) -> str:
    """A readable one-line summary, for error messages."""
    parts = [codes(hand.concealed)]
    parts.extend(f"[{codes(m.tiles)}]" for m in hand.melds)
    return " ".join(parts)
