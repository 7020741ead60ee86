"""The `u3a` rule set (seed 004: Balsall Common U3A house rules).

Points = the value of the hand from the seed's tables plus one point for each '+' item.
Basic hands add up as shape + purity (Chicken 0, Sequence 1, All Pongs 3; mixed 0,
semi-pure with honours 3, pure 6). Special hands and special concealed hands score their
printed base instead; hands from the tables never add up with each other: a hand that fits
several is scored as the one worth most to the winner (ties: the seed's order, special
concealed hands first, then special hands, then the basic hand). Special concealed hands take
no points for honour pongs or for being concealed.

Payments: one chip per point; on a discard (or a robbed kong) only the discarder pays,
self-drawn (wall or replacement tile) every other player pays. Goulash hands (hand option
`goulash`) need at least 5 points and pay the pot instead. Kong chips are separate from the
hand: `kong_payments`. Three-player tables: option `players` = 3 (nobody sits North).

Every number is in `VALUE_DEFAULTS` (a club can override it); the patterns are the small
predicates below. The page for club members is `docs/rules/u3a.md`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType

from .. import patterns
from ..errors import EngineError
from ..result import Item, Result
from ..tiles import (
    DRAGONS,
    FLOWERS,
    SEASONS,
    WIND_NUMBER,
    WIND_TILE,
    WINDS,
    code,
    is_honour,
    is_terminal,
    is_wind,
    suit_of,
)
from .base import (
    PLAYERS_DEFAULT,
    PLAYERS_RANGE,
    RuleSet,
    ValueRange,
    owed_by_others,
    ranges_by_kind,
    settle,
    zero_payments,
)

SEATS = WINDS

OPTION_DEFAULTS: dict[str, int | bool] = {
    # Below this the hand may not go out: allowed false, no payments. Seed: "Minimum three
    # points needed to Mahjong. (A three person game can be increased to five points
    # minimum, if agreed by all.)"
    "min_points": 3,
    # Goulash / Chop Suey hand (the hand after a drawn hand): at least
    # `goulash.min_points` points (or min_points if higher) and the winner takes the pot.
    "goulash": False,
    # 4, or 3 for a three-player table (seats E, S, W; nobody pays for North).
    "players": PLAYERS_DEFAULT,
}

# Every number of seed 004's tables (docs/rules/u3a.md). Keys are stable: clubs store
# overrides by them.
VALUE_DEFAULTS: dict[str, int] = {
    # Basic Mahjong Hands: shape + purity
    "basic.chicken.points": 0,
    "basic.sequence.points": 1,
    "basic.all_pongs.points": 3,
    "basic.semi_pure.points": 3,
    "basic.pure.points": 6,
    # Special Mahjong Hands
    "special.big_three_dragons.points": 6,
    "special.little_winds.points": 8,
    "special.big_four_winds.points": 10,
    "special.all_honours.points": 10,
    "special.all_terminals.points": 10,
    "special.all_kongs.points": 10,
    "special.jade_dragon.points": 10,
    "special.ruby_dragon.points": 10,
    "special.pearl_dragon.points": 10,
    # Special Concealed Mahjong Hands
    "concealed.seven_pairs.points": 6,
    "concealed.double_knitting.points": 6,
    "concealed.triple_knitting.points": 6,
    "concealed.nine_gates.points": 10,
    "concealed.thirteen_orphans.points": 10,
    "concealed.hidden_treasure.points": 10,
    "concealed.little_snake.points": 10,
    "concealed.great_snake.points": 10,
    # '+' items, one point each
    "extra.dragon_pong.points": 1,  # each pong/kong of dragons
    "extra.round_wind_pong.points": 1,
    "extra.seat_wind_pong.points": 1,
    "extra.last_tile.points": 1,  # win on last tile of the wall
    "extra.last_discard.points": 1,
    "extra.replacement.points": 1,  # win on replacement tile from the flower wall
    "extra.self_draw.points": 1,
    "extra.concealed_hand.points": 1,
    "extra.no_flowers.points": 1,
    "extra.red_bouquet.points": 1,  # all 4 red flowers (f1-f4)
    "extra.blue_bouquet.points": 1,  # all 4 blue flowers (s1-s4)
    "extra.round_flower.points": 1,  # red flower of the round wind
    "extra.seat_flower.points": 1,  # blue flower of the seat wind
    # Payments
    "payment.chips_per_point": 1,
    "kong.concealed.chips": 3,  # hidden kong: each other player pays 3
    "kong.discard.chips": 2,  # kong by discard: each other player pays 2
    "kong.added.chips": 1,  # fourth tile added to an exposed pong: each pays 1
    "goulash.stake.chips": 5,  # each player puts 5 into the pot
    "goulash.min_points": 5,
}
# What a club may set each value to: up to 100 points an element (the seed's largest is
# 10), up to 100 chips a kong or a goulash stake, and 1 to 100 chips a point.
VALUE_RANGES = ranges_by_kind(
    VALUE_DEFAULTS,
    {
        "payment.chips_per_point": ValueRange(1, 100, "chips"),
        "goulash.min_points": ValueRange(0, 100, "points"),
        ".points": ValueRange(0, 100, "points"),
        ".chips": ValueRange(0, 100, "chips"),
    },
)

# The seed's names, used for the breakdown.
NAMES: dict[str, str] = {
    "chicken": "Chicken",
    "sequence": "Sequence",
    "all_pongs": "All Pongs",
    "semi_pure": "Semi-pure hand with Honours",
    "pure": "Pure",
    "big_three_dragons": "3 Big Dragons",
    "little_winds": "Little Winds",
    "big_four_winds": "Big 4 Winds",
    "all_honours": "All Honours",
    "all_terminals": "All Terminal",
    "all_kongs": "All Kongs",
    "jade_dragon": "Jade Dragon",
    "ruby_dragon": "Ruby Dragon",
    "pearl_dragon": "Pearl Dragon",
    "seven_pairs": "7 Pairs",
    "double_knitting": "Double Knitting",
    "triple_knitting": "Triple Knitting",
    "nine_gates": "9 Gates",
    "thirteen_orphans": "13 Orphans",
    "hidden_treasure": "Hidden Treasure",
    "little_snake": "Little Snake",
    "great_snake": "Great Snake",
    "dragon_pong": "Pong/Kong of Dragons",
    "round_wind_pong": "Pong/Kong of Wind of round",
    "seat_wind_pong": "Pong/Kong of Wind of your seat",
    "last_tile": "Win on last tile of the wall",
    "last_discard": "Win on last discard",
    "replacement": "Win on replacement tile from the flower wall",
    "self_draw": "Self-draw to Mahjong",
    "concealed_hand": "Concealed hand",
    "no_flowers": "No Flowers",
    "red_bouquet": "All 4 Red Flowers (Bouquet)",
    "blue_bouquet": "All 4 Blue Flowers (Bouquet)",
    "round_flower": "Flower for Round (Red)",
    "seat_flower": "Flower for Seat (Blue)",
}

KONG_KINDS = {
    "concealed": "kong.concealed.chips",
    "discard": "kong.discard.chips",
    "added": "kong.added.chips",
    "replacement_win": None,  # Kong to Mahjong: no kong chips (the hand scores +2 instead)
}

_PONG_KINDS = ("pong", "kong")


# ---------------------------------------------------------------------------------------
# Small helpers on a reading


def _pong_tiles(reading) -> list[int]:
    """Tiles of the pongs and kongs of a reading (special shapes have none)."""
    return [g.tile for g in reading.groups if g.kind in _PONG_KINDS]


def _pair_tile(reading) -> int | None:
    for g in reading.groups:
        if g.kind == "pair":
            return g.tile
    return None


def _has_chow(reading) -> bool:
    return any(g.kind == "chow" for g in reading.groups)


def _standard(reading) -> bool:
    return reading.shape == "standard"


# ---------------------------------------------------------------------------------------
# Basic hands: shape + purity


def basic_shape(reading) -> str:
    """ "sequence" (four chows), "all_pongs" (four pongs/kongs) or "chicken" (a mix)."""
    kinds = [g.kind for g in reading.groups if g.kind != "pair"]
    if all(k == "chow" for k in kinds):
        return "sequence"
    if all(k in _PONG_KINDS for k in kinds):
        return "all_pongs"
    return "chicken"


def purity(hand) -> str:
    """ "pure" (one suit, no honours), "semi_pure" (one suit and honours) or "mixed".

    Bonus tiles never count. A hand of honours only has no suit: "mixed" (it is All Honours).
    """
    suits = {suit_of(t) for t in hand.all_tiles}
    honours = None in suits
    suits.discard(None)
    if len(suits) != 1:
        return "mixed"
    return "semi_pure" if honours else "pure"


# ---------------------------------------------------------------------------------------
# Special hands (standard readings; exposed sets allowed)


def big_three_dragons(hand, reading) -> bool:
    """Pongs/kongs of all three dragons, any set and any pair."""
    return _standard(reading) and set(DRAGONS) <= set(_pong_tiles(reading))


def little_winds(hand, reading) -> bool:
    """Pongs/kongs of three winds and a pair of the fourth wind (and any fourth set)."""
    if not _standard(reading):
        return False
    pair = _pair_tile(reading)
    return (
        pair is not None
        and is_wind(pair)
        and sum(1 for t in _pong_tiles(reading) if is_wind(t)) == 3
    )


def big_four_winds(hand, reading) -> bool:
    """Pongs/kongs of each wind and any pair."""
    return _standard(reading) and sum(1 for t in _pong_tiles(reading) if is_wind(t)) == 4


def all_honours(hand, reading) -> bool:
    """Honour pongs/kongs and an honour pair."""
    return _standard(reading) and all(is_honour(t) for t in hand.all_tiles)


def all_terminals(hand, reading) -> bool:
    """Pongs/kongs of 1s and 9s only and a pair of 1s or 9s (no honours)."""
    return _standard(reading) and all(is_terminal(t) for t in hand.all_tiles)


def all_kongs(hand, reading) -> bool:
    """Four kongs and any pair."""
    return _standard(reading) and sum(1 for g in reading.groups if g.kind == "kong") == 4


def jade_dragon(hand, reading) -> bool:
    """Bamboo pongs/kongs and pair, and a pong/kong of the green dragon."""
    return patterns.jade_dragon(hand, reading, chows=False)


def ruby_dragon(hand, reading) -> bool:
    """Character pongs/kongs and pair, and a pong/kong of the red dragon."""
    return patterns.ruby_dragon(hand, reading, chows=False)


def pearl_dragon(hand, reading) -> bool:
    """Circle pongs/kongs and pair, and a pong/kong of the white dragon."""
    return patterns.pearl_dragon(hand, reading, chows=False)


# ---------------------------------------------------------------------------------------
# Special concealed hands ("Cannot pick up discards except final tile")


def seven_pairs(hand, reading) -> bool:
    """Any seven pairs (four of a kind counts as two pairs: "any seven pairs")."""
    return reading.shape == "seven_pairs" and hand.is_concealed


def double_knitting(hand, reading) -> bool:
    return reading.shape == "double_knitting" and hand.is_concealed


def triple_knitting(hand, reading) -> bool:
    return reading.shape == "triple_knitting" and hand.is_concealed


def thirteen_orphans(hand, reading) -> bool:
    return reading.shape == "thirteen_orphans" and hand.is_concealed


def little_snake(hand, reading) -> bool:
    return reading.shape == "little_snake" and hand.is_concealed


def nine_gates(hand, reading) -> bool:
    """One suit, no melds: 1-1-1, 2 to 8, 9-9-9 and any one more tile of that suit."""
    if not _standard(reading) or hand.melds:
        return False
    tiles = hand.concealed
    suits = {suit_of(t) for t in tiles}
    if len(suits) != 1 or None in suits:
        return False
    counts = Counter((t % 9) + 1 for t in tiles)
    return counts[1] >= 3 and counts[9] >= 3 and all(counts[n] >= 1 for n in range(2, 9))


def hidden_treasure(hand, reading) -> bool:
    """Four pongs (no kongs) and a pair, every tile from the wall: no melds, self-drawn."""
    if not _standard(reading) or hand.melds or not hand.self_drawn:
        return False
    return all(g.kind == "pong" for g in reading.groups if g.kind != "pair")


def great_snake(hand, reading) -> bool:
    """1 to 9 of one suit, a pong/kong of an honour and a pair of an honour; concealed."""
    if not _standard(reading) or not hand.is_concealed:
        return False
    suit_tiles = sorted(t for t in hand.all_tiles if not is_honour(t))
    if len(suit_tiles) != 9 or len({suit_of(t) for t in suit_tiles}) != 1:
        return False
    if [t % 9 for t in suit_tiles] != list(range(9)):
        return False
    pair = _pair_tile(reading)
    return pair is not None and is_honour(pair)


# The hands of the tables other than the basic hand, in the seed's order within each table.
# Special concealed hands come first: on equal points the special name is shown.
SpecialTest = Callable[[object, object], bool]
SPECIAL_CONCEALED_HANDS: tuple[tuple[str, SpecialTest], ...] = (
    ("seven_pairs", seven_pairs),
    ("double_knitting", double_knitting),
    ("triple_knitting", triple_knitting),
    ("nine_gates", nine_gates),
    ("thirteen_orphans", thirteen_orphans),
    ("hidden_treasure", hidden_treasure),
    ("little_snake", little_snake),
    ("great_snake", great_snake),
)
SPECIAL_HANDS: tuple[tuple[str, SpecialTest], ...] = (
    ("big_three_dragons", big_three_dragons),
    ("little_winds", little_winds),
    ("big_four_winds", big_four_winds),
    ("all_honours", all_honours),
    ("all_terminals", all_terminals),
    ("all_kongs", all_kongs),
    ("jade_dragon", jade_dragon),
    ("ruby_dragon", ruby_dragon),
    ("pearl_dragon", pearl_dragon),
)


# ---------------------------------------------------------------------------------------
# Chips


def _check_seats(seats: Iterable[str]) -> tuple[str, ...]:
    seats = tuple(seats)
    if len(seats) < 2 or len(set(seats)) != len(seats) or any(s not in SEATS for s in seats):
        raise EngineError(
            f"The seats must be two or more different winds out of E, S, W, N, not {seats!r}."
        )
    return seats


def _collect(winner: str, seats: tuple[str, ...], chips: int) -> dict[str, int]:
    """The winner takes `chips` from each other seat at the table (all four seats listed)."""
    return settle(winner, dict.fromkeys((s for s in seats if s != winner), chips))


def kong_payments(
    kind: str, seat: str, seats: Iterable[str] = SEATS, *, values: Mapping[str, int] | None = None
) -> dict[str, int]:
    """Chips for a kong, paid when it is made, apart from the hand's score.

    kind "concealed" (hidden kong): 3 from each other player; "discard" (kong by discard):
    2 from each; "added" (fourth tile self-drawn and added to an exposed pong): 1 from each;
    "replacement_win" (the kong's replacement tile wins: Kong to Mahjong): none.
    `values` are the rule set's values (club overrides); default seed 004's.
    """
    seats = _check_seats(seats)
    if kind not in KONG_KINDS:
        raise EngineError(
            f"Kong kind {kind!r} is unknown: use concealed, discard, added or replacement_win."
        )
    if seat not in seats:
        raise EngineError(f"Seat {seat!r} is not at this table (seats {', '.join(seats)}).")
    key = KONG_KINDS[kind]
    chips = 0 if key is None else (values or VALUE_DEFAULTS)[key]
    return _collect(seat, seats, chips)


def goulash_payments(
    winner: str, seats: Iterable[str] = SEATS, *, values: Mapping[str, int] | None = None
) -> dict[str, int]:
    """Goulash (Chop Suey) hand: each player puts 5 chips in the pot, the winner takes it.

    Four players: the winner nets +15, each other player -5.
    """
    seats = _check_seats(seats)
    if winner not in seats:
        raise EngineError(f"Seat {winner!r} is not at this table (seats {', '.join(seats)}).")
    return _collect(winner, seats, (values or VALUE_DEFAULTS)["goulash.stake.chips"])


# ---------------------------------------------------------------------------------------
# The rule set


class U3ARuleSet(RuleSet):
    name = "u3a"
    title = "Balsall Common U3A house rules (points)"
    unit = "points"
    starting_tally = 0
    option_defaults = OPTION_DEFAULTS
    value_defaults = VALUE_DEFAULTS
    hand_options = frozenset(("goulash", "players"))
    minimum_option = "min_points"
    value_ranges = VALUE_RANGES
    option_ranges = MappingProxyType({"min_points": (0, 100), "players": PLAYERS_RANGE})

    # -- options ---------------------------------------------------------------------

    def minimum_total(self, opts: Mapping[str, object]) -> int:
        """The fewest points that may go out (goulash: at least goulash.min_points)."""
        minimum = opts["min_points"]
        if opts["goulash"]:
            minimum = max(minimum, self.values["goulash.min_points"])
        return minimum

    def below_minimum(
        self, total: int, opts: Mapping[str, object], subject: str = ""
    ) -> str | None:
        """A goulash hand's own minimum, when it is above the club's, is named as such:
        "4 points is too few for a goulash hand: a goulash hand needs at least 5 points;
        this club's usual minimum is 3 points." Otherwise the club's minimum applies."""
        club, goulash = opts["min_points"], self.values["goulash.min_points"]
        if not opts["goulash"] or goulash <= club:
            return super().below_minimum(total, opts, subject)
        if total >= goulash:
            return None
        usual = (
            f"this club's usual minimum is {self.amount(club)}"
            if club
            else "other hands have no minimum"
        )
        return (
            f"{subject or self.amount(total)} is too few for a goulash hand: a goulash hand "
            f"needs at least {self.amount(goulash)}; {usual}."
        )

    def maximum_total(self, opts: Mapping[str, object]) -> int:
        """No limit, but no hand scores more than the best table hand with every '+' item
        that can come with it: three dragon pongs and the fourth set of the wind that is both
        the round's and the seat's, the last tile, a replacement tile (self-drawn), a
        concealed hand, and all eight flowers (or none)."""
        v = self.values
        base = max(v[k] for k in v if k.startswith(("basic.", "special.", "concealed.")))
        if v["basic.all_pongs.points"] + v["basic.semi_pure.points"] > base:
            base = v["basic.all_pongs.points"] + v["basic.semi_pure.points"]
        flowers = (
            v["extra.red_bouquet.points"]
            + v["extra.blue_bouquet.points"]
            + v["extra.round_flower.points"]
            + v["extra.seat_flower.points"]
        )
        return (
            base
            + 3 * v["extra.dragon_pong.points"]
            + v["extra.round_wind_pong.points"]
            + v["extra.seat_wind_pong.points"]
            + max(v["extra.last_tile.points"], v["extra.last_discard.points"])
            + v["extra.replacement.points"]
            + v["extra.self_draw.points"]
            + v["extra.concealed_hand.points"]
            + max(flowers, v["extra.no_flowers.points"])
        )

    # -- points ----------------------------------------------------------------------

    def _item(self, key: str, value_key: str, tile: int | None = None) -> Item | None:
        points = self.values[value_key]
        if not points:
            return None
        name = NAMES[key] if tile is None else f"{NAMES[key]} ({code(tile)})"
        return Item(name, points=points)

    def extras(self, hand, reading, special_concealed: bool) -> list[Item]:
        """The '+' items, in the seed's order. Special concealed hands take none for honour
        pongs or for being concealed."""
        items: list[Item | None] = []
        if not special_concealed:
            pongs = _pong_tiles(reading)
            for dragon in sorted(t for t in pongs if t in DRAGONS):
                items.append(self._item("dragon_pong", "extra.dragon_pong.points", dragon))
            round_wind = WIND_TILE[hand.prevailing_wind]
            if round_wind in pongs:
                items.append(
                    self._item("round_wind_pong", "extra.round_wind_pong.points", round_wind)
                )
            seat_wind = WIND_TILE[hand.seat_wind]
            if seat_wind in pongs:
                items.append(self._item("seat_wind_pong", "extra.seat_wind_pong.points", seat_wind))
        if hand.last_tile:
            if hand.self_drawn:
                items.append(self._item("last_tile", "extra.last_tile.points"))
            else:
                items.append(self._item("last_discard", "extra.last_discard.points"))
        if hand.won_by == "replacement":
            items.append(self._item("replacement", "extra.replacement.points"))
        if hand.self_drawn:
            items.append(self._item("self_draw", "extra.self_draw.points"))
        if not special_concealed and hand.is_concealed:
            items.append(self._item("concealed_hand", "extra.concealed_hand.points"))
        bonus = set(hand.bonus)
        if not bonus:
            items.append(self._item("no_flowers", "extra.no_flowers.points"))
        if bonus.issuperset(FLOWERS):
            items.append(self._item("red_bouquet", "extra.red_bouquet.points"))
        if bonus.issuperset(SEASONS):
            items.append(self._item("blue_bouquet", "extra.blue_bouquet.points"))
        round_flower = FLOWERS[WIND_NUMBER[hand.prevailing_wind] - 1]
        if round_flower in bonus:
            items.append(self._item("round_flower", "extra.round_flower.points", round_flower))
        seat_flower = SEASONS[WIND_NUMBER[hand.seat_wind] - 1]
        if seat_flower in bonus:
            items.append(self._item("seat_flower", "extra.seat_flower.points", seat_flower))
        return [item for item in items if item is not None]

    def hand_items(self, hand, reading) -> list[Item]:
        """The best way to score this reading: the basic hand or one special hand, with its
        '+' items. Hands from the tables never add up with each other."""
        values = self.values
        best: list[Item] | None = None
        best_total = -1

        def consider(items: list[Item]) -> None:
            nonlocal best, best_total
            total = sum(item.points or 0 for item in items)
            if total > best_total:  # ties keep the earlier (special) hand
                best, best_total = items, total

        for key, test in SPECIAL_CONCEALED_HANDS:
            if test(hand, reading):
                base = Item(NAMES[key], points=values[f"concealed.{key}.points"])
                consider([base, *self.extras(hand, reading, special_concealed=True)])
        for key, test in SPECIAL_HANDS:
            if test(hand, reading):
                base = Item(NAMES[key], points=values[f"special.{key}.points"])
                consider([base, *self.extras(hand, reading, special_concealed=False)])
        if _standard(reading):
            shape = basic_shape(reading)
            items = [Item(NAMES[shape], points=values[f"basic.{shape}.points"])]
            kind = purity(hand)
            if kind != "mixed":
                items.append(Item(NAMES[kind], points=values[f"basic.{kind}.points"]))
            consider([*items, *self.extras(hand, reading, special_concealed=False)])
        if best is None:
            raise EngineError(
                "This hand is not a winning hand under the U3A rules: it is neither four sets "
                "and a pair nor one of the special concealed hands."
            )
        return best

    # -- payments --------------------------------------------------------------------

    def payments(self, win, total, opts, seats=SEATS) -> dict[str, int]:
        """One chip per point: on a discard (or a robbed kong) the discarder pays, self-drawn
        everyone pays. A goulash hand pays the pot instead."""
        if opts["goulash"]:
            return goulash_payments(win.seat_wind, seats, values=self.values)
        chips = total * self.values["payment.chips_per_point"]
        discarder = None if win.self_drawn else win.discarder
        return settle(win.seat_wind, owed_by_others(win.seat_wind, seats, discarder, chips, chips))

    def score_reading(self, hand, reading, opts) -> Result:
        seats = self.table_seats(opts)  # RuleSet.score has checked the hand's seats are there
        items = self.hand_items(hand, reading)
        total = sum(item.points or 0 for item in items)
        allowed = total >= self.minimum_total(opts)
        return Result(
            rules=self.name,
            total=total,
            limit=False,
            allowed=allowed,
            breakdown=tuple(items),
            payments=self.payments(hand, total, opts, seats) if allowed else zero_payments(),
        )


RULESET = U3ARuleSet()
