"""A table's match: the page a table records its hands on and its live scoreboard (the
coordinator's start and end of play are games/play_views.py).

Members record at the table where they are seated while the session is in play;
coordinators at any table. Every write posts the hand number (and match) the page showed,
so a stale or doubled form is refused as "already recorded" instead of counted twice.
Refusals re-render the form with status 200 (htmx 2 swaps no 4xx) and the entries kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import wraps

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from club.lookups import session_or_404
from club.models import Session
from games import dice
from games.access import players_and_coordinators
from games.models import Match
from scoring import hand_entry, recording, selectors, table_rules
from scoring.engine import EngineError
from scoring.forms.table import HandNumberForm, KongForm, TablePickerForm, TakeBackKongForm, WinForm
from scoring.models import Hand
from scoring.picker_words import in_words
from scoring.views.practice import PICKER_BODY, picker_preview
from scoring.views.scoresheets import may_correct

TEMPLATE = "scoring/table/table.html"


def _table_match(request, kwargs) -> Match:
    """The match the address's table shows (see `selectors.table_match`), or 404."""
    # The club's row comes with the session's (the page shows its settings): one query.
    session = session_or_404(request, kwargs.pop("session_id"), "club")
    match = selectors.table_match(session, kwargs.pop("number"))
    if match is None:
        raise Http404("Play has not started at this table.")
    match.session = session  # the same row, read with its club
    return match


def table_view(write: bool = False, sent=None, ended=None):
    """Resolve the table's match and check who may see it (and, for `write`, record).

    A write that arrives after the coordinator ended the evening (checked here, or found
    by the recording function that queued behind "End the evening") is answered by
    `_evening_ended`, keeping what was entered; `sent(request, match)` says in words what
    it was (see `_Sent`); a view whose answer is not the table page passes its own
    `ended(request, match)` instead."""

    def decorate(view):
        @players_and_coordinators(
            _table_match, "You can record hands only at the table where you sit."
        )
        @wraps(view)
        def wrapper(request, match):
            answer = ended or (lambda request, match: _evening_ended(request, match, sent))
            if write and match.session.status != Session.Status.IN_PLAY:
                return answer(request, match)
            try:
                return view(request, match)
            except recording.EveningEnded:
                return answer(request, match)

        return wrapper

    return decorate


def _can_record(board) -> bool:
    # Who may record was checked by table_view; this is whether anything can be recorded.
    return board.is_open and board.match.session.status == Session.Status.IN_PLAY


@dataclass(frozen=True)
class _Answer:
    """The answer to something pressed at the table, in words, and its level: "success",
    "error" (a refusal, or a warning left by a redirect) or "info"."""

    text: str
    level: str = "success"


def _answers(request, board, notice: str, refusal: str, at: str) -> dict:
    """The answers to show, by where they go: beside the win form's Save ("win"), in the
    kong chips ("kong"), or above everything when nothing can be recorded ("top"). A page
    reached by a redirect (a form sent without JavaScript) shows the messages it left
    beside Save too; kong chips' messages carry the tag "kong"."""
    answers: dict[str, list[_Answer]] = {"win": [], "kong": [], "top": []}
    can_record = _can_record(board)
    kong = "kong" if board.kong_chips else "win"  # no kong chips under these rules: by Save
    where = "top" if not can_record else kong if at == "kong" else "win"
    answers[where] += [_Answer(notice)] if notice else []
    answers[where] += [_Answer(refusal, "error")] if refusal else []
    if can_record and not request.htmx:
        for message in messages.get_messages(request):
            slot = kong if "kong" in message.extra_tags.split() else "win"
            level = "error" if message.level_tag in ("warning", "error") else message.level_tag
            answers[slot].append(_Answer(str(message), level))
    return answers


def _page(
    request,
    match,
    *,
    status_notice="",
    refusal="",
    answer_at="win",
    win_form=None,
    kong_form=None,
    win_data=None,
    saved=None,
    **extra,
):
    """The table page (or, for htmx, its #table-play part) with fresh or kept forms, and
    the answer (`status_notice`, or a `refusal`) beside the button pressed: `answer_at`
    "win" (Save, which the draw and undo are next to) or "kong". `win_data`: posted
    entries to show again in the win form, read against this board; `saved`: the write
    just made (recording.Saved), which the board is built from."""
    board = selectors.board(match, request.user, saved)
    if win_form is None and win_data is not None:
        win_form = WinForm(win_data, board=board)
        win_form.is_valid()
    win_form = win_form or WinForm(board=board)
    can_record = _can_record(board)
    context = {
        "board": board,
        "match": match,
        "session": match.session,
        "club": match.session.club,  # read with the session: not again by the context
        "can_record": can_record,
        "form_hand": win_form["hand"].value(),
        "win_form": win_form,
        "kong_form": kong_form or KongForm(board=board),
        "answers": _answers(request, board, status_notice, refusal, answer_at),
        **extra,
    }
    if request.htmx:
        return render(request, TEMPLATE + "#play", context)
    context["earlier"] = selectors.earlier_matches(match)
    return render(request, TEMPLATE, context)


def _saved(request, match, notice: str, saved=None, **extra):
    """After a write: htmx gets the updated table in place (built from `saved`, the write
    just made, when there is one), a plain form a redirect."""
    if saved is not None:
        match = saved.match
    else:
        match.refresh_from_db()
    if request.htmx:
        return _page(request, match, status_notice=notice, saved=saved, **extra)
    messages.success(request, notice, extra_tags=extra.get("answer_at", ""))
    return redirect("scoring:table", match.session_id, match.table_number)


def _table_changed(request, match):
    """A form from a match the table has since replaced (the players changed)."""
    posted = request.POST.get("match", "")
    if posted and posted != str(match.pk):
        return _page(
            request,
            match,
            status_notice="The players at this table changed, so the page now shows the new "
            "match. Nothing was recorded: check the list, then record again if needed.",
        )
    return None


@dataclass(frozen=True)
class _Sent:
    """What a write that came too late was: `what` arrived, `result` (it was not saved),
    what reopening lets the table `todo`, and `lines` in words of what was entered."""

    what: str = "this hand"
    result: str = "it was not saved"
    todo: str = "add it"
    lines: tuple[str, ...] = ()


def _ended_at(match) -> str:
    """When the evening was ended ("22:03"): when "End the evening" closed this match, or
    the session's other matches; empty if no match was open then."""
    ended = Match.objects.filter(session_id=match.session_id, ending=Match.Ending.CLOSED)
    at = (
        ended.filter(pk=match.pk).values_list("finished_at", flat=True).first()
        or ended.order_by("-finished_at").values_list("finished_at", flat=True).first()
    )
    return timezone.localtime(at).strftime("%H:%M") if at else ""


def evening_ended_message(match, sent: _Sent) -> str:
    at = _ended_at(match)
    return (
        f"The coordinator ended the evening{f' at {at}' if at else ''} before {sent.what} "
        f"arrived; {sent.result}. Ask the coordinator to reopen the evening to {sent.todo}."
    )


def _evening_ended(request, match, sent=None):
    """A write refused because the evening was ended: the table page (status 200, htmx
    swaps it) saying so plainly, with what this device entered kept on screen in words
    and as a form that sends it again once the coordinator has reopened the evening."""
    match = Match.objects.select_related("session").get(pk=match.pk)  # as it is now
    described = sent(request, match) if sent and request.method == "POST" else _Sent()
    kept = [
        (name, value)
        for name, values in request.POST.lists()
        if name != "csrfmiddlewaretoken"
        for value in values
    ]
    ended = {
        "message": evening_ended_message(match, described),
        "lines": described.lines,
        "fields": kept,
        "action": request.path,
    }
    return _page(request, match, evening_ended=ended)


def _unsaved_hand(win) -> Hand:
    """The hand a win form describes, not saved: for describing it and its payments."""
    return Hand(
        winner=win.winner,
        won_by=win.won_by,
        discarder=win.discarder,
        total=win.total,
        liable=win.liable,
    )


def _sent_win(request, match) -> _Sent:
    board = selectors.board(match, request.user)
    form = WinForm(request.POST, board=board)
    if not form.is_valid():
        return _Sent()
    win = form.win()
    hand = _unsaved_hand(win)
    number = form.cleaned_data["hand"]
    text = selectors.describe_hand(hand, board.names, board.unit)
    return _Sent(f"hand {number}", lines=(f"Hand {number}: {text}.",))


def _sent_draw(request, match) -> _Sent:
    form = HandNumberForm(request.POST)
    if not form.is_valid():
        return _Sent()
    number = form.cleaned_data["hand"]
    return _Sent(f"hand {number}", lines=(f"Hand {number}: a draw, nobody went out.",))


def _sent_kong(request, match) -> _Sent:
    board = selectors.board(match, request.user)
    form = KongForm(request.POST, board=board)
    sent = _Sent("these kong chips", "they were not saved", "add them")
    if not form.is_valid():
        return sent
    data = form.cleaned_data
    kind = dict(form.fields["kind"].choices).get(data["kind"], data["kind"])
    line = f"Kong chips in hand {data['hand']}: {board.names[data['chair']]}, {kind}."
    return _Sent(sent.what, sent.result, sent.todo, (line,))


def _sent_take_back(request, match) -> _Sent:
    return _Sent("this take-back", "the kong chips stay as they were", "take them back")


def _sent_undo(request, match) -> _Sent:
    form = HandNumberForm(request.POST)
    number = form.cleaned_data["hand"] if form.is_valid() else None
    hand = f"hand {number}" if number else "the last hand"
    return _Sent("this undo", f"{hand} was not undone", "undo it", (f"Undo {hand}.",))


def _stale_message(posted: int, now: int) -> str:
    if posted < now:
        # Never an invitation to save these entries as the next hand: see _conflict.
        return (
            f"Hand {posted} was just recorded on another device, so nothing was saved here: "
            "check the list of hands."
        )
    return (
        f"Hand {now - 1 if now > 1 else now} was just undone on another device; check the "
        "list, then press Save again if yours is right."
    )


def _kept(request, board):
    """The posted entries with the hand number moved on to the hand now being played."""
    data = request.POST.copy()
    data["hand"] = str(board.hand)
    return data


def _same_hand_again(match, number: int, user, outcome: dict, total=None, liable=None) -> bool:
    """A double tap: the hand is already recorded, by this user, exactly as posted."""
    hand = match.live_hands().filter(number=number).first()
    return (
        hand is not None
        and hand.recorded_by_id == getattr(user, "pk", None)
        and _agrees(hand, outcome, total, liable)
    )


def _agrees(hand, outcome: dict, total=None, liable=None) -> bool:
    return hand.flow_outcome() == outcome and hand.total == total and hand.liable == liable


def _win_description(match, hand) -> str:
    entry = hand_entry.every_chair(match)
    return selectors.describe_hand(hand, entry.names, entry.unit)


@table_view()
@require_GET
def table(request, match):
    return _page(request, match)


@table_view()
@require_GET
def live(request, match):
    """The scoreboard and hands, polled: 204 (nothing to swap) while nothing changed."""
    shown_match = request.GET.get("m", "")
    if shown_match != str(match.pk) or (request.GET.get("open") and not match.is_in_play):
        # Another match or a finished one: the forms on the page no longer apply.
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    if request.GET.get("v", "") == str(match.version):
        return HttpResponse(status=204)
    board = selectors.board(match, request.user)
    shown_hand = request.GET.get("h", "")
    return render(
        request,
        TEMPLATE + "#poll",
        {
            "board": board,
            "match": match,
            "session": match.session,
            "can_record": _can_record(board),
            "form_hand": shown_hand,
            # Digits 0-9 only: "²".isdigit() is true, but int("²") fails.
            "oob_notice": shown_hand.isascii()
            and shown_hand.isdigit()
            and int(shown_hand) != board.hand,
        },
    )


@table_view(write=True, sent=_sent_win)
@require_POST
def record_win(request, match):
    if changed := _table_changed(request, match):
        return changed
    # Read against every chair: the write checks the hand against the match's state, and
    # the page is built once, from what the write worked out (or to show a refusal).
    form = WinForm(request.POST, board=hand_entry.every_chair(match))
    if not form.is_valid():
        return _page(request, match, win_data=request.POST)
    number, win = form.cleaned_data["hand"], form.win()
    if request.POST.get("action") == "check":
        return _page(request, match, win_data=request.POST, preview=_preview(match, number, win))
    try:
        written = recording.save_win(match, number, win, by=request.user)
    except recording.RecordingError as error:
        # Already recorded (a double tap, or another device first; perhaps ending the match)?
        saved = match.live_hands().filter(number=number).first()
        if saved is None:
            return _refused_win(request, match, number, error)
        if _agrees(saved, win.outcome(), win.total, win.liable):
            if saved.recorded_by_id == request.user.pk:  # a double tap
                return _saved(request, match, f"Hand {number} is saved.")
            return _saved(
                request, match, f"Hand {number} was saved on another device, the same as yours."
            )
        # Two devices disagree: show both and let the table choose; nothing is carried on.
        return _page(request, match, conflict=_conflict(request, match, saved, win))
    notice = f"Hand {number} saved: {_win_description(written.match, written.record)}."
    return _saved(request, match, notice, written)


def _conflict(request, match, saved: Hand, win: recording.Win) -> dict:
    """Hand `saved.number`, saved on another device, beside what this device entered (with
    the payments it would have made), and the way to correct the hand if ours is right."""
    board = selectors.board(match, request.user)
    number = saved.number
    ours = _unsaved_hand(win)
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
        return _page(request, match, refusal=_stale_message(number, board.hand))
    if board.hand != number:
        form = WinForm(_kept(request, board), board=board)
        form.is_valid()
        form.add_error(None, _stale_message(number, board.hand))
    else:
        form = WinForm(request.POST, board=board)
        # A choice this hand does not offer (a player sitting out) is the form's to say.
        if form.is_valid():
            field = "total" if isinstance(error.__cause__, table_rules.TotalRefused) else None
            form.add_error(field, str(error))
    return _page(request, match, win_form=form)


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
    preview = {"refused": evening_ended_message(match, _Sent())}
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


def _simple_write(request, match, form, write, done: str):
    """A draw, kong chips or an undo: one hand-numbered form, one recording function."""
    if changed := _table_changed(request, match):
        return changed
    if not form.is_valid():
        return _page(request, match, status_notice="Nothing was recorded: please try again.")
    number = form.cleaned_data["hand"]
    try:
        saved = write(number)
    except recording.RecordingError as error:
        return _page(request, match, refusal=str(error))
    return _saved(request, match, done.format(number=number), saved)


@table_view(write=True, sent=_sent_draw)
@require_POST
def record_draw(request, match):
    def write(number):
        try:
            return recording.save_draw(match, number, by=request.user)
        except recording.AlreadyRecorded:
            if not _same_hand_again(match, number, request.user, {"draw": True}):
                raise
        return None

    return _simple_write(
        request, match, HandNumberForm(request.POST), write, "Hand {number} saved: a draw."
    )


@table_view(write=True, sent=_sent_kong)
@require_POST
def record_kong(request, match):
    if changed := _table_changed(request, match):
        return changed
    form = KongForm(request.POST, board=hand_entry.every_chair(match))  # as record_win
    if not form.is_valid():
        board = selectors.board(match, request.user)
        form = KongForm(request.POST, board=board)
        form.is_valid()
        if "key" in form.errors:  # a page from before kong forms had keys, or a hand-made post
            stale = form.errors["key"][0]
            form = form.with_fresh_key(board)
            form.is_valid()
            form.add_error(None, stale)
        return _page(request, match, kong_form=form, open_kong=True)
    data = form.cleaned_data
    names = hand_entry.every_chair(match).names
    try:
        saved = recording.save_kong(
            match, data["hand"], data["chair"], data["kind"], by=request.user, key=data["key"]
        )
    except recording.KongAlreadySaved as repeat:
        # The same form again (a double tap, "press again"): the chips are saved, once.
        name = names[repeat.kong.chair]
        if repeat.kong.is_voided:
            notice = f"Those kong chips for {name} were saved and then taken back: nothing saved."
        else:
            notice = f"Kong chips for {name} are already saved."
        return _saved(request, match, notice, answer_at="kong")
    except recording.RecordingError as error:
        board = selectors.board(match, request.user)
        form = KongForm(request.POST, board=board)
        form.is_valid()
        if board.hand > data["hand"]:
            # The hand was recorded meanwhile: the chips are not moved on to the next hand.
            return _page(request, match, refusal=_kong_too_late(data["hand"]), answer_at="kong")
        if board.hand != data["hand"]:
            form = KongForm(_kept(request, board), board=board)
            form.is_valid()
            form.add_error(None, _stale_message(data["hand"], board.hand))
        elif not board.kong_chips:  # no kong form on the page to show it next to
            return _page(request, match, refusal=str(error))
        elif not form.errors:  # a choice this hand does not offer is the form's to say
            form.add_error(None, str(error))
        return _page(request, match, kong_form=form, open_kong=True)
    name = names[data["chair"]]
    # The kong card stays open, showing the chips just saved with their "Take back".
    return _saved(request, match, f"Kong chips saved for {name}.", saved, answer_at="kong")


def _kong_too_late(number: int) -> str:
    return (
        f"Hand {number} was recorded on another device before these kong chips were saved, "
        f"so nothing was saved. If the kong was made in hand {number}, undo hand {number}, "
        "save the chips, then record the hand again."
    )


@table_view(write=True, sent=_sent_take_back)
@require_POST
def take_back_kong(request, match):
    """Kong chips saved by mistake in the hand being played are voided (kept, marked)."""
    if changed := _table_changed(request, match):
        return changed
    form = TakeBackKongForm(request.POST)
    if not form.is_valid():
        return _page(request, match, status_notice="Nothing was changed: please try again.")
    try:
        saved = recording.save_kong_taken_back(match, form.cleaned_data["kong"], by=request.user)
    except recording.AlreadyRecorded as error:
        return _page(request, match, status_notice=str(error), answer_at="kong")
    except recording.RecordingError as error:
        return _page(request, match, refusal=str(error), answer_at="kong")
    name = hand_entry.every_chair(match).names[saved.record.chair]
    notice = f"{name}'s kong chips are taken back."
    return _saved(request, match, notice, saved, answer_at="kong")


@table_view(write=True, sent=_sent_undo)
@require_POST
def undo(request, match):
    def write(number):
        return recording.save_undo(match, number, by=request.user)

    return _simple_write(
        request,
        match,
        HandNumberForm(request.POST),
        write,
        "Hand {number} is undone. It stays in the list, struck through.",
    )


@table_view()
@require_POST
def throw_dice(request, match):
    """Throw the dice for breaking the wall (nothing is written)."""
    club = request.club
    if not club.show_dice:
        raise Http404("This club does not use the dice on the table page.")
    board = selectors.board(match, request.user)
    if not board.is_open:
        return _page(request, match)
    names = {seat.wind: seat.name for seat in board.playing}
    thrown = dice.throw(club.dice_count, names)
    if request.htmx:
        return render(request, TEMPLATE + "#dice", {"thrown": thrown, "board": board})
    return _page(request, match, thrown=thrown)


# --- a hand worked out from its tiles ---------------------------------------------------------

FULL_HAND = "scoring/table/full_hand.html"


def _to_table(request, match, notice: str, level=messages.success):
    """Back to the table page: a redirect, or for htmx a client-side one."""
    level(request, notice)
    url = reverse("scoring:table", args=[match.session_id, match.table_number])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _same_full_hand_again(match, number: int, user, win: recording.Win) -> bool:
    hand = match.live_hands().filter(number=number).first()
    return (
        hand is not None
        and hand.entry == Hand.Entry.FULL
        and hand.recorded_by_id == getattr(user, "pk", None)
        and hand.flow_outcome() == win.outcome()
        and all(hand.tiles.get(key) == value for key, value in win.tiles.items())
        and hand.liable == win.liable
    )


def _full_hand_ended(request, match):
    match = Match.objects.select_related("session").get(pk=match.pk)  # as it is now
    if request.method == "POST":
        return _full_hand(request, match, ended=True)
    at = _ended_at(match)
    return _to_table(
        request,
        match,
        f"The coordinator ended the evening{f' at {at}' if at else ''}, so no more hands can "
        "be recorded. Ask the coordinator to reopen the evening to add one.",
        messages.warning,
    )


@table_view(write=True, ended=_full_hand_ended)
@require_http_methods(["GET", "POST"])
def full_hand(request, match):
    """Work out the score from the tiles: the tile picker with the winds, dealer and goulash
    from the match, a live itemised preview, and saving the hand as quick entry does."""
    return _full_hand(request, match)


def _full_hand(request, match, ended: bool = False):
    """The picker page; `ended`: the evening was ended, so the tiles chosen stay on screen
    with the reason nothing can be saved."""
    posted_match = request.POST.get("match", "")
    if posted_match and posted_match != str(match.pk):
        return _to_table(
            request,
            match,
            "The players at this table changed, so nothing was recorded: check the list, "
            "then work the hand out again if needed.",
            messages.warning,
        )
    board = selectors.board(match, request.user)
    if not ended and not _can_record(board):
        return _to_table(request, match, "This match is over: no more hands to record.")
    form = TablePickerForm(request.POST or None, board=board)
    form.build()
    number = form.choice("hand") or board.hand
    save_error = ""
    if ended:
        save_error = evening_ended_message(match, _Sent(f"hand {number}"))
    elif "save" in request.POST:
        missing = form.missing()
        tile_problem = form.tile_problem()
        if missing or form.draft.is_empty:
            save_error = f"Before saving, choose {', '.join(missing or ['the tiles'])}."
        elif tile_problem:
            save_error = tile_problem
        else:
            win = form.full_win()
            try:
                hand = recording.record_full(match, number, win, by=request.user)
            except recording.AlreadyRecorded as error:
                if _same_full_hand_again(match, number, request.user, win):
                    return _to_table(request, match, f"Hand {number} is saved.")
                save_error = str(error)
            except recording.RecordingError as error:
                save_error = in_words(str(error))
            else:
                match.refresh_from_db()
                return _to_table(
                    request, match, f"Hand {number} saved: {_win_description(match, hand)}."
                )

    def score(hand):
        won_by = hand["won_by"]
        winner = form.choice("winner")
        win = recording.Win(
            winner=board.state.dealer if winner is None else winner,
            won_by=won_by,
            discarder=form.choice("discarder") if won_by in Hand.DISCARDER_PAYS else None,
            tiles={k: v for k, v in hand.items() if k not in ("won_by", "discarder")},
            liable=form.liable_chair(),
        )
        if number != board.hand:
            raise EngineError(_stale_message(number, board.hand))
        # The board's state is the hand being played: no second replay of the match.
        contract = table_rules.full_hand(match, board.state, win)
        result, payments = table_rules.score_full_hand(match, board.state, contract)
        return result, selectors.pay_words(board.names, payments), board.unit

    context = {
        "board": board,
        "match": match,
        "session": match.session,
        "number": number,
        "form": form,
        "preview": picker_preview(form, form.hand_fields(), score),
        "save_error": save_error,
        "hidden": [("hand", number), ("match", match.pk)],
        "fields_template": "scoring/table/picker_fields.html",
        "save_label": f"Save hand {number}",
    }
    if request.htmx:
        return render(request, PICKER_BODY, context)
    return render(request, FULL_HAND, context)
