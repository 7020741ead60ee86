"""The table page itself: finding the table's match (and who may see it), building the
page or its htmx part from the board, the answer beside the button pressed, a write that
came after the evening ended, the live scoreboard's poll and the dice. The writes are
quick_entry.py, a hand worked out from its tiles full_hand.py."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.db import connection
from django.db.models import Case, Q, When
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from club.models import Session
from games import dice, flow
from games.access import players_and_coordinators
from games.models import Match
from scoring import hand_entry, recording, selectors
from scoring.forms.table import KongForm, WinForm
from scoring.models import Hand, SentWrite

TEMPLATE = "scoring/table/table.html"
# What became of a write, for the page's outbox (static/js/outbox-queue.js) to read without
# reading the words: saved, already-saved (sent before with the same key, or the same hand
# already there), conflict (a different hand is recorded), ended (the evening was ended),
# refused (anything else the table must look at).
OUTCOME_HEADER = "X-Table-Outcome"


def sent_key(request) -> uuid.UUID | None:
    """The write's one-time key (the forms' hidden `sent_key`, kept by the outbox on every
    resend); none, or not a key, and the write is made without one."""
    try:
        return uuid.UUID(request.POST.get("sent_key", ""))
    except ValueError:
        return None


def _table_match(request, kwargs) -> Match:
    """The match the address's table shows (the one in play, else the latest), or 404.

    One indexed query with its session (the table's poll, most of a club night's requests,
    makes it every few seconds): the match by session and table, scoped to the request's
    club, whose row the session takes rather than reading it again."""
    in_play = Q(status=Match.Status.IN_PLAY)
    match = (
        Match.objects.filter(session_id=kwargs.pop("session_id"), table_number=kwargs.pop("number"))
        .select_related("session")
        .order_by(Case(When(in_play, then=0), default=1), "-started_at", "-pk")
        .first()
    )
    if match is None:
        raise Http404("Play has not started at this table.")
    match.session.club = request.club
    return match


# The poll's match: only what answering "nothing new" needs, chosen and ordered as
# _table_match does, in SQL written once (building the ORM's query cost the poll more than
# running it). Scoped to the request's club by the session's club key.
_POLLED_MATCH = (
    f"SELECT m.id, m.status, m.version, s.status FROM {Match._meta.db_table} m "
    f"INNER JOIN {Session._meta.db_table} s ON s.id = m.session_id "
    "WHERE m.session_id = %s AND m.table_number = %s AND s.club_id = %s "
    "ORDER BY CASE WHEN m.status = %s THEN 0 ELSE 1 END, m.started_at DESC, m.id DESC LIMIT 1"
)


def _polled_match(request, kwargs) -> Match:
    """The match as _table_match finds it, with only its key, status and version and its
    session's status loaded (any other field is read when asked for): the poll's 204 needs
    no more, and the poll reads the whole match again when the board changed."""
    session_id, number = kwargs.pop("session_id"), kwargs.pop("number")
    with connection.cursor() as cursor:
        cursor.execute(_POLLED_MATCH, [session_id, number, request.club.pk, Match.Status.IN_PLAY])
        row = cursor.fetchone()
    if row is None:
        raise Http404("Play has not started at this table.")
    pk, status, version, session_status = row
    club_id = request.club.pk
    match = _loaded(
        Match,
        {"id": pk, "club_id": club_id, "session_id": session_id, "table_number": number}
        | {"status": status, "version": version},
    )
    session = _loaded(Session, {"id": session_id, "club_id": club_id, "status": session_status})
    session.club = request.club
    match.session = session
    return match


def _loaded(model, values: dict):
    """A row of `model` as read from the database with only `values` (by attname) loaded."""
    fields = [f.attname for f in model._meta.concrete_fields if f.attname in values]
    return model.from_db(connection.alias, fields, [values[name] for name in fields])


def table_view(write: bool = False, sent=None, ended=None, polled: bool = False):
    """Resolve the table's match and check who may see it (and, for `write`, record).

    A write that arrives after the coordinator ended the evening (checked here, or found
    by the recording function that queued behind "End the evening") is answered by
    `evening_ended`, keeping what was entered; `sent(request, match)` says in words what
    it was (see `Sent`); a view whose answer is not the table page passes its own
    `ended(request, match)` instead. A `polled` view (the scoreboard's) is asked by a
    table's card device after the evening ended too, and answers it itself."""

    def decorate(view):
        @players_and_coordinators(
            _polled_match if polled else _table_match,
            "You can record hands only at the table where you sit.",
            table_keys=True,
            table_keys_answer_ended=("POST",) if write else ("GET",) if polled else (),
        )
        @wraps(view)
        def wrapper(request, match):
            answer = ended or (lambda request, match: evening_ended(request, match, sent))
            if write and match.session.status != Session.Status.IN_PLAY:
                return answer(request, match)
            try:
                return view(request, match)
            except recording.EveningEnded:
                return answer(request, match)

        return wrapper

    return decorate


def is_recording_open(board) -> bool:
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
    can_record = is_recording_open(board)
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


def table_flow(board) -> dict:
    """What the page's outbox (static/js/outbox*.js) needs to move the board on by itself
    while hands wait to be sent: the flow's inputs (flow.js replays them), the names, and
    where each write goes. The server's board replaces it once they are sent."""
    match = board.match
    args = [match.session_id, match.table_number]
    names = ("win", "draw", "kong", "take_back_kong", "undo", "table")
    return {
        "match": match.pk,
        # Moves on with every write: the outbox keeps the newest it has seen (a page kept by
        # the service worker may be older than the answers the device had since).
        "version": match.version,
        "rules": match.rules,
        # games/flow.py's constants: flow.js has the moves only.
        "flow": flow.CONSTANTS,
        "players": len(board.names),
        "options": match.flow_options or {},
        "outcomes": match.flow_outcomes(board.live_hands),
        "hands": {
            hand.number: selectors.describe_hand(hand, board.names, board.unit)
            for hand in board.live_hands
        },
        "state": board.state.as_dict(),
        "names": board.names,
        "unit": board.unit,
        "urls": {name: reverse(f"scoring:{name}", args=args) for name in names},
        "checks": hand_entry.device_checks(match),
        # The words the outbox writes the waiting hands and the board in: the server's own.
        "words": {
            "won_by": {str(k): v for k, v in selectors.WON_BY_WORDS.items()},
            "kong": selectors.KONG_WORDS,
            "winds": flow.WIND_WORDS,
        },
        # How often the outbox tries again while writes wait (tests make it short).
        "retry_ms": settings.TABLE_OUTBOX_RETRY_MS,
    }


def made_keys(match) -> list[str]:
    """The one-time keys of the writes made at this match (SentWrite), for the whole page:
    a write still waiting on a device that was reloaded after the server made it (its
    answer lost on the way) is then not counted twice. An answer to a write needs none:
    the page that sent a write waits for its answer, or sends it again."""
    return [str(key) for key in SentWrite.objects.filter(match=match).values_list("key", flat=True)]


def table_page(
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
    outcome="",
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
    can_record = is_recording_open(board)
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
        "table_flow": table_flow(board) if can_record else None,
        **extra,
    }
    if can_record and not request.htmx:
        context["table_flow"]["made_keys"] = made_keys(match)
    if request.htmx:
        response = render(request, TEMPLATE + "#play", context)
    else:
        context["earlier"] = selectors.earlier_matches(match)
        response = render(request, TEMPLATE, context)
    if outcome:
        response[OUTCOME_HEADER] = outcome
    return response


def after_write(request, match, notice: str, saved=None, outcome="saved", **extra):
    """After a write: htmx gets the updated table in place (built from `saved`, the write
    just made, when there is one), a plain form a redirect. `outcome`: "saved", or
    "already-saved" for a write found made before (see OUTCOME_HEADER)."""
    if saved is not None:
        match = saved.match
    else:
        match.refresh_from_db()
    if request.htmx:
        return table_page(
            request, match, status_notice=notice, saved=saved, outcome=outcome, **extra
        )
    messages.success(request, notice, extra_tags=extra.get("answer_at", ""))
    response = redirect("scoring:table", match.session_id, match.table_number)
    response[OUTCOME_HEADER] = outcome
    return response


def already_sent(request, match, answer_at="win"):
    """A write sent again with the key it was made with: said, and the table as it is."""
    return after_write(
        request, match, "That was saved already.", outcome="already-saved", answer_at=answer_at
    )


def table_changed(request, match):
    """A form from a match the table has since replaced (the players changed)."""
    posted = request.POST.get("match", "")
    if posted and posted != str(match.pk):
        return table_page(
            request,
            match,
            status_notice="The players at this table changed, so the page now shows the new "
            "match. Nothing was recorded: check the list, then record again if needed.",
            outcome="refused",
        )
    return None


@dataclass(frozen=True)
class Sent:
    """What a write that came too late was: `what` arrived, `result` (it was not saved),
    what reopening lets the table `todo`, and `lines` in words of what was entered."""

    what: str = "this hand"
    result: str = "it was not saved"
    todo: str = "add it"
    lines: tuple[str, ...] = ()


def ended_at(match) -> str:
    """When the evening was ended ("22:03"): when "End the evening" closed this match, or
    the session's other matches; empty if no match was open then."""
    ended = Match.objects.filter(session_id=match.session_id, ending=Match.Ending.CLOSED)
    at = (
        ended.filter(pk=match.pk).values_list("finished_at", flat=True).first()
        or ended.order_by("-finished_at").values_list("finished_at", flat=True).first()
    )
    return timezone.localtime(at).strftime("%H:%M") if at else ""


def evening_ended_message(match, sent: Sent) -> str:
    at = ended_at(match)
    return (
        f"The coordinator ended the evening{f' at {at}' if at else ''} before {sent.what} "
        f"arrived; {sent.result}. Ask the coordinator to reopen the evening to {sent.todo}."
    )


def evening_ended(request, match, sent=None):
    """A write refused because the evening was ended: the table page (status 200, htmx
    swaps it) saying so plainly, with what this device entered kept on screen in words
    and as a form that sends it again once the coordinator has reopened the evening."""
    match = Match.objects.select_related("session").get(pk=match.pk)  # as it is now
    key = sent_key(request) if request.method == "POST" else None
    if key is not None and SentWrite.objects.filter(match=match, key=key).exists():
        return already_sent(request, match)  # made before the evening ended; its answer lost
    described = sent(request, match) if sent and request.method == "POST" else Sent()
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
    return table_page(request, match, evening_ended=ended, outcome="ended")


def unsaved_hand(win) -> Hand:
    """The hand a win form describes, not saved: for describing it and its payments."""
    return Hand(
        winner=win.winner,
        won_by=win.won_by,
        discarder=win.discarder,
        total=win.total,
        liable=win.liable,
    )


def stale_message(posted: int, now: int) -> str:
    if posted < now:
        # Never an invitation to save these entries as the next hand: see _conflict.
        return (
            f"Hand {posted} was just recorded on another device, so nothing was saved here: "
            "check the list of hands."
        )
    if posted == now + 1:  # the page showed the next hand; the last one was undone since
        return (
            f"Hand {now} was just undone on another device, so nothing was saved for hand "
            f"{posted}; check the list, then press Save again if yours is right."
        )
    return f"The next hand to record is hand {now}, not {posted}, so nothing was saved."


def kept_entries(request, board):
    """The posted entries with the hand number moved on to the hand now being played."""
    data = request.POST.copy()
    data["hand"] = str(board.hand)
    return data


def recorder(request) -> dict:
    """Who a write is recorded by: the login (None on a tablet that came in with the table's
    key and no login) and that key (None for a player or coordinator)."""
    user = request.user if request.user.is_authenticated else None
    return {"by": user, "table_key": getattr(request, "table_key", None)}


def recorded_here(record, request) -> bool:
    """Whether `record` came from this device's recorder: the same login and the same table
    key (a tablet with no login is known by its key)."""
    who = recorder(request)
    return record.recorded_by_id == getattr(who["by"], "pk", None) and (
        record.recorded_with_id == getattr(who["table_key"], "pk", None)
    )


def same_hand_again(match, number: int, request, outcome: dict, total=None, liable=None) -> bool:
    """A double tap: the hand is already recorded, from this device, exactly as posted."""
    hand = match.live_hands().filter(number=number).first()
    return (
        hand is not None and recorded_here(hand, request) and agrees(hand, outcome, total, liable)
    )


def agrees(hand, outcome: dict, total=None, liable=None) -> bool:
    return hand.flow_outcome() == outcome and hand.total == total and hand.liable == liable


def win_description(match, hand) -> str:
    entry = hand_entry.every_chair(match)
    return selectors.describe_hand(hand, entry.names, entry.unit)


@table_view()
@require_GET
def table(request, match):
    return table_page(request, match)


def _whole(request, match) -> Match:
    whole = Match.objects.select_related("session").get(pk=match.pk)
    whole.session.club = request.club
    return whole


# htmx stops polling on this answer and swaps it as a 200 (not an error in the console).
STOP_POLLING = 286


@table_view(polled=True)
@require_GET
def poll(request, match):
    """The scoreboard and hands, polled: 204 (nothing to swap) while nothing changed. The
    match comes with its key, status and version only (_polled_match): read whole for a
    board."""
    if request.table_key is not None and match.session.status != Session.Status.IN_PLAY:
        match = _whole(request, match)
        # A table's card device after "End the evening": its key opens nothing any more (a
        # reload would be refused), so the last board and a word, and the polling stops.
        board = selectors.board(match, request.user)
        context = {"board": board, "match": match, "session": match.session, "ended": True}
        return render(request, TEMPLATE + "#poll", context, status=STOP_POLLING)
    shown_match = request.GET.get("m", "")
    if shown_match != str(match.pk) or (request.GET.get("open") and not match.is_in_play):
        # Another match or a finished one: the forms on the page no longer apply.
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response
    if request.GET.get("v", "") == str(match.version):
        return HttpResponse(status=204)
    match = _whole(request, match)
    board = selectors.board(match, request.user)
    shown_hand = request.GET.get("h", "")
    return render(
        request,
        TEMPLATE + "#poll",
        {
            "board": board,
            "match": match,
            "session": match.session,
            "can_record": is_recording_open(board),
            "form_hand": shown_hand,
            # Digits 0-9 only: "²".isdigit() is true, but int("²") fails.
            "oob_notice": shown_hand.isascii()
            and shown_hand.isdigit()
            and int(shown_hand) != board.hand,
        },
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
        return table_page(request, match)
    names = {seat.wind: seat.name for seat in board.playing}
    thrown = dice.throw(club.dice_count, names)
    if request.htmx:
        return render(request, TEMPLATE + "#dice", {"thrown": thrown, "board": board})
    return table_page(request, match, thrown=thrown)
