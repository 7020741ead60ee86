"""What many browser tests do: log in through the real login form."""

from playwright.sync_api import expect

from tests.factories import PASSWORD


def log_in(page, base_url: str, username: str, password: str = PASSWORD):
    """Log in on the login page and wait until the site shows the user logged in (any home:
    "Welcome", or a coordinator's Tonight page on a session day). Returns the page."""
    page.goto(base_url + "/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    return page
