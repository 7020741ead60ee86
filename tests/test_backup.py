"""Backups: export_club writes the whole club to one versioned JSON file; import_club
restores it into an empty database with nothing lost; coordinators download it from the
settings page."""

import json
from unittest import mock

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.core.management.color import no_style
from django.db import connection
from django.urls import reverse

from club import backup
from club.demo import COORDINATOR_LOGIN, MEMBER_LOGIN, load_demo
from club.models import Attendance, Club, Member, Session
from games.models import Match
from scoring.corrections import correct_hand
from scoring.models import Correction
from scoring.recording import Win
from scoring.results import MatchResult

ALL_TABLES = [apps.get_model(label) for label in backup.MODELS] + [MatchResult]


def demo_club_with_a_correction() -> Correction:
    load_demo()
    boss = get_user_model().objects.get(username=COORDINATOR_LOGIN[0])
    match = Match.objects.filter(hands__total__lt=500).order_by("pk").first()
    hand = match.live_hands().filter(winner__isnull=False, total__lt=500).last()
    change = Win(hand.winner, hand.won_by, hand.discarder, hand.total + 2)
    return correct_hand(match, hand.number, change, "Miscounted the pungs", by=boss)


def snapshot() -> dict:
    """Every row of every table a backup covers, as the database holds it. Group and
    match-result ids are left out: groups go by name, and results are rebuilt."""
    rows = {}
    for model in ALL_TABLES:
        values = list(model._default_manager.order_by("pk").values())
        if model._meta.label_lower in ("auth.group", "scoring.matchresult"):
            for row in values:
                row.pop("id")
                row.pop("best_hand_id", None)
        rows[model._meta.label_lower] = values
    User = get_user_model()
    rows["groups of users"] = sorted(
        User.groups.through.objects.values_list("user_id", "group__name")
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


def export_text() -> str:
    return backup.to_json(backup.export_club())


def without_time_of_export(text: str) -> dict:
    data = json.loads(text)
    data.pop("exported_at")
    return data


def test_round_trip_of_the_demo_club_loses_nothing(db, tmp_path):
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
    assert envelope["format"] == "mahjong-club-backup" and envelope["version"] == 1
    assert {row["model"] for row in envelope["data"]} == set(backup.MODELS) - {
        "club.keepapart",  # the demo keeps no one apart
        "scoring.kongchips",  # nor records kong chips
    }
    assert snapshot() == before  # every row, to the microsecond, results rebuilt alike
    second = export_text()
    assert without_time_of_export(second) == without_time_of_export(first)
    restored = Correction.objects.get(pk=correction.pk)
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
    small_club()
    text = export_text()
    highest = Member.objects.order_by("-pk").first().pk
    empty_the_database()
    backup.import_club(backup.read_json(text))
    club = Member.objects.first().club
    newcomer = Member.objects.create(club=club, name="Newcomer Nina", table_name="Nina")
    assert newcomer.pk > highest


def test_import_refuses_a_database_that_is_not_empty(db, tmp_path):
    small_club()
    path = tmp_path / "club.json"
    path.write_text(export_text(), encoding="utf-8")
    members = Member.objects.count()
    with pytest.raises(CommandError, match="only into an empty database.*members"):
        call_command("import_club", str(path))
    assert Member.objects.count() == members


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": "something-else"}, "not a club backup"),
        ({"version": 2}, "version 2, but this app reads version 1 only"),
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
    client.get("/")  # someone opens the app before the import: an untouched club appears
    assert Club.objects.get().name == "Our Mahjong Club"
    backup.import_club(data)
    assert snapshot() == before


def test_a_club_whose_settings_were_changed_is_not_replaced(db):
    small_club()
    data = json.loads(export_text())
    empty_the_database()
    Club.objects.create(name="Our Mahjong Club", show_dice=True)
    with pytest.raises(backup.BackupRefused, match="only into an empty database.*clubs"):
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
    with pytest.raises(backup.BackupRefused, match="nothing was imported"):
        backup.import_club(data)
    assert not get_user_model().objects.exists() and not Member.objects.exists()


def test_coordinator_downloads_the_backup_from_the_settings_page(coordinator_client, club):
    page = coordinator_client.get(reverse("club_settings")).content.decode()
    assert reverse("club_backup") in page and "Download a backup of the club" in page

    response = coordinator_client.get(reverse("club_backup"))
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="mahjong-club-backup-')
    data = json.loads(response.content)
    assert data["format"] == backup.FORMAT
    assert any(row["model"] == "club.club" for row in data["data"])


def test_only_coordinators_can_download_the_backup(client, member_client, club):
    url = reverse("club_backup")
    anonymous = client.__class__().get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert member_client.get(url).status_code == 403


@pytest.mark.django_db(transaction=True)
def test_a_check_in_made_during_the_export_is_wholly_in_the_file_or_not_at_all():
    """Someone walks in while the backup is being written: the file must not hold their
    check-in without the member it belongs to (it would not import)."""
    import threading

    from django.db import connections

    from tests.factories import ClubFactory, MemberFactory, SessionFactory

    club = ClubFactory()
    MemberFactory(club=club)
    session = SessionFactory(club=club)

    def walk_in():
        try:
            late = Member.objects.create(club=club, name="Late Larry", table_name="Larry")
            Attendance.objects.create(session=session, member=late)
        finally:
            connections.close_all()

    serialize = backup.serializers.serialize
    walker = threading.Thread(target=walk_in)

    def serialize_meanwhile(format, rows, **options):
        if rows.model is Session and not walker.is_alive():
            walker.start()  # members are read already; sessions and attendance not yet
            walker.join(timeout=2)  # SQLite: waits for the export's lock, so carry on
        return serialize(format, rows, **options)

    with mock.patch.object(backup.serializers, "serialize", serialize_meanwhile):
        data = backup.export_club()["data"]
    walker.join()

    members = {row["pk"] for row in data if row["model"] == "club.member"}
    checked_in = {row["fields"]["member"] for row in data if row["model"] == "club.attendance"}
    assert checked_in <= members
