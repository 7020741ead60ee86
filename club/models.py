"""The club, its members and its settings; weekly sessions, attendance and seating."""

import datetime
import functools
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from decimal import Decimal
from typing import ClassVar
from zoneinfo import available_timezones

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import IntegrityError, models, transaction
from django.db.models import Exists, F, OuterRef, ProtectedError, Q
from django.db.models.functions import Coalesce, Lower
from django.utils import timezone
from django.utils.formats import date_format
from simple_history.models import HistoricalRecords

from club.addresses import SLUG_MESSAGE, validate_club_slug  # noqa: F401 (used by migrations)
from club.refusals import Refused
from club.scoping import ClubRow, ClubRowQuerySet, club_scoped, scopes_disabled

# The seating's models, registered with the app here (new_rng_seed: named by migrations).
from club.seating.models import Seat, SeatingPlan, SeatingTable, new_rng_seed  # noqa: F401


def parse_placing_points(text: str) -> list[float]:
    """ "4-2-1-0" -> [4, 2, 1, 0]: the points for 1st, 2nd, 3rd and 4th at a table."""
    parts = [part.strip() for part in str(text).replace(",", "-").split("-")]
    try:
        points = [float(part) for part in parts]
    except ValueError:
        points = []
    if len(points) != 4 or any(p < 0 or p > 1000 for p in points):
        raise ValidationError(
            "Write four numbers from 0 to 1000 separated by dashes, for 1st, 2nd, 3rd and "
            "4th place, e.g. 4-2-1-0."
        )
    if points != sorted(points, reverse=True):
        raise ValidationError("1st place must get at least as many points as 2nd, and so on.")
    return points


def validate_placing_points(text: str) -> None:
    parse_placing_points(text)


# The name of the club made on first use, until the coordinator names it in the settings.
FIRST_CLUB_NAME = "Our Mahjong Club"
FIRST_CLUB_SLUG = "our-club"

TIME_ZONE_MESSAGE = "Please choose a time zone from the list, e.g. Europe/London."


@functools.cache
def time_zone_names() -> frozenset[str]:
    """Every time zone name the system knows, read once (listing them reads the disk: 30 ms,
    which every club's settings form and every imported backup paid)."""
    return frozenset(available_timezones())


def validate_time_zone(name: str) -> None:
    if name not in time_zone_names():
        raise ValidationError(TIME_ZONE_MESSAGE)


class ClubQuerySet(models.QuerySet):
    def current(self) -> "Club":
        """The club of a single-club installation, created on first use (as the first club,
        it takes the site's root: `Club.save`). (Where several
        clubs share an installation, requests find theirs by the address: club/middleware.py;
        commands by `--club SLUG`: `Club.objects.for_command`.)"""
        club = self.order_by("pk").first()
        if club is None:
            # Two first requests at once make one club: the address is unique.
            club, _ = self.get_or_create(slug=FIRST_CLUB_SLUG, defaults={"name": FIRST_CLUB_NAME})
        return club

    def at_root(self, home: str = "") -> "Club | None":
        """The club served at the site's root: the club at the address `home` (the
        operators' HOME_CLUB setting) if there is one, else the club recorded as the root.
        One query on an index, as it runs for every request without a club's address."""
        wanted = Q(served_at_root=True) | Q(slug=home) if home else Q(served_at_root=True)
        found = sorted(self.filter(wanted)[:2], key=lambda club: club.slug != home)
        return found[0] if found else None

    @transaction.atomic
    def serve_at_root(self, club: "Club | None") -> None:
        """The operators' choice of the club served at the site's root (None: no club; the
        root lists the clubs). Every club keeps its `/c/<slug>/` address."""
        self.filter(served_at_root=True).exclude(pk=getattr(club, "pk", None)).update(
            served_at_root=False
        )
        if club is not None:
            self.filter(pk=club.pk).update(served_at_root=True)
            club.served_at_root = True

    def for_command(self, slug: str | None) -> "Club":
        """The club a management command works on: the one named by `--club SLUG`, or the
        only club of a single-club installation. Refuses, in words, an unknown slug or a
        missing one where there are several clubs."""
        if slug:
            club = self.filter(slug=slug).first()
            if club is None:
                raise Refused(f"There is no club with the address “{slug}”.")
            return club
        if self.count() > 1:
            raise Refused("This installation hosts several clubs: name one with --club SLUG.")
        return self.current()


# A club's own settings, in ranges that keep every figure sensible (and within the
# database's whole numbers): forms name the range in these words, CHECK constraints hold it.
MAX_STARTING_TALLY = 1_000_000
STARTING_TALLY_MESSAGE = "The starting tally must be between 0 and 1,000,000 points."
MAX_MIN_SESSIONS = 366
MIN_SESSIONS_MESSAGE = "The sessions needed to be ranked must be between 0 and 366."
MAX_TABLE_MONEY = Decimal("100")
TABLE_MONEY_MESSAGE = "The table money must be between 0 and 100."
SESSION_TIMES_MESSAGE = "Sessions must end after they begin, on the same day."
MAX_ABSENT_ALERT = 52
ABSENT_ALERT_MESSAGE = "The sessions missed without a word must be between 1 and 52."


ERASE_AFTER_MESSAGE = "Please give a number of months from 1 to 120, or leave it empty."


class FormerMemberNames(models.TextChoices):
    NUMBER = "number", "“Former member” and a number"
    INITIALS = "initials", "Their initials"


class Club(models.Model):
    class OddTables(models.TextChoices):
        FIVE = "five", "Tables of five (a Dreamer sits out in turn)"
        THREE = "three", "Tables of three"

    name = models.CharField(max_length=120)
    # The club's address on a shared installation: /c/<slug>/ (club/middleware.py).
    slug = models.CharField("address", max_length=40, unique=True, validators=[validate_club_slug])
    # The one club whose pages are also at the site's root (`/standings/` as well as
    # `/c/<slug>/standings/`): recorded when the installation's first club is made, changed
    # only by the operators (`manage.py club_at_root`, the admin), never by clubs coming or
    # going, so the addresses on its tablets, printed cards and home-screen icons last.
    served_at_root = models.BooleanField("served at the site's root", default=False, editable=False)
    # Dates and times on the club's pages ("tonight", when a hand was recorded) are the
    # club's own, whatever the server's.
    time_zone = models.CharField(
        max_length=60, default=settings.TIME_ZONE, validators=[validate_time_zone]
    )
    currency_symbol = models.CharField("currency symbol for table money", max_length=3, default="£")
    # A rule set's name ("classical", "hk", ...). The rule sets are scoring's, above club:
    # the forms that set it (front/forms.py, front/admin.py) offer them and check the options.
    rule_set = models.CharField(max_length=20, default="classical")
    # Overrides of the rule set's options and table values; validated by the hand engine.
    rule_options = models.JSONField(default=dict, blank=True)
    rule_values = models.JSONField(default=dict, blank=True)
    starting_tally = models.IntegerField(
        null=True,
        blank=True,
        help_text="Leave empty to use the rule set's usual starting tally.",
        validators=[
            MinValueValidator(0, STARTING_TALLY_MESSAGE),
            MaxValueValidator(MAX_STARTING_TALLY, STARTING_TALLY_MESSAGE),
        ],
    )
    odd_tables = models.CharField(
        "when the players do not divide into fours",
        max_length=10,
        choices=OddTables.choices,
        default=OddTables.FIVE,
    )
    spread_beginners = models.BooleanField("spread beginners across the tables", default=True)
    show_dice = models.BooleanField(
        "show dice on the table page",
        default=False,
        help_text="A “Throw the dice” button for breaking the wall, for tables without dice.",
    )
    dice_count = models.PositiveSmallIntegerField(
        "dice for breaking the wall", choices=[(2, "Two dice"), (3, "Three dice")], default=2
    )
    collects_table_money = models.BooleanField(
        "collect table money",
        default=False,
        help_text="A “Paid” tick beside each person at check-in, with the evening's total.",
    )
    table_money = models.DecimalField(
        "table money per person",
        max_digits=6,
        decimal_places=2,
        default=Decimal("0"),
        validators=[
            MinValueValidator(Decimal("0"), "Table money cannot be below nothing."),
            MaxValueValidator(MAX_TABLE_MONEY, TABLE_MONEY_MESSAGE),
        ],
    )
    season_start = models.DateField(
        "this season began on",
        null=True,
        blank=True,
        help_text="Leave empty if the season follows the calendar year (from 1 January).",
    )
    # --- The calendar (club/calendar_feed/): when sessions usually run, and whether anyone
    # may subscribe to the club's sessions without a member's own address.
    sessions_begin = models.TimeField("sessions begin at", default=datetime.time(14, 0))
    sessions_end = models.TimeField("sessions end at", default=datetime.time(17, 0))
    public_calendar = models.BooleanField(
        "publish a public calendar of the sessions",
        default=False,
        help_text="Anyone with its address sees the dates, times and venues, and no names.",
    )

    # --- Standings (scoring/standings/ reads these) ---
    class Ranking(models.TextChoices):
        TOTAL = "total", "Total over the season"
        AVERAGE = "average", "Average per session played"
        PLACINGS = "placings", "Placing points (fair when tables play different numbers of hands)"

    class Visibility(models.TextChoices):
        MEMBERS = "members", "Members only (log in to see them)"
        PUBLIC = "public", "Anyone with the link (read only, names and results only)"

    standings_ranking = models.CharField(
        "rank the season's standings by",
        max_length=10,
        choices=Ranking.choices,
        default=Ranking.TOTAL,
    )
    placing_points = models.CharField(
        "points for 1st, 2nd, 3rd and 4th at a table",
        max_length=40,
        default="4-2-1-0",
        help_text="Four numbers separated by dashes, e.g. 4-2-1-0.",
        validators=[validate_placing_points],
    )
    min_sessions = models.PositiveSmallIntegerField(
        "sessions needed to be ranked",
        default=0,
        help_text="Members who played fewer sessions are listed, but without a rank.",
        validators=[MaxValueValidator(MAX_MIN_SESSIONS, MIN_SESSIONS_MESSAGE)],
    )
    # The members page lists who missed this many sessions in a row without a word
    # (club/week/), so the coordinator can check on them.
    absent_alert_after = models.PositiveSmallIntegerField(
        "list members absent without a word for this many sessions in a row",
        default=3,
        validators=[
            MinValueValidator(1, ABSENT_ALERT_MESSAGE),
            MaxValueValidator(MAX_ABSENT_ALERT, ABSENT_ALERT_MESSAGE),
        ],
    )
    standings_visibility = models.CharField(
        "who can see results and standings",
        max_length=10,
        choices=Visibility.choices,
        default=Visibility.MEMBERS,
    )
    # Members' data (club/privacy/): how long a leaver's contact details are kept, what an
    # erased member is called, and the club's own privacy notice (empty: the standard one).
    erase_after_months = models.PositiveSmallIntegerField(
        "erase a leaver's contact details after (months)",
        null=True,
        blank=True,
        validators=[
            MinValueValidator(1, ERASE_AFTER_MESSAGE),
            MaxValueValidator(120, ERASE_AFTER_MESSAGE),
        ],
        help_text="Months after a member is marked as lapsed. Leave empty to keep them "
        "until a coordinator erases them.",
    )
    former_member_names = models.CharField(
        "an erased member is shown as",
        max_length=10,
        choices=FormerMemberNames.choices,
        default=FormerMemberNames.NUMBER,
    )
    privacy_notice = models.TextField("privacy notice", blank=True)

    objects = ClubQuerySet.as_manager()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(table_money__gte=0), name="table_money_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(table_money__lte=MAX_TABLE_MONEY), name="table_money_at_most_100"
            ),
            # NULL (the rule set's usual tally) passes a CHECK.
            models.CheckConstraint(
                condition=Q(starting_tally__gte=0, starting_tally__lte=MAX_STARTING_TALLY),
                name="starting_tally_in_range",
            ),
            models.CheckConstraint(
                condition=Q(min_sessions__lte=MAX_MIN_SESSIONS), name="min_sessions_in_range"
            ),
            models.CheckConstraint(
                condition=Q(sessions_end__gt=F("sessions_begin")),
                name="sessions_end_after_they_begin",
                violation_error_message=SESSION_TIMES_MESSAGE,
            ),
            models.CheckConstraint(
                condition=Q(absent_alert_after__gte=1, absent_alert_after__lte=MAX_ABSENT_ALERT),
                name="absent_alert_after_in_range",
            ),
            # At most one club at the root; the index also finds it on every request.
            models.UniqueConstraint(
                fields=["served_at_root"],
                condition=Q(served_at_root=True),
                name="one_club_at_the_root",
                violation_error_message="Another club is served at the site's root already.",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        # The installation's first club takes the root, in the same write that makes it
        # (two first clubs at once: the constraint above lets one in).
        if self._state.adding and not type(self).objects.exists():
            self.served_at_root = True
        super().save(*args, **kwargs)

    @property
    def placing_points_list(self) -> list[float]:
        return parse_placing_points(self.placing_points)

    # The rule set's usual starting tally, for a club that sets none: rule sets are
    # scoring's (above club), so scoring plugs its lookup in at start-up (scoring/apps.py).
    rule_set_starting_tally: ClassVar[Callable[[str], int]]

    @property
    def effective_starting_tally(self) -> int:
        if self.starting_tally is not None:
            return self.starting_tally
        return type(self).rule_set_starting_tally(self.rule_set)

    def season_of(self, date: datetime.date) -> tuple[datetime.date, datetime.date]:
        """The season `date` falls in: its first day and the next season's first day."""
        start = self.season_start_for(date)
        return start, self.season_start_for(start + datetime.timedelta(days=366))

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
            if date.year == datetime.MINYEAR:  # that season began before the calendar does
                return datetime.date.min
            start = _same_day_in_year(self.season_start, date.year - 1)
        return start


def _same_day_in_year(day: datetime.date, year: int) -> datetime.date:
    try:
        return day.replace(year=year)
    except ValueError:  # 29 February in a year that has none
        return datetime.date(year, 2, 28)


# The dates a session may have. Wide enough for any club's records; narrow enough that date
# arithmetic (next week, seasons) never leaves the calendar and a typing slip is caught.
FIRST_SESSION_DATE = datetime.date(2000, 1, 1)
LAST_SESSION_DATE = datetime.date(2099, 12, 31)
SESSION_DATES_MESSAGE = "Please choose a date from 1 January 2000 to 31 December 2099."

# Tables are numbered from 1; no club hall holds a hundred tables.
LAST_TABLE = 99
TABLE_RANGE_MESSAGE = f"Table numbers go from 1 to {LAST_TABLE}."


def long_date(date: datetime.date) -> str:
    """A date as pages and messages write it: "Thursday 5 March 2026"."""
    return date_format(date, "l j F Y")


class MemberHasPlayed(Refused):
    pass


class MemberQuerySet(models.QuerySet):
    SHOW_ACTIVE, SHOW_LAPSED, SHOW_GUESTS, SHOW_ALL = "active", "lapsed", "guests", "all"

    def search(self, q: str = "", show: str = SHOW_ACTIVE) -> "MemberQuerySet":
        """Members matching every word of `q` (in the name, name at the table, email or
        phone, or their membership number), filtered by status, A to Z by full name."""
        members = self
        if show == self.SHOW_ACTIVE:
            members = members.filter(is_active=True, is_guest=False)
        elif show == self.SHOW_LAPSED:
            members = members.filter(is_active=False)
        elif show == self.SHOW_GUESTS:
            members = members.filter(is_guest=True)
        for word in q.split():
            members = members.filter(
                Q(name__icontains=word)
                | Q(table_name__icontains=word)
                | Q(email__icontains=word)
                | Q(phone__icontains=word)
                | Q(membership_number__iexact=word)
            )
        # Logins by their keys (prefetched): joined, PostgreSQL hashed the installation's
        # logins whole, every club's, for a page of one club's members (812 -> 1,596 rows
        # beside 300 clubs).
        return members.prefetch_related("user").order_by(Lower("name"), "pk")

    @staticmethod
    def count_sessions_attended(members, start, end) -> None:
        """Sets `sessions_attended` on each of `members` (a page of a list): the sessions
        from `start` to before `end` they attended, in one query from those sessions'
        attendances, so a member of twenty years costs what a new one does."""
        counts = dict(
            Attendance.objects.filter(
                member__in=[m.pk for m in members],
                session__in=Session.objects.filter(
                    club__in={m.club_id for m in members}, date__gte=start, date__lt=end
                ),
            )
            .order_by()
            .values("member")
            .annotate(n=models.Count("pk"))
            .values_list("member", "n")
        )
        for member in members:
            member.sessions_attended = counts.get(member.pk, 0)

    def for_login(self, user) -> "Member | None":
        """The member a login is, in the club in scope (None for a login that is not one of
        its members, or no login)."""
        if not getattr(user, "is_authenticated", False):
            return None
        return self.filter(user=user).first()

    def named(self, name: str) -> "MemberQuerySet":
        """Members whose full name or table name is exactly `name`, in any case."""
        return self.filter(Q(name__iexact=name) | Q(table_name__iexact=name))

    def free_table_name(self, name: str) -> str:
        """A table name for `name` that no member in this queryset (one club's members)
        has yet: the first name, then first name and initial, the full name, a number."""
        words = name.split()
        first = words[0]
        candidates = [first]
        if len(words) > 1:
            candidates += [f"{first} {words[-1][0].upper()}", name]
        taken = {
            t.lower()
            for t in self.filter(table_name__istartswith=first).values_list("table_name", flat=True)
        }
        for candidate in candidates:
            if candidate.lower() not in taken and len(candidate) <= 40:
                return candidate
        n = 2
        while f"{first[:35]} {n}".lower() in taken:
            n += 1
        return f"{first[:35]} {n}"


class ClubScopedHistory(models.Model):
    """Base of a model's history rows (django-simple-history): they are club data, read
    through the club's scope like the rows they record."""

    objects = club_scoped()

    class Meta:
        abstract = True


class Member(models.Model):
    """A club member. Many never log in: the coordinator records for them."""

    class Experience(models.TextChoices):
        BEGINNER = "beginner", "Beginner"
        EXPERIENCED = "experienced", "Experienced"

    class Sharing(models.TextChoices):
        """Who in the club may see the member's email and phone, besides the coordinators
        (who always do, to run the club): the member's own choice. `contact_shown_to` is
        the one rule every page and CSV asks."""

        NOBODY = "nobody", "Nobody else: the coordinators keep them for club business only"
        COORDINATORS = "coordinators", "The coordinators"
        MEMBERS = "members", "All members of the club"

    class MembershipStatus(models.TextChoices):
        """As the U3A membership system says: whether this year's subscription is paid.
        Not the club's own active/lapsed (`is_active`), which is about coming to play."""

        UNKNOWN = "", "Not known"
        CURRENT = "current", "Current"
        LAPSED = "lapsed", "Lapsed"

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="members", db_index=False)
    name = models.CharField("full name", max_length=120)
    table_name = models.CharField(
        "name at the table", max_length=40, help_text="Short name, e.g. first name."
    )
    email = models.EmailField(blank=True)
    phone = models.CharField(max_length=40, blank=True)
    contact_sharing = models.CharField(
        "who may see your email and phone",
        max_length=12,
        choices=Sharing.choices,
        default=Sharing.COORDINATORS,
    )
    membership_number = models.CharField(
        "membership number",
        max_length=20,
        blank=True,
        help_text="The member's number in the U3A membership system, if the club uses one.",
    )
    membership_status = models.CharField(
        "membership (U3A)",
        max_length=8,
        choices=MembershipStatus.choices,
        blank=True,
        default=MembershipStatus.UNKNOWN,
    )
    joined = models.DateField(default=timezone.localdate)
    is_active = models.BooleanField("active", default=True, help_text="Untick for a lapsed member.")
    experience = models.CharField(
        max_length=12, choices=Experience.choices, default=Experience.EXPERIENCED
    )
    # A login may belong to members of several clubs (one in each): see `for_login`.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="memberships",
    )
    fixed_table = models.PositiveSmallIntegerField(
        "always at table",
        null=True,
        blank=True,
        validators=[
            MinValueValidator(1, TABLE_RANGE_MESSAGE),
            MaxValueValidator(LAST_TABLE, TABLE_RANGE_MESSAGE),
        ],
        help_text="For a member who needs a particular table (e.g. near the door). Usually empty.",
    )
    is_guest = models.BooleanField(
        "guest", default=False, help_text="A visitor added on the day, not (yet) a member."
    )
    notes = models.TextField(blank=True)
    # The one-time token of the "Add a member" form that created this member: the same form
    # posted again (a double tap, a retry) finds this member instead of adding a second.
    form_token = models.UUIDField(null=True, blank=True, unique=True, editable=False)
    # The member's own lasting id: it travels in backups (unlike the row's id), so an older
    # backup restored later is recognised as holding a member erased since (club/privacy/).
    uid = models.UUIDField(default=uuid.uuid4, editable=False, db_index=True)
    # When they were marked as lapsed: a club may erase contact details some months after.
    retired_on = models.DateField(null=True, blank=True, editable=False)

    objects = club_scoped(MemberQuerySet)
    # Who changed what, and when (club/member_history.py); the one-time form token is no
    # detail of the member.
    history = HistoricalRecords(bases=[ClubScopedHistory], excluded_fields=["form_token"])

    class Meta:
        ordering = ["table_name", "name"]
        # The check-in page and the members list read a club's active members: not the
        # lapsed ones of every year before.
        indexes = [
            models.Index(fields=["club", "is_active", "is_guest"], name="member_club_active")
        ]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_member_per_login_per_club"),
            models.UniqueConstraint(
                fields=["club", "table_name"], name="unique_table_name_per_club"
            ),
            models.UniqueConstraint(
                fields=["club", "membership_number"],
                condition=~Q(membership_number=""),
                name="unique_membership_number_per_club",
            ),
            models.CheckConstraint(
                condition=Q(fixed_table__isnull=True)
                | Q(fixed_table__gte=1, fixed_table__lte=LAST_TABLE),
                name="fixed_table_in_range",
            ),
        ]

    def __str__(self) -> str:
        return self.table_name

    def save(self, *args, **kwargs):
        if not self.table_name:
            self.table_name = self.name.split()[0] if self.name.split() else self.name
        # The day they were marked as lapsed, however that was done (retire, the form).
        if self.is_active:
            self.retired_on = None
        elif self.retired_on is None:
            self.retired_on = timezone.localdate()
        if kwargs.get("update_fields") is not None and "is_active" in kwargs["update_fields"]:
            kwargs["update_fields"] = {*kwargs["update_fields"], "retired_on"}
        super().save(*args, **kwargs)

    def contact_shown_to(self, user) -> bool:
        """Whether `user` may see this member's email and phone: the club's coordinators
        always, the member themself, another member of the club only if this member shares
        with all members. Every page and CSV that shows contact details asks this."""
        if not getattr(user, "is_authenticated", False):
            return False
        if Coordinator.runs(user, self.club_id) or (user.pk == self.user_id):
            return True
        if self.contact_sharing != self.Sharing.MEMBERS:
            return False
        viewers = user.__dict__.setdefault("_member_of", {})  # asked once per club a request
        if self.club_id not in viewers:
            viewers[self.club_id] = Member.objects.filter(
                club=self.club_id, user=user, is_active=True
            ).exists()
        return viewers[self.club_id]

    @property
    def has_played(self) -> bool:
        """Whether they came to a session or sat at a table: then the record is kept for good."""
        return self.attendances.exists() or self.seats.exists()

    @staticmethod
    def table_names(keys) -> dict[int, str]:
        """The names at the table of the members `keys`, in the database's order of names.
        By key alone: the keys come from the club's own rows, and joined to those rows
        PostgreSQL could read every member the club ever had to name a few."""
        found = Member._base_manager.filter(pk__in=keys).order_by("table_name")
        return dict(found.values_list("pk", "table_name"))

    def attended_sessions(self) -> "SessionQuerySet":
        """The club's sessions the member came to, each session up to today looked up in
        their attendance (a semi-join; no one has come to a session ahead): the latest found
        backwards by date from today, a season's counted from its own sessions. Joined to
        their attendances instead, PostgreSQL read every one of them to find the latest (3 ->
        71 rows beside 300 clubs)."""
        came = Attendance.objects.filter(session=OuterRef("pk"), member=self)
        held = Session.objects.filter(club=self.club_id, date__lte=timezone.localdate())
        return held.filter(Exists(came))

    @transaction.atomic
    def retire(self) -> None:
        """Mark as lapsed. Their login stops working too, so a lapsed member cannot sign in."""
        self.is_active = False
        self.save(update_fields=["is_active"])
        self._set_login_active(False)

    @transaction.atomic
    def reactivate(self) -> None:
        """Make active again, and their login with them."""
        self.is_active = True
        self.save(update_fields=["is_active"])
        self._set_login_active(True)

    def _set_login_active(self, active: bool) -> None:
        if self.user is not None and self.user.is_active != active:
            self.user.is_active = active
            self.user.save(update_fields=["is_active"])

    def delete_if_never_played(self) -> None:
        """Delete a member added by mistake. A member who has played is kept: retire them."""
        refusal = (
            f"{self.table_name} has played at the club, so their record is kept for the "
            "standings. Mark them as lapsed (retire) instead."
        )
        if self.has_played:
            raise MemberHasPlayed(refusal)
        try:
            with transaction.atomic():
                self.delete()
        except ProtectedError as error:  # rows of other apps (e.g. recorded hands) point here
            raise MemberHasPlayed(refusal) from error

    def keep_aparts(self) -> list["KeepApart"]:
        """This member's never-seat-together pairs, each with `partner` set to the other
        member, in the partner's table-name order."""
        pairs = list(KeepApart.objects.involving(self).select_related("member_a", "member_b"))
        for pair in pairs:
            pair.partner = pair.other(self)
        return sorted(pairs, key=lambda pair: pair.partner.table_name.lower())

    def keep_apart_from(self, other: "Member", reason: str = "") -> "KeepApart":
        """Never seat this member with `other`. Refuses themselves and another club's
        member. If the two are already kept apart that pair is returned as it is, so asking
        twice (a double tap, a retry, from either member's page) keeps one pair."""
        if other.pk == self.pk:
            raise Refused("A member cannot be kept apart from themselves.")
        if other.club_id != self.club_id:
            raise Refused(f"{other.table_name} is not a member of this club.")
        low, high = sorted([self, other], key=lambda member: member.pk)
        existing = KeepApart.objects.filter(member_a=low, member_b=high)
        pair = existing.first()
        if pair is not None:
            return pair
        try:
            with transaction.atomic():
                return KeepApart.objects.create(
                    club_id=self.club_id, member_a=low, member_b=high, reason=reason
                )
        except IntegrityError:  # the same pair added at the same moment
            return existing.get()

    def remove_keep_apart(self, pair_pk: int) -> "Member | None":
        """Remove one of this member's pairs; returns the other member, or None if the
        pair is already gone. A pair between two other members is refused, unchanged."""
        pair = KeepApart.objects.filter(pk=pair_pk).select_related("member_a", "member_b").first()
        if pair is None:
            return None
        if self.pk not in (pair.member_a_id, pair.member_b_id):
            raise Refused(f"That pair is not one of {self.table_name}'s, so nothing was changed.")
        other = pair.other(self)
        pair.delete()
        return other


class Coordinator(models.Model):
    """A login that runs one club. A club may have several coordinators and a login may
    coordinate several clubs; it has no power in a club it does not coordinate. (The site's
    operators, superusers, run the installation and its admin: club/roles.py.)"""

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="coordinators", db_index=False
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="coordinator_roles"
    )

    objects = club_scoped()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="one_coordinator_role_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.user} coordinates {self.club}"

    @staticmethod
    def runs(user, club) -> bool:
        """Whether `user` may run `club` (a Club or its id): its coordinators, and the site's
        operators (club.roles.is_coordinator asks this)."""
        if not user.is_authenticated or not user.is_active:
            return False
        if user.is_superuser:
            return True
        # Asked several times a page (templates, the permission check): read once per club.
        club_id = getattr(club, "pk", club)
        cache = user.__dict__.setdefault("_coordinates", {})
        if club_id not in cache:
            with scopes_disabled():  # the question names its club
                cache[club_id] = Coordinator.objects.filter(club_id=club_id, user=user).exists()
        return cache[club_id]


class KeepApartQuerySet(models.QuerySet):
    def involving(self, member: Member) -> "KeepApartQuerySet":
        return self.filter(Q(member_a=member) | Q(member_b=member))


class KeepApart(models.Model):
    """Two members the seating never puts at the same table.

    The pair is stored in one order only (member_a has the lower id), so (A, B) and
    (B, A) are the same row and the database refuses a second copy.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="keep_aparts")
    member_a = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    member_b = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, blank=True)

    objects = club_scoped(KeepApartQuerySet)

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


class SessionClosed(Refused):
    """A change was asked of a closed session. The message is one sentence for the page."""


@dataclass
class PastSessions:
    """A page of past sessions, latest first, and where the pages beside it start: the
    older page is the sessions before `older`, the newer one those after `newer` (None:
    there is no such page)."""

    sessions: list
    older: datetime.date | None
    newer: datetime.date | None


class SessionQuerySet(models.QuerySet):
    def upcoming(self, today: datetime.date) -> "SessionQuerySet":
        """Today's and later sessions, soonest first."""
        return self.filter(date__gte=today).order_by("date")

    def past(self, today: datetime.date) -> "SessionQuerySet":
        """Sessions before today, latest first."""
        return self.filter(date__lt=today).order_by("-date")

    def past_page(
        self,
        today: datetime.date,
        *,
        before: datetime.date | None = None,
        after: datetime.date | None = None,
        size: int = 52,
    ) -> "PastSessions":
        """A page of sessions before today, latest first: the latest `size`, those just
        before the date `before`, or those just after `after`. Paged by date, not by page
        number: a page reads its own rows and one row on each side, where a page number
        needs a count of the club's whole history (a row per session it ever held)."""
        past = self.filter(date__lt=today)
        if after is not None:
            rows = list(past.filter(date__gt=after).order_by("date")[:size])[::-1]
        else:
            latest = past.filter(date__lt=before) if before else past
            rows = list(latest.order_by("-date")[:size])
        if not rows:
            return PastSessions([], None, None)
        newest, oldest = rows[0].date, rows[-1].date
        return PastSessions(
            rows,
            older=oldest if past.filter(date__lt=oldest).exists() else None,
            newer=newest if past.filter(date__gt=newest).exists() else None,
        )

    def with_present_count(self) -> "SessionQuerySet":
        """Annotate `present`: how many are here (checked in and not left)."""
        # A count per listed session (a subquery), not a join of every session's
        # attendance grouped before the list's limit: a long history reads only its page.
        here = (
            Attendance.objects.filter(session=models.OuterRef("pk"), left_at__isnull=True)
            .order_by()
            .values("session")
            .annotate(n=models.Count("pk"))
            .values("n")
        )
        return self.annotate(present=Coalesce(models.Subquery(here), 0))


class Session(models.Model):
    """One weekly club meeting."""

    class Status(models.TextChoices):
        PLANNED = "planned", "Planned"
        IN_PLAY = "in_play", "In play"
        CLOSED = "closed", "Closed"

    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="sessions", db_index=False
    )
    date = models.DateField(
        validators=[
            MinValueValidator(FIRST_SESSION_DATE, SESSION_DATES_MESSAGE),
            MaxValueValidator(LAST_SESSION_DATE, SESSION_DATES_MESSAGE),
        ]
    )
    venue = models.CharField(max_length=120, blank=True)
    notes = models.TextField(blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    created = models.DateTimeField(auto_now_add=True)
    # When its date, venue or notes last changed: the calendar feed's Last-Modified.
    updated = models.DateTimeField(auto_now=True)

    objects = club_scoped(SessionQuerySet)

    class Meta:
        ordering = ["-date"]
        # The sessions in play (Tonight, the room display) without reading every session.
        indexes = [models.Index(fields=["club", "status"], name="session_club_status")]
        constraints = [
            models.UniqueConstraint(fields=["club", "date"], name="unique_session_date_per_club"),
        ]

    def __str__(self) -> str:
        return f"Session {self.date:%A %d %B %Y}"

    def save(self, *args, **kwargs):
        moved = self._state.adding or self.date != getattr(self, "_loaded_date", self.date)
        with transaction.atomic():
            super().save(*args, **kwargs)
            if moved:
                # A member's time away holds for sessions added (or moved) into it later
                # too (club/week/); answers already given stay.
                answer_new_session(self)
                self._loaded_date = self.date

    @classmethod
    def from_db(cls, db, field_names, values):
        session = super().from_db(db, field_names, values)
        session._loaded_date = session.__dict__.get("date")  # to see a move in save()
        return session

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

    # The status moves by itself: starting play at the tables puts it in play and ending
    # the evening closes it (games.start). The one move made by hand is reopening a closed
    # session to correct something.
    MOVES = {
        Status.PLANNED: [],
        Status.IN_PLAY: [],
        Status.CLOSED: [Status.IN_PLAY],
    }

    # Where the status-only buttons went: what to press instead.
    MOVED_BY = {
        Status.IN_PLAY: "Play starts with “Start play at the tables” once the seating is "
        "published.",
        Status.CLOSED: "The session closes with “End the evening”, which ends every table's "
        "match too.",
    }

    def move_to(self, status: str) -> None:
        if status not in self.MOVES.get(self.status, []):
            label = dict(self.Status.choices).get(status, status)
            refusal = (
                f"This session is {self.get_status_display().lower()}; "
                f"it cannot be set to “{label}” from here."
            )
            if status in self.MOVED_BY and not self.is_closed:
                refusal += " " + self.MOVED_BY[status]
            raise Refused(refusal)
        self.status = status
        self.save(update_fields=["status"])

    def next_week_date(self, today: datetime.date) -> datetime.date | None:
        """A week after this session, same weekday, or None if that falls outside the
        dates a session may have.

        After a break (no session between this one and today) it is never in the past: the
        club starts again on the first such weekday from today. Sessions from today on do
        not change the answer, so asking again after it was created names the same date.
        """
        week = datetime.timedelta(days=7)
        if self.date > LAST_SESSION_DATE - week:
            return None
        date = self.date + week
        if date < today:
            between = Session.objects.filter(club=self.club_id, date__gt=self.date, date__lt=today)
            if not between.exists():
                date += week * -(-(today - date).days // 7)
        if not FIRST_SESSION_DATE <= date <= LAST_SESSION_DATE:
            return None
        return date

    def create_next_week(self, today: datetime.date) -> tuple["Session", bool]:
        """The session a week after this one (see `next_week_date`) at the same venue, and
        whether it was created now. If it already exists it is returned unchanged, so a
        double tap, a retry or twenty taps at once add one session."""
        date = self.next_week_date(today)
        if date is None:
            raise Refused(
                f"A week after {long_date(self.date)} is outside the dates the app takes "
                "(1 January 2000 to 31 December 2099), so no session was added. "
                "Please correct this session's date."
            )
        return Session.objects.get_or_create(
            club_id=self.club_id, date=date, defaults={"venue": self.venue}
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

    def set_present(self, member: "Member", present: bool) -> "Attendance | None":
        """Mark the member here or not here. Asking twice for the same thing changes nothing.

        Unticking someone before play starts removes the mistake; once play has started it
        records that they left.
        """
        self.ensure_open("its attendance")
        if member.club_id != self.club_id:
            raise Refused("That person is not a member of this club.")
        with transaction.atomic():
            if present:
                return self.check_in(member)
            attendance = (
                Attendance.objects.select_for_update().filter(session=self, member=member).first()
            )
            if attendance is None:
                return None
            if self.status == self.Status.PLANNED:
                attendance.delete()
                return None
            if attendance.left_at is None:
                attendance.left_at = timezone.now()
                attendance.save(update_fields=["left_at"])
            return attendance

    def check_in_list(self) -> models.QuerySet:
        """Who the check-in page lists: the active members, and anyone already recorded."""
        # Looked up by their keys, not through the club's scope: with the club's key as
        # well, PostgreSQL reads every member the club ever had to find these few, and a
        # club of twenty years has far more lapsed members than active ones. Both sets of
        # keys come from this club's own rows.
        return Member._base_manager.filter(pk__in=self._check_in_keys())

    def _check_in_keys(self) -> models.QuerySet:
        """The keys of the active members and of anyone recorded tonight, each read by its
        own index (a union): joined by OR in one condition, PostgreSQL reads every member."""
        active = Member.objects.filter(club=self.club_id, is_active=True, is_guest=False)
        here = Attendance.objects.filter(session=self).order_by().values("member_id")
        return active.order_by().values("pk").union(here)

    def check_in_rows(self) -> list["CheckInRow"]:
        attendances = {a.member_id: a for a in self.attendances.all()}
        members = self.check_in_list().order_by("table_name", "name")
        seated = self._seated_if_published()
        return [
            CheckInRow(member, attendances.get(member.pk), seated is not None, seated or set())
            for member in members
        ]

    def check_in_row(self, member: "Member") -> "CheckInRow":
        seated = self._seated_if_published()
        attendance = self.attendances.filter(member=member).first()
        return CheckInRow(member, attendance, seated is not None, seated or set())

    def _seated_if_published(self) -> set[int] | None:
        """The members seated in the published seating, or None before it is published
        (then whoever is checked in is seated when the seating is made). One query: the
        published plan joined to its seats (a plan without seats gives one empty row)."""
        rows = SeatingPlan.objects.filter(
            session=self, status=SeatingPlan.Status.PUBLISHED
        ).values_list("seats__member_id", flat=True)
        found = list(rows)
        return {member_id for member_id in found if member_id is not None} if found else None

    def attendance_counts(self) -> "AttendanceCounts":
        listed = self._check_in_keys().count()
        counted = self.attendances.aggregate(
            present=models.Count("pk", filter=Q(left_at__isnull=True)),
            paid=models.Count("pk", filter=Q(paid=True)),
        )
        return AttendanceCounts(
            present=counted["present"],
            absent=listed - counted["present"],
            paid=counted["paid"],
            table_money=self.club.table_money,
        )

    def set_paid(self, member: "Member", paid: bool) -> "Attendance":
        """Tick or untick that `member` paid their table money tonight. Asking twice for the
        same thing changes nothing. Only someone checked in can have paid."""
        self.ensure_open("its table money")
        with transaction.atomic():
            attendance = (
                Attendance.objects.select_for_update().filter(session=self, member=member).first()
            )
            if attendance is None:
                raise Refused(f"{member.table_name} is not checked in, so cannot have paid.")
            if attendance.paid != paid:
                attendance.paid = paid
                attendance.save(update_fields=["paid"])
            return attendance


@dataclass
class CheckInRow:
    """One name on the check-in page, with their attendance if they were checked in."""

    member: Member
    attendance: "Attendance | None"
    seating_published: bool = False
    seated: set[int] = dataclass_field(default_factory=set)  # who has a seat when published

    @property
    def present(self) -> bool:
        return self.attendance is not None and self.attendance.left_at is None

    @property
    def needs_a_seat(self) -> bool:
        """Here, after the seating was published, without a seat in it: a late arrival
        ticked at the door, who plays only once the seating gives them a chair."""
        return self.present and self.seating_published and self.member.pk not in self.seated

    @property
    def left(self) -> bool:
        return self.attendance is not None and self.attendance.left_at is not None


@dataclass
class AttendanceCounts:
    present: int
    absent: int
    paid: int = 0
    table_money: Decimal = Decimal("0")

    @property
    def takings(self) -> Decimal:
        """Tonight's table money so far: everyone ticked as paid, at the club's amount."""
        return self.paid * self.table_money


class Attendance(ClubRow):
    """A member at a session. Present while `left_at` is empty."""

    club_parent = "session"
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+", db_index=False)
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="attendances")
    member = models.ForeignKey(Member, on_delete=models.PROTECT, related_name="attendances")
    arrived_at = models.DateTimeField(default=timezone.now)
    left_at = models.DateTimeField(null=True, blank=True)
    # Table money paid tonight (clubs that collect it; Club.collects_table_money).
    paid = models.BooleanField(default=False)

    objects = club_scoped(ClubRowQuerySet)

    class Meta:
        ordering = ["arrived_at"]
        # Leading with the club, then the parent's key: with the club's key alone indexed,
        # PostgreSQL would find a few sessions' rows by reading all the club's (issue 28).
        # Then the member's: one member's row of a session is one index entry.
        indexes = [
            models.Index(fields=["club", "session", "member"], name="attendance_club_session")
        ]
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


from club.calendar_feed.models import CalendarAddress  # noqa: E402, F401 (registers the model)
from club.privacy.models import Erasure  # noqa: E402, F401 (registers the model)

# The week's answers ("coming" / "not this week") live in their feature's folder.
from club.week.models import (  # noqa: E402, F401
    AwayPeriod,
    ReplyAnswer,
    SessionReply,
    answer_new_session,
)
