"""A match's rules: the hand engine under the rules snapshotted when play started, with the
flow's seat winds translated to chairs.

The engine thinks in seat winds ("E", "S", ...); a match thinks in chairs (0..4) whose
winds move as the deal passes. This module is the one place that translates.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from scoring.engine import EngineError
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
        ruleset.check_total(win.total)
        if state.goulash:
            return _per_chair(winds, ruleset.goulash_payments(winds[win.winner], seats))
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
    seats = tuple(wind for wind in winds if wind)
    try:
        by_wind = ruleset.kong_payments(kind, winds[chair], seats)
    except (EngineError, AttributeError) as error:
        raise TotalRefused(f"Kong chips are not part of the {ruleset.title} rules.") from error
    return _per_chair(winds, by_wind)
