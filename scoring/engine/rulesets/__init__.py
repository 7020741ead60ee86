"""Registry of rule sets, imported lazily: `get_ruleset("classical")`."""

from __future__ import annotations

import importlib
import importlib.util

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
    module_name = f"{__name__}.{key}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise  # a real bug inside the rule set: let it show
        raise EngineError(f"The rule set '{key}' is not available yet.") from None
    ruleset = module.RULESET
    _LOADED[key] = ruleset
    _LOADED[name] = ruleset
    return ruleset


def available_ruleset_names() -> tuple[str, ...]:
    """The registered names whose module exists (rule sets are written separately)."""
    return tuple(
        name for name in RULESET_NAMES if importlib.util.find_spec(f"{__name__}.{name}") is not None
    )


__all__ = ["RULESET_NAMES", "RuleSet", "available_ruleset_names", "get_ruleset"]
