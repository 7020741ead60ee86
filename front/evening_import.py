"""One evening played on a hall laptop, brought back into the club on its main site.

A hall with no usable Wi-Fi plays the evening on a laptop running its own copy of the app:
the day before, the club's backup from the main site is imported there (front/backup/).
After the evening, the laptop's backup of the club holds that evening too. `import_evening`
reads it and brings into the club on the main site the evenings the club does not have:
the session, its attendance, seating, matches, chairs, hands, kong chips and corrections,
every row with a new id and every reference rewritten. The rest of the file (the club's
history and set-up, which the main site has already) is read for checking only.

Members are matched by their name at the table (unique in a club): the laptop's club is a
copy of this one, so the names agree. A member the club lacks (a walk-in added on the
laptop) is added, without a login. Logins that recorded hands are matched by username among
the club's own logins, else the hand says "by nobody". Rows that belong to the laptop only
(any model this module does not bring, or this app does not have) stay there; a reference
to one is emptied.

The whole file is checked first (front/backup/'s checks); everything is written in one
transaction, in the club's scope, so a refusal, or any failure half-way, writes nothing.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime
import io
import os

from django.apps import apps
from django.db import DataError, IntegrityError, connection, transaction

from club.models import Club, Member, Session, long_date
from club.privacy.models import Erasure
from club.scoping import scope
from front.backup import (
    MODELS,
    BackupCheck,
    BackupRefused,
    InsertTable,
    backup_rows,
    club_logins,
    made_for_here,
    new_ids,
    to_json,
)

# The key tying each row to the evening it belongs to, and the model that key points to.
PARENT = {
    "club.attendance": ("session", "club.session"),
    "club.seatingplan": ("session", "club.session"),
    "games.match": ("session", "club.session"),
    "club.seatingtable": ("plan", "club.seatingplan"),
    "club.seat": ("plan", "club.seatingplan"),
    "games.chair": ("match", "games.match"),
    "games.tablekey": ("session", "club.session"),
    "scoring.hand": ("match", "games.match"),
    "scoring.kongchips": ("match", "games.match"),
    "scoring.correction": ("match", "games.match"),
}
# What an evening is, in the backup's order (each model after the ones it refers to).
EVENING = tuple(label for label in MODELS if label == "club.session" or label in PARENT)
# The club's set-up: the main site has its own (the laptop's is a copy of it), so these
# rows are read, never brought. Members the evening refers to are matched by name.
SETUP = frozenset(
    ("auth.group", "auth.user", "club.club", "club.member", "club.coordinator", "club.keepapart")
)
NOTHING = "Nothing was brought."


class EveningRefused(BackupRefused):
    """The evening cannot be brought back; str() says why, in plain words."""


def _model(label: str):
    return apps.get_model(label)


def _counted(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _same_name(a: str, b: str) -> bool:
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def _date(value) -> datetime.date:
    """A session's date as the backup's checks read it (Django's date field takes
    "2026-1-5" as well as "2026-01-05")."""
    return Session._meta.get_field("date").to_python(value)


def _username(value) -> str | None:
    """A login as the file names it ([username], see front/backup/'s natural keys)."""
    return value[0] if isinstance(value, list) and value else None


# --- What the file holds ----------------------------------------------------------------


class _Survey:
    """The first pass, beside the backup's own checks: the file's club, its evenings (date
    and whether anything was recorded in them), its members, and how many rows of each
    model the evening leaves on the laptop. Rows themselves are read in the second pass."""

    def __init__(self):
        self.club: dict = {}
        self.sessions: dict[int, dict] = {}
        self.played: set[int] = set()  # sessions with attendance, seating or matches
        self.members: dict[int, dict] = {}
        self.left: collections.Counter[str] = collections.Counter()

    def add(self, row: dict) -> None:
        label = row["model"]
        fields = row["fields"]
        if label == "club.club":
            self.club = fields
        elif label == "club.member":
            self.members[row["pk"]] = fields
        elif label == "club.session":
            self.sessions[row["pk"]] = fields
        elif PARENT.get(label, ("", ""))[1] == "club.session":
            self.played.add(fields["session"])
        elif label not in EVENING and label not in SETUP:
            self.left[label] += 1

    def dates(self) -> dict[datetime.date, int]:
        return {_date(fields["date"]): pk for pk, fields in self.sessions.items()}


def _survey(file) -> tuple[BackupCheck, _Survey]:
    check = BackupCheck(skip_unknown=True)
    survey = _Survey()
    for number, row in backup_rows(file):
        check.row(number, row)
        survey.add(row)
    check.finish()
    return check, survey


class _Rows:
    """The second pass: the rows of the evenings being brought (sessions `chosen`, by
    their id in the file), and nothing else of the file."""

    def __init__(self, chosen: set[int]):
        self.rows: dict[str, list[tuple[int, dict]]] = {label: [] for label in EVENING}
        self.kept: dict[str, set[int]] = {
            "club.session": set(chosen),
            "club.seatingplan": set(),
            "games.match": set(),
        }

    def add(self, row: dict) -> None:
        label = row.get("model")
        if label not in self.rows:
            return
        pk, fields = row["pk"], row["fields"]
        if label == "club.session":
            if pk in self.kept[label]:
                self.rows[label].append((pk, fields))
            return
        key, parent = PARENT[label]
        if fields.get(key) not in self.kept[parent]:
            return
        self.rows[label].append((pk, fields))
        if label in self.kept:
            self.kept[label].add(pk)


# --- What was brought ---------------------------------------------------------------------


@dataclasses.dataclass
class NewMember:
    table_name: str
    login_left: str | None  # the laptop's login of this member, which is not brought


@dataclasses.dataclass
class BroughtEvening:
    date: datetime.date
    present: int = 0
    tables: int = 0
    matches: int = 0
    hands: int = 0
    kong_chips: int = 0
    corrections: int = 0
    into_planned: bool = False  # the club's own empty session of that date was filled
    new_members: list[NewMember] = dataclasses.field(default_factory=list)

    def sentence(self) -> str:
        told = (
            f"Brought the evening of {long_date(self.date)}: "
            f"{_counted(self.present, 'member')} present, {_counted(self.tables, 'table')}, "
            f"{_counted(self.matches, 'match', 'matches')}, {_counted(self.hands, 'hand')}, "
            f"{_counted(self.kong_chips, 'kong chip')}"
        )
        if self.corrections:
            told += f", {_counted(self.corrections, 'correction')}"
        if self.into_planned:
            told += " (into the session already planned here)"
        if self.new_members:
            names = ", ".join(
                f"{member.table_name} (no login"
                + (
                    f": the laptop's login “{member.login_left}” is not brought"
                    if member.login_left
                    else ""
                )
                + ")"
                for member in self.new_members
            )
            count = _counted(len(self.new_members), "new member")
            told += f"; {count}: {names}"
        return told + "."


@dataclasses.dataclass
class Brought:
    """What `import_evening` brought: the evenings, and notes on what it did not bring."""

    evenings: list[BroughtEvening]
    notes: list[str]

    def lines(self) -> list[str]:
        return [evening.sentence() for evening in self.evenings] + self.notes


# --- Bringing it in -------------------------------------------------------------------------


def import_evening(source, club: Club, date: datetime.date | None = None) -> Brought:
    """Bring into `club` the evenings of a backup (a laptop's copy of the club) that the
    club does not have: the one of `date`, or by default every evening whose date the club
    has no session for (or only an empty one, planned ahead). `source` is a path, a
    binary file open for reading (read twice: checked whole first), or a backup dict.
    One transaction; refuses in words, writing nothing, a file that is not a backup or is
    another club's, a date the file has no evening on, an evening the club has already, and
    a member whose name matches someone else here."""
    if isinstance(source, dict):
        source = io.BytesIO(to_json(source).encode("utf-8"))
    if isinstance(source, str | os.PathLike):
        with open(source, "rb") as file:
            return _import(file, club, date)
    return _import(source, club, date)


def _import(file, club: Club, date: datetime.date | None) -> Brought:
    start = file.tell()
    check, survey = _survey(file)
    _same_club(survey, club)
    try:
        with scope(club=club), transaction.atomic():
            # Walk-ins queue on the club row (club/walk_ins.py): nobody adds a member of
            # the same name meanwhile. A session of the same date is refused by the database.
            Club.objects.select_for_update().filter(pk=club.pk).first()
            chosen, planned = _choose(survey, club, date)
            rows = _Rows(set(chosen))
            file.seek(start)
            for _, row in backup_rows(file):
                rows.add(row)
            writer = _Writer(club, survey, rows, planned)
            writer.write()
            connection.check_constraints(
                table_names=[_model(label)._meta.db_table for label in ("club.member", *EVENING)]
            )
            _rebuild_results(writer.ids["club.session"].values())
    except (IntegrityError, DataError) as error:
        raise EveningRefused(
            f"The evening could not be brought into “{club.slug}”: {error}. {NOTHING}"
        ) from error
    return Brought(writer.evenings(), writer.notes(check, survey))


def _same_club(survey: _Survey, club: Club) -> None:
    """An evening goes back into the club it was copied from: the file's club has this
    club's address or name (the laptop may have imported it under another address)."""
    slug, name = survey.club.get("slug"), survey.club.get("name", "")
    if slug == club.slug or _same_name(name, club.name):
        return
    raise EveningRefused(
        f"This backup is of the club “{name}” (address “{slug}”), not of “{club.name}” "
        f"(“{club.slug}”): an evening comes back into the club the laptop's copy was made "
        f"from. Check --club, and the file. {NOTHING}"
    )


def _sessions_in_use() -> set[int]:
    """The club's sessions with anything in them: attendance, a seating or matches."""
    in_use = set()
    for label in ("club.attendance", "club.seatingplan", "games.match"):
        rows = _model(label)._default_manager.order_by().values_list("session_id", flat=True)
        in_use.update(rows.distinct())
    return in_use


def _choose(survey: _Survey, club: Club, date) -> tuple[list[int], dict[int, Session]]:
    """The file's sessions to bring (ids in the file), and those of them going into an
    empty session the club planned for that date (file id -> that session)."""
    here = {session.date: session for session in Session.objects.all()}
    in_use = _sessions_in_use()
    dates = survey.dates()
    if date is not None:
        if date not in dates:
            listed = sorted(dates)
            latest = f" (its latest is {long_date(listed[-1])})" if listed else ""
            raise EveningRefused(
                f"This backup has no evening on {long_date(date)}{latest}. Check --date, "
                f"or leave it out to bring every evening the club lacks. {NOTHING}"
            )
        wanted = {date: dates[date]}
    else:
        wanted = dates
    chosen, planned, refusals = [], {}, []
    for day, pk in sorted(wanted.items()):
        session = here.get(day)
        if session is None:
            chosen.append(pk)
        elif session.pk not in in_use and pk in survey.played:
            chosen.append(pk)
            planned[pk] = session
        elif date is not None:
            refusals.append(_already(club, session, pk in survey.played))
    if refusals:
        raise EveningRefused(refusals[0])
    if not chosen:
        latest = max(dates) if dates else None
        raise EveningRefused(
            f"The club “{club.slug}” has every evening of this backup already"
            + (f" (its latest is {long_date(latest)})" if latest else "")
            + ": it was brought back before, or this file is an older copy. Export the "
            f"club again on the laptop, after the evening, and bring that file. {NOTHING}"
        )
    return chosen, planned


def _already(club: Club, session: Session, played_in_file: bool) -> str:
    when = long_date(session.date)
    if not played_in_file:
        return (
            f"Nothing was recorded on {when} in this backup, and the club “{club.slug}” has "
            f"that session already. {NOTHING}"
        )
    hands = _model("scoring.hand")._default_manager.filter(
        match__session=session, voided_at__isnull=True
    )
    return (
        f"The club “{club.slug}” already has the evening of {when}, with "
        f"{_counted(session.attendances.count(), 'member')} present and "
        f"{_counted(hands.count(), 'hand')}. If it was brought back before, there is nothing "
        f"more to do. If it was played on the main site as well, the two cannot be joined: "
        f"look at the main site's evening first. {NOTHING}"
    )


class _Writer:
    """Writes the evenings' rows with new ids, members matched by name (or added), logins
    by username, and references to the laptop's own rows emptied."""

    def __init__(self, club: Club, survey: _Survey, rows: _Rows, planned: dict[int, Session]):
        self.club = club
        self.survey = survey
        self.rows = rows.rows
        self.planned = planned
        self.ids: dict[str, dict[int, int]] = {label: {} for label in EVENING}
        self.logins = {user.username.lower(): user.pk for user in club_logins(club)}
        self.unknown_logins: collections.Counter[str] = collections.Counter()
        self.emptied: collections.Counter[tuple[str, str]] = collections.Counter()
        self.new_members: dict[int, NewMember] = {}
        self.label = "club.member"  # the model whose rows are being written
        self.members = self._members()

    # Members ---------------------------------------------------------------------------

    def _members(self) -> dict[int, int]:
        """The file's members the evenings refer to: their ids here, matched by name at the
        table; those the club lacks are added (without a login). Refuses, naming them, a
        member whose name here belongs to someone else."""
        wanted = sorted(
            {
                fields["member"]
                for label in ("club.attendance", "club.seat", "games.chair")
                for _, fields in self.rows[label]
            }
        )
        here = list(Member.objects.select_related("user"))
        exact = {member.table_name: member for member in here}
        folded = collections.defaultdict(list)
        for member in here:
            folded[member.table_name.casefold()].append(member)
        by_login = {member.user.username.lower(): member for member in here if member.user}
        # A member erased here since the laptop's copy was made is theirs by their lasting
        # id, not by the old name, which must not come back as a new member.
        erased = {str(uid): pk for uid, pk in Erasure.objects.values_list("member_uid", "member")}
        matched, clashes, new = {}, [], []
        for pk in wanted:
            theirs = self.survey.members[pk]
            if str(theirs.get("uid")) in erased:
                matched[pk] = erased[str(theirs.get("uid"))]
                continue
            name = theirs["table_name"]
            candidates = folded.get(name.casefold(), [])
            member = exact.get(name) or (candidates[0] if len(candidates) == 1 else None)
            login = _username(theirs.get("user"))
            if member is None and len(candidates) > 1:
                clashes.append(
                    f"the laptop's “{name}” could be any of "
                    + ", ".join(f"“{m.table_name}”" for m in candidates)
                    + f" here: rename them here so that one is exactly “{name}”"
                )
            elif member is None:
                other = by_login.get(login.lower()) if login else None
                if other is not None:
                    clashes.append(
                        f"the laptop's “{name}” has the login “{login}”, which here is "
                        f"“{other.table_name}”'s: if they are one person, give them the same "
                        "name at the table on both"
                    )
                else:
                    new.append(pk)
            elif not _same_name(theirs.get("name", ""), member.name):
                clashes.append(
                    f"the laptop's “{name}” is {theirs.get('name')}, but the club's "
                    f"“{member.table_name}” is {member.name}: if they are one person, make "
                    "the full names agree on the member's page here; if two, rename the "
                    f"club's “{member.table_name}” here (say, “{name} {member.name.split()[-1][:1]}”) "
                    "so the laptop's comes in as a new member"
                )
            elif login and member.user and login.lower() != member.user.username.lower():
                clashes.append(
                    f"the laptop's “{name}” logs in as “{login}”, but the club's "
                    f"“{member.table_name}” as “{member.user.username}”: if they are two "
                    f"people, rename the club's “{member.table_name}” here so the laptop's "
                    "comes in as a new member"
                )
            else:
                matched[pk] = member.pk
        twice = collections.defaultdict(list)
        for pk, member_pk in matched.items():
            twice[member_pk].append(self.survey.members[pk]["table_name"])
        for names in twice.values():
            if len(names) > 1:
                clashes.append(
                    " and ".join(f"“{name}”" for name in names)
                    + " on the laptop are one member here: rename one of them on the laptop, "
                    "export again and bring the new file"
                )
        if clashes:
            raise EveningRefused(
                "Some members of the evening do not match the club's members here: "
                + "; ".join(clashes)
                + f". Then run this again. {NOTHING}"
            )
        return matched | self._add_members(new)

    def _add_members(self, new: list[int]) -> dict[int, int]:
        table = InsertTable(Member)
        ids = dict(zip(new, new_ids(Member, len(new)), strict=True))
        values = []
        for pk, new_pk in ids.items():
            fields = self.survey.members[pk]
            login = _username(fields.get("user"))
            self.new_members[pk] = NewMember(fields["table_name"], login)
            columns = {
                name: value
                for name, value in fields.items()
                if name in table.position and name not in ("user", "form_token")
            }
            values.append(self._values(table, new_pk, columns))
        self._insert(table, values)
        return ids

    # Rows ------------------------------------------------------------------------------

    def write(self) -> None:
        for label in EVENING:
            self._write(label, self.rows[label])

    def _write(self, label: str, rows: list[tuple[int, dict]]) -> None:
        model = _model(label)
        table = InsertTable(model)
        ids = self.ids[label]
        self.label = label
        if label == "club.session":
            self._fill_planned(rows)
            rows = [(pk, fields) for pk, fields in rows if pk not in self.planned]
        ids.update(zip((pk for pk, _ in rows), new_ids(model, len(rows)), strict=True))
        values = []
        for pk, fields in rows:
            columns = {name: value for name, value in fields.items() if name in table.position}
            made_for_here(label, columns)
            values.append(self._values(table, ids[pk], columns))
        self._insert(table, values)

    def _fill_planned(self, rows: list[tuple[int, dict]]) -> None:
        """An empty session the club planned for the date takes the laptop's evening."""
        for pk, fields in rows:
            session = self.planned.get(pk)
            if session is None:
                continue
            self.ids["club.session"][pk] = session.pk
            Session.objects.filter(pk=session.pk).update(
                status=fields.get("status", session.status),
                venue=fields.get("venue", session.venue),
                notes=fields.get("notes", session.notes),
            )

    def _values(self, table: InsertTable, pk: int, columns: dict) -> list:
        values = table.values(pk, columns, self._refer)
        if "club" in table.position:  # version 1 rows have no club key: it is this club
            values[table.position["club"]] = self.club.pk
        return values

    @staticmethod
    def _insert(table: InsertTable, values: list[list]) -> None:
        for at in range(0, len(values), table.batch):
            table.insert(values[at : at + table.batch])

    def _refer(self, field, value):
        """A reference in the file, as an id here (None: emptied)."""
        target = field.related_model._meta.label_lower
        if target == "club.club":
            return self.club.pk
        if target == "club.member":
            return self.members[value]
        if target == "auth.user":
            username = _username(value)
            found = self.logins.get(username.lower()) if username else None
            if found is None and username:
                self.unknown_logins[username] += 1
            return found
        if target in self.ids and value in self.ids[target]:
            return self.ids[target][value]
        if field.null:  # a row the laptop keeps for itself (a table key, say)
            self.emptied[self.label, field.name] += 1
            return None
        raise EveningRefused(
            f"A {_noun(self.label)} of the evening refers to a "
            f"{field.related_model._meta.verbose_name}, which is not brought and which it "
            f"cannot do without. {NOTHING}"
        )

    # What was brought ------------------------------------------------------------------

    def evenings(self) -> list[BroughtEvening]:
        rows = self.rows
        evenings = {
            pk: BroughtEvening(date=_date(fields["date"]), into_planned=pk in self.planned)
            for pk, fields in rows["club.session"]
        }
        plans = {pk: fields["session"] for pk, fields in rows["club.seatingplan"]}
        matches = {pk: fields["session"] for pk, fields in rows["games.match"]}
        for _, fields in rows["club.attendance"]:
            evenings[fields["session"]].present += 1
        for _, fields in rows["club.seatingtable"]:
            evenings[plans[fields["plan"]]].tables += 1
        for session in matches.values():
            evenings[session].matches += 1
        for label, attribute in (("scoring.hand", "hands"), ("scoring.kongchips", "kong_chips")):
            for _, fields in rows[label]:
                if fields.get("voided_at") is None:
                    evening = evenings[matches[fields["match"]]]
                    setattr(evening, attribute, getattr(evening, attribute) + 1)
        for _, fields in rows["scoring.correction"]:
            evenings[matches[fields["match"]]].corrections += 1
        # A new member is told with the first evening they came to.
        sessions_of = {
            "club.attendance": lambda fields: fields["session"],
            "club.seat": lambda fields: plans[fields["plan"]],
            "games.chair": lambda fields: matches[fields["match"]],
        }
        firsts = {}
        for label, session_of in sessions_of.items():
            for _, fields in rows[label]:
                if fields["member"] in self.new_members:
                    evening = evenings[session_of(fields)]
                    first = firsts.setdefault(fields["member"], evening)
                    if evening.date < first.date:
                        firsts[fields["member"]] = evening
        for member, evening in sorted(firsts.items()):
            evening.new_members.append(self.new_members[member])
        return sorted(evenings.values(), key=lambda evening: evening.date)

    def notes(self, check: BackupCheck, survey: _Survey) -> list[str]:
        notes = []
        if self.unknown_logins:
            names = ", ".join(f"“{name}”" for name in sorted(self.unknown_logins))
            notes.append(
                f"Recorded by logins the club does not have here ({names}): those hands and "
                "corrections say “by nobody”."
            )
        if survey.left:
            listed = ", ".join(
                _rows_of(label, count) for label, count in sorted(survey.left.items())
            )
            notes.append(f"Left on the laptop (they belong to it only): {listed}.")
        for (label, name), count in sorted(self.emptied.items()):
            notes.append(
                f"The “{name}” of {_rows_of(label, count)} is left empty: it points to a row "
                "this does not bring (kept on the laptop)."
            )
        fields = sorted((label, name) for label, name in check.skipped_fields if label in EVENING)
        for label, name in fields:
            notes.append(
                f"The {_noun(label, plural=True)} in the file have a “{name}”, which this "
                "installation does not keep: it is not brought."
            )
        return notes


def _noun(label: str, plural: bool = False) -> str:
    try:
        meta = _model(label)._meta
    except (LookupError, ValueError):
        return f"rows of “{label}”" if plural else f"row of “{label}”"
    return str(meta.verbose_name_plural if plural else meta.verbose_name)


def _rows_of(label: str, count: int) -> str:
    """“4 table keys” for a model this app has, else “4 rows of “games.tablekey””."""
    try:
        meta = _model(label)._meta
    except (LookupError, ValueError):
        return f"{_counted(count, 'row')} of “{label}”"
    return f"{count} {meta.verbose_name if count == 1 else meta.verbose_name_plural}"


def _rebuild_results(session_ids) -> None:
    """The brought matches' results, worked out from their hands (a backup does not carry
    them), placings weighed across each evening's tables."""
    from games.models import Match
    from scoring.standings import rebuild_results

    rebuild_results(Match.objects.filter(session_id__in=list(session_ids)))
