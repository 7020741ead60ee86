""" "Our rules": the club's rule set as the club plays it, for members to read.

Everything with a number comes from the rule set's data (`values`, the club's options, the
minimum and limit options, `unit`, the starting tally), so a house change made in the
club's settings shows here at once. The words around the numbers (what the groups are,
how payments work) are short sentences per rule set in `EXPLAINED`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from scoring.engine.rulesets.base import RuleSet

# The last part of a value's name that says what the number counts.
COUNTS = {
    "points": ("point", "points"),
    "doublings": ("doubling", "doublings"),
    "fan": ("fan", "fan"),
    "faan": ("faan", "faan"),
    "chips": ("chip", "chips"),
}

# Per rule set: a sentence to begin with, how payments work ({name} fills in a value or
# option), each group's heading, and what a group's bare numbers count when the name does
# not say (e.g. hk's faan-to-points table counts points).
EXPLAINED: dict[str, dict] = {
    "classical": {
        "intro": "A hand scores points for going out and for each set and pair; then each "
        "doubling doubles the points. The total is capped at the limit.",
        "payments": [
            "When the dealer draws the winning tile, each other player pays twice the score.",
            "When the dealer wins on a discard, the discarder pays four times the score.",
            "When anyone else draws the winning tile, each player pays the score, the "
            "dealer twice.",
            "When anyone else wins on a discard, the discarder pays twice the score (four "
            "times if the discarder is the dealer).",
            "Robbing a kong pays as a discard from the player robbed.",
        ],
        "groups": {
            "mahjong": "Going out",
            "win": "How you went out",
            "chow": "Chows",
            "pong": "Pongs",
            "kong": "Kongs",
            "pair": "Pairs",
            "bonus": "Flowers and seasons",
            "hand": "Whole hands",
            "limit": "Limit hands",
        },
        "counts": {},
    },
    "hk": {
        "intro": "A hand scores faan for what it contains; the faan, capped at the limit, "
        "give the points paid. A hand marked “the limit” scores the limit outright.",
        "payments": [
            "The points for the hand's faan are in the last table below.",
            "On a discard, the discarder pays twice the points and the others the points.",
            "Self-drawn, everyone pays twice the points.",
        ],
        "groups": {
            "special": "Special hands",
            "move": "How you went out",
            "bonus": "Flowers and seasons",
            "suit": "Suits",
            "meld": "Sets",
            "honours": "Honours and terminals",
            "points": "Points paid for each number of faan",
        },
        "counts": {"points": ("point", "points")},
    },
    "fan": {
        "intro": "A hand scores fan for what it contains; the fan, capped at the limit, "
        "give the points paid.",
        "payments": [
            "On a discard, the discarder pays the points × {pay.discard.discarder} and each "
            "other player the points × {pay.discard.other}.",
            "Self-drawn, each player pays the points × {pay.self_drawn.each}.",
            "Under the 9-piece penalty the player who is liable pays for everyone.",
        ],
        "groups": {
            "win": "How you went out",
            "sets": "Sets",
            "purity": "Suits",
            "dragons": "Dragons",
            "winds": "Winds",
            "bonus": "Flowers and seasons",
            "special": "Special hands",
            "points": "Points paid for each number of fan",
            "pay": "Who pays how many times the points",
        },
        "counts": {"points": ("point", "points"), "pay": ("time", "times")},
    },
    "u3a": {
        "intro": "Your hand is one of the hands below, which gives its points; add the "
        "extra points it has. Hands from the tables never add up with each other.",
        "payments": [
            "Chips paid for each point: {payment.chips_per_point}.",
            "On a discard only the discarder pays; self-drawn, everyone pays.",
            "A goulash hand needs {goulash.min_points} points to go out and wins the pot: "
            "{goulash.stake.chips} chips from each player.",
            "Kong chips: a concealed kong {kong.concealed.chips}, a kong on a discard "
            "{kong.discard.chips}, a kong added to a pong {kong.added.chips}, from each "
            "other player.",
        ],
        "groups": {
            "basic": "Basic hands: shape and purity",
            "special": "Special hands",
            "concealed": "Special concealed hands",
            "extra": "Extra points",
            "payment": "Chips",
            "kong": "Kong chips",
            "goulash": "Goulash hands",
        },
        "counts": {"payment": ("chip per point", "chips per point")},
    },
}

# "{name}" in a sentence: that value or option.
NAMED = re.compile(r"\{([\w.]+)\}")

# hk's value meaning "scores the limit outright".
LIMIT_VALUE = -1


@dataclass
class RuleRow:
    label: str
    value: str
    usual: str = ""  # the rule book's value, when the club plays another


@dataclass
class RuleGroup:
    title: str
    rows: list[RuleRow] = field(default_factory=list)


@dataclass
class Rulebook:
    title: str
    intro: str
    unit: str
    starting_tally: int
    minimum: str
    limit: str
    payments: list[str]
    groups: list[RuleGroup]

    @property
    def house_changes(self) -> int:
        return sum(1 for group in self.groups for row in group.rows if row.usual)


def _amount(number: int, words: tuple[str, str]) -> str:
    return f"{number} {words[0] if number == 1 else words[1]}"


def _words(numbers: Mapping[str, int], bare: tuple[str, str], limit: int | None) -> str:
    """{"points": 2, "doublings": 1} -> "2 points, 1 doubling" (nothing said is zero)."""
    if LIMIT_VALUE in numbers.values() and limit is not None:
        return "the limit"
    parts = [
        _amount(number, COUNTS[count] if count else bare)
        for count, number in numbers.items()
        if number or len(numbers) == 1
    ]
    return ", ".join(parts) or "nothing"


def _label(parts: list[str]) -> str:
    return ", ".join(part.replace("_", " ") for part in parts).capitalize() or "Basic"


def rulebook(ruleset: RuleSet, starting_tally: int) -> Rulebook:
    """The page "Our rules" for `ruleset` as the club has set it up."""
    explained = EXPLAINED.get(ruleset.name, {})
    headings = explained.get("groups", {})
    counts = explained.get("counts", {})
    own_unit = COUNTS.get(ruleset.unit, (ruleset.unit, ruleset.unit))
    options = ruleset.option_defaults
    low = ruleset.minimum_total(options)
    high = options[ruleset.limit_option] if ruleset.limit_option else None
    defaults = type(ruleset).value_defaults

    rows: dict[str, dict[tuple[str, ...], dict[str, dict[str, int]]]] = {}
    for key, value in ruleset.values.items():
        group, *rest = key.split(".")
        count = rest[-1] if rest and rest[-1] in COUNTS else ""
        name = tuple(rest[:-1] if count else rest)
        row = rows.setdefault(group, {}).setdefault(name, {"now": {}, "book": {}})
        row["now"][count] = value
        row["book"][count] = defaults.get(key, value)

    groups = []
    for group, named in rows.items():
        bare = counts.get(group, own_unit)
        heading = RuleGroup(headings.get(group, group.replace("_", " ").capitalize()))
        for name, numbers in named.items():
            now = _words(numbers["now"], bare, high)
            book = _words(numbers["book"], bare, high)
            heading.rows.append(RuleRow(_label(list(name)), now, "" if now == book else book))
        groups.append(heading)

    fill = {**ruleset.values, **options}
    return Rulebook(
        title=ruleset.title,
        intro=explained.get("intro", ""),
        unit=ruleset.unit,
        starting_tally=starting_tally,
        minimum=_amount(low, own_unit) if low else "",
        limit=_amount(high, own_unit) if high is not None else "",
        payments=[
            NAMED.sub(lambda m: str(fill[m.group(1)]), line)
            for line in explained.get("payments", [])
        ],
        groups=groups,
    )
