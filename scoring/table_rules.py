"""A match's rules: the hand engine under the rules snapshotted when play started, with the
flow's seat winds translated to chairs.

The engine thinks in seat winds ("E", "S", ...); a match thinks in chairs (0..4) whose
winds move as the deal passes. This module is the one place that translates.
"""

from __future__ import annotations

from functools import lru_cache

from scoring import engine
from scoring.engine import EngineError, RuleSet
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


def _outcome(match, state, win=None) -> engine.Outcome:
    """The engine's view of a hand: chairs, with the dealer the flow says."""
    if win is None:
        return engine.Outcome(winner=state.dealer, won_by="wall", dealer=state.dealer)
    return engine.Outcome(
        winner=win.winner,
        won_by=win.won_by,
        discarder=win.discarder,
        dealer=state.dealer,
        players=match.chair_count,
    )


def win_payments(match, state, win) -> list[int]:
    """Each chair's payment for a quick-entry win worth `win.total` in the hand `state`
    describes (dealer, goulash). Raises TotalRefused with the engine's reason.

    Payments depend only on who deals, wins and discards, so the engine's chair numbering
    serves every rule set, classical's fixed seat winds included."""
    ruleset = match_ruleset(match)
    players = match.chair_count
    try:
        if state.goulash:
            engine.check_total(ruleset, win.total, {"goulash": True})
            _outcome(match, state, win).winds()  # refuses a winner sitting out
            pot = engine.goulash_pot(ruleset, win.winner, players=players, dealer=state.dealer)
            return list(pot)
        return list(engine.payments_for_total(ruleset, win.total, _outcome(match, state, win)))
    except EngineError as error:
        raise TotalRefused(str(error)) from error


def kong_payments(match, state, chair: int, kind: str) -> list[int]:
    """Each chair's chips for a kong made by `chair` (U3A house rules)."""
    ruleset = match_ruleset(match)
    if not has_kong_chips(ruleset):
        raise TotalRefused(f"Kong chips are not part of the {ruleset.title} rules.")
    try:
        chips = engine.kong_chips(
            ruleset, kind, chair, players=match.chair_count, dealer=state.dealer
        )
    except EngineError as error:
        raise TotalRefused(str(error)) from error
    return list(chips)


def has_kong_chips(ruleset: RuleSet) -> bool:
    """Kong chips, paid when a kong is made, are a U3A house rule."""
    return ruleset.name == "u3a"


def goulash_pot(match, state) -> int:
    """The chips in the pot of a goulash hand: every seated player's stake."""
    pot = engine.goulash_pot(
        match_ruleset(match), state.dealer, players=match.chair_count, dealer=state.dealer
    )
    return pot[state.dealer] - min(pot)


def unit(ruleset: RuleSet) -> str:
    """What a hand's total counts: points, faan or fan."""
    return ruleset.unit
