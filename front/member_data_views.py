"""A member's "My data" page and its two downloads (front/member_data.py)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from club.models import Member
from front import member_data

CONTENT_TYPES = {"json": "application/json; charset=utf-8", "csv": "text/csv; charset=utf-8"}


@require_safe
@login_required
def my_data(request):
    member = Member.objects.for_login(request.user)
    return render(request, "front/my_data.html", {"member": member})


@require_safe
@login_required
def my_data_csv(request):
    return _my_data_file(request, "csv")


@require_safe
@login_required
def my_data_json(request):
    return _my_data_file(request, "json")


def _my_data_file(request, kind):
    """The logged-in member's own data, and nobody else's: the file is found from the
    login, never from anything in the address."""
    member = Member.objects.for_login(request.user)
    if member is None:
        raise Http404("This login is not a member of this club.")
    rows = member_data.member_rows(member)
    text = member_data.as_json(member, rows) if kind == "json" else member_data.as_csv(member, rows)
    response = HttpResponse(text, content_type=CONTENT_TYPES[kind])
    response["Content-Disposition"] = f'attachment; filename="{member_data.filename(member, kind)}"'
    # It holds the member's contact details: no browser or proxy may keep a copy.
    response["Cache-Control"] = "no-store"
    return response
