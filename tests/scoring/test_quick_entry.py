"""Quick entry through a real match: a total the table agreed is checked by the engine, and
its payments are exactly what the engine pays for a full hand of the same value, with the
dealer and winds the match's flow gives (classical's dealer need not be East)."""

import random

import pytest

from games.start import start_play
from scoring.engine import score
from scoring.engine.random_hands import random_hand
from scoring.recording import RecordingError, Win, preview_win, record_draw, record_win
from scoring.table_rules import match_ruleset
from tests.games.helpers import seated_session

pytestmark = pytest.mark.django_db

RULES = ["classical", "hk", "fan", "u3a"]


def _match(club, rules, sizes=(4,)):
    club.rule_set = rules
    club.save()
    return start_play(seated_session(club, sizes=sizes))[0]


CASES = [(rules, sizes) for rules in RULES for sizes in ((4,), (5,), (3,))]


@pytest.mark.parametrize(("rules", "sizes"), CASES)
def test_full_hands_and_quick_totals_pay_the_same(club, rules, sizes):
    """Score random legal hands as the table plays them (winds from the match's state)
    and record each one's total by quick entry: every chair's payment agrees."""
    match = _match(club, rules, sizes)
    ruleset = match_ruleset(match)
    rng = random.Random(f"{rules}{sizes}")
    checked, kinds = 0, set()
    for _ in range(400):
        state = match.replay()[-1]
        if state.over or checked >= 12:
            break
        if state.goulash:
            record_draw(match, state.hand)
            continue
        hand = random_hand(rng, shapes=ruleset.shapes)
        hand.pop("first_turn", None)
        winner = rng.choice(state.seated)
        hand.update(
            seat_wind=state.winds[winner],
            dealer=state.winds[state.dealer],
            prevailing_wind=state.round,
            options={"players": len(state.seated)},
        )
        discarder = None
        if hand["won_by"] in ("discard", "robbing_kong"):
            discarder = rng.choice([c for c in state.seated if c != winner])
            hand["discarder"] = state.winds[discarder]
        result = score(hand, ruleset)
        if not result.allowed:
            continue
        recorded = record_win(
            match, state.hand, Win(winner, hand["won_by"], discarder, result.total)
        )
        expected = [result.payments.get(w, 0) if w else 0 for w in state.winds]
        assert recorded.payments[: match.chair_count] == expected, hand
        kinds.add((discarder is None, winner == state.dealer))
        checked += 1
    assert checked >= 8
    assert len(kinds) >= 3  # self-drawn and discard wins, by the dealer and by others


@pytest.mark.parametrize(
    ("rules", "total", "reason"),
    [
        ("hk", 0, "below this club's minimum"),
        ("hk", 99, "above the limit"),
        ("classical", 47, "even"),
        ("classical", 999999, "above the limit"),
        ("u3a", 1, "below"),
    ],
)
def test_refused_totals_say_why_and_save_nothing(club, rules, total, reason):
    match = _match(club, rules)
    win = Win(winner=1, won_by="discard", discarder=2, total=total)
    with pytest.raises(RecordingError, match=reason):
        preview_win(match, 1, win)
    with pytest.raises(RecordingError, match=reason):
        record_win(match, 1, win)
    assert not match.hands.exists()


def test_a_discarder_sitting_out_is_refused(club):
    match = _match(club, "u3a", sizes=(5,))
    with pytest.raises(RecordingError, match="sitting out|sits out"):
        record_win(match, 1, Win(winner=0, won_by="discard", discarder=4, total=10))


def test_u3a_goulash_win_takes_the_pot_and_needs_five_points(club):
    match = _match(club, "u3a")
    record_draw(match, 1)
    with pytest.raises(RecordingError, match="5"):
        record_win(match, 2, Win(winner=2, won_by="wall", discarder=None, total=4))
    hand = record_win(match, 2, Win(winner=2, won_by="wall", discarder=None, total=6))
    assert hand.goulash and hand.payments[:4] == [-5, -5, 15, -5]
    assert match.tallies() == [-5, -5, 15, -5]
