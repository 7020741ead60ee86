"""Restoring a club from a backup: new ids for every row, references rewritten, inserted
in batches in one transaction, the results rebuilt (`import_club`)."""

from __future__ import annotations

import array
import dataclasses
import io
import os
import re
from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, connection, transaction
from django.utils.crypto import constant_time_compare

from club.addresses import RESERVED_SLUGS
from club.privacy.erasure import erase_again
from club.scoping import scope
from front.backup.checking import BackupCheck, _check, _plain
from front.backup.export import WITHHELD, to_json, withheld_password
from front.backup.format import (
    BATCH,
    CHUNK,
    MODELS,
    NAMED_BY_NATURAL_KEY,
    OLD_COORDINATORS_GROUP,
    BackupRefused,
    _model,
    made_for_here,
)
from front.backup.reading import _check_head, _refusal, backup_rows

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
