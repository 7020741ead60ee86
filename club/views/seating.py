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

from club import seating_selectors as selectors
from club import seating_services as services
from club.models import Club, Member, Session
from club.roles import coordinator_required
from club.seating import SeatingError

MANAGE_TEMPLATE = "club/seating/manage.html"
PANEL = MANAGE_TEMPLATE + "#seating-panel"


def _session(session_id: int) -> Session:
    return get_object_or_404(
        Session.objects.select_related("club"), pk=session_id, club=Club.objects.current()
    )


def _member(request, name: str, session: Session) -> Member:
    """The club member chosen in the form field `name` (a refusal if none or unknown)."""
    value = request.POST.get(name, "")
    member = None
    if value.isdigit():
        member = Member.objects.filter(pk=int(value), club=session.club).first()
    if member is None:
        raise SeatingError("Please choose a person from the list.")
    return member


def _manage_context(session: Session, **extra) -> dict:
    view = selectors.seating_view(session, with_quality=True)
    return {
        "session": session,
        "seating": view,
        "present_count": len(selectors.present_members(session)),
        "editable": bool(view.tables) and not view.published and not session.is_closed,
        "not_present": selectors.not_present(session) if view.published else [],
        **extra,
    }


def _act(request, session: Session, action, choice_url: str = ""):
    """Run a service; answer with the panel (htmx) or redirect back with a message.

    `action()` returns a message, or an `Outcome`; an outcome that needs the coordinator
    to choose is shown on the page (nothing was saved yet).
    """
    message, error, outcome = "", "", None
    try:
        result = action()
    except SeatingError as exc:
        error = str(exc)
    else:
        if isinstance(result, services.Outcome):
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
    me = selectors.member_for(request.user)
    view = selectors.seating_view(session, me)
    if not view.published:
        view.tables = []  # a draft is never shown on the members' page
    return render(
        request, "club/seating/page.html", {"session": session, "seating": view, "me": me}
    )


@coordinator_required
def manage(request, session_id: int):
    """The coordinator's page: make, adjust and publish the seating."""
    return render(request, MANAGE_TEMPLATE, _manage_context(_session(session_id)))


@login_required
def print_seating(request, session_id: int):
    """One sheet for the room, then one card per table (the print stylesheet breaks pages)."""
    session = _session(session_id)
    view = selectors.seating_view(session)
    if not view.published:
        view.tables = []
    return render(request, "club/seating/print.html", {"session": session, "seating": view})


# --- changes (coordinators only, POST only) ----------------------------------------------


@coordinator_required
@require_POST
def make(request, session_id: int):
    session = _session(session_id)

    def action():
        had_plan = selectors.plan_of(session) is not None
        services.make_seating(session)
        if had_plan:
            return "Re-rolled: everyone not at a locked table has a new seat."
        return "Here is the proposed seating. Check it, change it if needed, then publish it."

    return _act(request, session, action)


@coordinator_required
@require_POST
def swap(request, session_id: int):
    session = _session(session_id)

    def action():
        a, b = _member(request, "a", session), _member(request, "b", session)
        return services.swap_members(session, a, b)

    return _act(request, session, action)


@coordinator_required
@require_POST
def lock(request, session_id: int, number: int):
    session = _session(session_id)
    return _act(request, session, lambda: services.lock_table(session, number, True))


@coordinator_required
@require_POST
def unlock(request, session_id: int, number: int):
    session = _session(session_id)
    return _act(request, session, lambda: services.lock_table(session, number, False))


@coordinator_required
@require_POST
def publish(request, session_id: int):
    session = _session(session_id)

    def action():
        services.publish(session)
        return "Published: members can now see their tables."

    return _act(request, session, action)


@coordinator_required
@require_POST
def unpublish(request, session_id: int):
    session = _session(session_id)

    def action():
        services.unpublish(session)
        return "Unpublished: the seating is a draft again and members cannot see it. Publish it again when you are done."

    return _act(request, session, action)


@coordinator_required
@require_POST
def late_arrival(request, session_id: int):
    session = _session(session_id)

    def action():
        member = _member(request, "member", session)
        return services.seat_late_arrival(session, member, request.POST.get("choice", ""))

    return _act(request, session, action, "club:seating_late")


@coordinator_required
@require_POST
def leaving_early(request, session_id: int):
    session = _session(session_id)

    def action():
        member = _member(request, "member", session)
        return services.remove_early_leaver(session, member, request.POST.get("choice", ""))

    return _act(request, session, action, "club:seating_leaver")
