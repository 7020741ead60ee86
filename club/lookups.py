"""Finding what an address names, within the request's club: the one place a view turns a
session's number into the session, or a 404 (another club's session is not found either)."""

from django.shortcuts import get_object_or_404

from club.models import Member, Session


def session_or_404(request, pk: int, *related: str) -> Session:
    """The request's club's session `pk` (with `related` read in the same query), or 404.
    Its club is the request's own row, not read again."""
    related = tuple(name for name in related if name != "club")
    sessions = Session.objects.select_related(*related) if related else Session.objects
    session = get_object_or_404(sessions, pk=pk, club=request.club)
    session.club = request.club
    return session


def my_member(request) -> Member | None:
    """The member the logged-in user is in the request's club (None for a visitor, or a
    login that is no member of this club), read once a request."""
    if "_my_member" not in request.__dict__:
        request._my_member = Member.objects.for_login(request.user)
    return request._my_member
