"""Check-in at the door, on a tablet: tap a name to mark them here or not here, tick who
paid their table money (when the club collects it), and add walk-ins and guests, all
without reloading the page. A closed session's attendance is read-only."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from club.forms import WalkInForm
from club.lookups import session_or_404
from club.models import Member, Refused
from club.roles import coordinator_required
from club.walk_ins import SameNameMembers, check_in_walk_in
from club.week.replies import coming_first


def _page(request, session, walk_in_form=None, same_name=None):
    return render(
        request,
        "club/attendance/check_in.html",
        {
            "session": session,
            "rows": coming_first(session, session.check_in_rows()),
            "counts": session.attendance_counts(),
            "walk_in_form": walk_in_form or WalkInForm(club=session.club),
            "same_name": same_name or [],
        },
    )


@coordinator_required
def check_in(request, pk):
    return _page(request, session_or_404(request, pk))


@coordinator_required
@require_POST
def set_attendance(request, pk, member_pk):
    """Mark one member here (present=1) or not here (present=0). The button posts the
    state it wants, so a second tap of the same button changes nothing."""
    session = session_or_404(request, pk)
    member = get_object_or_404(Member, pk=member_pk, club=session.club)
    present = request.POST.get("present") == "1"
    try:
        session.set_present(member, present)
    except Refused as error:
        notice, is_error = str(error), True
    else:
        notice, is_error = f"{member.table_name} is {'here' if present else 'not here'}.", False
    return _row_answer(request, session, member, notice, is_error)


def _row_answer(request, session, member, notice: str, is_error: bool):
    """htmx: the member's row, the counts and any refusal; otherwise back to the list."""
    if request.htmx:
        return render(
            request,
            "club/attendance/toggled.html",
            {
                "session": session,
                "row": coming_first(session, [session.check_in_row(member)])[0],
                "counts": session.attendance_counts(),
                "notice": notice,
                "notice_is_error": is_error,
            },
        )
    (messages.error if is_error else messages.success)(request, notice)
    return redirect(reverse("club:check_in", args=[session.pk]) + f"#member-{member.pk}")


def _walk_in_answer(request, session, form, *, same_name=None, member=None, listed=True, notice=""):
    """htmx: the walk-in card again (with its errors, or fresh with what happened), and
    after a check-in the person's row and the counts, so the page never reloads."""
    context = {
        "session": session,
        "walk_in_form": form,
        "same_name": same_name or [],
        "walk_in_notice": notice,
        "counts": session.attendance_counts(),
        "row": session.check_in_row(member) if member is not None else None,
        "row_was_listed": listed,
    }
    return render(request, "club/attendance/walked_in.html", context)


def _walk_in_words(member, created: bool) -> str:
    if not created:
        lapsed = "" if member.is_active else " (a lapsed member: reactivate them on their page)"
        return f"{member.name} is checked in{lapsed}."
    if member.is_guest:
        return (
            f"{member.name} is added as a guest and checked in, shown at the table as "
            f"“{member.table_name}”."
        )
    return (
        f"Welcome! {member.name} is added as a new member and checked in, shown at the "
        f"table as “{member.table_name}”. Add their details on their page later."
    )


@coordinator_required
@require_POST
def walk_in(request, pk):
    session = session_or_404(request, pk)
    form = WalkInForm(request.POST, club=session.club)

    def refused(same_name=None):
        if request.htmx:
            return _walk_in_answer(request, session, form, same_name=same_name)
        return _page(request, session, walk_in_form=form, same_name=same_name)

    if not form.is_valid():
        return refused()
    listed = set(session.check_in_list().values_list("pk", flat=True))
    try:
        member, created = check_in_walk_in(
            session,
            form.cleaned_data["name"],
            joining=form.cleaned_data["joining"],
            member=form.cleaned_data["member_id"],
        )
    except SameNameMembers as error:
        form.add_error("name", str(error))
        return refused(same_name=error.matches)
    except Refused as error:
        form.add_error(None, str(error))
        return refused()
    words = _walk_in_words(member, created)
    if request.htmx:
        fresh = WalkInForm(club=session.club)
        fresh.fields["name"].widget.attrs["autofocus"] = True  # ready for the next one
        if member.pk not in listed:
            words += " Their name is now at the end of the list."
        return _walk_in_answer(
            request, session, fresh, member=member, listed=member.pk in listed, notice=words
        )
    messages.success(request, words)
    return redirect(reverse("club:check_in", args=[session.pk]) + f"#member-{member.pk}")


@coordinator_required
@require_POST
def set_paid(request, pk, member_pk):
    """Tick (paid=1) or untick (paid=0) one person's table money. The button posts the
    state it wants, so a second tap of the same button changes nothing."""
    session = session_or_404(request, pk)
    member = get_object_or_404(Member, pk=member_pk, club=session.club)
    paid = request.POST.get("paid") == "1"
    try:
        session.set_paid(member, paid)
    except Refused as error:
        notice, is_error = str(error), True
    else:
        notice, is_error = f"{member.table_name} has {'paid' if paid else 'not paid'}.", False
    return _row_answer(request, session, member, notice, is_error)
