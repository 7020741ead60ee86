"""The seating's models: a session's plan (draft or published), its tables and their
seats. Part of the club app (its label and tables), registered by club/models.py; they
name the session and member by label, so this module imports nothing of club.models."""

import secrets

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone

from club.scoping import club_scoped
from club.seating.planner import SeatingError, Wind


def new_rng_seed() -> int:
    return secrets.randbits(62)


class SeatingPlan(models.Model):
    """Who sits where at one session: a draft the coordinator changes, then published.

    A published plan never changes except through `unpublish` and the late-arrival and
    early-leaver changes (club/seating/changes.py), which the coordinator chooses on purpose.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"

    session = models.OneToOneField("club.Session", on_delete=models.CASCADE, related_name="seating")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    published_at = models.DateTimeField(null=True, blank=True)
    rng_seed = models.BigIntegerField(default=new_rng_seed)
    updated = models.DateTimeField(auto_now=True)
    # Whether a swap changed the draft since it was planned (a re-roll asks first), and the
    # draft as it was before the last change, to undo it: {"what": ..., "tables": ...}.
    changed_by_hand = models.BooleanField(default=False)
    undo = models.JSONField(null=True, blank=True)

    objects = club_scoped(path="session__club")

    def __str__(self) -> str:
        return f"Seating for {self.session}"

    @property
    def is_published(self) -> bool:
        return self.status == self.Status.PUBLISHED

    def ensure_draft(self) -> None:
        """Refuse a change to a published seating (its session must be open, too)."""
        self.session.ensure_open("its seating")
        if self.is_published:
            raise SeatingError(
                "The seating is published, so it stays as it is. "
                "Press “Unpublish to change” first if it really must change."
            )

    def ensure_published(self) -> None:
        """Late arrivals and leavers change a published seating only."""
        self.session.ensure_open("its seating")
        if not self.is_published:
            raise SeatingError(
                "The seating is not published yet: change the draft instead (re-roll or swap)."
            )

    @transaction.atomic
    def publish(self) -> None:
        """Members can now see the seating; it stays fixed unless the coordinator unpublishes.
        One conditional UPDATE, so two coordinators pressing at once publish it once."""
        self.ensure_draft()
        if not self.tables.exists():
            raise SeatingError("There are no tables to publish: make the seating first.")
        self._move(self.Status.DRAFT, self.Status.PUBLISHED, timezone.now())

    @transaction.atomic
    def unpublish(self) -> None:
        """Back to a draft the coordinator can change (members no longer see it)."""
        self.ensure_published()
        self._move(self.Status.PUBLISHED, self.Status.DRAFT, None)

    def _move(self, old: str, new: str, published_at) -> None:
        now = timezone.now()
        moved = SeatingPlan.objects.filter(pk=self.pk, status=old).update(
            status=new, published_at=published_at, updated=now, undo=None
        )
        if not moved:
            raise SeatingError("Someone else changed the seating just now: please look again.")
        self.status, self.published_at, self.updated, self.undo = new, published_at, now, None

    @transaction.atomic
    def lock_table(self, number: int, locked: bool = True) -> None:
        """Lock a table (a re-roll keeps it as it is) or unlock it."""
        self.ensure_draft()
        if not self.tables.filter(number=number).update(locked=locked):
            raise SeatingError(f"There is no table {number}.")
        SeatingPlan.objects.filter(pk=self.pk).update(updated=timezone.now())


class SeatingTable(models.Model):
    plan = models.ForeignKey(SeatingPlan, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    locked = models.BooleanField(default=False)

    objects = club_scoped(path="plan__session__club")

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["plan", "number"], name="unique_table_number_per_plan"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"


class Seat(models.Model):
    """A member's seat. `plan` repeats `table.plan` so the database can refuse a member
    seated twice in one plan; `save()` fills it in (pass it yourself to bulk_create)."""

    Wind = Wind

    plan = models.ForeignKey(SeatingPlan, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(SeatingTable, on_delete=models.CASCADE, related_name="seats")
    member = models.ForeignKey("club.Member", on_delete=models.PROTECT, related_name="seats")
    wind = models.CharField(max_length=1, choices=[(w.value, w.label) for w in Wind])
    # Seat order at the table, from 1. At a table of five the fifth is the Dreamer, who
    # sits out the first hand.
    position = models.PositiveSmallIntegerField()
    # The dice throws shown to the players (how the seats were drawn).
    dice = models.JSONField(default=list, blank=True)

    objects = club_scoped(path="plan__session__club")

    class Meta:
        ordering = ["table__number", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "member"], name="unique_member_per_table"),
            models.UniqueConstraint(fields=["table", "position"], name="unique_position_per_table"),
            models.UniqueConstraint(fields=["plan", "member"], name="unique_member_per_plan"),
        ]

    def __str__(self) -> str:
        return f"{self.member} ({self.get_wind_display()}) at table {self.table.number}"

    def save(self, *args, **kwargs):
        if self.table_id and not self.plan_id:
            self.plan_id = self.table.plan_id
        super().save(*args, **kwargs)

    def clean(self):
        if self.table_id and self.plan_id and self.table.plan_id != self.plan_id:
            raise ValidationError("The seat's table belongs to another seating plan.")
