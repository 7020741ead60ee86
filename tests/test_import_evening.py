"""An evening played on a hall laptop comes back into the club on the main site.

The round trip as the docs tell it (docs/backups.md): the main site's club is exported and
imported on "the laptop" (here: the same test database, the copy under another address);
an evening is played there through the app's own writes (check-in, a walk-in, seating,
wins, a draw, kong chips, a correction); the laptop's club is exported, and import_evening
brings that evening into the main site's club."""

import dataclasses
import datetime
import io
import json
import random
import uuid

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from club.models import Attendance, Club, Member, Seat, Session
from club.privacy.erasure import erase
from club.roles import make_coordinator
from club.scoping import scope
from club.seating.changes import make_seating
from club.walk_ins import check_in_walk_in
from front import backup, evening_import
from front.demo_play import play_random_hand
from front.evening_import import EveningRefused, import_evening
from games.models import Chair, Match, TableKey, new_code
from games.start import end_evening, start_play
from scoring.corrections import correct_hand
from scoring.models import Correction, Hand, KongChips
from scoring.recording import Win, save_draw, save_kong, save_win
from scoring.results import MatchResult
from scoring.standings import evening_results
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tests.games.helpers import seated_session
from tests.test_backup import standings_of

TONIGHT = datetime.date(2026, 11, 26)
NEXT_WEEK = datetime.date(2026, 12, 3)
EVERY_TABLE = [apps.get_model(label) for label in backup.MODELS] + [MatchResult]


# --- The round trip ------------------------------------------------------------------------


def main_club() -> Club:
    """The club on the main site: six members (two with logins), a coordinator, and an
    evening already played there last week."""
    club = ClubFactory(name="Thursday Club", rule_set="u3a")
    boss = UserFactory(username="boss")
    make_coordinator(boss, club)
    for n in range(2):
        MemberFactory(club=club, user=UserFactory(username=f"member-{n}"))
    last_week = seated_session(club, sizes=(4,), date=TONIGHT - datetime.timedelta(weeks=1))
    (match,) = start_play(last_week)
    rng = random.Random(1)
    for _ in range(5):
        play_random_hand(match, rng, by=boss)
    end_evening(last_week)
    return club


def export_to(club: Club, path) -> None:
    call_command("export_club", "--club", club.slug, "--output", str(path))


def laptop_copy(main: Club, tmp_path) -> Club:
    """The laptop's club: the main site's backup imported there (under another address,
    since the test's one database stands for both)."""
    path = tmp_path / "main.json"
    export_to(main, path)
    backup.import_club(path, slug="laptop")
    return Club.objects.get(slug="laptop")


def play_on_laptop(laptop: Club, date=TONIGHT, end=True) -> Session:
    """An evening on the laptop through the app's own writes: the members checked in, two
    walk-ins (Larry; Nora, given a login on the laptop), seating made and published, each
    table's wins, a draw, kong chips (some recorded by the laptop's tablet login, which the
    main site has not), more hands, a correction; the evening ended (if `end`). Tonight's
    session is the one planned already, if there is one."""
    User = get_user_model()
    boss = User.objects.get(username="boss")
    tablet = User.objects.filter(username="hall-tablet").first()
    if tablet is None:
        tablet = UserFactory(username="hall-tablet")
        make_coordinator(tablet, laptop)
    with scope(club=laptop):
        session, _ = Session.objects.get_or_create(
            club=laptop, date=date, defaults={"venue": "Church hall"}
        )
        for member in Member.objects.filter(is_guest=False):
            session.set_present(member, True)
        check_in_walk_in(session, "Larry")
        nora, _ = check_in_walk_in(session, "Nora Batty")
        if nora.user is None:
            nora.user = UserFactory(username="nora")
            nora.save()
        plan, _ = make_seating(session, seed=7)
        plan.publish()
        rng = random.Random(date.toordinal())
        for match in start_play(session):
            state = match.replay()[-1]
            first, second, third = state.seated[:3]
            save_win(match, state.hand, Win(first, "wall", None, 10), by=boss)
            save_kong(match, 2, second, "concealed", by=tablet, key=uuid.uuid4())
            save_win(match, 2, Win(second, "discard", third, 8), by=tablet)
            save_draw(match, 3, by=tablet)
            save_kong(match, 4, first, "added", by=boss, key=uuid.uuid4())
            for _ in range(4):
                match.refresh_from_db()
                play_random_hand(match, rng, by=boss)
            correct_hand(match, 1, Win(first, "wall", None, 12), "Miscounted the pungs", by=boss)
        if end:
            end_evening(session)
        session.refresh_from_db()
    return session


def laptop_file(laptop: Club, tmp_path, name="laptop.json"):
    path = tmp_path / name
    export_to(laptop, path)
    return path


@pytest.fixture
def round_trip(db, tmp_path):
    """(main club, laptop club, the laptop's evening, the laptop's backup file)."""
    main = main_club()
    laptop = laptop_copy(main, tmp_path)
    session = play_on_laptop(laptop)
    return main, laptop, session, laptop_file(laptop, tmp_path)


# --- Reading what an evening holds, by names (ids differ between the two clubs) -------------


def hands_of(session) -> list[tuple]:
    hands = Hand.objects.filter(match__session=session).select_related("match", "recorded_by")
    return sorted(
        (
            hand.match.table_number,
            hand.number,
            hand.winner,
            hand.won_by,
            hand.discarder,
            hand.total,
            tuple(hand.payments),
            hand.voided_at,
            hand.recorded_at,
        )
        for hand in hands
    )


def kong_chips_of(session) -> list[tuple]:
    kongs = KongChips.objects.filter(match__session=session).select_related("match")
    return sorted(
        (k.match.table_number, k.hand_number, k.chair, k.kind, tuple(k.payments), k.voided_at)
        for k in kongs
    )


def evening_of(session) -> dict:
    """Everything the evening holds, by names and table numbers."""
    return {
        "session": (session.date, session.status, session.venue),
        "attendance": sorted(
            (a.member.table_name, a.arrived_at, a.left_at, a.paid)
            for a in Attendance.objects.filter(session=session).select_related("member")
        ),
        "seats": sorted(
            (s.table.number, s.position, s.wind, s.member.table_name, tuple(s.dice))
            for s in Seat.objects.filter(plan__session=session).select_related("table", "member")
        ),
        "matches": sorted(
            (m.table_number, m.status, m.ending, m.rules, m.started_at, m.finished_at, m.version)
            for m in Match.objects.filter(session=session)
        ),
        "chairs": sorted(
            (c.match.table_number, c.number, c.member.table_name)
            for c in Chair.objects.filter(match__session=session).select_related("match", "member")
        ),
        "hands": hands_of(session),
        "kong chips": kong_chips_of(session),
        "corrections": sorted(
            (c.match.table_number, c.hand_number, c.kind, c.reason, c.made_at, str(c.before))
            for c in Correction.objects.filter(match__session=session).select_related("match")
        ),
    }


def results_of(session) -> list[tuple]:
    """The stored results (every column but ids) and the evening's standings, by names."""
    rows = MatchResult.objects.filter(session=session).select_related("chair__match", "member")
    stored = sorted(
        (row.chair.match.table_number, row.chair.number, row.member.table_name)
        + tuple(
            getattr(row, field.attname)
            for field in MatchResult._meta.concrete_fields
            if not field.is_relation and not field.primary_key
        )
        for row in rows
    )
    evening = evening_results(session, session.club)
    table = [
        [
            (
                row.member.table_name,
                row.rules,
                row.result,
                row.hands_won,
                row.hands_played,
                row.best_total,
                row.points,
                row.placings,
                row.rank,
            )
            for row in part.rows
        ]
        for part in evening.parts
    ]
    return [stored, table]


def season_standings(club) -> list:
    """The leaderboard by names (test_backup's), logins apart: Nora's is the laptop's only."""
    return [
        (season, held, [dataclasses.replace(row, user_id=None) for row in rows])
        for season, held, rows in standings_of(club)
    ]


def live_hands(session) -> int:
    return Hand.objects.filter(match__session=session, voided_at__isnull=True).count()


def every_row() -> dict:
    """Every row of every table a backup covers (all clubs), by id."""
    return {
        model._meta.label: {row["id"]: row for row in model._base_manager.values()}
        for model in EVERY_TABLE
    }


def new_rows(before: dict, after: dict) -> dict:
    return {label: set(after[label]) - set(before[label]) for label in after}


# --- Tests -----------------------------------------------------------------------------------


def test_the_laptops_evening_comes_back_whole_and_nothing_else_changes(round_trip):
    main, laptop, played, path = round_trip
    before = every_row()
    brought = import_evening(path, main)

    session = Session.objects.get(club=main, date=TONIGHT)
    assert evening_of(session) == evening_of(played)
    assert hands_of(session) and kong_chips_of(session)
    assert Correction.objects.filter(match__session=session).count() == 2
    assert results_of(session) == results_of(played)
    assert results_of(session)[0]
    # The season's standings too: the laptop's copy has the main club's history, and now
    # the main club has the laptop's evening.
    assert season_standings(main) == season_standings(laptop)
    assert season_standings(main)[0][2]
    # Logins that recorded hands are the main site's own, by username; the laptop's tablet
    # login is not the main club's, so its hands say "by nobody".
    recorders = {
        (h.match.table_number, h.number, h.recorded_at): h.recorded_by
        for h in Hand.objects.filter(match__session=session).select_related("match")
    }
    for hand in Hand.objects.filter(match__session=played).select_related("match"):
        here = recorders[hand.match.table_number, hand.number, hand.recorded_at]
        assert (here and here.username) == (
            hand.recorded_by.username if hand.recorded_by.username == "boss" else None
        )
    assert {c.made_by.username for c in Correction.objects.filter(match__session=session)} == {
        "boss"
    }

    # Nothing of the main club's (or the laptop's) rows changed; the new rows are the
    # evening's and the two new members'.
    after = every_row()
    for label, rows in before.items():
        assert {pk: after[label][pk] for pk in rows} == rows, label
    added = new_rows(before, after)
    assert Member.objects.filter(pk__in=added["club.Member"]).count() == 2
    for label, pks in added.items():
        model = apps.get_model(label)
        if label == "club.Member":
            continue
        path_to_session = {
            "club.Session": "pk",
            "club.Attendance": "session",
            "club.SeatingPlan": "session",
            "club.SeatingTable": "plan__session",
            "club.Seat": "plan__session",
            "games.Match": "session",
            "games.Chair": "match__session",
            "scoring.Hand": "match__session",
            "scoring.KongChips": "match__session",
            "scoring.Correction": "match__session",
            "scoring.MatchResult": "session",
        }.get(label)
        if path_to_session is None:
            assert not pks, label
            continue
        rows = model._base_manager.filter(pk__in=pks)
        assert rows.filter(**{path_to_session: session.pk}).count() == len(pks), label
    assert brought.lines()[0].startswith("Brought the evening of Thursday 26 November 2026: ")


def test_new_members_come_without_a_login_and_regulars_are_matched_by_name(round_trip):
    main, laptop, played, path = round_trip
    regulars_before = set(Member.objects.filter(club=main).values_list("pk", flat=True))
    import_evening(path, main)

    session = Session.objects.get(club=main, date=TONIGHT)
    present = Member.objects.filter(attendances__session=session)
    larry, nora = present.get(table_name="Larry"), present.get(table_name="Nora")
    assert {larry.pk, nora.pk}.isdisjoint(regulars_before)
    assert (larry.user, nora.user) == (None, None)
    assert nora.name == "Nora Batty" and nora.is_guest
    assert set(present.exclude(pk__in=[larry.pk, nora.pk]).values_list("pk", flat=True)) <= (
        regulars_before
    )
    assert Member.objects.filter(club=main).count() == len(regulars_before) + 2


def test_a_member_erased_here_since_the_laptops_copy_stays_erased(round_trip):
    """The laptop's copy was made before a regular was erased on the main site: their
    evening is theirs (by their lasting id), and their old name does not come back."""
    main, laptop, played, path = round_trip
    regular = Member.objects.filter(
        club=main, attendances__session__date=TONIGHT - datetime.timedelta(weeks=1)
    ).first()
    old_name = regular.name
    regular.retire()
    erase(regular)
    import_evening(path, main)
    session = Session.objects.get(club=main, date=TONIGHT)
    assert session.attendances.filter(member=regular).exists()
    assert not Member.objects.filter(club=main, name=old_name).exists()


def test_the_command_says_what_was_brought(round_trip, capsys):
    main, laptop, played, path = round_trip
    call_command("import_evening", str(path), "--club", main.slug)
    out = capsys.readouterr().out

    live = live_hands(played)
    kongs = KongChips.objects.filter(match__session=played, voided_at__isnull=True).count()
    tables = played.seating.tables.count()
    assert out.splitlines()[0] == (
        "Brought the evening of Thursday 26 November 2026: 8 members present, "
        f"{tables} tables, {tables} matches, {live} hands, {kongs} kong chips, "
        "2 corrections; 2 new members: Larry (no login), "
        "Nora (no login: the laptop's login “nora” is not brought)."
    )
    assert out.splitlines()[1] == (
        "Recorded by logins the club does not have here (“hall-tablet”): those hands and "
        "corrections say “by nobody”."
    )


def test_running_it_twice_refuses_the_second_time_and_writes_nothing(round_trip, capsys):
    main, laptop, played, path = round_trip
    import_evening(path, main)
    before = every_row()

    with pytest.raises(EveningRefused, match="has every evening of this backup already"):
        import_evening(path, main)
    with pytest.raises(CommandError) as refusal:
        call_command("import_evening", str(path), "--club", main.slug, "--date", "2026-11-26")
    assert str(refusal.value) == (
        f"The club “{main.slug}” already has the evening of Thursday 26 November 2026, with "
        f"8 members present and {live_hands(played)} hands. If it was brought "
        "back before, there is nothing more to do. If it was played on the main site as "
        "well, the two cannot be joined: look at the main site's evening first. Nothing was "
        "brought."
    )
    assert every_row() == before


def test_date_picks_one_evening_and_the_default_brings_the_rest(db, tmp_path):
    main = main_club()
    laptop = laptop_copy(main, tmp_path)
    tonight = play_on_laptop(laptop)
    later = play_on_laptop(laptop, NEXT_WEEK)
    path = laptop_file(laptop, tmp_path)

    brought = import_evening(path, main, NEXT_WEEK)
    assert [evening.date for evening in brought.evenings] == [NEXT_WEEK]
    assert not Session.objects.filter(club=main, date=TONIGHT).exists()
    assert evening_of(Session.objects.get(club=main, date=NEXT_WEEK)) == evening_of(later)
    # Larry and Nora came on both evenings: added once, told with the first brought.
    assert [m.table_name for m in brought.evenings[0].new_members] == ["Larry", "Nora"]

    brought = import_evening(path, main)
    assert [evening.date for evening in brought.evenings] == [TONIGHT]
    assert brought.evenings[0].new_members == []
    assert evening_of(Session.objects.get(club=main, date=TONIGHT)) == evening_of(tonight)
    assert Member.objects.filter(club=main, table_name="Larry").count() == 1
    assert results_of(Session.objects.get(club=main, date=NEXT_WEEK)) == results_of(later)


def test_both_evenings_at_once_each_new_member_told_with_the_first(db, tmp_path):
    main = main_club()
    laptop = laptop_copy(main, tmp_path)
    tonight, later = play_on_laptop(laptop), play_on_laptop(laptop, NEXT_WEEK)
    brought = import_evening(laptop_file(laptop, tmp_path), main)
    assert [evening.date for evening in brought.evenings] == [TONIGHT, NEXT_WEEK]
    assert [len(evening.new_members) for evening in brought.evenings] == [2, 0]
    for played in (tonight, later):
        assert evening_of(Session.objects.get(club=main, date=played.date)) == evening_of(played)


def test_an_empty_session_planned_here_for_that_date_takes_the_evening(db, tmp_path):
    """Sessions are planned a week ahead ("Add next week"): the main site and the laptop's
    copy both have tonight's session, empty; the laptop plays it."""
    main = main_club()
    planned = Session.objects.create(club=main, date=TONIGHT, venue="Church hall")
    laptop = laptop_copy(main, tmp_path)
    played = play_on_laptop(laptop)
    path = laptop_file(laptop, tmp_path)

    brought = import_evening(path, main)
    assert brought.lines()[0].endswith(
        "(into the session already planned here); 2 new members: Larry (no login), "
        "Nora (no login: the laptop's login “nora” is not brought)."
    )
    assert Session.objects.get(club=main, date=TONIGHT).pk == planned.pk
    assert evening_of(Session.objects.get(pk=planned.pk)) == evening_of(played)
    assert results_of(Session.objects.get(pk=planned.pk)) == results_of(played)


def test_an_evening_still_in_play_comes_in_play_and_the_tables_carry_on_here(db, tmp_path):
    """The session and matches keep their status; the next hand recorded here goes on
    from the laptop's last one (the id counters are past the brought rows)."""
    main = main_club()
    laptop = laptop_copy(main, tmp_path)
    played = play_on_laptop(laptop, end=False)
    assert played.status == Session.Status.IN_PLAY
    import_evening(laptop_file(laptop, tmp_path), main)

    session = Session.objects.get(club=main, date=TONIGHT)
    assert session.status == Session.Status.IN_PLAY
    with scope(club=main):
        match = Match.objects.filter(session=session, status="in_play").order_by("pk").first()
        state = match.replay()[-1]
        saved = save_draw(match, state.hand)
        others = Hand.objects.exclude(pk=saved.record.pk).values_list("pk", flat=True)
        assert saved.record.pk > max(others)
        assert match.replay()[-1].hand == state.hand + 1


def test_a_failure_half_way_leaves_nothing(round_trip, monkeypatch):
    main, laptop, played, path = round_trip
    before = every_row()

    def fails(*args, **kwargs):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(evening_import, "_rebuild_results", fails)
    with pytest.raises(RuntimeError):
        import_evening(path, main)
    assert every_row() == before


# --- Refusals --------------------------------------------------------------------------------


def test_a_date_the_file_has_no_evening_on_is_refused(round_trip):
    main, laptop, played, path = round_trip
    before = every_row()
    with pytest.raises(CommandError) as refusal:
        call_command("import_evening", str(path), "--club", main.slug, "--date", "2026-12-10")
    assert str(refusal.value) == (
        "This backup has no evening on Thursday 10 December 2026 (its latest is Thursday 26 "
        "November 2026). Check --date, or leave it out to bring every evening the club "
        "lacks. Nothing was brought."
    )
    with pytest.raises(CommandError, match="“26-11-2026” is not a date: write it as YYYY-MM-DD"):
        call_command("import_evening", str(path), "--club", main.slug, "--date", "26-11-2026")
    assert every_row() == before


def test_an_unknown_club_is_refused(round_trip):
    main, laptop, played, path = round_trip
    with pytest.raises(CommandError, match="There is no club with the address “nowhere”"):
        call_command("import_evening", str(path), "--club", "nowhere")


def test_a_file_that_is_not_a_backup_or_is_another_clubs_is_refused(round_trip, tmp_path):
    main, laptop, played, path = round_trip
    other = ClubFactory(name="Monday Club")
    before = every_row()
    not_json = tmp_path / "notes.txt"
    not_json.write_text("Thursday: 16 came, 4 tables\n")
    with pytest.raises(backup.BackupRefused, match="This file is not a club backup"):
        import_evening(not_json, main)
    with pytest.raises(EveningRefused) as refusal:
        import_evening(path, other)
    assert str(refusal.value) == (
        "This backup is of the club “Thursday Club” (address “laptop”), not of “Monday Club” "
        f"(“{other.slug}”): an evening comes back into the club the laptop's copy was made "
        "from. Check --club, and the file. Nothing was brought."
    )
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_evening", str(tmp_path / "missing.json"), "--club", main.slug)
    assert every_row() == before


def test_a_member_whose_name_here_is_someone_elses_is_refused(round_trip):
    """Meanwhile the main site added a different Larry: his name at the table is the
    laptop walk-in's, his full name is not."""
    main, laptop, played, path = round_trip
    MemberFactory(club=main, name="Larry Grayson", table_name="Larry")
    before = every_row()
    with pytest.raises(EveningRefused) as refusal:
        import_evening(path, main)
    assert str(refusal.value) == (
        "Some members of the evening do not match the club's members here: the laptop's "
        "“Larry” is Larry, but the club's “Larry” is Larry Grayson: if they are one person, "
        "make the full names agree on the member's page here; if two, rename the club's "
        "“Larry” here (say, “Larry G”) so the laptop's comes in as a new member. Then run "
        "this again. Nothing was brought."
    )
    assert every_row() == before


def test_a_member_renamed_here_with_the_same_login_is_refused(round_trip):
    main, laptop, played, path = round_trip
    member = Member.objects.get(club=main, user__username="member-0")
    old = member.table_name
    member.table_name = "Renamed"
    member.save()
    before = every_row()
    with pytest.raises(EveningRefused) as refusal:
        import_evening(path, main)
    assert (
        f"the laptop's “{old}” has the login “member-0”, which here is “Renamed”'s: if they "
        "are one person, give them the same name at the table on both. Then run this again."
    ) in str(refusal.value)
    assert every_row() == before


def test_two_members_with_different_logins_under_one_name_are_refused(round_trip):
    main, laptop, played, path = round_trip
    member = Member.objects.get(club=main, user__username="member-0")
    member.user = UserFactory(username="someone-else")
    member.save()
    with pytest.raises(EveningRefused) as refusal:
        import_evening(path, main)
    assert (
        f"the laptop's “{member.table_name}” logs in as “member-0”, but the club's "
        f"“{member.table_name}” as “someone-else”"
    ) in str(refusal.value)


def test_a_name_typed_in_other_capitals_here_is_the_same_member(round_trip):
    main, laptop, played, path = round_trip
    member = Member.objects.get(club=main, user__username="member-0")
    laptop_name = member.table_name
    member.table_name = laptop_name.upper()
    member.save()
    import_evening(path, main)
    session = Session.objects.get(club=main, date=TONIGHT)
    assert session.attendances.filter(member=member).exists()
    assert not Member.objects.filter(club=main, table_name=laptop_name).exists()


def test_rows_the_laptop_keeps_for_itself_are_left_there_with_a_note(round_trip, tmp_path):
    """A laptop running a newer version: rows of models this installation has not, and
    fields it does not keep, are skipped, said so, and the evening comes whole."""
    main, laptop, played, path = round_trip
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = data["data"]
    rows.append({"model": "scoring.receipt", "pk": 1, "fields": {"key": "abc"}})
    for row in rows:
        if row["model"] == "scoring.hand":
            row["fields"]["recorded_on_device"] = "tablet 3"
    widened = tmp_path / "widened.json"
    widened.write_text(backup.to_json(data), encoding="utf-8")

    brought = import_evening(widened, main)
    assert evening_of(Session.objects.get(club=main, date=TONIGHT)) == evening_of(played)
    assert brought.notes[1:] == [
        "Left on the laptop (they belong to it only): 1 row of “scoring.receipt”.",
        "The hands in the file have a “recorded_on_device”, which this installation does not "
        "keep: it is not brought.",
    ]
    # import_club, for a whole club, still refuses what it does not restore.
    with pytest.raises(backup.BackupRefused, match="Nothing was imported"):
        backup.import_club(widened, slug="elsewhere")


def test_hands_recorded_with_a_tables_card_keep_it_with_a_new_code(round_trip, tmp_path):
    """The audit ("recorded on the table 1 tablet") comes with the evening: its table keys
    are brought, each with a new code, so the laptop's cards open nothing here."""
    main, laptop, played, path = round_trip
    with scope(club=laptop):
        # Issued while the evening was in play; it has ended since.
        key = TableKey.objects.create(session=played, table_number=1, code=new_code())
        hand = Hand.objects.filter(match__session=played, match__table_number=1).first()
        Hand.objects.filter(pk=hand.pk).update(recorded_with=key)
        again = tmp_path / "with-keys.json"
        again.write_text(backup.to_json(backup.export_club(laptop)), encoding="utf-8")

    import_evening(again, main)
    with scope(club=main):
        brought = Hand.objects.get(
            match__session__date=TONIGHT,
            match__table_number=1,
            number=hand.number,
            voided_at=hand.voided_at,
        )
        assert brought.recorded_with.table_number == 1
        assert brought.recorded_with.session.date == TONIGHT
        assert brought.recorded_with.code != key.code
        assert not TableKey.objects.filter(code=key.code).exists()  # the laptop's card


def tonights_correction_pointing_at_last_weeks_hand(path):
    """The file's rows, a correction of tonight's in them, and the id of a hand of last
    week's (which the main site has already, so it is not brought) to point it at."""
    data = json.loads(path.read_text(encoding="utf-8"))
    sessions = {
        row["pk"]: row["fields"]["date"] for row in data["data"] if row["model"] == "club.session"
    }
    matches = {
        row["pk"]: sessions[row["fields"]["session"]]
        for row in data["data"]
        if row["model"] == "games.match"
    }
    old_hand = next(
        row["pk"]
        for row in data["data"]
        if row["model"] == "scoring.hand" and matches[row["fields"]["match"]] != str(TONIGHT)
    )
    correction = next(
        row
        for row in data["data"]
        if row["model"] == "scoring.correction" and matches[row["fields"]["match"]] == str(TONIGHT)
    )
    return data, correction, old_hand


def test_a_reference_to_a_row_not_brought_is_emptied_and_said_so(round_trip, tmp_path):
    """A key of a brought row to a row this import leaves in the file (after table keys:
    a hand's `recorded_with`). Here: a voided hand's correction pointing at a hand of last
    week's evening."""
    main, laptop, played, path = round_trip
    data, correction, old_hand = tonights_correction_pointing_at_last_weeks_hand(path)
    correction["fields"].update(kind="voided", replacement=old_hand, after=None)
    changed = tmp_path / "changed.json"
    changed.write_text(backup.to_json(data), encoding="utf-8")

    brought = import_evening(changed, main)
    assert brought.notes[-1] == (
        "The “replacement” of 1 correction is left empty: it points to a row this does not "
        "bring (kept on the laptop)."
    )
    voided = Correction.objects.get(
        match__session__club=main, match__session__date=TONIGHT, kind="voided"
    )
    assert voided.replacement is None


def test_the_backup_may_be_a_file_open_in_binary(round_trip):
    main, laptop, played, path = round_trip
    import_evening(io.BytesIO(path.read_bytes()), main, TONIGHT)
    assert evening_of(Session.objects.get(club=main, date=TONIGHT)) == evening_of(played)


def test_the_backup_may_be_a_dict(round_trip):
    main, laptop, played, path = round_trip
    import_evening(backup.export_club(laptop), main)
    assert evening_of(Session.objects.get(club=main, date=TONIGHT)) == evening_of(played)


def test_a_name_here_in_two_spellings_is_refused(round_trip):
    main, laptop, played, path = round_trip
    MemberFactory(club=main, name="Larry", table_name="LARRY")
    MemberFactory(club=main, name="Larry", table_name="larry")
    with pytest.raises(EveningRefused) as refusal:
        import_evening(path, main)
    assert (
        "the laptop's “Larry” could be any of “LARRY”, “larry” here: rename them here so "
        "that one is exactly “Larry”"
    ) in str(refusal.value)


def test_two_laptop_members_that_are_one_member_here_are_refused(round_trip, tmp_path):
    main, laptop, played, path = round_trip
    regular = Member.objects.get(club=main, user__username="member-0")
    data = json.loads(path.read_text(encoding="utf-8"))
    for row in data["data"]:
        if row["model"] == "club.member" and row["fields"]["table_name"] == "Larry":
            row["fields"].update(table_name=regular.table_name.upper(), name=regular.name)
    changed = tmp_path / "changed.json"
    changed.write_text(backup.to_json(data), encoding="utf-8")
    with pytest.raises(EveningRefused) as refusal:
        import_evening(changed, main)
    assert (
        f"“{regular.table_name}” and “{regular.table_name.upper()}” on the laptop are one "
        "member here: rename one of them on the laptop, export again and bring the new file"
    ) in str(refusal.value)


def test_the_seatings_undo_is_not_brought(round_trip, tmp_path):
    """A plan's one-step undo names members by their ids on the laptop."""
    main, laptop, played, path = round_trip
    data = json.loads(path.read_text(encoding="utf-8"))
    plans = [row for row in data["data"] if row["model"] == "club.seatingplan"]
    undo = {"what": "the swap", "seed": 1, "by_hand": True, "locked": [], "tables": []}
    plans[-1]["fields"]["undo"] = undo
    changed = tmp_path / "changed.json"
    changed.write_text(backup.to_json(data), encoding="utf-8")
    import_evening(changed, main)
    session = Session.objects.get(club=main, date=TONIGHT)
    assert session.seating.undo is None


def test_a_key_that_cannot_be_empty_to_a_row_not_brought_is_refused(round_trip, tmp_path):
    main, laptop, played, path = round_trip
    data, correction, old_hand = tonights_correction_pointing_at_last_weeks_hand(path)
    correction["fields"]["original"] = old_hand
    changed = tmp_path / "changed.json"
    changed.write_text(backup.to_json(data), encoding="utf-8")
    before = every_row()
    with pytest.raises(EveningRefused) as refusal:
        import_evening(changed, main)
    assert str(refusal.value) == (
        "A correction of the evening refers to a hand, which is not brought and which it "
        "cannot do without. Nothing was brought."
    )
    assert every_row() == before
