"""Voiding a record: it stays, marked with who, when and why, and no longer counts."""

import datetime

from django.utils import timezone

from games.start import start_play
from scoring.models import Hand
from scoring.recording import record_draw
from tests.games.helpers import one_named_table


def test_a_voided_hand_stays_marked_and_no_longer_counts(club, coordinator):
    match = start_play(one_named_table("u3a"))[0]
    hand = record_draw(match, 1)
    moment = timezone.now() - datetime.timedelta(minutes=1)
    hand.void(coordinator, "Recorded at the wrong table.", at=moment)
    hand.refresh_from_db()
    assert (hand.voided_at, hand.voided_by, hand.void_reason) == (
        moment,
        coordinator,
        "Recorded at the wrong table.",
    )
    assert hand.is_voided
    assert not Hand.objects.live().filter(pk=hand.pk).exists()
    assert Hand.objects.filter(pk=hand.pk).exists()


def test_a_void_without_a_moment_is_marked_now(club, coordinator):
    match = start_play(one_named_table("u3a"))[0]
    hand = record_draw(match, 1)
    before = timezone.now()
    hand.void(coordinator, "Undone.")
    hand.refresh_from_db()
    assert before <= hand.voided_at <= timezone.now()
