"""A member finds how they did with no tap after logging in (their home page shows their
last evening's result and place and their season place), and the season standings of the
demo club's 24 members fit a phone: place, name and total a row, the rest a tap away.

Each step leaves a screenshot in test-results/how-did-i-do/ to look at."""

import re
from pathlib import Path

from playwright.sync_api import expect

from tests.browser.helpers import axe_violations, log_in, small_targets
from tests.demo_club import MEMBER_LOGIN

PHONE = {"width": 390, "height": 844}
TABLET = {"width": 1024, "height": 768}
SHOTS = Path("test-results/how-did-i-do")
# The standings of 24 members on a 390 px phone were 10,057 px tall when each member was a
# card of eight lines; a row each (the rest on a tap) keeps them under a third of that
# (3,062 px when measured).
PHONE_BOARD_MAX_PX = 10_057 // 3


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def in_first_screen(locator, viewport) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] + box["height"] <= viewport["height"]


def height(page) -> int:
    return page.evaluate("document.documentElement.scrollHeight")


def test_a_member_sees_how_they_did_on_a_phone_with_no_tap(live_server, browser, demo_club):
    base = live_server.url
    page = browser.new_context(viewport=PHONE, has_touch=True).new_page()
    log_in(page, base, *MEMBER_LOGIN)  # the login lands on the home page
    # No tap: the last evening's result and place, and the season place, on the first screen.
    evening = page.locator("#your-last-evening")
    season = page.locator("#your-season")
    expect(evening).to_have_text(
        re.compile(r"^\s*Last \w+, \d+ \w+\s+[+−]?\d+ (points|chips), (joint )?\d+\w\w of \d+\s*$")
    )
    expect(season).to_have_text(
        re.compile(
            r"^\s*This season \(.+\)\s+(joint )?\d+\w\w of \d+ ranked, total [+−]?\d+ (points|chips)\s*$"
        )
    )
    assert in_first_screen(season, PHONE), "the season place is below the first screen"
    shot(page, "phone-home")
    problems = axe_violations(page, "home") + small_targets(page, "home")
    home_evening = " ".join(evening.inner_text().split())
    home_season = " ".join(season.inner_text().split())

    # The figures are the results pages' own.
    page.get_by_role("link", name=re.compile(r"^Everyone's results")).click()
    result, place, of = re.search(
        r"([+−]?\d+) (?:points|chips), ((?:joint )?\d+\w\w) of (\d+)$", home_evening
    ).groups()
    expect(page.locator("#your-place")).to_contain_text(f"of {of} tonight, with {result}")
    expect(page.locator("#your-place")).to_contain_text(place.removeprefix("joint "))
    page.go_back()

    # The standings: own place and last evening at the top, then the latest evening's link.
    page.get_by_role("link", name="Season standings").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Season standings")
    top = page.locator("#your-standing")
    season_place = re.search(
        r"((?:joint )?\d+\w\w) of (\d+) ranked, total ([+−]?\d+) (points|chips)", home_season
    )
    expect(top).to_contain_text(
        f"You are {season_place[1]} of {season_place[2]} ranked members, "
        f"total {season_place[3]} {season_place[4]}."
    )
    expect(top).to_contain_text(result)
    assert in_first_screen(top, PHONE)
    latest = page.get_by_role("link", name="The latest evening's results")
    assert in_first_screen(latest, PHONE), "the latest evening's link is below the first screen"

    # A row each: 24 members, a page of about a third of the old height.
    rows = page.locator(".compact-board summary")
    expect(rows).to_have_count(24)
    expect(page.locator("table.standings-table")).to_be_hidden()
    board_height = height(page)
    print(f"standings on a 390 px phone, 24 members: {board_height} px")
    assert board_height < PHONE_BOARD_MAX_PX, board_height
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-standings")
    page.screenshot(path=str(SHOTS / "phone-standings-first-screen.png"))
    for row in rows.all():
        box = row.bounding_box()
        assert box["height"] >= 44, box  # a tap target for older hands

    # Own row marked in the list; a tap opens its other figures, a second tap closes them.
    mine = page.locator(".compact-board li.me")
    expect(mine).to_have_count(1)
    expect(mine.locator("summary")).to_contain_text("Brian (you)")
    expect(mine.locator("summary")).to_contain_text(season_place[3])
    figures = mine.locator("dl")
    expect(figures).to_be_hidden()
    mine.locator("summary").tap()
    expect(figures).to_be_visible()
    for label in ["Average", "Sessions", "Hands won", "Win rate", "Placing points", "Best hand"]:
        expect(figures.get_by_text(label, exact=True)).to_be_visible()
    expect(mine.get_by_role("link", name="Brian's results, evening by evening")).to_be_visible()
    shot(page, "phone-standings-row-open")
    problems += axe_violations(page, "standings, a row open") + small_targets(page, "standings")
    mine.locator("summary").tap()
    expect(figures).to_be_hidden()

    # Sorting still works on the phone: the third column becomes the figure sorted by.
    sort = page.get_by_role("navigation", name="Sort the standings")
    sort.get_by_text("Sort by:").click()  # the choices are folded into one line
    sort.get_by_role("link", name="Hands won").click()
    expect(page).to_have_url(re.compile(r"sort=won&dir=desc$"))
    expect(page.locator(".cb-head")).to_contain_text("Hands won")
    expect(rows.first).to_contain_text(re.compile(r"\d+ of \d+"))
    shot(page, "phone-standings-by-hands-won")
    assert problems == [], "\n".join(problems)


def test_the_standings_on_a_tablet_keep_the_full_table(live_server, browser, demo_club):
    base = live_server.url
    page = browser.new_page(viewport=TABLET)
    log_in(page, base, *MEMBER_LOGIN)
    expect(page.locator("#your-last-evening")).to_be_visible()
    expect(page.locator("#your-season")).to_be_visible()
    shot(page, "tablet-home")
    problems = axe_violations(page, "home (tablet)")
    page.goto(base + "/standings/")
    expect(page.locator("#your-standing")).to_contain_text("You are")
    assert in_first_screen(page.locator("#your-standing"), TABLET)
    table = page.locator("table.standings-table")
    expect(table).to_be_visible()
    expect(table.locator("tbody tr")).to_have_count(24)
    expect(table.locator("tr.me")).to_contain_text("Brian (you)")
    expect(page.locator(".compact-board")).to_be_hidden()
    print(f"standings on a 1024 px tablet, 24 members: {height(page)} px")
    shot(page, "tablet-standings")
    problems += axe_violations(page, "standings (tablet)")
    assert problems == [], "\n".join(problems)
