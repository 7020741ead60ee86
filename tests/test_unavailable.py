"""When the database cannot be reached: a calm 503 page with Retry-After, no traceback, and
nothing half-written."""

from contextlib import contextmanager
from unittest import mock

import pytest
from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.db.utils import InterfaceError, InternalError, OperationalError
from django.test import Client, RequestFactory
from django.urls import reverse

from club.models import Attendance, Member
from club.read_only import refuses_writes
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


@contextmanager
def read_only_connection():
    """This thread's database connection refuses every write, as one opened on a read-only
    database does: SQLite's query_only, PostgreSQL's default_transaction_read_only (which a
    standby, or `ALTER DATABASE ... SET`, gives a new connection)."""
    statement = {
        "sqlite": "PRAGMA query_only = {}",
        "postgresql": "SET default_transaction_read_only = {}",
    }[connection.vendor]
    with connection.cursor() as cursor:
        cursor.execute(statement.format("ON"))
    opened = connection.connection
    try:
        yield
    finally:
        if connection.connection is opened:  # the app did not drop it
            with connection.cursor() as cursor:
                cursor.execute(statement.format("OFF"))


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


NOTHING_SAVED = "Nothing can be saved just now"


class Sqlstate(Exception):
    """A driver's error with its SQLSTATE, as psycopg raises it."""

    def __init__(self, sqlstate):
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def wrapped(error_class, message, sqlstate=None):
    """A Django database error as Django raises it, its driver's error as its cause."""
    error = error_class(message)
    error.__cause__ = Sqlstate(sqlstate) if sqlstate else None
    return error


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("attempt to write a readonly database"),
        OperationalError("database or disk is full"),
        OperationalError("disk I/O error"),
        wrapped(InternalError, "cannot execute INSERT in a read-only transaction", "25006"),
        wrapped(OperationalError, "could not extend file: No space left on device", "53100"),
    ],
)
def test_every_way_a_database_refuses_writes_gets_the_nothing_can_be_saved_page(
    coordinator_client, club, error
):
    session = SessionFactory(club=club)
    assert refuses_writes(error) and is_database_unreachable(error)
    with mock.patch("club.models.Session.set_present", side_effect=error):
        response = coordinator_client.post(
            reverse("club:walk_in", args=[session.pk]), {"name": "Pat Visitor"}
        )
    page = response.content.decode()
    assert response.status_code == 503 and response["Club-Database"] == "read-only"
    assert NOTHING_SAVED in page and NOT_SAVED in page
    assert "try again in a minute" not in page and SAFE not in page
    assert "tell the coordinator" in page


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("connection refused"),
        wrapped(InternalError, "deadlock", "40P01"),
        RuntimeError("attempt to write a readonly database"),  # not the database's
    ],
)
def test_other_errors_are_not_taken_for_a_database_refusing_writes(error):
    assert not refuses_writes(error)


@pytest.mark.django_db(transaction=True)
def test_a_write_refused_by_a_read_only_database_is_taken_on_the_next_try(coordinator_client, club):
    """The connection that met the refusal is dropped: the next request opens a new one,
    which sees the database as it is then (here, writable again), with no restart."""
    session = SessionFactory(club=club)
    walk_in = reverse("club:walk_in", args=[session.pk])
    with read_only_connection():
        response = coordinator_client.post(walk_in, {"name": "Pat Visitor"})
        assert response.status_code == 503 and response["Club-Database"] == "read-only"
        assert NOTHING_SAVED in response.content.decode()
        response = coordinator_client.post(walk_in, {"name": "Pat Visitor"})
    assert response.status_code in (200, 302)
    assert Member.objects.filter(name="Pat Visitor").count() == 1


def test_a_session_the_full_disk_would_not_save_gets_the_nothing_can_be_saved_page(db):
    """Django answers a session save the database refused with SessionInterrupted, a 400
    ("the session was deleted..."): the 400 handler finds the refusal under it and gives the
    read-only 503, as any other refused write gets (seen on a login during a full disk)."""
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.exceptions import SessionInterrupted
    from django.contrib.sessions.middleware import SessionMiddleware
    from django.contrib.sessions.models import Session
    from django.http import HttpResponse

    from club.views.accounts import bad_request

    stored = SessionStore()
    stored["seen"] = 1
    stored.save()

    def view(request):
        request.session["seen"] = 2  # modified: the middleware saves it
        return HttpResponse("ok")

    request = RequestFactory().get("/")
    request.COOKIES["sessionid"] = stored.session_key
    full = OperationalError("database or disk is full")
    with (
        mock.patch.object(Session, "save", side_effect=full),
        pytest.raises(SessionInterrupted) as raised,
    ):
        SessionMiddleware(view)(request)
    response = bad_request(request, raised.value)
    assert response.status_code == 503
    assert response["Club-Database"] == "read-only"
    # A session interrupted for its own reason (a logout elsewhere) is still the 400.
    assert bad_request(request, SessionInterrupted("gone")).status_code == 400
