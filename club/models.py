"""The club, its members and its settings; weekly sessions, attendance and seating."""

import datetime
import secrets

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F, Q
from django.utils import timezone

from club.seating.planner import SeatingError, Wind

RULE_SET_CHOICES = [
    ("classical", "Classical points and doublings"),
    ("hk", "Hong Kong Old Style (faan)"),
    ("fan", "Simple fan table"),
    ("u3a", "U3A club house rules"),
]

# What a player starts each match with, when the club has not chosen otherwise.
DEFAULT_STARTING_TALLY = {"classical": 2000, "hk": 500, "fan": 500, "u3a": 0}


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
    rule_set = models.CharField(max_length=20, choices=RULE_SET_CHOICES, default="classical")
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
        return DEFAULT_STARTING_TALLY.get(self.rule_set, 0)

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


class SessionClosed(Exception):
    """A change was asked of a closed session. The message is one sentence for the page."""


class SessionQuerySet(models.QuerySet):
    def upcoming(self, today: datetime.date) -> "SessionQuerySet":
        """Today's and later sessions, soonest first."""
        return self.filter(date__gte=today).order_by("date")

    def past(self, today: datetime.date) -> "SessionQuerySet":
        """Sessions before today, latest first."""
        return self.filter(date__lt=today).order_by("-date")

    def with_present_count(self) -> "SessionQuerySet":
        """Annotate `present`: how many are here (checked in and not left)."""
        return self.annotate(
            present=models.Count(
                "attendances", filter=Q(attendances__left_at__isnull=True), distinct=True
            )
        )


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

    objects = SessionQuerySet.as_manager()

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

    def ensure_open(self, what: str = "it") -> None:
        """Refuse a change to a closed session. `what` names the thing that would change,
        e.g. "its attendance" or "its seating", so the message says what was refused."""
        if self.is_closed:
            raise SessionClosed(
                f"This session is closed, so {what} can no longer change. "
                "Reopen it on the session's page if something needs correcting."
            )

    def check_in(self, member: "Member") -> "Attendance":
        """Mark `member` here (again, if they had left). Asking twice changes nothing.
        The caller holds the transaction; closed sessions are refused by the caller's
        `ensure_open`, because some callers (corrections) may reopen first."""
        attendance, created = Attendance.objects.get_or_create(session=self, member=member)
        if not created and attendance.left_at is not None:
            attendance.left_at = None
            attendance.save(update_fields=["left_at"])
        return attendance


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
    """Who sits where at one session: a draft the coordinator changes, then published.

    A published plan never changes except through `unpublish` and the late-arrival and
    early-leaver changes (club/seating/changes.py), which the coordinator chooses on purpose.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        PUBLISHED = "published", "Published"

    session = models.OneToOneField(Session, on_delete=models.CASCADE, related_name="seating")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    published_at = models.DateTimeField(null=True, blank=True)
    rng_seed = models.BigIntegerField(default=new_rng_seed)
    updated = models.DateTimeField(auto_now=True)
    # Whether a swap changed the draft since it was planned (a re-roll asks first), and the
    # draft as it was before the last change, to undo it: {"what": ..., "tables": ...}.
    changed_by_hand = models.BooleanField(default=False)
    undo = models.JSONField(null=True, blank=True)

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
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="seats")
    wind = models.CharField(max_length=1, choices=[(w.value, w.label) for w in Wind])
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
