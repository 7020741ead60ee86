"""Scoresheets, corrections and paper sheets.

Who may do what: a coordinator anything, any time; a member seated in a match reads its
scoresheet, and corrects its hands while the match is in play; the Changes page, the blank
score sheets and typing in a paper sheet are the coordinator's.
"""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from club.lookups import session_or_404
from club.models import Session
from club.roles import coordinator_required, is_coordinator
from club.seating.display import seating_page
from games.access import players_and_coordinators
from games.flow import WIND_WORDS
from games.models import Match
from scoring import corrections, scoresheet, table_rules
from scoring.forms import CorrectionForm, PaperSheet
from scoring.selectors import describe_hand

PAPER_ROWS = 24  # a long evening's hands; "More rows" adds more
BLANK_ROWS = 20  # an evening's hands on one A4 sheet
PREFILL = ("winner", "won_by", "discarder", "liable", "total")


def _match(request, pk: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("session"), pk=pk, session__club=request.club
    )


def may_correct(user, match: Match) -> bool:
    if is_coordinator(user, match.club_id):
        return True
    return (
        match.chair_of(user) is not None
        and match.is_in_play
        and match.session.status == Session.Status.IN_PLAY
    )


def match_view(write: bool = False):
    """Resolve the match; its players may read it, and (for `write`) correct it while it
    is in play; a coordinator always."""

    def decorate(view):
        @players_and_coordinators(
            lambda request, kwargs: _match(request, kwargs.pop("pk")),
            "Only the players at this table can see its hands.",
        )
        @wraps(view)
        def wrapper(request, match, **kwargs):
            if write and not may_correct(request.user, match):  # a coordinator always may
                raise PermissionDenied("This match is over: ask the coordinator to correct a hand.")
            return view(request, match, **kwargs)

        return wrapper

    return decorate


@require_safe
@match_view()
def scoresheet_page(request, match):
    return render(
        request,
        "scoring/scoresheet.html",
        {
            "sheet": scoresheet.scoresheet(match),
            "match": match,
            "session": match.session,
            "can_correct": may_correct(request.user, match),
        },
    )


def _players(match, state) -> list[tuple[int, str]]:
    names = match.player_names()
    seated = [chair for chair, wind in enumerate(state.winds) if wind]
    seated.sort(key=lambda chair: "ESWN".index(state.winds[chair]))
    return [(chair, f"{names[chair]} ({WIND_WORDS[state.winds[chair]]})") for chair in seated]


@match_view(write=True)
@require_http_methods(["GET", "POST"])
def correct(request, match, number: int):
    hand = match.live_hands().filter(number=number).first()
    if hand is None:
        raise Http404("There is no such hand.")
    state = match.replay()[number - 1]
    sheet = scoresheet.scoresheet(match)
    unit = sheet.unit
    form_kwargs = {
        "players": _players(match, state),
        "unit": unit,
        "liability": table_rules.has_liability(table_rules.match_ruleset(match)),
    }
    if request.method == "POST":
        form = CorrectionForm(request.POST, **form_kwargs)
        if form.is_valid():
            try:
                corrections.correct_hand(
                    match,
                    number,
                    form.change(),
                    form.cleaned_data["reason"],
                    by=request.user,
                    hand_id=form.cleaned_data["hand_id"],
                )
            except corrections.CorrectionRefused as error:
                form.add_error(None, str(error))
            else:
                done = "voided" if form.cleaned_data["what"] == "void" else "corrected"
                messages.success(
                    request, f"Hand {number} is {done}. The hands after it and the tallies follow."
                )
                return redirect("scoring:scoresheet", match.pk)
    else:
        initial = CorrectionForm.initial_for(hand)
        # "Ours is different" at the table opens this page with that device's entries.
        if "won_by" in request.GET:
            initial |= {name: request.GET[name] for name in PREFILL if name in request.GET}
            initial["what"] = "win"
        form = CorrectionForm(initial=initial, **form_kwargs)
    row = next(r for g in sheet.rounds for r in g.rows if r.number == number)
    return render(
        request,
        "scoring/correct.html",
        {"form": form, "match": match, "session": match.session, "row": row, "sheet": sheet},
    )


@require_safe
@coordinator_required
def changes(request, pk: int):
    session = session_or_404(request, pk)
    return render(
        request,
        "scoring/changes.html",
        {"session": session, "changes": scoresheet.session_changes(session)},
    )


@require_safe
@coordinator_required
def blank_sheets(request, pk: int):
    session = session_or_404(request, pk)
    return render(
        request,
        "scoring/blank_sheets.html",
        {
            "session": session,
            "seating": seating_page(session),
            "hand_rows": range(1, BLANK_ROWS + 1),
        },
    )


@coordinator_required
@require_http_methods(["GET", "POST"])
def paper(request, pk: int):
    match = _match(request, pk)
    names = match.player_names()
    kwargs = {"form_kwargs": {"names": names}}
    checked = refusal = None
    if request.method == "POST":
        sheet = PaperSheet(request.POST, **kwargs)
        action = request.POST.get("action")
        if action == "more":
            data = request.POST.copy()
            data["form-TOTAL_FORMS"] = str(sheet.total_form_count() + 10)
            sheet = PaperSheet(data, **kwargs)
        elif sheet.is_valid():
            rows = sheet.rows()
            try:
                if action == "save":
                    corrections.record_sheet(match, rows, by=request.user)
                    messages.success(
                        request,
                        f"Table {match.table_number}'s sheet is recorded: {len(rows)} hands.",
                    )
                    return redirect("scoring:scoresheet", match.pk)
                checked = _checked(match, rows, names)
            except corrections.SheetRefused as error:
                refusal = error
                if error.row:
                    sheet.forms[error.row - 1].add_error(None, str(error))
    else:
        sheet = PaperSheet(initial=[{}] * PAPER_ROWS, **kwargs)
    return render(
        request,
        "scoring/paper.html",
        {
            "match": match,
            "session": match.session,
            "names": names,
            "sheet": sheet,
            "checked": checked,
            "refusal": refusal,
            "recorded": match.live_hands().count(),
        },
    )


def _checked(match, rows, names) -> list[dict]:
    """Each row as the app reads it, with the tallies after it: shown before saving."""
    unit = table_rules.unit(table_rules.match_ruleset(match))
    hands = corrections.check_sheet(match, rows)
    running = [match.starting_tally] * len(names)
    lines = []
    for hand in hands:
        running = [t + p for t, p in zip(running, hand.payments, strict=False)]
        lines.append(
            {
                "number": hand.number,
                "text": describe_hand(hand, names, unit)
                + (" (goulash hand)" if hand.goulash else ""),
                "tallies": list(running),
            }
        )
    return lines
