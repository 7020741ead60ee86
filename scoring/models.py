"""Hand records: each hand a table plays, and U3A's kong chips, with what every chair paid.

Nothing here is ever deleted: undoing or correcting a hand voids it (who, when, why) and
the match's state and tallies are re-derived from the hands that count.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.db import models
from django.db.models import F, Q, Sum
from django.utils import timezone

from club.scoping import ClubRow, ClubRowQuerySet, club_scoped
from games.models import MAX_CHAIRS

# Derived per-chair results, kept in step with the hands (scoring/standings/refresh.py):
# imported here so that Django registers the model with the app.
from scoring.results import MatchResult as MatchResult

# A payment record (a hand, kong chips) keeps one column per chair.
PAY_FIELDS = tuple(f"pay{chair}" for chair in range(MAX_CHAIRS))

# The engine names the tiles an item is about in brackets, e.g. "Pong of dragons (dg)": to a
# reader the words say enough. The points every winner gets for going out are no feature.
TILE_CODE = re.compile(r" \([a-z0-9 ,]+\)$")
BASE_ITEMS = {"Mahjong"}


def features(breakdown: list[dict]) -> list[str]:
    """What made a hand worked out from its tiles, largest first: the items that double or
    carry faan/fan, then those with points, in words without the engine's tile codes (e.g.
    ["Semi-pure hand with Honours", "Pong/Kong of Dragons"]); at most three. Empty for a
    total agreed at the table, whose tiles were never entered."""
    items = [
        (
            item.get("doublings") or item.get("faan") or item.get("fan") or 0,
            item.get("points") or 0,
            TILE_CODE.sub("", item["name"]),
        )
        for item in breakdown
        if item["name"] not in BASE_ITEMS
    ]
    items = sorted((item for item in items if item[0] or item[1]), reverse=True)
    return list(dict.fromkeys(name for _, _, name in items))[:3]


def _sum_is_zero(name: str) -> models.CheckConstraint:
    others = F("pay1") + F("pay2") + F("pay3") + F("pay4")
    return models.CheckConstraint(condition=Q(pay0=-others), name=name)


class PaymentRecord(ClubRow):
    """What each chair paid (negative) or received (positive) for one record.

    One column per chair, so the database itself refuses a record whose payments do not
    sum to zero. A voided record stays, marked, and no longer counts.
    """

    club_parent = "match"
    club = models.ForeignKey(
        "club.Club", on_delete=models.PROTECT, related_name="+", db_index=False
    )

    pay0 = models.IntegerField(default=0)
    pay1 = models.IntegerField(default=0)
    pay2 = models.IntegerField(default=0)
    pay3 = models.IntegerField(default=0)
    pay4 = models.IntegerField(default=0)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The table key of the tablet it was recorded on (games.TableKey), when a key let the
    # device record: the audit trail says "recorded on the table 3 tablet".
    recorded_with = models.ForeignKey(
        "games.TableKey", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The table key of the tablet that undid it or took it back, as for `recorded_with`.
    voided_with = models.ForeignKey(
        "games.TableKey", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    void_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        abstract = True

    @classmethod
    def payment_sums(cls, records) -> list[int]:
        """What each chair paid over `records` (a queryset of this model), in one query."""
        sums = records.order_by().aggregate(**{f: Sum(f) for f in PAY_FIELDS})
        return [sums[field] or 0 for field in PAY_FIELDS]

    @property
    def payments(self) -> list[int]:
        return [getattr(self, field) for field in PAY_FIELDS]

    @payments.setter
    def payments(self, values) -> None:
        values = list(values)
        if len(values) > MAX_CHAIRS:
            raise ValueError(f"At most {MAX_CHAIRS} chairs, not {len(values)}.")
        for chair, field in enumerate(PAY_FIELDS):
            setattr(self, field, values[chair] if chair < len(values) else 0)

    @property
    def is_voided(self) -> bool:
        return self.voided_at is not None

    @property
    def tablet_words(self) -> str:
        """For the audit trail, a record made with a table key: "recorded on the table 3
        tablet" (else "": the pages never showed which member's login recorded a hand)."""
        if self.recorded_with_id is None:
            return ""
        return f"recorded on the table {self.recorded_with.table_number} tablet"

    @property
    def voided_tablet_words(self) -> str:
        """ "on the table 3 tablet" for a record undone or taken back with a table key."""
        if self.voided_with_id is None:
            return ""
        return f"on the table {self.voided_with.table_number} tablet"

    def void(self, by, reason: str, at=None, table_key=None) -> None:
        """Strike the record out: it stays, marked with who (a login, or the table key of a
        tablet without one), when and why, and no longer counts (`at` lets one change mark
        several records with the same moment)."""
        self.voided_at, self.voided_by, self.void_reason = at or timezone.now(), by, reason
        self.voided_with = table_key
        self.save(update_fields=["voided_at", "voided_by", "voided_with", "void_reason"])


class HandQuerySet(ClubRowQuerySet):
    def live(self) -> HandQuerySet:
        """The hands that count: not voided."""
        return self.filter(voided_at__isnull=True)


class Hand(PaymentRecord):
    """One hand of a match: who won and how (or a draw), the total, and the payments."""

    class WonBy(models.TextChoices):
        WALL = "wall", "Self-drawn from the wall"
        REPLACEMENT = "replacement", "Replacement tile (after a kong or flower)"
        DISCARD = "discard", "On a discard"
        ROBBING_KONG = "robbing_kong", "Robbing a kong"

    class Entry(models.TextChoices):
        QUICK = "quick", "Total agreed at the table"
        FULL = "full", "Worked out from the tiles"

    # Outcomes where one player (the discarder, or the player robbed) pays for everyone.
    DISCARDER_PAYS = (WonBy.DISCARD, WonBy.ROBBING_KONG)

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    won_by = models.CharField(max_length=12, choices=WonBy.choices, blank=True)
    discarder = models.PositiveSmallIntegerField(null=True, blank=True)
    # The hand's value as the rule set counts it (points, faan or fan); empty for a draw.
    total = models.PositiveIntegerField(null=True, blank=True)
    # Fan's 9-piece penalty: the chair whose discard fed the winner's pure hand pays what
    # every loser would have paid. Empty when nobody is liable (and always under the others).
    liable = models.PositiveSmallIntegerField(null=True, blank=True)
    # Whether this hand was played as a goulash (U3A), as the flow had it when recorded.
    goulash = models.BooleanField(default=False)
    entry = models.CharField(max_length=5, choices=Entry.choices, default=Entry.QUICK)
    # A hand worked out from its tiles keeps the hand as the engine read it (contract JSON,
    # winds included) and the engine's itemised score, so the scoresheet can explain it.
    tiles = models.JSONField(default=dict, blank=True)
    breakdown = models.JSONField(default=list, blank=True)
    limit = models.BooleanField(default=False)

    objects = club_scoped(HandQuerySet)

    class Meta:
        # By the match's key: by "match", every default-ordered read joined the matches and
        # their sessions to sort by the match's own order (issue 28).
        ordering = ["match_id", "number", "recorded_at"]
        # Leading with the club, then the parent's key: with the club's key alone indexed,
        # PostgreSQL would find a few matches' rows by reading all the club's (issue 28).
        indexes = [models.Index(fields=["club", "match"], name="hand_club_match")]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=Q(voided_at__isnull=True),
                name="one_live_hand_per_number",
            ),
            _sum_is_zero("hand_payments_sum_to_zero"),
            models.CheckConstraint(
                condition=Q(winner__isnull=True, won_by="", discarder__isnull=True, total=None)
                | Q(winner__isnull=False, total__isnull=False) & ~Q(won_by=""),
                name="hand_is_a_win_or_a_draw",
            ),
            models.CheckConstraint(
                condition=Q(won_by__in=["discard", "robbing_kong"], discarder__isnull=False)
                | ~Q(won_by__in=["discard", "robbing_kong"]) & Q(discarder__isnull=True),
                name="hand_discarder_only_when_one_pays",
            ),
            models.CheckConstraint(
                condition=~Q(discarder=F("winner")), name="hand_discarder_is_not_the_winner"
            ),
            # NULL passes a CHECK, so a draw's empty chairs are fine.
            models.CheckConstraint(
                condition=Q(winner__lt=MAX_CHAIRS) & Q(discarder__lt=MAX_CHAIRS),
                name="hand_chairs_in_range",
            ),
            models.CheckConstraint(
                condition=Q(liable__isnull=True)
                | Q(winner__isnull=False, liable__lt=MAX_CHAIRS) & ~Q(liable=F("winner")),
                name="hand_liable_is_another_player_of_a_win",
            ),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of {self.match}"

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    @property
    def features(self) -> list[str]:
        return features(self.breakdown)

    def flow_outcome(self) -> dict:
        """This hand as games.flow reads it."""
        if self.is_draw:
            return {"draw": True}
        return {"winner": self.winner, "won_by": self.won_by, "discarder": self.discarder}


class KongChips(PaymentRecord):
    """U3A house rules: chips paid for a kong when it is made, apart from the hand's score
    (concealed 3, on a discard 2, added to an exposed pong 1, from each other player)."""

    class Kind(models.TextChoices):
        CONCEALED = "concealed", "Concealed kong: 3 chips from each"
        DISCARD = "discard", "Kong on a discard: 2 chips from each"
        ADDED = "added", "Added to an exposed pong: 1 chip from each"

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="kong_chips")
    # The hand being played when the kong was made.
    hand_number = models.PositiveSmallIntegerField()
    chair = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # The one-time key of the kong form that saved these chips: a repeated post of the same
    # form (a double tap, "press again") finds them instead of saving them twice. Empty for
    # chips saved otherwise (older records, scripts).
    key = models.UUIDField(null=True, blank=True, editable=False)

    objects = club_scoped(ClubRowQuerySet)

    class Meta:
        # By the match's key, as Hand's.
        ordering = ["match_id", "hand_number", "recorded_at"]
        verbose_name_plural = "kong chips"
        # Leading with the club, then the parent's key: with the club's key alone indexed,
        # PostgreSQL would find a few matches' rows by reading all the club's (issue 28).
        indexes = [models.Index(fields=["club", "match"], name="kong_chips_club_match")]
        constraints = [
            _sum_is_zero("kong_chips_sum_to_zero"),
            models.CheckConstraint(condition=Q(chair__lt=MAX_CHAIRS), name="kong_chair_in_range"),
            models.UniqueConstraint(fields=["match", "key"], name="kong_chips_saved_once_per_key"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by chair {self.chair}, hand {self.hand_number}"


class SentWrite(ClubRow):
    """A table write that came with the page's one-time key (`sent_key`): a win, a draw,
    kong chips, taking them back, an undo. Written in the write's own transaction, so a
    write sent again with the same key (a device's outbox resending after a lost answer,
    even after the server restarted) is answered "already saved" instead of made twice."""

    class Kind(models.TextChoices):
        WIN = "win", "Win"
        DRAW = "draw", "Draw"
        KONG = "kong", "Kong chips"
        TAKE_BACK = "take_back", "Kong chips taken back"
        UNDO = "undo", "Undo"

    club_parent = "match"
    club = models.ForeignKey(
        "club.Club", on_delete=models.PROTECT, related_name="+", db_index=False
    )
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="sent_writes")
    key = models.UUIDField(editable=False)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # The hand the write was about (the hand recorded or undone, the kong chips' hand).
    hand_number = models.PositiveSmallIntegerField()
    made_at = models.DateTimeField(auto_now_add=True)

    objects = club_scoped(ClubRowQuerySet)

    class Meta:
        # By the match's key, as Hand's.
        ordering = ["match_id", "made_at"]
        # Leading with the club, then the parent's key, in place of the club's key alone
        # (tests/test_club_indexes.py).
        indexes = [models.Index(fields=["club", "match"], name="sent_write_club_match")]
        constraints = [
            models.UniqueConstraint(fields=["match", "key"], name="table_write_made_once_per_key"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of hand {self.hand_number} ({self.key})"


class CorrectionQuerySet(models.QuerySet):
    def of_session(self, session) -> CorrectionQuerySet:
        return self.filter(match__session=session)


class Correction(models.Model):
    """One correction of a recorded hand: who made it, when and why, the hand before and
    after, and what it changed further on (later hands' numbers, goulash and payments,
    kong chips, the tallies).

    The corrected hand's row is voided (it stays) and, unless the hand is voided outright,
    a new live row with the same number replaces it. Later hands keep their rows: what the
    re-derivation changed in them is kept here, under `knock_on`."""

    class Kind(models.TextChoices):
        CHANGED = "changed", "Changed"
        VOIDED = "voided", "Voided"

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="corrections")
    # The number the hand had when it was corrected.
    hand_number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices)
    original = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="corrections")
    replacement = models.OneToOneField(
        Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="correction_made"
    )
    reason = models.CharField(max_length=200)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    made_at = models.DateTimeField()
    # Snapshots of the hand (winner, won_by, discarder, total, goulash, payments); `after`
    # is empty for a voided hand.
    before = models.JSONField()
    after = models.JSONField(null=True, blank=True)
    tallies_before = models.JSONField(default=list)
    tallies_after = models.JSONField(default=list)
    # Later hands and kong chips the re-derivation changed: one entry each, with what it
    # was and what it is now.
    knock_on = models.JSONField(default=list, blank=True)

    objects = club_scoped(CorrectionQuerySet, path="match__club")

    class Meta:
        ordering = ["made_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="changed", replacement__isnull=False)
                | Q(kind="voided", replacement__isnull=True),
                name="correction_replacement_only_when_changed",
            ),
            models.CheckConstraint(condition=~Q(reason=""), name="correction_has_a_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} hand {self.hand_number} of {self.match}"


# The kept records (scoring/kept_records.py) point at results; registered here.
from scoring.kept_records import KeptRecord  # noqa: E402, F401
