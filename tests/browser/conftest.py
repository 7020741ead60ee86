"""Real-browser tests: Playwright driving Debian's Chromium.

On a newcomer's machine without Chromium they are skipped with the reason; in CI (CI=true)
a missing Chromium is an error, so they always run there.
"""

import os
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
