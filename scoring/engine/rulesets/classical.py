"""Classical points and doublings (seeds 000 and 001; rulings.md section "classical").

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

from collections.abc import Mapping
from types import MappingProxyType

from ..decompose import readings
from ..errors import EngineError
from ..hand import describe_hand
from ..patterns import nine_gates
from ..result import Item, Result
from ..tiles import CODES, WINDS
from .base import RuleSet

NAME = "classical"
TITLE = "Classical points and doublings"

OPTION_DEFAULTS: Mapping[str, int | bool] = MappingProxyType({"limit": 2000})

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

# --- tile facts, precomputed ---------------------------------------------------------------
# Bit of the suit (1 bamboo, 2 characters, 4 dots) or 8 for an honour.
_SUIT_BIT = tuple(1 << (t // 9) if t < 27 else 8 for t in range(34))
_MAJOR = tuple(t >= 27 or t % 9 in (0, 8) for t in range(34))
_SIMPLE = tuple(not m for m in _MAJOR)
# A chow starting at tile t: number of its first tile 0..6 (1-based 1..7).
_CHOW_HAS_TERMINAL = tuple(t < 27 and t % 9 in (0, 6) for t in range(34))
_KIND_INDEX = {"pong": 0, "kong": 1, "chow": 2}
_CONSECUTIVE_CHOWS = 0b1001001  # chows starting at 1, 4 and 7
_SEAT_INDEX = {w: i for i, w in enumerate(WINDS)}


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
    )

    def __init__(self, values: Mapping[str, int]) -> None:
        self.values = values
        self.by_winds: dict[tuple[str, str], tuple] = {}
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
            for concealed in (False, True):
                items = [_item("Mahjong", base)] if base else []
                total = base
                if points:
                    items.append(_item(label, points))
                    total += points
                if concealed and conc:
                    items.append(_item("Concealed hand", conc))
                    total += conc
                self.mahjong[won_by, concealed] = (total, tuple(items))
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

    def winds(self, seat: str, prevailing: str) -> tuple:
        """(set table, pair table) for one seat / prevailing wind pair.

        set table: indexed [kind * 2 + concealed][tile] -> (item or None, points, doublings)
        pair table: [tile] -> (item or None, points, doublings)
        """
        key = (seat, prevailing)
        found = self.by_winds.get(key)
        if found is not None:
            return found
        v = self.values
        own = 27 + _SEAT_INDEX[seat]
        prev = 27 + _SEAT_INDEX[prevailing]
        sets = []
        for kind in ("pong", "kong", "chow"):
            for concealed in (False, True):
                state = "concealed" if concealed else "exposed"
                row = []
                for tile in range(34):
                    if kind == "chow":
                        if tile >= 27 or tile % 9 > 6:
                            row.append((None, 0, 0))
                            continue
                        prefix = "chow"
                        label = f"{state.capitalize()} chow ({CODES[tile]} {CODES[tile + 1]} {CODES[tile + 2]})"
                    else:
                        category = _category(tile, own, prev)
                        prefix = f"{kind}.{category}"
                        label = f"{state.capitalize()} {kind} of {_CATEGORY_LABEL[category]} ({CODES[tile]})"
                    p = v[f"{prefix}.{state}.points"]
                    d = v[f"{prefix}.{state}.doublings"]
                    row.append((_item(label, p, d) if (p or d) else None, p, d))
                sets.append(tuple(row))
        pairs = []
        for tile in range(34):
            category = _category(tile, own, prev)
            p = v[f"pair.{category}.points"]
            d = v[f"pair.{category}.doublings"]
            label = f"Pair of {_CATEGORY_LABEL[category]} ({CODES[tile]})"
            pairs.append((_item(label, p, d) if (p or d) else None, p, d))
        found = (tuple(sets), tuple(pairs))
        self.by_winds[key] = found
        return found


# --- payments ------------------------------------------------------------------------------


def _multipliers(winner: str, dealer: str, discarder: str | None) -> tuple[int, ...]:
    """How many times the score each seat (E, S, W, N) pays; the winner's entry is minus the
    sum, so the payments add up to zero (seed 000's payment table)."""
    pays = []
    for seat in WINDS:
        if seat == winner:
            pays.append(0)
        elif discarder is None:  # self-drawn (a replacement-tile win counts as from the wall)
            pays.append(2 if winner == dealer or seat == dealer else 1)
        elif seat == discarder:  # discard; robbing a kong: the robbed player is the discarder
            pays.append(4 if winner == dealer or seat == dealer else 2)
        else:
            pays.append(0)
    total = sum(pays)
    return tuple(-total if seat == winner else p for seat, p in zip(WINDS, pays, strict=True))


_MULTIPLIERS = {
    (winner, dealer, discarder): _multipliers(winner, dealer, discarder)
    for winner in WINDS
    for dealer in WINDS
    for discarder in (None, *WINDS)
    if discarder != winner
}


def payments(hand, total: int) -> dict[str, int]:
    """Net tally change per seat for a hand worth ``total``; sums to zero."""
    discarder = None if hand.self_drawn else hand.discarder
    mult = _MULTIPLIERS[hand.seat_wind, hand.dealer, discarder]
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

    shapes = frozenset(("standard", "thirteen_orphans"))
    limit_option = "limit"

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

    def _convert(self, name: object, value: object) -> object:
        value = super()._convert(name, value)
        if name == "limit" and value < 1:
            raise EngineError(
                f"Option 'limit' of the classical rules must be a whole number of points "
                f"above 0, not {value!r}."
            )
        return value

    def score(self, hand, options=None) -> Result:
        try:
            return super().score(hand, options)
        except EngineError:
            # A hand whose only readings are shapes the seeds do not know (seven pairs, the
            # u3a knitting and snake hands): say so in classical's own words.
            found = readings(hand)
            if found and not any(r.shape in self.shapes for r in found):
                shapes = " / ".join(sorted({r.shape.replace("_", " ") for r in found}))
                raise EngineError(
                    f"This hand ({describe_hand(hand)}) is not complete under the classical "
                    f"rules: it makes only {shapes}, and classical scores four sets and a "
                    f"pair, or thirteen orphans."
                ) from None
            raise

    def _limit_result(self, hand, index: int, limit: int) -> Result:
        return Result(
            rules=NAME,
            total=limit,
            limit=True,
            allowed=True,
            breakdown=(Item(name=LIMIT_HANDS[index], points=limit),),
            payments=payments(hand, limit),
        )

    def score_reading(self, hand, reading, opts) -> Result | None:
        limit = opts["limit"]
        shape = reading.shape
        if shape != "standard":
            if shape == "thirteen_orphans":
                return self._limit_result(hand, THIRTEEN_ORPHANS, limit)
            # Seeds 000/001 know only four sets and a pair, and Thirteen Orphans: seven
            # pairs and the u3a shapes are not winning hands in classical.
            return None
        if hand.first_turn:
            return self._limit_result(
                hand, HEAVENLY if hand.seat_wind == hand.dealer else EARTHLY, limit
            )

        tables = self._tables()
        set_table, pair_table = tables.winds(hand.seat_wind, hand.prevailing_wind)

        set_items = []
        points = 0
        doublings = 0
        triplets = concealed_triplets = kongs = chows = 0
        dragon_triplets = wind_triplets = 0
        suits = 0  # bits: 1, 2, 4 suits; 8 honours
        all_simple = True
        only_major = True
        each_major = True
        chow_starts = [0, 0, 0]
        pair_tile = -1
        pair_entry = None
        for g in reading.groups:
            kind = g.kind
            tile = g.tile
            if kind == "pair":
                pair_tile = tile
                pair_entry = pair_table[tile]
                suits |= _SUIT_BIT[tile]
                if _MAJOR[tile]:
                    all_simple = False
                else:
                    only_major = False
                    each_major = False
                continue
            if kind == "chow":
                entry = set_table[4 + g.concealed][tile]
                chows += 1
                suits |= _SUIT_BIT[tile]
                only_major = False
                if _CHOW_HAS_TERMINAL[tile]:
                    all_simple = False
                else:
                    each_major = False
                chow_starts[tile // 9] |= 1 << (tile % 9)
            else:
                is_kong = kind == "kong"
                entry = set_table[2 * is_kong + g.concealed][tile]
                triplets += 1
                if g.concealed:
                    concealed_triplets += 1
                if is_kong:
                    kongs += 1
                if tile >= 27:
                    if tile >= 31:
                        dragon_triplets += 1
                    else:
                        wind_triplets += 1
                suits |= _SUIT_BIT[tile]
                if _MAJOR[tile]:
                    all_simple = False
                else:
                    only_major = False
                    each_major = False
            item = entry[0]
            if item is not None:
                set_items.append(item)
                points += entry[1]
                doublings += entry[2]

        # Limit hands (standard shape), in the seed's order.
        limit_hand = -1
        if triplets == 4 and concealed_triplets == 4:
            limit_hand = FOUR_CONCEALED_TRIPLETS if kongs == 0 else FOUR_TRIPLETS_CONCEALED
        elif suits in (1, 2, 4) and nine_gates(hand, reading):
            limit_hand = NINE_GATES
        elif dragon_triplets == 3:
            limit_hand = BIG_THREE_DRAGONS
        elif wind_triplets == 3 and 27 <= pair_tile <= 30:
            limit_hand = LITTLE_FOUR_WINDS
        elif wind_triplets == 4:
            limit_hand = BIG_FOUR_WINDS
        elif suits == 8:
            limit_hand = ALL_HONOURS
        elif only_major and not suits & 8:
            limit_hand = ALL_TERMINALS
        if limit_hand >= 0:
            return self._limit_result(hand, limit_hand, limit)

        # Basic points.
        mahjong_points, items = tables.mahjong[hand.won_by, hand.is_concealed]
        points += mahjong_points
        breakdown = list(items)
        breakdown.extend(set_items)
        if pair_entry[0] is not None:
            breakdown.append(pair_entry[0])
            points += pair_entry[1]
            doublings += pair_entry[2]
        bonus = hand.bonus
        bonus_points = 0
        if bonus:
            bonus_table = tables.bonus_points
            for t in bonus:
                bonus_points += bonus_table[t - 34]
            if bonus_points:
                breakdown.append(_item(f"Flowers and seasons ({len(bonus)})", bonus_points))
                points += bonus_points
        scored_nothing = points == mahjong_points

        # Doublings: bonus tiles.
        if bonus:
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
            for item, d in found:
                if d:
                    breakdown.append(item)
                    doublings += d
        # Doublings: how the hand was won.
        d, win_items = tables.win_items[hand.won_by, hand.last_tile]
        if d:
            breakdown.extend(win_items)
            doublings += d
        # Doublings: the hand's patterns, in the seed's order.
        found = []
        hand_table = tables.hand
        if scored_nothing:
            found.append("no_points")
        if all_simple:
            found.append("all_simples")
        if chows >= 3 and any(
            starts & _CONSECUTIVE_CHOWS == _CONSECUTIVE_CHOWS for starts in chow_starts
        ):
            found.append("three_consecutive_chows")
        if triplets == 4:
            found.append(
                "four_triplets" if concealed_triplets < 3 else "four_triplets_three_concealed"
            )
        elif concealed_triplets == 3 and chows == 1:
            found.append("three_and_one")
        if suits in (1, 2, 4):
            found.append("one_suit_only")
        if only_major:  # both terminals and honours here: the pure hands are limits
            found.append("all_honours_and_terminals")
        if each_major:
            found.append("honour_or_terminal_in_each_set")
        if suits in (9, 10, 12):
            found.append("one_suit_with_honours")
        if dragon_triplets == 2 and pair_tile >= 31:
            found.append("little_three_dragons")
        for key in found:
            item, d = hand_table[key]
            if item is not None:
                breakdown.append(item)
                doublings += d

        raw = points << doublings if doublings >= 0 else points >> -doublings
        total = raw if raw < limit else limit
        return Result(
            rules=NAME,
            total=total,
            limit=raw >= limit,
            allowed=True,
            breakdown=tuple(breakdown),
            payments=payments(hand, total),
        )


RULESET = ClassicalRuleSet()
