"""Recording a table's hands: a win, a draw, kong chips, and undoing the last hand or
kong chips saved by mistake.

Each function is one transaction holding the match's row, so two devices at one table
(or a double tap) queue up: the second sees the hand already recorded and is refused as
"already recorded" instead of recording it twice. The database's own constraints (one
live hand per number, payments summing to zero) are the last guard.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, transaction

from games import flow
from games.models import Match
from games.start import evening_goes_on, finish
from scoring import hand_entry, table_rules
from scoring.models import Hand, KongChips, SentWrite
from scoring.rederivation import HandRefused, rederive_kongs
from scoring.refused_writes import RecordingError
from scoring.standings import refresh_match

# The reason an undo at the table gives; a hand voided for any other reason was corrected.
UNDONE_REASON = "Undone at the table"
KONG_TAKEN_BACK = "Taken back at the table"


class AlreadyRecorded(RecordingError):
    pass


class EveningEnded(Exception):
    """The coordinator ended the evening (at `at`) before this write arrived: nothing was
    saved. Not a RecordingError: the table's pages answer it on their own, keeping what
    was entered, because the evening can be reopened and the write made then."""

    def __init__(self, at=None):
        super().__init__("The coordinator ended the evening before this arrived.")
        self.at = at


class AlreadySent(AlreadyRecorded):
    """This write was made already, with the same one-time key (`sent_key`): a device's
    outbox sending it again because the first answer was lost. Nothing more is written."""

    def __init__(self, sent: SentWrite | None):
        super().__init__("That was saved already.")
        self.sent = sent


class KongAlreadySaved(AlreadyRecorded):
    """The kong form was posted again: its chips are already saved (`kong`), once."""

    def __init__(self, kong: KongChips):
        super().__init__("Those kong chips are already saved.")
        self.kong = kong


@dataclass(frozen=True)
class Win:
    """A win: who won, how, who discarded (chairs), and either the total the table agreed
    (quick entry) or the tiles it was worked out from (`tiles`, in the engine contract's
    JSON: tiles, melds, winning_tile, bonus, last_tile, first_turn; the winds, dealer and
    options are added from the match's state when it is scored)."""

    winner: int
    won_by: str
    discarder: int | None
    total: int | None = None
    liable: int | None = None  # fan's 9-piece penalty: the chair that pays for everyone
    tiles: dict | None = None

    def outcome(self) -> dict:
        return {"winner": self.winner, "won_by": self.won_by, "discarder": self.discarder}


def _ended_by_the_evening(match: Match) -> None:
    # "End the evening" holds every open match's row while it closes them, so a write
    # that queued behind it finds the match closed here and is refused, never half-saved.
    if not match.is_in_play and match.ending == Match.Ending.CLOSED:
        raise EveningEnded(match.finished_at)


@dataclass
class Saved:
    """What a write leaves behind for the page that answers it: the match as it is now
    (read under its lock), every hand and kong chip of it (voided ones too, in the page's
    order) and the flow's states over the live hands, so the table's board is built from
    them without reading or replaying the match again."""

    match: Match
    record: Hand | KongChips
    hands: list[Hand]
    kongs: list[KongChips]
    states: list


def _lock(match: Match) -> Match:
    """The match's row, held to the end of the transaction, with its session and club (the
    page shows them); its chairs never change, so those already read come along."""
    locked = (
        Match.objects.select_for_update(of=("self",))
        .select_related("session__club")
        .get(pk=match.pk)
    )
    if getattr(match, "_chairs", None) is not None:
        locked._chairs = match._chairs
    return locked


def _not_sent_before(match: Match, sent_key) -> None:
    """Under the match's lock: a write whose key is already written was made (see SentWrite)."""
    if sent_key is not None and (
        sent := SentWrite.objects.filter(match=match, key=sent_key).first()
    ):
        raise AlreadySent(sent)


def _remember_sent(match: Match, sent_key, kind: str, hand_number: int) -> None:
    """The key, in the write's own transaction: committed with it or not at all."""
    if sent_key is None:
        return
    try:
        SentWrite.objects.create(match=match, key=sent_key, kind=kind, hand_number=hand_number)
    except IntegrityError as error:  # only past the lock's guard; the write is rolled back
        raise AlreadySent(None) from error


def _locked(match: Match, sent_key=None) -> Match:
    match = _lock(match)
    _not_sent_before(match, sent_key)
    _ended_by_the_evening(match)
    if not match.is_in_play:
        raise RecordingError("This match is finished: ask the coordinator to correct a hand.")
    return match


def _records(match: Match) -> tuple[list[Hand], list[KongChips]]:
    """Every hand and kong chip of the match, voided ones too, in the table page's order."""
    hands = list(match.hands.order_by("number", "recorded_at"))
    kongs = list(match.kong_chips.order_by("hand_number", "recorded_at"))
    return hands, kongs


def _in_order(hands: list[Hand]) -> list[Hand]:
    return sorted(hands, key=lambda hand: (hand.number, hand.recorded_at))


def _live(records) -> list:
    return [record for record in records if not record.is_voided]


def _next_state(match: Match, hand_number: int, outcome: dict | None = None, hands=None):
    """The state of the hand about to be recorded, checking the form was not stale, and
    the flow's states (before each live hand, the hand about to be recorded, and after
    it when `outcome` is given; FlowError turned into a plain refusal)."""
    hands = list(match.live_hands()) if hands is None else hands
    expected = len(hands) + 1
    if hand_number != expected:
        if hand_number < expected:
            raise AlreadyRecorded(
                f"Hand {hand_number} is already recorded. The page now shows hand {expected}."
            )
        raise RecordingError(f"The next hand to record is hand {expected}, not {hand_number}.")
    try:
        states = match.replay(hands, extra_outcome=outcome)
    except flow.FlowError as error:
        raise RecordingError(str(error)) from error
    return states, states[-2] if outcome is not None else states[-1]


def _who_checked(match: Match, hand_number: int, win: Win, hands: list[Hand]):
    """`_next_state` for a win, after the one check of who won and who pays: what the flow
    refuses about a chair (one sitting out) is said in the same words as on the forms."""
    _refuse(hand_entry.check_win(win.winner, win.won_by, win.discarder, win.liable))
    try:
        return _next_state(match, hand_number, win.outcome(), hands)
    except RecordingError as error:
        if isinstance(error.__cause__, flow.FlowError):
            out = match.replay(hands)[-1].sitting_out
            checked = hand_entry.check_win(
                win.winner, win.won_by, win.discarder, win.liable, sitting_out=out
            )
            _refuse(checked)
        raise


def _refuse(refusals) -> None:
    if refusals:
        raise RecordingError(refusals[0].message)


def _rederive_kongs(match: Match, states, kongs=None) -> None:
    """Kong chips follow the hands as a correction makes them follow (one derivation,
    scoring.rederivation): a hand entered again after an undo can change who deals and
    who sits out the next hand, so who pays the kong chips recorded in it."""
    try:
        rederive_kongs(match, states, kongs=kongs)
    except HandRefused as error:
        raise RecordingError(
            f"Hand {error.number}: {error.reason} Take those kong chips back first, or ask "
            "the coordinator to correct the hands."
        ) from error


def _save(match: Match, hand: Hand, hands: list[Hand], kongs, states) -> Saved:
    """Save `hand` (checked against `states`, the flow's states over the live hands with
    this one as the last outcome), then bring the kong chips, the results and the match's
    status in step, from the records already read under the lock."""
    try:
        hand.save()  # the write's own transaction is rolled back if this refuses
    except IntegrityError as error:  # the same hand number, saved a moment ago
        raise AlreadyRecorded(f"Hand {hand.number} is already recorded.") from error
    hands = _in_order([*hands, hand])
    live = _live(hands)
    if match.rules == "hk":  # its flow ends on the tallies, which need this hand's payments
        states = match.replay(live)
    _rederive_kongs(match, states, _live(kongs))
    refresh_match(match, hands=live, kongs=_live(kongs), states=states)
    if states[-1].over:
        finish(match, Match.Ending.FLOW)
    else:
        match.save_and_bump_version()
    return Saved(match, hand, hands, kongs, states)


def _win_payments(match: Match, state, win: Win) -> list[int]:
    return table_rules.win_payments(match, state, win)  # TotalRefused is a RecordingError


def preview_win(match: Match, hand_number: int, win: Win) -> list[int]:
    """The payments the win would make, per chair, without saving. Raises RecordingError
    with the engine's or the flow's reason when the total or the outcome is refused."""
    _, state = _who_checked(match, hand_number, win, list(match.live_hands()))
    return _win_payments(match, state, win)


def _won_hand(
    match: Match, number: int, win, state, total: int, payments, by, table_key=None, **entry
) -> Hand:
    """A won hand as recorded: the outcome, the total, the goulash flag the flow gave it,
    each chair's payment, and (for a full hand) how it was entered."""
    hand = Hand(
        match=match,
        number=number,
        winner=win.winner,
        won_by=win.won_by,
        discarder=win.discarder,
        liable=win.liable,
        total=total,
        goulash=state.goulash,
        recorded_by=by,
        recorded_with=table_key,
        **entry,
    )
    hand.payments = payments
    return hand


def record_win(match: Match, hand_number: int, win: Win, by=None, table_key=None) -> Hand:
    return save_win(match, hand_number, win, by, table_key).record


@transaction.atomic
def save_win(
    match: Match, hand_number: int, win: Win, by=None, table_key=None, *, sent_key=None
) -> Saved:
    """Record a quick-entry win: one transaction holding the match's row, one read of its
    records and one replay of its flow (two under hk), and what the page needs after.
    `sent_key`: the page's one-time key for this write (AlreadySent when it was made)."""
    match = _locked(match, sent_key)
    hands, kongs = _records(match)
    states, state = _who_checked(match, hand_number, win, _live(hands))
    payments = _win_payments(match, state, win)
    limit = table_rules.reaches_limit(match, win.total)
    hand = _won_hand(
        match, hand_number, win, state, win.total, payments, by, table_key, limit=limit
    )
    saved = _save(match, hand, hands, kongs, states)
    _remember_sent(match, sent_key, SentWrite.Kind.WIN, hand_number)
    return saved


def _score_full(match: Match, state, win: Win):
    """The contract JSON with the state's winds, the engine's result, payments per chair."""
    hand = table_rules.full_hand(match, state, win)  # TotalRefused is a RecordingError
    result, payments = table_rules.score_full_hand(match, state, hand)
    return hand, result, payments


@transaction.atomic
def record_full(match: Match, hand_number: int, win: Win, by=None, table_key=None) -> Hand:
    """Record a hand worked out from its tiles: the engine's total, itemised score and
    payments, and the hand itself. A complete hand below the rule set's minimum is refused
    (it may not go out)."""
    match = _locked(match)
    hands, kongs = _records(match)
    states, state = _who_checked(match, hand_number, win, _live(hands))
    hand_json, result, payments = _score_full(match, state, win)
    if not result.allowed:
        why = table_rules.below_minimum(match, state, result.total, "This hand scores {}, which")
        raise RecordingError(f"{why} It cannot be recorded as a win.")
    hand = _won_hand(
        match,
        hand_number,
        win,
        state,
        result.total,
        payments,
        by,
        table_key,
        entry=Hand.Entry.FULL,
        tiles=hand_json,
        breakdown=result.to_dict()["breakdown"],
        limit=result.limit,
    )
    return _save(match, hand, hands, kongs, states).record


def record_draw(match: Match, hand_number: int, by=None, table_key=None) -> Hand:
    return save_draw(match, hand_number, by, table_key).record


@transaction.atomic
def save_draw(match: Match, hand_number: int, by=None, table_key=None, *, sent_key=None) -> Saved:
    match = _locked(match, sent_key)
    hands, kongs = _records(match)
    states, state = _next_state(match, hand_number, {"draw": True}, _live(hands))
    hand = Hand(
        match=match,
        number=hand_number,
        goulash=state.goulash,
        recorded_by=by,
        recorded_with=table_key,
    )
    saved = _save(match, hand, hands, kongs, states)
    _remember_sent(match, sent_key, SentWrite.Kind.DRAW, hand_number)
    return saved


def record_kong(
    match: Match, hand_number: int, chair: int, kind: str, by=None, *, key=None
) -> KongChips:
    return save_kong(match, hand_number, chair, kind, by, key=key).record


def _kongs_saved(match: Match, kong: KongChips, hands, kongs, states) -> Saved:
    """After kong chips were saved or taken back: the results and the match's version."""
    refresh_match(match, hands=_live(hands), kongs=_live(kongs), states=states)
    match.save_and_bump_version()
    return Saved(match, kong, hands, kongs, states)


@transaction.atomic
def save_kong(
    match: Match,
    hand_number: int,
    chair: int,
    kind: str,
    by=None,
    *,
    key=None,
    table_key=None,
    sent_key=None,
) -> Saved:
    """Save kong chips. `key` is the kong form's one-time key: the same form posted again
    (a double tap, a retry, twenty at once) raises KongAlreadySaved with the chips saved
    the first time, and the database's unique (match, key) is the last guard. `sent_key`
    is the page's key for this write, as for the other writes."""
    match = _locked(match, sent_key)
    hands, kongs = _records(match)
    if key is not None and (saved := next((k for k in kongs if k.key == key), None)):
        raise KongAlreadySaved(saved)
    states, state = _next_state(match, hand_number, hands=_live(hands))
    if kind not in KongChips.Kind.values:
        raise RecordingError("Choose which kind of kong it was.")
    kong = KongChips(
        match=match,
        hand_number=hand_number,
        chair=chair,
        kind=kind,
        recorded_by=by,
        recorded_with=table_key,
        key=key,
    )
    kong.payments = table_rules.kong_payments(match, state, chair, kind)  # a RecordingError
    try:
        kong.save()
    except IntegrityError as error:
        # The key was looked for under the match's lock, so this is the database's last
        # guard only; the write is rolled back whole.
        raise AlreadyRecorded("Those kong chips are already saved.") from error
    kongs = sorted([*kongs, kong], key=lambda k: (k.hand_number, k.recorded_at))
    _remember_sent(match, sent_key, SentWrite.Kind.KONG, hand_number)
    return _kongs_saved(match, kong, hands, kongs, states)


def take_back_kong(match: Match, kong_id: int, by=None, table_key=None) -> KongChips:
    return save_kong_taken_back(match, kong_id, by, table_key).record


@transaction.atomic
def save_kong_taken_back(
    match: Match, kong_id: int, by=None, table_key=None, *, sent_key=None
) -> Saved:
    """Void kong chips saved by mistake (the wrong player or kind) in the hand being played
    (or in the next one, where they wait after the hand before it was undone). A finished
    hand's chips stay: its payments and the hands after it were agreed with them, so that
    hand is undone first (or the coordinator corrects it)."""
    match = _locked(match, sent_key)
    hands, kongs = _records(match)
    kong = next((k for k in kongs if k.pk == kong_id), None)
    if kong is None:
        raise RecordingError("Those kong chips are not at this table.")
    if kong.is_voided:
        raise AlreadyRecorded("Those kong chips were already taken back.")
    states = match.replay(_live(hands))
    # Chips of a later hand wait there after an undo of the hand before: not finished either.
    if kong.hand_number < states[-1].hand:
        raise RecordingError(
            f"Those kong chips belong to hand {kong.hand_number}, which is finished: undo that "
            "hand first, or ask the coordinator to correct it."
        )
    kong.void(by, KONG_TAKEN_BACK, table_key=table_key)
    _remember_sent(match, sent_key, SentWrite.Kind.TAKE_BACK, kong.hand_number)
    return _kongs_saved(match, kong, hands, kongs, states)


def undo_last_hand(match: Match, hand_number: int, by=None, table_key=None) -> Hand:
    return save_undo(match, hand_number, by, table_key).record


@transaction.atomic
def save_undo(match: Match, hand_number: int, by=None, table_key=None, *, sent_key=None) -> Saved:
    """Void the last hand that counts (it stays in the records, marked). `hand_number` is
    the hand the page offered to undo, so a second tap cannot undo an earlier hand too."""
    match = _lock(match)
    _not_sent_before(match, sent_key)
    _ended_by_the_evening(match)
    hands, kongs = _records(match)
    live = _live(hands)
    last = live[-1] if live else None
    if last is None:
        raise RecordingError("There is no hand to undo yet.")
    if last.number != hand_number:
        raise AlreadyRecorded(f"Hand {hand_number} was already undone.")
    if not match.is_in_play and match.ending != Match.Ending.FLOW:
        raise RecordingError("This match is finished: ask the coordinator to correct a hand.")
    if not match.is_in_play and not evening_goes_on(match):
        raise EveningEnded()
    last.void(by, UNDONE_REASON, table_key=table_key)
    _remember_sent(match, sent_key, SentWrite.Kind.UNDO, hand_number)
    live.pop()
    states = match.replay(live)
    _rederive_kongs(match, states, _live(kongs))
    refresh_match(match, hands=live, kongs=_live(kongs), states=states)
    if not match.is_in_play:  # undoing the hand that ended the match opens it again
        match.status, match.ending, match.finished_at = Match.Status.IN_PLAY, "", None
    match.save_and_bump_version("status", "ending", "finished_at")
    return Saved(match, last, hands, kongs, states)
