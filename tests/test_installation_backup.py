"""The whole installation's backup (deploy/backup.sh, compose's `backup` service): run on
the test database (SQLite's backup API, or pg_dump on PostgreSQL), restored into a fresh
database, every row of every table is the same; old backups are rotated out; a backup or a
restore that fails says so and changes nothing."""

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
from django.db import connection

from club.models import Club
from scoring.models import Hand
from tests.faults.server import database_url
from tests.installation_backup import (
    SCRIPT,
    backup_script,
    contents,
    fresh_database,
    is_postgresql,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_backup_restored_into_a_fresh_database_has_every_row(demo_club, tmp_path):
    source = database_url()  # the rows must be committed: pg_dump reads on its own connection
    assert Hand.objects.count() > 100
    taken = backup_script("now", url=source, backup_dir=tmp_path / "backups")
    assert taken.returncode == 0, taken.stderr
    file = Path(taken.stdout.strip())
    suffix = "dump" if is_postgresql(source) else "sqlite3"
    assert re.fullmatch(rf"club-\d{{4}}-\d\d-\d\d\.{suffix}", file.name)
    assert file.parent == tmp_path / "backups" / "daily"
    assert f"backup: saved {file}" in taken.stderr
    # Only its owner may read it: it holds password hashes.
    assert file.stat().st_mode & 0o077 == 0
    weekly = list((tmp_path / "backups" / "weekly").iterdir())
    assert [w.read_bytes() == file.read_bytes() for w in weekly] == [True]

    with fresh_database(source, tmp_path) as target:
        restored = backup_script("restore", str(file), url=target, backup_dir=tmp_path)
        assert restored.returncode == 0, restored.stderr
        assert f"restored {file}" in restored.stderr
        before, after = contents(source), contents(target)
        assert sorted(after) == sorted(before)
        for table, rows in before.items():
            assert after[table] == rows, table
        assert len(after["scoring_hand"]) == Hand.objects.count()

        # Restored again over itself (a second try, or a roll-back onto a used database):
        # the old contents are replaced, not added to.
        again = backup_script("restore", str(file), url=target, backup_dir=tmp_path)
        assert again.returncode == 0, again.stderr
        assert contents(target, ["scoring_hand", "club_club"]) == {
            "scoring_hand": before["scoring_hand"],
            "club_club": before["club_club"],
            "(id counters)": before["(id counters)"],
        }


def test_old_backups_are_rotated_out_keeping_n_days_and_n_weeks(club, tmp_path):
    backups = tmp_path / "backups"
    suffix = "dump" if connection.vendor == "postgresql" else "sqlite3"
    (backups / "daily").mkdir(parents=True)
    (backups / "weekly").mkdir()
    for day in range(1, 6):
        (backups / "daily" / f"club-2020-01-0{day}.{suffix}").write_text("an old night")
    for week in range(1, 5):
        (backups / "weekly" / f"club-2020-W0{week}.{suffix}").write_text("an old week")
    (backups / "daily" / "notes.txt").write_text("not a backup: left alone")

    taken = backup_script(
        "now", url=database_url(), backup_dir=backups, BACKUP_KEEP_DAYS="3", BACKUP_KEEP_WEEKS="2"
    )
    assert taken.returncode == 0, taken.stderr
    today = Path(taken.stdout.strip()).name
    daily = sorted(p.name for p in (backups / "daily").iterdir())
    assert daily == sorted(
        [f"club-2020-01-04.{suffix}", f"club-2020-01-05.{suffix}", today, "notes.txt"]
    )
    weekly = sorted(p.name for p in (backups / "weekly").iterdir())
    assert len(weekly) == 2 and weekly[0] == f"club-2020-W04.{suffix}"
    assert f"removed {backups}/daily/club-2020-01-03.{suffix}" in taken.stderr


def test_a_backup_that_fails_says_so_and_keeps_the_last_good_one(club, tmp_path):
    backups = tmp_path / "backups"
    good = backup_script("now", url=database_url(), backup_dir=backups)
    assert good.returncode == 0, good.stderr
    kept = Path(good.stdout.strip())
    kept_bytes = kept.read_bytes()
    if connection.vendor == "postgresql":
        unreachable = "postgres://club:club@127.0.0.1:9/club"  # nothing listens on port 9
        said = "pg_dump failed: nothing was replaced."
    else:
        unreachable = f"sqlite:///{tmp_path / 'gone.sqlite3'}"
        said = f"no SQLite database at {tmp_path / 'gone.sqlite3'}"
    failed = backup_script("now", url=unreachable, backup_dir=backups)
    assert failed.returncode != 0
    assert said in failed.stderr
    assert kept.read_bytes() == kept_bytes
    assert not list(backups.glob("*/*.partial"))


def test_a_restore_refuses_a_file_that_is_not_a_backup_and_changes_nothing(club, tmp_path):
    not_a_backup = tmp_path / "club-2026-01-01.sqlite3"
    not_a_backup.write_text("a letter to the committee")
    if connection.vendor == "postgresql":
        not_a_backup = not_a_backup.rename(tmp_path / "club-2026-01-01.dump")
    before = contents(database_url(), ["club_club"])
    refused = backup_script("restore", str(not_a_backup), url=database_url(), backup_dir=tmp_path)
    assert refused.returncode != 0
    assert "is not a" in refused.stderr and str(not_a_backup) in refused.stderr
    assert contents(database_url(), ["club_club"]) == before
    assert Club.objects.filter(pk=club.pk).exists()


@pytest.mark.parametrize(
    ("setting", "value", "said"),
    [
        ("BACKUP_KEEP_DAYS", "a week", "BACKUP_KEEP_DAYS must be a whole number, not 'a week'."),
        ("BACKUP_KEEP_DAYS", "0", "BACKUP_KEEP_DAYS must be at least 1."),
        ("DATABASE_URL", "mysql://club@db/club", "DATABASE_URL must start with postgres://"),
    ],
)
def test_a_wrong_setting_is_named(tmp_path, setting, value, said):
    env = {"url": database_url(), setting: value}
    if setting == "DATABASE_URL":
        env["url"] = value
        del env[setting]
    refused = backup_script("now", backup_dir=tmp_path, **env)
    assert refused.returncode != 0 and said in refused.stderr
    assert not (tmp_path / "daily").exists()


def test_a_backup_before_an_upgrade_is_kept_apart_from_the_nightly_rotation(club, tmp_path):
    backups = tmp_path / "backups"
    suffix = "dump" if connection.vendor == "postgresql" else "sqlite3"
    (backups / "before-upgrade").mkdir(parents=True)
    older = [backups / "before-upgrade" / f"club-2020-0{n}-01-120000.{suffix}" for n in (1, 2, 3)]
    for file in older:
        file.write_text("an earlier upgrade's")
    taken = backup_script("before-upgrade", url=database_url(), backup_dir=backups)
    assert taken.returncode == 0, taken.stderr
    kept = Path(taken.stdout.strip())
    assert f"kept {kept} for a roll-back" in taken.stderr
    # The last three; the nightly backups (one a day, this day's last) rotate on their own.
    assert sorted((backups / "before-upgrade").iterdir()) == [*older[1:], kept]
    assert kept.read_bytes() == next((backups / "daily").iterdir()).read_bytes()
    listed = backup_script("list", url=database_url(), backup_dir=backups)
    assert listed.returncode == 0 and kept.name in listed.stdout


def test_the_nightly_service_takes_a_first_backup_when_it_has_none(club, tmp_path):
    backups = tmp_path / "backups"
    nightly = subprocess.Popen(
        ["sh", str(SCRIPT), "nightly"],
        env={
            **os.environ,
            "DATABASE_URL": database_url(),
            "BACKUP_DIR": str(backups),
            "BACKUP_FIRST_DELAY": "0",
        },
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not list(backups.glob("weekly/club-*")):  # the last file it makes
            assert nightly.poll() is None, nightly.stderr.read()
            assert time.monotonic() < deadline, "no first backup within 60 s"
            time.sleep(0.1)
        # Then it waits for the night, still running.
        time.sleep(0.5)
        assert nightly.poll() is None
    finally:
        os.killpg(nightly.pid, signal.SIGTERM)
        nightly.wait(timeout=10)
    said = nightly.stderr.read()
    assert "backup: a backup each day at 03:00 into" in said and "backup: saved" in said


def test_a_backup_cut_short_is_refused_and_the_database_is_unchanged(club, tmp_path):
    source = database_url()
    taken = backup_script("now", url=source, backup_dir=tmp_path / "backups")
    assert taken.returncode == 0, taken.stderr
    whole = Path(taken.stdout.strip()).read_bytes()
    # As a full disk leaves a copy: all but its end (a dump's table of contents still reads;
    # its last table's rows do not).
    cut = tmp_path / f"club-cut.{'dump' if is_postgresql(source) else 'sqlite3'}"
    cut.write_bytes(whole[: len(whole) - len(whole) // 100])
    with fresh_database(source, tmp_path) as target:
        first = backup_script("restore", taken.stdout.strip(), url=target, backup_dir=tmp_path)
        assert first.returncode == 0, first.stderr
        before = contents(target)
        refused = backup_script("restore", str(cut), url=target, backup_dir=tmp_path)
        assert refused.returncode != 0
        assert str(cut) in refused.stderr and "restored" not in refused.stderr
        if is_postgresql(source):  # refused on reading it whole, not at the first glance
            assert f"{cut} cannot be read whole: nothing was changed." in refused.stderr
        assert contents(target) == before
