"""Quick entry at the table: a win (with its live payment preview), a draw, kong chips,
taking them back, undo. Each write is a `TableWrite` (writes.py): its form, its one call of
scoring/recording.py, its words for saved and not saved, and the answers to its own
refusals; the one view of writes.py runs it, so a stale or doubled form is answered, never
counted twice."""

from __future__ import annotations

from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from scoring import hand_entry, recording, selectors, table_rules
from scoring.engine import EngineError
from scoring.forms.table import HandNumberForm, KongForm, TakeBackKongForm, WinForm
from scoring.models import Hand
from scoring.views.scoresheets import may_correct
from scoring.views.table.page import (
    TEMPLATE,
    Sent,
    after_write,
    agrees,
    evening_ended_message,
    kept_entries,
    recorded_here,
    same_hand_again,
    stale_message,
    table_page,
    table_view,
    unsaved_hand,
    win_description,
)
from scoring.views.table.writes import TableWrite, refused, table_write


def _sent_win(request, match) -> Sent:
    board = selectors.board(match, request.user)
    form = WinForm(request.POST, board=board)
    if not form.is_valid():
        return Sent()
    win = form.win()
    hand = unsaved_hand(win)
    number = form.cleaned_data["hand"]
    text = selectors.describe_hand(hand, board.names, board.unit)
    return Sent(f"hand {number}", lines=(f"Hand {number}: {text}.",))


def _sent_draw(request, match) -> Sent:
    form = HandNumberForm(request.POST)
    if not form.is_valid():
        return Sent()
    number = form.cleaned_data["hand"]
    return Sent(f"hand {number}", lines=(f"Hand {number}: a draw, nobody went out.",))


def _sent_kong(request, match) -> Sent:
    board = selectors.board(match, request.user)
    form = KongForm(request.POST, board=board)
    sent = Sent("these kong chips", "they were not saved", "add them")
    if not form.is_valid():
        return sent
    data = form.cleaned_data
    kind = dict(form.fields["kind"].choices).get(data["kind"], data["kind"])
    line = f"Kong chips in hand {data['hand']}: {board.names[data['chair']]}, {kind}."
    return Sent(sent.what, sent.result, sent.todo, (line,))


def _sent_take_back(request, match) -> Sent:
    return Sent("this take-back", "the kong chips stay as they were", "take them back")


def _sent_undo(request, match) -> Sent:
    form = HandNumberForm(request.POST)
    number = form.cleaned_data["hand"] if form.is_valid() else None
    hand = f"hand {number}" if number else "the last hand"
    return Sent("this undo", f"{hand} was not undone", "undo it", (f"Undo {hand}.",))


def _win_form(request, match):
    # Read against every chair: the write checks the hand against the match's state, and
    # the page is built once, from what the write worked out (or to show a refusal).
    return WinForm(request.POST, board=hand_entry.every_chair(match))


def _win_invalid(request, match, form):
    return table_page(request, match, win_data=request.POST, outcome="refused")


def _win_check(request, match, form):
    preview = _preview(match, form.cleaned_data["hand"], form.win())
    return table_page(request, match, win_data=request.POST, preview=preview)


def _win_refused(request, match, form, error: recording.RecordingError):
    # Already recorded (a double tap, or another device first; perhaps ending the match)?
    number, win = form.cleaned_data["hand"], form.win()
    saved = match.live_hands().filter(number=number).first()
    if saved is None:
        return _refused_win(request, match, number, error)
    if agrees(saved, win.outcome(), win.total, win.liable):
        if recorded_here(saved, request):  # a double tap
            return after_write(request, match, f"Hand {number} is saved.", outcome="already-saved")
        return after_write(
            request,
            match,
            f"Hand {number} was saved on another device, the same as yours.",
            outcome="already-saved",
        )
    # Two devices disagree: show both and let the table choose; nothing is carried on.
    conflict = _conflict(request, match, saved, win)
    return table_page(request, match, conflict=conflict, outcome="conflict")


record_win = table_write(
    TableWrite(
        "record_win",
        form=_win_form,
        record=lambda match, form, **who: recording.save_win(
            match, form.cleaned_data["hand"], form.win(), **who
        ),
        saved=lambda match, form, saved: (
            f"Hand {form.cleaned_data['hand']} saved: {win_description(saved.match, saved.record)}."
        ),
        not_saved=_sent_win,
        invalid=_win_invalid,
        refused=_win_refused,
        check=_win_check,
    )
)


def _conflict(request, match, saved: Hand, win: recording.Win) -> dict:
    """Hand `saved.number`, saved on another device, beside what this device entered (with
    the payments it would have made), and the way to correct the hand if ours is right."""
    board = selectors.board(match, request.user)
    number = saved.number
    ours = unsaved_hand(win)
    try:
        state = match.replay()[number - 1]
        our_payments = selectors.pay_words(board.names, table_rules.win_payments(match, state, win))
    except (table_rules.TotalRefused, EngineError, IndexError):
        our_payments = []
    entries = {
        "winner": win.winner,
        "won_by": win.won_by,
        "discarder": "" if win.discarder is None else win.discarder,
        "liable": "" if win.liable is None else win.liable,
        "total": win.total,
    }
    correct = reverse("scoring:correct", args=[match.pk, number]) + "?" + urlencode(entries)
    return {
        "number": number,
        "saved": selectors.describe_hand(saved, board.names, board.unit),
        "saved_payments": selectors.pay_words(board.names, saved.payments),
        "ours": selectors.describe_hand(ours, board.names, board.unit),
        "our_payments": our_payments,
        "correct_url": correct if may_correct(request.user, match) else "",
    }


def _refused_win(request, match, number: int, error: recording.RecordingError):
    board = selectors.board(match, request.user)
    if board.hand > number:  # recorded meanwhile: the entries are never moved on to the next
        refusal = stale_message(number, board.hand)
        return table_page(request, match, refusal=refusal, outcome="conflict")
    if board.hand != number:
        form = WinForm(kept_entries(request, board), board=board)
        form.is_valid()
        form.add_error(None, stale_message(number, board.hand))
    else:
        form = WinForm(request.POST, board=board)
        # A choice this hand does not offer (a player sitting out) is the form's to say.
        if form.is_valid():
            field = "total" if isinstance(error, table_rules.TotalRefused) else None
            form.add_error(field, str(error))
    return table_page(request, match, win_form=form, outcome="refused")


def _preview(match, number: int, win) -> dict:
    """Each player's payment in words, or the reason the win is refused."""
    try:
        payments = recording.preview_win(match, number, win)
    except recording.RecordingError as error:
        return {"refused": str(error)}
    names = match.player_names()
    return {"lines": selectors.pay_words(names, payments)}


def _preview_ended(request, match):
    """The live preview after the evening was ended: says so where the payments would be."""
    board = selectors.board(match, request.user)
    preview = {"refused": evening_ended_message(match, Sent())}
    return render(request, TEMPLATE + "#preview", {"preview": preview, "board": board})


@table_view(write=True, ended=_preview_ended)
@require_POST
def preview_win(request, match):
    """The live payment preview beside the win form (an htmx partial)."""
    board = selectors.board(match, request.user)
    form = WinForm(request.POST, board=board)
    preview = None
    if form.is_valid():
        preview = _preview(match, form.cleaned_data["hand"], form.win())
    elif request.POST.get("total") and "total" in form.errors:
        preview = {"refused": form.errors["total"][0]}
    return render(request, TEMPLATE + "#preview", {"preview": preview, "board": board})


def _draw_refused(request, match, form, error: recording.RecordingError):
    number = form.cleaned_data["hand"]
    if isinstance(error, recording.AlreadyRecorded) and same_hand_again(
        match, number, request, {"draw": True}
    ):  # the same draw again, already saved by this person
        return after_write(request, match, f"Hand {number} saved: a draw.", outcome="already-saved")
    return refused(request, match, form, error)


record_draw = table_write(
    TableWrite(
        "record_draw",
        form=lambda request, match: HandNumberForm(request.POST),
        record=lambda match, form, **who: recording.save_draw(
            match, form.cleaned_data["hand"], **who
        ),
        saved=lambda match, form, saved: f"Hand {form.cleaned_data['hand']} saved: a draw.",
        not_saved=_sent_draw,
        refused=_draw_refused,
    )
)


def _kong_invalid(request, match, form):
    board = selectors.board(match, request.user)
    form = KongForm(request.POST, board=board)
    form.is_valid()
    if "key" in form.errors:  # a page from before kong forms had keys, or a hand-made post
        stale = form.errors["key"][0]
        form = form.with_fresh_key(board)
        form.is_valid()
        form.add_error(None, stale)
    return table_page(request, match, kong_form=form, open_kong=True, outcome="refused")


def _kong_refused(request, match, form, error: recording.RecordingError):
    data = form.cleaned_data
    if isinstance(error, recording.KongAlreadySaved):
        # The same form again (a double tap, "press again"): the chips are saved, once.
        name = hand_entry.every_chair(match).names[error.kong.chair]
        if error.kong.is_voided:
            notice = f"Those kong chips for {name} were saved and then taken back: nothing saved."
        else:
            notice = f"Kong chips for {name} are already saved."
        return after_write(request, match, notice, answer_at="kong", outcome="already-saved")
    board = selectors.board(match, request.user)
    form = KongForm(request.POST, board=board)
    form.is_valid()
    if board.hand > data["hand"]:
        # The hand was recorded meanwhile: the chips are not moved on to the next hand.
        refusal = _kong_too_late(data["hand"])
        return table_page(request, match, refusal=refusal, answer_at="kong", outcome="conflict")
    if board.hand != data["hand"]:
        form = KongForm(kept_entries(request, board), board=board)
        form.is_valid()
        form.add_error(None, stale_message(data["hand"], board.hand))
    elif not board.kong_chips:  # no kong form on the page to show it next to
        return table_page(request, match, refusal=str(error), outcome="refused")
    elif not form.errors:  # a choice this hand does not offer is the form's to say
        form.add_error(None, str(error))
    return table_page(request, match, kong_form=form, open_kong=True, outcome="refused")


def _save_kong(match, form, **who):
    data = form.cleaned_data
    return recording.save_kong(
        match, data["hand"], data["chair"], data["kind"], key=data["key"], **who
    )


record_kong = table_write(
    TableWrite(
        "record_kong",
        form=lambda request, match: KongForm(request.POST, board=hand_entry.every_chair(match)),
        record=_save_kong,
        # The kong card stays open, showing the chips just saved with their "Take back".
        saved=lambda match, form, saved: (
            f"Kong chips saved for {hand_entry.every_chair(match).names[form.cleaned_data['chair']]}."
        ),
        not_saved=_sent_kong,
        invalid=_kong_invalid,
        refused=_kong_refused,
        answer_at="kong",
    )
)


def _kong_too_late(number: int) -> str:
    return (
        f"Hand {number} was recorded on another device before these kong chips were saved, "
        f"so nothing was saved. If the kong was made in hand {number}, undo hand {number}, "
        "save the chips, then record the hand again."
    )


def _take_back_invalid(request, match, form):
    notice = "Nothing was changed: please try again."
    return table_page(request, match, status_notice=notice, outcome="refused")


def _take_back_refused(request, match, form, error: recording.RecordingError):
    if isinstance(error, recording.AlreadyRecorded):  # taken back on another device: as wanted
        return table_page(
            request, match, status_notice=str(error), answer_at="kong", outcome="already-saved"
        )
    return table_page(request, match, refusal=str(error), answer_at="kong", outcome="refused")


# Kong chips saved by mistake in the hand being played are voided (kept, marked).
take_back_kong = table_write(
    TableWrite(
        "take_back_kong",
        form=lambda request, match: TakeBackKongForm(request.POST),
        record=lambda match, form, **who: recording.save_kong_taken_back(
            match, form.cleaned_data["kong"], **who
        ),
        saved=lambda match, form, saved: (
            f"{hand_entry.every_chair(match).names[saved.record.chair]}'s kong chips are taken back."
        ),
        not_saved=_sent_take_back,
        invalid=_take_back_invalid,
        refused=_take_back_refused,
        answer_at="kong",
    )
)


undo = table_write(
    TableWrite(
        "undo",
        form=lambda request, match: HandNumberForm(request.POST),
        record=lambda match, form, **who: recording.save_undo(
            match, form.cleaned_data["hand"], **who
        ),
        saved=lambda match, form, saved: (
            f"Hand {form.cleaned_data['hand']} is undone. It stays in the list, struck through."
        ),
        not_saved=_sent_undo,
    )
)
