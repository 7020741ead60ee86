"""A member on a phone (375 x 667) finds their place in the evening's results and the
season's standings, sorts the standings with a tap (the address keeps the choice), and
their chart has a text alternative."""

import re

from playwright.sync_api import expect

from tests.browser.helpers import log_in
from tests.demo_club import MEMBER_LOGIN

PHONE = {"width": 375, "height": 667}
TALL_PHONE = {"width": 390, "height": 844}


def test_a_member_finds_their_place_on_a_phone(live_server, browser, demo_club):
    base = live_server.url
    page = browser.new_page(viewport=PHONE)
    log_in(page, base, *MEMBER_LOGIN)
    page.get_by_role("link", name="Results", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Season standings")
    expect(page.locator("#your-standing")).to_contain_text("You are")
    # On a phone the board is place, name and total a row (the full table is for wider
    # screens; tests/browser/test_how_did_i_do.py has the rest).
    mine = page.locator(".compact-board li.me")
    expect(mine).to_contain_text("(you)")
    # Sorting: a tap on "Hands won" swaps the board and the address keeps the choice.
    # The choices are folded into one line that names the order shown.
    sort = page.get_by_role("navigation", name="Sort the standings")
    expect(sort.locator("summary")).to_have_text("Sort by: Place (lowest first)")
    sort.locator("summary").click()
    sort.get_by_role("link", name="Hands won").click()
    expect(page).to_have_url(re.compile(r"/standings/\?season=[0-9-]+&sort=won&dir=desc$"))
    expect(sort.locator("summary")).to_have_text("Sort by: Hands won (highest first)")
    expect(page.locator(".cb-head")).to_contain_text("Hands won")
    page.reload()
    expect(page.locator(".cb-head")).to_contain_text("Hands won")
    expect(sort.locator("summary")).to_have_text("Sort by: Hands won (highest first)")
    # Nothing wider than the phone's screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # The whole season's standings, 24 members, within three screens of a 390x844 phone,
    # in the same large type (a row is one tap target high).
    page.set_viewport_size(TALL_PHONE)
    page.goto(base + "/standings/")
    expect(page.locator(".cb-list summary")).to_have_count(24)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 3 * TALL_PHONE["height"], f"{height} px: {height / 844:.2f} screens"
    rows = page.locator(".cb-list summary").evaluate_all(
        "rows => rows.map(r => [r.getBoundingClientRect().height, getComputedStyle(r).fontSize])"
    )
    assert all(44 <= h < 50 and size == "20.7px" for h, size in rows), rows[:3]
    page.set_viewport_size(PHONE)
    page.goto(base + "/standings/?sort=won&dir=desc")

    page.get_by_role("link", name="Latest evening", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Results for")
    expect(page.locator("#your-place")).to_contain_text("You are")
    expect(page.locator("tr.me")).to_contain_text("(you)")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.locator("tr.me").get_by_role("link").first.click()
    chart = page.get_by_role("img")
    expect(chart).to_have_accessible_name(
        re.compile(r"^Brian's result \(points\) each session of the .+ season$")
    )
    expect(chart).to_have_accessible_description(
        re.compile(r"^10 sessions, total [+−0-9]+\. Best ")
    )
    # The same figures as a table, for anyone who cannot read the chart.
    expect(page.get_by_role("table").first.get_by_role("row")).to_have_count(11)
