"""Accounts and the base layout: logging in and out, changing a password, friendly errors."""

import re
from pathlib import Path

from django.urls import reverse

from tests.factories import PASSWORD, UserFactory


def test_home_page_invites_anonymous_users_to_log_in(client, club):
    page = client.get(reverse("home")).content.decode()
    assert club.name in page
    assert f'href="{reverse("login")}"' in page


def test_log_in_and_out(client, club):
    user = UserFactory()
    response = client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert f"Logged in as <strong>{user.username}</strong>" in client.get("/").content.decode()
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert "Logged in as" not in client.get("/").content.decode()


def test_a_wrong_password_is_explained_and_the_username_kept(client, club):
    user = UserFactory()
    response = client.post(reverse("login"), {"username": user.username, "password": "nope"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "That username and password do not match" in page
    assert f'value="{user.username}"' in page


def test_change_password(client, club):
    user = UserFactory()
    client.force_login(user)
    new = "green-dragon-east-wind"
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


def test_change_password_mismatch_is_named(client, club):
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": "green-dragon-1", "new_password2": "other-22"},
    )
    assert response.status_code == 200
    assert "didn’t match" in response.content.decode()


def test_base_layout_is_accessible_and_htmx_ready(client, club):
    page = client.get(reverse("home")).content.decode()
    assert '<html lang="en-GB">' in page
    assert 'class="skip-link" href="#main"' in page and 'id="main"' in page
    assert 'name="viewport"' in page
    # htmx comes from django-htmx's static files, never a CDN.
    script = re.search(r'<script[^>]+src="([^"]+htmx[^"]*)"', page)
    assert script and script.group(1).startswith("/static/")
    assert "https://" not in script.group(1)
    assert re.search(r"<body hx-headers='\{\"X-CSRFToken\": \"[^\"]+\"\}'>", page)


def test_base_font_is_at_least_18px():
    css = (Path(__file__).resolve().parent.parent / "static/css/app.css").read_text()
    base = re.search(r"html \{ font-size: (\d+(?:\.\d+)?)%", css)
    phone = re.search(r"@media \(max-width: 40rem\) \{\s*html \{ font-size: (\d+(?:\.\d+)?)%", css)
    assert base and float(base.group(1)) / 100 * 16 >= 18
    assert phone and float(phone.group(1)) / 100 * 16 >= 18


def test_friendly_404(client, club):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "Sorry, we cannot find that page" in response.content.decode()


def test_friendly_500_page_renders_without_context():
    from django.template.loader import render_to_string

    assert "Sorry, something went wrong" in render_to_string("500.html")


def _menu_links(client) -> list[str]:
    page = client.get(reverse("menu")).content.decode()
    menu = page[page.index('class="menu-list"') :]
    menu = menu[: menu.index("</ul>")]
    return re.findall(r">\s*([^<>]+?)\s*</(?:a|button)>", menu)


def test_the_menu_page_lists_every_link_for_a_coordinator(coordinator_client):
    assert _menu_links(coordinator_client) == [
        "Home",
        "Members",
        "Sessions",
        "Results",
        "Last week's tables",
        "Our rules",
        "Score a hand",
        "Settings",
        "My data",
        "Password",
        "Log out",
    ]


def test_the_menu_page_for_a_member_and_a_visitor(client, member_client):
    assert _menu_links(member_client) == [
        "Home",
        "Results",
        "Last week's tables",
        "Our rules",
        "Score a hand",
        "My data",
        "Password",
        "Log out",
    ]
    member_client.logout()
    assert _menu_links(client) == ["Home", "Log in"]


def test_every_page_links_to_the_menu_for_phones(member_client):
    page = member_client.get(reverse("home")).content.decode()
    assert f'<li class="nav-keep phone-only"><a href="{reverse("menu")}"' in page
