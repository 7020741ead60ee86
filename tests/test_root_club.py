"""A second club never moves the first. The club served at the site's root keeps every
address when another club starts (by `create_club` or by a stranger's sign-up): for every
URL pattern the site has, the same answer before and after, to a visitor, a member, the
coordinator and a table's tablet, and the same answer at its own `/c/<slug>/` address.
(Once, a sign-up made every root address a 404 mid-evening: the tablets' pages, their
kept copies and home-screen icons, `/standings/`, `/accounts/login/`.)"""

import html
import importlib
import io
import json

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from club.models import Club
from tests.test_security_enumerated import urls, world  # noqa: F401 (world: a fixture)

pytestmark = pytest.mark.django_db

TABLET = "table 1's tablet"
NEW_CLUB = {
    "name": "Tuesday Tiles",
    "slug": "tuesday-tiles",
    "rule_set": "classical",
    "username": "tuesday-boss",
    "password1": "tiles-and-tea-2026",
    "password2": "tiles-and-tea-2026",
    "email": "",
}


def start_by_command() -> Club:
    call_command(
        "create_club",
        *("--slug", "friday-tiles", "--name", "Friday Tiles"),
        *("--coordinator", "friday-boss", "--password", NEW_CLUB["password1"]),
        stdout=io.StringIO(),  # its words: tests/test_create_club.py
    )
    return Club.objects.get(slug="friday-tiles")


def start_by_signup() -> Club:
    """A stranger's sign-up, in a browser of their own."""
    response = Client().post("/signup/", NEW_CLUB)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert response["Location"] == f"/c/{NEW_CLUB['slug']}/"
    return Club.objects.get(slug=NEW_CLUB["slug"])


def visitors(world) -> dict[str, Client]:  # noqa: F811
    """Who opens the club's pages: each keeps its own browser (cookies) throughout."""
    clients = {"visitor": Client(), "coordinator": Client()}
    clients["coordinator"].force_login(world["coordinator"])
    tablet = Client()  # opened its table by the card's code, as the tablets do
    assert tablet.get(f"/t/{world['table_key'].code}/").status_code == 302
    clients[TABLET] = tablet
    return clients


def answer(response) -> tuple:
    """What a page answers, as far as it must not change: the status, where a redirect
    goes, and the whole body of what is not an HTML page (the manifest's start address, a
    download)."""
    kind = response.get("Content-Type", "")
    body = None
    if not kind.startswith("text/html") and not response.streaming:
        body = response.content
        if "json" in kind:
            body = json.loads(body)
    return response.status_code, response.get("Location"), body


def answers(clients, addresses, prefix="") -> dict:
    return {
        (name, role): answer(client.get(prefix + url))
        for name, url in addresses
        for role, client in clients.items()
        # Typing the card's code makes a browser the table's tablet: the tablet's alone.
        if name != "table_key_enter" or role == TABLET
    }


def test_every_address_of_the_club_at_the_root_answers_the_same_after_other_clubs_start(
    world,  # noqa: F811
    settings,
):
    settings.CLUB_SIGNUP = True  # the site lets strangers start clubs (the worst case)
    club = world["club"]
    assert Club.objects.get(pk=club.pk).served_at_root  # the installation's first club
    clients = visitors(world)
    addresses = urls(world)
    assert len(addresses) > 90  # every pattern, not a few
    before = answers(clients, addresses)
    assert sum(status == 404 for status, _, _ in before.values()) < len(before) / 4

    for how, start in (("create_club", start_by_command), ("sign-up", start_by_signup)):
        new = start()
        after = answers(clients, addresses)
        changed = [
            f"{key}: {before[key]} -> {after[key]}" for key in before if after[key] != before[key]
        ]
        assert changed == [], how
        # The new club is at its own address only; the root is the first club's still.
        assert not new.served_at_root
        assert f"Welcome to {new.name}" in Client().get(f"/c/{new.slug}/").content.decode()
        assert f"Welcome to {club.name}" in Client().get("/").content.decode()
    # The first club's own address answers as the root does (a redirect stays within it).
    prefix = f"/c/{club.slug}"
    at_address = answers({"coordinator": clients["coordinator"]}, addresses, prefix)
    for (name, role), (status, location, _) in at_address.items():
        root_status, root_location, _ = before[(name, role)]
        assert status == root_status, (name, status, root_status)
        if location != root_location:  # the same place, inside the club's address
            assert location.replace(prefix, "") == root_location, (name, location)


# --- Which club is at the root, and who changes it ------------------------------------------


def start_on_an_empty_installation(way: str, client, settings, tmp_path=None) -> Club:
    if way == "the setup page":
        from tests.test_first_setup import entries, fresh_code

        assert client.post("/setup/", entries(fresh_code())).status_code == 302
        return Club.objects.get()
    if way == "create_club":
        return start_by_command()
    if way == "import_club":
        from front import backup

        data = json.loads(
            backup.to_json(backup.export_club(Club.objects.create(name="Old", slug="old")))
        )
        Club.objects.all().delete()
        path = tmp_path / "old.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        out = io.StringIO()
        call_command("import_club", str(path), "--slug", "restored", stdout=out)
        assert "so it is also served at the site's root (/)" in out.getvalue()
        return Club.objects.get()
    settings.CLUB_SIGNUP = True
    return start_by_signup()


@pytest.mark.parametrize("way", ["the setup page", "create_club", "import_club"])
def test_the_first_club_takes_the_root_in_the_write_that_makes_it(client, settings, tmp_path, way):
    club = start_on_an_empty_installation(way, client, settings, tmp_path)
    assert club.served_at_root
    assert f"Welcome to {club.name}" in Client().get("/").content.decode()


def test_the_demo_club_is_at_the_root(demo_club):
    assert Club.objects.get(slug="riverside").served_at_root


def test_a_stranger_signing_up_first_does_not_take_the_root(client, settings):
    """On a site that lets clubs sign up, the root is the operators' to give: it lists the
    clubs, the new one among them."""
    club = start_on_an_empty_installation("sign-up", client, settings)
    assert not Club.objects.filter(served_at_root=True).exists()
    page = Client().get("/").content.decode()
    assert "Find your club" in page and f'href="/c/{club.slug}/">{club.name}' in page


def test_the_operators_move_the_root_with_a_command(settings):
    first, second = start_by_command(), Club.objects.create(name="Second", slug="second")
    out = io.StringIO()
    call_command("club_at_root", stdout=out)
    assert (
        out.getvalue()
        == "“Friday Tiles” is served at the site's root (/) and at /c/friday-tiles/.\n"
    )
    call_command("club_at_root", "second", stdout=io.StringIO())
    assert list(Club.objects.filter(served_at_root=True)) == [second]
    assert "Welcome to Second" in Client().get("/").content.decode()
    out = io.StringIO()
    call_command("club_at_root", "--none", stdout=out)
    assert "No club is served at the site's root: it lists the clubs." in out.getvalue()
    assert "Find your club" in Client().get("/").content.decode()
    with pytest.raises(CommandError, match="There is no club with the address “nowhere”."):
        call_command("club_at_root", "nowhere")
    call_command("club_at_root", first.slug, stdout=io.StringIO())
    settings.HOME_CLUB = "second"
    out = io.StringIO()
    call_command("club_at_root", stdout=out)
    assert "While the setting HOME_CLUB=second is there, “Second” is served" in out.getvalue()


def test_the_operators_move_the_root_in_the_admin(client):
    first, second = start_by_command(), Club.objects.create(name="Second", slug="second")
    client.force_login(
        get_user_model().objects.create_superuser("operator", password="x-long-pass")
    )
    listing = client.get("/admin/club/club/")
    assert "Serve the chosen club at the site&#x27;s root" in listing.content.decode()
    action = {"action": "serve_at_root", "_selected_action": [first.pk, second.pk]}
    page = client.post("/admin/club/club/", action, follow=True).content.decode()
    assert "Please choose one club." in page and Club.objects.get(pk=first.pk).served_at_root
    action["_selected_action"] = [second.pk]
    page = client.post("/admin/club/club/", action, follow=True).content.decode()
    assert "Second is served at the site&#x27;s root, and at /c/second/." in page
    assert list(Club.objects.filter(served_at_root=True)) == [second]


def record_the_root():
    migration = importlib.import_module("club.migrations.0013_club_at_the_root")
    Club.objects.update(served_at_root=False)
    migration.record_the_root(django_apps, None)
    return list(Club.objects.filter(served_at_root=True).values_list("slug", flat=True))


def test_the_upgrade_records_the_root_each_installation_had(settings):
    """A one-club installation's club, or HOME_CLUB's; several clubs keep their list; a
    sign-up site holding only its untouched first club keeps its root for the list."""
    Club.objects.create(name="Riverside", slug="riverside")
    assert record_the_root() == ["riverside"]
    Club.objects.create(name="Second", slug="second")
    assert record_the_root() == []
    settings.HOME_CLUB = "second"
    assert record_the_root() == ["second"]
    settings.HOME_CLUB = "no-such-club"
    assert record_the_root() == []
    Club.objects.all().delete()
    settings.HOME_CLUB, settings.CLUB_SIGNUP = "", True
    Club.objects.current()  # the empty club a first request made
    assert record_the_root() == []
    settings.CLUB_SIGNUP = False
    assert record_the_root() == ["our-club"]


# --- One rule for a club's address, wherever one is set --------------------------------------

BAD_ADDRESSES = [
    "admin",
    "signup",
    "admin-",
    "club-",
    "cl--ub",
    "-club",
    "tiles_club",
    "ab",
    "9-tiles",
]


def refusal_by(path: str, slug: str, settings) -> str:
    """What `path` answers when asked for a club at `slug` (it must refuse)."""
    if path == "sign-up":
        settings.CLUB_SIGNUP = True
        page = Client().post("/signup/", {**NEW_CLUB, "slug": slug})
        assert page.status_code == 200
        return page.content.decode()
    if path == "create_club":
        with pytest.raises(CommandError) as refusal:
            call_command("create_club", f"--slug={slug}", "--name", "X", "--coordinator", "x",
                         "--password", NEW_CLUB["password1"], stdout=io.StringIO())  # fmt: skip
        return str(refusal.value)
    if path == "import_club":
        from front import backup

        data = json.loads(backup.to_json(backup.export_club(Club.objects.get(slug="old-club"))))
        with pytest.raises(backup.BackupRefused) as refusal:
            backup.import_club(data, slug=slug)
        return str(refusal.value)
    with pytest.raises(ValidationError) as refusal:  # the admin's form checks the model's rule
        Club(name="X", slug=slug).full_clean()
    return " ".join(refusal.value.message_dict["slug"])


@pytest.mark.parametrize("path", ["sign-up", "create_club", "import_club", "admin"])
def test_every_way_to_set_an_address_refuses_the_same_addresses(path, settings):
    Club.objects.create(name="Old", slug="old-club")
    for slug in BAD_ADDRESSES:
        words = html.unescape(refusal_by(path, slug, settings))
        if slug in ("admin", "signup"):
            assert f"The address “{slug}” is kept for the site itself." in words, (path, slug)
        else:
            assert "with one dash between two words and none at the end" in words, (path, slug)
    assert list(Club.objects.values_list("slug", flat=True)) == ["old-club"]
