"""A session named in an address is found within the request's club only."""

import pytest
from django.http import Http404
from django.test import RequestFactory

from club.lookups import session_or_404
from club.models import Club
from tests.factories import ClubFactory, SessionFactory


def _request_of(club):
    request = RequestFactory().get("/")
    request.club = club
    return request


def test_the_clubs_session_is_found_with_what_was_asked_for(club, django_assert_num_queries):
    session = SessionFactory(club=Club.objects.current())
    request = _request_of(session.club)
    with django_assert_num_queries(1):  # the session with its club, in one query
        found = session_or_404(request, session.pk, "club")
        assert found.club.pk == session.club_id
    assert found == session


def test_another_clubs_session_is_not_found(club):
    other = SessionFactory(club=ClubFactory())  # the first club is the installation's
    request = _request_of(Club.objects.current())
    assert other.club != request.club
    with pytest.raises(Http404):
        session_or_404(request, other.pk)
