"""Roles: coordinators run the club, members look, anonymous users are asked to log in."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.roles import is_coordinator
from tests.factories import ClubFactory, MemberFactory, UserFactory

COORDINATOR_PAGES = ["club_settings"]


@pytest.mark.parametrize("name", COORDINATOR_PAGES)
def test_anonymous_users_are_sent_to_log_in(client, club, name):
    url = reverse(name)
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"


@pytest.mark.parametrize("name", COORDINATOR_PAGES)
def test_members_cannot_reach_coordinator_pages(member_client, name):
    response = member_client.get(reverse(name))
    assert response.status_code == 403
    assert "this page is for the club's coordinators" in response.content.decode()


@pytest.mark.parametrize("name", COORDINATOR_PAGES)
def test_members_cannot_post_to_coordinator_pages(member_client, club, name):
    response = member_client.post(reverse(name), {"name": "Hijacked"})
    assert response.status_code == 403
    club.refresh_from_db()
    assert club.name != "Hijacked"


@pytest.mark.parametrize("name", COORDINATOR_PAGES)
def test_coordinators_reach_coordinator_pages(coordinator_client, name):
    assert coordinator_client.get(reverse(name)).status_code == 200


def test_the_admin_is_the_operators_not_the_coordinators(coordinator_client, coordinator):
    """Coordinators run their club on its own pages; the admin sees every club, so it is the
    site's operators' (superusers') alone."""
    response = coordinator_client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]
    coordinator.is_superuser = coordinator.is_staff = True
    coordinator.save()
    assert coordinator_client.get(reverse("admin:index")).status_code == 200
    assert coordinator_client.get(reverse("admin:club_member_changelist")).status_code == 200


def test_members_cannot_use_the_admin(member_client):
    response = member_client.get(reverse("admin:index"))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_a_member_record_needs_no_login(club):
    member = MemberFactory(club=club, user=None)
    assert member.user is None


def test_role_check(club, coordinator):
    other_club = ClubFactory()
    plain = UserFactory()
    assert is_coordinator(coordinator, club)
    assert not is_coordinator(coordinator, other_club)  # no power in another club
    assert not is_coordinator(plain, club)
    plain.is_superuser = True  # the site's operators run every club
    assert is_coordinator(plain, club) and is_coordinator(plain, other_club)


def test_a_page_reads_the_users_groups_once(member_client):
    """The role and "must change password" are both answered from one read of the groups."""
    with CaptureQueriesContext(connection) as queries:
        assert member_client.get("/standings/").status_code == 200
    reads = [q["sql"] for q in queries.captured_queries if '"auth_group"' in q["sql"]]
    assert len(reads) == 1, reads
