"""What many browser tests do: log in through the real login form."""

from playwright.sync_api import expect

from tests.factories import PASSWORD


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
