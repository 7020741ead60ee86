"""Changing the club's rule set asks first and says what it affects (with JavaScript and
without), and a season played under two rule sets shows its standings apart: checked in
Chromium on a tablet (1024 x 768) and a phone (390 x 844), axe at zero, screenshots kept
in test-results/units/."""

import datetime
from pathlib import Path

import pytest
from playwright.sync_api import expect

from club.models import Club, Member, Session
from tests.browser.helpers import axe_violations, log_in
from tests.factories import ClubFactory, CoordinatorFactory, MemberFactory, UserFactory
from tests.scoring.standings_helpers import play, session_on, win

SIZES = {"tablet": {"width": 1024, "height": 768}, "phone": {"width": 390, "height": 844}}
SHOTS = Path("test-results/units")


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.screenshot(path=str(SHOTS / f"{name}-screen.png"))  # what the screen shows first


def fits(page, size) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]


@pytest.fixture
def mixed_season(transactional_db):
    """A club playing fan, a U3A evening, a fan evening, and tonight a fan table that
    started again under U3A (still in play): as tests/scoring/test_standings_rule_sets.py."""
    club = ClubFactory(rule_set="fan")
    coordinator = CoordinatorFactory()
    user = UserFactory()
    ann = MemberFactory(club=club, user=user, table_name="Ann")
    bob, cat, dan, eve = (
        MemberFactory(club=club, table_name=n) for n in ("Bob", "Cat", "Dan", "Eve")
    )
    today = datetime.date.today()
    s1 = session_on(club, today - datetime.timedelta(days=14))
    play(s1, 1, [ann, bob, cat, dan], [win(0, 40, [21, -7, -7, -7])], rules="u3a")
    s2 = session_on(club, today - datetime.timedelta(days=7))
    play(s2, 1, [ann, bob, cat, dan], [win(0, 8, [300, -100, -100, -100])], rules="fan")
    s3 = session_on(club, today, status=Session.Status.IN_PLAY)
    play(
        s3,
        1,
        [ann, bob, cat, dan],
        [win(0, 5, [150, -50, -50, -50])],
        rules="fan",
        ending="table_changed",
    )
    play(s3, 1, [ann, bob, cat, eve], [win(0, 12, [36, -12, -12, -12])], rules="u3a", ending=None)
    return club, coordinator, user, s3


@pytest.mark.parametrize("size", SIZES)
def test_a_change_of_rule_set_asks_first_with_javascript(live_server, browser, mixed_season, size):
    club, coordinator, _, _ = mixed_season
    page = browser.new_page(viewport=SIZES[size])
    log_in(page, live_server.url, coordinator.username)
    page.goto(live_server.url + "/settings/")
    page.get_by_label("Name", exact=True).fill("Kept Name")
    page.get_by_label("Rule set").select_option("classical")
    # The options swap in at their usual values, with what the change affects.
    expect(page.locator("#id_option_limit")).to_have_value("2000")
    expect(page.locator("#rule-options")).to_contain_text(
        "Changing the rule set to Classical: 1 table is playing now."
    )
    page.get_by_role("button", name="Save settings").click()
    confirm = page.locator("#confirm-rule-set")
    expect(confirm).to_contain_text("Change the rule set from Fan to Classical?")
    expect(confirm).to_contain_text("Tables already playing keep Fan until their match ends")
    expect(confirm).to_contain_text("this season's results so far stay in a separate Fan table")
    expect(page.get_by_label("Name", exact=True)).to_have_value("Kept Name")
    expect(page.locator("#id_option_limit")).to_have_value("2000")
    assert axe_violations(page, f"confirmation {size}") == []
    fits(page, SIZES[size])
    shot(page, f"settings-confirm-{size}")
    page.get_by_role("button", name="Confirm: play Classical").click()
    expect(page.get_by_text("The club's settings are saved.")).to_be_visible()
    club.refresh_from_db()
    assert (club.rule_set, club.name) == ("classical", "Kept Name")


def test_a_change_of_rule_set_asks_first_without_javascript(live_server, browser, mixed_season):
    club, coordinator, _, _ = mixed_season
    context = browser.new_context(viewport=SIZES["phone"], java_script_enabled=False)
    page = context.new_page()
    log_in(page, live_server.url, coordinator.username)
    page.goto(live_server.url + "/settings/")
    page.get_by_label("Rule set").select_option("u3a")
    page.get_by_label("Starting tally").fill("100")
    page.get_by_role("button", name="Save settings").click()
    # The second step: asked, the U3A options at their usual values, the entries kept.
    expect(page.locator("#confirm-rule-set")).to_contain_text("from Fan to U3A?")
    expect(page.locator("#confirm-rule-set")).to_contain_text(
        "U3A results join this season's U3A table"
    )
    expect(page.locator("#id_option_min_points")).to_have_value("3")
    expect(page.get_by_label("Starting tally")).to_have_value("100")
    expect(page.locator(".errorlist")).to_have_count(0)
    shot(page, "settings-confirm-no-js-phone")
    page.get_by_role("button", name="Keep Fan").click()
    expect(page.get_by_text("the rule set stays Fan")).to_be_visible()
    club.refresh_from_db()
    assert (club.rule_set, club.starting_tally) == ("fan", 100)
    context.close()


@pytest.mark.parametrize("size", SIZES)
def test_a_season_under_two_rule_sets_on_a_members_screen(live_server, browser, mixed_season, size):
    club, _, user, tonight = mixed_season
    page = browser.new_page(viewport=SIZES[size])
    log_in(page, live_server.url, user.username)
    shot(page, f"home-{size}")
    expect(page.locator("#your-table-rules")).to_contain_text("still playing U3A rules")
    assert axe_violations(page, f"home {size}") == []

    page.goto(live_server.url + "/standings/")
    tabs = page.get_by_role("navigation", name="This season was played under two rule sets")
    expect(tabs).to_be_visible()
    expect(tabs.get_by_role("link", name="Fan standings (points)")).to_have_attribute(
        "aria-current", "page"
    )
    expect(page.locator("#your-standing")).to_contain_text("+450 points")
    assert axe_violations(page, f"standings fan {size}") == []
    fits(page, SIZES[size])
    shot(page, f"standings-fan-{size}")
    tabs.get_by_role("link", name="U3A standings (chips)").click()
    assert "rules=u3a" in page.url
    expect(page.locator("#your-standing")).to_contain_text("+57 chips")
    assert axe_violations(page, f"standings u3a {size}") == []
    fits(page, SIZES[size])
    shot(page, f"standings-u3a-{size}")

    page.goto(f"{live_server.url}/standings/evening/{tonight.pk}/")
    expect(page.get_by_role("heading", name="Fan results (points)")).to_be_visible()
    expect(page.get_by_role("heading", name="U3A results (chips)")).to_be_visible()
    assert axe_violations(page, f"evening {size}") == []
    fits(page, SIZES[size])
    shot(page, f"evening-{size}")
    page.get_by_role("heading", name="U3A results (chips)").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / f"evening-{size}-u3a-screen.png"))

    ann = Member.objects.get(user=user)
    page.goto(f"{live_server.url}/standings/members/{ann.pk}/")
    expect(page.get_by_role("img")).to_have_count(2)  # a chart per rule set
    assert axe_violations(page, f"member {size}") == []
    fits(page, SIZES[size])
    shot(page, f"member-{size}")
    assert Club.objects.get().rule_set == "fan"
