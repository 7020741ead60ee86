"""The login page and an evening's results in Chromium, on a tablet and a phone: logging in
with the username in other capitals, the refusal's plain words, and the results of an evening
where a table changed twice and some matches had nothing in them, with axe at zero (its
"landmark-unique" rule included: each table's section has a name of its own)."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import axe_violations, small_targets
from tests.factories import PASSWORD, ClubFactory, MemberFactory, UserFactory
from tests.scoring.test_evening_tables import changed_twice

SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}
SHOTS = Path("test-results/words")


@pytest.mark.parametrize("size", SIZES)
def test_login_in_any_case_and_the_evening_results(live_server, browser, transactional_db, size):
    club = ClubFactory()
    session = changed_twice(club)
    MemberFactory(club=club, user=UserFactory(username="Sheila"), table_name="Sheila")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport=SIZES[size])
    base = live_server.url
    problems = []

    page.goto(base + "/accounts/login/")
    page.get_by_label("Username").fill("sheila")
    page.get_by_label("Password").fill("not-her-password")
    page.get_by_role("button", name="Log in").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("That username and password do not match")
    assert "case" not in alert.inner_text().lower()
    expect(page.get_by_label("Username")).to_have_value("sheila")
    problems += axe_violations(page, "login, refused") + small_targets(page, "login, refused")
    page.screenshot(path=SHOTS / f"login-refused-{size}.png", full_page=True)

    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Username").fill("SHEILA")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".site-footer")).to_contain_text("Logged in as Sheila")

    page.goto(f"{base}/standings/evening/{session.pk}/")
    headings = page.get_by_role("heading", level=3)
    expect(headings).to_have_text(
        [
            "Table 2",
            "Table 3 (until the table changed)",
            "Table 4, first part (until the table changed)",
            "Table 4, second part (until the table changed)",
            "Table 4, third part",
        ]
    )
    for name in ("Table 4, first part (until the table changed)", "Table 4, third part"):
        expect(page.get_by_role("region", name=name)).to_be_visible()
    third = page.get_by_role("region", name="Table 4, third part").get_by_role("listitem")
    expect(third.first).to_contain_text("1st:")
    problems += axe_violations(page, "evening") + small_targets(page, "evening")
    page.screenshot(path=SHOTS / f"evening-{size}.png", full_page=True)
    page.get_by_role("heading", name="The tables").scroll_into_view_if_needed()
    page.screenshot(path=SHOTS / f"evening-tables-{size}.png")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= SIZES[size]["width"], f"the page is {width} px wide"
    assert problems == []
