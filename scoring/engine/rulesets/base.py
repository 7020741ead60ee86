"""`RuleSet`: what every rule set shares: options, table values and their overrides, choosing
the best reading, and the minimum.

A rule set subclasses `RuleSet`, sets `name`, `title`, `option_defaults`, `value_defaults`
(and optionally `shapes`, `minimum_option`, `limit_option`) and implements
`score_reading(hand, reading, opts) -> Result | None`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from types import MappingProxyType

from ..decompose import Reading, readings
from ..errors import EngineError
from ..hand import Hand, describe_hand
from ..patterns import seven_pairs_with_quad
from ..result import Result
from ..shapes import SHAPES
from ..tiles import WINDS

SEATS = WINDS
_TRUE = frozenset(("true", "yes", "on", "1"))
_FALSE = frozenset(("false", "no", "off", "0"))
_EMPTY: Mapping = MappingProxyType({})


def zero_payments() -> dict[str, int]:
    return {"E": 0, "S": 0, "W": 0, "N": 0}


def settle(winner: str, owed: Mapping[str, int]) -> dict[str, int]:
    """Payments where each seat in `owed` pays that amount to `winner`; sums to zero."""
    payments = zero_payments()
    for seat, amount in owed.items():
        payments[seat] -= amount
        payments[winner] += amount
    return payments


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
    option_defaults: Mapping[str, int | bool] = _EMPTY
    value_defaults: Mapping[str, int] = _EMPTY
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

    def _convert(self, name: object, value: object) -> object:
        if not isinstance(name, str) or name not in self.option_defaults:
            raise EngineError(f"Unknown option {name!r} for {self._owner}; {self._option_names()}.")
        return convert_option(self.option_defaults[name], name, value, self._owner)

    def resolve_options(self, options: Mapping | None) -> dict:
        """Defaults <- given options, each checked by name and type."""
        resolved = dict(self.option_defaults)
        if options:
            if not isinstance(options, Mapping):
                raise EngineError(
                    f"Options must be an object of names and values, not {options!r}."
                )
            for name, value in options.items():
                resolved[name] = self._convert(name, value)
        return resolved

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
                merged[name] = convert_option(0, name, value, self._owner)
            new.values = MappingProxyType(merged)
        return new

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

        all_readings = readings(hand)
        if not all_readings:
            raise EngineError(self._not_complete_message(hand))
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

    def score_reading(self, hand: Hand, reading: Reading, opts: Mapping) -> Result | None:
        """Score one reading. Return None (or raise EngineError) to refuse the reading."""
        raise NotImplementedError

    def meets_minimum(self, hand: Hand, result: Result, opts: Mapping) -> bool:
        """True when `result.total` reaches the minimum option (if the rule set has one)."""
        name = self.minimum_option
        if name is None:
            mins = [k for k in opts if k.startswith("min_")]
            if len(mins) != 1:
                return True
            name = mins[0]
        return result.total >= opts[name]

    def _not_complete_message(self, hand: Hand) -> str:
        sets = 4 - len(hand.melds)
        what = f"{sets} set{'s' if sets != 1 else ''} and a pair"
        if not hand.melds:
            what += " (nor a special hand)"
        return (
            f"This is not a complete winning hand: the concealed tiles "
            f"{describe_hand(hand).split(' [')[0]} do not make {what}."
        )
