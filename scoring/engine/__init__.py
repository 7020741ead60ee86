"""The hand-scoring engine: plain Python, no Django.

from scoring.engine import score, score_json
score({"tiles": "...", ...}, "classical").to_dict()

A hand's agreed total without its tiles: `check_total` and `payments_for_total` (payments.py).
"""

from __future__ import annotations

from collections.abc import Mapping

from .errors import EngineError
from .hand import Hand, Meld, parse_hand
from .payments import Outcome, check_total, goulash_pot, kong_chips, payments_for_total
from .result import Item, Result, error_dict
from .rulesets import RULESET_NAMES, RuleSet, get_ruleset, ruleset_choices


def score(data: Mapping | Hand, rules: str | RuleSet = "classical", options=None) -> Result:
    """Score one hand (contract JSON already decoded, or a Hand). Raises EngineError."""
    ruleset = get_ruleset(rules)
    hand = data if isinstance(data, Hand) else parse_hand(data)
    return ruleset.score(hand, options)


def score_json(data, rules: str | RuleSet = "classical", options=None) -> dict:
    """Like `score`, as contract JSON; bad input gives an error dict instead of raising."""
    name = rules.name if isinstance(rules, RuleSet) else str(rules)
    try:
        return score(data, rules, options).to_dict()
    except EngineError as error:
        return error_dict(name, str(error))


__all__ = [
    "RULESET_NAMES",
    "EngineError",
    "Hand",
    "Item",
    "Meld",
    "Result",
    "RuleSet",
    "Outcome",
    "check_total",
    "goulash_pot",
    "kong_chips",
    "payments_for_total",
    "ruleset_choices",
    "error_dict",
    "get_ruleset",
    "parse_hand",
    "score",
    "score_json",
]
