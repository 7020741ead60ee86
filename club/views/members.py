"""Members: coordinators find, add, edit, retire and (if they never played) delete
members, import them from a spreadsheet, and say who must never be seated together.
Members see none of this."""

import uuid
from urllib.parse import urlencode

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST, require_safe

from club import accounts, member_history
from club import member_import as importing
from club.forms import KeepApartForm, MemberForm, MemberSearchForm
from club.models import Member
from club.refusals import Refused, show_refusal
from club.roles import coordinator_required
from club.week.replies import absent_without_word, open_sessions, week_row

MEMBERS_PER_PAGE = 100


def _member(request, pk: int) -> Member:
    return get_object_or_404(Member, pk=pk, club=request.club)


@require_safe
@coordinator_required
def member_list(request):
    club = request.club
    search = MemberSearchForm(request.GET)
    q, show = search.values()
    # Paged: a club of many years has hundreds of lapsed members; a page reads its own.
    page = Paginator(club.members.search(q, show), MEMBERS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    members = list(page.object_list)
    # Sessions counted this season: a count over a member's whole history grows with it.
    Member.objects.count_sessions_attended(members, *club.season_of(timezone.localdate()))
    others = urlencode({"q": q, "show": show})
    context = {
        "search": search,
        "q": q,
        "show": show,
        "members": members,
        "page": page,
        "others": others,
    }
    if request.htmx and request.htmx.target == "member-results":
        return render(request, "club/members/list.html#results", context)
    # Members to check on: absent without a word for the club's number of sessions.
    context["absent_after"], context["absent"] = absent_without_word(club, timezone.localdate())
    return render(request, "club/members/list.html", context)


@coordinator_required
def member_create(request):
    club = request.club
    form = MemberForm(request.POST or None, club=club, actor=request.user)
    # save() is None when the new login's name was made elsewhere meanwhile: the form says so.
    if request.method == "POST" and form.is_valid() and (member := form.save()) is not None:
        if form.already_added:
            messages.info(
                request,
                f"{member.name} is already added (as “{member.table_name}”); here they are.",
            )
        else:
            messages.success(
                request, f"{member.name} is added to the club as “{member.table_name}”."
            )
        return redirect("club:member_detail", pk=member.pk)
    return render(request, "club/members/form.html", {"form": form, "member": None})


def _import_page(request, form, batch=None, changed=False):
    """The import page: the spreadsheet form, and the preview of what it read. Only a clean
    preview carries the signed batch its Import button posts."""
    context = {"form": form, "batch": batch, "changed": changed, "signed": None}
    if batch is not None and batch.is_clean:
        context["signed"] = importing.sign(form.cleaned_data["content"], uuid.uuid4())
    if request.htmx:
        return render(request, "club/members/import.html#result", context)
    return render(request, "club/members/import.html", context)


@coordinator_required
def member_import(request):
    if request.method != "POST":
        return _import_page(request, importing.SpreadsheetForm())
    form = importing.SpreadsheetForm(request.POST, request.FILES)
    if not form.is_valid():
        return _import_page(request, form)
    club = request.club
    return _import_page(request, form, importing.read(form.cleaned_data["content"], club))


@coordinator_required
@require_POST
def member_import_confirm(request):
    form = importing.ConfirmForm(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors["batch"]))
        return redirect("club:member_import")
    text, batch_token = form.cleaned_data["batch"]
    outcome = importing.import_members(text, batch_token, request.club)
    if outcome.batch is not None:
        # Someone changed the members since the preview: show what stands in the way now.
        again = importing.SpreadsheetForm({"text": text})
        again.is_valid()
        return _import_page(request, again, outcome.batch, changed=True)
    if outcome.created:
        n = outcome.created
        messages.success(request, f"{n} member{'' if n == 1 else 's'} imported.")
    else:
        n = outcome.already_imported
        messages.info(
            request,
            f"{'That member was' if n == 1 else f'Those {n} members were'} already "
            "imported, so nobody was added twice.",
        )
    return redirect("club:member_list")


@coordinator_required
@require_safe
def member_import_template(request):
    response = HttpResponse(importing.template_csv(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="members-template.csv"'
    return response


@coordinator_required
def member_edit(request, pk):
    member = _member(request, pk)
    form = MemberForm(request.POST or None, instance=member, club=member.club, actor=request.user)
    if request.method == "POST" and form.is_valid() and form.save() is not None:
        messages.success(request, f"{member.name}'s details are saved.")
        return redirect("club:member_detail", pk=member.pk)
    return render(request, "club/members/form.html", {"form": form, "member": member})


def _detail_context(member: Member, keep_apart_form: KeepApartForm | None = None) -> dict:
    start, end = member.club.season_of(timezone.localdate())
    sessions = member.attended_sessions()
    return {
        "member": member,
        "has_played": member.has_played,
        "sessions_attended": sessions.filter(date__gte=start, date__lt=end).count(),
        "last_attended": sessions.order_by("-date").first(),
        "kept_apart": member.keep_aparts(),
        "keep_apart_form": keep_apart_form or KeepApartForm(member=member),
        "history": member_history.changes(member),
        "next_answer": _next_answer(member),
    }


def _next_answer(member: Member):
    """The next session that takes answers, with the member's answer to it: the coordinator
    answers here for a member who rang (club/week/). None for a lapsed member or no session."""
    if not member.is_active:
        return None
    session = open_sessions(member.club_id, timezone.localdate()).first()
    return week_row(member, session) if session else None


@coordinator_required
def member_detail(request, pk):
    return render(request, "club/members/detail.html", _detail_context(_member(request, pk)))


@coordinator_required
@require_POST
def member_retire(request, pk):
    member = _member(request, pk)
    try:
        # Retiring or reactivating switches their login off or on too.
        accounts.check_may_manage(request.user, member)
    except Refused as error:
        return show_refusal(request, error, "club:member_detail", pk=member.pk)
    member.retire()
    messages.success(
        request,
        f"{member.table_name} is now marked as lapsed. Their results are kept; "
        "they no longer appear on the check-in list.",
    )
    return redirect("club:member_detail", pk=member.pk)


@coordinator_required
@require_POST
def member_reactivate(request, pk):
    member = _member(request, pk)
    try:
        # Retiring or reactivating switches their login off or on too.
        accounts.check_may_manage(request.user, member)
    except Refused as error:
        return show_refusal(request, error, "club:member_detail", pk=member.pk)
    member.reactivate()
    messages.success(request, f"Welcome back: {member.table_name} is an active member again.")
    return redirect("club:member_detail", pk=member.pk)


@coordinator_required
def member_delete(request, pk):
    member = _member(request, pk)
    if request.method == "POST":
        try:
            member.delete_if_never_played()
        except Refused as error:
            return show_refusal(request, error, "club:member_detail", pk=member.pk)
        messages.success(request, f"{member.name} is deleted.")
        return redirect("club:member_list")
    return render(
        request,
        "club/members/confirm_delete.html",
        {"member": member, "has_played": member.has_played},
    )


def _keep_apart_response(request, member, form=None, notice="", notice_is_error=False):
    if request.htmx:
        context = _detail_context(member, form)
        context.update(notice=notice, notice_is_error=notice_is_error)
        return render(request, "club/members/detail.html#keep-apart", context)
    if form is not None and form.errors:
        return render(request, "club/members/detail.html", _detail_context(member, form))
    if notice:
        (messages.error if notice_is_error else messages.success)(request, notice)
    return redirect("club:member_detail", pk=member.pk)


@coordinator_required
@require_POST
def keep_apart_add(request, pk):
    member = _member(request, pk)
    form = KeepApartForm(request.POST, member=member)
    if not form.is_valid():
        return _keep_apart_response(request, member, form)
    try:
        pair = form.save()
    except Refused as error:
        return _keep_apart_response(request, member, notice=str(error), notice_is_error=True)
    return _keep_apart_response(
        request,
        member,
        notice=f"{member.table_name} and {pair.other(member).table_name} "
        "will not be seated together.",
    )


@coordinator_required
@require_POST
def keep_apart_remove(request, pk, pair_pk):
    member = _member(request, pk)
    try:
        other = member.remove_keep_apart(pair_pk)
    except Refused as error:
        return _keep_apart_response(request, member, notice=str(error), notice_is_error=True)
    if other is None:
        notice = "That pair was already removed."
    else:
        notice = f"{member.table_name} and {other.table_name} may be seated together again."
    return _keep_apart_response(request, member, notice=notice)
