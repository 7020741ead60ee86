"""Registry of rule sets, imported lazily: `get_ruleset("classical")`."""

from __future__ import annotations

import importlib

from ..errors import EngineError
from .base import RuleSet

RULESET_NAMES = ("classical", "hk", "fan", "u3a")
_LOADED: dict[str, RuleSet] = {}


def get_ruleset(name: object) -> RuleSet:
    """The rule set called `name` (its module's `RULESET`); EngineError if unknown."""
    if isinstance(name, RuleSet):
        return name
    ruleset = _LOADED.get(name) if isinstance(name, str) else None
    if ruleset is not None:
        return ruleset
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in RULESET_NAMES:
        raise EngineError(f"Unknown rule set {name!r}; choose one of {', '.join(RULESET_NAMES)}.")
    ruleset = importlib.import_module(f"{__name__}.{key}").RULESET
    _LOADED[key] = ruleset
    _LOADED[name] = ruleset
    return ruleset


def ruleset_choices() -> list[tuple[str, str]]:
    """(name, title) of every rule set, for a choice field."""
    return [(name, get_ruleset(name).title) for name in RULESET_NAMES]


__all__ = ["RULESET_NAMES", "RuleSet", "get_ruleset", "ruleset_choices"]
