"""A new club's first evening: on the coordinator's home page three steps (add members or
import them, check the settings, make tonight's session) until the club has members and a
session."""

import datetime

from django.urls import reverse
from django.utils import timezone

from front.first_evening import FirstEvening, first_evening
from tests.factories import MemberFactory, SessionFactory, UserFactory

GUIDE = "Your first evening in three steps"


def home(client) -> str:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    return response.content.decode()


def test_a_new_clubs_coordinator_sees_the_three_steps(coordinator_client, club):
    page = home(coordinator_client)
    assert GUIDE in page
    assert page.index(GUIDE) < page.index("Running the club")  # first on the page
    for name in ("club:member_add", "club:member_import", "club_settings", "club:session_add"):
        assert f'href="{reverse(name)}"' in page
    assert "Add a member" in page and "Import a spreadsheet of members" in page
    assert "Create tonight's session" in page
    # Adding members is the step to do first.
    assert 'class="evening-step is-next" id="first-step-members"' in page


def test_with_members_the_first_step_is_ticked_and_the_session_is_next(coordinator_client, club):
    MemberFactory(club=club)
    page = home(coordinator_client)
    assert GUIDE in page
    assert "✓ Your members are in the list." in page
    assert 'class="evening-step is-done" id="first-step-members"' in page
    assert 'class="evening-step is-next" id="first-step-session"' in page
    assert f'href="{reverse("club:member_add")}"' not in page


def test_with_a_session_but_no_members_the_session_is_ticked(coordinator_client, club):
    SessionFactory(club=club, date=timezone.localdate() + datetime.timedelta(days=3))
    page = home(coordinator_client)
    assert GUIDE in page and "✓ Your first session is in the list." in page
    assert f'href="{reverse("club:session_add")}"' not in page


def test_the_guide_goes_once_the_club_has_members_and_a_session(coordinator_client, club):
    MemberFactory(club=club)
    SessionFactory(club=club, date=timezone.localdate() - datetime.timedelta(days=7))
    assert GUIDE not in home(coordinator_client)
    assert first_evening(club) is None


def test_tonights_page_shows_the_guide_while_the_club_has_no_members(coordinator_client, club):
    SessionFactory(club=club, date=timezone.localdate())
    page = home(coordinator_client)
    assert "<h1>Tonight:" in page
    assert GUIDE in page and f'href="{reverse("club:member_add")}"' in page
    MemberFactory(club=club)
    page = home(coordinator_client)
    assert "<h1>Tonight:" in page and GUIDE not in page


def test_members_and_visitors_never_see_the_guide(client, club):
    assert GUIDE not in home(client)
    client.force_login(UserFactory())  # a login with no role in the club
    assert GUIDE not in home(client)


def test_the_guide_is_each_clubs_own(club, coordinator_client):
    from tests.factories import ClubFactory

    other = ClubFactory()
    MemberFactory(club=other)
    SessionFactory(club=other)
    assert first_evening(other) is None
    assert first_evening(club) == FirstEvening(has_members=False, has_session=False)
