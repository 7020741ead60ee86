"""Writing a club's backup: its rows from one consistent snapshot, a line a row, logins
of other clubs without their password hashes; and the whole file as JSON (`to_json`,
`read_json`)."""

from __future__ import annotations

import contextlib
import datetime
import io
import json
from collections.abc import Callable, Iterator

from django.core import serializers
from django.db import connection, models, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.crypto import salted_hmac

from club.scoping import scope, scopes_disabled
from front.backup.format import (
    _END,
    CHUNK,
    MAX_DEPTH,
    MODELS,
    NAMED_BY_NATURAL_KEY,
    BackupRefused,
    _dumps,
    _head,
    _model,
)


@contextlib.contextmanager
def _snapshot() -> Iterator[None]:
    """Read the club as it was at one moment without holding anyone's writes off.

    SQLite: the connection's transactions take the write lock when they begin (IMMEDIATE,
    see config/settings/base.py), which would stop every table for the whole export; a
    plain deferred transaction that only reads sees one snapshot (WAL) and takes no write
    lock. PostgreSQL: a read-only repeatable-read transaction. Inside a caller's
    transaction (tests) the snapshot is the caller's."""
    if connection.in_atomic_block:
        yield
        return
    if connection.vendor == "sqlite":
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("BEGIN DEFERRED")
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("ROLLBACK")  # it only read
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


class _RowSerializer(serializers.get_serializer("python")):
    """Django's serializer, one row at a time: each row goes to `emit` as it is made instead
    of into a list, and a row's natural foreign keys (a hand's `recorded_by` is a username)
    come from one lookup per table rather than one query per row. `logins` are the logins
    the file holds: a reference to any other login (an operator's, say) is written empty,
    since the file carries no login but the club's own."""

    def __init__(self, emit: Callable[[dict], None], logins: models.QuerySet):
        super().__init__()
        self._emit = emit
        self._natural_keys: dict[type, dict] = {
            logins.model: {row.pk: row.natural_key() for row in logins.iterator(CHUNK)}
        }

    def end_object(self, obj):
        self._emit(self.get_dump_object(obj))
        self._current = None

    def handle_fk_field(self, obj, field):
        related = field.remote_field.model
        if not hasattr(related, "natural_key"):
            return super().handle_fk_field(obj, field)
        if related not in self._natural_keys:
            self._natural_keys[related] = {
                row.pk: row.natural_key() for row in related._default_manager.iterator(CHUNK)
            }
        pk = getattr(obj, field.attname)
        self._current[field.name] = self._natural_keys[related].get(pk)


def club_logins(club) -> models.QuerySet:
    """The logins of the club in scope: its members' and its coordinators'. The scoped
    managers (club/scoping.py) give that club's members and coordinators only."""
    member = _model("club.member")._default_manager.filter(user__isnull=False).values("user_id")
    coordinator = _model("club.coordinator")._default_manager.values("user_id")
    return _model("auth.user")._default_manager.filter(
        models.Q(pk__in=member) | models.Q(pk__in=coordinator)
    )


# A login's password in the file when its hash is withheld: unusable ("!" first, as
# Django's set_unusable_password), and a keyed digest of the hash, so that the installation
# that wrote it (which has the key, SECRET_KEY) still knows it for the same login, while the
# file alone gives nothing to guess a password from.
WITHHELD = "!withheld-from-backup:"


def withheld_password(password_hash: str) -> str:
    digest = salted_hmac("front.backup.withheld_password", password_hash, algorithm="sha256")
    return WITHHELD + digest.hexdigest()


def logins_of_other_clubs(club) -> set[int]:
    """The ids of the club's logins that are also a member or coordinator of another club
    of this installation."""
    logins = club_logins(club).values("pk")
    with scopes_disabled():
        member = _model("club.member")._default_manager.filter(user__in=logins)
        coordinator = _model("club.coordinator")._default_manager.filter(user__in=logins)
        return {
            *member.exclude(club=club).values_list("user_id", flat=True),
            *coordinator.exclude(club=club).values_list("user_id", flat=True),
        }


def _queryset(label: str, club):
    model = _model(label)
    if label == "auth.user":
        rows = club_logins(club)
    elif label == "auth.group":
        rows = model._default_manager.filter(user__in=club_logins(club)).distinct()
    elif label == "club.club":
        rows = model._default_manager.filter(pk=club.pk)
    else:  # scoped: the club's own rows only
        rows = model._default_manager.all()
    rows = rows.order_by("pk")
    permissions = _model("auth.permission").objects.select_related("content_type")
    for field in model._meta.local_many_to_many:
        target = field.remote_field.model
        lookup = permissions if target._meta.label_lower == "auth.permission" else None
        rows = rows.prefetch_related(Prefetch(field.name, queryset=lookup))
    return rows


def write_backup(out, club) -> dict[str, int]:
    """Write `club` to the text stream `out`, a row a line, from one snapshot (a hand
    recorded meanwhile is either wholly in the file or not at all); how many rows of each
    model it wrote. It runs in the club's scope, so no other club's row can be read into
    it; the logins that are also other clubs' are written without their password hashes. Memory stays the same however big the club: rows are read `CHUNK` at a time and
    written as they come."""
    counts = dict.fromkeys(MODELS, 0)
    separator = ["\n"]
    withheld: set[int] = set()

    def emit(row: dict) -> None:
        if row["model"] == "auth.user" and row["pk"] in withheld:
            row["fields"]["password"] = withheld_password(row["fields"]["password"])
        out.write(separator[0] + _dumps(row))
        separator[0] = ",\n"
        counts[row["model"]] += 1

    with scope(club=club), _snapshot():
        withheld.update(logins_of_other_clubs(club))
        out.write(_head(timezone.now().isoformat(), club))
        serializer = _RowSerializer(emit, club_logins(club))
        for label in MODELS:
            serializer.serialize(
                _queryset(label, club).iterator(chunk_size=CHUNK),
                use_natural_foreign_keys=True,
                use_natural_primary_keys=label in NAMED_BY_NATURAL_KEY,
            )
    out.write("\n" + _END + "\n")
    return counts


def export_club(club) -> dict:
    """The club's backup as one dict, for small clubs and tests: it holds every row in
    memory. Backups themselves go through `write_backup`."""
    text = io.StringIO()
    write_backup(text, club)
    return json.loads(text.getvalue())


def to_json(backup: dict) -> str:
    """The backup as JSON text with one row a line: compact, yet readable and diffable."""
    head = {key: value for key, value in backup.items() if key != "data"}
    rows = ",\n".join(_dumps(row) for row in backup["data"])
    return _dumps(head)[:-1] + ',"data":[\n' + rows + "\n]}\n"


def read_json(text: str | bytes) -> dict:
    """A backup held in memory as a dict (small clubs and tests; see import_club)."""
    try:
        backup = _loads(text)
    except _TooDeep as error:
        raise BackupRefused(str(error)) from None
    except ValueError as error:
        raise BackupRefused(f"This file is not a club backup: it is not JSON ({error}).") from None
    return backup


def _depth(value) -> int:
    """How deep `value` nests lists and objects (counted without recursion, so a value of
    any depth is measured)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                break
            stack.extend((item, depth + 1) for item in value)
    return deepest


class _TooDeep(BackupRefused, ValueError):
    """JSON nested deeper than any backup is: a refusal (its str() the sentence), and a
    ValueError as the parser's other refusals are, for the readers that try a line."""

    reason = (
        f"it nests lists and objects more than {MAX_DEPTH} deep, and no backup nests them "
        "beyond a few"
    )

    def __init__(self):
        super().__init__(f"This file is not a club backup: {self.reason}.")


def _loads(text: str | bytes):
    """JSON `text` as Python, refusing (_TooDeep, with the reason) text nested deeper than
    any backup is: Python's own parser stops at its recursion limit with RecursionError,
    and a value it did parse that deep would stop the checks that walk it."""
    try:
        value = json.loads(text)
    except RecursionError:
        value = None
        deepest = MAX_DEPTH + 1
    else:
        deepest = _depth(value)
    if deepest > MAX_DEPTH:
        raise _TooDeep()
    return value


def backup_filename(club, now: datetime.datetime | None = None) -> str:
    day = timezone.localdate(now or timezone.now())
    return f"mahjong-club-backup-{club.slug}-{day.isoformat()}.json"
