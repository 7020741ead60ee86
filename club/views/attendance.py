"""Check-in at the door, on a tablet: tap a name to mark them here or not here, and add
walk-ins and guests. A closed session's attendance is read-only."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from club.forms import WalkInForm
from club.models import Club, Member, Refused, Session
from club.roles import coordinator_required
from club.walk_ins import SameNameMembers, check_in_walk_in


def _session(pk: int) -> Session:
    return get_object_or_404(Session, pk=pk, club=Club.objects.current())


def _page(request, session, walk_in_form=None, same_name=None):
    return render(
        request,
        "club/attendance/check_in.html",
        {
            "session": session,
            "rows": session.check_in_rows(),
            "counts": session.attendance_counts(),
            "walk_in_form": walk_in_form or WalkInForm(club=session.club),
            "same_name": same_name or [],
        },
    )


@coordinator_required
def check_in(request, pk):
    return _page(request, _session(pk))


@coordinator_required
@require_POST
def set_attendance(request, pk, member_pk):
    """Mark one member here (present=1) or not here (present=0). The button posts the
    state it wants, so a second tap of the same button changes nothing."""
    session = _session(pk)
    member = get_object_or_404(Member, pk=member_pk, club=session.club)
    present = request.POST.get("present") == "1"
    notice, is_error = "", False
    try:
        session.set_present(member, present)
    except Refused as error:
        notice, is_error = str(error), True
    else:
        notice = f"{member.table_name} is {'here' if present else 'not here'}."
    if request.htmx:
        return render(
            request,
            "club/attendance/toggled.html",
            {
                "session": session,
                "row": session.check_in_row(member),
                "counts": session.attendance_counts(),
                "notice": notice,
                "notice_is_error": is_error,
            },
        )
    (messages.error if is_error else messages.success)(request, notice)
    return redirect(reverse("club:check_in", args=[session.pk]) + f"#member-{member.pk}")


@coordinator_required
@require_POST
def walk_in(request, pk):
    session = _session(pk)
    form = WalkInForm(request.POST, club=session.club)
    if not form.is_valid():
        return _page(request, session, walk_in_form=form)
    try:
        member, created = check_in_walk_in(
            session,
            form.cleaned_data["name"],
            joining=form.cleaned_data["joining"],
            member=form.cleaned_data["member_id"],
        )
    except SameNameMembers as error:
        form.add_error("name", str(error))
        return _page(request, session, walk_in_form=form, same_name=error.matches)
    except Refused as error:
        form.add_error(None, str(error))
        return _page(request, session, walk_in_form=form)
    if not created:
        lapsed = "" if member.is_active else " (a lapsed member: reactivate them on their page)"
        messages.success(request, f"{member.name} is checked in{lapsed}.")
    elif member.is_guest:
        messages.success(
            request,
            f"{member.name} is added as a guest and checked in, shown at the table as "
            f"“{member.table_name}”.",
        )
    else:
        messages.success(
            request,
            f"Welcome! {member.name} is added as a new member and checked in, shown at the "
            f"table as “{member.table_name}”. Add their details on their page later.",
        )
    return redirect(reverse("club:check_in", args=[session.pk]) + f"#member-{member.pk}")
