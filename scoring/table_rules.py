"""A match's rules: the hand engine under the rules snapshotted when play started, with the
flow's seat winds translated to chairs.

The engine thinks in seat winds ("E", "S", ...); a match thinks in chairs (0..4) whose
winds move as the deal passes. This module is the one place that translates.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from scoring.engine import EngineError
from scoring.engine.rulesets import u3a
from scoring.engine.rulesets.base import RuleSet
from scoring.rules import build_ruleset


class TotalRefused(Exception):
    """The engine refused the total or outcome; the message is the engine's reason."""


@lru_cache(maxsize=64)
def _ruleset(rules: str, options: tuple, values: tuple) -> RuleSet:
    return build_ruleset(rules, dict(options), dict(values))


def match_ruleset(match) -> RuleSet:
    """The rule set the match is played under (cached: the snapshot never changes)."""
    return _ruleset(
        match.rules,
        tuple(sorted((match.rule_options or {}).items())),
        tuple(sorted((match.rule_values or {}).items())),
    )


@dataclass(frozen=True)
class _WinAsEngineSeesIt:
    seat_wind: str
    won_by: str
    discarder: str | None
    dealer: bool
    self_drawn: bool


def _per_chair(winds, by_wind: dict[str, int]) -> list[int]:
    return [by_wind.get(wind, 0) if wind else 0 for wind in winds]


def win_payments(match, state, win) -> list[int]:
    """Each chair's payment for a quick-entry win worth `win.total` in the hand `state`
    describes (dealer, winds, goulash). Raises TotalRefused with the engine's reason."""
    ruleset = match_ruleset(match)
    winds = state.winds
    seats = tuple(wind for wind in winds if wind)
    try:
        if state.goulash:
            ruleset.check_total(win.total, {"goulash": True})
            by_wind = u3a.goulash_payments(winds[win.winner], seats, values=ruleset.values)
            return _per_chair(winds, by_wind)
        ruleset.check_total(win.total)
        engine_win = _WinAsEngineSeesIt(
            seat_wind=winds[win.winner],
            won_by=win.won_by,
            discarder=winds[win.discarder] if win.discarder is not None else None,
            dealer=win.winner == state.dealer,
            self_drawn=win.discarder is None,
        )
        by_wind = ruleset.payments(engine_win, win.total, ruleset.resolve_options(None), seats)
    except EngineError as error:
        raise TotalRefused(str(error)) from error
    return _per_chair(winds, by_wind)


def kong_payments(match, state, chair: int, kind: str) -> list[int]:
    """Each chair's chips for a kong made by `chair` (U3A house rules)."""
    ruleset = match_ruleset(match)
    winds = state.winds
    if winds[chair] is None:
        raise TotalRefused("That player is sitting out this hand.")
    if not has_kong_chips(ruleset):
        raise TotalRefused(f"Kong chips are not part of the {ruleset.title} rules.")
    seats = tuple(wind for wind in winds if wind)
    try:
        by_wind = u3a.kong_payments(kind, winds[chair], seats, values=ruleset.values)
    except EngineError as error:
        raise TotalRefused(str(error)) from error
    return _per_chair(winds, by_wind)


def has_kong_chips(ruleset: RuleSet) -> bool:
    """Kong chips, paid when a kong is made, are a U3A house rule."""
    return ruleset.name == "u3a"


def goulash_pot(match, state) -> int:
    """The chips in the pot of a goulash hand: every seated player's stake."""
    ruleset = match_ruleset(match)
    seats = tuple(wind for wind in state.winds if wind)
    by_wind = u3a.goulash_payments(seats[0], seats, values=ruleset.values)
    return by_wind[seats[0]] - min(by_wind.values())


def unit(ruleset: RuleSet) -> str:
    """What a hand's total counts: points, faan or fan."""
    # Rule sets name their unit on the engine branch; plain points until that is merged.
    return getattr(ruleset, "unit", "points")
