"""Weekly sessions: the list, adding and editing, next week's in one click, and reopening a
closed session."""

import datetime

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from club.forms import NextWeekForm, SessionForm
from club.lookups import session_or_404
from club.models import long_date
from club.refusals import Refused, show_refusal
from club.reopening import reopen
from club.roles import coordinator_required
from club.week import replies
from club.week.forms import ReplyForForm

PAST_PER_PAGE = 52


@require_safe
@coordinator_required
def session_list(request):
    club = request.club
    today = timezone.localdate()
    latest = club.sessions.order_by("-date").first()
    sessions = club.sessions.with_present_count()
    # A year of past sessions a page; ?before=<date> the year before it, ?after=<date>
    # the year after: only that page is read.
    past = sessions.past_page(
        today,
        before=_date_or_none(request.GET.get("before")),
        after=_date_or_none(request.GET.get("after")),
        size=PAST_PER_PAGE,
    )
    return render(
        request,
        "club/sessions/list.html",
        {
            "upcoming": sessions.upcoming(today),
            "past": past,
            "latest": latest,
            "next_date": latest.next_week_date(today) if latest else None,
            "today": today,
            "tonight": sessions.filter(date=today).first(),
        },
    )


def _date_or_none(text: str | None) -> datetime.date | None:
    """A page's date from the address (2026-03-12); anything else shows the latest page."""
    try:
        return datetime.date.fromisoformat(text) if text else None
    except ValueError:
        return None


@coordinator_required
def session_create(request):
    club = request.club
    latest = club.sessions.order_by("-date").first()
    initial = {"date": timezone.localdate(), "venue": latest.venue if latest else ""}
    form = SessionForm(request.POST or None, club=club, initial=initial)
    if request.method == "POST" and form.is_valid():
        session = form.save()
        if form.already_added:
            messages.info(
                request, f"The session on {long_date(session.date)} is already in the list."
            )
        else:
            messages.success(request, f"The session on {long_date(session.date)} is added.")
        return redirect("club:session_detail", pk=session.pk)
    return render(request, "club/sessions/form.html", {"form": form, "session": None})


@coordinator_required
def session_edit(request, pk):
    session = session_or_404(request, pk)
    form = SessionForm(request.POST or None, instance=session, club=session.club)
    if request.method == "POST" and form.is_valid():
        session = form.save()
        messages.success(request, f"The session on {long_date(session.date)} is saved.")
        return redirect("club:session_detail", pk=session.pk)
    return render(request, "club/sessions/form.html", {"form": form, "session": session})


@require_safe
@coordinator_required
def session_detail(request, pk):
    session = session_or_404(request, pk)
    return render(request, "club/sessions/detail.html", session_page(request, session))


def session_page(request, session, reply_for_form=None) -> dict:
    """The session page's context: its counts, and who said they are coming (club/week/),
    with the form a coordinator answers with for a member who rang."""
    today = timezone.localdate()
    takes_replies = not replies.refusal(session, today)
    return {
        "session": session,
        "counts": session.attendance_counts(),
        "today": today,
        "picture": replies.picture(session),
        "reply_for_form": (reply_for_form or ReplyForForm(club=request.club))
        if takes_replies
        else None,
    }


@coordinator_required
@require_POST
def session_next(request):
    """Next week's session, a week after the session posted as `from`. Posting the same
    again answers with the session already made, however many times and however fast."""
    form = NextWeekForm(request.POST, club=request.club)
    if not form.is_valid():
        messages.error(request, form.error_message())
        return redirect("club:session_list")
    try:
        session, created = form.cleaned_data["from"].create_next_week(timezone.localdate())
    except Refused as error:
        return show_refusal(request, error, "club:session_list")
    if created:
        messages.success(request, f"Next week's session is added: {long_date(session.date)}.")
    else:
        messages.info(
            request,
            f"There is already a session on {long_date(session.date)}. "
            "Nothing new was added; here it is.",
        )
    return redirect("club:session_detail", pk=session.pk)


@coordinator_required
@require_POST
def session_status(request, pk):
    """Reopen a closed session (to correct something, or to add a hand that arrived after
    the evening was ended: the tables it ended carry on). Play starts and the evening ends
    through the games' own buttons, which move the status themselves."""
    session = session_or_404(request, pk)
    try:
        session, answers = reopen(session, request.POST.get("status", ""))
    except Refused as error:
        messages.error(request, str(error))
    else:
        tables = sum(answers)
        carry_on = (
            f" The {tables} table{'s' if tables != 1 else ''} stopped by “End the evening” "
            "can record hands again."
            if tables
            else ""
        )
        messages.success(request, f"The session is open again (in play).{carry_on}")
    return redirect("club:session_detail", pk=session.pk)
