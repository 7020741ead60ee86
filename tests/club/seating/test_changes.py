"""Seating writes and loading: history, planning rules, coordinator changes, publishing,
transactions."""

import datetime
from itertools import combinations
from unittest import mock

import pytest

from club.models import Attendance, KeepApart, Seat, SeatingPlan, Session, SessionClosed
from club.seating.changes import (
    make_seating,
    remove_early_leaver,
    reroll,
    seat_late_arrival,
    swap_members,
    undo,
)
from club.seating.load import season_history
from club.seating.planner import SeatingError
from tests.club.seating.helpers import (
    members,
    plan,
    played,
    published,
    session_with,
    snapshot,
    table_of,
)
from tests.factories import MemberFactory

DAY = datetime.date(2026, 6, 10)  # a Wednesday, well inside the season below
WEEK = datetime.timedelta(days=7)


@pytest.fixture
def club(club):
    club.season_start = datetime.date(2025, 9, 1)
    club.save()
    return club


def pairs_of(tables) -> set[frozenset]:
    return {frozenset(p) for t in tables for p in combinations(t, 2)}


def test_history_is_this_seasons_published_seatings_before_the_date_oldest_first(club):
    a, b, c, d, e, f = people = members(club, 6)
    played(club, [[a, b, c]], datetime.date(2025, 8, 20))  # last season
    first = played(club, [[a, c, e], [b, d, f]], datetime.date(2025, 9, 3))
    second = played(club, [[a, d, e], [b, c, f]], DAY - WEEK)
    played(club, [[a, b, d]], DAY + WEEK)  # later
    draft = session_with(club, people, date=DAY - 2 * WEEK)
    make_seating(draft, seed=3)  # a draft never counts
    session = session_with(club, people, date=DAY)

    history = season_history(session)

    assert first.seating.status == SeatingPlan.Status.PUBLISHED
    assert history == [
        [[a.pk, c.pk, e.pk], [b.pk, d.pk, f.pk]],
        [[a.pk, d.pk, e.pk], [b.pk, c.pk, f.pk]],
    ]
    assert second.date < session.date


def test_last_weeks_pairs_are_avoided_when_possible(club):
    people = members(club, 16)
    last_week = [people[i : i + 4] for i in range(0, 16, 4)]
    played(club, last_week, DAY - WEEK)
    session = session_with(club, people, date=DAY)

    make_seating(session, seed=0)
    for seed in range(3):
        reroll(session, seed=seed)
        tables = [[pk for pk, _, _ in seats] for seats in snapshot(session).values()]
        assert sorted(len(t) for t in tables) == [4, 4, 4, 4]
        last = pairs_of([[m.pk for m in t] for t in last_week])
        assert not pairs_of(tables) & last


def test_keep_apart_and_fixed_tables_are_honoured(club):
    people = members(club, 12)
    a, b, c, d = people[:4]
    KeepApart.objects.create(club=club, member_a=a, member_b=b)
    KeepApart.objects.create(club=club, member_a=c, member_b=d)
    fixed = people[4]
    fixed.fixed_table = 3
    fixed.save()
    session = session_with(club, people, date=DAY)

    make_seating(session, seed=0)
    for seed in range(8):
        reroll(session, seed=seed)
        assert table_of(session, a) != table_of(session, b)
        assert table_of(session, c) != table_of(session, d)
        assert table_of(session, fixed) == 3


def test_club_settings_choose_tables_of_five_or_three(club):
    session = session_with(club, members(club, 9), date=DAY)
    make_seating(session, seed=1)
    assert sorted(len(s) for s in snapshot(session).values()) == [4, 5]
    club.odd_tables = "three"
    club.save()
    reroll(session, seed=1)
    assert sorted(len(s) for s in snapshot(session).values()) == [3, 3, 3]


def test_a_locked_table_survives_a_reroll(club):
    session = session_with(club, members(club, 16), date=DAY)
    make_seating(session, seed=1)
    before = snapshot(session)
    plan(session).lock_table(2)

    reroll(session, seed=2)

    after = snapshot(session)
    assert after[2] == before[2]
    assert after != before  # the others were planned again
    assert session.seating.tables.get(number=2).locked


def test_swap_exchanges_two_members_between_tables(club):
    session = session_with(club, members(club, 8), date=DAY)
    make_seating(session, seed=1)
    tables = snapshot(session)
    a = Seat.objects.get(plan__session=session, member_id=tables[1][0][0]).member
    b = Seat.objects.get(plan__session=session, member_id=tables[2][0][0]).member

    message = swap_members(session, a, b).message

    assert table_of(session, a) == 2 and table_of(session, b) == 1
    assert "table 2" in message and a.table_name in message
    others = {pk for seats in tables.values() for pk, _, _ in seats} - {a.pk, b.pk}
    after = snapshot(session)
    assert {pk for seats in after.values() for pk, _, _ in seats} - {a.pk, b.pk} == others


def test_swap_refuses_a_locked_table_and_a_keep_apart_pair(club):
    session = session_with(club, members(club, 8), date=DAY)
    make_seating(session, seed=1)
    tables = snapshot(session)
    a = Seat.objects.get(plan__session=session, member_id=tables[1][0][0]).member
    b = Seat.objects.get(plan__session=session, member_id=tables[2][0][0]).member
    plan(session).lock_table(1)
    with pytest.raises(SeatingError, match="Table 1 is locked"):
        swap_members(session, a, b)
    plan(session).lock_table(1, locked=False)
    mate_of_b = Seat.objects.get(plan__session=session, member_id=tables[2][1][0]).member
    KeepApart.objects.create(club=club, member_a=a, member_b=mate_of_b)
    with pytest.raises(SeatingError, match="never sit together"):
        swap_members(session, a, b)
    assert snapshot(session) == tables


def test_publishing_freezes_the_seating(club, client):
    session = session_with(club, members(club, 9), date=DAY)
    published(session)
    frozen = snapshot(session)
    someone = Seat.objects.filter(plan__session=session).first().member
    other = Seat.objects.filter(plan__session=session).exclude(table=someone.seats.get().table)
    other = other.first().member

    for change in (
        lambda: reroll(session, seed=99),
        lambda: swap_members(session, someone, other),
        lambda: plan(session).lock_table(1),
        lambda: plan(session).publish(),
    ):
        with pytest.raises(SeatingError, match="published"):
            change()
    # A newcomer checking in does not reshuffle a published seating either.
    Attendance.objects.create(session=session, member=MemberFactory(club=club))
    with pytest.raises(SeatingError):
        reroll(session)
    assert make_seating(session) == (plan(session), False)  # the first make does nothing
    assert snapshot(session) == frozen
    assert SeatingPlan.objects.get(session=session).status == SeatingPlan.Status.PUBLISHED

    plan(session).unpublish()
    reroll(session, seed=99)
    assert snapshot(session) != frozen


def test_a_late_arrival_changes_one_table_only(club):
    session = session_with(club, members(club, 8), date=DAY)
    published(session)
    before = snapshot(session)
    late = MemberFactory(club=club)  # not even checked in yet

    outcome = seat_late_arrival(session, late)

    after = snapshot(session)
    assert outcome.changed and late.table_name in outcome.message
    number = table_of(session, late)
    assert len(after[number]) == 5 and after[number][:4] == before[number]
    assert after[number][4][:2] == (late.pk, "D")  # the Dreamer, nobody else moves
    assert all(after[n] == before[n] for n in before if n != number)
    assert Attendance.objects.get(session=session, member=late).left_at is None


def test_a_late_arrival_keeps_their_fixed_table_and_never_seat_with(club):
    session = session_with(club, members(club, 12), date=DAY)  # three tables of four
    published(session)
    # With nothing else to choose by, a late arrival would join table 1.
    fixed = MemberFactory(club=club, fixed_table=3)
    assert seat_late_arrival(session, fixed).changed
    assert table_of(session, fixed) == 3
    choosy = MemberFactory(club=club)
    for seat in Seat.objects.filter(plan__session=session, table__number=1):
        KeepApart.objects.create(club=club, member_a=choosy, member_b=seat.member)

    assert seat_late_arrival(session, choosy).changed
    assert table_of(session, choosy) == 2


def test_a_late_arrival_with_no_room_is_explained_and_nothing_moves(club):
    session = session_with(club, members(club, 10), date=DAY)  # two tables of five
    published(session)
    before = snapshot(session)
    late = MemberFactory(club=club)

    outcome = seat_late_arrival(session, late)

    assert not outcome.changed
    assert "No table can take" in outcome.message and late.table_name in outcome.message
    assert snapshot(session) == before
    assert Attendance.objects.filter(session=session, member=late).exists()  # checked in
    value, label = outcome.choices[0]
    assert "New table" in label
    assert seat_late_arrival(session, late, value).changed
    assert sorted(len(s) for s in snapshot(session).values()) == [3, 4, 4]


def test_an_early_leaver_changes_their_table_only(club):
    session = session_with(club, members(club, 9), date=DAY)  # a four and a five
    published(session)
    before = snapshot(session)
    five = next(n for n, s in before.items() if len(s) == 5)
    leaver = Seat.objects.get(plan__session=session, table__number=five, position=2).member

    outcome = remove_early_leaver(session, leaver)

    after = snapshot(session)
    assert outcome.changed
    assert len(after[five]) == 4 and leaver.pk not in [pk for pk, _, _ in after[five]]
    assert all(after[n] == before[n] for n in before if n != five)
    assert Attendance.objects.get(session=session, member=leaver).left_at is not None


def test_a_table_down_to_two_waits_for_the_coordinators_choice(club):
    club.odd_tables = "three"
    club.save()
    session = session_with(club, members(club, 7), date=DAY)  # a four and a three
    published(session)
    before = snapshot(session)
    three = next(n for n, s in before.items() if len(s) == 3)
    leaver = Seat.objects.get(plan__session=session, table__number=three, position=1).member

    outcome = remove_early_leaver(session, leaver)

    assert not outcome.changed and "down to two" in outcome.message
    assert snapshot(session) == before  # nothing saved until the coordinator chooses
    assert Attendance.objects.get(session=session, member=leaver).left_at is None
    values = [value for value, _ in outcome.choices]
    assert outcome.fallback[0] == "keep"

    assert remove_early_leaver(session, leaver, values[0]).changed
    after = snapshot(session)
    assert leaver.pk not in {pk for s in after.values() for pk, _, _ in s}
    assert sum(len(s) for s in after.values()) == 6
    assert all(len(s) >= 3 for s in after.values())


def test_an_error_half_way_leaves_the_saved_plan_as_it_was(club):
    session = session_with(club, members(club, 12), date=DAY)
    make_seating(session, seed=1)
    before = snapshot(session)
    seed = SeatingPlan.objects.get(session=session).rng_seed

    with (
        mock.patch.object(Seat.objects, "bulk_create", side_effect=RuntimeError("disk full")),
        pytest.raises(RuntimeError),
    ):
        reroll(session, seed=2)

    assert snapshot(session) == before
    assert SeatingPlan.objects.get(session=session).rng_seed == seed


def test_a_first_plan_that_fails_leaves_no_plan_at_all(club):
    session = session_with(club, members(club, 8), date=DAY)
    with (
        mock.patch.object(Seat.objects, "bulk_create", side_effect=RuntimeError("disk full")),
        pytest.raises(RuntimeError),
    ):
        make_seating(session, seed=2)
    assert not SeatingPlan.objects.filter(session=session).exists()


def test_too_few_people_are_refused_in_plain_words(club):
    session = session_with(club, members(club, 2), date=DAY)
    with pytest.raises(
        SeatingError, match="Only 2 people are checked in: a table needs at least 3"
    ):
        make_seating(session)
    assert not SeatingPlan.objects.filter(session=session).exists()


def test_a_closed_session_cannot_change(club):
    session = session_with(club, members(club, 8), date=DAY)
    make_seating(session, seed=1)
    a, b = (
        Seat.objects.get(plan__session=session, table__number=n, position=1).member for n in (1, 2)
    )
    before = snapshot(session)
    Session.objects.filter(pk=session.pk).update(status=Session.Status.CLOSED)
    session.refresh_from_db()
    for change in (
        lambda: reroll(session),
        lambda: swap_members(session, a, b),
        lambda: plan(session).lock_table(1),
        lambda: plan(session).publish(),
    ):
        with pytest.raises(SessionClosed, match="closed, so its seating can no longer change"):
            change()
    assert snapshot(session) == before


def test_publishing_from_a_stale_page_publishes_once(club):
    session = session_with(club, members(club, 8), date=DAY)
    make_seating(session, seed=1)
    first, second = plan(session), plan(session)
    first.publish()
    second.status = SeatingPlan.Status.DRAFT  # what a page loaded before the first press saw
    with pytest.raises(SeatingError, match="Someone else changed the seating"):
        second.publish()
    assert plan(session).published_at == first.published_at


def test_publishing_forgets_what_undo_would_bring_back(club):
    session = session_with(club, members(club, 8), date=DAY)
    make_seating(session, seed=1)
    a, b = (
        Seat.objects.get(plan__session=session, table__number=n, position=1).member for n in (1, 2)
    )
    swap_members(session, a, b)
    assert plan(session).undo["what"] == f"the swap of {a} and {b}"
    plan(session).publish()
    assert plan(session).undo is None
    plan(session).unpublish()
    with pytest.raises(SeatingError, match="nothing to undo"):
        undo(session)


# --- seating changes during play: only the changed tables' matches change -----------------


def _play_tables(session, finished: set[int]) -> None:
    """Start play under fan rules; the tables in `finished` play a one-round match to its
    end, every other table records one draw (a hand that must stay where it is)."""
    from games.models import Match
    from games.start import start_play
    from scoring.recording import record_draw

    for match in start_play(session):
        if match.table_number in finished:
            Match.objects.filter(pk=match.pk).update(flow_options={"rounds": 1})
            match.refresh_from_db()
            while match.is_in_play:
                record_draw(match, match.replay()[-1].hand)
                match.refresh_from_db()
        else:
            record_draw(match, 1)


def _tables_play(session) -> dict[int, tuple]:
    """Each table's latest match: its id, status, ending, version, hands and state."""
    from games.models import Match

    latest = {}
    for match in Match.objects.filter(session=session).order_by("pk"):
        latest[match.table_number] = match
    return {
        number: (
            match.pk,
            match.status,
            match.ending,
            match.version,
            [(h.pk, h.number, h.voided_at) for h in match.hands.order_by("pk")],
            match.replay()[-1],
        )
        for number, match in latest.items()
    }


def _seated(session) -> dict[int, list[int]]:
    return {n: [pk for pk, _, _ in seats] for n, seats in snapshot(session).items()}


def _assert_only_changed_tables_changed(session, seats_before, play_before) -> int:
    """Tables whose seats did not change keep their match exactly; a changed table of
    three to five plays a new match with the people now there, and the match it had keeps
    its hands. Returns how many finished tables were left alone."""
    from games.models import Match

    seats_after, play_after = _seated(session), _tables_play(session)
    untouched_finished = 0
    for number, seats in seats_after.items():
        if seats_before.get(number) == seats:
            assert play_after[number] == play_before[number], f"table {number} changed"
            untouched_finished += play_before[number][1] == Match.Status.FINISHED
        elif 3 <= len(seats) <= 5:
            match = Match.objects.get(pk=play_after[number][0])
            assert match.is_in_play and match.hands.count() == 0
            assert sorted(c.member_id for c in match.chair_list()) == sorted(seats)
    for number, before in play_before.items():
        old = Match.objects.get(pk=before[0])
        assert [(h.pk, h.number, h.voided_at) for h in old.hands.order_by("pk")] == before[4]
        if seats_after.get(number) != seats_before[number] and before[1] == "in_play":
            assert old.ending == Match.Ending.TABLE_CHANGED
    return untouched_finished


def _changes(club, session) -> list:
    """Every seating change the code makes during play (a late arrival; a leaver from
    each table), as functions taking the coordinator's choice."""
    late = MemberFactory(club=club)
    changes = [lambda choice="": seat_late_arrival(session, late, choice)]
    for seat in Seat.objects.filter(plan__session=session, position=1).order_by("table__number"):
        changes.append(
            lambda choice="", member=seat.member: remove_early_leaver(session, member, choice)
        )
    return changes


# Layouts reached in play: people, and the club's choice for an odd number. Eight: a late
# arrival joins a table; ten: two fives, no room; thirteen: three tables; seven with tables
# of three: a leaver leaves two.
LAYOUTS = [(8, "five"), (10, "five"), (13, "five"), (7, "three")]


@pytest.mark.parametrize(("people", "odd_tables"), LAYOUTS)
def test_every_seating_change_in_play_leaves_every_other_tables_match_alone(
    club, people, odd_tables
):
    """The kind of bug where a change at one table restarted finished matches elsewhere:
    for every late arrival and leaver, and each choice the coordinator is offered, with
    every table but the last finished (the last one in play), only the changed tables'
    matches change."""
    club.rule_set, club.odd_tables = "fan", odd_tables
    club.save()
    state = {"day": DAY, "covered": 0}

    def fresh():
        state["day"] += datetime.timedelta(days=1)
        session = session_with(club, members(club, people), date=state["day"])
        published(session)
        _play_tables(session, set(sorted(_seated(session))[:-1]))
        return session

    session = fresh()
    for case in range(len(_changes(club, session))):
        seats_before, play_before = _seated(session), _tables_play(session)
        outcome = _changes(club, session)[case]()
        if outcome.changed:
            state["covered"] += _assert_only_changed_tables_changed(
                session, seats_before, play_before
            )
            session = fresh()
            continue
        assert (_seated(session), _tables_play(session)) == (seats_before, play_before)
        offered = [value for value, _ in outcome.choices]
        offered += [outcome.fallback[0]] if outcome.fallback else []
        for choice in offered:
            seats_before, play_before = _seated(session), _tables_play(session)
            assert _changes(club, session)[case](choice).changed
            state["covered"] += _assert_only_changed_tables_changed(
                session, seats_before, play_before
            )
            session = fresh()
    assert state["covered"]  # finished tables were left alone, and stayed as they were
