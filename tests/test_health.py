"""`GET /health/` for a load balancer: "ok" when a write would be taken (the write lock taken
and given back), 503 "database read-only" when it would be refused, 503 "database
unreachable" when the database does not answer; no session, no cookie, no login, no HTTPS
redirect. tests/faults/test_read_only.py makes a real server's database read-only."""

from types import SimpleNamespace
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.unavailable import RETRY_AFTER
from tests.test_unavailable import database_down, read_only_connection


def assert_only_the_probe(queries):
    """The probe's statements and nothing else: no session, no user."""
    sql = [query["sql"] for query in queries.captured_queries]
    probe = "transaction_read_only" if connection.vendor == "postgresql" else "SELECT 1"
    assert any(probe in statement for statement in sql), sql
    assert not any("session" in statement or "auth_user" in statement for statement in sql)


def test_the_address_is_site_level():
    assert reverse("health") == "/health/"


def test_ok_after_the_probe_alone_with_no_session_and_no_cookie(client, db):
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/health/")
    assert_only_the_probe(queries)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain"
    assert response.content == b"ok\n"
    assert not response.cookies
    assert "Cookie" not in response.get("Vary", "")
    # A proxy keeps no copy: each probe asks the database again.
    assert "no-store" in response["Cache-Control"]


def test_a_logged_in_browser_gets_the_same_answer_without_its_session_being_read(
    member_client,
):
    with CaptureQueriesContext(connection) as queries:
        response = member_client.get("/health/")
    assert_only_the_probe(queries)
    assert response.status_code == 200 and response.content == b"ok\n"
    assert not response.cookies


def test_a_head_request_is_answered_and_a_post_is_not(client, db):
    assert client.head("/health/").status_code == 200
    assert client.post("/health/").status_code == 405


@pytest.mark.parametrize("error", ["refused", "closed"])
def test_503_when_the_database_cannot_be_reached(db, error):
    from django.db.utils import InterfaceError, OperationalError

    failure = {
        "refused": OperationalError("could not connect to server: Connection refused"),
        "closed": InterfaceError("connection already closed"),
    }[error]
    browser = Client(raise_request_exception=False)
    with database_down(failure):
        response = browser.get("/health/")
    assert response.status_code == 503
    assert response["Content-Type"] == "text/plain"
    assert response.content == b"database unreachable\n"
    assert response["Retry-After"] == str(RETRY_AFTER)
    assert not response.cookies


@pytest.mark.django_db(transaction=True)
def test_503_read_only_when_a_write_would_be_refused_then_ok_when_it_would_not(client):
    """The probe takes the write lock on SQLite (BEGIN IMMEDIATE), asks PostgreSQL whether
    its transactions are read-only; the connection found so is dropped, and the next probe
    opens a new one, which here takes writes again."""
    assert client.get("/health/").content == b"ok\n"
    with read_only_connection():
        response = client.get("/health/")
        assert response.status_code == 503
        assert response.content == b"database read-only\n"
        assert response["Retry-After"] == str(RETRY_AFTER)
        assert not response.cookies
        response = client.get("/health/")
    assert response.status_code == 200 and response.content == b"ok\n"


def test_503_disk_full_when_the_sqlite_database_has_no_room_left(client, db):
    if connection.vendor != "sqlite":
        pytest.skip("PostgreSQL's disk is the database server's own")
    full = SimpleNamespace(f_bfree=100, f_bavail=0, f_frsize=4096)  # 400 KiB: under 1 MiB
    with mock.patch("club.read_only.os.statvfs", return_value=full):
        response = client.get("/health/")
    assert response.status_code == 503 and response.content == b"database disk full\n"
    assert client.get("/health/").content == b"ok\n"


def test_plain_http_is_not_redirected_to_https(client, db, settings):
    # Production redirects plain HTTP (SECURE_SSL_REDIRECT, off under tests); a balancer's
    # probe over plain HTTP must reach the view.
    settings.SECURE_SSL_REDIRECT = True
    assert settings.SECURE_REDIRECT_EXEMPT == [r"^health/$"]
    assert client.get(reverse("home")).status_code == 301
    response = client.get("/health/")
    assert response.status_code == 200 and response.content == b"ok\n"
