"""Backups per club: export_club writes one club (and no other's rows or logins) to one
versioned JSON file; import_club brings it into an installation, which may host other clubs,
with new ids and nothing lost; coordinators download their club's from the settings page."""

import dataclasses
import datetime
import io
import json
from unittest import mock

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.core.management.color import no_style
from django.db import connection, transaction
from django.urls import reverse

from club.models import Attendance, Club, Member, Session
from club.privacy.erasure import erase
from club.scoping import scope
from front import backup
from games.models import Match, TableKey
from games.start import start_play
from scoring.corrections import correct_hand
from scoring.models import Correction, Hand, KongChips
from scoring.recording import Win, save_draw, save_kong
from scoring.results import MatchResult
from tests.demo_club import COORDINATOR_LOGIN, MEMBER_LOGIN
from tests.games.helpers import seated_session

ALL_TABLES = [apps.get_model(label) for label in backup.MODELS] + [MatchResult]


def demo_club_with_a_correction() -> Correction:
    """A correction made in the demo club (the `demo_club` fixture)."""
    boss = get_user_model().objects.get(username=COORDINATOR_LOGIN[0])
    match = Match.objects.filter(hands__total__lt=500).order_by("pk").first()
    hand = match.live_hands().filter(winner__isnull=False, total__lt=500).last()
    change = Win(hand.winner, hand.won_by, hand.discarder, hand.total + 2)
    correction = correct_hand(match, hand.number, change, "Miscounted the pungs", by=boss)
    # A member who played and left, their details erased: the round trip keeps the erasure.
    leaver = Member.objects.filter(chairs__isnull=False, user__isnull=True).first()
    leaver.retire()
    erase(leaver, by=boss)
    return correction


def _rows_of(model, club):
    """`model`'s rows as the database holds them: all, or `club`'s only (its scope, its
    logins and their groups)."""
    label = model._meta.label_lower
    if club is None:
        return model._default_manager.all()
    with scope(club=club):
        logins = backup.club_logins(club)
        if label == "auth.user":
            return list(logins.order_by("pk").values())
        if label == "auth.group":
            return list(model.objects.filter(user__in=logins).distinct().order_by("pk").values())
        if label == "club.club":
            return list(model.objects.filter(pk=club.pk).values())
        return list(model._default_manager.order_by("pk").values())


def snapshot(club=None) -> dict:
    """Every row of every table a backup covers (of `club` only, if given), as the database
    holds it, with each id replaced by the row's place among its table's rows (in id order),
    in the row and wherever another row refers to it: an import gives new ids, in the same
    order. Groups go by name, and results (rebuilt, in another order) by their chair; table
    keys' codes and seating drafts' one-step undo are left out (an import draws new codes
    and drops the undo), and so is whether one club is at its installation's root."""
    places: dict[str, dict[int, int]] = {}
    rows = {}
    for model in ALL_TABLES:
        label = model._meta.label_lower
        values = _rows_of(model, club)
        values = list(values if club is not None else values.order_by("pk").values())
        places[label] = {row["id"]: place for place, row in enumerate(values)}
        for row in values:
            for field in model._meta.concrete_fields:
                target = field.related_model
                if field.primary_key or target is None or row[field.attname] is None:
                    continue
                row[field.attname] = places[target._meta.label_lower][row[field.attname]]
            row["id"] = (
                None if label in ("auth.group", "scoring.matchresult") else places[label][row["id"]]
            )
            if label == "games.tablekey":
                row["code"] = None  # drawn afresh on import (backup.made_for_here)
            if label == "club.seatingplan":
                row["undo"] = None  # dropped on import: it names the other copy's ids
            if label == "club.club" and club is not None:
                row["served_at_root"] = None  # the installation's to say, not the club's
        if label == "scoring.matchresult":
            values.sort(key=lambda row: row["chair_id"])
        rows[label] = values
    User = get_user_model()
    links = User.groups.through.objects.values_list("user_id", "group__name")
    rows["groups of users"] = sorted(
        (places["auth.user"][user], name) for user, name in links if user in places["auth.user"]
    )
    return rows


def empty_the_database() -> None:
    """As a new database: no rows, and the id counters back at the start."""
    tables = [model._meta.db_table for model in ALL_TABLES]
    tables += [
        get_user_model().groups.through._meta.db_table,
        get_user_model().user_permissions.through._meta.db_table,
        apps.get_model("auth.group").permissions.through._meta.db_table,
    ]
    # PostgreSQL checks foreign keys at commit and cannot empty a table with checks pending:
    # run them now (the test's transaction never commits).
    connection.check_constraints()
    connection.ops.execute_sql_flush(
        connection.ops.sql_flush(no_style(), tables, reset_sequences=True, allow_cascade=True)
    )


def export_text(club=None) -> str:
    return backup.to_json(backup.export_club(club or Club.objects.get()))


def renumbered(text: str) -> dict:
    """A backup's rows with each id replaced by the row's place among its model's rows, and
    the time of export left out: two backups of the same club read alike, whatever ids the
    installations gave."""
    data = json.loads(text)
    data.pop("exported_at")
    places: dict[str, dict[int, int]] = {}
    for row in data["data"]:
        if "pk" in row:
            ids = places.setdefault(row["model"], {})
            ids[row["pk"]] = len(ids)
    for row in data["data"]:
        model = apps.get_model(row["model"])
        if "pk" in row:
            row["pk"] = places[row["model"]][row["pk"]]
        for name, value in row["fields"].items():
            field = model._meta.get_field(name)
            if field.is_relation and isinstance(value, int):
                row["fields"][name] = places[field.related_model._meta.label_lower][value]
    return data


def test_round_trip_of_the_demo_club_loses_nothing(demo_club, tmp_path):
    correction = demo_club_with_a_correction()
    before = snapshot()
    assert before["scoring.correction"] and before["scoring.matchresult"]
    path = tmp_path / "club.json"
    call_command("export_club", "--output", str(path))
    first = path.read_text(encoding="utf-8")

    empty_the_database()
    assert not Member.objects.exists() and not MatchResult.objects.exists()
    call_command("import_club", str(path))

    envelope = json.loads(first)
    assert envelope["format"] == "mahjong-club-backup" and envelope["version"] == 2
    assert {row["model"] for row in envelope["data"]} == set(backup.MODELS) - {
        "auth.group",  # no login of the demo must change its password
        "club.keepapart",  # the demo keeps no one apart
        "scoring.kongchips",  # nor records kong chips
        "games.tablekey",  # nor records at a table with its card
        "club.awayperiod",  # nor has anyone away for a while
    }
    assert snapshot() == before  # every row, to the microsecond, results rebuilt alike
    second = export_text()
    assert renumbered(second) == renumbered(first)
    restored = Correction.objects.get(reason=correction.reason)
    assert restored.made_by.username == COORDINATOR_LOGIN[0]
    assert restored.before == correction.before and restored.after == correction.after


def test_logins_work_after_moving_house_with_their_roles(db, client):
    from club.roles import make_coordinator
    from tests.factories import ClubFactory, MemberFactory

    club = ClubFactory()
    User = get_user_model()
    make_coordinator(User.objects.create_user(COORDINATOR_LOGIN[0], password=COORDINATOR_LOGIN[1]))
    MemberFactory(
        club=club, user=User.objects.create_user(MEMBER_LOGIN[0], password=MEMBER_LOGIN[1])
    )
    text = export_text()
    empty_the_database()
    backup.import_club(backup.read_json(text))

    for (username, password), settings_page in [(COORDINATOR_LOGIN, 200), (MEMBER_LOGIN, 403)]:
        client.post(reverse("logout"))
        login = client.post(reverse("login"), {"username": username, "password": password})
        assert login.status_code == 302, username
        assert client.get(reverse("club_settings")).status_code == settings_page  # same role


def small_club() -> None:
    from tests.factories import ClubFactory, CoordinatorFactory, MemberFactory

    club = ClubFactory()
    MemberFactory.create_batch(3, club=club)
    CoordinatorFactory()


def test_new_rows_after_an_import_get_free_ids(db):
    """The import's ids come from each table's own counter (PostgreSQL's sequences): the
    next member added gets the id after them, not one of theirs."""
    small_club()
    text = export_text()
    empty_the_database()
    backup.import_club(backup.read_json(text))
    club = Member.objects.first().club
    highest = Member.objects.order_by("-pk").first().pk
    newcomer = Member.objects.create(club=club, name="Newcomer Nina", table_name="Nina")
    assert newcomer.pk > highest


def test_a_club_is_not_imported_at_an_address_another_club_has(db, tmp_path, capsys):
    """Importing a club beside itself: its address is taken, and the refusal says which and
    how to import it under another; --slug does."""
    small_club()
    club = Club.objects.get()
    path = tmp_path / "club.json"
    path.write_text(export_text(), encoding="utf-8")
    before = snapshot()
    with pytest.raises(CommandError) as refusal:
        call_command("import_club", str(path))
    assert f"already has a club at the address “{club.slug}”" in str(refusal.value)
    assert "--slug NEW" in str(refusal.value) and "Nothing was imported" in str(refusal.value)
    assert snapshot() == before

    with pytest.raises(CommandError, match="“Not An Address” cannot be a club's address"):
        call_command("import_club", str(path), "--slug", "Not An Address")
    call_command("import_club", str(path), "--slug", "second-home")
    assert "at the address “second-home” (/c/second-home/)" in capsys.readouterr().out
    copy = Club.objects.get(slug="second-home")
    assert snapshot(copy)["club.member"] == snapshot(club)["club.member"]


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": "something-else"}, "not a club backup"),
        ({"version": 3}, "version 3, but this app reads versions 1 and 2 only"),
        ({"data": "rows"}, "no list of rows"),
    ],
)
def test_import_refuses_a_wrong_format_or_version(db, change, message):
    small_club()
    data = json.loads(export_text())
    data.update(change)
    empty_the_database()
    with pytest.raises(backup.BackupRefused, match=message):
        backup.import_club(data)
    assert not Member.objects.exists()


def test_a_club_made_by_opening_the_app_first_is_replaced_by_the_import(db, client):
    small_club()
    data = json.loads(export_text())
    before = snapshot()
    empty_the_database()
    # The app made its club before the import (the first page opened where an operator's
    # login was made first): an untouched club.
    Club.objects.current()
    assert Club.objects.get().name == "Our Mahjong Club"
    backup.import_club(data)
    assert snapshot() == before


def test_a_club_whose_settings_were_changed_is_not_replaced(db):
    from club.models import FIRST_CLUB_NAME, FIRST_CLUB_SLUG

    small_club()
    Club.objects.update(slug=FIRST_CLUB_SLUG)
    data = json.loads(export_text())
    empty_the_database()
    Club.objects.create(name=FIRST_CLUB_NAME, slug=FIRST_CLUB_SLUG, show_dice=True)
    with pytest.raises(backup.BackupRefused, match=f"a club at the address “{FIRST_CLUB_SLUG}”"):
        backup.import_club(data)
    assert Club.objects.get().show_dice


def test_import_refuses_rows_it_does_not_restore(db):
    data = {"format": backup.FORMAT, "version": 1, "data": [{"model": "admin.logentry"}]}
    with pytest.raises(backup.BackupRefused, match="admin.logentry"):
        backup.import_club(data)


def test_a_file_that_is_not_json_is_refused_by_name(db, tmp_path):
    path = tmp_path / "club.json"
    path.write_text("members,name\n", encoding="utf-8")
    with pytest.raises(CommandError, match="not a club backup: it is not JSON"):
        call_command("import_club", str(path))


def test_a_bad_row_half_way_imports_nothing(db):
    small_club()
    data = json.loads(export_text())
    member = next(row for row in data["data"] if row["model"] == "club.member")
    member["fields"]["club"] = 999999  # a member of a club that is not there
    empty_the_database()
    with pytest.raises(backup.BackupRefused, match=r"\(member \d+\): its “club” refers to club"):
        backup.import_club(data)
    assert not get_user_model().objects.exists() and not Member.objects.exists()


def test_coordinator_downloads_the_backup_from_the_settings_page(coordinator_client, club):
    page = coordinator_client.get(reverse("club_settings")).content.decode()
    assert reverse("club_backup") in page and "Download a backup of the club" in page

    response = coordinator_client.get(reverse("club_backup"))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="mahjong-club-backup-')
    # Every login's password hash is in the file: no browser or proxy may keep a copy.
    assert response["Cache-Control"] == "no-store"
    data = json.loads(b"".join(response.streaming_content))
    assert data["format"] == backup.FORMAT
    assert any(row["model"] == "club.club" for row in data["data"])


def test_only_coordinators_can_download_the_backup(client, member_client, club):
    url = reverse("club_backup")
    anonymous = client.__class__().get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert member_client.get(url).status_code == 403


def played_history(club, matches: int, hands: int, by=None) -> list[Match]:
    """`matches` finished matches of an old session, `hands` won hands each (recorded by
    `by`), written straight in: a long-lived club's history, quickly."""
    from games.models import Chair
    from scoring.models import Hand
    from tests.factories import MemberFactory

    players = MemberFactory.create_batch(4, club=club)
    week = datetime.timedelta(weeks=Session.objects.count())
    session = Session.objects.create(
        club=club, date=datetime.date(2020, 1, 6) + week, status="closed"
    )
    Attendance.objects.bulk_create(Attendance(session=session, member=m) for m in players)
    played = Match.objects.bulk_create(
        Match(
            session=session,
            table_number=n + 1,
            rules="classical",
            starting_tally=2000,
            status="finished",
            ending="flow",
        )
        for n in range(matches)
    )
    Chair.objects.bulk_create(
        Chair(match=match, number=n, member=member)
        for match in played
        for n, member in enumerate(players)
    )
    rows = []
    for match in played:
        for number in range(1, hands + 1):
            hand = Hand(
                match=match,
                number=number,
                winner=number % 4,
                won_by="wall",
                total=20,
                recorded_by=by,
            )
            hand.payments = [60 if chair == number % 4 else -20 for chair in range(4)]
            rows.append(hand)
    Hand.objects.bulk_create(rows, batch_size=500)
    return played


def export_queries() -> int:
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        backup.write_backup(io.StringIO(), Club.objects.get())
    return len(captured)


def test_an_export_makes_the_same_queries_however_much_the_club_has_played(db, club):
    """A fixed number of queries per table, never one per row (a hand's recorded_by is
    written as a username, which cost a query per hand)."""
    from tests.factories import CoordinatorFactory

    boss = CoordinatorFactory()
    played_history(club, matches=1, hands=2, by=boss)
    small = export_queries()
    played_history(club, matches=30, hands=20, by=CoordinatorFactory())
    CoordinatorFactory.create_batch(5)
    assert export_queries() == small


@pytest.mark.django_db(transaction=True)
def test_tables_record_hands_while_a_backup_is_written_and_the_file_is_one_moment(club):
    """Tonight's tables save hands, and someone walks in, while the export is half-way
    through the hands: every save goes through at once (the export holds no write lock;
    on SQLite it held one for the whole run, and saves failed with "database is locked"),
    and the file is the club as it was at one moment, before those saves."""
    from games.start import start_play
    from scoring.recording import Win, record_win
    from tests.games.helpers import seated_session
    from tests.threads import at_once

    tonight = seated_session(club, sizes=(4, 4, 4))
    tables = start_play(tonight)
    played_history(club, matches=20, hands=40)
    before = {label: apps.get_model(label)._default_manager.count() for label in backup.MODELS}

    def walk_in():
        with transaction.atomic():
            late = Member.objects.create(club=club, name="Late Larry", table_name="Larry")
            return Attendance.objects.create(session=tonight, member=late)

    saves = [lambda m=m: record_win(m, 1, Win(0, "wall", None, 40)) for m in tables]
    saved = []
    dumps = backup._dumps

    def tables_record_meanwhile(row):
        if row.get("model") == "scoring.hand" and not saved:
            saved.extend(at_once([*saves, walk_in], timeout=60))
        return dumps(row)

    text = io.StringIO()
    with mock.patch.object(backup.export, "_dumps", tables_record_meanwhile):
        backup.write_backup(text, club)

    assert not [result for result in saved if isinstance(result, Exception)], saved
    assert Hand.objects.count() == before["scoring.hand"] + len(tables)  # all saved
    data = json.loads(text.getvalue())["data"]
    counts = {label: 0 for label in backup.MODELS}
    for row in data:
        counts[row["model"]] += 1
    assert counts == before  # the club as it was before the saves, nothing more or less
    ids = {label: {row.get("pk") for row in data if row["model"] == label} for label in counts}
    for row in data:
        if row["model"] in ("scoring.hand", "games.chair"):
            assert row["fields"]["match"] in ids["games.match"]
        if row["model"] in ("games.chair", "club.attendance"):
            assert row["fields"]["member"] in ids["club.member"]


def a_small_backup(club) -> str:
    """A small club with a history, its backup's text, and then an empty database."""
    from tests.factories import CoordinatorFactory, MemberFactory

    MemberFactory.create_batch(3, club=club)
    played_history(club, matches=2, hands=3, by=CoordinatorFactory())
    text = export_text()
    empty_the_database()
    return text


def line_of(text: str, model: str, nth: int = 0) -> int:
    """The index of the `nth` line holding a row of `model`."""
    return [i for i, line in enumerate(text.split("\n")) if f'"model":"{model}"' in line][nth]


def change_line(text: str, model: str, change) -> str:
    lines = text.split("\n")
    i = line_of(text, model)
    comma = lines[i].endswith(",")
    row = json.loads(lines[i].rstrip(","))
    change(row["fields"])
    lines[i] = backup._dumps(row) + ("," if comma else "")
    return "\n".join(lines)


def cut_in_a_row(text: str) -> str:
    i = line_of(text, "scoring.hand", 2)
    lines = text.split("\n")
    return "\n".join(lines[:i]) + "\n" + lines[i][:25]


def cut_after_a_row(text: str) -> str:
    return "\n".join(text.split("\n")[: line_of(text, "scoring.hand", 2) + 1]) + "\n"


def no_rows(text: str) -> str:
    return text.split("\n")[0] + "\n]}\n"


def garbage_in_a_row(text: str) -> bytes:
    lines = text.encode("utf-8").split(b"\n")
    lines[line_of(text, "games.chair")] = b"\x89PNG\r\x1a\xff\xfe\x00\x01,"
    return b"\n".join(lines)


def a_row_that_is_a_list(text: str) -> str:
    lines = text.split("\n")
    lines.insert(line_of(text, "club.member"), "[1,2],")
    return "\n".join(lines)


MALFORMED = {
    "not JSON": (lambda text: "members,name\nAnn,1\n", "not a club backup: it is not JSON"),
    "an empty file": (lambda text: "", "This file is empty"),
    "binary garbage": (
        lambda text: bytes(range(256)) * 4,
        "not a club backup: it is not JSON",
    ),
    "a line cut short": (cut_in_a_row, r"stops in the middle of line \d+: the file was cut short"),
    "the file cut short": (cut_after_a_row, r"ends at line \d+ before its last line"),
    "another format": (
        lambda text: text.replace(backup.FORMAT, "photo-album", 1),
        "not a club backup \\(its format should be",
    ),
    "another version": (
        lambda text: text.replace('"version":2', '"version":7', 1),
        "version 7, but this app reads versions 1 and 2 only",
    ),
    "a row that is not a row": (a_row_that_is_a_list, r"Line \d+ of this backup is not a row"),
    "text where a number goes": (
        lambda text: change_line(text, "scoring.hand", lambda f: f.update(total="lots")),
        r"Line \d+ of this backup \(hand \d+\): its “total” is wrong: “lots” value must be an",
    ),
    "a number too big for the database": (
        lambda text: change_line(text, "scoring.hand", lambda f: f.update(total=2**63)),
        r"\(hand \d+\): its “total” is wrong: Ensure this value is less than or equal to",
    ),
    "a list where a name goes": (
        lambda text: change_line(text, "club.member", lambda f: f.update(name=["Ann"])),
        r"\(member \d+\): its “name” should be text",
    ),
    "a missing field": (
        lambda text: change_line(text, "scoring.hand", lambda f: f.pop("number")),
        r"\(hand \d+\) has no “number”",
    ),
    "a field no model has": (
        lambda text: change_line(text, "club.session", lambda f: f.update(weather="rain")),
        r"\(session \d+\) has a field “weather” that a session does not have",
    ),
    "a row referring to a missing row": (
        lambda text: change_line(text, "games.chair", lambda f: f.update(member=999999)),
        r"\(chair \d+\): its “member” refers to member 999999, which is not among the rows",
    ),
    "a login that is not there": (
        lambda text: change_line(text, "scoring.hand", lambda f: f.update(recorded_by=["nobody"])),
        r"\(hand \d+\): its “recorded_by” names the login \[\"nobody\"\]",
    ),
    "binary in a row": (garbage_in_a_row, r"Line \d+ of this backup is not text"),
    "a NUL character": (
        lambda text: change_line(text, "club.member", lambda f: f.update(name="Ann\x00")),
        r"\(member \d+\): its “name” holds a NUL character",
    ),
    "no club in it": (no_rows, "This backup has no club in it"),
}


@pytest.mark.parametrize("kind", MALFORMED)
def test_a_malformed_backup_is_refused_saying_what_is_wrong_and_imports_nothing(
    db, club, tmp_path, kind
):
    spoil, message = MALFORMED[kind]
    spoilt = spoil(a_small_backup(club))
    path = tmp_path / "club.json"
    if isinstance(spoilt, bytes):
        path.write_bytes(spoilt)
    else:
        path.write_text(spoilt, encoding="utf-8")
    with pytest.raises(CommandError, match=message) as refusal:
        call_command("import_club", str(path))
    assert "Nothing was imported" in str(refusal.value)
    assert "Traceback" not in str(refusal.value)
    assert not any(model._default_manager.exists() for model in ALL_TABLES[1:])


def test_a_line_longer_than_any_backup_has_is_refused_without_reading_it_whole(
    db, club, tmp_path, monkeypatch
):
    text = a_small_backup(club)
    monkeypatch.setattr(backup.reading, "MAX_LINE", 200)  # a member's line is shorter
    path = tmp_path / "club.json"
    path.write_text(change_line(text, "club.member", lambda f: f.update(notes="x" * 300)))
    with pytest.raises(CommandError, match=r"Line \d+ of this file is longer than any line"):
        call_command("import_club", str(path))


def test_a_repeated_row_id_is_refused_rather_than_replacing_the_first_row(db, club, tmp_path):
    text = a_small_backup(club)
    lines = text.split("\n")
    i = line_of(text, "club.member")
    twin = json.loads(lines[i].rstrip(","))
    twin["fields"]["name"] = "Someone Else"
    lines.insert(i + 1, backup._dumps(twin) + ",")
    path = tmp_path / "club.json"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(
        CommandError,
        match=rf"Line {i + 2} of this backup \(member {twin['pk']}\) repeats the id of an earlier",
    ):
        call_command("import_club", str(path))
    assert not Member.objects.exists()


def test_the_summary_counts_the_rows_restored(db, club, tmp_path, capsys):
    path = tmp_path / "club.json"
    path.write_text(a_small_backup(club), encoding="utf-8")
    call_command("import_club", str(path))
    assert f"{Member.objects.count()} members" in capsys.readouterr().out
    assert f"{Hand.objects.count()} hands" in capsys.readouterr().out or Hand.objects.count() == 6


def test_a_backup_written_on_one_line_still_imports(db, club):
    """Version 1 files are JSON; one written without the line breaks (by another tool)
    restores the same club."""
    text = a_small_backup(club)
    compact = json.dumps(json.loads(text))
    backup.import_club(io.BytesIO(compact.encode()))
    assert Hand.objects.count() == 6 and Member.objects.count() == 7


def test_the_streamed_file_is_byte_for_byte_the_version_1_layout(db, club):
    """The export now writes a row at a time; the file is what version 1 always was (the
    envelope, then one row a line), so older backups and newer ones read alike."""
    from tests.factories import CoordinatorFactory

    played_history(club, matches=2, hands=3, by=CoordinatorFactory())
    streamed = io.StringIO()
    backup.write_backup(streamed, club)
    assert backup.to_json(json.loads(streamed.getvalue())) == streamed.getvalue()


def members_reversed(text: str) -> list[str]:
    """The backup's lines with the members' rows in descending id order (as another tool
    might write them): the check keeps ids in a set then rather than a sorted array."""
    lines = text.split("\n")
    at = [i for i, line in enumerate(lines) if '"model":"club.member"' in line]
    rows = [lines[i].rstrip(",") for i in at][::-1]
    for i, row in zip(at, rows, strict=True):
        lines[i] = row + ","
    return lines


def test_rows_in_another_order_still_import_and_a_repeated_id_among_them_is_refused(
    db, club, tmp_path
):
    lines = members_reversed(a_small_backup(club))
    path = tmp_path / "club.json"
    path.write_text("\n".join(lines), encoding="utf-8")
    backup.import_club(path)
    assert Member.objects.count() == 7 and Hand.objects.count() == 6

    empty_the_database()
    last = max(i for i, line in enumerate(lines) if '"model":"club.member"' in line)
    lines.insert(last + 1, lines[line_of("\n".join(lines), "club.member", 1)])
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(backup.BackupRefused, match=rf"Line {last + 2} .* repeats the id"):
        backup.import_club(path)
    assert not Member.objects.exists()


# --- Per club: two clubs on one installation -----------------------------------------------


def a_club_that_has_played(name: str, shared_login=None):
    """A club with everything a backup holds: members with logins (one who must change their
    password), a coordinator, a pair kept apart, an evening seated and played (hands, kong
    chips, a correction) and an old evening's history; `shared_login` is a member here too."""
    from club.accounts import set_temporary_password
    from club.models import KeepApart
    from club.privacy.erasure import erase
    from club.roles import make_coordinator
    from club.week.models import AwayPeriod, SessionReply
    from games.start import start_play
    from scoring.recording import record_kong, record_win
    from scoring.standings import rebuild_results
    from tests.factories import ClubFactory, MemberFactory, UserFactory
    from tests.games.helpers import seated_session

    club = ClubFactory(name=name, rule_set="u3a")
    boss = UserFactory(username=f"{club.slug}-boss")
    make_coordinator(boss, club)
    logins = [UserFactory(username=f"{club.slug}-{n}") for n in range(2)]
    members = [MemberFactory(club=club, user=login) for login in logins]
    set_temporary_password(logins[1])
    if shared_login is not None:
        MemberFactory(club=club, user=shared_login)
    KeepApart.objects.create(club=club, member_a=members[0], member_b=members[1], reason="Tiffs")
    # A leaver whose details were erased: the erasure list travels with the club.
    erase(MemberFactory(club=club, name=f"{name} leaver", is_active=False), by=boss)
    tonight = seated_session(club, sizes=(4,), date=datetime.date(2026, 3, 5))
    (match,) = start_play(tonight)
    tonight.table_keys = TableKey.objects.for_tables(tonight, [1], by=boss)
    record_win(match, 1, Win(0, "wall", None, 10), by=boss)
    record_kong(match, 2, 1, "concealed", by=boss)
    # Recorded on the table's tablet (its card's key) by nobody's login.
    record_win(match, 2, Win(1, "discard", 2, 8), table_key=tonight.table_keys[1])
    correct_hand(match, 1, Win(0, "wall", None, 12), "Miscounted", by=boss)
    SessionReply.objects.create(
        session=tonight, member=members[0], answer="not_coming", note="Away", answered_by=boss
    )
    AwayPeriod.objects.create(member=members[0], first=tonight.date, last=tonight.date)
    played_history(club, matches=2, hands=3, by=boss)
    rebuild_results(Match.objects.filter(club=club))  # the history was written straight in
    return club


def rows_of_club(club) -> dict[str, set]:
    """The ids of `club`'s rows, table by table, read through the club's scope."""
    with scope(club=club):
        ids = {
            label: set(apps.get_model(label)._default_manager.values_list("pk", flat=True))
            for label in backup.MODELS
            if label not in ("auth.user", "auth.group", "club.club")
        }
    ids["club.club"] = {club.pk}
    return ids


def test_a_clubs_backup_holds_its_own_rows_and_logins_and_nothing_of_another_club(db):

    shared = get_user_model().objects.create_user("shared-sam", password="x-long-password")
    a = a_club_that_has_played("Thursday Club", shared_login=shared)
    b = a_club_that_has_played("Monday Club", shared_login=shared)
    operator = get_user_model().objects.create_superuser("operator", password="x-long-pass")
    with scope(club=b):
        Hand.objects.filter(number=1).update(voided_by=operator)  # an operator's hand in B
    mine, theirs = rows_of_club(a), rows_of_club(b)

    rows = json.loads(export_text(a))["data"]
    assert {row["model"] for row in rows} == set(backup.MODELS)  # every table is in it
    for row in rows:
        label = row["model"]
        if label in ("auth.user", "auth.group"):
            continue
        assert row["pk"] in mine[label] and row["pk"] not in theirs[label], row
        assert row["fields"].get("club", a.pk) == a.pk, row
    for label in mine:
        assert {row["pk"] for row in rows if row["model"] == label} == mine[label], label
    logins = {row["fields"]["username"] for row in rows if row["model"] == "auth.user"}
    assert logins == {f"{a.slug}-boss", f"{a.slug}-0", f"{a.slug}-1", "shared-sam"}
    assert all(row["fields"]["password"] for row in rows if row["model"] == "auth.user")
    assert [row["fields"]["name"] for row in rows if row["model"] == "auth.group"] == [
        "Must change password"
    ]
    names = json.dumps(rows)
    assert "operator" not in names and f"{b.slug}-" not in names


def test_a_login_that_is_also_another_clubs_comes_without_its_password_hash(
    db, client, tmp_path, capsys
):
    """Club A's file goes to A's coordinator: the hashes of logins that are also B's (a
    member of both; A's coordinator who coordinates B too) are not in it. Back on the
    installation it came from they are still known as the same logins; anywhere else they
    come without a usable password, and the import says so."""
    from club.roles import make_coordinator
    from tests.factories import PASSWORD

    User = get_user_model()
    shared = User.objects.create_user("shared-sam", password="x-long-password")
    a = a_club_that_has_played("Thursday Club", shared_login=shared)
    b = a_club_that_has_played("Monday Club", shared_login=shared)
    boss = User.objects.get(username=f"{a.slug}-boss")
    make_coordinator(boss, b)
    path = tmp_path / "a.json"
    call_command("export_club", "--club", a.slug, "--output", str(path))
    text = path.read_text()
    passwords = {
        row["fields"]["username"]: row["fields"]["password"]
        for row in json.loads(text)["data"]
        if row["model"] == "auth.user"
    }
    for login in (shared, boss):
        assert login.password not in text
        assert passwords[login.username].startswith(backup.WITHHELD)
    own = User.objects.get(username=f"{a.slug}-0")
    assert passwords[own.username] == own.password  # only A's: moving house keeps it

    # The same installation (the club comes back under another address): the same logins.
    imported = backup.import_club(path, slug="thursday-again")
    assert imported.logins_here == 4 and imported.without_password == []
    assert User.objects.filter(username__in=passwords).count() == 4

    empty_the_database()  # another installation
    call_command("import_club", str(path))
    said = capsys.readouterr().out
    assert (
        f"2 of the logins came without a password, since they are logins of other clubs too where the backup was made: {boss.username}, shared-sam."
        in said
    )  # noqa: E501
    for username in (boss.username, "shared-sam"):
        assert not User.objects.get(username=username).has_usable_password()
    login = reverse("login")
    assert (
        client.post(login, {"username": "shared-sam", "password": "x-long-password"}).status_code
        == 200
    )  # noqa: E501
    assert client.post(login, {"username": own.username, "password": PASSWORD}).status_code == 302


def test_the_settings_page_download_is_the_requests_club_only(client, db):
    from club.roles import make_coordinator

    a = a_club_that_has_played("Thursday Club")
    b = a_club_that_has_played("Monday Club")
    client.force_login(get_user_model().objects.get(username=f"{b.slug}-boss"))
    assert client.get(f"/c/{a.slug}" + reverse("club_backup")).status_code == 403
    make_coordinator(get_user_model().objects.get(username=f"{b.slug}-boss"), a)
    response = client.get(f"/c/{b.slug}" + reverse("club_backup"))
    assert f'filename="mahjong-club-backup-{b.slug}-' in response["Content-Disposition"]
    rows = json.loads(b"".join(response.streaming_content))["data"]
    clubs = [row["pk"] for row in rows if row["model"] == "club.club"]
    assert clubs == [b.pk]
    assert {row["pk"] for row in rows if row["model"] == "scoring.hand"} == rows_of_club(b)[
        "scoring.hand"
    ]


def standings_of(club) -> list:
    """What the club's leaderboard shows, every season, by names (ids are the
    installation's)."""
    from scoring import standings

    with scope(club=club):
        boards = [
            standings.leaderboard(club, season)
            for season in standings.seasons(club, datetime.date(2026, 11, 26))
        ]
        return [
            (
                board.season.key,
                board.sessions_held,
                [dataclasses.replace(row, member_id=0) for row in board.rows],
            )
            for board in boards
        ]


def test_a_club_moves_to_an_installation_hosting_another_club_with_nothing_changed(db, tmp_path):
    """Club A leaves an installation it shared with B for one that hosts C: C is untouched,
    A's every row (new ids apart), results and standings are as they were, and every table
    takes new rows afterwards (PostgreSQL: the id counters are past A's new ids)."""
    a = a_club_that_has_played("Thursday Club")
    a_club_that_has_played("Monday Club")
    path = tmp_path / "a.json"
    call_command("export_club", "--club", a.slug, "--output", str(path))
    before, board, slug = snapshot(a), standings_of(a), a.slug
    assert board and board[0][2] and before["scoring.matchresult"]

    empty_the_database()  # the third installation
    c = a_club_that_has_played("Saturday Club")
    theirs = snapshot(c)
    theirs_everything = snapshot()
    call_command("import_club", str(path))

    moved = Club.objects.get(slug=slug)
    assert snapshot(c) == theirs
    assert snapshot(moved) == before
    assert standings_of(moved) == board
    everything = snapshot()
    for label, rows in theirs_everything.items():
        if label != "groups of users":
            assert all(row in everything[label] for row in rows), label
    # Every table takes a new row after the import.
    played_history(moved, matches=1, hands=2)
    a_club_that_has_played("Sunday Club")


def test_a_login_name_another_person_has_here_is_refused(db):
    a = a_club_that_has_played("Thursday Club")
    data = json.loads(export_text(a))
    empty_the_database()
    User = get_user_model()
    User.objects.create_user(f"{a.slug.upper()}-0", password="someone-elses-password")
    User.objects.create_user(f"{a.slug}-boss", password="someone-elses-password")
    with pytest.raises(backup.BackupRefused) as refusal:
        backup.import_club(data)
    message = str(refusal.value)
    assert f"logins named “{a.slug}-0” (here “{a.slug.upper()}-0”), “{a.slug}-boss”" in message
    assert "Nothing was imported" in message
    assert not Club.objects.exists() and User.objects.count() == 2


def test_the_same_login_already_here_is_used_as_it_is(db):
    """A login with the same name and the same password hash is the same login (a copy of
    its hash is no one else's): the club's member uses it, and nothing of it changes."""
    a = a_club_that_has_played("Thursday Club")
    data = json.loads(export_text(a))
    login = next(row for row in data["data"] if row["fields"].get("username") == f"{a.slug}-0")
    empty_the_database()
    here = get_user_model().objects.create(
        username=f"{a.slug}-0", password=login["fields"]["password"], email="kept@example.org"
    )
    imported = backup.import_club(data)
    assert imported.logins_here == 1
    member = Member.objects.get(user__username=f"{a.slug}-0")
    assert member.user_id == here.pk
    here.refresh_from_db()
    assert here.email == "kept@example.org"
    assert get_user_model().objects.filter(username__startswith=a.slug).count() == 3


def as_version_1(text: str) -> dict:
    """A backup as version 1 wrote it (a whole single-club installation): no club address
    or time zone, no club key on matches, hands, kong chips or attendance, and the club's
    coordinators in the site-wide "Coordinators" group."""
    data = json.loads(text)
    data["version"] = 1
    coordinators = set()
    rows = []
    for row in data["data"]:
        fields = row["fields"]
        if row["model"] == "club.coordinator":
            coordinators.add(fields["user"][0])
            continue
        if row["model"] == "club.club":
            for name in ("slug", "time_zone", "currency_symbol"):
                fields.pop(name)
        if row["model"] in ("games.match", "scoring.hand", "scoring.kongchips", "club.attendance"):
            fields.pop("club")
        rows.append(row)
    rows.insert(0, {"model": "auth.group", "fields": {"name": "Coordinators", "permissions": []}})
    for row in rows:
        if row["model"] == "auth.user" and row["fields"]["username"] in coordinators:
            row["fields"]["groups"].append(["Coordinators"])
            row["fields"]["is_staff"] = True
    data["data"] = rows
    return data


def test_a_version_1_backup_still_imports_with_its_club_keys_and_coordinators(db):
    a = a_club_that_has_played("Thursday Club")
    Club.objects.filter(pk=a.pk).update(slug="thursday-club")  # the address from its name
    a.refresh_from_db()
    old = as_version_1(export_text(a))
    assert not any("club" in row["fields"] for row in old["data"] if row["model"] == "scoring.hand")
    before = snapshot(a)
    empty_the_database()
    a_club_that_has_played("Saturday Club")

    backup.import_club(old)
    moved = Club.objects.get(slug="thursday-club")
    assert snapshot(moved) == before  # hands' club keys, coordinators, groups and all
    assert not apps.get_model("auth.group").objects.filter(name="Coordinators").exists()
    boss = get_user_model().objects.get(username__endswith="-boss", coordinator_roles__club=moved)
    assert not boss.is_staff


def test_an_operators_login_in_a_backup_is_no_operator_of_a_shared_installation(db):
    """A self-hosted club's administrator ran their club; on a shared installation the file
    must not make them an operator of every club: they come in as the club's coordinator.
    Into a new installation (moving house) they stay the operator."""
    from club.roles import is_coordinator, make_coordinator

    a = a_club_that_has_played("Thursday Club")
    admin = get_user_model().objects.create_superuser("admin", password="x-long-password")
    make_coordinator(admin, a)
    data = json.loads(export_text(a))

    empty_the_database()
    backup.import_club(data)
    assert get_user_model().objects.get(username="admin").is_superuser

    empty_the_database()
    a_club_that_has_played("Saturday Club")
    backup.import_club(data)
    admin = get_user_model().objects.get(username="admin")
    assert not admin.is_superuser and not admin.is_staff
    assert is_coordinator(admin, Club.objects.get(slug=a.slug))


def test_every_key_of_a_backed_up_row_points_into_the_backup():
    """The whole kind of "a row refers to a table the backup leaves out" (hands recorded
    with a table key could not be imported): every foreign key of every table in the
    backup names a table that is in it too."""
    missing = [
        f"{label}.{field.name} -> {field.related_model._meta.label_lower}"
        for label in backup.MODELS
        for field in apps.get_model(label)._meta.concrete_fields
        if field.is_relation and field.related_model._meta.label_lower not in backup.MODELS
    ]
    assert missing == []


@pytest.mark.django_db
def test_hands_recorded_with_a_table_key_come_back_with_it(club):
    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4,))
    start_play(session)
    match = Match.objects.get(session=session)
    key = TableKey.objects.for_tables(session, [1])[1]
    save_draw(match, 1, table_key=key)
    save_kong(match, 2, 0, KongChips.Kind.CONCEALED, table_key=key)
    text = backup.to_json(backup.export_club(club))

    backup.import_club(io.BytesIO(text.encode()), slug="copy")
    copy = Club.objects.get(slug="copy")
    hand = Hand.objects.get(club=copy)
    chips = KongChips.objects.get(club=copy)
    assert hand.recorded_with.table_number == 1 and hand.recorded_with.club == copy
    assert chips.recorded_with == hand.recorded_with != key
    assert hand.recorded_with.code != key.code  # the old card opens nothing here


@pytest.mark.django_db
def test_a_seating_drafts_undo_is_not_brought_into_another_copy(club):
    """A draft's one-step undo names members by their ids in the backed-up copy; restored
    with new ids it would put other people (or nobody) at the tables: it is dropped, the
    draft itself comes as it was."""
    session = seated_session(club, sizes=(4,))
    plan = session.seating
    undo = {"what": "the swap", "seed": 1, "by_hand": True, "locked": [], "tables": [[1, 2]]}
    type(plan).objects.filter(pk=plan.pk).update(undo=undo)
    text = backup.to_json(backup.export_club(club))
    assert '"the swap"' in text  # the file keeps it, as the database does

    backup.import_club(io.BytesIO(text.encode()), slug="copy")
    copy = Session.objects.get(club__slug="copy").seating
    assert copy.undo is None and copy.status == plan.status
    assert copy.tables.count() == plan.tables.count()
