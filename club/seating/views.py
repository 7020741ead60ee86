"""Seating pages: the coordinator makes and adjusts it, members find their table.

Every change is a POST to its own small view, guarded by `coordinator_required`. With
htmx the view answers with the seating panel only (always status 200, so htmx swaps it,
with the message or the refusal inside); without htmx it redirects back to the page with
a message, so every button also works as a plain form.
"""

import re

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from club.lookups import session_or_404
from club.models import SeatingPlan, Session, SessionClosed
from club.roles import coordinator_required
from club.seating import changes, display
from club.seating.forms import LateArrivalForm, LeaverForm, SwapForm
from club.seating.load import plan_of, present_members, seat_of
from club.seating.planner import SeatingError

MANAGE_TEMPLATE = "club/seating/manage.html"
PANEL = MANAGE_TEMPLATE + "#seating-panel"
REFUSALS = (SeatingError, SessionClosed)
# Where on the page an answer shows: beside the control that asked (see _answer.html).
ANSWER_AT = re.compile(r"\A(?:status|swap|late|leaver|table-[0-9]{1,3})\Z")


def _plan(session: Session):
    plan = plan_of(session)
    if plan is None:
        raise SeatingError("There is no seating yet: press “Make the seating” first.")
    return plan


def _answer_at(request, default: str = "status") -> str:
    value = request.POST.get("answer_at", "")
    return value if ANSWER_AT.match(value) else default


def _manage_context(session: Session, answer_at: str = "status", **extra) -> dict:
    page = display.seating_page(session, with_quality=True)
    return {
        "session": session,
        "seating": page,
        "present_count": len(present_members(session)),
        "coming_count": session.replies.coming().count(),
        "editable": bool(page.tables) and not page.published and not session.is_closed,
        "not_present": display.not_present(session) if page.published else [],
        "answer_at": answer_at,
        "answer_table": int(answer_at[6:]) if answer_at.startswith("table-") else None,
        **extra,
    }


def _respond(request, session: Session, answer_at: str, *, message="", error="", **extra):
    """The panel with the answer beside the control that asked (htmx, or a choice to make),
    else back to the page, scrolled to the answer."""
    outcome = extra.get("outcome")
    if request.htmx or (outcome is not None and not outcome.changed) or extra.get("picked"):
        # After a refusal the lists keep what was chosen in them.
        posted = request.POST if error else {}
        context = _manage_context(
            session, answer_at, message=message, error=error, posted=posted, **extra
        )
        return render(request, PANEL if request.htmx else MANAGE_TEMPLATE, context)
    level = messages.ERROR if error else messages.SUCCESS
    messages.add_message(request, level, error or message, extra_tags=answer_at)
    if request.POST.get("back") == "check_in":
        # Seated from the check-in page (a late arrival ticked at the door): back to the door.
        return redirect(reverse("club:check_in", args=[session.pk]) + "#checkin-list")
    return redirect(reverse("club:seating_manage", args=[session.pk]) + "#answer")


def _act(request, session: Session, action, form=None, choice_url: str = "", answer_at=None):
    """Run a change and answer beside the control that asked.

    `form`, when given, must be valid first; `action(data)` gets its cleaned data and
    returns a message or a `changes.ChangeAnswer`. An outcome that needs the coordinator to
    choose is shown on the page (nothing was saved yet).
    """
    answer_at = answer_at or _answer_at(request)
    if form is not None and not form.is_valid():
        return _respond(request, session, answer_at, error=form.first_error())
    try:
        result = action(form.cleaned_data if form is not None else {})
    except REFUSALS as exc:
        return _respond(request, session, answer_at, error=str(exc))
    if isinstance(result, changes.ChangeAnswer):
        if not result.changed:
            return _respond(request, session, answer_at, outcome=result, choice_url=choice_url)
        result = result.message
    return _respond(request, session, answer_at, message=result)


# --- pages -------------------------------------------------------------------------------


@require_safe
@login_required
def seating_page(request, session_id: int):
    """Members' page: the published seating, the member's own table first."""
    session = session_or_404(request, session_id, "club")
    me = display.member_for(request.user)
    page = display.seating_page(session, me)
    if not page.published:
        page.tables = []  # a draft is never shown on the members' page
    past = session.date < timezone.localdate()
    return render(
        request,
        "club/seating/page.html",
        {"session": session, "seating": page, "me": me, "past": past},
    )


@require_safe
@login_required
def last_week(request):
    """ "Last week's tables" in the menu: the latest earlier session whose seating was
    published, or a page saying there is none yet."""
    session = (
        Session.objects.filter(club=request.club, seating__status=SeatingPlan.Status.PUBLISHED)
        .past(timezone.localdate())
        .first()
    )
    if session is None:
        return render(request, "club/seating/no_past_tables.html")
    return redirect("club:seating", session_id=session.pk)


@require_safe
@coordinator_required
def manage(request, session_id: int):
    """The coordinator's page: make, adjust and publish the seating. The answer to a change
    made without JavaScript comes back as a message and shows where it was asked for."""
    answer = {}
    for note in messages.get_messages(request):
        kind = "error" if note.level == messages.ERROR else "message"
        at = note.extra_tags if ANSWER_AT.match(note.extra_tags or "") else "status"
        answer = {kind: note.message, "answer_at": at}
    return render(
        request,
        MANAGE_TEMPLATE,
        _manage_context(session_or_404(request, session_id, "club"), **answer),
    )


@require_safe
@login_required
def print_seating(request, session_id: int):
    """One sheet for the room, then one card per table (the print stylesheet breaks pages)."""
    session = session_or_404(request, session_id, "club")
    page = display.seating_page(session)
    if not page.published:
        page.tables = []
    return render(request, "club/seating/print.html", {"session": session, "seating": page})


# --- changes (coordinators only, POST only) ----------------------------------------------


@coordinator_required
@require_POST
def make(request, session_id: int):
    session = session_or_404(request, session_id, "club")

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
def make_from_replies(request, session_id: int):
    """A draft before anyone arrives, from the members who said they are coming."""
    session = session_or_404(request, session_id, "club")

    def action(_):
        _, made = changes.make_seating(session, from_replies=True)
        if made:
            return (
                "Here is a draft from those who said they are coming. At the door, publish "
                "it, or check people in and press “Re-roll” to seat who came."
            )
        return (
            "The seating had already been made (on another screen, or by a second tap): here it is."
        )

    return _act(request, session, action)


@coordinator_required
@require_POST
def reroll(request, session_id: int):
    session = session_or_404(request, session_id, "club")
    return _act(
        request,
        session,
        lambda _: changes.reroll(session, choice=request.POST.get("choice", "")),
        choice_url="club:seating_reroll",
    )


@coordinator_required
@require_POST
def undo(request, session_id: int):
    session = session_or_404(request, session_id, "club")
    return _act(request, session, lambda _: changes.undo(session))


@coordinator_required
@require_POST
def swap(request, session_id: int):
    """Swap two people chosen from the lists, or tapped on the table cards one by one."""
    session = session_or_404(request, session_id, "club")
    form = SwapForm(session, request.POST)
    answer_at = _answer_at(request)
    if form.is_valid() and form.cleaned_data["pick"] is not None:
        pick = form.cleaned_data["pick"]
        answer_at = f"table-{seat_of(session, pick).table.number}"
        if form.cleaned_data["b"] is None:  # a first tap, or the same name tapped again
            picked = form.cleaned_data["a"]
            if picked is None:
                return _respond(request, session, answer_at, message="Nobody is chosen now.")
            return _respond(
                request,
                session,
                answer_at,
                picked=picked,
                message=f"{picked} is chosen. Now tap the person to swap with "
                f"(or {picked} again to change your mind).",
            )
    return _act(
        request,
        session,
        lambda data: changes.swap_members(session, data["a"], data["b"], data["choice"]),
        form,
        "club:seating_swap",
        answer_at,
    )


@coordinator_required
@require_POST
def set_lock(request, session_id: int, number: int, locked: bool):
    """Lock a table (a re-roll keeps it) or unlock it; `locked` comes from the URL."""
    session = session_or_404(request, session_id, "club")

    def action(_):
        _plan(session).lock_table(number, locked)
        if locked:
            return f"Table {number} is locked: a re-roll keeps it as it is."
        return f"Table {number} is unlocked: a re-roll may change it."

    return _act(request, session, action)


# The questions a page can have open while its Publish button shows (posted back as
# "pending" with the question's fields), and how to ask each again.
PENDING = {
    "club:seating_swap": lambda session, post: _swap_asked_again(session, post),
    "club:seating_reroll": lambda session, post: changes.reroll_question(),
}


def _swap_asked_again(session: Session, post) -> changes.ChangeAnswer | None:
    form = SwapForm(session, post)
    if not form.is_valid() or form.cleaned_data["b"] is None:
        return None
    return changes.swap_question(session, form.cleaned_data["a"], form.cleaned_data["b"])


@coordinator_required
@require_POST
def publish(request, session_id: int):
    """Publish the draft, unless the page still has a question open (a swap or a re-roll
    waiting for an answer): then nothing is published and the question is asked again
    beside the refusal, so no answer is lost."""
    session = session_or_404(request, session_id, "club")
    pending = request.POST.get("pending", "")
    if pending in PENDING:
        answer_at = _answer_at(request)
        try:
            question = PENDING[pending](session, request.POST)
        except REFUSALS:
            question = None
        if question is None:
            return _respond(
                request,
                session,
                answer_at,
                error="Not published yet: the seating changed while a question was open. "
                "Look at it again, then press Publish.",
            )
        return _respond(
            request,
            session,
            answer_at,
            error=f"Not published yet: you have {question.waiting} waiting for an answer. "
            "Answer the question below, then press Publish.",
            outcome=question,
            choice_url=pending,
        )

    def action(_):
        _plan(session).publish()
        return "Published: members can now see their tables."

    return _act(request, session, action)


@coordinator_required
@require_POST
def unpublish(request, session_id: int):
    session = session_or_404(request, session_id, "club")

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
    session = session_or_404(request, session_id, "club")
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
    session = session_or_404(request, session_id, "club")
    return _act(
        request,
        session,
        lambda data: changes.remove_early_leaver(session, data["member"], data["choice"]),
        LeaverForm(session, request.POST),
        "club:seating_leaver",
    )
