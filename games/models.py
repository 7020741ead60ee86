"""A table's match: who sits in which chair, the rules it is played under, and its state.

A match's state (hand number, round, dealer, winds, goulash, over) is never stored: it is
the replay of its recorded outcomes through `games.flow`, so correcting or undoing an old
hand re-derives everything after it. Hands and their payments live in `scoring`.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone

from club.scoping import ClubRow, ClubRowQuerySet, club_scoped, scopes_disabled
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

    club = models.ForeignKey(
        "club.Club", on_delete=models.PROTECT, related_name="+", db_index=False
    )
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
        # Leading with the club, then the parent's key: with the club's key alone indexed,
        # PostgreSQL would find a few sessions' rows by reading all the club's (issue 28).
        indexes = [models.Index(fields=["club", "session"], name="match_club_session")]
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
        # By the match's key, as scoring's Hand: not through a join to every match.
        ordering = ["match_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_chair_per_match"),
            models.UniqueConstraint(fields=["match", "member"], name="unique_member_per_match"),
            models.CheckConstraint(
                condition=Q(number__lt=MAX_CHAIRS), name="chair_number_in_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.member} in chair {self.number}"


# --- table keys ------------------------------------------------------------------------------

# Crockford's base32: no I, L, O or U, so a code read off a card is not mistyped.
KEY_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
KEY_LENGTH = 10  # 50 bits: far beyond guessing at the throttle's pace (see games.key_views)
# What a reader may type for a letter the alphabet leaves out.
KEY_READS_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})


def normalise_code(typed: str) -> str:
    """A code as stored: capitals, without the spaces and dashes a person types or the card
    shows, and with O, I and L read as the digits they look like."""
    return "".join(typed.split()).replace("-", "").upper().translate(KEY_READS_AS)


def new_code() -> str:
    return "".join(secrets.choice(KEY_ALPHABET) for _ in range(KEY_LENGTH))


class TableKeyQuerySet(models.QuerySet):
    def live(self) -> TableKeyQuerySet:
        """Not stopped: the current key of its table (at most one per table)."""
        return self.filter(revoked_at__isnull=True)

    def usable(self) -> TableKeyQuerySet:
        """Keys that open their table now: not stopped, and their evening not ended."""
        return self.live().exclude(session__status="closed")

    def ended_with_its_evening(self, session_id: int, table_number: int, ids) -> TableKey | None:
        """Of the keys `ids`, the one of this table that opened it until its evening ended
        (not stopped): a write it sends afterwards is answered "the evening was ended"."""
        keys = self.live().filter(session_id=session_id, table_number=table_number)
        return keys.filter(session__status="closed", pk__in=list(ids)).first()

    def opening(self, session_id: int, table_number: int, ids) -> TableKey | None:
        """Of the keys `ids` (a device's), the usable one for this table, or None."""
        keys = self.usable().filter(session_id=session_id, table_number=table_number)
        return keys.filter(pk__in=list(ids)).first()

    def for_tables(self, session, numbers, by=None) -> dict[int, TableKey]:
        """Each table's key (the live one, else the last one stopped), issuing one to each
        table that never had one, in one transaction: the coordinator's pages show a card
        for every table without a press, reloading them issues nothing new, and a key the
        coordinator stopped stays stopped. A closed evening gets none."""
        numbers = sorted(set(numbers))
        if session.is_closed:
            return {}
        with transaction.atomic():
            _lock(session)
            keys: dict[int, TableKey] = {}
            for key in self.filter(session=session).order_by("issued_at", "pk"):
                if (
                    key.is_live
                    or keys.get(key.table_number) is None
                    or not keys[key.table_number].is_live
                ):
                    keys[key.table_number] = key
            for number in numbers:
                if number not in keys:
                    keys[number] = TableKey(
                        session=session, table_number=number, code=new_code(), issued_by=by
                    )
                    keys[number].save()
        return {n: keys[n] for n in numbers}


def _lock(session) -> None:
    """Hold the evening's row until the transaction ends: two coordinators issuing keys at
    once take turns (SQLite holds its one write lock anyway)."""
    type(session).objects.select_for_update().filter(pk=session.pk).values_list("pk").first()


class CardKey(models.Model):
    """What a table's key and the room key share: a code printed on a card, who issued it
    and when, stopped by the coordinator."""

    code = models.CharField(max_length=KEY_LENGTH, unique=True)
    issued_at = models.DateTimeField(auto_now_add=True)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True

    @property
    def shown_code(self) -> str:
        """The code as the card shows it, in groups: "7KQM-4PX2-DH"."""
        return "-".join(self.code[i : i + 4] for i in range(0, len(self.code), 4))

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None

    def revoke(self) -> None:
        """Stop the key: every device holding it is refused from its next request."""
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])


class TableKey(CardKey, ClubRow):
    """A table's key: the secret code on its printed card (a QR code holds the address with
    it). A phone or tablet that opened it records at that table of that evening without a
    login, until the evening ends or the coordinator stops the key (a lost card gets a new
    one). It belongs to the table, not to a match: a late arrival who moves the table to a
    new match keeps the tablet working."""

    club_parent = "session"

    club = models.ForeignKey(
        "club.Club", on_delete=models.PROTECT, related_name="+", db_index=False
    )
    session = models.ForeignKey("club.Session", on_delete=models.CASCADE, related_name="+")
    table_number = models.PositiveSmallIntegerField()

    objects = club_scoped(TableKeyQuerySet)

    class Meta:
        ordering = ["session", "table_number", "issued_at"]
        # Leading with the club, then the parent's key, in place of the club's key alone
        # (tests/test_club_indexes.py).
        indexes = [models.Index(fields=["club", "session"], name="table_key_club_session")]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "table_number"],
                condition=Q(revoked_at__isnull=True),
                name="one_live_key_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"Key of table {self.table_number}, {self.session}"

    is_room_key = False

    @property
    def opens(self) -> str:
        return f"table {self.table_number}"

    @classmethod
    def find_by_code_in_any_club(cls, typed: str) -> TableKey | None:
        """The usable key a typed or scanned code names, whichever club it belongs to (the
        address /t/<code>/ names no club), or None: wrong, stopped, ended and unknown codes
        all give None, so the answer tells a guesser nothing."""
        code = normalise_code(typed)
        if len(code) != KEY_LENGTH or any(c not in KEY_ALPHABET for c in code):
            return None
        with scopes_disabled():
            return cls.objects.usable().select_related("club", "session").filter(code=code).first()

    @classmethod
    def reissue(
        cls, session, table_number: int, by, replacing: int | None
    ) -> tuple[TableKey, bool]:
        """A new key for a table (a lost card), stopping its live one, in one transaction.
        `replacing` is the key the coordinator saw: if another screen already replaced it
        (or a second tap arrives), the key now live is the answer and nothing changes.
        Returns the live key and whether it was issued now."""
        session.ensure_open("its table keys")
        with transaction.atomic():
            _lock(session)
            current = cls.objects.live().filter(session=session, table_number=table_number)
            current = current.first()
            if current is not None and replacing is not None and current.pk != replacing:
                return current, False
            if current is not None:
                current.revoke()
            key = cls(session=session, table_number=table_number, code=new_code(), issued_by=by)
            key.save()
            return key, True


class RoomKeyQuerySet(models.QuerySet):
    def live(self) -> RoomKeyQuerySet:
        """Not stopped: the club's current room key (at most one)."""
        return self.filter(revoked_at__isnull=True)

    def held_by_device(self, ids) -> RoomKey | None:
        """Of the keys `ids` (a device's), the live one of the club in scope, or None."""
        return self.live().filter(pk__in=list(ids)).first()


class RoomKey(CardKey):
    """The club's room card: a secret code, like a table's card, that opens the room display
    (`/standings/room/`) on a TV in the hall without a login, and nothing else. One per club,
    kept from week to week (the TV is the same every week) until the coordinator re-issues
    it (a lost card) or stops it."""

    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="+")

    objects = club_scoped(RoomKeyQuerySet)

    class Meta:
        ordering = ["club", "issued_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["club"],
                condition=Q(revoked_at__isnull=True),
                name="one_live_room_key_per_club",
            ),
        ]

    def __str__(self) -> str:
        return f"Room key of {self.club}"

    is_room_key = True
    opens = "the room display"

    @classmethod
    def for_club(cls, club, by=None) -> RoomKey:
        """The club's room key (the live one, else the last one stopped), issuing one if the
        club never had one, in one transaction: the coordinator's page shows the card without
        a press, and a key the coordinator stopped stays stopped."""
        with transaction.atomic():
            _lock(club)
            keys = cls.objects.filter(club=club)
            key = keys.live().first() or keys.order_by("-issued_at", "-pk").first()
            return key or cls.objects.create(club=club, code=new_code(), issued_by=by)

    @classmethod
    def find_by_code_in_any_club(cls, typed: str) -> RoomKey | None:
        """The live room key a typed or scanned code names, or None (as TableKey's)."""
        code = normalise_code(typed)
        if len(code) != KEY_LENGTH or any(c not in KEY_ALPHABET for c in code):
            return None
        with scopes_disabled():
            return cls.objects.live().select_related("club").filter(code=code).first()

    @classmethod
    def reissue(cls, club, by, replacing: int | None) -> tuple[RoomKey, bool]:
        """A new room key (a lost card), stopping the live one, in one transaction; as
        TableKey.reissue, a second tap or another screen's re-issue changes nothing.
        Returns the live key and whether it was issued now."""
        with transaction.atomic():
            _lock(club)
            current = cls.objects.live().filter(club=club).first()
            if current is not None and replacing is not None and current.pk != replacing:
                return current, False
            if current is not None:
                current.revoke()
            return cls.objects.create(club=club, code=new_code(), issued_by=by), True
