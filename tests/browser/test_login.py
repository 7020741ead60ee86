from playwright.sync_api import expect

from tests.demo_club import COORDINATOR_LOGIN


def test_coordinator_logs_in_and_sees_the_club_home_page(live_server, page, demo_club):
    club = demo_club
    page.goto(live_server.url)
    page.get_by_role("link", name="Log in").first.click()
    page.get_by_label("Username").fill(COORDINATOR_LOGIN[0])
    page.get_by_label("Password").fill(COORDINATOR_LOGIN[1])
    page.get_by_role("button", name="Log in").click()
    # The demo has a session today, so the coordinator's home is the evening's steps.
    expect(page.get_by_role("heading", level=1)).to_contain_text("Tonight:")
    expect(page.get_by_text("(coordinator)")).to_be_visible()
    expect(page.get_by_role("link", name="Settings")).to_be_visible()
    expect(page.get_by_role("link", name="Menu")).to_be_hidden()  # only on phones
    assert club.name in page.title()
