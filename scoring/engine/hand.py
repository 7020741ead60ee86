"""The hand as the engine sees it, and `parse_hand`, which validates contract JSON."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from operator import attrgetter, eq
from types import MappingProxyType

from .errors import EngineError, quote_input
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
    tiles: tuple[int, ...] = field(init=False, repr=False, compare=False)  # derived
    # The canonical sort key (tile, kind, concealed), derived: sorted by attrgetter, no
    # Python call per meld.
    order: tuple[int, str, bool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        t = self.tile
        if self.kind == "chow":
            tiles = (t, t + 1, t + 2)
        else:
            tiles = (t,) * (4 if self.kind == "kong" else 3)
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(self, "order", (t, self.kind, self.concealed))


# Melds are interned: parsing a hand reuses the same few hundred objects.
_MELDS: dict[tuple[str, int, bool], Meld] = {}


def _meld(kind: str, tile: int, concealed: bool) -> Meld:
    key = (kind, tile, concealed)
    meld = _MELDS.get(key)
    if meld is None:
        meld = _MELDS[key] = Meld(kind, tile, concealed)
    return meld


_meld_order = attrgetter("order")


@dataclass(frozen=True, slots=True, init=False)
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
    options: Mapping[str, object] = field(default_factory=lambda: _EMPTY_OPTIONS)  # raw
    # Derived once at construction: rule sets ask for them many times per hand.
    all_tiles: tuple[int, ...] = field(init=False, repr=False, compare=False)
    distinct_tiles: frozenset[int] = field(init=False, repr=False, compare=False)

    def __init__(
        self,
        concealed: tuple[int, ...],
        melds: tuple[Meld, ...],
        winning_tile: int,
        won_by: str,
        discarder: str | None,
        seat_wind: str,
        prevailing_wind: str,
        dealer: str = "E",
        bonus: tuple[int, ...] = (),
        last_tile: bool = False,
        first_turn: bool = False,
        options: Mapping[str, object] = _EMPTY_OPTIONS,
    ) -> None:
        # Written out (not dataclass-generated): slot setters called directly cost half
        # of frozen dataclass assignment, and every CLI line builds a Hand.
        _set_concealed(self, concealed)
        _set_melds(self, melds)
        _set_winning_tile(self, winning_tile)
        _set_won_by(self, won_by)
        _set_discarder(self, discarder)
        _set_seat_wind(self, seat_wind)
        _set_prevailing_wind(self, prevailing_wind)
        _set_dealer(self, dealer)
        _set_bonus(self, bonus)
        _set_last_tile(self, last_tile)
        _set_first_turn(self, first_turn)
        _set_options(self, options)
        everything = concealed
        if melds:
            tiles = list(everything)
            for meld in melds:
                tiles += meld.tiles
            tiles.sort()
            everything = tuple(tiles)
        _set_all_tiles(self, everything)
        _set_distinct_tiles(self, frozenset(everything))

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


# Slot setters used by Hand.__init__ (they bypass the frozen __setattr__ on purpose).
_set_concealed = Hand.__dict__["concealed"].__set__
_set_melds = Hand.__dict__["melds"].__set__
_set_winning_tile = Hand.__dict__["winning_tile"].__set__
_set_won_by = Hand.__dict__["won_by"].__set__
_set_discarder = Hand.__dict__["discarder"].__set__
_set_seat_wind = Hand.__dict__["seat_wind"].__set__
_set_prevailing_wind = Hand.__dict__["prevailing_wind"].__set__
_set_dealer = Hand.__dict__["dealer"].__set__
_set_bonus = Hand.__dict__["bonus"].__set__
_set_last_tile = Hand.__dict__["last_tile"].__set__
_set_first_turn = Hand.__dict__["first_turn"].__set__
_set_options = Hand.__dict__["options"].__set__
_set_all_tiles = Hand.__dict__["all_tiles"].__set__
_set_distinct_tiles = Hand.__dict__["distinct_tiles"].__set__


_MELD_BY_TEXT: dict[tuple[str, bool], Meld] = {}
_WIND_OF = {w: w for w in WINDS} | {w.lower(): w for w in WINDS}
_WON_BY_OF = {w: w for w in WON_BY}
_tile_of_text = _TILE_BY_TEXT.__getitem__


def _meld_from_tiles(tiles: list[int], text: str, concealed: bool) -> Meld:
    """Sorted meld tiles -> Meld (interned), or EngineError saying why it is not a set."""
    first = tiles[0]
    last = tiles[-1]
    n = len(tiles)
    if first == last and (n == 3 or n == 4):
        if concealed and n == 3:
            raise EngineError(
                f"Meld {_short(text)} is marked concealed, but only a kong can be declared concealed."
            )
        return _meld("pong" if n == 3 else "kong", first, concealed)
    if n == 3 and tiles[1] == first + 1 and last == first + 2:
        if last >= 27 or first // 9 != last // 9:
            raise EngineError(
                f"Meld {_short(text)} is not a set: a chow is three suit tiles in a row, all of one suit."
            )
        if concealed:
            raise EngineError(
                f"Meld {_short(text)} is marked concealed, but only a kong can be declared concealed."
            )
        return _meld("chow", first, False)
    raise EngineError(
        f"Meld {_short(text)} is not a set: a meld is a chow (three in a row of one suit), "
        "a pong (three alike) or a kong (four alike)."
    )


def _parse_meld(raw: object, position: int) -> Meld:
    if not isinstance(raw, Mapping):
        raise EngineError(
            f"Meld {position} must be an object such as "
            f'{{"tiles": "ww ww ww", "concealed": false}}, not {_short(raw)}.'
        )
    if not _MELD_FIELDS.issuperset(raw):
        key = next(k for k in raw if k not in _MELD_FIELDS)
        raise EngineError(
            f"Meld {position} has an unknown field {_short(key)}; "
            "a meld has only 'tiles' and 'concealed'."
        )
    text = raw.get("tiles")
    if type(text) is not str:
        if text is None:
            raise EngineError(f"Meld {position} has no 'tiles'.")
        raise EngineError(
            f"The tiles of meld {position} must be a string of codes such as 'ww ww ww', "
            f"not {_short(text)}."
        )
    concealed = raw.get("concealed", False)
    if concealed is not False and concealed is not True:
        if concealed is None:
            concealed = False
        else:
            raise EngineError(
                f"'concealed' of meld {_short(text)} must be true or false, not {_short(concealed)}."
            )
    try:
        tiles = [_TILE_BY_TEXT[p] for p in text.split()]
    except KeyError:
        tiles = _tiles_of(text, f"meld {_short(text)}")
    if not tiles:
        raise EngineError(f"Meld {position} has no tiles.")
    tiles.sort()
    if tiles[-1] >= 34:
        bonus = next(t for t in tiles if t >= 34)
        raise EngineError(
            f"Bonus tile {CODES[bonus]} is in meld {_short(text)}; put flowers and seasons in 'bonus'."
        )
    return _meld_from_tiles(tiles, text, concealed)


def _tiles_of(text: str, where: str) -> list[int]:
    """Codes -> tiles, naming the first bad code and where it is."""
    tiles = []
    for p in text.split():
        tile = _TILE_BY_TEXT.get(p)
        if tile is None:
            tile = _TILE_BY_TEXT.get(p.lower())
        if tile is None:
            raise EngineError(
                f"Tile {_short(p)} in {where} is not a tile code ({TILE_CODES_HELP})."
            )
        tiles.append(tile)
    return tiles


def _wind(value: object, name: str) -> str:
    """Slow path for a wind field that is not exactly a letter."""
    if value is None:
        raise EngineError(f"The hand has no '{name}'; give a wind letter E, S, W or N.")
    if isinstance(value, str):
        letter = value.strip().upper()
        if letter in WINDS:
            return letter
    raise EngineError(f"'{name}' must be a wind letter E, S, W or N, not {_short(value)}.")


def _flag(value: object, name: str) -> bool:
    """A yes/no field ('last_tile', 'first_turn') is true or false; absent means false."""
    if value is True or value is False:
        return value
    if value is None:
        return False
    raise EngineError(f"'{name}' must be true or false, not {_short(value)}.")


def parse_hand(data: Mapping) -> Hand:
    """Contract JSON (already decoded) -> Hand, checking everything that can be checked
    without deciding whether the tiles form a winning shape (that is `readings`).

    Each step below is one rule of the contract, in the order a hand is checked: the first
    problem found is the one reported. The steps are written for speed (the CLI parses tens
    of thousands of hands a second): exact-type fast paths first, careful messages on the
    slow path.
    """
    get = _read_fields(data)
    concealed = _parse_concealed_tiles(get("tiles"))
    melds = _parse_melds(get("melds"))
    winning = _parse_winning_tile(get("winning_tile"))
    won_by = _parse_won_by(get("won_by"))
    seat_wind, prevailing_wind, dealer = _parse_winds(get)
    discarder = _parse_discarder(get("discarder"), won_by, seat_wind)
    bonus = _parse_bonus(get("bonus"))
    last_tile = _flag(get("last_tile", False), "last_tile")
    first_turn = _flag(get("first_turn", False), "first_turn")
    options = get("options")  # most hands have none: skip the step's call then
    options = _EMPTY_OPTIONS if options is None else _parse_options(options)
    hand = Hand(
        concealed,
        melds,
        winning,
        won_by,
        discarder,
        seat_wind,
        prevailing_wind,
        dealer,
        bonus,
        last_tile,
        first_turn,
        options,
    )
    everything = hand.all_tiles
    _check_four_of_each_tile(everything)
    _check_winning_tile_held(winning, concealed, won_by, everything)
    _check_tile_count(everything, concealed, melds)
    return hand


def _read_fields(data: object) -> Callable:
    """A hand is a JSON object with only the contract's fields: its `get`."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise EngineError(
            "A hand must be a JSON object with 'tiles', 'winning_tile', 'won_by', "
            f"'seat_wind' and 'prevailing_wind', not {_short(data)}."
        )
    if not _HAND_FIELD_SET.issuperset(data):
        key = next(k for k in data if k not in _HAND_FIELD_SET)
        raise EngineError(
            f"The hand has an unknown field {_short(key)}; the fields are {', '.join(HAND_FIELDS)}."
        )
    return data.get


def _parse_concealed_tiles(text: object) -> tuple[int, ...]:
    """'tiles' are tile codes (winning tile included, no flowers or seasons), sorted."""
    if type(text) is not str:
        if text is None:
            raise EngineError(
                "The hand has no 'tiles' (the concealed tiles, winning tile included)."
            )
        raise EngineError(
            "'tiles' must be a string of codes separated by spaces, such as 'b1 b2 b3', "
            f"not {_short(text)}."
        )
    try:
        # map with the bound lookup: no comprehension frame (a KeyError takes the slow path).
        concealed = list(map(_tile_of_text, text.split()))
    except KeyError:
        concealed = _tiles_of(text, "'tiles'")
    concealed.sort()
    if concealed and concealed[-1] >= 34:
        bonus_tile = next(t for t in concealed if t >= 34)
        raise EngineError(
            f"Bonus tile {CODES[bonus_tile]} is in 'tiles'; put flowers and seasons in 'bonus'."
        )
    return tuple(concealed)


def _parse_melds(raw_melds: object) -> tuple[Meld, ...]:
    """Each declared meld is a chow, pong or kong; sorted so input order never matters."""
    if raw_melds is None:
        return ()
    if type(raw_melds) is not list and not isinstance(raw_melds, tuple):
        raise EngineError(f"'melds' must be a list of melds, not {_short(raw_melds)}.")
    parsed = []
    for position, raw in enumerate(raw_melds, 1):
        # Fast path: meld texts repeat ("ww ww ww"), so a parsed meld is looked up.
        meld = None
        if type(raw) is dict and _MELD_FIELDS.issuperset(raw):
            text = raw.get("tiles")
            flag = raw.get("concealed", False)
            if type(text) is str and (flag is False or flag is True):
                meld = _MELD_BY_TEXT.get((text, flag))
                if meld is None:
                    meld = _parse_meld(raw, position)
                    if len(_MELD_BY_TEXT) < 20_000:
                        _MELD_BY_TEXT[(text, flag)] = meld
        parsed.append(meld or _parse_meld(raw, position))
    if len(parsed) > 1:
        parsed.sort(key=_meld_order)
    return tuple(parsed)


def _parse_winning_tile(raw_winning: object) -> int:
    """The winning tile is one tile code, and not a flower or season."""
    winning = _TILE_BY_TEXT.get(raw_winning) if type(raw_winning) is str else None
    if winning is None:
        if raw_winning is None:
            raise EngineError("The hand has no 'winning_tile'.")
        if not isinstance(raw_winning, str):
            raise EngineError(
                f"'winning_tile' must be one tile code such as 'd9', not {_short(raw_winning)}."
            )
        if len(raw_winning.split()) != 1:
            raise EngineError(f"'winning_tile' must be one tile code, not {_short(raw_winning)}.")
        winning = parse_tile(raw_winning.strip())
    if winning >= 34:
        raise EngineError(
            f"The winning tile {CODES[winning]} is a bonus tile; "
            "give the tile that completed the hand."
        )
    return winning


def _parse_won_by(raw_won_by: object) -> str:
    """How the hand was won: wall, replacement, discard or robbing_kong."""
    won_by = _WON_BY_OF.get(raw_won_by) if type(raw_won_by) is str else None
    if won_by is not None:
        return won_by
    if raw_won_by is None:
        raise EngineError(
            "The hand has no 'won_by'; give wall, replacement, discard or robbing_kong."
        )
    won_by = raw_won_by.strip().lower() if isinstance(raw_won_by, str) else None
    if won_by not in _WON_BY_OF:
        raise EngineError(
            f"'won_by' must be wall, replacement, discard or robbing_kong, not {_short(raw_won_by)}."
        )
    return won_by


def _parse_winds(get: Callable) -> tuple[str, str, str]:
    """Seat and prevailing wind are wind letters; the dealer is one too, East by default."""
    raw = get("seat_wind")
    seat_wind = (_WIND_OF.get(raw) if type(raw) is str else None) or _wind(raw, "seat_wind")
    raw = get("prevailing_wind")
    prevailing_wind = (_WIND_OF.get(raw) if type(raw) is str else None) or _wind(
        raw, "prevailing_wind"
    )
    raw = get("dealer", "E")
    dealer = (_WIND_OF.get(raw) if type(raw) is str else None) or _wind(
        "E" if raw is None else raw, "dealer"
    )
    return seat_wind, prevailing_wind, dealer


def _parse_discarder(raw_discarder: object, won_by: str, seat_wind: str) -> str | None:
    """A discard or robbed kong names another seat as discarder; a self-drawn win names none."""
    if raw_discarder == "":
        raw_discarder = None
    if won_by in SELF_DRAWN:
        if raw_discarder is not None:
            raise EngineError(
                f"'discarder' is {_short(raw_discarder)} but the hand was self-drawn ({won_by}); "
                "leave 'discarder' out or use won_by 'discard'."
            )
        return None
    if raw_discarder is None:
        who = (
            "whose kong was robbed"
            if won_by == "robbing_kong"
            else "who discarded the winning tile"
        )
        raise EngineError(
            f"A win by {won_by.replace('_', ' ')} needs 'discarder': the wind of the player {who}."
        )
    discarder = (_WIND_OF.get(raw_discarder) if type(raw_discarder) is str else None) or _wind(
        raw_discarder, "discarder"
    )
    if discarder == seat_wind:
        raise EngineError(
            f"The discarder ({discarder}) is the winner's own seat; "
            "give the seat of another player."
        )
    return discarder


def _parse_bonus(raw_bonus: object) -> tuple[int, ...]:
    """Bonus tiles are flowers and seasons only, each at most once; sorted."""
    if not raw_bonus:
        if raw_bonus is not None and raw_bonus != "":
            raise EngineError(
                f"'bonus' must be a string of codes such as 'f1 s3', not {_short(raw_bonus)}."
            )
        return ()
    if type(raw_bonus) is not str:
        raise EngineError(
            f"'bonus' must be a string of codes such as 'f1 s3', not {_short(raw_bonus)}."
        )
    try:
        bonus_list = list(map(_tile_of_text, raw_bonus.split()))
    except KeyError:
        bonus_list = _tiles_of(raw_bonus, "'bonus'")
    bonus_list.sort()
    previous = -1
    for t in bonus_list:
        if t < 34:
            raise EngineError(
                f"{CODES[t]} in 'bonus' is not a flower or season; bonus tiles are f1-f4 and s1-s4."
            )
        if t == previous:
            raise EngineError(f"Bonus tile {CODES[t]} is listed twice; a set has only one of each.")
        previous = t
    return tuple(bonus_list)


def _parse_options(options: object) -> Mapping[str, object]:
    """'options' is an object (the rule set checks its names and values), kept read-only."""
    if not options:
        if options is not None and not isinstance(options, Mapping):
            raise EngineError(
                f"'options' must be an object such as {{\"limit\": 1000}}, not {_short(options)}."
            )
        return _EMPTY_OPTIONS
    if isinstance(options, Mapping):
        return MappingProxyType(dict(options))
    raise EngineError(
        f"'options' must be an object such as {{\"limit\": 1000}}, not {_short(options)}."
    )


def _check_four_of_each_tile(everything: tuple[int, ...]) -> None:
    """At most 4 of any tile, melds included (the sorted tiles show a fifth copy as equal
    tiles four places apart, compared in C)."""
    if any(map(eq, everything, everything[4:])):
        t = next(a for a, b in zip(everything, everything[4:], strict=False) if a == b)
        raise EngineError(
            f"There are {everything.count(t)} of {CODES[t]} in this hand; "
            "a set has only 4 of each tile."
        )


def _check_winning_tile_held(
    winning: int, concealed: tuple[int, ...], won_by: str, everything: tuple[int, ...]
) -> None:
    """The winning tile is among 'tiles'; a robbed kong's tile is held only once."""
    if winning not in concealed:
        raise EngineError(
            f"The winning tile {CODES[winning]} is not among 'tiles'; "
            "'tiles' must include the tile that completed the hand."
        )
    if won_by == "robbing_kong" and everything.count(winning) != 1:
        raise EngineError(
            f"The robbed kong's tile {CODES[winning]} came from another player's pong, "
            f"so the winner cannot hold another {CODES[winning]}."
        )


def _check_tile_count(
    everything: tuple[int, ...], concealed: tuple[int, ...], melds: tuple[Meld, ...]
) -> None:
    """A winning hand has 14 tiles plus one per kong, bonus tiles aside."""
    tile_total = len(everything)
    # Melds hold 3 tiles, or 4 for a kong: the extra tiles count the kongs, no loop needed.
    kongs = tile_total - len(concealed) - 3 * len(melds)
    if tile_total != 14 + kongs:
        kong_note = f" plus {kongs} for the kong{'s' if kongs > 1 else ''}" if kongs else ""
        raise EngineError(
            f"This hand has {tile_total} tiles ({len(concealed)} in 'tiles' and "
            f"{tile_total - len(concealed)} in melds); a winning hand has 14{kong_note} "
            f"({14 + kongs}), bonus tiles aside."
        )


def _short(value: object) -> str:
    """A value for an error message: escaped (no control, bidi or surrogate characters)
    and cut short so one bad line cannot flood the output."""
    return quote_input(value)


def describe_hand(hand: Hand) -> str:
    """A readable one-line summary, for error messages."""
    parts = [codes(hand.concealed)]
    parts.extend(f"[{codes(m.tiles)}]" for m in hand.melds)
    return " ".join(parts)
