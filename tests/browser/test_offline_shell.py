"""The installable, offline-capable shell in a real browser: the service worker keeps the
table page (and only it) for a Wi-Fi drop, shows the offline page for anything else, and a
logout leaves nothing of the site on a shared tablet."""

import re
import shutil
import struct
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from club.roles import make_coordinator
from games.start import start_play
from tests.browser.helpers import (
    axe_violations,
    kept_for_a_drop,
    log_in,
    small_targets,
    still_kept,
)
from tests.factories import UserFactory
from tests.games.helpers import one_named_table

pytestmark = pytest.mark.django_db(transaction=True)
TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
NAMES = ["Ann", "Betty", "Carol", "Dot"]

READY = "async () => { await navigator.serviceWorker.ready; }"
CONTROLLED = "() => !!navigator.serviceWorker.controller"
# Every address in Cache Storage, by cache.
KEPT = """async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    kept[name] = (await cache.keys()).map((request) => new URL(request.url).pathname);
  }
  return kept;
}"""
# Everything kept in each store. htmx notes the address of the page now shown in
# sessionStorage as each page loads (htmx-current-path-for-history): that is the new page's,
# not something left behind, so it is not counted.
STORES = """async () => ({
  caches: window.caches ? await caches.keys() : null,
  local: Object.keys(localStorage),
  session: Object.keys(sessionStorage).filter((key) => key !== "htmx-current-path-for-history"),
  databases: (await indexedDB.databases()).map((db) => db.name),
})"""
FILL_STORES = """async () => {
  localStorage.setItem("outbox-test", "3 hands");
  sessionStorage.setItem("typed", "Carol 8");
  await new Promise((resolve, reject) => {
    const opening = indexedDB.open("outbox-test", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("hands");
    opening.onsuccess = () => { opening.result.close(); resolve(); };
    opening.onerror = () => reject(opening.error);
  });
}"""
EMPTY = {"caches": [], "local": [], "session": [], "databases": []}
FILLED = (["outbox-test"], ["typed"], ["outbox-test"])


def kept(stores) -> tuple:
    """The stores as FILLED compares them: without the table page's own note of the last
    board it saw ("table-seen:<match>", static/js/outbox-queue.js), which a table page writes."""
    local = [key for key in stores["local"] if not key.startswith("table-seen:")]
    return (local, stores["session"], stores["databases"])


def allow_what_a_drop_causes(watch, live_server):
    """Without a connection the service worker still asks the network first for a page
    (then answers from its copy, or with the offline page), and the table page's poll fails
    (htmx logs it as an error; connection.js says so on the page): the drop's doing, not
    this code's, and what the page then shows is checked by each test. A static file that
    fails is NOT let through: the worker must answer every one from its cache."""
    not_static = re.escape(live_server.url) + r"/(?!static/)\S*"
    watch.allow(
        rf"request failed: (GET|POST) {not_static} net::ERR_INTERNET_DISCONNECTED",
        "a page or the poll asked for without a connection",
    )
    watch.allow(r"console error: htmx:sendError", "htmx reports the poll it could not send")


def table_tablet(live_server, browser, viewport=TABLET):
    session = one_named_table("u3a", NAMES)
    start_play(session)
    make_coordinator(UserFactory(username="boss"))
    context = browser.new_context(viewport=viewport)
    page = log_in(context.new_page(), live_server.url, "boss")
    table = f"{live_server.url}/play/{session.pk}/tables/1/"
    page.goto(table)
    # The worker installs on the first visit and keeps the page it found open; the reload
    # is then answered by it.
    kept_for_a_drop(page)
    page.reload()
    assert page.evaluate(CONTROLLED)
    expect(page.locator(".board-hand")).to_have_text("Hand 1")
    return context, page, table


def test_the_table_page_is_kept_for_a_drop_and_no_other_page_is(
    live_server, browser, browser_watch
):
    allow_what_a_drop_causes(browser_watch, live_server)
    context, page, table = table_tablet(live_server, browser)
    page.goto(f"{live_server.url}/club/members/")  # online: a page with members' details
    expect(page.get_by_role("heading", name="Members")).to_be_visible()
    page.goto(table)

    context.set_offline(True)
    page.reload()
    expect(page.locator(".board-hand")).to_have_text("Hand 1")  # from the worker's copy
    expect(page.locator("#win-form")).to_be_visible()
    for name in NAMES:
        expect(page.locator(".scoreboard")).to_contain_text(name)

    page.goto(f"{live_server.url}/club/members/")
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    expect(page.locator("main")).to_contain_text(
        "The table page still works; this page needs the connection."
    )

    kept = page.evaluate(KEPT)
    pages = kept.pop("table-pages")
    assert pages == [table.removeprefix(live_server.url)]
    (shell,) = kept.values()  # one version of the shell, the old ones deleted
    assert all(path.startswith("/static/") or path == "/offline/" for path in shell), shell
    assert {"/static/css/app.css", "/static/css/table.css", "/static/js/table.js"} <= set(shell)
    assert any(path.startswith("/static/django_htmx/htmx") for path in shell)
    assert not any("/club/" in path for path in pages + shell)
    context.close()


def test_the_table_page_opened_once_is_kept_for_a_drop(live_server, browser, browser_watch):
    """A tablet opens its table once (logged in, or from the table's card) and the Wi-Fi
    drops: the worker installed by that very page keeps it, with no second visit (the page
    loaded before the worker could see it; found serving the app as production does)."""
    allow_what_a_drop_causes(browser_watch, live_server)
    session = one_named_table("u3a", NAMES)
    start_play(session)
    make_coordinator(UserFactory(username="boss"))
    context = browser.new_context(viewport=TABLET)
    page = log_in(context.new_page(), live_server.url, "boss")
    page.goto(f"{live_server.url}/play/{session.pk}/tables/1/")
    kept_for_a_drop(page)
    context.set_offline(True)
    assert still_kept(page), "the copy was lost when the connection went"
    page.reload()
    expect(page.locator(".board-hand")).to_have_text("Hand 1")
    context.close()


def test_a_new_release_replaces_the_kept_files_and_keeps_the_table_page(
    live_server, browser, browser_watch, settings, tmp_path
):
    """A deploy that changes a static file makes a new worker (its version is in its code):
    it keeps the new files under a new name, deletes the old cache, and fetches the kept
    table page again (the old copy names files that are gone)."""
    context, page, table = table_tablet(live_server, browser)
    (old_shell,) = [name for name in page.evaluate(KEPT) if name.startswith("shell-")]
    release = tmp_path / "static"
    shutil.copytree(Path(settings.BASE_DIR) / "static", release)
    with (release / "css" / "table.css").open("a") as css:
        css.write("\n/* the next release */\n")
    settings.STATICFILES_DIRS = [release]

    page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
    for _ in range(100):  # the new worker installs, then activates
        kept = page.evaluate(KEPT)
        if len(kept) == 2 and old_shell not in kept:
            break
        page.wait_for_timeout(100)
    assert kept.pop("table-pages") == [table.removeprefix(live_server.url)]
    ((new_shell, files),) = kept.items()
    assert new_shell != old_shell and "/static/css/table.css" in files
    context.set_offline(True)
    allow_what_a_drop_causes(browser_watch, live_server)
    page.reload()
    expect(page.locator(".board-hand")).to_have_text("Hand 1")
    context.close()


def test_a_logout_leaves_nothing_of_the_site_on_a_shared_tablet(
    live_server, browser, browser_watch
):
    allow_what_a_drop_causes(browser_watch, live_server)
    context, page, table = table_tablet(live_server, browser)
    page.evaluate(FILL_STORES)
    assert page.evaluate(STORES)["caches"] != []

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("navigation").get_by_role("link", name="Log in")).to_be_visible()
    assert page.evaluate(STORES) == EMPTY
    assert (
        page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length") == 0
    )

    # Nothing of the table can be read without the connection now.
    context.set_offline(True)
    with pytest.raises(PlaywrightError, match="ERR_INTERNET_DISCONNECTED"):
        page.goto(table)
    context.close()


def test_on_a_plain_http_hall_network_the_logout_clears_the_stores_itself(
    live_server, browser, browser_type, browser_type_launch_args, browser_watch
):
    """A laptop on the hall's own router, reached at http://hall.test: not a secure context,
    so there is no service worker or Cache Storage, and browsers ignore the server's
    Clear-Site-Data. The logout's script clears localStorage, sessionStorage and IndexedDB
    (an outbox, a half-typed hand) itself."""
    port = urlsplit(live_server.url).port
    hall = f"http://hall.test:{port}"
    flags = [*browser_type_launch_args["args"], "--host-resolver-rules=MAP hall.test 127.0.0.1"]
    hall_browser = browser_type.launch(**{**browser_type_launch_args, "args": flags})
    try:
        session = one_named_table("u3a", NAMES)
        start_play(session)
        make_coordinator(UserFactory(username="boss"))
        context = hall_browser.new_context(viewport=TABLET)
        browser_watch.watch(context)
        browser_watch.allow(
            r"console error: The Cross-Origin-Opener-Policy header has been ignored, because "
            r"the URL's origin was untrustworthy",
            "Django's SecurityMiddleware sends it; Chromium ignores it on plain http and says so",
        )
        page = log_in(context.new_page(), hall, "boss")
        page.goto(f"{hall}/play/{session.pk}/tables/1/")
        expect(page.locator(".board-hand")).to_have_text("Hand 1")
        assert page.evaluate("() => [window.isSecureContext, 'serviceWorker' in navigator]") == [
            False,
            False,
        ]
        page.evaluate(FILL_STORES)
        stores = page.evaluate(STORES)
        assert kept(stores) == FILLED

        page.get_by_role("button", name="Log out").click()
        expect(page.get_by_role("navigation").get_by_role("link", name="Log in")).to_be_visible()
        assert page.evaluate(STORES) == {**EMPTY, "caches": None}
    finally:
        hall_browser.close()


def test_a_listener_can_stop_the_logout_and_let_it_go_on(live_server, browser, browser_watch):
    """The hook for the outbox: a cancelled "club:before-clear" clears nothing and logs out
    no one; its detail.proceed() then logs out and clears."""
    context, page, table = table_tablet(live_server, browser)
    page.evaluate(FILL_STORES)
    page.evaluate(
        """() => document.addEventListener("club:before-clear", (event) => {
             event.preventDefault();
             window.stoppedLogout = event.detail;
           })"""
    )
    page.get_by_role("button", name="Log out").click()
    page.wait_for_function("() => window.stoppedLogout !== undefined")
    stores = page.evaluate(STORES)
    assert kept(stores) == FILLED
    expect(page.locator(".site-footer")).to_contain_text("Logged in as boss")

    page.evaluate("() => window.stoppedLogout.proceed()")
    expect(page.get_by_role("navigation").get_by_role("link", name="Log in")).to_be_visible()
    assert page.evaluate(STORES) == EMPTY
    context.close()


def test_logging_out_without_a_connection_clears_nothing_and_says_so(
    live_server, browser, browser_watch
):
    allow_what_a_drop_causes(browser_watch, live_server)
    context, page, table = table_tablet(live_server, browser)
    page.evaluate(FILL_STORES)
    context.set_offline(True)
    browser_watch.allow(
        r"console error: Failed to load resource: net::ERR_INTERNET_DISCONNECTED "
        r"\(\S*/accounts/logout/\)",
        "the logout sent without a connection: the point of the test",
    )
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("alert")).to_have_text(
        "Logging out needs the connection. Nothing has been cleared: "
        "press “Log out” again when the Wi-Fi is back."
    )
    stores = page.evaluate(STORES)
    assert kept(stores) == FILLED
    assert stores["caches"] != []

    context.set_offline(False)
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("navigation").get_by_role("link", name="Log in")).to_be_visible()
    assert page.evaluate(STORES) == EMPTY
    context.close()


def test_a_logout_away_from_the_table_page_warns_of_hands_still_waiting(
    live_server, browser, browser_watch
):
    """Hands left waiting in a table page's outbox (sending stopped, say, and the tablet
    went on to another page, where the outbox is not loaded): the first Log out only says
    so; the second logs out and clears them."""
    context, page, table = table_tablet(live_server, browser)
    page.goto(live_server.url + "/")
    page.evaluate(
        """() => localStorage.setItem("table-outbox:7",
             JSON.stringify({entries: [{key: "a"}, {key: "b"}, {key: "c"}], stopped: null}))"""
    )
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("alert")).to_have_text(
        "3 hands are waiting on this tablet to be sent. Open the table’s page with the Wi-Fi "
        "on to send them. To log out anyway (they will be lost), press “Log out” again."
    )
    expect(page.locator(".site-footer")).to_contain_text("Logged in as boss")
    assert "table-outbox:7" in page.evaluate(STORES)["local"]

    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("navigation").get_by_role("link", name="Log in")).to_be_visible()
    assert page.evaluate(STORES) == EMPTY
    context.close()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_the_page_links_names_the_club_and_its_icons_load(
    live_server, browser, browser_watch
):
    context, page, table = table_tablet(live_server, browser)
    link = page.locator("link[rel=manifest]").get_attribute("href")
    answer = context.request.get(live_server.url + link)
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["start_url"] == manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    sizes = {}
    for icon in manifest["icons"]:
        image = context.request.get(live_server.url + icon["src"])
        assert image.status == 200 and image.headers["content-type"] == "image/png"
        width, height = png_size(image.body())
        assert icon["sizes"] == f"{width}x{height}"
        sizes[icon["purpose"]] = sizes.get(icon["purpose"], []) + [width]
    assert sizes == {"any": [192, 512], "maskable": [512]}
    touch = page.locator("link[rel=apple-touch-icon]").get_attribute("href")
    assert png_size(context.request.get(live_server.url + touch).body()) == (180, 180)
    assert page.locator("meta[name=theme-color]").get_attribute("content") == "#0b5d1e"
    context.close()


@pytest.mark.parametrize("viewport", [PHONE, TABLET], ids=["phone", "tablet"])
def test_the_offline_page_is_plain_and_large(live_server, browser, browser_watch, viewport):
    allow_what_a_drop_causes(browser_watch, live_server)
    context, page, table = table_tablet(live_server, browser, viewport)
    context.set_offline(True)
    page.goto(f"{live_server.url}/standings/")
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    size = page.evaluate("() => getComputedStyle(document.querySelector('h1')).fontSize")
    assert float(size.removesuffix("px")) >= 36  # larger than any other page's heading
    where = f"the offline page at {viewport['width']} px"
    assert axe_violations(page, where) + small_targets(page, where) == []
    page.screenshot(path=f"/tmp/offline-page-{viewport['width']}.png", full_page=True)
    context.close()
