"""The Content-Security-Policy in a real browser: the main pages, and their htmx buttons,
run with no policy violation and no console error."""

from playwright.sync_api import expect

from club.models import Member, Session
from tests.browser.helpers import log_in
from tests.demo_club import COORDINATOR_LOGIN, MEMBER_LOGIN

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
        f"/play/{tonight.pk}/keys/",
        "/accounts/password/",
        "/admin/",
    ]:
        visit(watcher, base + path)
    assert watcher.problems == []


def test_member_and_public_pages_keep_to_the_policy(live_server, browser, demo_club):
    base = live_server.url
    page = browser.new_page()
    watcher = Watcher(page)
    for path in ["/", "/accounts/login/", "/accounts/reset/", "/t/", "/offline/"]:
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


# Browser extensions (password managers, spelling aids) and checkers such as axe give page
# elements an inline style through the DOM, which the policy allows; htmx then copied that
# attribute onto the swapped-in element with setAttribute, which the policy blocks.
GIVE_EVERY_INPUT_A_STYLE = """() => {
  for (const el of document.querySelectorAll("input[id]")) {
    el.style.outline = "0px";
    el.style.removeProperty("outline");  // leaves style="", as axe does
  }
}"""


def test_recording_hands_logs_nothing(live_server, browser, transactional_db, browser_watch):
    """At a table: a preview, Save pressed straight after typing the total (the total's
    "change" used to send a preview that the save then aborted, which htmx logs as an
    error), the preview's request inheriting the form's hx-disabled-elt (which found no
    button and was logged), and a swap over elements that carry an inline style. No console
    error and no policy violation, in any of them."""
    from games.start import start_play
    from tests.browser.helpers import record_quick_win
    from tests.factories import CoordinatorFactory
    from tests.games.helpers import one_named_table

    session = one_named_table("u3a", ["Ann", "Betty", "Carol", "Dot"])
    start_play(session)
    CoordinatorFactory(username="boss")
    page = log_in(
        browser.new_page(viewport={"width": 1024, "height": 768}), live_server.url, "boss"
    )
    page.goto(f"{live_server.url}/play/{session.pk}/tables/1/")
    page.evaluate(GIVE_EVERY_INPUT_A_STYLE)
    record_quick_win(page, 1, "Betty", "Self-drawn from the wall", 10)
    page.evaluate(GIVE_EVERY_INPUT_A_STYLE)
    form = page.locator("#win-form")
    form.get_by_role("group", name="Who won?").get_by_label("Carol", exact=False).check()
    form.get_by_label("Self-drawn from the wall").check()
    form.get_by_label("Total the table agreed (points)").fill("8")
    form.get_by_role("button", name="Save hand 2").click()
    expect(page.locator(".board-hand")).to_have_text("Hand 3")
    page.wait_for_timeout(600)  # any preview still due would have gone by now
    assert browser_watch.unexplained() == []
