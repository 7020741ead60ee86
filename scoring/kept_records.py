"""The club's records kept, so the records page reads a few dozen rows at any age.

Derived data, like `MatchResult`: each row points at the result holding one of the club's
highest hands of a rule set, or one of its longest runs of hands won, with its rank.
`keep_records` runs in the transaction that recorded, voided, undid or corrected a hand
(scoring.standings.refresh), after the match's results were written, and only when a figure
that can make a record changed: it then works the affected lists out again from the
results (the top rows of an index that leads with the club: a few rows read however many
years or clubs there are). `rebuild_records` works a club's out from scratch (the
`rebuild_standings` command, a backup restored). The records page never sums anything.
"""

from __future__ import annotations

from django.db import models

from club.models import Club
from club.scoping import ClubRow, ClubRowQuerySet, club_scoped
from scoring.results import MatchResult

# How many rows each list keeps (and the records page shows).
KEPT = 10


class KeptRecord(ClubRow):
    """One place in one of the club's record lists: `rank` 1 is the best."""

    class Kind(models.TextChoices):
        HIGHEST = "highest", "Highest hand"
        STREAK = "streak", "Longest run of hands won"

    club_parent = "result"
    club = models.ForeignKey(
        "club.Club", on_delete=models.PROTECT, related_name="+", db_index=False
    )
    kind = models.CharField(max_length=10, choices=Kind.choices)
    rules = models.CharField(max_length=20, blank=True)  # a highest hand's rule set
    rank = models.PositiveSmallIntegerField()
    # Emptied when the result goes (every hand of its match undone, a match deleted): the
    # list has a hole, which the next write filling its place in finds (and a page skips).
    result = models.ForeignKey(MatchResult, null=True, on_delete=models.SET_NULL, related_name="+")
    # The figure the list is ordered by (the best hand's total, the run's length), kept
    # so that a save can tell without a join whether its match may enter the list.
    value = models.PositiveIntegerField()

    objects = club_scoped(ClubRowQuerySet)

    class Meta:
        ordering = ["kind", "rules", "rank"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "kind", "rules", "rank"], name="kept_record_one_per_place"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.rules} #{self.rank}: {self.value}"


def _ranked(club_id: int, kind: str, rules: str):
    """The results that hold the list's places now, best first (the records page's order:
    ties by chair, which keeps its key through a rebuild and a backup restored)."""
    results = MatchResult.objects.filter(club_id=club_id)
    if kind == KeptRecord.Kind.HIGHEST:
        results = results.filter(rules=rules, best_total__isnull=False)
        results = results.order_by("-best_total", "chair_id")
        field = "best_total"
    else:
        results = results.filter(longest_streak__gte=2).order_by("-longest_streak", "chair_id")
        field = "longest_streak"
    return list(results.values_list("pk", field)[:KEPT])


def _keep_list(club_id: int, kind: str, rules: str, kept: list[KeptRecord]) -> None:
    ranked = _ranked(club_id, kind, rules)
    if [(r.result_id, r.value) for r in kept] == ranked:
        return
    KeptRecord.objects.filter(pk__in=[r.pk for r in kept]).delete()
    KeptRecord.objects.bulk_create(
        KeptRecord(club_id=club_id, kind=kind, rules=rules, rank=rank, result_id=pk, value=value)
        for rank, (pk, value) in enumerate(ranked, start=1)
    )


def _may_change(kept: list[KeptRecord], touched: dict[int, int | None]) -> bool:
    """Whether results whose figure changed (`touched`: {result key: its figure now, None
    for a result gone or out of the list's reach}) can change a list: one of them holds a
    place, or one may take a place (the list is not full, or it is at least the last's)."""
    places = {r.result_id for r in kept}
    if None in places or places & touched.keys():
        return True
    figures = [value for value in touched.values() if value is not None]
    if not figures:
        return False
    return len(kept) < KEPT or max(figures) >= kept[-1].value


def keep_records(club_id: int, before: list[MatchResult], after: list[MatchResult]) -> None:
    """Keep the club's records in step with a match's results, `before` and `after` a write
    (rows written by scoring.standings.refresh; a row gone is in `before` only). Reads the
    club's kept lists (one query) only when a best hand or a run changed, and works a list
    out again only when the change can reach it."""
    old = {row.pk: row for row in before}
    new = {row.pk: row for row in after}
    highest: dict[str, dict[int, int | None]] = {}
    streaks: dict[int, int | None] = {}
    for pk in old.keys() | new.keys():
        was, now = old.get(pk), new.get(pk)
        if (getattr(was, "best_total", None), getattr(was, "rules", None)) != (
            getattr(now, "best_total", None),
            getattr(now, "rules", None),
        ):
            for row in (was, now):
                if row is not None:
                    figure = now.best_total if now is not None and now.rules == row.rules else None
                    highest.setdefault(row.rules, {})[pk] = figure
        if getattr(was, "longest_streak", 0) != getattr(now, "longest_streak", 0):
            figure = now.longest_streak if now is not None else 0
            streaks[pk] = figure if figure >= 2 else None
    if not highest and not streaks:
        return
    # Tables of one club save at once: their records are read and rewritten one at a time
    # (a lock on the club's row for this transaction), or two would insert the same place.
    Club.objects.select_for_update().filter(pk=club_id).values_list("pk", flat=True).first()
    lists: dict[tuple[str, str], list[KeptRecord]] = {}
    for record in KeptRecord.objects.filter(club_id=club_id).order_by("kind", "rules", "rank"):
        lists.setdefault((record.kind, record.rules), []).append(record)
    changes = [((KeptRecord.Kind.HIGHEST, rules), touched) for rules, touched in highest.items()]
    if streaks:
        changes.append(((KeptRecord.Kind.STREAK, ""), streaks))
    for (kind, rules), touched in changes:
        kept = lists.get((kind, rules), [])
        if _may_change(kept, touched):
            _keep_list(club_id, kind, rules, kept)


def rebuild_records(club_ids) -> None:
    """Work every list of each club out again from its results."""
    for club_id in club_ids:
        kept = list(KeptRecord.objects.filter(club_id=club_id).order_by("kind", "rules", "rank"))
        played = (
            MatchResult.objects.filter(club_id=club_id, best_total__isnull=False)
            .values_list("rules", flat=True)
            .order_by()
            .distinct()
        )
        lists = {(KeptRecord.Kind.HIGHEST, rules) for rules in played}
        lists |= {(record.kind, record.rules) for record in kept}
        lists.add((KeptRecord.Kind.STREAK, ""))
        for kind, rules in sorted(lists):
            _keep_list(
                club_id, kind, rules, [r for r in kept if (r.kind, r.rules) == (kind, rules)]
            )


def recomputed_records(club_id: int) -> dict[tuple[str, str], list[tuple[int, int]]]:
    """What the lists hold when worked out from the results now, {(kind, rules): [(result
    key, figure), ...]}, non-empty lists only: what a test compares the kept lists with."""
    played = (
        MatchResult.objects.filter(club_id=club_id, best_total__isnull=False)
        .values_list("rules", flat=True)
        .order_by()
        .distinct()
    )
    lists = {(KeptRecord.Kind.HIGHEST.value, rules) for rules in played}
    lists.add((KeptRecord.Kind.STREAK.value, ""))
    found = {key: _ranked(club_id, *key) for key in sorted(lists)}
    return {key: ranked for key, ranked in found.items() if ranked}


def kept_records(club_id: int) -> dict[tuple[str, str], list[tuple[int, int]]]:
    """The kept lists in the shape of `recomputed_records`."""
    found: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for record in KeptRecord.objects.filter(club_id=club_id).order_by("kind", "rules", "rank"):
        found.setdefault((record.kind, record.rules), []).append((record.result_id, record.value))
    return found
