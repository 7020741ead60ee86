"""The site's own pages on an installation of many clubs, as a visitor and a new club's
coordinator meet them on a phone and a tablet: the list of clubs, starting a club (with a
mistake first), the new club's first-evening guide, its settings with its own time zone and
currency, and an address that names no club. axe-core and tap-target checks on each, and
screenshots to look at in test-results/site/."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from club.models import Club, Coordinator
from tests.browser.helpers import axe_violations, small_targets
from tests.factories import ClubFactory

SIZES = {"phone": {"width": 390, "height": 844}, "tablet": {"width": 1024, "height": 768}}
SHOTS = Path("test-results/site")


def problems(page, where: str) -> list[str]:
    return axe_violations(page, where) + small_targets(page, where)


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_club_starts_itself_on_the_site(
    live_server, browser, browser_watch, settings, transactional_db, size
):
    settings.CLUB_SIGNUP = True
    browser_watch.allow(
        r"(answer 404: GET|status of 404).*/c/no-such-club/",
        "an address that names no club, on purpose: its 404 page is looked at",
    )
    ClubFactory(name="Riverside U3A Mahjong", slug="riverside")
    ClubFactory(name="Tuesday Tiles", slug="tuesday-tiles")
    Club.objects.serve_at_root(None)  # a site of signed-up clubs: none is at its root
    page = browser.new_page(viewport=SIZES[size])
    base = live_server.url
    found = []

    page.goto(base + "/")
    expect(page.get_by_role("heading", name="Find your club")).to_be_visible()
    expect(page.get_by_role("link", name="Tuesday Tiles")).to_be_visible()
    found += problems(page, "the list of clubs")
    shot(page, f"{size}-1-clubs")

    page.goto(base + "/c/no-such-club/")
    expect(page.get_by_text("There is no club at the address")).to_be_visible()
    found += problems(page, "an unknown address")
    shot(page, f"{size}-2-not-found")

    page.goto(base + "/")
    page.get_by_role("link", name="Start your club here").click()
    page.get_by_label("The club's name").fill("Harbour Mahjong")
    address = page.get_by_label("The club's address")
    address.fill("tuesday-tiles")  # taken: the page says so and keeps the entries
    # No rule set is chosen for the club: not choosing one is the second mistake.
    expect(page.get_by_role("radio", checked=True)).to_have_count(0)
    page.get_by_label("Your login name").fill("harbour-boss")
    page.get_by_label("Your password", exact=True).fill("a-long-harbour-password")
    page.get_by_label("Your password again").fill("a-long-harbour-password")
    page.get_by_role("button", name="Start the club").click()
    expect(page.get_by_text("tuesday-tiles").first).to_be_visible()
    expect(page.get_by_label("The club's name")).to_have_value("Harbour Mahjong")
    expect(page.locator(".error-text", has_text="Please choose the rules")).to_be_visible()
    found += problems(page, "sign-up with a taken address")
    shot(page, f"{size}-3-signup-refused")

    address.fill("harbour")
    page.get_by_role("radio", name="Fan (a simple fan table)").check()
    page.get_by_label("Your password", exact=True).fill("a-long-harbour-password")
    page.get_by_label("Your password again").fill("a-long-harbour-password")
    page.get_by_role("button", name="Start the club").click()
    page.wait_for_url(base + "/c/harbour/")
    expect(page.get_by_role("heading", name="Your first evening in three steps")).to_be_visible()
    found += problems(page, "the new club's home")
    shot(page, f"{size}-4-first-evening")

    club = Club.objects.get(slug="harbour")
    assert Coordinator.objects.filter(club=club, user__username="harbour-boss").exists()

    page.goto(base + "/c/harbour/settings/")
    page.get_by_label("The club's time zone").select_option("Pacific/Auckland")
    page.get_by_label("The club's money: its symbol").fill("$")
    page.get_by_role("button", name="Save settings").click()
    found += problems(page, "the new club's settings")
    shot(page, f"{size}-5-settings")
    club.refresh_from_db()
    assert (club.time_zone, club.currency_symbol, club.rule_set) == ("Pacific/Auckland", "$", "fan")
    assert found == []


@pytest.mark.parametrize("size", list(SIZES))
def test_an_empty_installation_is_set_up_in_the_browser(
    live_server, browser, browser_watch, transactional_db, size
):
    """The setup page (front/first_setup.py): a wrong code first (named, entries kept), then
    the code from the server's log (here `manage.py setup_code`'s, as an operator who missed
    it gets one); the operator lands at the new club's first steps, and the page is gone."""
    from front.first_setup import new_setup_code

    browser_watch.allow(r"(answer 404: GET|status of 404).*/setup/", "the used setup page")
    page = browser.new_page(viewport=SIZES[size])
    base = live_server.url
    found = []

    page.goto(base + "/")
    expect(page.get_by_role("heading", name="Set up this site")).to_be_visible()
    found += problems(page, "the setup page")
    shot(page, f"{size}-6-setup")

    code = new_setup_code()
    page.get_by_label("The setup code").fill("ABCD-EFGH-JKMN")
    page.get_by_label("Your login name (the site's operator)").fill("operator")
    page.get_by_label("Your password", exact=True).fill("a-long-operator-password")
    page.get_by_label("Your password again").fill("a-long-operator-password")
    page.get_by_label("The club's name").fill("Harbour Mahjong")
    page.get_by_role("radio", name="Fan (a simple fan table)").check()
    page.get_by_label("The club's time zone").select_option("Australia/Hobart")
    page.get_by_role("button", name="Set up the site").click()
    expect(
        page.locator(".error-text", has_text="not this installation's setup code")
    ).to_be_visible()
    expect(page.get_by_label("The club's name")).to_have_value("Harbour Mahjong")
    expect(page.get_by_label("The club's time zone")).to_have_value("Australia/Hobart")
    found += problems(page, "the setup page with a wrong code")
    shot(page, f"{size}-7-setup-wrong-code")

    page.get_by_label("The setup code").fill(code)
    page.get_by_label("Your password", exact=True).fill("a-long-operator-password")
    page.get_by_label("Your password again").fill("a-long-operator-password")
    page.get_by_role("button", name="Set up the site").click()
    page.wait_for_url(base + "/")
    expect(page.get_by_role("heading", name="Your first evening in three steps")).to_be_visible()
    found += problems(page, "the new installation's first club")
    shot(page, f"{size}-8-setup-done")
    club = Club.objects.get()
    assert (club.slug, club.rule_set, club.time_zone) == (
        "harbour-mahjong",
        "fan",
        "Australia/Hobart",
    )
    assert club.served_at_root

    page.goto(base + "/setup/")
    expect(page.get_by_role("heading", name="Sorry, we cannot find that page")).to_be_visible()
    assert found == []
