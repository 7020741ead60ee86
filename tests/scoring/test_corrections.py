"""Correcting a hand in the middle of a match: the hand's row is voided and kept, the
corrected one saved, and everything after it (numbers, deal, goulash, payments, kong chips,
tallies, the match's end) re-derived; a correction that would leave a later hand impossible
is refused naming it, saving nothing."""

import pytest

from club.models import Session
from games.models import Match
from games.start import start_play
from scoring.corrections import (
    CorrectionRefused,
    Draw,
    Void,
    correct_hand,
    rederive,
)
from scoring.models import Correction, Hand, KongChips
from scoring.recording import Win, record_draw, record_full, record_kong, record_win
from tests.factories import UserFactory
from tests.games.helpers import seated_session

pytestmark = pytest.mark.django_db


def _matches(club, rules="u3a", sizes=(4,), count=1, flow_options=None):
    """`count` matches at separate tables of the same session, identical rules."""
    club.rule_set = rules
    club.save()
    session = seated_session(club, sizes=sizes * count, status=Session.Status.PLANNED)
    matches = start_play(session)
    if flow_options:
        Match.objects.filter(session=session).update(flow_options=flow_options)
        for match in matches:
            match.flow_options = flow_options
    return matches


def _play(match, outcomes):
    """Record outcomes in order: ("draw",) or (winner, won_by, discarder, total)."""
    for outcome in outcomes:
        number = match.replay()[-1].hand
        if outcome == ("draw",):
            record_draw(match, number)
        else:
            record_win(match, number, Win(*outcome))
        match.refresh_from_db()


def _record(match):
    """What the match's live record says: per hand (number, outcome, goulash, payments),
    the tallies and the state after the last hand."""
    hands = [
        (h.number, h.flow_outcome(), h.total, h.goulash, h.payments) for h in match.live_hands()
    ]
    state = match.replay()[-1]
    return hands, match.tallies(), (state.hand, state.dealer, state.winds, state.goulash)


PLAYED = [
    (1, "wall", None, 10),  # chair 1 wins: the deal passes to chair 1
    ("draw",),  # hand 3 is a goulash, chair 1 still deals
    (2, "wall", None, 10),  # a goulash hand: chair 2 takes the pot, the deal passes
    (2, "discard", 3, 8),  # the dealer wins on chair 3's discard: keeps the deal
]


def test_re_recording_a_draw_as_a_win_re_derives_the_goulash_deal_and_tallies(club):
    match, fresh = _matches(club, count=2)
    _play(match, PLAYED)
    boss = UserFactory()
    assert match.live_hands().get(number=3).goulash

    correction = correct_hand(
        match, 2, Win(1, "wall", None, 12), "Betty went out, it was not a draw", by=boss
    )

    # The same as if the table had recorded it right first time.
    _play(fresh, [PLAYED[0], (1, "wall", None, 12), *PLAYED[2:]])
    assert _record(match) == _record(fresh)
    assert not match.live_hands().get(number=3).goulash
    # The audit trail: the old row kept, voided with who and why; before and after.
    old = Hand.objects.get(pk=correction.original_id)
    assert old.is_voided and old.voided_by == boss
    assert old.void_reason == "Betty went out, it was not a draw"
    assert correction.before["winner"] is None and correction.after["total"] == 12
    assert correction.after["payments"] == match.live_hands().get(number=2).payments
    assert correction.replacement == match.live_hands().get(number=2)
    assert correction.made_by == boss and correction.kind == Correction.Kind.CHANGED
    assert [c["now"]["number"] for c in correction.knock_on] == [3]  # no longer a goulash
    assert correction.knock_on[0]["was"]["goulash"] and not correction.knock_on[0]["now"]["goulash"]
    assert correction.tallies_after == match.tallies() != correction.tallies_before
    match.refresh_from_db()
    assert match.version == 5  # four hands and the correction


def test_voiding_a_hand_moves_the_later_hands_up_and_re_derives_them(club):
    match, fresh = _matches(club, count=2)
    _play(match, PLAYED)
    correction = correct_hand(match, 2, Void(), "Recorded by mistake")
    _play(fresh, [PLAYED[0], *PLAYED[2:]])
    assert _record(match) == _record(fresh)
    assert [h.number for h in match.live_hands()] == [1, 2, 3]
    assert correction.kind == Correction.Kind.VOIDED and correction.after is None
    assert Hand.objects.filter(match=match).count() == 4  # nothing deleted


def test_a_correction_of_the_total_changes_only_that_hand(club):
    (match,) = _matches(club)
    _play(match, PLAYED)
    correction = correct_hand(match, 4, Win(2, "discard", 3, 20), "Miscounted")
    assert match.live_hands().get(number=4).payments[2:4] == [20, -20]
    assert correction.knock_on == []


def test_kong_chips_follow_the_dealer_and_move_up_with_their_hand(club):
    match, fresh = _matches(club, count=2)
    _play(match, PLAYED[:1])
    record_kong(match, 2, 0, "concealed")  # chair 0 is not the dealer in hand 2
    _play(match, [(0, "wall", None, 10)])
    record_kong(match, 3, 3, "discard")
    correct_hand(match, 1, Void(), "Never played")
    record_kong(fresh, 1, 0, "concealed")  # now chair 0 deals hand 1
    _play(fresh, [(0, "wall", None, 10)])
    record_kong(fresh, 2, 3, "discard")
    kongs = [(k.hand_number, k.payments) for k in KongChips.objects.filter(match=match)]
    assert kongs == [(k.hand_number, k.payments) for k in KongChips.objects.filter(match=fresh)]
    assert match.tallies() == fresh.tallies()


def test_voiding_a_hand_voids_the_kong_chips_made_in_it(club):
    (match,) = _matches(club)
    _play(match, PLAYED[:1])
    record_kong(match, 2, 0, "concealed")
    _play(match, PLAYED[1:2])
    correct_hand(match, 2, Void(), "Never played")
    assert KongChips.objects.get().is_voided
    paid = [h.payments[:4] for h in match.live_hands()]
    assert match.tallies() == [sum(chair) for chair in zip(*paid, strict=True)]


def test_a_correction_that_makes_a_later_hand_impossible_is_refused_saving_nothing(club):
    (match,) = _matches(club, sizes=(5,))
    names = [chair.member.table_name for chair in match.chair_list()]
    # Chair 1 wins hand 1: the deal passes, chair 0 sits out; then the Dreamer (chair 4) wins.
    _play(match, [(1, "wall", None, 10), (4, "wall", None, 10)])
    match.refresh_from_db()
    before = (_record(match), match.version, Hand.objects.count())
    # Had chair 0 (the dealer) won hand 1, chair 4 would still sit out hand 2.
    with pytest.raises(CorrectionRefused) as refused:
        correct_hand(match, 1, Win(0, "wall", None, 10), "Wrong winner")
    message = str(refused.value)
    assert "hand 2 impossible" in message and f"{names[4]} sits out hand 2" in message
    assert "Nothing was changed" in message
    match.refresh_from_db()
    assert (_record(match), match.version, Hand.objects.count()) == before
    assert not Correction.objects.exists()


def test_the_corrected_hand_itself_is_checked_like_quick_entry(club):
    (match,) = _matches(club)
    _play(match, PLAYED)
    with pytest.raises(CorrectionRefused, match="Hand 3 cannot be recorded like that"):
        correct_hand(match, 3, Win(2, "wall", None, 2), "Goulash needs five")
    with pytest.raises(CorrectionRefused, match="already says that"):
        correct_hand(match, 2, Draw(), "Same again")
    with pytest.raises(CorrectionRefused, match="Say why"):
        correct_hand(match, 2, Void(), "   ")
    with pytest.raises(CorrectionRefused, match="no hand 9"):
        correct_hand(match, 9, Void(), "Nothing there")
    assert not Correction.objects.exists()


def test_a_correction_made_meanwhile_on_another_device_is_not_overwritten(club):
    (match,) = _matches(club)
    _play(match, PLAYED)
    shown = match.live_hands().get(number=4).pk
    correct_hand(match, 4, Win(2, "discard", 3, 20), "Miscounted", hand_id=shown)
    with pytest.raises(CorrectionRefused, match="changed a moment ago"):
        correct_hand(match, 4, Win(2, "discard", 3, 30), "Miscounted", hand_id=shown)


HK_ROUND = [(0, "wall", None, 3), (1, "wall", None, 3), (2, "wall", None, 3), (3, "wall", None, 3)]


def test_a_correction_re_opens_a_finished_match_or_finishes_it_per_the_flow(club):
    (match,) = _matches(club, rules="hk", flow_options={"rounds": 1})
    match.session.status = Session.Status.IN_PLAY
    match.session.save()
    _play(match, HK_ROUND)
    assert (match.status, match.ending) == ("finished", "flow")

    correct_hand(match, 2, Draw(), "The wall ran out")  # a draw is replayed: one more hand
    match.refresh_from_db()
    assert match.is_in_play and match.ending == "" and match.replay()[-1].hand == 5

    correct_hand(match, 2, Win(1, "wall", None, 4), "Betty did go out")
    match.refresh_from_db()
    assert (match.status, match.ending) == ("finished", "flow")


def test_a_finished_match_whose_end_moves_after_the_evening_stays_closed(club):
    (match,) = _matches(club, rules="hk", flow_options={"rounds": 1})
    _play(match, HK_ROUND)
    Session.objects.filter(pk=match.session_id).update(status=Session.Status.CLOSED)
    correct_hand(match, 2, Draw(), "The wall ran out")
    match.refresh_from_db()
    assert (match.status, match.ending) == ("finished", "closed")


def test_rederive_leaves_a_consistent_match_alone(club):
    (match,) = _matches(club)
    _play(match, PLAYED)
    before = _record(match)
    assert rederive(match) == []
    assert _record(match) == before


SOUTH_PONG = {
    "tiles": "ws ws ws b1 b2 b3 c4 c5 c6 d7 d8 d9 dr dr",
    "winning_tile": "b3",
}


def test_a_full_hand_in_a_new_place_is_scored_again_from_its_tiles(club):
    """Hand 2 was worked out from the tiles with chair 2 sitting South (its pong of South
    winds is their own wind). Hand 1 is corrected so the dealer keeps the deal: chair 2 now
    sits West, and hand 2 is scored again from the same tiles in its new place."""
    club.rule_set = "u3a"
    club.save()
    match = start_play(seated_session(club))[0]
    record_win(match, 1, Win(1, "wall", None, 10))
    full = record_full(match, 2, Win(2, "wall", None, tiles=SOUTH_PONG))
    assert (full.tiles["seat_wind"], full.total, full.payments[:4]) == ("S", 4, [-4, -4, 12, -4])
    correct_hand(match, 1, Win(0, "wall", None, 10), "Ann won, she keeps the deal")
    full.refresh_from_db()
    assert full.tiles["seat_wind"] == "W" and full.tiles["dealer"] == "E"
    assert full.total == 3 and full.payments[:4] == [-3, -3, 9, -3]
    assert not any("own" in item["name"].lower() for item in full.breakdown)
    assert sum(match.tallies()) == 0


def test_a_full_hand_that_can_no_longer_go_out_refuses_the_correction(club):
    club.rule_set, club.rule_options = "u3a", {"min_points": 4}
    club.save()
    match = start_play(seated_session(club))[0]
    record_win(match, 1, Win(1, "wall", None, 10))
    record_full(match, 2, Win(2, "wall", None, tiles=SOUTH_PONG))  # 4 points as South
    with pytest.raises(
        CorrectionRefused,
        match=(
            "leave hand 2 impossible: in its new place it scores 3 points, which is below "
            "this club.s minimum of 4 points"
        ),
    ):
        correct_hand(match, 1, Win(0, "wall", None, 10), "Ann won, she keeps the deal")
    assert match.live_hands().get(number=1).winner == 1


def test_a_match_that_ended_when_the_table_changed_keeps_that_ending(club):
    (match,) = _matches(club, rules="hk", flow_options={"rounds": 1})
    _play(match, HK_ROUND[:3] + [("draw",)])
    Match.objects.filter(pk=match.pk).update(status="finished", ending="table_changed")
    match.refresh_from_db()
    correct_hand(match, 4, Win(3, "wall", None, 3), "Dot went out")  # now a full round
    match.refresh_from_db()
    assert (match.status, match.ending) == ("finished", "table_changed")


def test_corrections_and_paper_sheets_keep_the_standings_in_step(club):
    """The standings' stored rows after a correction and after a typed-in sheet are exactly
    what a rebuild from the hands gives."""
    from scoring import standings
    from scoring.corrections import record_sheet
    from scoring.results import MatchResult

    first, second = _matches(club, count=2)
    _play(first, PLAYED)
    correct_hand(first, 2, Win(3, "wall", None, 12), "Dot went out, not a draw")
    record_sheet(second, [Win(1, "discard", 0, 12), Draw(), Win(2, "wall", None, 20)])
    fields = ["chair_id", "result", "hands_played", "hands_won", "best_total", "place"]
    kept = sorted(MatchResult.objects.values_list(*fields))
    assert kept
    standings.rebuild_results()
    assert sorted(MatchResult.objects.values_list(*fields)) == kept


# --- undo and re-entry at the table re-derive kong chips as a correction does -------------


def _kong_payments(match) -> list[tuple]:
    kongs = match.kong_chips.filter(voided_at__isnull=True).order_by("hand_number", "pk")
    return [(k.hand_number, k.chair, k.kind, k.payments[: match.chair_count]) for k in kongs]


def _undo_and_enter(match, number, change) -> str:
    """The table's way: undo hand `number` (the last), enter `change` as that hand.
    "refused" when the entry is refused (then nothing of it is saved)."""
    from scoring.recording import RecordingError, undo_last_hand

    undo_last_hand(match, number)
    try:
        if isinstance(change, Draw):
            record_draw(match, number)
        else:
            record_win(match, number, change)
    except RecordingError:
        return "refused"
    return "saved"


def _correct(match, number, change) -> str:
    try:
        correct_hand(match, number, change, "Entered wrongly")
    except CorrectionRefused:
        return "refused"
    return "saved"


def test_u3a_five_undo_and_re_entry_moves_the_kong_chips_to_the_new_payers(club):
    """The audit's evening: Brenda (chair 2) wins hand 1, makes a concealed kong in hand 2,
    hand 1 is undone and entered again as Colin's (the dealer, chair 0) win. Colin keeps
    the deal, so the Dreamer (chair 4) sits out hand 2 and Colin plays it: the chips are
    paid by those who play hand 2 now, exactly as correcting hand 1 makes them."""
    table, corrected = _matches(club, "u3a", sizes=(5,), count=2)
    brenda, colin = 2, 0
    for match in (table, corrected):
        record_win(match, 1, Win(brenda, "wall", None, 10))
        record_kong(match, 2, brenda, "concealed")
    before = _kong_payments(table)[0][3]
    assert before[4] < 0 and before[0] == 0  # the Dreamer of hand 2 then was chair 0

    assert _undo_and_enter(table, 1, Win(colin, "wall", None, 10)) == "saved"
    assert _correct(corrected, 1, Win(colin, "wall", None, 10)) == "saved"

    table.refresh_from_db()
    (hand, chair, kind, payments) = _kong_payments(table)[0]
    assert (hand, chair, kind) == (2, brenda, "concealed")
    sitting_out = table.replay()[-1].sitting_out
    assert sitting_out == 4 and payments[4] == 0  # the Dreamer pays nothing now
    assert payments[0] < 0 and sum(payments) == 0  # Colin, who plays hand 2, pays
    assert _kong_payments(table) == _kong_payments(corrected)
    assert table.tallies() == corrected.tallies()


def _kong_rule_sets() -> list[str]:
    from games.flow import RULES
    from scoring.rules import build_ruleset

    return [rules for rules in RULES if build_ruleset(rules, {}, {}).has_kong_chips]


def _random_outcome(rng, state):
    if rng.random() < 0.25:
        return Draw()
    winner = rng.choice(state.seated)
    how = rng.choice(["wall", "discard"])
    discarder = rng.choice([c for c in state.seated if c != winner]) if how == "discard" else None
    return Win(winner, how, discarder, rng.randint(5, 23))


@pytest.mark.parametrize("rules", _kong_rule_sets())
@pytest.mark.parametrize("players", [4, 5])
def test_undo_and_re_entry_give_the_kong_chips_a_correction_gives(club, rules, players):
    """Property-style, over seeded random evenings: hands played, kong chips made in the
    hand being played, then the last hand changed, at one table by Undo and entering it
    again, at its twin by a correction. Both refuse, or both give the same kong chips,
    hands and tallies."""
    import datetime
    import random

    club.rule_set = rules
    club.save()
    outcomes = {"saved": 0, "refused": 0}
    for seed in range(12):
        rng = random.Random(f"{rules}{players}{seed}")
        day = datetime.date(2026, 1, 1) + datetime.timedelta(days=seed)
        table, corrected = start_play(seated_session(club, sizes=(players, players), date=day))
        for _ in range(rng.randint(1, 4)):
            state = table.replay()[-1]
            outcome = _random_outcome(rng, state)
            for match in (table, corrected):
                if isinstance(outcome, Draw):
                    record_draw(match, state.hand)
                else:
                    record_win(match, state.hand, outcome)
                match.refresh_from_db()
        state = table.replay()[-1]
        for _ in range(rng.randint(1, 2)):
            maker, kind = rng.choice(state.seated), rng.choice(KongChips.Kind.values)
            for match in (table, corrected):
                record_kong(match, state.hand, maker, kind)
        last = state.hand - 1
        before_state = table.replay()[-2]
        change = _random_outcome(rng, before_state)
        table_way = _undo_and_enter(table, last, change)
        correction_way = _correct(corrected, last, change)
        assert table_way == correction_way, (seed, change)
        outcomes[table_way] += 1
        if table_way == "refused":
            continue
        table.refresh_from_db()
        corrected.refresh_from_db()
        assert _kong_payments(table) == _kong_payments(corrected), seed
        assert _record(table) == _record(corrected), seed
    assert outcomes["saved"]  # the comparison was made, not only refusals


def test_a_re_entry_that_leaves_a_kong_impossible_is_refused_until_its_chips_are_taken_back(
    club,
):
    """As a correction refuses it: the kong's maker would sit out the hand it was made in.
    The table sees those chips (waiting in the next hand) and can take them back."""
    from scoring.recording import RecordingError, take_back_kong, undo_last_hand
    from scoring.selectors import board

    (match,) = _matches(club, "u3a", sizes=(5,))
    record_win(match, 1, Win(1, "wall", None, 10))  # the deal passes: chair 0 dreams
    kong = record_kong(match, 2, 4, "added")  # the Dreamer of hand 1 plays hand 2
    undo_last_hand(match, 1)
    with pytest.raises(RecordingError, match="sits out hand 2 now") as refused:
        record_win(match, 1, Win(0, "wall", None, 10))  # the dealer keeps it: chair 4 dreams
    assert "Take those kong chips back first" in str(refused.value)
    assert not match.live_hands().exists()
    waiting = board(match).kongs_now
    assert [line.id for line in waiting] == [kong.pk] and "in hand 2" in waiting[0].text

    take_back_kong(match, kong.pk)
    record_win(match, 1, Win(0, "wall", None, 10))
    match.refresh_from_db()
    assert match.live_hands().count() == 1 and sum(match.tallies()) == 0
