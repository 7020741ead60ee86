"""A member's answer to "are you coming this week?" for one session.

One row per member and session (the newest answer wins); a member who never answered has
no row ("not heard from"). The rows are the club's, scoped like attendance.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

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
    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="+")
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
        ordering = ["session", "member"]
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
