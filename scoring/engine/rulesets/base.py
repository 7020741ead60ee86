"""`RuleSet`: what every rule set shares: options, table values and their overrides, choosing
the best reading, and the minimum.

A rule set subclasses `RuleSet`, sets `name`, `title`, `unit`, `starting_tally`,
`option_defaults`, `value_defaults` (and optionally `shapes`, `hand_options`, `option_ranges`,
`minimum_option`, `limit_option`) and implements
`score_reading(hand, reading, opts) -> Result | None` and `payments(win, total, opts, seats)`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import NamedTuple

from ..decompose import Reading, readings
from ..errors import EngineError
from ..hand import Hand, describe_hand
from ..patterns import seven_pairs_with_quad
from ..result import Item, Result
from ..shapes import SHAPES
from ..tiles import WINDS

SEATS = WINDS
# A table of three (hand option `players` = 3): East, South and West play; nobody is North,
# so North pays nothing, as in quick entry (payments.py).
THREE_PLAYER_SEATS = ("E", "S", "W")
SEAT_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
# The option every rule set has for the table's size: 4, or 3 (nobody sits North). It is
# an option of the hand (recorded with it), never a club setting.
PLAYERS_OPTION = "players"
PLAYERS_DEFAULT = 4
PLAYERS_RANGE = (3, 4)
# The largest total a hand entered by its total alone may have (a paper sheet, a
# correction), whatever the rule set: above every limit a club may set, small enough that
# what a hand pays always fits the database's whole numbers.
MAX_TOTAL = 100_000
_TRUE = frozenset(("true", "yes", "on", "1"))
_FALSE = frozenset(("false", "no", "off", "0"))
_EMPTY: Mapping = MappingProxyType({})


def zero_payments() -> dict[str, int]:
    return {"E": 0, "S": 0, "W": 0, "N": 0}


def owed_by_others(
    winner: str,
    seats: tuple[str, ...],
    discarder: str | None,
    each: int,
    by_discarder: int,
    by_others: int = 0,
) -> dict[str, int]:
    """What each seat at the table owes the winner: `each` from everyone when self-drawn
    (`discarder` None), else `by_discarder` from the discarder and `by_others` from the rest."""
    owed = {}
    for seat in seats:
        if seat == winner:
            continue
        if discarder is None:
            owed[seat] = each
        elif seat == discarder:
            owed[seat] = by_discarder
        elif by_others:
            owed[seat] = by_others
    return owed


def check_seats(hand, seats: tuple[str, ...]) -> None:
    """The winner, the discarder and the dealer all sit at the table (at a table of three
    nobody is North); EngineError naming the field otherwise."""
    for field, seat in (
        ("seat_wind", hand.seat_wind),
        ("discarder", hand.discarder),
        ("dealer", hand.dealer),
    ):
        if seat is not None and seat not in seats:
            raise EngineError(
                f"At a three-player table nobody sits {SEAT_NAMES[seat]}: {field} must be "
                f"{', '.join(seats[:-1])} or {seats[-1]}."
            )


def settle(winner: str, owed: Mapping[str, int]) -> dict[str, int]:
    """Payments where each seat in `owed` pays that amount to `winner`; sums to zero."""
    payments = zero_payments()
    for seat, amount in owed.items():
        payments[seat] -= amount
        payments[winner] += amount
    return payments


class ValueRange(NamedTuple):
    """The values a club may give one table value: `low` to `high` `unit`."""

    low: int
    high: int
    unit: str


def ranges_by_kind(values: Mapping[str, int], kinds: Mapping[str, ValueRange]):
    """Each value's range, from the first of `kinds` (a key's start or end, e.g.
    "points." or ".doublings") that its key has: the ranges are data beside the values,
    and a new value of a known kind gets its range without being listed."""
    ranges = {}
    for key in values:
        for kind, value_range in kinds.items():
            if key.startswith(kind) or key.endswith(kind):
                ranges[key] = value_range
                break
        else:
            raise ValueError(f"No range for the value {key!r}: add its kind.")
    return MappingProxyType(ranges)


def number_words(value: int) -> str:
    """1000 -> "1,000": the way a number is written in messages."""
    return f"{value:,}"


def convert_option(kind_of: object, name: str, value: object, owner: str) -> object:
    """Check `value` has the type of the default `kind_of`; CLI strings are converted."""
    if isinstance(kind_of, bool):
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
            return value.strip().lower() in _TRUE
        raise EngineError(f"Option '{name}' of {owner} must be true or false, not {value!r}.")
    if isinstance(kind_of, int):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str):
            text = value.strip()
            if text.lstrip("+-").isdigit() and text.isascii():
                return int(text)
        raise EngineError(f"Option '{name}' of {owner} must be a whole number, not {value!r}.")
    if isinstance(value, type(kind_of)):
        return value
    raise EngineError(
        f"Option '{name}' of {owner} must be a {type(kind_of).__name__}, not {value!r}."
    )


class RuleSet:
    name: str = ""  # "classical" | "hk" | "fan" | "u3a"
    title: str = ""  # "Classical points and doublings"
    # What `total` counts, in the words a form labels it with: "points", "faan" or "fan".
    unit: str = "points"
    # What each player's tally usually starts a match with (a club may choose otherwise).
    starting_tally: int = 0
    option_defaults: Mapping[str, int | bool] = _EMPTY
    # Options that describe one hand or one table rather than the club (every rule set's
    # "players", fan's "liable", u3a's "goulash"): recorded with the hand, never among a
    # club's settings.
    hand_options: frozenset[str] = frozenset()
    # Whole-number options with a lowest (and possibly highest) value: name -> (low, high).
    option_ranges: Mapping[str, tuple[int, int | None]] = _EMPTY
    value_defaults: Mapping[str, int] = _EMPTY
    # The values a club may give each table value (`ranges_by_kind`): forms offer them and
    # `with_overrides` refuses others, so a setting can never make a hand absurd.
    value_ranges: Mapping[str, ValueRange] = _EMPTY
    # Shapes this rule set accepts; readings of other shapes are never scored.
    shapes: frozenset[str] = frozenset(SHAPES)
    # Whether seven pairs may use four of a kind as two pairs (u3a yes; hk and fan no).
    quads_in_seven_pairs: bool = True
    # Option holding the minimum `total` to go out (e.g. "min_faan"); None: no minimum,
    # unless exactly one option is named "min_...".
    minimum_option: str | None = None
    # Option capping `total` (e.g. "limit", "max_faan"); informative (docs, property tests).
    limit_option: str | None = None
    # The table values in force: `value_defaults` with this instance's overrides.
    values: Mapping[str, int] = _EMPTY

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        # A plain attribute, not a property: rule sets read values many times per hand.
        if "value_defaults" in cls.__dict__:
            cls.values = MappingProxyType(dict(cls.value_defaults))

    def __repr__(self) -> str:
        return f"<RuleSet {self.name}>"

    # -- options and values ------------------------------------------------------------

    @property
    def _owner(self) -> str:
        return f"the {self.name} rules" if self.name else "this rule set"

    def _option_names(self) -> str:
        names = ", ".join(self.option_defaults) or "none"
        return f"the options are: {names}"

    @property
    def has_kong_chips(self) -> bool:
        """Whether a kong is paid for in chips when it is made (a U3A house rule): the one
        test of it, asked by the engine, the table's rules and its page alike."""
        return "kong.concealed.chips" in self.values

    @property
    def club_options(self) -> dict[str, int | bool]:
        """The options a club chooses once (everything but `hand_options`), with defaults."""
        return {k: v for k, v in self.option_defaults.items() if k not in self.hand_options}

    def _convert(self, name: object, value: object) -> object:
        if not isinstance(name, str) or name not in self.option_defaults:
            raise EngineError(f"Unknown option {name!r} for {self._owner}; {self._option_names()}.")
        return convert_option(self.option_defaults[name], name, value, self._owner)

    def resolve_options(self, options: Mapping | None) -> dict:
        """Defaults <- given options, each checked by name, type and range."""
        resolved = dict(self.option_defaults)
        if options:
            if not isinstance(options, Mapping):
                raise EngineError(
                    f"Options must be an object of names and values, not {options!r}."
                )
            for name, value in options.items():
                resolved[name] = self._convert(name, value)
            self.check_options(resolved)
        return resolved

    def check_options(self, opts: Mapping[str, object]) -> None:
        """Range checks, so that a club cannot store a setting every hand would refuse:
        each of `option_ranges`, and the minimum not above the limit."""
        for name, (low, high) in self.option_ranges.items():
            value = opts[name]
            if value < low or (high is not None and value > high):
                raise EngineError(
                    f"Option {name} must be {self.option_range_words(name)}, not {value}."
                )
        low_name, high_name = self.minimum_option, self.limit_option
        if low_name and high_name and opts[low_name] > opts[high_name]:
            raise EngineError(
                f"Option {low_name} ({opts[low_name]}) is above {high_name} "
                f"({opts[high_name]}): no hand could ever be allowed."
            )

    def with_overrides(
        self, options: Mapping | None = None, values: Mapping | None = None
    ) -> RuleSet:
        """A new rule set with some option defaults / table values changed (club settings)."""
        new = copy.copy(self)
        if options:
            new.option_defaults = MappingProxyType(self.resolve_options(options))
        if values:
            if not isinstance(values, Mapping):
                raise EngineError(f"Values must be an object of names and numbers, not {values!r}.")
            merged = dict(self.values)
            for name, value in values.items():
                if not isinstance(name, str) or name not in self.value_defaults:
                    raise EngineError(f"Unknown value {name!r} for {self._owner}.")
                merged[name] = self.check_value(name, convert_option(0, name, value, self._owner))
            new.values = MappingProxyType(merged)
        return new

    def check_value(self, name: str, value: int) -> int:
        """`value` when it is in the table value's range; EngineError in words otherwise."""
        value_range = self.value_ranges.get(name)
        if value_range and not value_range.low <= value <= value_range.high:
            raise EngineError(
                f"Value '{name}' of {self._owner} must be {self.value_range_words(name)}, "
                f"not {value}."
            )
        return value

    def value_range_words(self, name: str) -> str:
        """What a table value may be, in words: "from 0 to 1,000 points"."""
        low, high, unit = self.value_ranges[name]
        return f"from {number_words(low)} to {number_words(high)} {unit}"

    def option_range_words(self, name: str) -> str:
        """What a whole-number option may be, in words: "from 10 to 100,000 points"."""
        low, high = self.option_ranges[name]
        if high is None:
            return f"{number_words(low)} or more"
        unit = "" if name == PLAYERS_OPTION else f" {self.unit}"
        return f"from {number_words(low)} to {number_words(high)}{unit}"

    def describe(self) -> dict:
        """Options and table values (current and default), for the admin and the docs."""
        cls = type(self)
        return {
            "name": self.name,
            "title": self.title,
            "shapes": [s for s in SHAPES if s in self.shapes],
            "options": {
                k: {"value": v, "default": cls.option_defaults.get(k, v)}
                for k, v in self.option_defaults.items()
            },
            "values": {
                k: {"value": v, "default": cls.value_defaults.get(k, v)}
                for k, v in self.values.items()
            },
        }

    # -- scoring ------------------------------------------------------------------------

    def score(self, hand: Hand, options: Mapping | None = None) -> Result:
        """Score every reading, keep the best for the winner, then apply the minimum.

        `options` come from the CLI or the club; the hand's own options override them.
        """
        opts = self.resolve_options(options)
        if hand.options:
            for name, value in hand.options.items():
                opts[name] = self._convert(name, value)
            self.check_options(opts)

        all_readings = readings(hand)
        if not all_readings:
            raise EngineError(self._not_complete_message(hand))
        if opts.get(PLAYERS_OPTION) == 3:
            check_seats(hand, self.table_seats(opts))
        best: Result | None = None
        best_key = None
        refusal: EngineError | None = None
        seat = hand.seat_wind
        for reading in all_readings:
            if reading.shape not in self.shapes:
                continue
            if not self.quads_in_seven_pairs and seven_pairs_with_quad(reading):
                # Refused; a standard reading of the same tiles may still win.
                refusal = refusal or EngineError(
                    f"Seven pairs may not use four of a kind as two pairs under {self._owner}, "
                    "and these tiles make no other complete hand."
                )
                continue
            try:
                result = self.score_reading(hand, reading, opts)
            except EngineError as error:  # this reading is refused; another may be fine
                refusal = refusal or error
                continue
            if result is None:
                continue
            key = (result.allowed, result.payments.get(seat, 0), result.total)
            if best_key is None or key > best_key:
                best, best_key = result, key
        if best is None:
            if refusal is not None:
                raise refusal
            shapes = sorted({r.shape.replace("_", " ") for r in all_readings})
            raise EngineError(
                f"This hand ({describe_hand(hand)}) is a {' / '.join(shapes)} hand, "
                f"which is not a winning hand under {self._owner}."
            )
        if best.allowed and not self.meets_minimum(hand, best, opts):
            best = replace(best, allowed=False)
        if not best.allowed and any(best.payments.values()):
            best = replace(best, payments=zero_payments())
        return best

    def table_seats(self, opts: Mapping) -> tuple[str, ...]:
        """The seats at the table: all four, or East, South and West with `players` 3."""
        return THREE_PLAYER_SEATS if opts.get(PLAYERS_OPTION) == 3 else SEATS

    def score_reading(self, hand: Hand, reading: Reading, opts: Mapping) -> Result | None:
        """Score one reading. Return None (or raise EngineError) to refuse the reading."""
        raise NotImplementedError

    def payments(
        self, win, total: int, opts: Mapping, seats: tuple[str, ...] = SEATS
    ) -> dict[str, int]:
        """Net change of each seat's tally (all four seats; sums to zero) for an allowed hand
        worth `total`. `win` says who won and how: `seat_wind`, `won_by`, `discarder`,
        `dealer`, `self_drawn` (a `Hand` has them all). `seats` are the seats at the table;
        any other seat pays nothing. Scoring a hand and entering only its total both pay
        through here, so the two always agree."""
        raise NotImplementedError

    def capped_result(
        self, win, opts: Mapping, maxed: Sequence[str], found: Sequence[tuple[str, int]]
    ) -> Result:
        """The result where elements add up to a total capped at the limit option and some
        hands score the limit outright (hk's faan, fan's fan): `maxed` names the limit
        elements (then listed alone), `found` the others as (name, value). Items carry the
        value under `unit` ("faan" or "fan")."""
        top = opts[self.limit_option]
        if maxed:
            breakdown = tuple(Item(name, **{self.unit: top}) for name in maxed)
            total, limit = top, True
        else:
            breakdown = tuple(Item(name, **{self.unit: value}) for name, value in found)
            raw = sum(value for _, value in found)
            total, limit = min(raw, top), raw >= top
        allowed = total >= opts[self.minimum_option]
        return Result(
            rules=self.name,
            total=total,
            limit=limit,
            allowed=allowed,
            breakdown=breakdown,
            payments=self.payments(win, total, opts, self.table_seats(opts))
            if allowed
            else zero_payments(),
        )

    def minimum_total(self, opts: Mapping) -> int | None:
        """The smallest `total` that may go out, or None when any complete hand may."""
        return opts[self.minimum_option] if self.minimum_option else None

    def maximum_total(self, opts: Mapping) -> int | None:
        """The largest `total` a hand can score, or None when there is no such bound."""
        return opts[self.limit_option] if self.limit_option else None

    def amount(self, number: int) -> str:
        """`number` with the unit: "3 faan", "1 point", "5 points"."""
        unit = self.unit[:-1] if number == 1 and self.unit == "points" else self.unit
        return f"{number} {unit}"

    def below_minimum(self, total: int, opts: Mapping, subject: str = "") -> str | None:
        """Why a hand worth `total` may not go out under `opts`, naming the minimum that
        applies to it, in plain words; None when it reaches the minimum (or there is none).
        `subject` begins the sentence ("This hand scores 2 faan, which"; "2 faan" unless
        given). Every refusal of a win below the minimum says it in these words."""
        low = self.minimum_total(opts)
        if low is None or total >= low:
            return None
        subject = subject or self.amount(total)
        return (
            f"{subject} is below this club's minimum of {self.amount(low)}: "
            "a hand worth less may not go out."
        )

    def above_maximum(self, total: int, opts: Mapping, subject: str = "") -> str | None:
        """Why a hand worth `total` cannot be right: above the limit under `opts`, in plain
        words; None when it is not above it (or there is none). `subject` begins the
        sentence ("120 fan" unless given)."""
        high = self.maximum_total(opts)
        if high is None or total <= high:
            return None
        subject = subject or f"{total} {self.unit}"
        return f"{subject} is above the limit of {high} {self.unit}: no hand scores more."

    def total_problem(self, total: int, opts: Mapping) -> str | None:
        """Why no allowed hand scores `total` under this rule set beyond the minimum and the
        limit (e.g. classical scores are even), in plain words; None when it may be right."""
        return None

    def check_total(self, total: object, options: Mapping | None = None) -> int:
        """`total` when an allowed hand can score it with these options; otherwise
        EngineError saying why in plain words (below the minimum, above the limit, or a
        total the rule set cannot produce)."""
        opts = self.resolve_options(options)
        if isinstance(total, bool) or not isinstance(total, int):
            raise EngineError(f"The total must be a whole number of {self.unit}, not {total!r}.")
        if total < 0:
            raise EngineError(f"The total cannot be negative: {total} {self.unit}.")
        too_few = self.below_minimum(total, opts)
        if too_few:
            raise EngineError(too_few)
        too_many = self.above_maximum(total, opts)
        if too_many:
            raise EngineError(too_many)
        # After the limit, which names the club's own figure when there is one.
        if total > MAX_TOTAL:
            raise EngineError(
                f"{number_words(total)} {self.unit} is more than any hand scores: the most "
                f"is {number_words(MAX_TOTAL)} {self.unit}."
            )
        problem = self.total_problem(total, opts)
        if problem:
            raise EngineError(problem)
        return total

    def meets_minimum(self, hand: Hand, result: Result, opts: Mapping) -> bool:
        """True when `result.total` reaches the minimum (if the rule set has one)."""
        low = self.minimum_total(opts)
        return low is None or result.total >= low

    def _not_complete_message(self, hand: Hand) -> str:
        sets = 4 - len(hand.melds)
        what = f"{sets} set{'s' if sets != 1 else ''} and a pair"
        if not hand.melds:
            what += " (nor a special hand)"
        return (
            f"This is not a complete winning hand: the concealed tiles "
            f"{describe_hand(hand).split(' [')[0]} do not make {what}."
        )
