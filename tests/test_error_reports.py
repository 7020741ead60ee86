"""A server error reaches the operator, with no member's details in the report: to Sentry
when SENTRY_DSN is set (its transport captured here, in this process), by mail to ADMINS
otherwise (config/error_reports.py). The failing request carries a member's name and email
in its form, its query and its cookies, and the failing view holds them in local variables."""

import json

import pytest
import sentry_sdk
from django.core import mail
from django.test import Client, override_settings
from sentry_sdk.transport import Transport

from config.error_reports import scrub_event, start_sentry
from tests.factories import MemberFactory
from tests.failing_view_urls import FAILURE

pytestmark = [pytest.mark.django_db, pytest.mark.urls("tests.failing_view_urls")]

NAME = "Philippa Quennell-Ormsby"
EMAIL = "philippa.q@example.org"


class CapturedTransport(Transport):
    """Keeps what Sentry would send, as the bytes of each envelope's items."""

    def __init__(self, options=None):
        super().__init__(options)
        self.sent: list[bytes] = []

    def capture_envelope(self, envelope):
        self.sent += [item.get_bytes() for item in envelope.items]


@pytest.fixture
def member(club):
    return MemberFactory(club=club, name=NAME, email=EMAIL, phone="01632 960123")


def fail_with_member_details(user=None) -> int:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    client.cookies["remembered"] = NAME
    response = client.post(
        f"/failing/?search={EMAIL}", {"name": NAME, "email": EMAIL}, HTTP_REFERER=f"/?q={NAME}"
    )
    return response.status_code


def assert_no_member_details(report: str):
    for detail in (NAME, "Philippa", "Quennell", EMAIL, "01632 960123"):
        assert detail not in report


@pytest.fixture
def sentry():
    transport = CapturedTransport()
    start_sentry("https://public@sentry.example.org/1", transport=transport)
    yield transport
    sentry_sdk.get_client().close()
    sentry_sdk.init()  # no DSN: reports off again for the rest of the suite


def test_a_server_error_reaches_sentry_without_a_members_details(sentry, member):
    assert fail_with_member_details(member.user) == 500
    sentry_sdk.flush()
    events = [json.loads(sent) for sent in sentry.sent if b'"exception"' in sent]
    assert len(events) == 1
    (exception,) = events[0]["exception"]["values"]
    assert exception["type"] == "RuntimeError" and exception["value"] == FAILURE
    # The test client skips the WSGI handler, where Sentry reads the address and headers:
    # the next test gives scrub_event a request as gunicorn's would be.
    assert_no_member_details(b"".join(sentry.sent).decode())


@override_settings(ADMINS=[("Operator", "operator@example.org")])
def test_without_sentry_the_admins_get_the_report_by_mail_without_a_members_details(
    member, coordinator
):
    assert fail_with_member_details(coordinator) == 500
    (report,) = mail.outbox
    assert report.to == ["operator@example.org"]
    assert "/failing/" in report.subject
    whole = report.subject + report.body
    assert "RuntimeError" in whole and FAILURE in whole
    assert_no_member_details(whole)
    assert coordinator.username not in whole


def test_no_mail_without_admins(member):
    assert fail_with_member_details() == 500
    assert mail.outbox == []


def test_sentry_events_lose_the_request_details_login_breadcrumbs_and_variables():
    frame = {"function": "failing_view", "lineno": 16, "vars": {"member_name": NAME}}
    event = {
        "exception": {"values": [{"type": "RuntimeError", "stacktrace": {"frames": [frame]}}]},
        "threads": {"values": [{"stacktrace": {"frames": [dict(frame)]}}]},
        "request": {
            "method": "POST",
            "url": f"https://club.example.org/failing/?search={EMAIL}",
            "query_string": f"search={EMAIL}",
            "data": {"name": NAME},
            "cookies": {"remembered": NAME},
            "headers": {"User-Agent": "Firefox", "Referer": f"/?q={NAME}", "Cookie": NAME},
            "env": {"REMOTE_ADDR": "192.0.2.1"},
        },
        "user": {"id": 12, "username": "philippa", "email": EMAIL},
        "breadcrumbs": {"values": [{"category": "query", "message": f"... '{EMAIL}'"}]},
        "extra": {"member": NAME},
    }
    scrubbed = scrub_event(event)
    assert scrubbed["request"] == {
        "method": "POST",
        "url": "https://club.example.org/failing/",
        "headers": {"User-Agent": "Firefox"},
    }
    assert scrubbed["exception"]["values"][0]["stacktrace"]["frames"] == [
        {"function": "failing_view", "lineno": 16}
    ]
    assert_no_member_details(json.dumps(scrubbed))
    assert "philippa" not in json.dumps(scrubbed) and "192.0.2.1" not in json.dumps(scrubbed)
