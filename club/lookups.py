"""Finding what an address names, within the request's club: the one place a view turns a
session's number into the session, or a 404 (another club's session is not found either)."""

from django.shortcuts import get_object_or_404

from club.models import Session


def session_or_404(request, pk: int, *related: str) -> Session:
    """The request's club's session `pk` (with `related` read in the same query), or 404."""
    sessions = Session.objects.select_related(*related) if related else Session.objects
    return get_object_or_404(sessions, pk=pk, club=request.club)
