"""Real-browser tests: Playwright driving Debian's Chromium.

On a newcomer's machine without Chromium they are skipped with the reason; in CI (CI=true)
a missing Chromium is an error, so they always run there.
"""

import os
import re
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not os.path.exists(CHROMIUM):
        message = "Chromium is not installed (sudo apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}: browser tests must run in CI.")
        pytest.skip(f"{message}: browser tests skipped.")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_FLAGS}


@pytest.fixture
def demo_club(transactional_db, demo_dump):
    """The demo club (tests/demo_club.py), committed, for the live server to read."""
    return demo_dump.restore()


@pytest.fixture(autouse=True)
def close_pages_before_the_database_is_emptied(request):
    """Close every page a test opened while its data still exists.

    A page left open keeps polling (the table page asks every few seconds); a poll that
    reached the live server after the test's data was flushed would find no club and
    create one, and the next test would then see someone else's club. Requesting the
    database here makes this teardown run before the database's."""
    if "live_server" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("transactional_db")
    browser = request.getfixturevalue("browser")
    yield
    for context in list(browser.contexts):
        for page in list(context.pages):
            page.close()


# --- what no browser test may leave behind ------------------------------------------------------

# Every policy violation, with where it came from (Chromium's own console line names the
# directive but not always the element). The page's own script cannot see this listener.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  const on = e.target && e.target.outerHTML ? e.target.outerHTML.slice(0, 120) : "";
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`
                + ` at ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample || ""} ${on}`);
});
"""
# Requests the browser itself gives up on, which are not failures of the site: leaving a
# page stops what it was still loading (a stylesheet, a poll), htmx cancels a request its
# `hx-sync` says to, and a download is not a page. A missing file is an answer (404), and a
# file the policy blocks is "net::ERR_BLOCKED_BY_CSP": both still count.
OFFLINE = "net::ERR_INTERNET_DISCONNECTED"
ABORTED_BY_THE_BROWSER = "net::ERR_ABORTED"


class BrowserWatch:
    """Collects, from every page of every context a test opens, console errors (Chromium
    reports policy violations there too), uncaught script errors, failed requests and
    answers of 400 and above. A test that makes one on purpose says so with `allow`."""

    def __init__(self):
        self.problems: list[str] = []
        self.allowed: list[tuple[re.Pattern, str]] = []

    def allow(self, pattern: str, why: str) -> None:
        """Let problems matching `pattern` (a regular expression) pass, for the reason given."""
        self.allowed.append((re.compile(pattern), why))

    def add(self, problem: str) -> None:
        self.problems.append(problem)

    def unexplained(self) -> list[str]:
        return [p for p in self.problems if not any(rx.search(p) for rx, _ in self.allowed)]

    def watch(self, context) -> None:
        context.add_init_script(REPORT_VIOLATIONS)
        context.on("console", self.on_console)
        context.on("weberror", lambda error: self.add(f"script error: {error.error}"))
        context.on("requestfailed", self.on_request_failed)
        context.on("response", self.on_response)

    def on_console(self, message) -> None:
        if message.type == "error":
            self.add(f"console error: {message.text} ({message.location.get('url')})")

    def on_request_failed(self, request) -> None:
        failure = request.failure or ""
        if failure == ABORTED_BY_THE_BROWSER:
            return
        if request.service_worker is not None and failure == OFFLINE:
            # The service worker's own fetch (keeping or refreshing a table page) during a
            # drop: it falls back to what it kept, and each offline test checks what the
            # page then shows. A page's request that fails is still a problem.
            return
        self.add(f"request failed: {request.method} {request.url} {failure}")

    def on_response(self, response) -> None:
        if response.status >= 400:
            request = response.request
            self.add(f"answer {response.status}: {request.method} {response.url}")


@pytest.fixture(autouse=True)
def browser_watch(request, monkeypatch):
    """Fails any browser test whose pages logged a console error, broke a policy, or had a
    request fail or answered with an error, listing each. Every context and page the test
    opens from the `browser` is watched."""
    if "browser" not in request.fixturenames and "page" not in request.fixturenames:
        yield None
        return
    browser = request.getfixturevalue("browser")
    watch = BrowserWatch()
    new_context, new_page = browser.new_context, browser.new_page

    def watched_context(*args, **kwargs):
        context = new_context(*args, **kwargs)
        watch.watch(context)
        return context

    def watched_page(*args, **kwargs):
        page = new_page(*args, **kwargs)
        watch.watch(page.context)
        return page

    monkeypatch.setattr(browser, "new_context", watched_context)
    monkeypatch.setattr(browser, "new_page", watched_page)
    yield watch
    found = watch.unexplained()
    if found:
        pytest.fail(
            f"{len(found)} browser problem(s):\n" + "\n".join(dict.fromkeys(found)),
            pytrace=False,
        )
