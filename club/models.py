"""The club, its members and its settings."""

from django.conf import settings
from django.db import models
from django.utils import timezone

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

    objects = ClubQuerySet.as_manager()

    def __str__(self) -> str:
        return self.name

    @property
    def effective_starting_tally(self) -> int:
        if self.starting_tally is not None:
            return self.starting_tally
        return DEFAULT_STARTING_TALLY.get(self.rule_set, 0)


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
