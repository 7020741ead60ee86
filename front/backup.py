"""The whole club as one versioned JSON file, and back: for backups and moving house.

The file is JSON with one row a line: a first line naming the format and its version, then
one line per row (Django's serializer's shape: model, pk, fields), then `]}`. Both ways go a
line at a time, so a backup takes the same few megabytes of memory however long the club has
played: the export reads each table in chunks from one consistent snapshot and writes each
row as it comes; the import checks the whole file first (a pass that keeps only the ids a
later row may refer to), then reads it again and inserts the rows in batches, all in one
transaction. Logins keep their password hashes, so everyone can log in as before. The stored
match results (scoring.results.MatchResult) are derived from the hands, so they are rebuilt
on import rather than carried in the file.
"""

from __future__ import annotations

import array
import bisect
import contextlib
import datetime
import io
import json
import os
from collections.abc import Callable, Iterator

from django.apps import apps
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DataError, IntegrityError, connection, models, transaction
from django.db.models import Prefetch
from django.utils import timezone

from club.refusals import Refused

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
# Rows read from the database at a time, and inserted with one statement at most.
CHUNK = 2000
BATCH = 1000
# The longest line a backup holds is a hand with its tiles or a correction with what it
# changed: a few kilobytes. A longer line is not a backup's, and is not read into memory.
MAX_LINE = 4 * 1024 * 1024
_END = "]}"


class BackupRefused(Refused):
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


def _dumps(value) -> str:
    return json.dumps(value, cls=_Encoder, ensure_ascii=False, separators=(",", ":"))


def _head(exported_at: str) -> str:
    head = {"format": FORMAT, "version": VERSION, "exported_at": exported_at}
    return _dumps(head)[:-1] + ',"data":['


# --- Export -------------------------------------------------------------------------------


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
    come from one lookup per table rather than one query per row."""

    def __init__(self, emit: Callable[[dict], None]):
        super().__init__()
        self._emit = emit
        self._natural_keys: dict[type, dict] = {}

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
        self._current[field.name] = None if pk is None else self._natural_keys[related][pk]


def _queryset(label: str):
    model = _model(label)
    rows = model._default_manager.order_by("pk")
    permissions = _model("auth.permission").objects.select_related("content_type")
    for field in model._meta.local_many_to_many:
        target = field.remote_field.model
        lookup = permissions if target._meta.label_lower == "auth.permission" else None
        rows = rows.prefetch_related(Prefetch(field.name, queryset=lookup))
    return rows


def write_backup(out) -> dict[str, int]:
    """Write the whole club to the text stream `out`, a row a line, from one snapshot (a
    hand recorded meanwhile is either wholly in the file or not at all); how many rows of
    each model it wrote. Memory stays the same however big the club: rows are read
    `CHUNK` at a time and written as they come."""
    counts = dict.fromkeys(MODELS, 0)
    separator = ["\n"]

    def emit(row: dict) -> None:
        out.write(separator[0] + _dumps(row))
        separator[0] = ",\n"
        counts[row["model"]] += 1

    with _snapshot():
        out.write(_head(timezone.now().isoformat()))
        serializer = _RowSerializer(emit)
        for label in MODELS:
            serializer.serialize(
                _queryset(label).iterator(chunk_size=CHUNK),
                use_natural_foreign_keys=True,
                use_natural_primary_keys=label in NAMED_BY_NATURAL_KEY,
            )
    out.write("\n" + _END + "\n")
    return counts


def export_club() -> dict:
    """The whole backup as one dict, for small clubs and tests: it holds every row in
    memory. Backups themselves go through `write_backup`."""
    text = io.StringIO()
    write_backup(text)
    return json.loads(text.getvalue())


def to_json(backup: dict) -> str:
    """The backup as JSON text with one row a line: compact, yet readable and diffable."""
    head = {key: value for key, value in backup.items() if key != "data"}
    rows = ",\n".join(_dumps(row) for row in backup["data"])
    return _dumps(head)[:-1] + ',"data":[\n' + rows + "\n]}\n"


def read_json(text: str | bytes) -> dict:
    """A backup held in memory as a dict (small clubs and tests; see import_club)."""
    try:
        backup = json.loads(text)
    except ValueError as error:
        raise BackupRefused(f"This file is not a club backup: it is not JSON ({error}).") from None
    return backup


# --- Reading a backup, a line at a time ----------------------------------------------------


def _refusal(problem: str) -> BackupRefused:
    return BackupRefused(f"{problem} Nothing was imported.")


def _lines(file) -> Iterator[tuple[int, str, bool]]:
    """(line number, text without its line ending, whether the line ended) for each line
    of the binary `file`, refusing a line that is too long or not text before reading
    further."""
    number = 0
    while True:
        raw = file.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        ended = raw.endswith(b"\n")
        if not ended and len(raw) > MAX_LINE:
            raise _refusal(
                f"Line {number} of this file is longer than any line of a club backup "
                f"(over {MAX_LINE // (1024 * 1024)} MB): this is not a club backup, or it "
                "was damaged."
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            if number == 1:
                raise _refusal("This file is not a club backup: it is not JSON text.") from None
            raise _refusal(
                f"Line {number} of this backup is not text (it holds bytes no backup has): "
                "the file was damaged."
            ) from None
        if number == 1:
            text = text.removeprefix("\ufeff")
        yield number, text.rstrip("\r\n"), ended


def _check_head(head) -> None:
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise _refusal(f"This file is not a club backup (its format should be “{FORMAT}”).")
    if head.get("version") != VERSION:
        raise _refusal(
            f"This backup is version {head.get('version')!r}, but this app reads version "
            f"{VERSION} only."
        )


def _rows(file) -> Iterator[tuple[int, object]]:
    """(line number, parsed row) for every row of the backup in the binary `file`, after
    checking its first line; refuses a file that is not one, or is cut short."""
    lines = _lines(file)
    first = next(lines, None)
    if first is None:
        raise _refusal("This file is empty: it is not a club backup.")
    _, text, _ = first
    try:
        head = json.loads(text + _END)
    except ValueError:
        head = None
    if head is None:
        # A backup written all on one line (by hand, or another tool): small enough to
        # read whole, since its line passed the length limit.
        try:
            whole = json.loads(text)
        except ValueError as error:
            raise _refusal(f"This file is not a club backup: it is not JSON ({error}).") from None
        _check_head(whole)
        data = whole.get("data")
        if not isinstance(data, list):
            raise _refusal("This backup has no list of rows under “data”.")
        if next(lines, None) is not None:
            raise _refusal("This backup goes on after its end (line 1).")
        yield from ((1, row) for row in data)
        return
    _check_head(head)
    if head.get("data") != []:
        raise _refusal("This backup's first line does not end where its rows begin.")
    more = True  # whether a row (or the end) must follow
    number = 1
    rows = 0
    for number, text, ended in lines:
        if text == _END:
            break
        if not text.strip():
            continue
        if not more:
            raise _refusal(
                f"Line {number} of this backup follows the last row (the row before it has "
                "no comma): the file was damaged."
            )
        more = text.endswith(",")
        try:
            row = json.loads(text[:-1] if more else text)
        except ValueError:
            if not ended:
                raise _refusal(
                    f"This backup stops in the middle of line {number}: the file was cut "
                    "short (copied only in part?)."
                ) from None
            raise _refusal(f"Line {number} of this backup is not a row of JSON.") from None
        rows += 1
        yield number, row
    else:
        raise _refusal(
            f"This backup ends at line {number} before its last line (“{_END}”): the file "
            "was cut short (copied only in part?)."
        )
    if more and rows:
        raise _refusal(f"The last row of this backup, before line {number}, ends with a comma.")
    for number, text, _ in lines:
        if text.strip():
            raise _refusal(f"Line {number} of this backup comes after its end.")


# --- Checking a backup ---------------------------------------------------------------------


def _noun(model) -> str:
    return str(model._meta.verbose_name)


def _has_nul(value) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, list):
        return any(_has_nul(item) for item in value)
    if isinstance(value, dict):
        return any(_has_nul(key) or _has_nul(item) for key, item in value.items())
    return False


def _plain(error: ValidationError) -> str:
    return " ".join(str(message) for message in error.messages)


class _Ids:
    """The ids read so far of one model: a sorted array while they come in ascending order,
    as the export writes them (8 bytes an id), a set if they stop doing so."""

    def __init__(self):
        self.ascending: array.array | None = array.array("q")
        self.unordered: set[int] | None = None

    def __contains__(self, pk) -> bool:
        if self.unordered is not None:
            return pk in self.unordered
        at = bisect.bisect_left(self.ascending, pk)
        return at < len(self.ascending) and self.ascending[at] == pk

    def add(self, pk: int) -> None:
        if self.unordered is not None:
            self.unordered.add(pk)
        elif not self.ascending or pk > self.ascending[-1]:
            self.ascending.append(pk)
        else:
            self.unordered = {*self.ascending, pk}
            self.ascending = None


class _Check:
    """The validation pass: what the rows read so far hold, to check each row's shape and
    that what it refers to came before it. Keeps ids only (and the few usernames and
    group names), never rows."""

    def __init__(self):
        self.ids: dict[str, _Ids] = {label: _Ids() for label in MODELS}
        self.usernames: dict[str, int] = {}
        self.groups: set[str] = set()
        self.counts = dict.fromkeys(MODELS, 0)
        self.permissions = {
            permission.natural_key()
            for permission in _model("auth.permission").objects.select_related("content_type")
        }

    def row(self, number: int, row) -> None:
        if not isinstance(row, dict):
            raise _refusal(f"Line {number} of this backup is not a row (it should be {{…}}).")
        label = row.get("model")
        if label not in MODELS:
            raise _refusal(
                f"Line {number} of this backup holds a row of “{label}”, which this app does "
                "not restore."
            )
        model = _model(label)
        where = f"Line {number} of this backup ({_noun(model)}"
        fields = row.get("fields")
        if not isinstance(fields, dict):
            raise _refusal(f"{where}) has no fields.")
        if label in NAMED_BY_NATURAL_KEY:
            name = fields.get("name")
            if not isinstance(name, str) or not name or _has_nul(name):
                raise _refusal(f"{where}) has no name.")
            if name in self.groups:
                raise _refusal(f"{where} “{name}”) repeats a group named before it.")
            where += f" “{name}”"
        else:
            pk = row.get("pk")
            if type(pk) is not int or pk < 1:
                raise _refusal(f"{where}) has no id: its “pk” should be a whole number.")
            self._validate(model._meta.pk, pk, f"{where} {pk}): its id")
            if pk in self.ids[label]:
                raise _refusal(
                    f"{where} {pk}) repeats the id of an earlier {_noun(model)}: two rows "
                    "cannot have the same id."
                )
            where += f" {pk}"
        where += ")"
        for name, value in fields.items():
            self._field(model, name, value, where)
        for field in model._meta.local_concrete_fields:
            missing = field.name not in fields and not field.primary_key
            if missing and not (field.null or field.has_default() or field.empty_strings_allowed):
                raise _refusal(f"{where} has no “{field.name}”.")
        if label in NAMED_BY_NATURAL_KEY:
            self.groups.add(fields["name"])
        else:
            self.ids[label].add(row["pk"])
        if label == "auth.user":
            username = fields.get("username")
            if username in self.usernames:
                raise _refusal(f"{where} repeats the username “{username}” of an earlier login.")
            self.usernames[username] = row["pk"]
        self.counts[label] += 1

    def _field(self, model, name: str, value, where: str) -> None:
        try:
            field = model._meta.get_field(name)
        except FieldDoesNotExist:
            field = None
        if field is None or not (field.concrete or field.many_to_many) or field.primary_key:
            raise _refusal(f"{where} has a field “{name}” that a {_noun(model)} does not have.")
        if field.many_to_many:
            if not isinstance(value, list):
                raise _refusal(f"{where}: its “{name}” should be a list.")
            for item in value:
                self._reference(field, item, f"{where}: its “{name}”")
            return
        if value is None:
            if not field.null:
                raise _refusal(f"{where}: its “{name}” cannot be empty.")
            return
        if field.is_relation:
            self._reference(field, value, f"{where}: its “{name}”")
            return
        if _has_nul(value):
            raise _refusal(
                f"{where}: its “{name}” holds a NUL character, which no club's data has."
            )
        if isinstance(field, models.CharField | models.TextField) and not isinstance(value, str):
            raise _refusal(f"{where}: its “{name}” should be text, not {_dumps(value)[:40]}.")
        self._validate(field, value, f"{where}: its “{name}”", convert=True)

    def _validate(self, field, value, what: str, convert: bool = False) -> None:
        try:
            if convert:
                value = field.to_python(value)
            if isinstance(field, models.JSONField):
                return
            field.run_validators(value)
        except ValidationError as error:
            raise _refusal(f"{what} is wrong: {_plain(error)}") from None
        except (TypeError, ValueError):
            raise _refusal(f"{what} is wrong: {_dumps(value)[:40]} is not what it holds.") from None

    def _reference(self, field, value, what: str) -> None:
        target = field.remote_field.model._meta.label_lower
        if target == "auth.user" and isinstance(value, list):
            if len(value) == 1 and value[0] in self.usernames:
                return
            raise _refusal(
                f"{what} names the login {_dumps(value)[:60]}, which is not among the logins "
                "before it."
            )
        if target == "auth.group" and isinstance(value, list):
            if len(value) == 1 and value[0] in self.groups:
                return
            raise _refusal(
                f"{what} names the group {_dumps(value)[:60]}, which is not in the backup."
            )
        if target == "auth.permission":
            if isinstance(value, list) and tuple(value) in self.permissions:
                return
            raise _refusal(
                f"{what} names the permission {_dumps(value)[:80]}, which this app does not have."
            )
        if type(value) is not int:
            raise _refusal(
                f"{what} should be the id of a {target.split('.')[1]}, not {_dumps(value)[:40]}."
            )
        if target not in self.ids or value not in self.ids[target]:
            noun = _noun(field.remote_field.model)
            raise _refusal(
                f"{what} refers to {noun} {value}, which is not among the rows before it."
            )


def _check(file) -> _Check:
    check = _Check()
    for number, row in _rows(file):
        check.row(number, row)
    if not check.counts["club.club"]:
        raise _refusal("This backup has no club in it, so there is nothing to restore.")
    return check


# --- Restoring -----------------------------------------------------------------------------


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


def _batch_size(model) -> int:
    """Rows a statement: SQLite allows only so many parameters in one."""
    if connection.vendor != "sqlite":
        return BATCH
    import sqlite3

    raw = connection.connection
    limit = raw.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) if hasattr(raw, "getlimit") else 999
    return max(1, min(BATCH, limit // len(model._meta.local_concrete_fields)))


class _Table:
    """How one model's rows go in: its columns in order, and what each value needs."""

    def __init__(self, model):
        self.model = model
        self.fields = list(model._meta.local_concrete_fields)
        self.position = {field.name: i for i, field in enumerate(self.fields)}
        self.pk_at = next(i for i, field in enumerate(self.fields) if field.primary_key)
        self.defaults = [
            None if field.primary_key else field.get_db_prep_save(field.get_default(), connection)
            for field in self.fields
        ]
        quote = connection.ops.quote_name
        self.head = (
            f"INSERT INTO {quote(model._meta.db_table)} "
            f"({', '.join(quote(field.column) for field in self.fields)}) VALUES "
        )
        self.placeholder = "(" + ", ".join(["%s"] * len(self.fields)) + ")"
        self.batch = _batch_size(model)


class _Loader:
    """The insert pass: each row becomes the values of its columns, and rows go in
    `_batch_size` at a time, one INSERT each batch. Plain SQL rather than bulk_create: rows
    keep their own times (bulk_create would stamp "now" on a hand's recorded_at), and it
    costs a fraction of building a model instance a row."""

    def __init__(self, check: _Check):
        self.check = check
        self.table: _Table | None = None
        self.tables: dict[str, _Table] = {}
        self.rows: list[list] = []
        self.links: dict = {}  # many-to-many field -> [(row pk, [natural keys])]
        self.group_ids: dict[str, int] = {}
        self.permission_ids = {
            permission.natural_key(): permission.pk
            for permission in _model("auth.permission").objects.select_related("content_type")
        }

    def add(self, row: dict) -> None:
        label = row["model"]
        if label in NAMED_BY_NATURAL_KEY:
            self.flush()
            self._group(row["fields"])
            return
        table = self.tables.get(label) or self.tables.setdefault(label, _Table(_model(label)))
        if table is not self.table or len(self.rows) >= table.batch:
            self.flush()
            self.table = table
        values = list(table.defaults)
        values[table.pk_at] = row["pk"]
        meta = table.model._meta
        for name, value in row["fields"].items():
            at = table.position.get(name)
            field = table.fields[at] if at is not None else meta.get_field(name)
            if field.many_to_many:
                self.links.setdefault(field, []).append((row["pk"], value))
            elif value is None:
                values[at] = None
            elif field.is_relation:
                values[at] = self._id(field, value)
            else:
                values[at] = field.get_db_prep_save(field.to_python(value), connection)
        self.rows.append(values)

    def _id(self, field, value):
        if isinstance(value, list):
            target = field.remote_field.model._meta.label_lower
            if target == "auth.user":
                return self.check.usernames[value[0]]
            if target == "auth.group":
                return self.group_ids[value[0]]
            return self.permission_ids[tuple(value)]
        return value

    def _group(self, fields: dict) -> None:
        group, _ = _model("auth.group").objects.get_or_create(name=fields["name"])
        self.group_ids[group.name] = group.pk
        field = group._meta.get_field("permissions")
        group.permissions.set([self._id(field, key) for key in fields.get("permissions", [])])

    def flush(self) -> None:
        if self.rows:
            table = self.table
            with connection.cursor() as cursor:
                cursor.execute(
                    table.head + ", ".join([table.placeholder] * len(self.rows)),
                    [value for row in self.rows for value in row],
                )
        for field, links in self.links.items():
            through = field.remote_field.through
            source = field.m2m_field_name() + "_id"
            target = field.m2m_reverse_field_name() + "_id"
            through.objects.bulk_create(
                through(**{source: pk, target: self._id(field, key)})
                for pk, keys in links
                for key in keys
            )
        self.rows, self.links = [], {}


def import_club(source) -> dict[str, int]:
    """Restore a backup into this (empty) database in one transaction; how many rows of each
    model were restored. `source` is a path, a binary file open for reading (it is read
    twice: checked whole first, then loaded), or a backup dict (small clubs and tests).
    Refuses, importing nothing and saying what is wrong where, a file that is not a backup
    or is damaged, a backup with no club, and a database that is not empty."""
    if isinstance(source, dict):
        _check_envelope(source)
        source = io.BytesIO(to_json(source).encode("utf-8"))
    if isinstance(source, str | os.PathLike):
        with open(source, "rb") as file:
            return _import(file)
    return _import(source)


def _check_envelope(backup) -> None:
    if not isinstance(backup, dict):
        raise _refusal("This file is not a club backup.")
    _check_head(backup)
    if not isinstance(backup.get("data"), list):
        raise _refusal("This backup has no list of rows under “data”.")


def _rebuild_results(sessions_at_a_time: int = 25) -> None:
    """The match results, worked out from the hands a few evenings at a time: all at once
    would hold every hand of the club in memory. An evening's results are whole within a
    step (placings weigh across the evening's tables)."""
    from games.models import Match
    from scoring.standings import rebuild_results

    sessions = _model("club.session")._default_manager.order_by("pk").values_list("pk", flat=True)
    chunk: list[int] = []
    for pk in [*sessions.iterator(CHUNK), None]:
        if pk is not None:
            chunk.append(pk)
        if chunk and (pk is None or len(chunk) == sessions_at_a_time):
            rebuild_results(Match.objects.filter(session_id__in=chunk))
            chunk = []


def _import(file) -> dict[str, int]:
    start = file.tell()
    check = _check(file)
    try:
        with transaction.atomic():
            _check_empty()
            file.seek(start)
            loader = _Loader(check)
            for _, row in _rows(file):
                loader.add(row)
            loader.flush()
            # Rows pointing at rows that are not there: the database checks these only at
            # commit, so ask now, while a refusal can still name the problem.
            connection.check_constraints(
                table_names=[_model(label)._meta.db_table for label in MODELS]
            )
            _reset_sequences()
            _rebuild_results()
    except (IntegrityError, DataError) as error:
        raise BackupRefused(
            f"This backup could not be restored, so nothing was imported: {error}"
        ) from error
    return check.counts


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
