"""A table's match: who sits in which chair, the rules it is played under, and its state.

A match's state (hand number, round, dealer, winds, goulash, over) is never stored: it is
the replay of its recorded outcomes through `games.flow`, so correcting or undoing an old
hand re-derives everything after it. Hands and their payments live in `scoring`.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from club.scoping import ClubRow, ClubRowQuerySet, club_scoped
from games import flow

# The most chairs a table can have (a table of five: four play, the Dreamer sits out).
MAX_CHAIRS = 5


class MatchQuerySet(ClubRowQuerySet):
    def in_play(self) -> MatchQuerySet:
        return self.filter(status=Match.Status.IN_PLAY)


class Match(ClubRow):
    """One table's play at one session, under the rules the club had when play started."""

    club_parent = "session"

    class Status(models.TextChoices):
        IN_PLAY = "in_play", "In play"
        FINISHED = "finished", "Finished"

    class Ending(models.TextChoices):
        FLOW = "flow", "Played to the end"
        CLOSED = "closed", "Ended when the evening closed"
        ENDED = "ended", "Ended by the coordinator"
        TABLE_CHANGED = "table_changed", "The table changed (someone arrived or left)"

    club = models.ForeignKey("club.Club", on_delete=models.PROTECT, related_name="+")
    session = models.ForeignKey("club.Session", on_delete=models.PROTECT, related_name="matches")
    table_number = models.PositiveSmallIntegerField()
    # A snapshot of the club's settings when play started: changing them later never
    # rewrites a match already played.
    rules = models.CharField(max_length=20)
    rule_options = models.JSONField(default=dict, blank=True)
    rule_values = models.JSONField(default=dict, blank=True)
    flow_options = models.JSONField(default=dict, blank=True)
    starting_tally = models.IntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.IN_PLAY)
    ending = models.CharField(max_length=20, choices=Ending.choices, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every write, so a second device at the table can tell cheaply that it
    # is out of date.
    version = models.PositiveIntegerField(default=0)

    objects = club_scoped(MatchQuerySet)

    class Meta:
        ordering = ["session", "table_number", "started_at"]
        verbose_name_plural = "matches"
        constraints = [
            models.UniqueConstraint(
                fields=["session", "table_number"],
                condition=Q(status="in_play"),
                name="one_match_in_play_per_table",
            ),
            models.CheckConstraint(
                condition=Q(status="in_play", ending="") | Q(status="finished") & ~Q(ending=""),
                name="match_finished_has_an_ending",
            ),
        ]

    def __str__(self) -> str:
        return f"Table {self.table_number}, {self.session}"

    @property
    def is_in_play(self) -> bool:
        return self.status == self.Status.IN_PLAY

    # --- the match's state, derived ------------------------------------------------------

    def live_hands(self):
        """Hands that count (not voided), in order."""
        return self.hands.filter(voided_at__isnull=True).order_by("number")

    def replay(self, hands=None, extra_outcome: dict | None = None) -> list:
        """The state before each hand and after the last one (see games.flow).

        `hands` are the live hands if already loaded; `extra_outcome` is a hand about to be
        recorded, so the flow can refuse it before anything is written."""
        hands = list(self.live_hands()) if hands is None else hands
        outcomes = self.flow_outcomes(hands)
        if extra_outcome is not None:
            outcomes.append(extra_outcome)
        return flow.replay(
            self.rules, outcomes, players=self.chair_count, options=self.flow_options or None
        )

    def flow_outcomes(self, hands) -> list[dict]:
        """The live `hands` as games.flow reads them (the table page's flow.js too)."""
        outcomes = [hand.flow_outcome() for hand in hands]
        if self.rules == "hk":
            # Hong Kong ends the match when a player's tally reaches zero.
            tallies = [self.starting_tally] * self.chair_count
            for outcome, hand in zip(outcomes, hands, strict=True):
                tallies = [t + p for t, p in zip(tallies, hand.payments, strict=False)]
                outcome["tallies"] = list(tallies)
        return outcomes

    @property
    def chair_count(self) -> int:
        cached = getattr(self, "_chair_count", None)
        if cached is None:
            cached = self._chair_count = len(self.chair_list())
        return cached

    def chair_of(self, user) -> int | None:
        """The chair of the logged-in `user` in this match, or None."""
        if not user.is_authenticated:
            return None
        for chair in self.chair_list():
            if chair.member.user_id == user.pk:
                return chair.number
        return None

    def player_names(self) -> list[str]:
        """The players' table names in chair order (East first), as every page lists them."""
        return [chair.member.table_name for chair in self.chair_list()]

    def save_and_bump_version(self, *fields: str) -> None:
        """Save `fields` and move the match's version on: every device showing the table
        polls the version, and reloads when it changed."""
        self.version += 1
        self.save(update_fields=[*fields, "version"])

    def chair_list(self) -> list[Chair]:
        """The chairs in order (cached on the instance: one query per match)."""
        cached = getattr(self, "_chairs", None)
        if cached is None:
            prefetched = getattr(self, "_prefetched_objects_cache", {}).get("chairs")
            if prefetched is not None:  # prefetched with their members, in order
                cached = self._chairs = list(prefetched)
            else:
                chairs = self.chairs.select_related("member").order_by("number")
                cached = self._chairs = list(chairs)
        return cached

    def tallies(self, records=None) -> list[int]:
        """Each chair's tally now: the starting tally plus every payment that counts.

        `records` are the match's hands and kong chips if already loaded (voided ones are
        skipped), so a page that lists them needs no further query."""
        totals = [self.starting_tally] * self.chair_count
        if records is not None:
            for record in records:
                if record.voided_at is None:
                    for chair, paid in enumerate(record.payments[: self.chair_count]):
                        totals[chair] += paid
            return totals
        # The records are scoring's models (games imports nothing of scoring): each kind
        # sums its own payment columns.
        for source in (self.live_hands(), self.kong_chips.filter(voided_at__isnull=True)):
            for chair, paid in enumerate(source.model.payment_sums(source)[: self.chair_count]):
                totals[chair] += paid
        return totals


class Chair(models.Model):
    """A member's chair in a match. Chair 0 dealt first (East for hand 1); at a table of
    five, chair 4 is the Dreamer who sits out hand 1."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chairs")
    number = models.PositiveSmallIntegerField()
    member = models.ForeignKey("club.Member", on_delete=models.PROTECT, related_name="chairs")

    objects = club_scoped(path="match__club")

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_chair_per_match"),
            models.UniqueConstraint(fields=["match", "member"], name="unique_member_per_match"),
            models.CheckConstraint(
                condition=Q(number__lt=MAX_CHAIRS), name="chair_number_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} in chair {self.number}"
