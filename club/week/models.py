"""A member's answer to "are you coming this week?" for one session.

One row per member and session (the newest answer wins); a member who never answered has
no row ("not heard from"). The rows are the club's, scoped like attendance.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from club.scoping import ClubRow, ClubRowQuerySet, club_scoped

NOTE_MAX = 60


class ReplyAnswer(models.TextChoices):
    COMING = "coming", "Coming"
    NOT_COMING = "not_coming", "Not this week"


class SessionReplyQuerySet(ClubRowQuerySet):
    def for_session(self, session) -> SessionReplyQuerySet:
        return self.filter(session=session)

    def for_member(self, member) -> SessionReplyQuerySet:
        return self.filter(member=member)

    def coming(self) -> SessionReplyQuerySet:
        return self.filter(answer=ReplyAnswer.COMING)

    def not_coming(self) -> SessionReplyQuerySet:
        return self.filter(answer=ReplyAnswer.NOT_COMING)


class SessionReply(ClubRow):
    """Whether `member` said they are coming to `session`, with an optional short note
    ("late, about 3 pm"). `answered_by` is whoever pressed the button: the member, or a
    coordinator answering for a member who rang."""

    club_parent = "session"
    club = models.ForeignKey(
        "club.Club", on_delete=models.CASCADE, related_name="+", db_index=False
    )
    session = models.ForeignKey("club.Session", on_delete=models.CASCADE, related_name="replies")
    member = models.ForeignKey("club.Member", on_delete=models.CASCADE, related_name="replies")
    answer = models.CharField(max_length=12, choices=ReplyAnswer.choices)
    note = models.CharField(max_length=NOTE_MAX, blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    updated_at = models.DateTimeField(auto_now=True)

    objects = club_scoped(SessionReplyQuerySet)

    class Meta:
        # By the keys: ordered by "session" and "member", every query joined the sessions
        # and members to sort by their own orders (date, name), and PostgreSQL hashed every
        # session the club held to sort a few sessions' answers. A list shown in an order
        # says which.
        ordering = ["session_id", "member_id"]
        # Leading with the club, then the parent's key: with the club's key alone indexed,
        # PostgreSQL would find a few sessions' rows by reading all the club's (issue 28).
        # Then the member's: one member's row of a session is one index entry.
        indexes = [models.Index(fields=["club", "session", "member"], name="reply_club_session")]
        constraints = [
            models.UniqueConstraint(fields=["session", "member"], name="one_reply_per_session"),
            models.CheckConstraint(
                condition=Q(answer__in=ReplyAnswer.values), name="reply_answer_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member}: {self.get_answer_display()} at {self.session}"

    @property
    def is_coming(self) -> bool:
        return self.answer == ReplyAnswer.COMING


class AwayPeriodQuerySet(ClubRowQuerySet):
    def covering(self, day) -> AwayPeriodQuerySet:
        return self.filter(first__lte=day, last__gte=day)

    def current(self, today) -> AwayPeriodQuerySet:
        """Those not over yet, soonest first (the home page lists them)."""
        return self.filter(last__gte=today).order_by("first", "last")


class AwayPeriod(ClubRow):
    """A member away from one day to another ("Away 2-23 December"), kept so that it holds
    for sessions the coordinator adds later too: a session created inside it starts with
    the member's "not this week" (`Session.save`, `answer_new_session` below). Dates only,
    no note: nothing personal to erase when a leaver's details go."""

    club_parent = "member"
    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="+")
    member = models.ForeignKey("club.Member", on_delete=models.CASCADE, related_name="away_periods")
    first = models.DateField()
    last = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)

    objects = club_scoped(AwayPeriodQuerySet)

    # The note on the answers it gives to sessions added later.
    NOTE = "away"

    class Meta:
        ordering = ["member", "first", "last"]
        constraints = [
            models.CheckConstraint(
                condition=Q(first__lte=F("last")), name="away_first_not_after_last"
            ),
            models.UniqueConstraint(fields=["member", "first", "last"], name="one_away_per_dates"),
        ]

    def __str__(self) -> str:
        return f"{self.member} away {self.first} to {self.last}"


def answer_new_session(session) -> int:
    """Give the members away on `session`'s day their "not this week" for it (answered by
    nobody, noted "away"), leaving any answer already given. Called by `Session.save` for a
    new session (or one moved to another day), inside the transaction that saves it, so
    the session is never seen without them. Plain managers with the club named: sessions
    are created in and out of a club's scope (commands, demo). Returns how many members
    were away that day."""
    away = set(
        AwayPeriod._base_manager.filter(
            club_id=session.club_id,
            member__is_active=True,
            first__lte=session.date,
            last__gte=session.date,
        ).values_list("member_id", flat=True)
    )
    answers = [
        SessionReply(
            club_id=session.club_id,
            session=session,
            member_id=member_id,
            answer=ReplyAnswer.NOT_COMING,
            note=AwayPeriod.NOTE,
            answered_by=None,
        )
        for member_id in sorted(away)
    ]
    # A session moved into the days keeps the answers it had: only the silent are answered.
    SessionReply._base_manager.bulk_create(answers, ignore_conflicts=True)
    return len(away)
