"""What many browser tests do: log in through the real login form, run axe-core on a page,
move the focus with the Tab key, record a win by quick entry at a table."""

import time
from pathlib import Path

from playwright.sync_api import expect

from tests.factories import PASSWORD

AXE = Path(__file__).parent / "vendor" / "axe-4.14.1.min.js"
MIN_TARGET_PX = 44  # WCAG 2.5.5 (AAA) size; we aim above the AA minimum of 24

TARGETS_TOO_SMALL = """() => {
  const small = [];
  const controls = document.querySelectorAll(
    'button, select, summary, .button, nav a, input:not([type=hidden]):not([type=checkbox]):not([type=radio])'
  );
  for (const el of controls) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;  // not shown
    if (box.height < MIN || box.width < MIN) small.push(`${el.outerHTML.slice(0, 80)} ${box.width}x${box.height}`);
  }
  // Checkboxes and radios are tapped through their label.
  for (const el of document.querySelectorAll('input[type=checkbox], input[type=radio]')) {
    const label = el.closest('label');
    const box = (label || el).getBoundingClientRect();
    if (box.height && box.height < MIN) small.push(`label of ${el.name} ${box.height}`);
  }
  return small;
}""".replace("MIN", str(MIN_TARGET_PX))


def log_in(page, base_url: str, username: str, password: str = PASSWORD):
    """Log in on the login page and wait until the site shows the user logged in (the
    footer of every page says so; on a phone the Log out button is on the menu page).
    Returns the page."""
    page.goto(base_url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".site-footer")).to_contain_text(f"Logged in as {username}")
    return page


def axe_violations(page, where: str) -> list[str]:
    """axe-core's violations on the page as it is now, one line each naming `where`.

    axe's default rule set: WCAG 2.x A and AA and its best practices (landmarks, heading
    order, ...), every impact down to minor. axe is evaluated through the browser's
    developer protocol, which the page's Content-Security-Policy does not govern, so the
    pages are checked under the policy they really have (no `bypass_csp`)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(f"() => {{ {AXE.read_text()}\n }}")
    result = page.evaluate("() => axe.run(document)")
    return [
        f"{where}: {v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(node["target"]) for node in v["nodes"][:3])
        for v in result["violations"]
    ]


def small_targets(page, where: str) -> list[str]:
    return [f"{where}: tap target too small: {item}" for item in page.evaluate(TARGETS_TOO_SMALL)]


def is_focused(locator) -> bool:
    return locator.evaluate("el => el === document.activeElement")


def tab_to(page, locator, limit: int = 120, key: str = "Tab"):
    """Press Tab (or `key`, e.g. "Shift+Tab") until `locator` has the focus, as someone
    without a mouse would. Fails when it is never reached."""
    for _ in range(limit):
        if is_focused(locator):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached {locator}")


def focus_by_tab(page, element_id: str, limit: int = 120):
    """Press Tab until the element with `element_id` has the focus."""
    tab_to(page, page.locator(f"#{element_id}"), limit)


def record_quick_win(
    page, hand: int, winner: str, how: str, total: int, discarder=None, unit="points", last=False
):
    """Record a win by quick entry on a table page and wait for the next hand's board (or,
    for the `last` hand of the match, for "Match over"). `unit`: the rule set's (points,
    faan, fan)."""
    form = page.locator("#win-form")
    form.get_by_role("group", name="Who won?").get_by_label(winner, exact=False).check()
    form.get_by_label(how).check()
    if discarder:
        form.get_by_role("group", name="Who discarded").get_by_label(discarder, exact=False).check()
    form.get_by_label(f"Total the table agreed ({unit})").fill(str(total))
    expect(page.locator("#preview")).to_contain_text("receives")
    form.get_by_role("button", name=f"Save hand {hand}").click()
    expect(page.locator(".board-hand")).to_have_text("Match over" if last else f"Hand {hand + 1}")


# The table page's own copy is in the service worker's cache (templates/front/sw.js keeps
# the open table page when it activates) and the worker is done settling in: activated (its
# activate event, which refreshes and keeps pages, has finished), controlling this page, and
# no newer one installing. Only then is the page ready for a Wi-Fi drop with nothing of the
# worker's own still in flight.
KEPT_FOR_A_DROP = """async () => {
  const registration = await navigator.serviceWorker.ready;
  if (registration.installing || registration.waiting) return false;
  if (registration.active.state !== "activated" || !navigator.serviceWorker.controller) {
    return false;
  }
  const kept = await caches.open("table-pages");
  return await kept.match(location.href, { ignoreVary: true }) !== undefined;
}"""
# The same question of the cache alone, asked again once the connection is gone.
STILL_KEPT = """async () => {
  const kept = await caches.open("table-pages");
  return await kept.match(location.href, { ignoreVary: true }) !== undefined;
}"""


def kept_for_a_drop(page, timeout_ms=15_000):
    """Wait until the table page shown is kept on the device for a drop, as it is soon after
    a tablet opens its table with the connection (the worker installs, then keeps it)."""
    wait_until_true(page, KEPT_FOR_A_DROP, timeout_ms, "the table page kept for a drop")
    return page


def wait_until_true(page, script, timeout_ms, what):
    """Ask the page `script` (an async function: its Promise is awaited) until it answers
    true. Not page.wait_for_function: that takes a Promise for a true answer at once and
    waits for nothing, which is how a wait for the worker once let tests race it."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not page.evaluate(script):
        if time.monotonic() > deadline:
            raise AssertionError(f"Waited {timeout_ms} ms for {what}")
        page.wait_for_timeout(50)


def still_kept(page):
    """Whether the table page shown still has its copy on the device (asked without a
    connection, this tells a copy lost before a reload from a reload that did not use it)."""
    return page.evaluate(STILL_KEPT)


def log_out(page):
    """Press Log out and wait until it is done: static/js/logout.js sends the logout, clears
    the device, then moves to the answer's page itself, so a navigation started before that
    would be cut short by it."""
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("navigation").get_by_role("link", name="Log in")).to_be_visible()
    return page
