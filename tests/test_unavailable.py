"""When the database cannot be reached: a calm 503 page with Retry-After, no traceback, and
nothing half-written."""

from unittest import mock

import pytest
from django.db.backends.utils import CursorWrapper
from django.db.utils import InterfaceError, OperationalError
from django.test import Client, RequestFactory
from django.urls import reverse

from club.models import Attendance, Member
from club.unavailable import RETRY_AFTER, is_database_unreachable, server_error
from tests.factories import SessionFactory

SAFE = "The scores are safe; try again in a minute"


REFUSED = OperationalError("could not connect to server: Connection refused")


def database_down(error=REFUSED):
    """Every query fails as it does when the database server is down or restarting."""
    return mock.patch.multiple(
        CursorWrapper,
        _execute=mock.Mock(side_effect=error),
        _executemany=mock.Mock(side_effect=error),
    )


def assert_friendly_503(response, again="/"):
    page = response.content.decode()
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER)
    assert SAFE in page
    assert f'href="{again}"' in page
    assert "Traceback" not in page and "OperationalError" not in page
    assert "<script" not in page and "style=" not in page  # strict Content-Security-Policy


@pytest.mark.parametrize(
    "error", [OperationalError("connection refused"), InterfaceError("connection already closed")]
)
def test_a_page_read_while_the_database_is_down_says_try_again(client, club, error):
    with database_down(error):
        response = client.get(reverse("home") + "?week=2")
    assert_friendly_503(response, again="/?week=2")


def test_a_database_failure_in_a_middleware_gets_the_same_page(member_user, club):
    # The logged-in user is read from the database before the view runs.
    browser = Client(raise_request_exception=False)
    browser.force_login(member_user)
    with database_down():
        response = browser.get(reverse("home"))
    assert_friendly_503(response, again="/")


@pytest.mark.parametrize(
    "message", ["no such column: scoring_hand.liable", "no such table: club_member"]
)
def test_a_migration_not_run_is_a_fault_not_a_moment_to_wait(message):
    # The ordinary error page (logged as an error) rather than "try again in a minute".
    assert not is_database_unreachable(OperationalError(message))
    assert is_database_unreachable(OperationalError("database is locked"))


def test_other_errors_still_get_the_ordinary_error_page(db):
    request = RequestFactory().get("/")
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        response = server_error(request)
    assert response.status_code == 500
    assert SAFE not in response.content.decode()


def test_a_write_cut_off_half_way_leaves_nothing(coordinator_client, club):
    """The walk-in is a new member and their check-in: the connection is lost after the
    member is written and before the check-in. The page says try again; neither is kept."""
    session = SessionFactory(club=club)
    members = Member.objects.count()
    lost = OperationalError("server closed the connection unexpectedly")
    with mock.patch("club.models.Session.set_present", side_effect=lost):
        response = coordinator_client.post(
            reverse("club:walk_in", args=[session.pk]), {"name": "Pat Visitor"}
        )
    assert_friendly_503(response, again="/")
    assert Member.objects.count() == members
    assert not Member.objects.filter(name="Pat Visitor").exists()
    assert not Attendance.objects.filter(session=session).exists()


NOT_SAVED = "What you just entered was not saved."


def test_a_form_posted_while_the_database_is_down_says_go_back_and_press_again(
    coordinator_client, club
):
    session = SessionFactory(club=club)
    lost = OperationalError("server closed the connection unexpectedly")
    with mock.patch("club.models.Session.set_present", side_effect=lost):
        response = coordinator_client.post(
            reverse("club:walk_in", args=[session.pk]), {"name": "Pat Visitor"}
        )
    assert_friendly_503(response, again="/")
    page = response.content.decode()
    assert NOT_SAVED in page
    assert "Back button: your entries are still there" in page
    assert "press the same\nbutton again" in page


def test_a_page_read_while_the_database_is_down_does_not_speak_of_entries(client, club):
    with database_down():
        response = client.get(reverse("home"))
    assert NOT_SAVED not in response.content.decode()
