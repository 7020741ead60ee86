"""What a change of the club's rule set affects, for the settings page to say before it
is saved (reads only).

A match keeps the rules it started with (games.start snapshots them): tables playing when
the rule set changes finish under the old rules, and every match started afterwards (the
next evening, or a table that starts again tonight because someone arrived or left) uses
the new ones. Results and standings are kept per rule set (scoring.standings), so this
season's results under the old rules stay in their own table.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from club.models import Club
from games.models import Match
from scoring.results import MatchResult
from scoring.rules import short_name
from scoring.standings import Season


@dataclass
class RuleSetChange:
    old: str
    new: str
    tables_playing: int  # matches in play now, which keep the old rules
    season_results: bool  # whether this season has results under the old rules
    new_results: bool = False  # whether it has some under the new rules already

    @property
    def old_name(self) -> str:
        return short_name(self.old)

    @property
    def new_name(self) -> str:
        return short_name(self.new)

    @property
    def sentences(self) -> list[str]:
        """What the change affects, in plain words."""
        old, new = self.old_name, self.new_name
        said = []
        if self.tables_playing:
            tables = (
                "1 table is" if self.tables_playing == 1 else f"{self.tables_playing} tables are"
            )
            said.append(
                f"{tables} playing now. Tables already playing keep {old} until their match "
                f"ends; new matches use {new}, including a table that starts again tonight "
                "because someone arrives or leaves."
            )
        else:
            said.append(f"No table is playing now. New matches use {new}.")
        if self.season_results:
            then = (
                f"{new} results join this season's {new} table"
                if self.new_results
                else f"{new} results start a table of their own"
            )
            said.append(
                f"Standings are kept per rule set: this season's results so far stay in a "
                f"separate {old} table, and {then}."
            )
        else:
            said.append(f"This season has no {old} results, so no standings are split.")
        return said


def rule_set_change(club: Club, old: str, new: str) -> RuleSetChange:
    """What changing `club`'s rule set from `old` to `new` affects (two queries)."""

    season = Season.containing(club, timezone.localdate())
    playing = Match.objects.in_play().filter(session__club=club).count()
    played = set(
        MatchResult.objects.filter(
            session__club=club,
            session__date__gte=season.start,
            session__date__lt=season.end,
            rules__in=[old, new],
        )
        .values_list("rules", flat=True)
        .distinct()
    )
    return RuleSetChange(old, new, playing, old in played, new in played)
