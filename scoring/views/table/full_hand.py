"""A hand worked out from its tiles at the table: the tile picker with the winds, dealer and
goulash from the match, a live itemised preview, and saving the hand as quick entry does."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from games.models import Match
from scoring import recording, selectors, table_rules
from scoring.engine import EngineError
from scoring.forms.table import TablePickerForm
from scoring.models import Hand
from scoring.picker_words import in_words
from scoring.views.practice import PICKER_BODY, picker_preview
from scoring.views.table.page import (
    Sent,
    ended_at,
    evening_ended_message,
    is_recording_open,
    recorded_here,
    recorder,
    stale_message,
    table_view,
    win_description,
)

FULL_HAND = "scoring/table/full_hand.html"


def _to_table(request, match, notice: str, level=messages.success):
    """Back to the table page: a redirect, or for htmx a client-side one."""
    level(request, notice)
    url = reverse("scoring:table", args=[match.session_id, match.table_number])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def _same_full_hand_again(match, number: int, request, win: recording.Win) -> bool:
    hand = match.live_hands().filter(number=number).first()
    return (
        hand is not None
        and hand.entry == Hand.Entry.FULL
        and recorded_here(hand, request)
        and hand.flow_outcome() == win.outcome()
        and all(hand.tiles.get(key) == value for key, value in win.tiles.items())
        and hand.liable == win.liable
    )


def _full_hand_ended(request, match):
    match = Match.objects.select_related("session").get(pk=match.pk)  # as it is now
    if request.method == "POST":
        return _full_hand(request, match, ended=True)
    at = ended_at(match)
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
    if not ended and not is_recording_open(board):
        return _to_table(request, match, "This match is over: no more hands to record.")
    form = TablePickerForm(request.POST or None, board=board)
    form.build()
    # A posted hand number that is no hand (0, "x") is refused, never taken for this one.
    refused_hand = form.errors.get("hand") if form.is_bound else None
    number = form.choice("hand") or board.hand
    save_error = ""
    if ended:
        save_error = evening_ended_message(match, Sent(f"hand {number}"))
    elif "save" in request.POST and refused_hand:
        save_error = f"{refused_hand[0]} The next hand to record is hand {board.hand}."
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
                hand = recording.record_full(match, number, win, **recorder(request))
            except recording.AlreadyRecorded as error:
                if _same_full_hand_again(match, number, request, win):
                    return _to_table(request, match, f"Hand {number} is saved.")
                save_error = str(error)
            except recording.RecordingError as error:
                save_error = in_words(str(error))
            else:
                match.refresh_from_db()
                return _to_table(
                    request, match, f"Hand {number} saved: {win_description(match, hand)}."
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
            raise EngineError(stale_message(number, board.hand))
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
