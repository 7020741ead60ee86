"""The whole club as one versioned JSON file, and back: for backups and moving house.

Django's own serializers do the rows; this module wraps them in an envelope that names the
format and its version, and restores them into an empty database in one transaction.
Logins keep their password hashes, so everyone can log in as before. The stored match
results (scoring.results.MatchResult) are derived from the hands, so they are rebuilt on
import rather than carried in the file.
"""

import datetime
import json

from django.apps import apps
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DataError, IntegrityError, connection, transaction
from django.utils import timezone

FORMAT = "mahjong-club-backup"
VERSION = 1

# Every table of the club's history, each after the tables it points to, so the rows load
# in this order. Groups go by name (a new database may number them differently).
MODELS = (
    "auth.group",
    "auth.user",
    "club.club",
    "club.member",
    "club.keepapart",
    "club.session",
    "club.attendance",
    "club.seatingplan",
    "club.seatingtable",
    "club.seat",
    "games.match",
    "games.chair",
    "scoring.hand",
    "scoring.kongchips",
    "scoring.correction",
)
NAMED_BY_NATURAL_KEY = {"auth.group"}
# Rows that must not be there already for an import (groups are shared by name instead).
MUST_BE_EMPTY = tuple(label for label in MODELS if label not in NAMED_BY_NATURAL_KEY) + (
    "scoring.matchresult",
)


class BackupRefused(Exception):
    """A backup that cannot be restored; str() says why, in plain words."""


class _Encoder(DjangoJSONEncoder):
    """Times to the microsecond: Django's encoder keeps milliseconds only, which would
    change every recorded time a little on each round trip."""

    def default(self, o):
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


def _model(label: str):
    return apps.get_model(label)


def export_club() -> dict:
    """The whole club as a backup: the envelope with every row of MODELS, in pk order.

    The tables are read in one transaction that sees the club as it was at one moment
    (PostgreSQL: repeatable read; SQLite: the write lock, held for the second or so this
    takes), so a hand recorded meanwhile is either wholly in the file or not at all.
    """
    # Inside a caller's transaction (tests) the snapshot is the caller's to choose.
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        data = _rows()
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().isoformat(),
        "data": data,
    }


def _rows() -> list:
    data = []
    for label in MODELS:
        rows = _model(label)._default_manager.order_by("pk")
        data.extend(
            serializers.serialize(
                "python",
                rows,
                use_natural_foreign_keys=True,
                use_natural_primary_keys=label in NAMED_BY_NATURAL_KEY,
            )
        )
    return data


def to_json(backup: dict) -> str:
    """The backup as JSON text with one row a line: compact, yet readable and diffable."""
    head = {key: value for key, value in backup.items() if key != "data"}
    rows = ",\n".join(_dumps(row) for row in backup["data"])
    return _dumps(head)[:-1] + ',"data":[\n' + rows + "\n]}\n"


def _dumps(value) -> str:
    return json.dumps(value, cls=_Encoder, ensure_ascii=False, separators=(",", ":"))


def read_json(text: str | bytes) -> dict:
    try:
        backup = json.loads(text)
    except ValueError as error:
        raise BackupRefused(f"This file is not a club backup: it is not JSON ({error}).") from None
    return backup


def _check_envelope(backup) -> list:
    if not isinstance(backup, dict) or backup.get("format") != FORMAT:
        raise BackupRefused(
            f"This file is not a club backup (its format should be “{FORMAT}”). Nothing was "
            "imported."
        )
    if backup.get("version") != VERSION:
        raise BackupRefused(
            f"This backup is version {backup.get('version')!r}, but this app reads version "
            f"{VERSION} only. Nothing was imported."
        )
    data = backup.get("data")
    if not isinstance(data, list) or not all(isinstance(row, dict) for row in data):
        raise BackupRefused("This backup has no list of rows under “data”. Nothing was imported.")
    unknown = sorted({str(row.get("model")) for row in data} - set(MODELS))
    if unknown:
        raise BackupRefused(
            f"This backup holds rows this app does not restore ({', '.join(unknown)}). "
            "Nothing was imported."
        )
    return data


def _untouched_club():
    """The club the first page opened creates on its own (default name and settings, nothing
    else in the database): an import may replace it, so opening the app first costs nothing."""
    from club.models import FIRST_CLUB_NAME, Club

    clubs = list(Club.objects.all()[:2])
    if len(clubs) != 1:
        return None
    fresh = Club(name=FIRST_CLUB_NAME)
    fields = [f.attname for f in Club._meta.concrete_fields if not f.primary_key]
    same = all(getattr(clubs[0], name) == getattr(fresh, name) for name in fields)
    return clubs[0] if same else None


def _check_empty() -> None:
    if (club := _untouched_club()) is not None:
        club.delete()
    filled = [
        _model(label)._meta.verbose_name_plural
        for label in MUST_BE_EMPTY
        if _model(label)._default_manager.exists()
    ]
    if filled:
        raise BackupRefused(
            "A backup is restored only into an empty database, and this one already holds "
            f"{', '.join(str(name) for name in filled)}. Create a new database (run "
            "`manage.py migrate` on it) and import there. Nothing was imported."
        )


def import_club(backup: dict) -> dict[str, int]:
    """Restore `backup` into this (empty) database in one transaction; how many rows of
    each model were restored. Refuses a wrong format or version and a non-empty database,
    importing nothing."""
    from scoring.standings import rebuild_results

    data = _check_envelope(backup)
    counts = {label: 0 for label in MODELS}
    try:
        with transaction.atomic():
            _check_empty()
            for restored in serializers.deserialize("python", data):
                restored.save()
                counts[restored.object._meta.label_lower] += 1
            # Rows pointing at rows that are not there: the database checks these only at
            # commit, so ask now, while a refusal can still name the problem.
            connection.check_constraints(
                table_names=[_model(label)._meta.db_table for label in MODELS]
            )
            _reset_sequences()
            rebuild_results()
    except (DeserializationError, IntegrityError, DataError) as error:
        raise BackupRefused(
            f"This backup could not be restored, so nothing was imported: {error}"
        ) from error
    return counts


def _reset_sequences() -> None:
    """Rows came with their own ids: move each table's id counter past them (PostgreSQL),
    so the next member or hand added gets a free id."""
    statements = connection.ops.sequence_reset_sql(no_style(), [_model(label) for label in MODELS])
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)


def backup_filename(now: datetime.datetime | None = None) -> str:
    day = timezone.localdate(now or timezone.now())
    return f"mahjong-club-backup-{day.isoformat()}.json"
