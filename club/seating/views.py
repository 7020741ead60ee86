"""Seating pages: the coordinator makes and adjusts it, members find their table.

Every change is a POST to its own small view, guarded by `coordinator_required`. With
htmx the view answers with the seating panel only (always status 200, so htmx swaps it,
with the message or the refusal inside); without htmx it redirects back to the page with
a message, so every button also works as a plain form.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from club.models import Club, Session, SessionClosed
from club.roles import coordinator_required
from club.seating import changes, display
from club.seating.forms import LateArrivalForm, LeaverForm, SwapForm
from club.seating.load import plan_of, present_members
from club.seating.planner import SeatingError

MANAGE_TEMPLATE = "club/seating/manage.html"
PANEL = MANAGE_TEMPLATE + "#seating-panel"
REFUSALS = (SeatingError, SessionClosed)


def _session(session_id: int) -> Session:
    return get_object_or_404(
        Session.objects.select_related("club"), pk=session_id, club=Club.objects.current()
    )


def _plan(session: Session):
    plan = plan_of(session)
    if plan is None:
        raise SeatingError("There is no seating yet: press “Make the seating” first.")
    return plan


def _manage_context(session: Session, **extra) -> dict:
    page = display.seating_page(session, with_quality=True)
    return {
        "session": session,
        "seating": page,
        "present_count": len(present_members(session)),
        "editable": bool(page.tables) and not page.published and not session.is_closed,
        "not_present": display.not_present(session) if page.published else [],
        **extra,
    }


def _act(request, session: Session, action, form=None, choice_url: str = ""):
    """Run a change; answer with the panel (htmx) or redirect back with a message.

    `form`, when given, must be valid first; `action(data)` gets its cleaned data and
    returns a message or a `changes.Outcome`. An outcome that needs the coordinator to
    choose is shown on the page (nothing was saved yet).
    """
    message, error, outcome = "", "", None
    if form is not None and not form.is_valid():
        error = form.first_error()
    else:
        try:
            result = action(form.cleaned_data if form is not None else {})
        except REFUSALS as exc:
            error = str(exc)
        else:
            if isinstance(result, changes.Outcome):
                outcome, message = result, result.message
            else:
                message = result
    must_choose = outcome is not None and not outcome.changed
    if request.htmx or must_choose:
        context = _manage_context(
            session,
            message="" if must_choose else message,
            error=error,
            outcome=outcome if must_choose else None,
            choice_url=choice_url,
            choice_member=request.POST.get("member", ""),
        )
        return render(request, PANEL if request.htmx else MANAGE_TEMPLATE, context)
    if error:
        messages.error(request, error)
    else:
        messages.success(request, message)
    return redirect("club:seating_manage", session.pk)


# --- pages -------------------------------------------------------------------------------


@login_required
def seating_page(request, session_id: int):
    """Members' page: the published seating, the member's own table first."""
    session = _session(session_id)
    me = display.member_for(request.user)
    page = display.seating_page(session, me)
    if not page.published:
        page.tables = []  # a draft is never shown on the members' page
    return render(
        request, "club/seating/page.html", {"session": session, "seating": page, "me": me}
    )


@coordinator_required
def manage(request, session_id: int):
    """The coordinator's page: make, adjust and publish the seating."""
    return render(request, MANAGE_TEMPLATE, _manage_context(_session(session_id)))


@login_required
def print_seating(request, session_id: int):
    """One sheet for the room, then one card per table (the print stylesheet breaks pages)."""
    session = _session(session_id)
    page = display.seating_page(session)
    if not page.published:
        page.tables = []
    return render(request, "club/seating/print.html", {"session": session, "seating": page})


# --- changes (coordinators only, POST only) ----------------------------------------------


@coordinator_required
@require_POST
def make(request, session_id: int):
    session = _session(session_id)

    def action(_):
        _, made = changes.make_seating(session)
        if made:
            return "Here is the proposed seating. Check it, change it if needed, then publish it."
        return (
            "The seating had already been made (on another screen, or by a second tap): here it is."
        )

    return _act(request, session, action)


@coordinator_required
@require_POST
def reroll(request, session_id: int):
    session = _session(session_id)

    def action(_):
        changes.reroll(session)
        return "Re-rolled: everyone not at a locked table has a new seat."

    return _act(request, session, action)


@coordinator_required
@require_POST
def swap(request, session_id: int):
    session = _session(session_id)
    return _act(
        request,
        session,
        lambda data: changes.swap_members(session, data["a"], data["b"]),
        SwapForm(session, request.POST),
    )


@coordinator_required
@require_POST
def set_lock(request, session_id: int, number: int, locked: bool):
    """Lock a table (a re-roll keeps it) or unlock it; `locked` comes from the URL."""
    session = _session(session_id)

    def action(_):
        _plan(session).lock_table(number, locked)
        if locked:
            return f"Table {number} is locked: a re-roll keeps it as it is."
        return f"Table {number} is unlocked: a re-roll may change it."

    return _act(request, session, action)


@coordinator_required
@require_POST
def publish(request, session_id: int):
    session = _session(session_id)

    def action(_):
        _plan(session).publish()
        return "Published: members can now see their tables."

    return _act(request, session, action)


@coordinator_required
@require_POST
def unpublish(request, session_id: int):
    session = _session(session_id)

    def action(_):
        _plan(session).unpublish()
        return (
            "Unpublished: the seating is a draft again and members cannot see it. "
            "Publish it again when you are done."
        )

    return _act(request, session, action)


@coordinator_required
@require_POST
def late_arrival(request, session_id: int):
    session = _session(session_id)
    return _act(
        request,
        session,
        lambda data: changes.seat_late_arrival(session, data["member"], data["choice"]),
        LateArrivalForm(session, request.POST),
        "club:seating_late",
    )


@coordinator_required
@require_POST
def leaving_early(request, session_id: int):
    session = _session(session_id)
    return _act(
        request,
        session,
        lambda data: changes.remove_early_leaver(session, data["member"], data["choice"]),
        LeaverForm(session, request.POST),
        "club:seating_leaver",
    )
