"""`GET /health/` for a load balancer: "ok" after one query, 503 when the database does not
answer; no session, no cookie, no login, no HTTPS redirect."""

import pytest
from django.test import Client
from django.urls import reverse

from club.unavailable import RETRY_AFTER
from tests.test_unavailable import database_down


def test_the_address_is_site_level():
    assert reverse("health") == "/health/"


def test_ok_after_one_query_with_no_session_and_no_cookie(client, db, django_assert_num_queries):
    with django_assert_num_queries(1) as queries:
        response = client.get("/health/")
    assert "SELECT 1" in queries.captured_queries[0]["sql"]
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain"
    assert response.content == b"ok\n"
    assert not response.cookies
    assert "Cookie" not in response.get("Vary", "")
    # A proxy keeps no copy: each probe asks the database again.
    assert "no-store" in response["Cache-Control"]


def test_a_logged_in_browser_gets_the_same_answer_without_its_session_being_read(
    member_client, django_assert_num_queries
):
    with django_assert_num_queries(1):  # the SELECT 1: no session, no user
        response = member_client.get("/health/")
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


def test_plain_http_is_not_redirected_to_https(client, db, settings):
    # Production redirects plain HTTP (SECURE_SSL_REDIRECT, off under tests); a balancer's
    # probe over plain HTTP must reach the view.
    settings.SECURE_SSL_REDIRECT = True
    assert settings.SECURE_REDIRECT_EXEMPT == [r"^health/$"]
    assert client.get(reverse("home")).status_code == 301
    response = client.get("/health/")
    assert response.status_code == 200 and response.content == b"ok\n"
