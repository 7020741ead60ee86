"""Answering "are you coming?": a member for themselves (the home page's buttons, or this
session's own page without JavaScript), for a time away, and a coordinator for a member
who rang. Every answer is a plain form POST and a redirect; with htmx the session's row
comes back in place."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from club.lookups import my_member, session_or_404
from club.models import long_date
from club.refusals import Refused
from club.roles import coordinator_required
from club.views.sessions import session_page
from club.week import replies
from club.week.forms import AwayForm, ReplyForForm, ReplyForm
from club.week.models import ReplyAnswer

ROW_TEMPLATE = "club/week/home.html#week-row"


def _member_or_403(request):
    if not request.user.is_authenticated:
        return None
    member = my_member(request)
    if member is None:
        raise PermissionDenied("Only the club's members can say whether they are coming.")
    return member


def _said(reply) -> str:
    day = long_date(reply.session.date)
    if reply.answer == ReplyAnswer.COMING:
        return f"Thank you: you are coming on {day}."
    return f"Thank you: your apologies for {day} are noted."


@require_http_methods(["GET", "POST"])
def reply(request, pk):
    """One session's answer. GET shows the session's row on a page of its own (where a
    refused or wrong answer is shown again with what was typed)."""
    member = _member_or_403(request)
    if member is None:
        return redirect_to_login(request.get_full_path())
    session = session_or_404(request, pk)
    today = timezone.localdate()
    form = ReplyForm(request.POST or None)
    error = notice = ""
    if request.method == "POST":
        if form.is_valid():
            try:
                done = replies.answer(
                    session,
                    member,
                    form.cleaned_data["answer"],
                    form.cleaned_data["note"],
                    by=request.user,
                    today=today,
                )
            except Refused as refusal:
                error = str(refusal)
            else:
                notice = _said(done)
                if not request.htmx:
                    messages.success(request, notice)
                    return redirect(reverse("home") + f"#week-{session.pk}")
        else:
            error = form.first_error()
    context = {
        "row": replies.week_row(member, session),
        "closed": replies.refusal(session, today),
        "form": form if error else None,
        "error": error,
        "notice": notice,
    }
    if request.htmx:
        return render(request, ROW_TEMPLATE, context)
    return render(request, "club/week/reply.html", context)


@require_POST
def away(request):
    """ "Not this week" for every session between two dates."""
    member = _member_or_403(request)
    if member is None:
        return redirect_to_login(reverse("home"))
    today = timezone.localdate()
    form = AwayForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            sessions = replies.answer_away(
                member, data["first"], data["last"], data["note"], by=request.user, today=today
            )
        except Refused as refusal:
            form.add_error(None, str(refusal))
        else:
            kept = (
                f"Your time away from {long_date(data['first'])} to {long_date(data['last'])} "
                "is kept: a session added in those days will show your apologies too."
            )
            if sessions:
                days = ", ".join(long_date(s.date) for s in sessions)
                messages.success(request, f"Thank you: your apologies are noted for {days}.")
            messages.success(request, kept)
            return redirect(reverse("home") + "#away")
    return render(request, "club/week/away.html", {"away_form": form}, status=200)


@coordinator_required
@require_POST
def reply_for(request, pk):
    """A coordinator answers for a member who rang or told them, from the session's page or
    the member's own. A refusal or a wrong entry shows the session's page with the entries
    kept (its form names the member)."""
    session = session_or_404(request, pk)
    form = ReplyForForm(request.POST, club=request.club)
    if form.is_valid():
        data = form.cleaned_data
        try:
            done = replies.answer(
                session,
                data["member"],
                data["answer"],
                data["note"],
                by=request.user,
                today=timezone.localdate(),
            )
        except Refused as refusal:
            messages.error(request, str(refusal))
        else:
            said = "coming" if done.answer == ReplyAnswer.COMING else "not coming (apologies)"
            messages.success(
                request, f"{done.member.table_name} is down as {said} on {long_date(session.date)}."
            )
            if request.POST.get("back") == "member":  # answered from the member's own page
                return redirect(
                    reverse("club:member_detail", args=[done.member.pk]) + "#next-session"
                )
            return redirect(reverse("club:session_detail", args=[session.pk]) + "#picture")
    else:
        messages.error(request, form.first_error())
    return render(request, "club/sessions/detail.html", session_page(request, session, form))


@require_POST
def away_end(request, pk):
    """Remove a time away (typed wrong, or plans changed)."""
    member = _member_or_403(request)
    if member is None:
        return redirect_to_login(reverse("home"))
    period = replies.end_away(member, pk)
    if period is None:
        messages.info(request, "That time away was removed already.")
    else:
        messages.success(
            request,
            f"Your time away from {long_date(period.first)} to {long_date(period.last)} is "
            "removed. Answers already given stay as they are: change them on each session.",
        )
    return redirect(reverse("home") + "#away")
