"""Every kind of answer carries the Permissions-Policy header (camera, microphone and
geolocation off): a club's page and its htmx partial, the login page, a redirect, a static
file, the health check, a page not found, a refused form, the 500 and 503 pages."""

from unittest import mock

import pytest
from django.db.utils import OperationalError
from django.test import Client

from tests.factories import MemberFactory

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.failing_view_urls")]

POLICY = {"camera=()", "microphone=()", "geolocation=()"}


def answers(coordinator):
    MemberFactory()  # for the failing view
    plain, coordinators = Client(raise_request_exception=False), Client()
    coordinators.force_login(coordinator)
    yield "home page", coordinators.get("/")
    yield "htmx partial", coordinators.get("/club/members/", HTTP_HX_REQUEST="true")
    yield "login page", plain.get("/accounts/login/")
    yield "redirect to log in", plain.get("/club/members/")
    yield "static file", plain.get("/static/css/app.css")
    yield "health check", plain.get("/health/")
    yield "page not found", plain.get("/no-such-page/")
    yield "refused form", Client(enforce_csrf_checks=True).post("/accounts/login/", {})
    yield "server error", plain.get("/failing/")
    with mock.patch("club.middleware.root_club", side_effect=OperationalError("server closed")):
        yield "database down", plain.get("/")


def test_every_kind_of_answer_carries_the_permissions_policy(coordinator):
    seen = {}
    for kind, response in answers(coordinator):
        seen[kind] = response.status_code
        policy = response.get("Permissions-Policy", "")
        assert {part.strip() for part in policy.split(",")} == POLICY, kind
    assert seen["server error"] == 500 and seen["page not found"] == 404
    assert seen["refused form"] == 403 and seen["redirect to log in"] == 302
    assert seen["static file"] == 200 and seen["htmx partial"] == 200
    assert seen["database down"] == 503
