"""request.club (club/middleware.py): the club a request is about, looked up in one place,
once per request."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.http import HttpResponse
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.middleware import ClubAddressMiddleware
from club.models import Club

ROOT = Path(settings.BASE_DIR)
APPS = ("club", "games", "scoring", "front")


def _club_queries(queries) -> list[str]:
    return [q["sql"] for q in queries if re.search(r'FROM "club_club"', q["sql"])]


@pytest.mark.django_db
def test_the_middleware_sets_the_club_of_a_single_club_installation(club):
    seen = {}

    def view(request):
        seen["pk"] = request.club.pk
        return HttpResponse()

    ClubAddressMiddleware(view)(RequestFactory().get("/"))

    assert seen["pk"] == club.pk == Club.objects.current().pk


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name", ["home", "club_settings", "scoring:leaderboard", "club:member_list"]
)
def test_a_page_looks_the_club_up_once(coordinator_client, club, name):
    """The view, the context processor and the template tags all read request.club."""
    with CaptureQueriesContext(connection) as page:
        response = coordinator_client.get(reverse(name))

    assert response.status_code == 200
    assert len(_club_queries(page)) == 1, _club_queries(page)


def _request_code() -> list[Path]:
    """Views, the helpers beside them and template tags: code that runs for a request."""
    paths = []
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            parts = path.relative_to(ROOT).parts
            if "views" in parts or path.name.endswith("views.py") or "templatetags" in parts:
                paths.append(path)
    return paths


def test_no_view_or_template_tag_looks_the_club_up_itself():
    code = _request_code()
    assert len(code) > 10  # the walk found the views
    calling = [str(p.relative_to(ROOT)) for p in code if "Club.objects.current()" in p.read_text()]
    assert calling == []
