"""Hong Kong Old Style faan (seed 002).

The rule set is data plus small pattern functions:

- ``OPTION_DEFAULTS``: ``min_faan`` (3) and ``max_faan`` (10); ``players`` (4, or 3 at a
  table of three, a hand option).
- ``VALUE_DEFAULTS``: every number of seed 002's score table, under stable dotted keys. A row
  with a closed and an open value ("2 (1)") has two keys, ``<row>.closed`` and ``<row>.open``;
  a closed-only row ("2 (-)") has ``.open`` = 0. A row that scores "max" has the value ``MAX``
  (-1): the hand then scores ``max_faan``. The faan-to-points table is ``points.faan.<n>``
  for n = 0..13 (13 stands for "13 and more").

How the faan add up (docs/rules/hk.md is the spec and explains every
choice for club members):

- A hand with a "max" element scores ``max_faan`` and its breakdown lists only the max
  elements. Otherwise the faan of every element add up, capped at ``max_faan``; ``limit`` is
  true when the hand reaches ``max_faan``.
- Seven Pairs takes no faan from sets (pungs, chows, kongs, honour pungs, terminal in each
  meld); faan from the tiles themselves (flushes, All Simples, only honours / terminals), from
  the winning move and from bonus tiles still apply.
- Below ``min_faan`` the hand is not allowed: payments are all zero.
- Payments: points from the faan table; the discarder (or the player whose kong was robbed)
  pays 2x and the other two 1x; self-drawn (wall or replacement) all three pay 2x. The dealer
  has no special payment.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType

from .. import patterns
from ..result import Result
from ..tiles import (
    FLOWER_TILES,
    SEASON_TILES,
    WIND_NUMBER,
    WIND_TILE,
    WINDS,
    bonus_number,
    code,
    is_dragon,
    is_suit,
    is_terminal,
    number_of,
    suit_of,
)
from .base import (
    PLAYERS_DEFAULT,
    PLAYERS_RANGE,
    RuleSet,
    ValueRange,
    number_words,
    owed_by_others,
    ranges_by_kind,
    settle,
)

MAX = -1  # a value that means "this element scores the maximum (max_faan)"

OPTION_DEFAULTS: dict[str, int] = {
    "min_faan": 3,
    "max_faan": 10,
    # 4, or 3 at a table of three (East, South and West; North pays nothing).
    "players": PLAYERS_DEFAULT,
}

VALUE_DEFAULTS: dict[str, int] = {
    # Alternate winning hands
    "special.thirteen_orphans": MAX,
    "special.nine_gates": MAX,
    "special.eight_treasures": MAX,
    "special.seven_pairs": 2,
    # Faan from winning move
    "move.first_draw": MAX,  # Win with your first draw
    "move.last_wall_draw": 1,  # Last draw from the wall
    "move.last_discard": 1,  # Steal the last discard
    "move.dead_wall_draw": 1,  # Any draw from the dead wall (closed or open)
    "move.robbing_kong": 1,  # Steal from a small kong
    "move.wall_draw.closed": 1,  # Normal draw from the wall: 1 (-)
    "move.wall_draw.open": 0,
    # Faan from bonuses
    "bonus.all_seasons": 2,
    "bonus.all_flowers": 2,
    "bonus.seat_tile": 1,  # per season or flower of your seat
    "bonus.none": 1,  # no bonus tiles at all
    # Faan from suits
    "suit.full_flush.closed": 6,
    "suit.full_flush.open": 5,
    "suit.half_flush.closed": 3,
    "suit.half_flush.open": 2,
    "suit.two_double_chows.closed": 3,  # two sets of two matching chow of one suit: 3 (-)
    "suit.two_double_chows.open": 0,
    "suit.double_chow.closed": 1,  # two matching chow of one suit: 1 (-)
    "suit.double_chow.open": 0,
    "suit.pure_straight.closed": 2,
    "suit.pure_straight.open": 1,
    "suit.three_suit_chows.closed": 2,  # three matching chow of different suits
    "suit.three_suit_chows.open": 1,
    # Faan from melds
    "meld.four_kongs": MAX,
    "meld.three_kongs": 2,
    "meld.four_pungs.closed": MAX,  # max (2)
    "meld.four_pungs.open": 2,
    "meld.three_closed_pungs": 2,
    "meld.three_same_number_pungs": 2,
    # Faan from honours / terminals
    "honours.four_winds": MAX,  # three wind pungs + wind pair or pung
    "honours.three_dragon_pungs": MAX,
    "honours.little_three_dragons": 2,  # two dragon pungs + dragon pair (listed twice: once)
    "honours.dragon_pung": 1,  # per dragon pung
    "honours.prevailing_wind": 1,
    "honours.seat_wind": 1,
    "honours.only_honours": MAX,
    "honours.only_terminals": MAX,
    "honours.terminals_and_honours": 2,
    "honours.all_simples": 1,
    "honours.terminal_in_each_meld.closed": 3,
    "honours.terminal_in_each_meld.open": 2,
    # Faan to points: 0:1, 1:2, 2:4, 3:8, 4-6:16, 7-9:32, 10-12:64, 13+:128
    "points.faan.0": 1,
    "points.faan.1": 2,
    "points.faan.2": 4,
    "points.faan.3": 8,
    "points.faan.4": 16,
    "points.faan.5": 16,
    "points.faan.6": 16,
    "points.faan.7": 32,
    "points.faan.8": 32,
    "points.faan.9": 32,
    "points.faan.10": 64,
    "points.faan.11": 64,
    "points.faan.12": 64,
    "points.faan.13": 128,
}
TOP_POINTS_FAAN = 13
# What a club may set each value to: the points table up to 10,000 points a hand; every
# other value 0 to 20 faan, or MAX (-1) for "scores the maximum".
VALUE_RANGES = ranges_by_kind(
    VALUE_DEFAULTS,
    {"points.": ValueRange(0, 10_000, "points"), "": ValueRange(MAX, 20, "faan")},
)
# The minimum and the limit: no hand scores more than 100 faan.
FAAN_RANGE = 100


def points_for_faan(values: Mapping[str, int], faan: int) -> int:
    """Points paid for a hand of ``faan`` faan, from the faan-to-points table."""
    return values[f"points.faan.{max(0, min(faan, TOP_POINTS_FAAN))}"]


# ---------------------------------------------------------------------------------------------
# Pattern predicates of this rule set. The shared ones (patterns.py) are used where the seed
# means the same thing; these are the ones seed 002 words its own way.


def _chows(reading) -> list[int]:
    return [g.tile for g in reading.groups if g.kind == "chow"]


def _pungs(reading) -> list[int]:
    """Pongs and kongs: "anything that needs a pung, you can also use kongs for"."""
    return [g.tile for g in reading.groups if g.kind in ("pong", "kong")]


def dragon_pung_tiles(reading) -> list[int]:
    return sorted(t for t in _pungs(reading) if is_dragon(t))


def four_winds(hand, reading) -> bool:
    """Three wind pungs + a wind pair or a fourth wind pung."""
    return patterns.little_four_winds(hand, reading) or patterns.big_four_winds(hand, reading)


def three_same_number_pungs(reading) -> bool:
    """Pungs of the same number in all three suits."""
    suits: dict[int, set[int]] = {}
    for tile in _pungs(reading):
        if is_suit(tile):
            suits.setdefault(number_of(tile), set()).add(suit_of(tile))
    return any(len(s) == 3 for s in suits.values())


def terminal_in_each_meld(reading) -> bool:
    """Every set and the pair hold a terminal: a suit 1 or 9 (honours are not terminals)."""
    return bool(reading.groups) and all(
        any(is_terminal(t) for t in g.tiles) for g in reading.groups
    )


def three_suit_chows(reading) -> bool:
    """The same chow in each of the three suits."""
    starts = set(_chows(reading))
    return any({n, n + 9, n + 18} <= starts for n in range(7))


def matching_chow_sets(reading) -> int:
    """How many sets of two identical chows (same suit, same numbers) the hand holds."""
    return sum(c // 2 for c in Counter(_chows(reading)).values())


# ---------------------------------------------------------------------------------------------


class HongKongRuleSet(RuleSet):
    name = "hk"
    title = "Hong Kong Old Style faan"
    option_defaults = OPTION_DEFAULTS
    value_defaults = VALUE_DEFAULTS
    shapes = frozenset(("standard", "seven_pairs", "thirteen_orphans"))
    quads_in_seven_pairs = False  # four of a kind is not two pairs
    minimum_option = "min_faan"
    limit_option = "max_faan"
    option_ranges = MappingProxyType(
        {"min_faan": (0, FAAN_RANGE), "max_faan": (1, FAAN_RANGE), "players": PLAYERS_RANGE}
    )
    value_ranges = VALUE_RANGES
    hand_options = frozenset(("players",))
    unit = "faan"
    starting_tally = 500

    # -- options and values ---------------------------------------------------------------

    def value_range_words(self, name: str) -> str:
        """As the base class, but a faan value's lowest, MAX (-1), means "max"."""
        low, high, unit = self.value_ranges[name]
        if low == MAX:
            return f'from 0 to {number_words(high)} {unit}, or -1 for "max"'
        return super().value_range_words(name)

    # -- scoring --------------------------------------------------------------------------

    def score_reading(self, hand, reading, opts) -> Result | None:
        """Score one reading (standard, seven pairs or thirteen orphans: see `shapes`)."""
        values = self.values
        closed = hand.is_concealed
        found: list[tuple[str, int]] = []  # (name, value) in reading order; value may be MAX

        def add(key: str, name: str) -> None:
            value = values[key]
            if value:
                found.append((name, value))

        def add_co(key: str, name: str, is_closed: bool = closed) -> None:
            add(f"{key}.{'closed' if is_closed else 'open'}", name)

        if reading.shape == "thirteen_orphans":
            add("special.thirteen_orphans", "Thirteen Orphans")
        else:
            standard = reading.shape == "standard"
            if not standard:
                add("special.seven_pairs", "Seven Pairs")
            elif patterns.nine_gates(hand, reading):
                add("special.nine_gates", "Nine Gates")
            self._flush(hand, reading, add_co)
            if standard:
                self._chows(hand, reading, add_co)
                self._melds(hand, reading, add, add_co)
                self._honour_sets(hand, reading, add)
            self._tile_kinds(hand, reading, add)
            if standard and terminal_in_each_meld(reading):
                add_co("honours.terminal_in_each_meld", "At least one terminal in each meld")
        self._move(hand, add, add_co)
        self._bonus(hand, add)
        maxed = [name for name, value in found if value == MAX]
        return self.capped_result(hand, opts, maxed, found)

    # Each helper adds one section of the seed's table, in the order of the breakdown.

    @staticmethod
    def _flush(hand, reading, add_co) -> None:
        if patterns.one_suit_only(hand, reading):
            add_co("suit.full_flush", "Full Flush")
        elif patterns.one_suit_with_honours(hand, reading):
            add_co("suit.half_flush", "Half Flush")

    @staticmethod
    def _chows(hand, reading, add_co) -> None:
        if patterns.three_consecutive_chows(hand, reading):
            add_co("suit.pure_straight", "Pure Straight")
        if three_suit_chows(reading):
            add_co("suit.three_suit_chows", "Three matching chow of different suits")
        matching = matching_chow_sets(reading)
        if matching >= 2:
            add_co("suit.two_double_chows", "Two sets of two matching chow of one suit")
        elif matching == 1:
            add_co("suit.double_chow", "Two matching chow of one suit")

    @staticmethod
    def _melds(hand, reading, add, add_co) -> None:
        kongs = patterns.kongs(reading)
        if kongs == 4:
            add("meld.four_kongs", "Four kongs")
        elif kongs == 3:
            add("meld.three_kongs", "Three kongs")
        closed_pungs = patterns.concealed_pongs(reading)
        if patterns.all_pongs(hand, reading):
            # "closed" here: all four pungs concealed (a pung completed by the winning discard
            # counts as exposed), not merely a closed hand; see docs/rules/hk.md
            add_co("meld.four_pungs", "Four pungs", closed_pungs == 4)
        if closed_pungs >= 3:
            add("meld.three_closed_pungs", "Three closed pungs")
        if three_same_number_pungs(reading):
            add("meld.three_same_number_pungs", "Three pungs with the same number")

    @staticmethod
    def _honour_sets(hand, reading, add) -> None:
        if four_winds(hand, reading):
            add("honours.four_winds", "Three wind pungs + wind pair or pung")
        if patterns.big_three_dragons(hand, reading):
            add("honours.three_dragon_pungs", "Three dragon pungs")
        if patterns.little_three_dragons(hand, reading):
            add("honours.little_three_dragons", "Two dragon pungs + dragon pair")
        for tile in dragon_pung_tiles(reading):
            add("honours.dragon_pung", f"One dragon pung ({code(tile)})")
        pungs = _pungs(reading)
        prevailing, seat = WIND_TILE[hand.prevailing_wind], WIND_TILE[hand.seat_wind]
        if prevailing in pungs:
            add("honours.prevailing_wind", f"Prevalent wind ({code(prevailing)})")
        if seat in pungs:
            add("honours.seat_wind", f"Seat wind ({code(seat)})")

    @staticmethod
    def _tile_kinds(hand, reading, add) -> None:
        if patterns.all_honours(hand, reading):
            add("honours.only_honours", "Only honours")
        elif patterns.all_terminals(hand, reading):
            add("honours.only_terminals", "Only terminals")
        elif patterns.terminals_and_honours_only(hand, reading):
            add("honours.terminals_and_honours", "Only terminals and honours")
        elif patterns.all_simples(hand, reading):
            add("honours.all_simples", "All Simples")

    @staticmethod
    def _move(hand, add, add_co) -> None:
        """Faan from the winning move."""
        if hand.first_turn and hand.self_drawn:
            add("move.first_draw", "Win with your first draw")
        if hand.won_by == "wall":
            add_co("move.wall_draw", "Normal draw from the wall")
        elif hand.won_by == "replacement":
            add("move.dead_wall_draw", "Any draw from the dead wall")
        elif hand.won_by == "robbing_kong":
            add("move.robbing_kong", "Steal from a small kong")
        if hand.last_tile:
            if hand.self_drawn:
                add("move.last_wall_draw", "Last draw from the wall")
            else:
                add("move.last_discard", "Steal the last discard")

    @staticmethod
    def _bonus(hand, add) -> None:
        """Faan from flowers and seasons."""
        bonus = set(hand.bonus)
        if len(bonus) == 8:
            add("special.eight_treasures", "Eight Treasures")
        if not bonus:
            add("bonus.none", "No bonus tiles at all")
        seat_number = WIND_NUMBER[hand.seat_wind]
        for tile in sorted(bonus):
            if bonus_number(tile) == seat_number:
                add("bonus.seat_tile", f"Season or flower of your seat ({code(tile)})")
        if bonus.issuperset(FLOWER_TILES):
            add("bonus.all_flowers", "All flowers")
        if bonus.issuperset(SEASON_TILES):
            add("bonus.all_seasons", "All seasons")

    def payments(self, win, total, opts, seats=WINDS) -> dict[str, int]:
        """Points from the faan table: the discarder (or the robbed player) pays 2x and the
        others 1x; self-drawn, everyone pays 2x. The dealer pays like anyone else."""
        points = points_for_faan(self.values, total)
        discarder = None if win.self_drawn else win.discarder
        return settle(
            win.seat_wind,
            owed_by_others(win.seat_wind, seats, discarder, 2 * points, 2 * points, points),
        )


RULESET = HongKongRuleSet()
