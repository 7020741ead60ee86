"""A session named in an address is found within the installation's club only."""

import pytest
from django.http import Http404

from club.lookups import session_or_404
from club.models import Club
from tests.factories import ClubFactory, SessionFactory


def test_the_clubs_session_is_found_with_what_was_asked_for(club, django_assert_num_queries):
    session = SessionFactory(club=Club.objects.current())
    with django_assert_num_queries(2):  # the club, then the session with its club
        found = session_or_404(session.pk, "club")
        assert found.club.pk == session.club_id
    assert found == session


def test_another_clubs_session_is_not_found(club):
    other = SessionFactory(club=ClubFactory())  # the first club is the installation's
    assert other.club != Club.objects.current()
    with pytest.raises(Http404):
        session_or_404(other.pk)
