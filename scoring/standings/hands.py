"""Queries over the club's hands: the winner's name of each, the limit hands, every hand
won (the hands CSV) and the players' names of each match of a season."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import F, OuterRef, Subquery

from club.models import (
    Club,
    Member,
)
from games.models import Chair
from scoring.models import Hand
from scoring.standings.seasons import Season


def winner_name():
    """An annotation: the table name of a hand's winner, looked up by the hand's match key
    (the hand came from the club's scope; the scoped manager would join the match and its
    session to each hand again, to check the club and to sort)."""
    chair = Chair._base_manager.filter(match=OuterRef("match"), number=OuterRef("winner"))
    return Subquery(chair.order_by().values("member__table_name")[:1])


def limit_hands(club: Club, member: Member | None = None):
    """Live hands worth their match's limit or more, with `winner_name`: found from the
    few results holding a limit hand (a partial index holds only them), each the winner's
    own row, which carries the limit of the rules its match was played under."""
    return (
        Hand.objects.live()
        .filter(
            match__results__limit_hands__gt=0,
            match__results__chair__number=F("winner"),
            total__gte=F("match__results__limit"),
            # The club of the result rows, not of the sessions: the partial index of the
            # results holding a limit hand leads with it, so only those rows are read.
            match__results__club=club,
            **({"match__results__member": member} if member else {}),
        )
        .annotate(winner_name=F("match__results__member__table_name"))
        .select_related("match__session")
    )


def club_hands(club: Club):
    return (
        Hand.objects.live()
        .filter(match__session__club=club, winner__isnull=False)
        .annotate(winner_name=winner_name())
        .select_related("match__session")
    )


def chair_names(club: Club, season: Season) -> dict[int, list[str]]:
    """Each match of the season: its players' table names in chair order (one query)."""
    names: dict[int, list[str]] = defaultdict(list)
    chairs = (
        Chair.objects.filter(
            match__session__club=club,
            match__session__date__gte=season.start,
            match__session__date__lt=season.end,
        )
        .order_by("match_id", "number")
        .values_list("match_id", "member__table_name")
    )
    for match_id, name in chairs:
        names[match_id].append(name)
    return names
