"""Error pages in plain words: a post too large gets a page saying so (not Django's bare
"Bad Request (400)"), and the 500 page does not promise that trying again will help, while
the 503 page (the database not answering for a moment) still does."""

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.test import RequestFactory
from django.urls import reverse

from club.unavailable import database_unavailable, server_error

TOO_BIG = "Sorry, that was too much to send at once"


def assert_friendly_400(response):
    page = response.content.decode()
    assert response.status_code == 400
    assert "Bad Request (400)" not in page
    assert TOO_BIG in page and "nothing was saved" in page
    assert "Back button" in page
    assert 'href="/static/css/app.css"' in page  # the site's look


@pytest.mark.parametrize("who", ["anonymous", "coordinator"])
def test_a_post_larger_than_the_limit(client, coordinator, club, who):
    if who == "coordinator":
        client.force_login(coordinator)
    big = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    url = reverse("login") if who == "anonymous" else reverse("club:member_add")
    assert_friendly_400(client.post(url, {"name": big}))


def test_a_post_with_too_many_fields(coordinator_client):
    fields = {f"field{n}": "1" for n in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)}
    assert_friendly_400(coordinator_client.post(reverse("club:member_add"), fields))


def test_the_form_check_reads_a_too_large_post_first(club):
    """With the CSRF check on (as in production) the middleware reads the post first."""
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.get(reverse("login"))  # the form's cookie, so the check goes on to the post
    big = "x" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 1)
    assert_friendly_400(browser.post(reverse("login"), {"username": big}))


def test_other_bad_requests_get_a_plain_page_too(client, club):
    response = client.get("/", HTTP_HOST="not-a valid host")
    page = response.content.decode()
    assert response.status_code == 400
    assert "Sorry, that could not be read" in page and TOO_BIG not in page


def test_the_500_page_does_not_promise_that_trying_again_helps(db):
    request = RequestFactory().get("/")
    try:
        raise RuntimeError("a bug that will happen again")
    except RuntimeError:
        page = server_error(request).content.decode()
    assert "try again in a minute" not in page.lower()
    assert "has been recorded" in page and "tell your" in page and "coordinator" in page
    assert "Back button" in page
    assert page == render_to_string("500.html")


def test_the_503_page_still_says_try_again_in_a_minute(db):
    page = database_unavailable(RequestFactory().get("/")).content.decode()
    assert "try again in a minute" in page
