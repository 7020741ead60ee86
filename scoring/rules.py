"""The club's rule set: the hand engine configured with the club's saved overrides."""

from scoring.engine import EngineError, get_ruleset
from scoring.engine.rulesets.base import RuleSet


def build_ruleset(name: str, options: dict | None = None, values: dict | None = None) -> RuleSet:
    """The named rule set with overrides applied; EngineError names a bad option or value."""
    ruleset = get_ruleset(name)
    if options or values:
        ruleset = ruleset.with_overrides(options=options or None, values=values or None)
    return ruleset


def club_ruleset(club) -> RuleSet:
    return build_ruleset(club.rule_set, club.rule_options, club.rule_values)


__all__ = ["EngineError", "build_ruleset", "club_ruleset"]
