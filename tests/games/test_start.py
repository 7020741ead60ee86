"""Starting play from the published seating, following seating changes, ending play."""

import pytest

from club.models import Seat, SeatingPlan, Session, SessionClosed
from games.models import Match
from games.start import CannotStart, end_play, follow_seating, start_play
from scoring.recording import record_draw
from tests.games.helpers import seated_members, seated_session

pytestmark = pytest.mark.django_db


def test_one_match_per_table_with_chairs_in_wind_order(club):
    session = seated_session(club, sizes=(4, 5, 3))
    matches = start_play(session)
    assert [m.table_number for m in matches] == [1, 2, 3]
    for match, size in zip(matches, (4, 5, 3), strict=True):
        chairs = [c.member for c in match.chair_list()]
        assert chairs == seated_members(session, match.table_number)
        assert match.chair_count == size
    five = matches[1]
    # The Dreamer (fifth seat) is chair 4 and sits out the first hand.
    assert five.replay()[0].winds == ("E", "S", "W", "N", None)
    session.refresh_from_db()
    assert session.status == Session.Status.IN_PLAY


def test_the_clubs_rules_are_snapshotted(club):
    club.rule_set, club.starting_tally = "u3a", 100
    club.save()
    match = start_play(seated_session(club))[0]
    club.rule_set, club.starting_tally = "hk", 500
    club.save()
    match.refresh_from_db()
    assert (match.rules, match.starting_tally) == ("u3a", 100)
    assert match.tallies() == [100, 100, 100, 100]


def test_starting_twice_changes_nothing(club):
    session = seated_session(club, sizes=(4, 4))
    start_play(session)
    assert start_play(session) == []
    assert Match.objects.filter(session=session).count() == 2


def test_refused_without_a_published_seating(club):
    session = seated_session(club)
    SeatingPlan.objects.filter(session=session).update(status=SeatingPlan.Status.DRAFT)
    with pytest.raises(CannotStart, match="Publish the seating first"):
        start_play(session)
    assert not Match.objects.exists()


def test_refused_on_a_closed_session(club):
    session = seated_session(club, status=Session.Status.CLOSED)
    with pytest.raises(SessionClosed):
        start_play(session)


def test_a_changed_table_ends_its_match_and_starts_a_new_one(club):
    session = seated_session(club, sizes=(4, 4))
    first, second = start_play(session)
    record_draw(first, 1)
    # Someone at table 1 leaves; a member from table 2 takes the chair (as the seating's
    # late arrival / leaver changes do).
    leaver = Seat.objects.get(plan__session=session, table__number=1, wind="N")
    mover = Seat.objects.get(plan__session=session, table__number=2, wind="N")
    leaver.delete()
    mover.table = leaver.table
    mover.save()
    follow_seating(session)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.ending == Match.Ending.TABLE_CHANGED
    assert second.ending == Match.Ending.TABLE_CHANGED
    assert first.hands.count() == 1  # the hand played stays with those who played it
    new = {m.table_number: m for m in Match.objects.in_play()}
    assert [c.member for c in new[1].chair_list()] == seated_members(session, 1)
    assert new[2].chair_count == 3


def test_unchanged_tables_keep_their_match(club):
    session = seated_session(club, sizes=(4, 4))
    start_play(session)
    follow_seating(session)
    assert Match.objects.count() == 2 and Match.objects.in_play().count() == 2


def test_end_play_finishes_every_match(club):
    session = seated_session(club, sizes=(4, 4))
    start_play(session)
    assert end_play(session) == 2
    assert set(Match.objects.values_list("status", "ending")) == {
        (Match.Status.FINISHED, Match.Ending.CLOSED)
    }


def test_a_late_arrival_and_a_leaver_during_play_change_only_their_tables_match(club):
    from club.seating.changes import remove_early_leaver, seat_late_arrival
    from tests.factories import MemberFactory

    session = seated_session(club, sizes=(4, 4))
    first, second = start_play(session)
    record_draw(first, 1)
    late = MemberFactory(club=club)
    outcome = seat_late_arrival(session, late)
    assert outcome.changed
    joined = Match.objects.in_play().get(chairs__member=late)
    other = second if joined.table_number == 1 else first
    assert joined.chair_count == 5
    assert Match.objects.get(pk=other.pk).is_in_play  # the other table plays on
    leaver = next(c.member for c in joined.chair_list() if c.member != late)
    assert remove_early_leaver(session, leaver).changed
    now = Match.objects.in_play().get(table_number=joined.table_number)
    assert leaver not in [c.member for c in now.chair_list()] and now.chair_count == 4
    # Hands already played stay with the match they were played in.
    assert first.hands.count() == 1


def _finish_by_flow(match) -> None:
    """Play a one-round fan match to its end with draws (the deal passes every hand)."""
    Match.objects.filter(pk=match.pk).update(flow_options={"rounds": 1})
    match.refresh_from_db()
    while match.is_in_play:
        record_draw(match, match.replay()[-1].hand)
        match.refresh_from_db()


def _three_tables_one_finished(club):
    """Tables of five, four and four under fan rules; table 1 (the five, so a late
    arrival cannot join it) has played its match to the end, tables 2 and 3 a draw."""
    club.rule_set = "fan"
    club.save()
    session = seated_session(club, sizes=(5, 4, 4))
    finished, second, third = start_play(session)
    _finish_by_flow(finished)
    record_draw(second, 1)
    record_draw(third, 1)
    return session, finished


def _as_it_was(match) -> tuple:
    match = Match.objects.get(pk=match.pk)
    hands = list(match.hands.order_by("number").values_list("pk", "number", "voided_at"))
    return match.status, match.ending, match.version, hands, match.replay()[-1]


def test_a_late_arrival_leaves_a_finished_table_alone(club):
    from club.seating.changes import seat_late_arrival
    from tests.factories import MemberFactory

    session, finished = _three_tables_one_finished(club)
    before = _as_it_was(finished)
    late = MemberFactory(club=club)

    assert seat_late_arrival(session, late).changed

    assert _as_it_was(finished) == before
    assert not Match.objects.filter(table_number=1).exclude(pk=finished.pk).exists()
    joined = Match.objects.in_play().get(chairs__member=late)
    assert joined.table_number in (2, 3) and joined.chair_count == 5
    assert [c.member for c in joined.chair_list()] == seated_members(session, joined.table_number)
    old = Match.objects.get(table_number=joined.table_number, ending=Match.Ending.TABLE_CHANGED)
    assert old.hands.count() == 1
    assert Match.objects.in_play().count() == 2  # the changed table and the untouched one


def test_a_leaver_leaves_a_finished_table_alone(club):
    from club.seating.changes import KEEP, remove_early_leaver

    session, finished = _three_tables_one_finished(club)
    before = _as_it_was(finished)
    leaver = seated_members(session, 2)[0]

    outcome = remove_early_leaver(session, leaver)
    if not outcome.changed:  # three beside a five: just take them out
        outcome = remove_early_leaver(session, leaver, KEEP)
    assert outcome.changed

    assert _as_it_was(finished) == before
    assert not Match.objects.filter(table_number=1).exclude(pk=finished.pk).exists()
    now = Match.objects.in_play().get(table_number=2)
    assert [c.member for c in now.chair_list()] == seated_members(session, 2)
    assert now.chair_count == 3 and leaver not in [c.member for c in now.chair_list()]


def test_starting_play_again_after_a_table_finished_changes_nothing(club):
    session, finished = _three_tables_one_finished(club)
    before = _as_it_was(finished)
    assert start_play(session) == []
    assert _as_it_was(finished) == before
    assert Match.objects.count() == 3
