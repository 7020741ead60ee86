"""What the club app needs to know about rule sets, taken from the hand engine.

The engine (scoring/engine/) stays free of Django; the club's models, forms and admin ask here
for the rule sets on offer, a rule set's usual starting tally and club-level options, and to
check a club's chosen options and table values.
"""

from django.core.exceptions import ValidationError

from scoring.engine import EngineError, get_ruleset, ruleset_choices
from scoring.engine.rulesets.base import RuleSet


def rule_set_choices() -> list[tuple[str, str]]:
    """(name, title) of each rule set: the choices of Club.rule_set (a callable, so the
    titles live in the engine and migrations do not change when one is reworded)."""
    return ruleset_choices()


def starting_tally(name: str) -> int:
    """What each player's tally usually starts a match with under rule set `name`."""
    return get_ruleset(name).starting_tally


def club_options(name: str) -> dict[str, int | bool]:
    """The options of rule set `name` that a club sets once, with their defaults (options
    about one hand or table, such as u3a's goulash, are recorded with the hand instead)."""
    return get_ruleset(name).club_options


def build_ruleset(name: str, options: dict | None = None, values: dict | None = None) -> RuleSet:
    """The rule set `name` with a club's options and table values applied.

    The one check of a club's rule settings (settings form and admin alike): EngineError
    names an unknown rule set, an unknown or out-of-range option or value, or an option that
    belongs to a single hand rather than the club.
    """
    ruleset = get_ruleset(name)
    per_hand = sorted(set(options or ()) & ruleset.hand_options)
    if per_hand:
        raise EngineError(
            f"Option {', '.join(per_hand)} of the {ruleset.name} rules is chosen for each hand "
            "when it is recorded, not in the club's settings."
        )
    if options or values:
        ruleset = ruleset.with_overrides(options=options or None, values=values or None)
    return ruleset


def validate_club_rules(name: str, options: dict | None, values: dict | None) -> RuleSet:
    """`build_ruleset` for forms: a bad setting raises ValidationError with the engine's
    sentence, which names the option or value."""
    try:
        return build_ruleset(name, options, values)
    except EngineError as error:
        raise ValidationError(str(error)) from error


# Short names for headings, tabs and sentences ("Standings under U3A rules"); the engine's
# titles are the long ones ("Balsall Common U3A house rules (points)").
SHORT_NAMES = {"classical": "Classical", "hk": "Hong Kong", "fan": "Fan", "u3a": "U3A"}


def short_name(name: str) -> str:
    """A rule set's short name for headings: "U3A", "Hong Kong"."""
    if name in SHORT_NAMES:
        return SHORT_NAMES[name]
    try:
        return get_ruleset(name).title
    except EngineError:
        return name


def hand_unit(name: str) -> str:
    """What a hand's value (a best hand, a limit hand) counts under rule set `name`:
    "points", "faan" or "fan" (the engine's `unit`)."""
    try:
        return get_ruleset(name).unit
    except EngineError:
        return "points"


def tally_unit(name: str) -> str:
    """What a tally, a result or a season total counts under rule set `name`: "chips" where
    the rules pay in chips (U3A: `payment.chips_per_point`), "points" otherwise (Hong Kong
    and fan turn faan and fan into points paid)."""
    try:
        ruleset = get_ruleset(name)
    except EngineError:
        return "points"
    return "chips" if "payment.chips_per_point" in ruleset.value_defaults else "points"


def club_ruleset(club) -> RuleSet:
    return build_ruleset(club.rule_set, club.rule_options, club.rule_values)


__all__ = [
    "EngineError",
    "build_ruleset",
    "club_options",
    "club_ruleset",
    "get_ruleset",
    "hand_unit",
    "rule_set_choices",
    "short_name",
    "tally_unit",
    "starting_tally",
    "validate_club_rules",
]
