"""Weekly sessions: the list, adding and editing, next week's in one click, and moving a
session from planned to in play to closed."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from club import selectors, services
from club.forms import SessionForm
from club.models import Club, Session
from club.roles import coordinator_required

# The seating pages may add a panel to a session's page by providing this template.


def _session(pk: int) -> Session:
    return get_object_or_404(Session, pk=pk, club=Club.objects.current())


@coordinator_required
def session_list(request):
    club = Club.objects.current()
    today = timezone.localdate()
    latest = selectors.latest_session(club)
    return render(
        request,
        "club/sessions/list.html",
        {
            "upcoming": selectors.upcoming_sessions(club, today),
            "past": selectors.past_sessions(club, today)[:52],
            "latest": latest,
            "next_date": services.next_session_date(latest, today) if latest else None,
        },
    )


@coordinator_required
def session_create(request):
    club = Club.objects.current()
    latest = selectors.latest_session(club)
    initial = {"date": timezone.localdate(), "venue": latest.venue if latest else ""}
    form = SessionForm(request.POST or None, club=club, initial=initial)
    if request.method == "POST" and form.is_valid():
        session = form.save()
        messages.success(request, f"The session on {services.nice_date(session.date)} is added.")
        return redirect("club:session_detail", pk=session.pk)
    return render(request, "club/sessions/form.html", {"form": form, "session": None})


@coordinator_required
def session_edit(request, pk):
    session = _session(pk)
    form = SessionForm(request.POST or None, instance=session, club=session.club)
    if request.method == "POST" and form.is_valid():
        session = form.save()
        messages.success(request, f"The session on {services.nice_date(session.date)} is saved.")
        return redirect("club:session_detail", pk=session.pk)
    return render(request, "club/sessions/form.html", {"form": form, "session": session})


@coordinator_required
def session_detail(request, pk):
    session = _session(pk)
    return render(
        request,
        "club/sessions/detail.html",
        {
            "session": session,
            "counts": selectors.attendance_counts(session),
            "moves": [
                (status, Session.Status(status).label)
                for status in services.STATUS_MOVES[session.status]
            ],
        },
    )


@coordinator_required
@require_POST
def session_next(request):
    """Next week's session, a week after the session posted as `from` (or the latest)."""
    club = Club.objects.current()
    source = None
    if request.POST.get("from", "").isdigit():
        source = get_object_or_404(Session, pk=request.POST["from"], club=club)
    try:
        session = services.create_next_session(club, source)
    except services.SessionExists as error:
        date = services.next_session_date(
            source or selectors.latest_session(club), timezone.localdate()
        )
        existing = Session.objects.get(club=club, date=date)
        messages.info(request, f"{error} Nothing new was added; here it is.")
        return redirect("club:session_detail", pk=existing.pk)
    except services.ServiceError as error:
        messages.error(request, str(error))
        return redirect("club:session_list")
    messages.success(request, f"Next week's session is added: {services.nice_date(session.date)}.")
    return redirect("club:session_detail", pk=session.pk)


MOVE_MESSAGES = {
    Session.Status.IN_PLAY: "The session is now in play.",
    Session.Status.CLOSED: "The session is closed. Its attendance can no longer change.",
}


@coordinator_required
@require_POST
def session_status(request, pk):
    session = _session(pk)
    was_closed = session.is_closed
    try:
        services.move_session(session, request.POST.get("status", ""))
    except services.ServiceError as error:
        messages.error(request, str(error))
    else:
        if was_closed:
            messages.success(request, "The session is open again (in play).")
        else:
            messages.success(request, MOVE_MESSAGES[session.status])
    return redirect("club:session_detail", pk=session.pk)
