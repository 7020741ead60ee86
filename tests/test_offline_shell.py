"""The installable, offline-capable shell (front/offline.py): the manifest, the service
worker and the offline page at the site's root, with one club and with several; the one
rule for what the worker may keep, checked against every URL the site has; and nothing a
login sees left behind by a browser or a logout.

The worker itself, in Chromium: tests/browser/test_offline_shell.py."""

import json
import re
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.templatetags.static import static
from django.test import Client, override_settings
from django.urls import reverse
from django_htmx.jinja import htmx_script

from club.models import Club, Member, Session
from club.views.accounts import CLEAR_ON_LOGOUT
from front import offline
from tests.factories import ClubFactory, CoordinatorFactory, MemberFactory, UserFactory
from tests.test_security_enumerated import HTMX, client_for, urls, walk, world  # noqa: F401

pytestmark = pytest.mark.django_db

IMG = Path(settings.BASE_DIR) / "static" / "img"
PRODUCTION_STORAGE = "whitenoise.storage.CompressedManifestStaticFilesStorage"


def in_club(club, url: str) -> str:
    return f"/c/{club.slug}{url}"


def worker_shell(response) -> dict:
    """The SHELL the server wrote into the worker's code."""
    text = response.content.decode()
    return json.loads(re.search(r"^const SHELL = (.*);$", text, re.MULTILINE).group(1))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", data[16:24])


# --- at the root, with one club and with several --------------------------------------------


def test_one_club_installs_under_its_own_name_at_the_root_and_at_its_address(client, club):
    for address, home in (("/", "/"), (in_club(club, "/"), in_club(club, "/"))):
        response = client.get(address + "manifest.webmanifest")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/manifest+json"
        assert response["Cache-Control"] == "no-cache"
        manifest = response.json()
        assert manifest["name"] == manifest["short_name"] == club.name
        assert manifest["id"] == manifest["start_url"] == manifest["scope"] == home
        assert manifest["display"] == "standalone"
        # Its pages link this manifest, at the address they are served from.
        page = client.get(address + "accounts/login/").content.decode()
        assert f'<link rel="manifest" href="{home}manifest.webmanifest">' in page
        assert '<meta name="theme-color" content="#0b5d1e">' in page
        assert '<link rel="apple-touch-icon" href="/static/img/apple-touch-icon.png">' in page


def test_with_several_clubs_each_installs_its_own_and_the_root_is_the_sites(client, club):
    other = ClubFactory(name="Tuesday Tiles")
    Club.objects.serve_at_root(None)  # no club at the root: it is the site's (its list)
    site = client.get("/manifest.webmanifest")
    assert site.status_code == 200 and site["Content-Type"] == "application/manifest+json"
    assert site.json()["name"] == "Mahjong clubs"
    assert site.json()["start_url"] == site.json()["scope"] == "/"
    assert '<link rel="manifest" href="/manifest.webmanifest">' in client.get("/").content.decode()
    for each in (club, other):
        manifest = client.get(in_club(each, "/manifest.webmanifest")).json()
        assert manifest["name"] == each.name
        assert manifest["start_url"] == manifest["scope"] == in_club(each, "/")


def test_the_manifests_icons_are_real_pngs_of_their_sizes(client, club):
    manifest = client.get("/manifest.webmanifest").json()
    assert {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]} == {
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
    }
    for icon in manifest["icons"]:
        name = icon["src"].removeprefix(settings.STATIC_URL)
        width, height = png_size(Path(settings.BASE_DIR) / "static" / name)
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
        served = client.get(icon["src"])
        assert served.status_code == 200 and served["Content-Type"] == "image/png"
    assert png_size(IMG / "apple-touch-icon.png") == (180, 180)


@pytest.mark.parametrize("clubs", [1, 2], ids=["one club", "several clubs"])
def test_the_worker_and_the_offline_page_are_at_the_root_asking_nothing_of_the_database(
    client, club, clubs, django_assert_num_queries
):
    if clubs == 2:
        ClubFactory(name="Tuesday Tiles")
    with django_assert_num_queries(0):
        worker = client.get("/sw.js")
        page = client.get("/offline/")
    assert worker.status_code == 200
    assert worker["Content-Type"] == "text/javascript; charset=utf-8"
    assert worker["Cache-Control"] == "no-cache"
    assert "Service-Worker-Allowed" not in worker  # its own folder, the root, is its scope
    assert page.status_code == 200
    text = page.content.decode()
    assert "<h1>No connection</h1>" in text
    assert "The table page still works; this page needs the connection." in text
    assert "<script" not in text  # kept for every club: nothing that could run stale


def test_the_worker_is_registered_from_a_file_on_pages_for_a_login(client, club):
    client.force_login(CoordinatorFactory())
    page = client.get(in_club(club, "/")).content.decode()
    assert (
        '<script src="/static/js/offline-shell.js" data-worker="/sw.js" data-scope="/" defer>'
        in page
    )
    assert '<script src="/static/js/logout.js" defer></script>' in page
    assert "data-clear-device" in page  # the logout form the script looks after
    anonymous = Client().get(in_club(club, "/")).content.decode()
    assert "offline-shell.js" not in anonymous


def test_the_policy_lets_the_worker_and_the_manifest_load(client, club):
    """worker-src and manifest-src are not named: they fall back to script-src and
    default-src, both 'self'."""
    policy = client.get("/accounts/login/")["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert "worker-src" not in directives and "manifest-src" not in directives
    assert directives["script-src"] == directives["default-src"] == "'self'"


# --- what the worker keeps --------------------------------------------------------------------


def test_the_worker_keeps_every_static_file_htmx_and_the_offline_page(client, club):
    shell = worker_shell(client.get("/sw.js"))
    own = sorted(
        path.relative_to(settings.BASE_DIR / "static").as_posix()
        for path in (settings.BASE_DIR / "static").rglob("*")
        if path.is_file() and not path.name.startswith(".")
    )
    assert shell["files"] == [f"/static/{name}" for name in own] + [
        "/static/django_htmx/htmx-2.min.js",
        "/offline/",
    ]
    assert {"/static/js/table.js", "/static/css/table.css", "/static/js/logout.js"} <= set(
        shell["files"]
    )
    assert shell["offline"] == "/offline/"
    assert shell["tablePage"] == offline.TABLE_PAGE
    assert re.fullmatch(r"[0-9a-f]{16}", shell["version"])
    # The htmx the pages load is the one kept.
    assert f'src="{static(offline.HTMX)}"' in htmx_script()


def test_a_change_to_any_kept_file_is_a_new_version(tmp_path, settings):
    (tmp_path / "js").mkdir()
    kept = tmp_path / "js" / "table.js"
    kept.write_text("// one")
    settings.STATICFILES_DIRS = [tmp_path]
    first = offline.shell("/offline/")
    assert first["files"][0] == "/static/js/table.js"
    assert offline.shell("/offline/")["version"] == first["version"]
    kept.write_text("// two")
    assert offline.shell("/offline/")["version"] != first["version"]


def test_in_production_the_worker_keeps_the_files_hashed_names(client, club, production_static):
    """ManifestStaticFilesStorage names each file by its contents: the worker keeps the
    addresses the pages link, each a file `collectstatic` wrote."""
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": PRODUCTION_STORAGE}}
    with override_settings(STORAGES=storages, STATIC_ROOT=production_static):
        files = worker_shell(client.get("/sw.js"))["files"]
        page = client.get("/accounts/login/").content.decode()
    statics = [f for f in files if f.startswith("/static/")]
    assert len(statics) == len(files) - 1
    for address in statics:
        assert re.search(r"\.[0-9a-f]{12}\.", address), address
        assert (production_static / address.removeprefix("/static/")).is_file(), address
    app_css = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', page).group(1)
    assert app_css in files


def test_the_worker_may_keep_the_table_page_and_no_other_page_the_site_has(club):
    """Every URL pattern, at the root and in a club's address: only the table page matches
    the rule the worker keeps pages by (the server's list of files aside, nothing else)."""
    other = ClubFactory(name="Tuesday Tiles")
    rule = re.compile(offline.TABLE_PAGE)
    keepable = set()
    checked = 0
    for name, _, keys in walk():
        path = reverse(name, kwargs=dict.fromkeys(keys, 7))
        for address in (path, in_club(other, path)):
            checked += 1
            if rule.match(address):
                keepable.add(name)
    assert keepable == {"scoring:table"}
    assert checked > 2 * 80  # the walk really went through the patterns
    for address in ("/admin/", "/static/css/app.css", "/sw.js", "/offline/", "/"):
        assert not rule.match(address)
    # Nor a table's writes, its poll, or the table page with something added.
    for tail in ("win/", "live/", "undo/", "?next=/club/members/"):
        assert not rule.match(f"/play/7/tables/1/{tail}")


# --- nothing left behind ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "host, secure",
    [("localhost:8000", False), ("127.0.0.1:8000", False), ("club.example", True)],
)
def test_logout_asks_the_browser_to_clear_the_sites_cache_and_stores(client, club, host, secure):
    client.force_login(UserFactory())
    response = client.post(reverse("logout"), HTTP_HOST=host, secure=secure)
    assert response.status_code == 302
    assert response["Clear-Site-Data"] == CLEAR_ON_LOGOUT == '"cache", "storage"'
    assert "no-store" in response["Cache-Control"]


def test_on_a_plain_http_network_logout_leaves_the_clearing_to_the_page(client, club):
    """Browsers ignore Clear-Site-Data from an insecure origin and log an error saying so:
    on a hall's plain-http network static/js/logout.js clears the stores instead."""
    client.force_login(UserFactory())
    response = client.post(reverse("logout"), HTTP_HOST="192.168.8.10:8000")
    assert response.status_code == 302
    assert "Clear-Site-Data" not in response
    assert client.get(reverse("scoring:rules")).wsgi_request.user.is_anonymous


def test_every_page_showing_contact_details_is_never_stored(world):  # noqa: F811
    """Emails, phone numbers and notes planted on every member: each page a coordinator can
    open that shows any of them (plainly or as htmx asks) says no-store. Such pages today:
    a member's page and form, the import preview's, a session's notes; and every other page
    for a login (members list, attendance, settings ...) says the same."""
    planted = []
    for n, member in enumerate(Member.objects.all()):
        member.email = f"planted{n}@private.example"
        member.phone = f"07700 91{n:04d}"
        member.notes = f"Planted note {n} xyzzy"
        member.save()
        planted += [member.email, member.phone, member.notes]
    Session.objects.update(notes="Session note plugh")
    planted.append("Session note plugh")
    client = client_for(world["coordinator"])
    showing, stored = set(), []
    answered = 0
    for name, url in urls(world):
        if name in ("manifest", "service_worker"):
            continue  # the same for everyone, naming no one: "no-cache", always asked again
        if name in ("calendar_feed", "public_calendar_feed"):
            # Opened by the token in its address, not by the login (the same answer logged in
            # or not), with no contact details: "private, no-cache", for calendar apps' ETags.
            continue
        for extra in ({}, HTMX):
            response = client.get(url, **extra)
            answered += 1
            control = response.get("Cache-Control", "")
            if "no-store" not in control:
                stored.append(f"{name} {url} {response.status_code} {control!r}")
            readable = response.status_code == 200 and not response.streaming
            if readable and any(value in response.content.decode() for value in planted):
                showing.add(name)
    assert stored == [], "Kept by a browser:\n" + "\n".join(stored)
    assert {"club:member_detail", "club:member_edit", "club:session_detail"} <= showing
    assert answered > 150


@pytest.mark.parametrize(
    "page", ["club:member_list", "scoring:attendance", "club_settings", "club:member_detail"]
)
def test_contact_pages_say_no_store_and_said_nothing_before(client, club, page):
    """Before this, these pages sent no Cache-Control at all: a shared tablet's HTTP cache
    (or its Back button after a logout) could show them to the next person."""
    member = MemberFactory(club=club, email="someone@private.example")
    client.force_login(CoordinatorFactory())
    url = reverse(page, kwargs={"pk": member.pk} if page == "club:member_detail" else {})
    response = client.get(url)
    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"


def test_a_visitor_without_a_session_may_have_public_pages_kept(client, club):
    """Only answers to a login (or a session: a table's tablet) are kept from caches: a
    visitor's public pages are not slowed down for it."""
    response = client.get(reverse("login"))
    assert "no-store" in response["Cache-Control"]  # Django's own never_cache
    assert "Cache-Control" not in client.get(reverse("scoring:rules"))
