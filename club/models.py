"""The club, its members and its settings; weekly sessions, attendance and seating."""

import datetime
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from scoring.rules import rule_set_choices, starting_tally


class ClubQuerySet(models.QuerySet):
    def current(self) -> "Club":
        """The club of this installation (one per installation for now), created on first use."""
        club = self.order_by("pk").first()
        if club is None:
            club = self.create(name="Our Mahjong Club")
        return club


class Club(models.Model):
    class OddTables(models.TextChoices):
        FIVE = "five", "Tables of five (a Dreamer sits out in turn)"
        THREE = "three", "Tables of three"

    name = models.CharField(max_length=120)
    rule_set = models.CharField(max_length=20, choices=rule_set_choices, default="classical")
    # Overrides of the rule set's options and table values; validated by the hand engine.
    rule_options = models.JSONField(default=dict, blank=True)
    rule_values = models.JSONField(default=dict, blank=True)
    starting_tally = models.IntegerField(
        null=True,
        blank=True,
        help_text="Leave empty to use the rule set's usual starting tally.",
    )
    odd_tables = models.CharField(
        "when the players do not divide into fours",
        max_length=10,
        choices=OddTables.choices,
        default=OddTables.FIVE,
    )
    spread_beginners = models.BooleanField("spread beginners across the tables", default=True)
    season_start = models.DateField(
        "this season began on",
        null=True,
        blank=True,
        help_text="Leave empty if the season follows the calendar year (from 1 January).",
    )

    objects = ClubQuerySet.as_manager()

    def __str__(self) -> str:
        return self.name

    @property
    def effective_starting_tally(self) -> int:
        if self.starting_tally is not None:
            return self.starting_tally
        return starting_tally(self.rule_set)

    def season_start_for(self, date: datetime.date) -> datetime.date:
        """The first day of the season that `date` falls in.

        Seasons last a year. Without `season_start` a season is a calendar year. With it,
        each season begins on that day and month; a date before this year's start
        belongs to the season that began the year before.
        """
        if self.season_start is None:
            return datetime.date(date.year, 1, 1)
        start = _same_day_in_year(self.season_start, date.year)
        if start > date:
            start = _same_day_in_year(self.season_start, date.year - 1)
        return start


def _same_day_in_year(day: datetime.date, year: int) -> datetime.date:
    try:
        return day.replace(year=year)
    except ValueError:  # 29 February in a year that has none
        return datetime.date(year, 2, 28)


class Member(models.Model):
    """A club member. Many never log in: the coordinator records for them."""

    class Experience(models.TextChoices):
        BEGINNER = "beginner", "Beginner"
        EXPERIENCED = "experienced", "Experienced"

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="members")
    name = models.CharField("full name", max_length=120)
    table_name = models.CharField(
        "name shown at the table", max_length=40, help_text="Short name, e.g. first name."
    )
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    joined = models.DateField(default=timezone.localdate)
    is_active = models.BooleanField("active", default=True, help_text="Untick for a lapsed member.")
    experience = models.CharField(
        max_length=12, choices=Experience.choices, default=Experience.EXPERIENCED
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="member",
    )
    fixed_table = models.PositiveSmallIntegerField(
        "always at table",
        null=True,
        blank=True,
        help_text="For a member who needs a particular table (e.g. near the door). Usually empty.",
    )
    is_guest = models.BooleanField(
        "guest", default=False, help_text="A visitor added on the day, not (yet) a member."
    )
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["table_name", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "table_name"], name="unique_table_name_per_club"
            ),
        ]

    def __str__(self) -> str:
        return self.table_name

    def save(self, *args, **kwargs):
        if not self.table_name:
            self.table_name = self.name.split()[0] if self.name.split() else self.name
        super().save(*args, **kwargs)


class KeepApart(models.Model):
    """Two members the seating never puts at the same table.

    The pair is stored in one order only (member_a has the lower id), so (A, B) and
    (B, A) are the same row and the database refuses a second copy.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="keep_aparts")
    member_a = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    member_b = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        verbose_name = "never seat together"
        verbose_name_plural = "never seat together"
        constraints = [
            models.CheckConstraint(
                condition=Q(member_a__lt=F("member_b")),
                name="keep_apart_ordered_distinct_pair",
            ),
            models.UniqueConstraint(fields=["member_a", "member_b"], name="unique_keep_apart_pair"),
        ]

    def __str__(self) -> str:
        return f"{self.member_a} and {self.member_b}"

    def save(self, *args, **kwargs):
        self._order()
        super().save(*args, **kwargs)

    def _order(self) -> None:
        if self.member_a_id and self.member_b_id and self.member_a_id > self.member_b_id:
            self.member_a, self.member_b = self.member_b, self.member_a

    def clean(self):
        if self.member_a_id and self.member_a_id == self.member_b_id:
            raise ValidationError("A member cannot be kept apart from themselves.")
        for field in ("member_a", "member_b"):
            if getattr(self, f"{field}_id") is None or not self.club_id:
                continue
            member = getattr(self, field)
            if member.club_id != self.club_id:
                raise ValidationError(f"{member} is not a member of this club.")
        self._order()

    def other(self, member: Member) -> Member:
        return self.member_b if member.pk == self.member_a_id else self.member_a


class Session(models.Model):
    """One weekly club meeting."""

    class Status(models.TextChoices):
        PLANNED = "planned", "Planned"
        IN_PLAY = "in_play", "In play"
        CLOSED = "closed", "Closed"

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="sessions")
    date = models.DateField()
    venue = models.CharField(max_length=120, blank=True)
    notes = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date"]
        constraints = [
            models.UniqueConstraint(fields=["club", "date"], name="unique_session_date_per_club"),
        ]

    def __str__(self) -> str:
        return f"Session {self.date:%A %d %B %Y}"

    @property
    def is_closed(self) -> bool:
        return self.status == self.Status.CLOSED


class Attendance(models.Model):
    """A member at a session. Present while `left_at` is empty."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="attendances")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="attendances")
    arrived_at = models.DateTimeField(default=timezone.now)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["arrived_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "member"], name="unique_attendance_per_session"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} at {self.session}"

    @property
    def is_present(self) -> bool:
        return self.left_at is None


def new_rng_seed() -> int:
    return secrets.randbits(62)


class SeatingPlan(models.Model):
    """Who sits where at one session. Behaviour lives in the seating services."""

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"

    session = models.OneToOneField(Session, on_delete=models.CASCADE, related_name="seating")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    published_at = models.DateTimeField(null=True, blank=True)
    rng_seed = models.BigIntegerField(default=new_rng_seed)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Seating for {self.session}"


class SeatingTable(models.Model):
    plan = models.ForeignKey(SeatingPlan, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    locked = models.BooleanField(default=False)

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

    class Wind(models.TextChoices):
        EAST = "E", "East"
        SOUTH = "S", "South"
        WEST = "W", "West"
        NORTH = "N", "North"
        DREAMER = "D", "Dreamer"

    plan = models.ForeignKey(SeatingPlan, on_delete=models.CASCADE, related_name="seats")
    table = models.ForeignKey(SeatingTable, on_delete=models.CASCADE, related_name="seats")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="seats")
    wind = models.CharField(max_length=1, choices=Wind.choices)
    # Seat order at the table, from 1. At a table of five the fifth is the Dreamer, who
    # sits out the first hand.
    position = models.PositiveSmallIntegerField()
    # The dice throws shown to the players (how the seats were drawn).
    dice = models.JSONField(default=list, blank=True)

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
