"""The coordinator's start and end of an evening's play (the table page, where hands are
recorded, is scoring/views/table/)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from club.lookups import session_or_404
from club.refusals import Refused
from club.roles import coordinator_required
from games.start import end_evening, start_play


@coordinator_required
@require_POST
def start(request, session_id: int):
    session = session_or_404(request, session_id)
    try:
        started = start_play(session)
    except Refused as error:
        messages.error(request, str(error))
    else:
        if started:
            tables = len(started)
            messages.success(
                request,
                f"Play has started at {tables} table{'s' if tables != 1 else ''}: "
                "each table can now record its hands.",
            )
        else:
            messages.info(request, "Play had already started at every table.")
    return _back(request, session)


def _back(request, session):
    """Back to the page the button was on (the Tonight page or the session's page)."""
    back = request.POST.get("next") or request.GET.get("next") or ""
    if back and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(back)
    return redirect("club:session_detail", pk=session.pk)


@coordinator_required
def end(request, session_id: int):
    session = session_or_404(request, session_id)
    if request.method == "POST":
        ended = end_evening(session)
        messages.success(
            request,
            f"The evening is over: {ended} match{'es' if ended != 1 else ''} ended where they "
            "stood and the session is closed.",
        )
        return _back(request, session)
    in_play = session.matches.in_play().count()
    back = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = ""
    return render(
        request, "games/end_confirm.html", {"session": session, "in_play": in_play, "next": back}
    )
