"""One club as a versioned JSON file, and back: for backups and moving a club to another
installation (which may host other clubs already).

The file is JSON with one row a line: a first line naming the format, its version and the
club's address, then one line per row (Django's serializer's shape: model, pk, fields), then
`]}`. The export runs inside the club's scope (club/scoping.py), so the scoped managers
themselves keep every other club's rows out; the logins in it are the club's members' and
coordinators' (a login that belongs only to other clubs, or an operator's, is not in it; a
hand recorded by such a login says "recorded by nobody" in the file).

The import gives every row a new id (taken from the installation's own id counters, so it
never collides with another club's rows, even while that club plays) and rewrites every
reference to it. Both ways go a line at a time, so a backup takes the same few megabytes of
memory however long the club has played: the export reads each table in chunks from one
consistent snapshot and writes each row as it comes; the import checks the whole file first
(a pass that keeps only the ids a later row may refer to), then reads it again and inserts
the rows in batches, all in one transaction. Logins keep their password hashes, so everyone
can log in as before; but a login that is also another club's (a member or coordinator of
another club of the installation) is written without its hash (`withheld_password`): the
file goes to one club's coordinator, who must not get what would let them try to guess the
password of someone else's login elsewhere. Such a login comes back without a usable
password, and the import says so; on the installation it came from, it is still known as
the same login. The stored match results (scoring.results.MatchResult) are derived
from the hands, so they are rebuilt on import rather than carried in the file.

Version 1 files (whole single-club installations, before clubs shared one) still import:
their matches, hands, kong chips and attendance have no club key, which is filled in from
the file's one club; their "Coordinators" group becomes the club's coordinators.
"""

from __future__ import annotations

import array
import bisect
import collections
import contextlib
import dataclasses
import datetime
import io
import json
import os
import re
import uuid
from collections.abc import Callable, Iterator

from django.apps import apps
from django.core import serializers
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import DataError, IntegrityError, connection, models, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from club.addresses import RESERVED_SLUGS
from club.privacy.erasure import erase_again
from club.refusals import Refused
from club.scoping import ClubRow, scope, scopes_disabled
from games.models import new_code
from scoring.engine import EngineError
from scoring.rules import build_ruleset, rule_set_choices

FORMAT = "mahjong-club-backup"
VERSION = 2
# Version 1: a whole single-club installation, before clubs had coordinators of their own.
READS = (1, 2)
OLD_COORDINATORS_GROUP = "Coordinators"

# Every table of the club's history, each after the tables it points to, so the rows load
# in this order. Groups go by name (a new database may number them differently).
MODELS = (
    "auth.group",
    "auth.user",
    "club.club",
    "club.member",
    "club.erasure",
    "club.coordinator",
    "club.keepapart",
    "club.session",
    "club.attendance",
    "club.sessionreply",
    "club.seatingplan",
    "club.seatingtable",
    "club.seat",
    "games.match",
    "games.chair",
    # Hands and kong chips name the table key they were recorded with (the audit trail).
    "games.tablekey",
    "scoring.hand",
    "scoring.kongchips",
    "scoring.correction",
)
# Not in it: the members' history of changes (club/member_history.py). A backup is the club
# as it is now; the history names logins of this installation and details since changed.
NAMED_BY_NATURAL_KEY = {"auth.group"}
# The fields that name a row's rule set, its options and its table values.
RULE_FIELDS = {
    "club.club": ("rule_set", "rule_options", "rule_values"),
    "games.match": ("rules", "rule_options", "rule_values"),
}


def made_for_here(label: str, columns: dict) -> None:
    """What a row brought in from a file must not keep as it was:
    - a table key's code opens its table on whichever installation holds it: it gets a new
      code, so a card printed for the other copy opens nothing here (codes are unique
      across clubs; the coordinator prints the table's card again);
    - a seating draft's one-step undo names members by their ids in the other copy, which
      are not theirs here: it is dropped (the draft itself comes, as it was)."""
    if label == "games.tablekey":
        columns["code"] = new_code()
    elif label == "club.member" and not columns.get("uid"):  # a file from before members had one
        columns["uid"] = uuid.uuid4()
    elif label == "club.seatingplan":
        columns["undo"] = None


# Rows read from the database at a time, and inserted with one statement at most.
CHUNK = 2000
BATCH = 1000
# The longest line a backup holds is a hand with its tiles or a correction with what it
# changed: a few kilobytes. A longer line is not a backup's, and is not read into memory.
MAX_LINE = 4 * 1024 * 1024
_END = "]}"
# The deepest a backup's rows nest lists and objects (a correction's hand, with its tiles,
# is 5 levels): a file nested deeper is not a backup, and a value nested thousands deep
# would otherwise stop the reader with Python's recursion limit.
MAX_DEPTH = 32


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


def _head(exported_at: str, club) -> str:
    head = {"format": FORMAT, "version": VERSION, "club": club.slug, "exported_at": exported_at}
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
    if head.get("version") not in READS:
        raise _refusal(
            f"This backup is version {head.get('version')!r}, but this app reads versions "
            f"{' and '.join(str(version) for version in READS)} only."
        )


def backup_rows(file) -> Iterator[tuple[int, object]]:
    """(line number, parsed row) for every row of the backup in the binary `file`, after
    checking its first line; refuses a file that is not one, or is cut short."""
    lines = _lines(file)
    first = next(lines, None)
    if first is None:
        raise _refusal("This file is empty: it is not a club backup.")
    _, text, _ = first
    try:
        head = _loads(text + _END)
    except ValueError:
        head = None
    if head is None:
        # A backup written all on one line (by hand, or another tool): small enough to
        # read whole, since its line passed the length limit.
        try:
            whole = _loads(text)
        except _TooDeep as error:
            raise _refusal(str(error)) from None
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
            row = _loads(text[:-1] if more else text)
        except ValueError as error:
            if not ended:
                raise _refusal(
                    f"This backup stops in the middle of line {number}: the file was cut "
                    "short (copied only in part?)."
                ) from None
            if isinstance(error, _TooDeep):
                raise _refusal(
                    f"Line {number} of this backup is not a row: {error.reason}."
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
    """The ids read so far of one model, each with its place among them (the n-th row of
    the model has place n): a sorted array while they come in ascending order, as the
    export writes them (8 bytes an id), a dict if they stop doing so."""

    def __init__(self):
        self.ascending: array.array | None = array.array("q")
        self.unordered: dict[int, int] | None = None

    def __len__(self) -> int:
        return len(self.ascending) if self.unordered is None else len(self.unordered)

    def __contains__(self, pk) -> bool:
        return self.place(pk) is not None

    def place(self, pk) -> int | None:
        if self.unordered is not None:
            return self.unordered.get(pk)
        at = bisect.bisect_left(self.ascending, pk)
        return at if at < len(self.ascending) and self.ascending[at] == pk else None

    def add(self, pk: int) -> None:
        if self.unordered is not None:
            self.unordered[pk] = len(self.unordered)
        elif not self.ascending or pk > self.ascending[-1]:
            self.ascending.append(pk)
        else:
            self.unordered = {old: place for place, old in enumerate(self.ascending)}
            self.unordered[pk] = len(self.unordered)
            self.ascending = None


class BackupCheck:
    """The validation pass: what the rows read so far hold, to check each row's shape and
    that what it refers to came before it. Keeps ids only (and the few usernames and
    group names), never rows.

    `skip_unknown` (bringing one evening back, front/evening_import.py): rows of a model
    this app does not restore, and fields a model here does not have, are counted in
    `skipped` and `skipped_fields` rather than refused; a reference to such a row, where
    it may be empty, is let through (it is emptied). A file from an installation that
    keeps more than this one (a hall laptop's table keys, say) still brings its evening."""

    def __init__(self, skip_unknown: bool = False):
        self.skip_unknown = skip_unknown
        self.skipped: collections.Counter[str] = collections.Counter()
        self.skipped_fields: collections.Counter[tuple[str, str]] = collections.Counter()
        self.ids: dict[str, _Ids] = {label: _Ids() for label in MODELS}
        self.usernames: dict[str, int] = {}
        self.passwords: dict[str, str] = {}
        self.groups: set[str] = set()
        self._choices: dict[models.Field, list] = {}  # each field's choices, read once
        self.club: dict = {}
        self.counts = dict.fromkeys(MODELS, 0)
        self.permissions = {
            permission.natural_key()
            for permission in _model("auth.permission").objects.select_related("content_type")
        }

    def row(self, number: int, row) -> None:
        if not isinstance(row, dict):
            raise _refusal(f"Line {number} of this backup is not a row (it should be {{…}}).")
        label = row.get("model")
        if label not in MODELS and self.skip_unknown and isinstance(label, str) and label:
            self.skipped[label] += 1
            return
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
        self._rules(label, fields, where)
        for field in model._meta.local_concrete_fields:
            missing = field.name not in fields and not field.primary_key
            # Version 1 rows have no club key of their own: the file's one club fills it.
            filled = field.name == "club" and issubclass(model, ClubRow)
            if missing and not (
                filled or field.null or field.has_default() or field.empty_strings_allowed
            ):
                raise _refusal(f"{where} has no “{field.name}”.")
        if label == "club.club":
            if self.club:
                raise _refusal(
                    f"{where} is a second club: a backup holds one club, so this file was "
                    "not written by export_club."
                )
            self.club = dict(fields)
        if label in NAMED_BY_NATURAL_KEY:
            self.groups.add(fields["name"])
        else:
            self.ids[label].add(row["pk"])
        if label == "auth.user":
            username = fields.get("username")
            if username in self.usernames:
                raise _refusal(f"{where} repeats the username “{username}” of an earlier login.")
            self.usernames[username] = row["pk"]
            self.passwords[username] = fields.get("password", "")
        self.counts[label] += 1

    def _field(self, model, name: str, value, where: str) -> None:
        try:
            field = model._meta.get_field(name)
        except FieldDoesNotExist:
            field = None
        if field is None and self.skip_unknown:
            self.skipped_fields[model._meta.label_lower, name] += 1
            return
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
        if isinstance(field, models.JSONField):
            self._shape(field, value, f"{where}: its “{name}”")
        self._validate(field, value, f"{where}: its “{name}”", convert=True)
        if field.choices:
            chosen = field.to_python(value)
            allowed = self._choices.get(field)
            if allowed is None:
                allowed = self._choices[field] = [key for key, _ in field.flatchoices]
            if chosen not in allowed and not (field.blank and chosen in field.empty_values):
                raise _refusal(
                    f"{where}: its “{name}” is {_dumps(value)[:40]}, which is not one of "
                    f"{', '.join(_dumps(key) for key in allowed)}."
                )

    @staticmethod
    def _shape(field, value, what: str) -> None:
        """A JSON field holds an object or a list as its default does: the code that reads
        it (the rules, the flow, the scoresheet) expects that shape."""
        default = field.get_default()
        for shape, noun in ((dict, "an object {…}"), (list, "a list […]")):
            if isinstance(default, shape) and not isinstance(value, shape):
                raise _refusal(f"{what} should be {noun}, not {_dumps(value)[:40]}.")

    def _rules(self, label: str, fields: dict, where: str) -> None:
        """A club's or a match's rule set is one this app has, with options and values it
        takes (the file's other checks see only a name and two objects there; a name this
        app does not know would stop the import, or the club's pages, later)."""
        names = RULE_FIELDS.get(label)
        if names is None:
            return
        name_field, options_field, values_field = names
        name = fields.get(name_field, _model(label)._meta.get_field(name_field).get_default())
        known = [key for key, _ in rule_set_choices()]
        if name not in known:
            raise _refusal(
                f"{where}: its “{name_field}” is {_dumps(name)[:40]}, a rule set this app "
                f"does not have (it has {', '.join(known)})."
            )
        try:
            build_ruleset(name, fields.get(options_field) or None, fields.get(values_field) or None)
        except (EngineError, TypeError, ValueError) as error:
            raise _refusal(f"{where}: its rule settings are wrong: {error}") from None

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
        if target not in self.ids and self.skip_unknown and field.null:
            return  # a row this app does not restore: the reference is emptied
        if type(value) is not int:
            raise _refusal(
                f"{what} should be the id of a {target.split('.')[1]}, not {_dumps(value)[:40]}."
            )
        if target not in self.ids or value not in self.ids[target]:
            noun = _noun(field.remote_field.model)
            raise _refusal(
                f"{what} refers to {noun} {value}, which is not among the rows before it."
            )

    def finish(self) -> None:
        """After the last row: refuses a backup that held no club."""
        if not self.counts["club.club"]:
            raise _refusal("This backup has no club in it, so there is nothing to restore.")


def _check(file) -> BackupCheck:
    check = BackupCheck()
    for number, row in backup_rows(file):
        check.row(number, row)
    check.finish()
    return check


# --- Restoring -----------------------------------------------------------------------------

ADDRESS = re.compile(r"[^a-z0-9]+")


def _address_from_name(name: str) -> str:
    """A version 1 club had no address: one from its name, as the upgrade to many clubs
    (club/migrations/0012_many_clubs.py) gave the clubs already there."""
    base = ADDRESS.sub("-", str(name).lower()).strip("-")[:36].strip("-")
    if not base or not base[0].isalpha() or len(base) < 3:
        base = f"club-{base}".strip("-") if base else "club"
    if base in RESERVED_SLUGS:  # the site's own word ("club" for a club with no name)
        base = f"{base}-club"
    return base


def _untouched_club():
    """The club the first page opened creates on its own in a new installation (default
    name and settings, nothing in it, the only club): an import may replace it, so opening
    the app first costs nothing."""
    from club.models import FIRST_CLUB_NAME, FIRST_CLUB_SLUG, Club

    clubs = list(Club.objects.all()[:2])
    if len(clubs) != 1:
        return None
    fresh = Club(name=FIRST_CLUB_NAME, slug=FIRST_CLUB_SLUG)
    fields = [
        f.attname
        for f in Club._meta.concrete_fields
        if not f.primary_key and f.name != "served_at_root"  # it is, as the first club
    ]
    if not all(getattr(clubs[0], name) == getattr(fresh, name) for name in fields):
        return None
    with scope(club=clubs[0]):
        for label in ("club.member", "club.coordinator", "club.session"):
            if _model(label)._default_manager.exists():
                return None
    return clubs[0]


def _address(check: BackupCheck, slug: str | None) -> str:
    """The address the club is imported at: `slug` if given, else the file's; refused if it
    is not an address or another club of this installation has it."""
    from club.models import Club, validate_club_slug

    address = slug or check.club.get("slug") or _address_from_name(check.club.get("name", ""))
    try:
        validate_club_slug(address)
    except ValidationError as error:
        raise BackupRefused(
            f"“{address}” cannot be a club's address: {_plain(error)} Import it under "
            "another address with --slug NEW. Nothing was imported."
        ) from None
    if Club.objects.filter(slug=address).exists():
        raise BackupRefused(
            f"This installation already has a club at the address “{address}”, so this "
            f"backup was not imported. Import it under another address with --slug NEW "
            f"(e.g. --slug {address[:37]}-2). Nothing was imported."
        )
    return address


def _same_password(here: str, in_file: str) -> bool:
    """Whether a login's password here is the one the file has for it: the same hash, or
    (a hash the file withholds) the digest of this hash."""
    if in_file.startswith(WITHHELD):
        return constant_time_compare(withheld_password(here), in_file)
    return here == in_file


def _logins_here(check: BackupCheck) -> dict[str, int]:
    """The backup's logins that are already logins of this installation: provably the same
    login (the same username and the same password hash, which only a copy of that login
    has, or the digest of it, for a hash the file withholds), by username with their id here. Any other login here with the same name (capitals
    apart, as logins are typed: club/login_names.py) is refused."""
    from django.db.models.functions import Lower

    User = _model("auth.user")
    keys = {username.lower(): username for username in check.usernames}
    found: dict[str, int] = {}
    clashes = []
    names = list(keys)
    for at in range(0, len(names), 500):
        here = User._default_manager.annotate(key=Lower("username")).filter(
            key__in=names[at : at + 500]
        )
        for user in here.only("pk", "username", "password"):
            theirs = keys[user.username.lower()]
            if user.username == theirs and _same_password(user.password, check.passwords[theirs]):
                found[theirs] = user.pk
            else:
                clashes.append((theirs, user.username))
    if clashes:
        listed = ", ".join(
            f"“{theirs}”" + ("" if theirs == here else f" (here “{here}”)")
            for theirs, here in sorted(clashes)
        )
        raise BackupRefused(
            f"This installation already has logins named {listed}, belonging to other people "
            "(their passwords differ), so this backup was not imported: two people cannot "
            "share a login. Rename those logins in the club's own installation (on the "
            "member's page, or the site's admin), export again and import the new file. "
            "Nothing was imported."
        )
    return found


def _batch_size(model) -> int:
    """Rows a statement: SQLite allows only so many parameters in one."""
    if connection.vendor != "sqlite":
        return BATCH
    import sqlite3

    raw = connection.connection
    limit = raw.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) if hasattr(raw, "getlimit") else 999
    return max(1, min(BATCH, limit // len(model._meta.local_concrete_fields)))


def new_ids(model, count: int):
    """`count` ids no row of `model` has or will be given, in ascending order: PostgreSQL
    takes them from the table's own id counter (another club saving a hand meanwhile gets
    the next one after them); SQLite writes one transaction at a time, and the ids after
    the highest ever given are free."""
    if not count:
        return range(0)
    table, column = model._meta.db_table, model._meta.pk.column
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [connection.ops.quote_name(table), column, count],
            )
            ids = array.array("q")
            while rows := cursor.fetchmany(CHUNK):
                ids.extend(row[0] for row in rows)
            return ids
        quote = connection.ops.quote_name
        cursor.execute(f"SELECT MAX({quote(column)}) FROM {quote(table)}")
        highest = cursor.fetchone()[0] or 0
        cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
        given = cursor.fetchone()
        highest = max(highest, given[0] if given else 0)
    return range(highest + 1, highest + 1 + count)


class InsertTable:
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

    def values(self, pk: int, fields: dict, refer: Callable) -> list:
        """A row's values in column order, with id `pk`: `fields` as the file holds them
        (columns only), each reference made an id here by `refer(field, value)`, and the
        columns the file leaves out at their defaults."""
        values = list(self.defaults)
        values[self.pk_at] = pk
        for name, value in fields.items():
            at = self.position[name]
            field = self.fields[at]
            if value is None:
                values[at] = None
            elif field.is_relation:
                values[at] = refer(field, value)
            else:
                values[at] = field.get_db_prep_save(field.to_python(value), connection)
        return values

    def insert(self, rows: list[list]) -> None:
        """Rows made by `values`, with one statement (at most `batch` of them)."""
        if rows:
            with connection.cursor() as cursor:
                cursor.execute(
                    self.head + ", ".join([self.placeholder] * len(rows)),
                    [value for row in rows for value in row],
                )


class _Loader:
    """The insert pass: each row becomes the values of its columns, with a new id and every
    reference rewritten to the new ids, and rows go in `_batch_size` at a time, one INSERT
    each batch. Plain SQL rather than bulk_create: rows keep their own times (bulk_create
    would stamp "now" on a hand's recorded_at), and it costs a fraction of building a model
    instance a row.

    `logins_here` are the backup's logins this installation has already (they are used as
    they are). Into an installation hosting other clubs (`shared`), the backup's logins
    come in as plain logins: an operator's or staff flag in a file must not make anyone an
    operator of the whole site; a login that was an operator becomes the club's
    coordinator instead."""

    def __init__(self, check: BackupCheck, address: str, logins_here: dict[str, int], shared: bool):
        self.check = check
        self.address = address
        self.shared = shared
        self.table: InsertTable | None = None
        self.tables: dict[str, InsertTable] = {}
        self.rows: list[list] = []
        self.links: dict = {}  # many-to-many field -> [(row's new id, [natural keys])]
        self.group_ids: dict[str, int] = {}
        self.permission_ids = {
            permission.natural_key(): permission.pk
            for permission in _model("auth.permission").objects.select_related("content_type")
        }
        self.user_ids = dict(logins_here)
        self.reused = set(logins_here)
        self.coordinators: set[int] = set()  # new ids of logins that become coordinators
        self.ids = {
            label: new_ids(
                _model(label), check.counts[label] - len(logins_here) * (label == "auth.user")
            )
            for label in MODELS
            if label not in NAMED_BY_NATURAL_KEY
        }
        self.placed = dict.fromkeys(MODELS, 0)
        self.club_id = self.ids["club.club"][0]

    def add(self, row: dict) -> None:
        label = row["model"]
        if label in NAMED_BY_NATURAL_KEY:
            self.flush()
            self._group(row["fields"])
            return
        fields = row["fields"]
        if label == "auth.user":
            if fields["username"] in self.reused:
                return
            new_id = self.ids[label][self.placed[label]]
            self.user_ids[fields["username"]] = new_id
            fields = self._login(new_id, dict(fields))
        else:
            new_id = self.ids[label][self.placed[label]]
        self.placed[label] += 1
        table = self.tables.get(label) or self.tables.setdefault(label, InsertTable(_model(label)))
        if table is not self.table or len(self.rows) >= table.batch:
            self.flush()
            self.table = table
        columns = {}
        for name, value in fields.items():
            if name in table.position:
                columns[name] = value
            else:
                field = table.model._meta.get_field(name)
                self.links.setdefault(field, []).append((new_id, value))
        if label == "club.club":
            columns["slug"] = self.address
            # Where the club sat on the installation it came from is not the file's to say:
            # here it is served at the root if it is the first club (as any first club is).
            columns["served_at_root"] = not self.shared
        made_for_here(label, columns)
        values = table.values(new_id, columns, self._id)
        if label != "club.club" and "club" in table.position:
            values[table.position["club"]] = self.club_id  # version 1 rows have none
        if label == "club.keepapart":  # the pair's lower id first, whatever order ids came in
            a, b = table.position["member_a"], table.position["member_b"]
            if values[a] > values[b]:
                values[a], values[b] = values[b], values[a]
        self.rows.append(values)

    def _login(self, new_id: int, fields: dict) -> dict:
        """A login of the backup, as it comes into this installation."""
        groups = fields.get("groups", [])
        if [OLD_COORDINATORS_GROUP] in groups:  # version 1: the site-wide coordinators' group
            self.coordinators.add(new_id)
            fields["groups"] = [key for key in groups if key != [OLD_COORDINATORS_GROUP]]
            if not fields.get("is_superuser"):
                fields["is_staff"] = False
        if self.shared and (fields.get("is_superuser") or fields.get("is_staff")):
            if fields.get("is_superuser"):
                self.coordinators.add(new_id)
            fields.update(is_superuser=False, is_staff=False, user_permissions=[])
        return fields

    def _id(self, field, value):
        target = field.remote_field.model._meta.label_lower
        if isinstance(value, list):
            if target == "auth.user":
                return self.user_ids[value[0]]
            if target == "auth.group":
                return self.group_ids[value[0]]
            return self.permission_ids[tuple(value)]
        return self.ids[target][self.check.ids[target].place(value)]

    def _group(self, fields: dict) -> None:
        """Groups go by name and are the installation's: one already here keeps what it
        allows; a new one gets the backup's permissions."""
        if fields["name"] == OLD_COORDINATORS_GROUP:
            return
        group, created = _model("auth.group").objects.get_or_create(name=fields["name"])
        self.group_ids[group.name] = group.pk
        if created:
            field = group._meta.get_field("permissions")
            group.permissions.set([self._id(field, key) for key in fields.get("permissions", [])])

    def flush(self) -> None:
        if self.rows:
            self.table.insert(self.rows)
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

    def finish(self) -> None:
        self.flush()
        Coordinator = _model("club.coordinator")
        Coordinator._default_manager.bulk_create(
            [Coordinator(club_id=self.club_id, user_id=user) for user in self.coordinators],
            ignore_conflicts=True,
        )


@dataclasses.dataclass
class Imported:
    """What an import brought: the rows of each model in the file, the club's address here,
    and how many of the file's logins were this installation's already (used as they are)."""

    counts: dict[str, int]
    address: str
    logins_here: int
    # Usernames of the logins that came without a usable password (the file withheld it).
    without_password: list[str] = dataclasses.field(default_factory=list)
    # Members this installation's erasure list names who came back with their details (an
    # older backup): erased again, as they are called now (club/privacy/erasure.py).
    erased_again: list[str] = dataclasses.field(default_factory=list)


def import_club(source, slug: str | None = None) -> Imported:
    """Bring a club from a backup into this installation, which may host other clubs, in
    one transaction; what came in (`Imported`). `source` is a path, a binary file open for reading (it is read twice:
    checked whole first, then loaded), or a backup dict (small clubs and tests); `slug`
    imports the club under another address. Refuses, importing nothing and saying what is
    wrong where, a file that is not a backup or is damaged, a backup with no club, an
    address another club has, and a login whose name another person has here."""
    if isinstance(source, dict):
        _check_envelope(source)
        source = io.BytesIO(to_json(source).encode("utf-8"))
    if isinstance(source, str | os.PathLike):
        with open(source, "rb") as file:
            return _import(file, slug)
    return _import(source, slug)


def _check_envelope(backup) -> None:
    if not isinstance(backup, dict):
        raise _refusal("This file is not a club backup.")
    _check_head(backup)
    if not isinstance(backup.get("data"), list):
        raise _refusal("This backup has no list of rows under “data”.")


def _rebuild_results(sessions_at_a_time: int = 25) -> None:
    """The match results of the club in scope, worked out from the hands a few evenings at
    a time: all at once would hold every hand of the club in memory. An evening's results
    are whole within a step (placings weigh across the evening's tables)."""
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


def _import(file, slug: str | None) -> Imported:
    from club.models import Club

    start = file.tell()
    check = _check(file)
    try:
        with transaction.atomic():
            if (untouched := _untouched_club()) is not None:
                untouched.delete()
            address = _address(check, slug)
            logins_here = _logins_here(check)
            loader = _Loader(check, address, logins_here, shared=Club.objects.exists())
            file.seek(start)
            for _, row in backup_rows(file):
                loader.add(row)
            loader.flush()
            with scope(club=Club.objects.get(pk=loader.club_id)):
                loader.finish()
                # Rows pointing at rows that are not there: the database checks these only
                # at commit, so ask now, while a refusal can still name the problem.
                connection.check_constraints(
                    table_names=[_model(label)._meta.db_table for label in MODELS]
                )
                _rebuild_results()
                erased_again = erase_again(Club.objects.get(pk=loader.club_id))
    except (IntegrityError, DataError) as error:
        raise BackupRefused(
            f"This backup could not be restored, so nothing was imported: {error}"
        ) from error
    without_password = sorted(
        username
        for username, password in check.passwords.items()
        if username not in logins_here and str(password).startswith(WITHHELD)
    )
    return Imported(check.counts, address, len(logins_here), without_password, erased_again)


def backup_filename(club, now: datetime.datetime | None = None) -> str:
    day = timezone.localdate(now or timezone.now())
    return f"mahjong-club-backup-{club.slug}-{day.isoformat()}.json"
