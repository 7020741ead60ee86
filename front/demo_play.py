"""Demo matches: the demo club's past evenings played hand by hand.

Each hand is a random legal hand scored by the engine under the match's winds, recorded
by quick entry with the total the engine gave, so the tallies are ones a real table
could have reached.
"""

from __future__ import annotations

import random

from club.models import Session
from games.models import Match
from games.start import end_play, start_play
from scoring.engine import score
from scoring.engine.random_hands import random_hand
from scoring.recording import Win, record_draw, record_win
from scoring.table_rules import match_ruleset

# About two and a half hours of play at eight to ten minutes a hand.
HANDS_PER_EVENING = (12, 18)
DRAW_CHANCE = 0.08


def play_random_hand(match: Match, rng: random.Random, by=None) -> None:
    """Record the next hand of `match`: usually a win worth what the engine scores for a
    random legal hand under this hand's winds, sometimes a draw."""
    state = match.replay()[-1]
    if rng.random() < DRAW_CHANCE:
        record_draw(match, state.hand, by=by)
        return
    ruleset = match_ruleset(match)
    winner = rng.choice(state.seated)
    for _ in range(50):
        hand = random_hand(rng, shapes=ruleset.shapes)
        hand.pop("first_turn", None)
        hand.update(
            seat_wind=state.winds[winner],
            dealer=state.winds[state.dealer],
            prevailing_wind=state.round,
        )
        discarder = None
        if hand["won_by"] in ("discard", "robbing_kong"):
            discarder = rng.choice([c for c in state.seated if c != winner])
            hand["discarder"] = state.winds[discarder]
        result = score(hand, ruleset)
        if result.allowed and (not state.goulash or result.total >= 5):
            record_win(match, state.hand, Win(winner, hand["won_by"], discarder, result.total), by)
            return
    record_draw(match, state.hand, by=by)


def play_evening(session: Session, rng: random.Random) -> None:
    """Start play on the session's published seating, play each table's hands, end play."""
    for match in start_play(session):
        for _ in range(rng.randint(*HANDS_PER_EVENING)):
            match.refresh_from_db()
            if not match.is_in_play:
                break
            play_random_hand(match, rng)
    end_play(session)


def demo_evenings(club, rng: random.Random) -> None:
    """Every past demo session with a published seating gets its evening of hands."""
    past = Session.objects.filter(
        club=club, status=Session.Status.CLOSED, seating__status="published"
    )
    for session in past.order_by("date"):
        Session.objects.filter(pk=session.pk).update(status=Session.Status.IN_PLAY)
        session.refresh_from_db()
        play_evening(session, rng)
        Session.objects.filter(pk=session.pk).update(status=Session.Status.CLOSED)
