"""One rule set's share of a season or an evening: figures under different rule sets
(chips, points, fan) are kept apart, never added up or compared."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rules import hand_unit, rule_set_choices, short_name, tally_unit


@dataclass(frozen=True)
class RuleSetPart:
    """One rule set's share of a season or an evening: its figures are kept apart from
    every other rule set's (chips, points and fan never add up or compare)."""

    rules: str
    results: int = 0  # result rows (a member's match) under these rules

    @property
    def name(self) -> str:
        return short_name(self.rules)

    @property
    def unit(self) -> str:
        """What its totals, averages and results count: "chips" or "points"."""
        return tally_unit(self.rules)

    @property
    def hand_unit(self) -> str:
        """What its hands (best hand, limit hands) count: "points", "faan" or "fan"."""
        return hand_unit(self.rules)


def rule_set_order(rules: str) -> int:
    names = [name for name, _ in rule_set_choices()]
    return names.index(rules) if rules in names else len(names)


class UnderOneRuleSet:
    """Figures under one rule set (`part`): its name and units, read from the part."""

    part: RuleSetPart

    @property
    def rules(self) -> str:
        return self.part.rules

    @property
    def name(self) -> str:
        return self.part.name

    @property
    def unit(self) -> str:
        return self.part.unit

    @property
    def hand_unit(self) -> str:
        return self.part.hand_unit
