"""Recording hands: draws and goulash, undo, stale and doubled forms, database guards."""

import pytest
from django.db import IntegrityError, transaction

from games.models import Match
from games.start import start_play
from scoring.models import Hand, KongChips
from scoring.recording import (
    AlreadyRecorded,
    EveningEnded,
    RecordingError,
    record_draw,
    record_kong,
    take_back_kong,
    undo_last_hand,
)
from tests.games.helpers import seated_session
from tests.threads import at_once, failures

pytestmark = pytest.mark.django_db


@pytest.fixture
def u3a_match(club):
    club.rule_set = "u3a"
    club.save()
    return start_play(seated_session(club))[0]


def test_a_draw_makes_the_next_hand_a_goulash_with_the_same_dealer(u3a_match):
    hand = record_draw(u3a_match, 1)
    assert (hand.number, hand.is_draw, hand.goulash, hand.payments) == (1, True, False, [0] * 5)
    state = u3a_match.replay()[-1]
    assert (state.hand, state.dealer, state.goulash) == (2, 0, True)
    assert record_draw(u3a_match, 2).goulash is True


def test_a_stale_form_is_refused_as_already_recorded(u3a_match):
    record_draw(u3a_match, 1)
    with pytest.raises(AlreadyRecorded, match="Hand 1 is already recorded"):
        record_draw(u3a_match, 1)
    with pytest.raises(RecordingError, match="next hand to record is hand 2, not 5"):
        record_draw(u3a_match, 5)
    assert u3a_match.hands.count() == 1


def test_undo_voids_the_last_hand_and_the_deal_follows(u3a_match):
    record_draw(u3a_match, 1)
    undone = undo_last_hand(u3a_match, 1)
    assert undone.is_voided and undone.void_reason
    assert u3a_match.replay()[-1].hand == 1 and not u3a_match.replay()[-1].goulash
    # The number is free again; the voided hand stays in the records.
    again = record_draw(u3a_match, 1)
    assert again.pk != undone.pk
    assert Hand.objects.filter(match=u3a_match).count() == 2
    with pytest.raises(AlreadyRecorded, match="already undone"):
        undo_last_hand(u3a_match, 7)


def test_nothing_to_undo(u3a_match):
    with pytest.raises(RecordingError, match="no hand to undo"):
        undo_last_hand(u3a_match, 1)


def test_a_finished_match_refuses_new_hands(u3a_match):
    u3a_match.status, u3a_match.ending = Match.Status.FINISHED, Match.Ending.TABLE_CHANGED
    u3a_match.save()
    with pytest.raises(RecordingError, match="finished"):
        record_draw(u3a_match, 1)


def test_a_match_the_evening_ended_says_so(u3a_match):
    """Not "finished, ask for a correction": the evening can be reopened to add it."""
    record_draw(u3a_match, 1)
    u3a_match.status, u3a_match.ending = Match.Status.FINISHED, Match.Ending.CLOSED
    u3a_match.save()
    for write in (
        lambda: record_draw(u3a_match, 2),
        lambda: record_kong(u3a_match, 2, 0, "concealed"),
        lambda: undo_last_hand(u3a_match, 1),
    ):
        with pytest.raises(EveningEnded):
            write()
    assert u3a_match.live_hands().count() == 1 and not u3a_match.kong_chips.exists()


def test_each_write_bumps_the_version(u3a_match):
    record_draw(u3a_match, 1)
    undo_last_hand(u3a_match, 1)
    u3a_match.refresh_from_db()
    assert u3a_match.version == 2


def test_the_database_refuses_payments_that_do_not_sum_to_zero(u3a_match):
    hand = Hand(match=u3a_match, number=1, winner=0, won_by="wall", total=10)
    hand.payments = [30, -10, -10, -9]
    with pytest.raises(IntegrityError), transaction.atomic():
        hand.save()


def test_the_database_refuses_two_live_hands_with_one_number(u3a_match):
    Hand.objects.create(match=u3a_match, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(match=u3a_match, number=1)


@pytest.mark.parametrize(
    "fields",
    [
        {"winner": 0, "won_by": "discard", "total": 10},  # no discarder
        {"winner": 0, "won_by": "wall", "discarder": 1, "total": 10},  # self-drawn with one
        {"winner": 1, "won_by": "discard", "discarder": 1, "total": 10},  # paid themselves
        {"winner": 0, "total": 10},  # a win without how
        {"won_by": "wall"},  # how, without a winner
        {"winner": 7, "won_by": "wall", "total": 10},  # no such chair
    ],
)
def test_the_database_refuses_impossible_outcomes(u3a_match, fields):
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(match=u3a_match, number=1, **fields)


def ten_taps_at_once(write) -> list[str]:
    """`write` from ten threads released together: "done" or "already" for each."""
    results = at_once([write] * 10)
    assert not [r for r in failures(results) if not isinstance(r, AlreadyRecorded)], results
    return sorted("already" if isinstance(r, AlreadyRecorded) else "done" for r in results)


@pytest.mark.django_db(transaction=True)
def test_the_same_hand_from_ten_devices_at_once_is_recorded_once(club):
    club.rule_set = "u3a"
    club.save()
    match = start_play(seated_session(club))[0]
    assert ten_taps_at_once(lambda: record_draw(match, 1)) == ["already"] * 9 + ["done"]
    assert Hand.objects.filter(match=match).count() == 1


@pytest.mark.django_db(transaction=True)
def test_kong_chips_taken_back_from_ten_devices_at_once_are_voided_once(club):
    club.rule_set = "u3a"
    club.save()
    match = start_play(seated_session(club))[0]
    kong = record_kong(match, 1, 2, "concealed")
    assert ten_taps_at_once(lambda: take_back_kong(match, kong.pk)) == ["already"] * 9 + ["done"]
    assert KongChips.objects.get().is_voided
    assert match.tallies() == [0, 0, 0, 0]


@pytest.mark.django_db(transaction=True)
def test_different_tables_record_at_once(club):
    club.rule_set = "u3a"
    club.save()
    matches = start_play(seated_session(club, sizes=(4,) * 8))
    results = at_once([lambda m=m: record_draw(m, 1) for m in matches])
    assert not failures(results), results
    assert Hand.objects.count() == len(matches)
