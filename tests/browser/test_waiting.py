"""The tests' own way of waiting for something the page answers asynchronously (the service
worker's cache, its state): Playwright's wait_for_function takes an async function's Promise
for a true answer at once, so it waited for nothing and tests raced the worker."""

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.helpers import wait_until_true

# True only once the page has been open a while: an answer that takes time to come.
TRUE_LATER = """async () => {
  await new Promise((resolve) => setTimeout(resolve, 10));
  return performance.now() > 600;
}"""
NEVER = "async () => false"


def test_page_wait_for_function_does_not_wait_for_an_async_answer(browser):
    """Why wait_until_true exists: if Playwright ever waits for the Promise, this fails and
    the helper may go."""
    page = browser.new_page()
    page.set_content("<p>A page</p>")
    try:
        # Ample time on a busy machine: an answer that is never true only returns if the
        # Promise itself was taken for true (its value, false, is what comes back).
        answer = page.wait_for_function(NEVER, timeout=20_000)
    except PlaywrightError:
        pytest.fail("wait_for_function now awaits async answers: use it again")
    assert answer.json_value() is False
    page.close()


def test_wait_until_true_waits_for_the_async_answer(browser):
    page = browser.new_page()
    page.set_content("<p>A page</p>")
    wait_until_true(page, TRUE_LATER, 5_000, "the page open 600 ms")
    assert page.evaluate("() => performance.now()") > 600
    with pytest.raises(AssertionError, match="Waited 300 ms for nothing true"):
        wait_until_true(page, NEVER, 300, "nothing true")
    page.close()
