"""A member's calendar page on a phone: make the address, copy it with the button (no hover,
the clipboard really holds it), renew it; axe and tap targets at phone size, the width at
phone and tablet size, and screenshots to look at in test-results/calendar/."""

from pathlib import Path

from playwright.sync_api import expect

from club.calendar_feed.models import CalendarAddress
from tests.browser.helpers import axe_violations, log_in, small_targets
from tests.factories import ClubFactory, MemberFactory, UserFactory

SHOTS = Path("test-results/calendar")


def test_a_member_makes_copies_and_renews_their_calendar_address(
    live_server, browser, transactional_db
):
    club = ClubFactory(name="Riverside U3A Mahjong")
    user = UserFactory(username="rosa")
    member = MemberFactory(club=club, user=user, table_name="Rosa")
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        permissions=["clipboard-read", "clipboard-write"],
    )
    page = log_in(context.new_page(), live_server.url, "rosa")
    page.goto(live_server.url + "/")
    page.get_by_role("link", name="Your calendar").click()
    expect(page.get_by_role("heading", name="Your calendar", exact=True)).to_be_visible()
    expect(page.get_by_text("often only every few hours")).to_be_visible()
    page.get_by_role("button", name="Make my calendar address").click()

    token = CalendarAddress.objects.get(member=member).token
    address = page.get_by_label("The address", exact=True)
    expect(address).to_have_value(f"{live_server.url}/calendar/{token}.ics")
    webcal = live_server.url.replace("http://", "webcal://") + f"/calendar/{token}.ics"
    expect(page.get_by_role("link", name="Add to my calendar")).to_have_attribute("href", webcal)
    page.get_by_role("button", name="Copy the address").click()
    expect(page.get_by_role("status").filter(has_text="Copied")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == address.input_value()
    found = axe_violations(page, "the calendar page") + small_targets(page, "the calendar page")
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "phone.png"), full_page=True)

    page.get_by_role("button", name="Renew the address").click()
    expect(page.get_by_text("The old one no longer works")).to_be_visible()
    renewed = CalendarAddress.objects.get(member=member).token
    assert renewed != token
    expect(address).to_have_value(f"{live_server.url}/calendar/{renewed}.ics")
    page.set_viewport_size({"width": 1024, "height": 768})
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
    page.screenshot(path=str(SHOTS / "tablet.png"), full_page=True)
    context.close()
    assert found == []
