"""Each chair's figures over one match, kept up to date as hands are recorded.

Derived data: every figure here comes from the live hands and kong chips of the match
(scoring.standings.refresh_match writes them in the same transaction as the hand), so the
standings read a few hundred small rows instead of summing years of hands per page.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from club.scoping import ClubRow, ClubRowQuerySet, club_scoped


def ordinal(place: int, tied: bool = False) -> str:
    """1 -> "1st", (2, tied) -> "joint 2nd"."""
    place = int(place)
    suffix = "th" if 10 < place % 100 < 14 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"joint {place}{suffix}" if tied else f"{place}{suffix}"


class MatchResult(ClubRow):
    """One chair's result in one match: tally change, hands, best hand and placing.

    The placing is stored as shares of 1st, 2nd, 3rd and 4th place (`first`..`fourth`),
    so the club's placing points (e.g. 4-2-1-0) apply at read time and a change of
    points rescores every season. At a table of five or three the places are spread
    evenly over 1st..4th (at five, 2nd is three quarters of a 2nd and a quarter of a
    1st), so each table shares out the same points on average; tied players share the
    places they cover. No hands, no place: only the chairs that played a hand of the match
    are placed (`table_size` counts them; the others have place 0 and no shares), and a
    match where nothing counts (no hand, no kong chips) has no rows at all. `weight` is
    the share of the member's hands that evening played in this match (1 unless their
    table changed during the evening, 0 when they played no hand), so placings count once
    per evening. The shares are multiples of 1/240, so the floats read back exactly
    (scoring.standings.exact_share).
    """

    club_parent = "match"
    club = models.ForeignKey(
        "club.Club", on_delete=models.PROTECT, related_name="+", db_index=False
    )
    chair = models.OneToOneField("games.Chair", on_delete=models.CASCADE, related_name="result")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="results")
    session = models.ForeignKey("club.Session", on_delete=models.CASCADE, related_name="+")
    member = models.ForeignKey("club.Member", on_delete=models.PROTECT, related_name="+")
    result = models.IntegerField(default=0)
    hands_played = models.PositiveIntegerField(default=0)
    match_hands = models.PositiveIntegerField(default=0)  # live hands at the table
    hands_won = models.PositiveIntegerField(default=0)
    best_total = models.PositiveIntegerField(null=True, blank=True)
    best_hand = models.ForeignKey(
        "scoring.Hand", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    longest_streak = models.PositiveSmallIntegerField(default=0)
    # The match's limit (a hand worth this much or more is a limit hand); empty for rules
    # without one. Copied from the match's rules so records need no rule-set lookups.
    limit = models.PositiveIntegerField(null=True, blank=True)
    rules = models.CharField(max_length=20)  # the match's rule set, for records per rule set
    limit_hands = models.PositiveSmallIntegerField(default=0)  # limit hands this chair won
    table_size = models.PositiveSmallIntegerField()
    place = models.PositiveSmallIntegerField(default=1)  # tied players share the best place
    tied = models.BooleanField(default=False)
    first = models.FloatField(default=0)
    second = models.FloatField(default=0)
    third = models.FloatField(default=0)
    fourth = models.FloatField(default=0)
    weight = models.FloatField(default=1)

    objects = club_scoped(ClubRowQuerySet)

    class Meta:
        # Every read is one club's (the scope adds `club`): the club leads each index, so a
        # club's records cost the same among a thousand clubs as alone.
        indexes = [
            models.Index(fields=["member", "session"], name="result_member_session"),
            models.Index(fields=["club", "session"], name="result_club_session"),
            models.Index(fields=["club", "-longest_streak"], name="result_club_streak"),
            models.Index(fields=["club", "rules", "-best_total"], name="result_club_best_total"),
            models.Index(
                fields=["club", "limit_hands"],
                condition=Q(limit_hands__gt=0),
                name="result_club_limit_hands",
            ),
            # The records page's limit hands of a season: its sessions' results holding one.
            models.Index(
                fields=["club", "session"],
                condition=Q(limit_hands__gt=0),
                name="result_limit_hands_by_session",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member_id} in match {self.match_id}: {self.result:+d}"

    @property
    def place_text(self) -> str:
        return ordinal(self.place, self.tied)
