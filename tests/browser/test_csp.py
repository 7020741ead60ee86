"""The Content-Security-Policy in a real browser: the main pages, and their htmx buttons,
run with no policy violation and no console error."""

import pytest
from playwright.sync_api import expect

from club.demo import COORDINATOR_LOGIN, MEMBER_LOGIN, load_demo
from club.models import Member, Session
from tests.browser.helpers import log_in

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} `
                           + `at ${e.sourceFile}:${e.lineNumber}`);
});
"""


class Watcher:
    """Collects policy violations and console errors from every page the browser shows."""

    def __init__(self, page):
        self.page = page
        self.problems: list[str] = []
        page.add_init_script(RECORD_VIOLATIONS)
        page.on(
            "console",
            lambda msg: (
                msg.type == "error"
                and self.problems.append(f"console: {msg.text} ({msg.location.get('url')})")
            ),
        )
        page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))

    def check(self, where: str) -> None:
        found = self.page.evaluate("window.__violations || []")
        self.problems += [f"{where}: {v}" for v in found]


def visit(watcher, url: str) -> None:
    watcher.page.goto(url)
    watcher.check(url)


@pytest.fixture
def demo_club(transactional_db):
    return load_demo()


def test_coordinator_pages_and_buttons_keep_to_the_policy(live_server, browser, demo_club):
    base = live_server.url
    page = browser.new_page()
    watcher = Watcher(page)
    log_in(page, base, *COORDINATOR_LOGIN)
    tonight = Session.objects.order_by("-date").first()
    member = Member.objects.order_by("pk").first()

    visit(watcher, f"{base}/club/sessions/{tonight.pk}/seating/manage/")
    page.get_by_role("button", name="Make the seating").click()
    expect(page.get_by_role("heading", name="Table 1")).to_be_visible()
    page.get_by_role("button", name="Lock table").first.click()
    expect(page.get_by_text("is locked")).to_be_visible()
    watcher.check("seating buttons")

    visit(watcher, f"{base}/club/sessions/{tonight.pk}/check-in/")
    first = page.locator("form[hx-post] button").first
    first.click()
    page.wait_for_load_state("networkidle")
    watcher.check("check-in tap")

    visit(watcher, f"{base}/club/members/")
    page.get_by_label("Find a member").fill(member.name.split()[0])
    page.wait_for_load_state("networkidle")
    watcher.check("member search")

    for path in [
        "/",
        "/settings/",
        f"/club/members/{member.pk}/",
        f"/club/members/{member.pk}/edit/",
        "/club/sessions/",
        f"/club/sessions/{tonight.pk}/",
        "/accounts/password/",
        "/admin/",
    ]:
        visit(watcher, base + path)
    assert watcher.problems == []


def test_member_and_public_pages_keep_to_the_policy(live_server, browser, demo_club):
    base = live_server.url
    page = browser.new_page()
    watcher = Watcher(page)
    for path in ["/", "/accounts/login/", "/accounts/reset/"]:
        visit(watcher, base + path)
    log_in(page, base, *MEMBER_LOGIN)
    tonight = Session.objects.order_by("-date").first()
    for path in [
        "/",
        f"/club/sessions/{tonight.pk}/seating/",
        f"/club/sessions/{tonight.pk}/seating/print/",
        "/standings/",
        "/standings/evening/",
        "/standings/records/",
        "/standings/room/",
    ]:
        visit(watcher, base + path)
    assert watcher.problems == []
