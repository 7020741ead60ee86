"""Every bad backup gets a sentence: a good backup file is spoilt in every way a file can be
(each field of each kind of row given a value of the wrong type or left out, unknown rule
sets, rule settings the rules refuse, nesting 100,000 deep, impossible dates, repeated ids,
rows that are not rows), and `import_club` and `import_evening` (which share the reader)
must each end with a CommandError whose message is a sentence, never another exception,
and write nothing."""

import datetime
import json

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, models

from club.models import Attendance, Session
from club.scoping import ClubRow, scope
from front import backup
from games.models import Chair, Match
from scoring.models import Hand
from scoring.results import MatchResult
from tests.factories import CoordinatorFactory, MemberFactory
from tests.test_backup import ALL_TABLES, empty_the_database, export_text, played_history

pytestmark = pytest.mark.django_db
DEEP = 100_000


def rows_of(text: str) -> list[tuple[int, dict]]:
    """(line index, row) of every row line of a backup as export_club writes it."""
    lines = text.split("\n")
    return [(i, json.loads(line.rstrip(","))) for i, line in enumerate(lines) if '"model":' in line]


def with_line(text: str, i: int, new: str) -> str:
    lines = text.split("\n")
    lines[i] = new + ("," if lines[i].endswith(",") else "")
    return "\n".join(lines)


def with_row(text: str, i: int, row) -> str:
    return with_line(text, i, backup._dumps(row))


def wrong_value(field):
    """A value of the wrong type (or out of what the field takes) for `field`."""
    if field.many_to_many:
        return "everyone"
    if field.is_relation:
        return ["nobody"] if field.related_model._meta.label_lower == "auth.user" else "a-name"
    if field.choices:
        return "no-such-choice"
    if isinstance(field, models.JSONField):
        default = field.get_default()
        return [1, 2] if isinstance(default, dict) else {"a": 1} if default == [] else None
    if isinstance(field, models.BooleanField):
        return "maybe"
    if isinstance(field, models.DateTimeField):
        return "yesterday evening"
    if isinstance(field, models.DateField):
        return "2026-02-30"
    if isinstance(field, models.TimeField):
        return "25:61"
    if isinstance(field, models.DecimalField):
        return "lots"
    if isinstance(field, models.UUIDField):
        return "not-a-uuid"
    if isinstance(field, models.IntegerField):
        return "seven" if field.name != "id" else None
    if isinstance(field, models.CharField | models.TextField):
        return 7
    raise AssertionError(f"say what is wrong for {field!r}")


def required(field) -> bool:
    """A field a row cannot leave out (a row's club key may go: the file's one club fills
    it, as in version 1 files; a login's groups and permissions may go: none)."""
    if field.many_to_many or field.name == "club" and issubclass(field.model, ClubRow):
        return False
    if (field.model._meta.label_lower, field.name) in backup.FILLED_FROM:  # newer than old files
        return False
    return not (field.null or field.has_default() or field.primary_key) and (
        field.is_relation or not field.empty_strings_allowed
    )


def spoilt_files(text: str) -> dict[str, str | bytes]:
    """Every way of spoiling the backup `text`, by name."""
    rows = rows_of(text)
    spoilt: dict[str, str | bytes] = {}
    first = {}
    for i, row in rows:
        first.setdefault(row["model"], (i, row))
    # Each field of the first row of each kind: a wrong value, and (if required) left out.
    for label, (i, row) in first.items():
        model = apps.get_model(label)
        for name in row["fields"]:
            field = model._meta.get_field(name)
            wrong = wrong_value(field)
            if wrong is not None:
                bad = json.loads(json.dumps(row))
                bad["fields"][name] = wrong
                spoilt[f"{label}.{name} = {wrong!r}"] = with_row(text, i, bad)
            if required(field):
                bad = json.loads(json.dumps(row))
                del bad["fields"][name]
                spoilt[f"{label} without {name}"] = with_row(text, i, bad)
        for key in ("model", "fields") + (("pk",) if "pk" in row else ()):
            bad = dict(row)
            del bad[key]
            spoilt[f"{label} row without its {key}"] = with_row(text, i, bad)
        if "pk" in row:
            for pk in ("7", 0, -3, 1.5, None):
                spoilt[f"{label} with the id {pk!r}"] = with_row(text, i, {**row, "pk": pk})
        spoilt[f"{label} with fields as a list"] = with_row(text, i, {**row, "fields": []})
    # The rules: unknown rule sets and settings the rules refuse, on the club and a match.
    for label, name in backup.RULE_FIELDS.items():
        i, row = first[label]
        rule_field, options, values = name
        for wrong in ("mystery", "HK", ""):
            bad = json.loads(json.dumps(row))
            bad["fields"][rule_field] = wrong
            spoilt[f"{label} under the rule set {wrong!r}"] = with_row(text, i, bad)
        for field_name, wrong in (
            (options, {"no_such_option": True}),
            (options, {"limit": "lots"}),
            (values, {"no_such_value": 3}),
            (values, {"a": [1]}),
        ):
            bad = json.loads(json.dumps(row))
            bad["fields"][field_name] = wrong
            spoilt[f"{label}.{field_name} = {wrong!r}"] = with_row(text, i, bad)
    # Nested deep: a whole line, a field's value, the first line, the file on one line.
    i, row = first["scoring.hand"]
    spoilt["a line nested 100,000 deep"] = with_line(text, i, "[" * DEEP + "]" * DEEP)
    deep_value = "[" * DEEP + "1" + "]" * DEEP
    line = backup._dumps(row)
    spoilt["a hand's tiles nested 100,000 deep"] = with_line(
        text, i, line.replace('"tiles":{}', f'"tiles":{deep_value}')
    )
    spoilt["a hand's tiles nested 40 deep"] = with_line(
        text, i, line.replace('"tiles":{}', '"tiles":' + "[" * 40 + "]" * 40)
    )
    lines = text.split("\n")
    spoilt["the first line nested 100,000 deep"] = "\n".join(["[" * DEEP, *lines[1:]])
    spoilt["the whole file nested 100,000 deep"] = "[" * DEEP + "]" * DEEP
    spoilt["a model name nested 100,000 deep"] = with_line(
        text, i, '{"model":' + deep_value + ',"pk":1,"fields":{}}'
    )
    # Bad dates.
    i, row = first["club.session"]
    for date in ("2026-02-30", "26/11/2026", "", 20261126, "2026-11-26T25:00"):
        bad = json.loads(json.dumps(row))
        bad["fields"]["date"] = date
        spoilt[f"a session on {date!r}"] = with_row(text, i, bad)
    # Repeated ids and names.
    for label in ("club.member", "club.session", "scoring.hand", "auth.user", "club.club"):
        i, row = first[label]
        twin = json.loads(json.dumps(row))
        if label == "club.club":
            twin["pk"] += 1000
        lines = text.split("\n")
        lines.insert(i + 1, backup._dumps(twin) + ",")
        spoilt[f"a repeated {label}"] = "\n".join(lines)
    # Rows that are not rows, and a head that is not a backup's.
    i, _ = first["club.member"]
    for wrong in ("[]", '"a row"', "7", "null", "{}", '{"model":"club.nothing","fields":{}}'):
        spoilt[f"a row that is {wrong}"] = with_line(text, i, wrong)
    head = json.loads(lines[0] + "]}")
    for change in ({"version": "2"}, {"version": [2]}, {"format": None}, {"data": {}}):
        new = backup._dumps({**head, **change})
        spoilt[f"a head with {change}"] = "\n".join([new[:-2] + "[", *text.split("\n")[1:]])
    spoilt["a file of nothing but NUL bytes"] = b"\x00" * 1000
    return spoilt


def refuses_in_a_sentence(run, file, problems: list, kind: str) -> None:
    """`run(path)` must raise CommandError with a sentence; anything else is a problem."""
    try:
        run(file)
    except CommandError as refusal:
        message = str(refusal)
        if not message.endswith((".", ".”")) or "Traceback" in message or len(message) < 30:
            problems.append(f"{kind}: not a sentence: {message!r}")
    except Exception as error:  # noqa: BLE001 - what this test exists to catch
        problems.append(f"{kind}: {type(error).__name__}: {str(error)[:200]}")
    else:
        problems.append(f"{kind}: imported")


def write(path, content) -> None:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")


def everything() -> dict[str, int]:
    """The rows of every table a backup fills, counted in one query."""
    tables = [model._meta.db_table for model in ALL_TABLES]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {quote(t)})" for t in tables))
        return dict(zip(tables, cursor.fetchone(), strict=True))


def a_played_club(club) -> str:
    MemberFactory.create_batch(3, club=club)
    played_history(club, matches=2, hands=3, by=CoordinatorFactory())
    return export_text()


def test_every_spoilt_backup_is_refused_by_import_club_in_a_sentence_writing_nothing(
    club, tmp_path
):
    text = a_played_club(club)
    empty_the_database()
    spoilt = spoilt_files(text)
    assert len(spoilt) > 150  # every kind of row, every field
    path = tmp_path / "club.json"
    problems: list[str] = []
    for kind, content in spoilt.items():
        write(path, content)
        refuses_in_a_sentence(lambda p: call_command("import_club", str(p)), path, problems, kind)
        if any(everything().values()):
            problems.append(f"{kind}: wrote rows")
            empty_the_database()
    assert problems == [], "\n".join(problems)
    # The good file itself imports (so each refusal above was the spoiling's).
    write(path, text)
    call_command("import_club", str(path))


def forget_the_evening(club) -> None:
    with scope(club=club):
        MatchResult.objects.all().delete()
        Hand.objects.all().delete()
        Chair.objects.all().delete()
        Match.objects.all().delete()
        Attendance.objects.all().delete()
        Session.objects.all().delete()


# A hall laptop's file may hold rows this installation does not keep: they stay on the
# laptop, and the evening comes without them (docs/backups.md).
BROUGHT_WITHOUT_IT = {'a row that is {"model":"club.nothing","fields":{}}'}


def test_every_spoilt_backup_is_refused_by_import_evening_in_a_sentence_writing_nothing(
    club, tmp_path
):
    """The same files brought as a hall laptop's evening into the club, which has the
    file's members but not its evening."""
    text = a_played_club(club)
    forget_the_evening(club)
    before = everything()
    path = tmp_path / "laptop.json"
    problems: list[str] = []

    def bring(p):
        call_command("import_evening", str(p), "--club", club.slug)

    for kind, content in spoilt_files(text).items():
        if kind in BROUGHT_WITHOUT_IT:
            continue
        write(path, content)
        refuses_in_a_sentence(bring, path, problems, kind)
        if everything() != before:
            problems.append(f"{kind}: wrote rows")
            forget_the_evening(club)
    assert problems == [], "\n".join(problems)
    # A date the checks take in another spelling is read the same way by the evening's
    # own steps.
    write(path, text.replace('"date":"2020-01-06"', '"date":"2020-1-6"'))
    bring(path)
    with scope(club=club):
        assert Session.objects.get().date == datetime.date(2020, 1, 6)
