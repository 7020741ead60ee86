"""Correcting recorded hands, and typing in a paper score sheet.

A hand's outcome decides who deals next, who sits out and whether the next hand is a
goulash, and those decide what every later hand paid. So a correction never patches one
row: it voids the hand's row (kept, with who, when and why), saves the corrected one, and
re-derives every later hand (number, goulash, payments) and kong chip from the outcomes in
order, in the same transaction. If a later hand could not have been played as recorded
(its winner now sits out, or the match is now over before it), the correction is refused
naming that hand, and nothing is saved.

A paper sheet goes through the same derivation: the rows are checked in order, as the
table's quick entry checks a hand, and the whole match is saved together or not at all.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from games import flow
from games.models import Match
from games.start import evening_goes_on, finish
from scoring import table_rules
from scoring.hand_entry import check_win
from scoring.models import PAY_FIELDS, Correction, Hand
from scoring.recording import RecordingError, Win
from scoring.rederivation import HandRefused, rederive_kongs
from scoring.standings import refresh_match

REASON_MAX = Correction._meta.get_field("reason").max_length


class CorrectionRefused(RecordingError):
    """The correction cannot be made; the message says which hand and why."""


@dataclass(frozen=True)
class Draw:
    """The wall ran out: nobody went out."""


@dataclass(frozen=True)
class Void:
    """The hand should not be in the record at all (recorded twice, or never played)."""


# --- the derivation, shared by corrections and paper sheets -----------------------------


def _state_key(state) -> tuple:
    return (state.dealer, state.round, tuple(state.winds or ()), state.goulash)


def _full_hand_payments(match: Match, state, hand: Hand) -> list[int]:
    """A hand worked out from the tiles whose place in the match changed (another dealer,
    other winds, a goulash or not) is scored again from its tiles in its new place."""
    try:
        return list(table_rules.full_hand_payments(match, state, hand))
    except table_rules.TotalRefused as error:
        raise HandRefused(hand.number, str(error)) from error


def _payments(match: Match, state, hand: Hand, previous: dict) -> list[int]:
    if hand.is_draw:
        return [0] * match.chair_count
    if hand.entry == Hand.Entry.FULL:
        if hand.pk is not None and previous.get(hand.pk) == _state_key(state):
            return hand.payments  # same seat, same dealer, same goulash: the same score
        return _full_hand_payments(match, state, hand)
    win = Win(hand.winner, hand.won_by, hand.discarder, hand.total, hand.liable)
    hand.limit = table_rules.reaches_limit(match, hand.total)  # a total agreed at the limit
    try:
        return table_rules.win_payments(match, state, win)
    except table_rules.TotalRefused as error:
        raise HandRefused(hand.number, str(error)) from error


def derive(match: Match, hands: list[Hand], previous: dict | None = None) -> list:
    """Give each hand (in memory, in order) its number, goulash flag and payments from the
    outcomes before it, checking each could have been played. Returns the flow's states
    (before each hand and after the last). Raises HandRefused naming the first hand that
    cannot stand. `previous` maps a saved hand's id to its state before the change."""
    previous = previous or {}
    names = match.player_names()
    states = None
    if match.rules != "hk":
        # One replay gives every hand's state when all the outcomes can stand; only when
        # one cannot is each prefix replayed, to name the hand and say why.
        try:
            states = match.replay(hands)
        except flow.FlowError:
            states = None
    for index, hand in enumerate(hands):
        number = index + 1
        hand.number = number
        if states is not None:
            hand.goulash = states[index].goulash
            hand.payments = _payments(match, states[index], hand, previous)
            continue
        # Hong Kong's end depends on the tallies, which depend on the payments derived so
        # far, so each prefix is replayed with them.
        state = match.replay(hands[:index])[-1]
        if state.over:
            raise HandRefused(
                number,
                f"the match is over after hand {index}, so hand {number} cannot have been played.",
            )
        for role, chair in (
            ("won", hand.winner),
            ("paid for the win", hand.discarder),
            ("paid for everyone", hand.liable),
        ):
            if chair is not None and chair < len(names) and state.winds[chair] is None:
                raise HandRefused(
                    number, f"{names[chair]} sits out hand {number}, so cannot have {role}."
                )
        try:
            match.replay(hands[:index], extra_outcome=hand.flow_outcome())
        except flow.FlowError as error:
            raise HandRefused(number, _without_hand(str(error), number)) from error
        hand.goulash = state.goulash
        hand.payments = _payments(match, state, hand, previous)
    return states if states is not None else match.replay(hands)


def _without_hand(message: str, number: int) -> str:
    """The flow's sentence without its own "Hand N: " (the caller names the hand)."""
    prefix = f"Hand {number}: "
    return message[len(prefix) :] if message.startswith(prefix) else message


def _snapshot(hand: Hand) -> dict:
    return {
        "number": hand.number,
        "winner": hand.winner,
        "won_by": hand.won_by,
        "discarder": hand.discarder,
        "liable": hand.liable,
        "total": hand.total,
        "goulash": hand.goulash,
        "entry": hand.entry,
        "payments": hand.payments,
    }


def rederive(
    match: Match,
    *,
    previous: dict | None = None,
    skip: int | None = None,
    gap: int | None = None,
) -> list[dict]:
    """Re-derive every live hand and kong chip of `match` from the outcomes in order, save
    what changed, and move the match's status on (finished when the flow says it is over,
    open again when a correction undid its end). Call inside a transaction holding the
    match's row. Returns what changed (the hand with id `skip`, just corrected, left out).
    `gap` is the number of a hand just voided: later kong chips move up with their hands.
    Raises HandRefused naming the first hand or kong that cannot stand."""
    hands = list(match.live_hands())
    before = {hand.pk: _snapshot(hand) for hand in hands}
    states = derive(match, hands, previous)
    changes = []
    # Ascending order: numbers only ever move down, into places already freed.
    for hand in hands:
        was = before[hand.pk]
        now = _snapshot(hand)
        if now != was:
            hand.save(
                update_fields=[
                    "number",
                    "goulash",
                    "total",
                    "tiles",
                    "breakdown",
                    "limit",
                    *PAY_FIELDS,
                ]
            )
            if hand.pk != skip:
                changes.append({"was": was, "now": now})
    changes += rederive_kongs(match, states, gap=gap)
    _move_status(match, states[-1])
    return changes


def _move_status(match: Match, after) -> None:
    """After the hands changed: the standings' rows follow, and the match opens or ends
    where the flow now says."""
    refresh_match(match)
    if after.over:
        # A match already ended (the evening closed, the table changed) keeps its ending.
        if match.is_in_play:
            finish(match, Match.Ending.FLOW)
    elif not match.is_in_play and match.ending == Match.Ending.FLOW:
        # The match no longer ends where it did: open it again if its table is free and
        # the evening goes on, else it ended where it now stands.
        table_free = not Match.objects.in_play().filter(
            session_id=match.session_id, table_number=match.table_number
        )
        goes_on = evening_goes_on(match)  # the session's row held, as "End the evening" does
        if table_free and goes_on:
            match.status, match.ending, match.finished_at = Match.Status.IN_PLAY, "", None
        elif not goes_on:
            match.ending = Match.Ending.CLOSED
        else:
            match.ending = Match.Ending.ENDED
    match.save_and_bump_version("status", "ending", "finished_at")


# --- correcting one hand ----------------------------------------------------------------


def _clean_reason(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if not reason:
        raise CorrectionRefused("Say why the hand is being corrected.")
    if len(reason) > REASON_MAX:
        raise CorrectionRefused(f"Keep the reason to {REASON_MAX} characters.")
    return reason


def _same(hand: Hand, change) -> bool:
    if isinstance(change, Draw):
        return hand.is_draw
    return (
        hand.entry == Hand.Entry.QUICK
        and hand.flow_outcome() == change.outcome()
        and hand.total == change.total
        and hand.liable == change.liable
    )


def _refuse_a_repeat(match: Match, number: int, change, hand_id: int, now: Hand | None) -> None:
    """The form's hand was corrected already, exactly as this form asks (a double tap, a
    "press again", the same correction from two devices): say so, and change nothing."""
    done = match.corrections.filter(original_id=hand_id).first()
    if done is None:
        return
    if done.kind == Correction.Kind.VOIDED and isinstance(change, Void):
        raise CorrectionRefused(f"Hand {number} is already voided: nothing more to do.")
    if (
        done.kind == Correction.Kind.CHANGED
        and not isinstance(change, Void)
        and now is not None
        and done.replacement_id == now.pk
        and _same(now, change)
    ):
        raise CorrectionRefused(
            f"Hand {number} is already corrected like that: nothing more to do."
        )


@transaction.atomic
def correct_hand(
    match: Match,
    number: int,
    change: Win | Draw | Void,
    reason: str,
    by=None,
    *,
    hand_id: int | None = None,
) -> Correction:
    """Change hand `number` to `change` (a win with its total, or a draw), or void it, for
    `reason`. `hand_id` is the row the form showed: if the hand was corrected meanwhile,
    the correction is refused rather than made on top of one the scorer has not seen."""
    reason = _clean_reason(reason)
    if isinstance(change, Win) and (
        refusals := check_win(change.winner, change.won_by, change.discarder, change.liable)
    ):
        raise CorrectionRefused(refusals[0].message)
    match = Match.objects.select_for_update().select_related("session").get(pk=match.pk)
    hands = list(match.live_hands())
    original = next((hand for hand in hands if hand.number == number), None)
    if hand_id is not None and (original is None or original.pk != hand_id):
        _refuse_a_repeat(match, number, change, hand_id, original)
    if original is None:
        raise CorrectionRefused(f"There is no hand {number} to correct.")
    if hand_id is not None and original.pk != hand_id:
        raise CorrectionRefused(
            f"Hand {number} was changed a moment ago on another device: check it, then "
            "correct it again if it is still wrong."
        )
    if not isinstance(change, Void) and _same(original, change):
        raise CorrectionRefused(f"Hand {number} already says that: change something, or void it.")
    states = match.replay(hands)
    previous = {hand.pk: _state_key(states[hand.number - 1]) for hand in hands}
    tallies_before = match.tallies()
    now = timezone.now()
    before = _snapshot(original)
    original.void(by, reason, at=now)
    replacement = None
    if isinstance(change, Void):
        # Kong chips made during a hand that is struck out go with it.
        match.kong_chips.filter(hand_number=number, voided_at__isnull=True).update(
            voided_at=now, voided_by=by, void_reason=reason
        )
    else:
        replacement = Hand(match=match, number=number, recorded_by=by)
        if isinstance(change, Win):
            replacement.winner, replacement.won_by = change.winner, change.won_by
            replacement.discarder, replacement.total = change.discarder, change.total
            replacement.liable = change.liable
        replacement.save()  # payments follow in rederive, with everything after it
    try:
        knock_on = rederive(
            match,
            previous=previous,
            skip=getattr(replacement, "pk", None),
            gap=number if replacement is None else None,
        )
    except HandRefused as error:
        raise CorrectionRefused(_refusal(number, error, isinstance(change, Void))) from error
    after = None
    if replacement is not None:
        replacement.refresh_from_db()
        after = _snapshot(replacement)
    return Correction.objects.create(
        match=match,
        hand_number=number,
        kind=Correction.Kind.VOIDED if replacement is None else Correction.Kind.CHANGED,
        original=original,
        replacement=replacement,
        reason=reason,
        made_by=by,
        made_at=now,
        before=before,
        after=after,
        tallies_before=tallies_before,
        tallies_after=match.tallies(),
        knock_on=knock_on,
    )


def _refusal(number: int, error: HandRefused, voided: bool) -> str:
    what = "Voiding" if voided else "This correction of"
    if error.number == number and not voided:
        return f"Hand {number} cannot be recorded like that: {error.reason} Nothing was changed."
    later = error.number + (1 if voided and error.number >= number else 0)
    return (
        f"{what} hand {number} would leave hand {later} impossible: {error.reason} "
        "Nothing was changed: correct that hand first, or choose another correction."
    )


# --- a paper score sheet ----------------------------------------------------------------


class SheetRefused(RecordingError):
    """The sheet cannot be recorded; `row` is the row to fix (None: the sheet as a whole)."""

    def __init__(self, message: str, row: int | None = None):
        super().__init__(message)
        self.row = row


def check_sheet(match: Match, rows: list[Win | Draw]) -> list[Hand]:
    """The hands the sheet's rows make, each with its goulash flag and payments, checked
    in order as the table's quick entry checks a hand. Nothing is saved."""
    hands = []
    for row in rows:
        hand = Hand(match=match)
        if isinstance(row, Win):
            hand.winner, hand.won_by, hand.discarder, hand.total = (
                row.winner,
                row.won_by,
                row.discarder,
                row.total,
            )
        hands.append(hand)
    try:
        derive(match, hands)
    except HandRefused as error:
        raise SheetRefused(f"Row {error.number}: {error.reason}", row=error.number) from error
    return hands


@transaction.atomic
def record_sheet(match: Match, rows: list[Win | Draw], by=None) -> list[Hand]:
    """Record a whole match typed in from its paper sheet: every row, or none."""
    match = Match.objects.select_for_update().select_related("session").get(pk=match.pk)
    if not rows:
        raise SheetRefused("The sheet has no hands: type at least one row.")
    recorded = match.live_hands().count()
    if recorded:
        raise SheetRefused(
            f"Table {match.table_number} already has {recorded} hand"
            f"{'s' if recorded != 1 else ''} recorded: correct them on its scoresheet instead."
        )
    hands = check_sheet(match, rows)
    for hand in hands:
        hand.recorded_by = by
    Hand.objects.bulk_create(hands)
    after = match.replay()[-1]
    if after.over and not match.is_in_play:
        # Ended with no hands on the app (the evening closed); the sheet says how it ended.
        match.ending = Match.Ending.FLOW
    _move_status(match, after)
    return hands
