"""Classical points and doublings (seeds 000 and 001; docs/rules/classical.md).

Score = basic points x 2^doublings, capped at the limit (option ``limit``, default 2000).
Limit hands score the limit. Every number of the seed's tables is a value in
``VALUE_DEFAULTS`` (a club may change any of them); ``docs/rules/classical.md`` is the
page for club members.

Speed: everything that depends only on the values and the two winds (set and pair items
with their names) is built once per rule-set instance and wind pair; ``score_reading``
does one pass over the groups with table lookups and builds no string for an element
that does not score.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from types import MappingProxyType

from ..errors import EngineError
from ..hand import describe_hand
from ..patterns import nine_gates
from ..result import Item, Result
from ..shapes import special_shapes
from ..tiles import CODES, WINDS
from .base import (
    MAX_TOTAL,
    PLAYERS_DEFAULT,
    PLAYERS_RANGE,
    THREE_PLAYER_SEATS,
    RuleSet,
    ValueRange,
    ranges_by_kind,
)

NAME = "classical"
TITLE = "Classical points and doublings"

OPTION_DEFAULTS: Mapping[str, int | bool] = MappingProxyType(
    # players: 4, or 3 at a table of three (East, South and West; North pays nothing).
    {"limit": 2000, "players": PLAYERS_DEFAULT}
)

# --- the seed's tables as data ------------------------------------------------------------
# Set rows: (kind, category) -> (exposed points, exposed doublings, concealed points,
# concealed doublings), exactly as seed 000's "Basic Scoring" tables print them
# ("Melded" is called exposed here, as in the contract).
_SET_ROWS = {
    ("chow", "any"): (0, 0, 0, 0),
    ("pong", "minor"): (2, 0, 4, 1),
    ("kong", "minor"): (8, 1, 16, 1),
    ("pong", "terminal"): (4, 0, 8, 1),
    ("kong", "terminal"): (16, 1, 32, 1),
    ("pong", "wind"): (4, 0, 8, 1),
    ("pong", "prevailing_wind"): (4, 1, 8, 1),
    ("pong", "own_wind"): (4, 1, 8, 1),
    ("pong", "double_wind"): (8, 2, 16, 2),
    ("kong", "wind"): (16, 1, 32, 1),
    ("kong", "prevailing_wind"): (16, 2, 32, 2),
    ("kong", "own_wind"): (16, 2, 32, 2),
    ("kong", "double_wind"): (32, 4, 64, 4),
    ("pong", "dragon"): (4, 2, 8, 2),
    ("kong", "dragon"): (16, 2, 32, 2),
}
# Pair rows: category -> points (the seed prints no doublings for pairs: "None").
_PAIR_ROWS = {
    "minor": 0,
    "terminal": 0,
    "wind": 0,
    "prevailing_wind": 2,
    "own_wind": 2,
    "double_wind": 4,
    "dragon": 2,
}


def _value_defaults() -> dict[str, int]:
    values = {
        # Mahjong bonus table: 20 for going out, the wall row prints 22 (= +2), the kong box
        # and player-discard rows print 20 (= +0), concealed +10.
        "mahjong.points": 20,
        "mahjong.wall.points": 2,
        "mahjong.replacement.points": 0,
        "mahjong.discard.points": 0,
        "mahjong.concealed.points": 10,
        "win.last_wall_tile.doublings": 1,
        "win.last_discard.doublings": 1,
        "win.robbing_kong.doublings": 1,
    }
    for (kind, category), (ep, ed, cp, cd) in _SET_ROWS.items():
        prefix = kind if kind == "chow" else f"{kind}.{category}"
        values[f"{prefix}.exposed.points"] = ep
        values[f"{prefix}.exposed.doublings"] = ed
        values[f"{prefix}.concealed.points"] = cp
        values[f"{prefix}.concealed.doublings"] = cd
    for category, points in _PAIR_ROWS.items():
        values[f"pair.{category}.points"] = points
        values[f"pair.{category}.doublings"] = 0
    values.update(
        {
            # Bonus tiles table.
            "bonus.flower.points": 2,
            "bonus.season.points": 2,
            "bonus.own_flower.doublings": 1,
            "bonus.own_season.doublings": 1,
            "bonus.prevailing_flower.doublings": 1,
            "bonus.prevailing_season.doublings": 1,
            "bonus.four_flowers.doublings": 1,
            "bonus.four_seasons.doublings": 1,
            # Special hands tables (the doubling ones; limit hands score the limit).
            "hand.no_points.doublings": 1,
            "hand.all_simples.doublings": 1,
            "hand.three_consecutive_chows.doublings": 1,
            "hand.four_triplets.doublings": 1,
            "hand.three_and_one.doublings": 1,
            "hand.four_triplets_three_concealed.doublings": 2,
            "hand.one_suit_only.doublings": 8,
            "hand.all_honours_and_terminals.doublings": 1,
            "hand.honour_or_terminal_in_each_set.doublings": 1,
            "hand.one_suit_with_honours.doublings": 1,
            "hand.little_three_dragons.doublings": 1,
        }
    )
    return values


VALUE_DEFAULTS: Mapping[str, int] = MappingProxyType(_value_defaults())
# What a club may set each value to: a set or a bonus is worth up to 1,000 points and up to
# 10 doublings (a hand doubled 10 times is 1,024 times its points: the limit stops it).
VALUE_RANGES = ranges_by_kind(
    VALUE_DEFAULTS,
    {".points": ValueRange(0, 1000, "points"), ".doublings": ValueRange(0, 10, "doublings")},
)
# The limit: from 10 points (below any hand) up to the most a quick entry may total.
LIMIT_RANGE = (10, MAX_TOTAL)

# Names shown in the breakdown (sentence case, as in the contract's example).
_CATEGORY_LABEL = {
    "minor": "minor tiles",
    "terminal": "terminals",
    "wind": "winds",
    "prevailing_wind": "prevailing wind",
    "own_wind": "own wind",
    "double_wind": "double wind",
    "dragon": "dragons",
}
# Doubling hands, in the seed's order: (value key, breakdown name).
_HAND_NAMES = {
    "no_points": "No points",
    "all_simples": "All simples",
    "three_consecutive_chows": "Three consecutive chows",
    "four_triplets": "Four triplets",
    "three_and_one": "Three and one",
    "four_triplets_three_concealed": "Four triplets, three concealed",
    "one_suit_only": "One suit only",
    "all_honours_and_terminals": "All honours and terminals",
    "honour_or_terminal_in_each_set": "Honour or terminal in each set",
    "one_suit_with_honours": "One suit with honours",
    "little_three_dragons": "Little three dragons",
}
# Limit hands, in the seed's order.
LIMIT_HANDS = (
    "Heavenly hand",
    "Earthly hand",
    "Four triplets, all concealed",
    "Four concealed triplets",
    "Nine gates",
    "Big three dragons",
    "Little four winds",
    "Big four winds",
    "All honours",
    "All terminals",
    "Thirteen orphans",
)
(
    HEAVENLY,
    EARTHLY,
    FOUR_TRIPLETS_CONCEALED,
    FOUR_CONCEALED_TRIPLETS,
    NINE_GATES,
    BIG_THREE_DRAGONS,
    LITTLE_FOUR_WINDS,
    BIG_FOUR_WINDS,
    ALL_HONOURS,
    ALL_TERMINALS,
    THIRTEEN_ORPHANS,
) = range(len(LIMIT_HANDS))

# --- group facts, precomputed ---------------------------------------------------------------
# Each group of a reading becomes one table entry (see _Tables.winds) carrying, besides its
# item, points and doublings, three small ints that score_reading combines with + & |:
# - counters, added: 4-bit fields (see _COUNT_*), so one addition counts everything;
# - AND flags: the group keeps the hand "all simples" / "only terminals and honours" /
#   "a terminal or honour in each group";
# - OR bits: the suit (bits 0-2) or honours (bit 3), the start of a chow (bit 4 + tile),
#   and whether the pair is a dragon (_PAIR_DRAGON) or a wind (_PAIR_WIND).
_COUNT_TRIPLET = 1
_COUNT_CONCEALED_TRIPLET = 1 << 4
_COUNT_KONG = 1 << 8
_COUNT_CHOW = 1 << 12
_COUNT_DRAGON_TRIPLET = 1 << 16
_COUNT_WIND_TRIPLET = 1 << 20
_ALL_SIMPLE, _ONLY_MAJOR, _EACH_MAJOR = 1, 2, 4
_PAIR_DRAGON = 1 << 31
_PAIR_WIND = 1 << 32
_CHOW_BITS = 4
_CONSECUTIVE_CHOWS = 0b1001001  # chows starting at 1, 4 and 7 of one suit
_SEAT_INDEX = {w: i for i, w in enumerate(WINDS)}


def _group_facts(kind: str, tile: int, concealed: bool) -> tuple[int, int, int]:
    """(counters, AND flags, OR bits) of one group."""
    suit_bit = 1 << (tile // 9) if tile < 27 else 8
    major = tile >= 27 or tile % 9 in (0, 8)
    if kind == "chow":
        has_terminal = tile % 9 in (0, 6)
        flags = _EACH_MAJOR if has_terminal else _ALL_SIMPLE
        return _COUNT_CHOW, flags, suit_bit | 1 << (_CHOW_BITS + tile)
    flags = _ONLY_MAJOR | _EACH_MAJOR if major else _ALL_SIMPLE
    if kind == "pair":
        bits = suit_bit
        if tile >= 31:
            bits |= _PAIR_DRAGON
        elif tile >= 27:
            bits |= _PAIR_WIND
        return 0, flags, bits
    counters = _COUNT_TRIPLET
    if concealed:
        counters += _COUNT_CONCEALED_TRIPLET
    if kind == "kong":
        counters += _COUNT_KONG
    if tile >= 31:
        counters += _COUNT_DRAGON_TRIPLET
    elif tile >= 27:
        counters += _COUNT_WIND_TRIPLET
    return counters, flags, suit_bit


def _category(tile: int, own: int, prevailing: int) -> str:
    if tile < 27:
        return "terminal" if tile % 9 in (0, 8) else "minor"
    if tile >= 31:
        return "dragon"
    if tile == own:
        return "double_wind" if tile == prevailing else "own_wind"
    return "prevailing_wind" if tile == prevailing else "wind"


def _item(name: str, points: int = 0, doublings: int = 0) -> Item:
    return Item(name=name, points=points or None, doublings=doublings or None)


class _Tables:
    """Everything score_reading looks up, built from one rule set's values."""

    __slots__ = (
        "values",
        "by_winds",
        "mahjong",
        "win_items",
        "bonus_points",
        "bonus_items",
        "hand",
        "four_flowers",
        "four_seasons",
        "bonus_lines",
    )

    def __init__(self, values: Mapping[str, int]) -> None:
        self.values = values
        self.by_winds: dict[tuple[str, str], dict] = {}
        self.bonus_lines: dict[tuple[int, int], Item] = {}
        v = values
        # Mahjong items per (won_by, concealed hand): (basic points, items).
        base = v["mahjong.points"]
        extra = {
            "wall": ("Winning tile from the wall", v["mahjong.wall.points"]),
            "replacement": ("Winning tile from the kong box", v["mahjong.replacement.points"]),
            "discard": ("Winning tile from a discard", v["mahjong.discard.points"]),
            "robbing_kong": ("Winning tile from a discard", v["mahjong.discard.points"]),
        }
        conc = v["mahjong.concealed.points"]
        self.mahjong = {}
        for won_by, (label, points) in extra.items():
            self.mahjong[won_by] = by_concealed = [None, None]
            for concealed in (False, True):
                items = [_item("Mahjong", base)] if base else []
                total = base
                if points:
                    items.append(_item(label, points))
                    total += points
                if concealed and conc:
                    items.append(_item("Concealed hand", conc))
                    total += conc
                by_concealed[concealed] = (total, tuple(items))
        # Winning-move doublings per (won_by, last_tile): (doublings, items).
        self.win_items = {}
        last_wall = v["win.last_wall_tile.doublings"]
        last_discard = v["win.last_discard.doublings"]
        robbing = v["win.robbing_kong.doublings"]
        for won_by in extra:
            for last in (False, True):
                found = []
                if last:
                    if won_by in ("wall", "replacement"):
                        found.append(("Last wall tile", last_wall))
                    else:
                        found.append(("Last discarded tile", last_discard))
                if won_by == "robbing_kong":
                    found.append(("Robbing a kong", robbing))
                found = [(n, d) for n, d in found if d]
                self.win_items[won_by, last] = (
                    sum(d for _, d in found),
                    tuple(_item(n, 0, d) for n, d in found),
                )
        # Bonus tiles: points of each, and per seat / prevailing wind the doubling items.
        self.bonus_points = tuple(
            v["bonus.flower.points"] if t < 38 else v["bonus.season.points"] for t in range(34, 42)
        )
        own_f, own_s = v["bonus.own_flower.doublings"], v["bonus.own_season.doublings"]
        pre_f, pre_s = (
            v["bonus.prevailing_flower.doublings"],
            v["bonus.prevailing_season.doublings"],
        )
        # bonus_items[i] = ((own flower item, d), (own season item, d),
        #                   (prevailing flower item, d), (prevailing season item, d))
        self.bonus_items = tuple(
            (
                (_item(f"Own flower ({CODES[34 + i]})", 0, own_f), own_f),
                (_item(f"Own season ({CODES[38 + i]})", 0, own_s), own_s),
                (_item(f"Flower of the prevailing wind ({CODES[34 + i]})", 0, pre_f), pre_f),
                (_item(f"Season of the prevailing wind ({CODES[38 + i]})", 0, pre_s), pre_s),
            )
            for i in range(4)
        )
        d = v["bonus.four_flowers.doublings"]
        self.four_flowers = (_item("Four flowers", 0, d), d)
        d = v["bonus.four_seasons.doublings"]
        self.four_seasons = (_item("Four seasons", 0, d), d)
        # Doubling hands: key -> (item or None, doublings).
        self.hand = {}
        for key, name in _HAND_NAMES.items():
            d = v[f"hand.{key}.doublings"]
            self.hand[key] = (_item(name, 0, d) if d else None, d)

    def bonus_line(self, count: int, points: int) -> Item:
        """The "Flowers and seasons (n)" line, built once per (count, points)."""
        item = self.bonus_lines.get((count, points))
        if item is None:
            item = self.bonus_lines[count, points] = _item(f"Flowers and seasons ({count})", points)
        return item

    def winds(self, seat: str, prevailing: str) -> dict:
        """The group table for one seat / prevailing wind pair:
        ``table[kind][concealed][tile] -> (item or None, points, doublings, counters,
        AND flags, OR bits, is the pair)``; kind is "pong", "kong", "chow" or "pair"."""
        key = (seat, prevailing)
        found = self.by_winds.get(key)
        if found is not None:
            return found
        v = self.values
        own = 27 + _SEAT_INDEX[seat]
        prev = 27 + _SEAT_INDEX[prevailing]
        table = {}
        for kind in ("pong", "kong", "chow", "pair"):
            rows = []
            for concealed in (False, True):
                state = "concealed" if concealed else "exposed"
                row = []
                for tile in range(34):
                    if kind == "chow" and (tile >= 27 or tile % 9 > 6):
                        row.append(None)  # no such chow
                        continue
                    category = _category(tile, own, prev)
                    if kind == "chow":
                        prefix = f"chow.{state}"
                        label = f"{state.capitalize()} chow ({CODES[tile]} {CODES[tile + 1]} {CODES[tile + 2]})"
                    elif kind == "pair":  # one value whether or not the winning tile made it
                        prefix = f"pair.{category}"
                        label = f"Pair of {_CATEGORY_LABEL[category]} ({CODES[tile]})"
                    else:
                        prefix = f"{kind}.{category}.{state}"
                        label = f"{state.capitalize()} {kind} of {_CATEGORY_LABEL[category]} ({CODES[tile]})"
                    p = v[f"{prefix}.points"]
                    d = v[f"{prefix}.doublings"]
                    item = _item(label, p, d) if (p or d) else None
                    facts = _group_facts(kind, tile, concealed)
                    row.append((item, p, d, *facts, kind == "pair"))
                rows.append(tuple(row))
            table[kind] = tuple(rows)
        self.by_winds[key] = table
        return table


# --- payments ------------------------------------------------------------------------------


def _multipliers(
    winner: str, dealer: str, discarder: str | None, seats: tuple[str, ...] = WINDS
) -> tuple[int, ...]:
    """How many times the score each seat (E, S, W, N) pays; the winner's entry is minus the
    sum, so the payments add up to zero (seed 000's payment table). A seat not in `seats`
    is not at the table and pays nothing."""
    pays = []
    for seat in WINDS:
        if seat == winner or seat not in seats:
            pays.append(0)
        elif discarder is None:  # self-drawn (a replacement-tile win counts as from the wall)
            pays.append(2 if winner == dealer or seat == dealer else 1)
        elif seat == discarder:  # discard; robbing a kong: the robbed player is the discarder
            pays.append(4 if winner == dealer or seat == dealer else 2)
        else:
            pays.append(0)
    total = sum(pays)
    return tuple(-total if seat == winner else p for seat, p in zip(WINDS, pays, strict=True))


# Every four-player case, worked out once: scoring looks the multipliers up.
_MULTIPLIERS = {
    (winner, dealer, discarder): _multipliers(winner, dealer, discarder)
    for winner in WINDS
    for dealer in WINDS
    for discarder in (None, *WINDS)
    if discarder != winner
}


def payments(win, total: int, seats: tuple[str, ...] = WINDS) -> dict[str, int]:
    """Net tally change per seat for a hand worth ``total``; sums to zero."""
    discarder = None if win.self_drawn else win.discarder
    if seats is WINDS:
        mult = _MULTIPLIERS[win.seat_wind, win.dealer, discarder]
    else:
        mult = _multipliers(win.seat_wind, win.dealer, discarder, seats)
    return {
        "E": -mult[0] * total,
        "S": -mult[1] * total,
        "W": -mult[2] * total,
        "N": -mult[3] * total,
    }


# --- the rule set --------------------------------------------------------------------------


class ClassicalRuleSet(RuleSet):
    name = NAME
    title = TITLE
    option_defaults = OPTION_DEFAULTS
    value_defaults = VALUE_DEFAULTS

    unit = "points"
    starting_tally = 2000
    shapes = frozenset(("standard", "thirteen_orphans"))
    limit_option = "limit"
    value_ranges = VALUE_RANGES
    option_ranges = MappingProxyType({"limit": LIMIT_RANGE, "players": PLAYERS_RANGE})
    hand_options = frozenset(("players",))

    def _tables(self) -> _Tables:
        """The lookup tables for this instance's values, built on first use. (with_overrides
        copies the instance: a copy with other values sees the mismatch and rebuilds.)"""
        values = self.values
        cached = self.__dict__.get("_cached_tables")
        if cached is not None and cached.values is values:
            return cached
        tables = _Tables(values)
        self._cached_tables = tables
        return tables

    def payments(self, win, total, opts, seats=WINDS) -> dict[str, int]:
        return payments(win, total, seats)

    def total_problem(self, total: int, opts: Mapping) -> str | None:
        """Below the limit a score is basic points x 2^doublings, and basic points are
        Mahjong's points plus what the elements score: so a score is a multiple of what all
        those points have in common (2 with the seed's tables), and at least Mahjong's
        points plus the smallest element (22), or Mahjong alone doubled for No points (40).
        Some even scores pass though no hand makes them (50: no hand has 50 basic points
        without a doubling); a table of every possible score would need every hand."""
        if total == opts["limit"]:
            return None
        if any(v < 0 for v in self.values.values()):
            return None  # a club's negative values: no safe bound
        points = [v for k, v in self.values.items() if k.endswith(".points")]
        step = math.gcd(*points)
        if step > 1 and total % step:
            words = "even" if step == 2 else f"a multiple of {step}"
            return (
                f"Classical scores are always {words} (below the limit of {opts['limit']}): "
                f"{total} cannot be right."
            )
        values = self.values
        mahjong = values["mahjong.points"]
        extras = [
            v for k, v in values.items() if k.endswith(".points") and v and k != "mahjong.points"
        ]
        smallest = mahjong << values["hand.no_points.doublings"]
        if extras:
            smallest = min(smallest, mahjong + min(extras))
        if total < smallest:
            return (
                f"{total} points is below the smallest classical score, {smallest}: "
                "Mahjong alone is worth more."
            )
        return None

    def score(self, hand, options=None) -> Result:
        try:
            return super().score(hand, options)
        except EngineError:
            # A hand whose only shapes are ones the seeds do not know (seven pairs, the u3a
            # knitting and snake hands): say so in classical's own words. Those shapes need
            # 14 concealed tiles and no meld; tile counts tell them cheaply.
            if not hand.melds and len(hand.concealed) == 14:
                counts = [0] * 34
                for t in hand.concealed:
                    counts[t] += 1
                unknown = [s for s in special_shapes(counts) if s not in self.shapes]
                if unknown:
                    shapes = " / ".join(s.replace("_", " ") for s in unknown)
                    raise EngineError(
                        f"This hand ({describe_hand(hand)}) is not complete under the classical "
                        f"rules: it makes only {shapes}, and classical scores four sets and a "
                        f"pair, or thirteen orphans."
                    ) from None
            raise

    def _limit_result(self, hand, index: int, limit: int, seats: tuple[str, ...]) -> Result:
        return Result(
            rules=NAME,
            total=limit,
            limit=True,
            allowed=True,
            breakdown=(Item(name=LIMIT_HANDS[index], points=limit),),
            payments=payments(hand, limit, seats),
        )

    def score_reading(self, hand, reading, opts) -> Result | None:
        """One reading, counted as seed 000 counts: limit hands first; then basic points for
        the sets and the pair, the bonus tiles and going out, and the doublings that come
        with them; then basic points x 2^doublings, capped at the limit. Each step appends
        its lines to the breakdown and returns what it adds."""
        limit = opts["limit"]
        seats = WINDS if opts["players"] == 4 else THREE_PLAYER_SEATS
        if reading.shape != "standard" or hand.first_turn:
            return self._limit_by_shape_or_first_turn(hand, reading, limit, seats)
        tables = self.__dict__.get("_cached_tables")
        if tables is None or tables.values is not self.values:
            tables = self._tables()
        seat, prevailing = hand.seat_wind, hand.prevailing_wind
        table = tables.by_winds.get((seat, prevailing)) or tables.winds(seat, prevailing)
        breakdown = []
        points, doublings, facts = _score_sets_and_pair(table, reading.groups, breakdown)
        limit_hand = _limit_hand(hand, reading, facts)
        if limit_hand >= 0:
            return self._limit_result(hand, limit_hand, limit, seats)
        bonus_points, bonus_doublings = _score_bonus_tiles(tables, hand, breakdown)
        no_points = points == 0 and bonus_points == 0
        points += bonus_points + _score_mahjong(tables, hand, breakdown)
        doublings += bonus_doublings + _double_for_winning_move(tables, hand, breakdown)
        doublings += _double_for_hand_patterns(tables.hand, facts, no_points, breakdown)
        return _capped_result(hand, breakdown, points, doublings, limit, seats)

    def _limit_by_shape_or_first_turn(
        self, hand, reading, limit: int, seats: tuple[str, ...]
    ) -> Result | None:
        """Thirteen orphans, and heavenly / earthly hands, score the limit; other special
        shapes are not winning hands in classical (None)."""
        shape = reading.shape
        if shape == "thirteen_orphans":
            return self._limit_result(hand, THIRTEEN_ORPHANS, limit, seats)
        if shape != "standard":
            # Seeds 000/001 know only four sets and a pair, and Thirteen Orphans: seven
            # pairs and the u3a shapes are not winning hands in classical.
            return None
        return self._limit_result(
            hand, HEAVENLY if hand.seat_wind == hand.dealer else EARTHLY, limit, seats
        )


# --- the steps of score_reading -------------------------------------------------------------


def _score_sets_and_pair(table: dict, groups: tuple, breakdown: list) -> tuple[int, int, tuple]:
    """Each set's points and doublings from the seed's set table (chows score nothing), then
    the pair's (dragons, own wind, prevailing wind; double wind twice). Returns (points,
    doublings, facts): the facts (counters, AND flags, OR bits; see _group_facts) are what
    limit and doubling hands are read from."""
    points = doublings = counters = 0
    and_flags = _ALL_SIMPLE | _ONLY_MAJOR | _EACH_MAJOR
    or_bits = 0
    # Declared melds, then concealed sets, then the pair: listed in that order.
    for g in groups:
        entry = table[g.kind][g.concealed][g.tile]
        item = entry[0]
        if item is not None:
            breakdown.append(item)
            points += entry[1]
            doublings += entry[2]
        counters += entry[3]
        and_flags &= entry[4]
        or_bits |= entry[5]
    return points, doublings, (counters, and_flags, or_bits)


def _limit_hand(hand, reading, facts: tuple[int, int, int]) -> int:
    """The first limit hand of four sets and a pair this reading makes, in the seed's
    order (an index into LIMIT_HANDS), or -1."""
    counters, and_flags, or_bits = facts
    suits = or_bits & 15  # 1, 2, 4: one suit; 8: honours
    if counters & 15 == 4 and counters >> 4 & 15 == 4:
        return FOUR_CONCEALED_TRIPLETS if counters & 0xF00 == 0 else FOUR_TRIPLETS_CONCEALED
    if (suits == 1 or suits == 2 or suits == 4) and nine_gates(hand, reading):
        return NINE_GATES
    if counters >> 16 & 15 == 3:
        return BIG_THREE_DRAGONS
    if counters >> 20 & 15 == 3 and or_bits & _PAIR_WIND:
        return LITTLE_FOUR_WINDS
    if counters >> 20 & 15 == 4:
        return BIG_FOUR_WINDS
    if suits == 8:
        return ALL_HONOURS
    if and_flags & _ONLY_MAJOR and not suits & 8:
        return ALL_TERMINALS
    return -1


_NOTHING = (0, 0)


def _score_bonus_tiles(tables: _Tables, hand, breakdown: list) -> tuple[int, int]:
    """Points for each flower and season; doublings for own and prevailing-wind ones and
    for all four of a kind. Returns (points, doublings)."""
    bonus = hand.bonus
    if not bonus:
        return _NOTHING
    points = 0
    bonus_table = tables.bonus_points
    for t in bonus:
        points += bonus_table[t - 34]
    if points:
        breakdown.append(tables.bonus_line(len(bonus), points))
    seat = _SEAT_INDEX[hand.seat_wind]
    prev = _SEAT_INDEX[hand.prevailing_wind]
    found = []
    if 34 + seat in bonus:
        found.append(tables.bonus_items[seat][0])
    if 38 + seat in bonus:
        found.append(tables.bonus_items[seat][1])
    if 34 + prev in bonus:
        found.append(tables.bonus_items[prev][2])
    if 38 + prev in bonus:
        found.append(tables.bonus_items[prev][3])
    if len(bonus) >= 4:
        flowers = sum(1 for t in bonus if t < 38)
        if flowers == 4:
            found.append(tables.four_flowers)
        if len(bonus) - flowers == 4:
            found.append(tables.four_seasons)
    doublings = 0
    for item, d in found:
        if d:
            breakdown.append(item)
            doublings += d
    return points, doublings


def _score_mahjong(tables: _Tables, hand, breakdown: list) -> int:
    """Going out: Mahjong's points, more for a tile from the wall and for a concealed hand
    (declared concealed kongs keep it concealed); listed first. Returns the points."""
    concealed_hand = True
    for meld in hand.melds:
        if not meld.concealed:
            concealed_hand = False
            break
    points, items = tables.mahjong[hand.won_by][concealed_hand]
    if items:
        breakdown[0:0] = items
    return points


def _double_for_winning_move(tables: _Tables, hand, breakdown: list) -> int:
    """Doublings for the last tile of the wall, the last discard and robbing a kong."""
    d, items = tables.win_items[hand.won_by, hand.last_tile]
    if d:
        breakdown.extend(items)
    return d


def _double_for_hand_patterns(
    hand_table: dict, facts: tuple[int, int, int], no_points: bool, breakdown: list
) -> int:
    """Doublings for the whole hand's patterns, in the seed's order (No points: no set,
    pair or bonus tile scored any points)."""
    counters, and_flags, or_bits = facts
    suits = or_bits & 15
    triplets = counters & 15
    concealed_triplets = counters >> 4 & 15
    found = []
    if no_points:
        found.append(hand_table["no_points"])
    if and_flags & _ALL_SIMPLE:
        found.append(hand_table["all_simples"])
    if counters >> 12 & 15 >= 3:
        chow_bits = or_bits >> _CHOW_BITS
        for shift in (0, 9, 18):
            if chow_bits >> shift & _CONSECUTIVE_CHOWS == _CONSECUTIVE_CHOWS:
                found.append(hand_table["three_consecutive_chows"])
                break
    if triplets == 4:
        found.append(
            hand_table["four_triplets_three_concealed"]
            if concealed_triplets == 3
            else hand_table["four_triplets"]
        )
    elif concealed_triplets == 3 and counters >> 12 & 15 == 1:
        found.append(hand_table["three_and_one"])
    if suits == 1 or suits == 2 or suits == 4:
        found.append(hand_table["one_suit_only"])
    if and_flags & _ONLY_MAJOR:  # with honours and terminals: the pure ones are limits
        found.append(hand_table["all_honours_and_terminals"])
    if and_flags & _EACH_MAJOR:
        found.append(hand_table["honour_or_terminal_in_each_set"])
    if suits == 9 or suits == 10 or suits == 12:
        found.append(hand_table["one_suit_with_honours"])
    if counters >> 16 & 15 == 2 and or_bits & _PAIR_DRAGON:
        found.append(hand_table["little_three_dragons"])
    doublings = 0
    for item, d in found:
        if item is not None:
            breakdown.append(item)
            doublings += d
    return doublings


def _capped_result(
    hand, breakdown: list, points: int, doublings: int, limit: int, seats: tuple[str, ...]
) -> Result:
    """Basic points x 2^doublings, capped at the limit."""
    raw = points << doublings if doublings >= 0 else points >> -doublings
    total = raw if raw < limit else limit
    return Result(
        rules=NAME,
        total=total,
        limit=raw >= limit,
        allowed=True,
        breakdown=tuple(breakdown),
        payments=payments(hand, total, seats),
    )


RULESET = ClassicalRuleSet()
