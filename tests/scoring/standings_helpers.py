"""Building seasons for standings tests: matches and hands written directly (payments
summing to zero, as the database insists), then the derived results refreshed the way
recording a hand does."""

import datetime

from club.models import Attendance, Session
from games.models import Chair, Match
from scoring.models import Hand
from scoring.standings import refresh_match

STARTING = {"classical": 2000, "u3a": 0, "hk": 500, "fan": 500}


def session_on(club, date, status=Session.Status.CLOSED, members=()):
    session = Session.objects.create(club=club, date=date, status=status)
    for member in members:
        Attendance.objects.create(session=session, member=member)
    return session


def win(winner, total, payments, discarder=None, voided=False):
    return {
        "winner": winner,
        "total": total,
        "payments": payments,
        "discarder": discarder,
        "voided": voided,
    }


def draw(size):
    return {
        "winner": None,
        "total": None,
        "payments": [0] * size,
        "discarder": None,
        "voided": False,
    }


def play(session, table, members, hands, rules="classical", ending="flow"):
    """A match at `table` with `members` in chair order and `hands` recorded in order (a
    voided hand keeps its number, which the next hand reuses, as a correction does)."""
    match = Match.objects.create(
        session=session,
        table_number=table,
        rules=rules,
        starting_tally=STARTING[rules],
        status=Match.Status.FINISHED if ending else Match.Status.IN_PLAY,
        ending=ending or "",
    )
    Chair.objects.bulk_create(
        Chair(match=match, number=n, member=member) for n, member in enumerate(members)
    )
    number = 0
    for spec in hands:
        number += 1
        hand = Hand(match=match, number=number, winner=spec["winner"], total=spec["total"])
        if spec["winner"] is not None:
            hand.won_by = "discard" if spec["discarder"] is not None else "wall"
            hand.discarder = spec["discarder"]
        hand.payments = spec["payments"]
        if spec["voided"]:
            hand.voided_at = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
            number -= 1
        hand.save()
    refresh_match(match)
    return match
