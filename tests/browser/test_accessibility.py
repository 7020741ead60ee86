"""Accessibility in a real browser: axe-core's default rules (WCAG 2.1 A/AA and its best
practices, every impact) on every main page, and tap targets large enough for older hands
on a phone."""

from playwright.sync_api import expect

from club.models import Club, Session
from games.models import Match
from scoring.corrections import Void, correct_hand
from tests.browser.helpers import axe_violations, log_in, small_targets
from tests.demo_club import COORDINATOR_LOGIN, MEMBER_LOGIN

PHONE = {"width": 390, "height": 844}


def problems_on(page, url: str) -> list[str]:
    page.goto(url)
    return problems_here(page, url)


def problems_here(page, url: str) -> list[str]:
    """Axe and tap targets on the page as it is now (e.g. after an htmx swap)."""
    return axe_violations(page, url) + small_targets(page, url)


def test_coordinator_pages_pass_axe_and_have_big_targets(live_server, browser, demo_club):
    page = browser.new_page(viewport=PHONE)
    base = live_server.url
    log_in(page, base, *COORDINATOR_LOGIN)
    tonight = Session.objects.order_by("-date").first()
    # A seating to look at: make it the way the coordinator would.
    page.goto(f"{base}/club/sessions/{tonight.pk}/seating/manage/")
    page.get_by_role("button", name="Make the seating").click()
    expect(page.get_by_role("heading", name="Table 1")).to_be_visible()

    problems = problems_on(page, base + "/")  # Tonight, before play
    for path in [
        "/club/sessions/{tonight.pk}/seating/manage/",
    ]:
        problems += problems_on(page, base + path.format(tonight=tonight))
    # Publish and start play, so the tables' pages exist (with the dice shown).
    Club.objects.update(show_dice=True)
    page.get_by_role("button", name="Publish").click()
    page.goto(f"{base}/club/sessions/{tonight.pk}/")
    page.get_by_role("button", name="Start play at the tables").click()
    expect(page.get_by_role("link", name="Table 1")).to_be_visible()
    table = f"{base}/play/{tonight.pk}/tables/1/"
    problems += problems_on(page, table)
    page.get_by_role("button", name="Throw the dice to break the wall").click()
    expect(page.locator("#dice")).to_contain_text("wall")
    page.get_by_role("button", name="Record a draw for hand 1").click()
    expect(page.get_by_role("button", name="Save hand 2")).to_be_visible()
    problems += problems_here(page, table + " (after the dice and a draw)")
    # The tile picker, empty and then with a complete hand scored item by item.
    full = f"{base}/play/{tonight.pk}/tables/1/full/"
    problems += problems_on(page, full)
    tiles = page.locator(".picker-tiles")
    for _ in range(3):
        tiles.get_by_role("button", name="5 Dots", exact=True).click()
    page.get_by_role("button", name="Pong of 5 Dots").click()
    for label in ["1 Bamboo", "2 Bamboo", "3 Bamboo"] * 3 + ["Red dragon"] * 2:
        tiles.get_by_role("button", name=label, exact=True).click()
    page.locator(".picker-how").get_by_label("Self-drawn from the wall").check()
    page.locator(".picker-how").get_by_role("group", name="Who won?").get_by_role(
        "radio"
    ).first.check()
    expect(page.locator(".breakdown-total")).to_be_visible()
    problems += problems_here(page, full + " (a hand scored)")
    # Scoresheets and corrections: a past evening's match with a corrected hand, and
    # tonight's table 2 for the paper sheet (no hands yet).
    played = Match.objects.filter(hands__isnull=False).distinct().order_by("pk").first()
    correct_hand(played, 2, Void(), "Recorded twice", by=None)
    paper_match = Match.objects.get(session=tonight, table_number=2)
    for path in [
        f"/scoring/matches/{played.pk}/",
        f"/scoring/matches/{played.pk}/hands/1/correct/",
        f"/scoring/sessions/{played.session_id}/changes/",
        f"/scoring/sessions/{tonight.pk}/blank-sheets/",
        f"/scoring/matches/{paper_match.pk}/paper/",
    ]:
        problems += problems_on(page, base + path)
    # A refused paper sheet, with its row named.
    page.get_by_label("Hand 1: who won").fill("9")
    page.get_by_label("Hand 1: how (w, r, d, k or x)").fill("w")
    page.get_by_role("button", name="Save the whole sheet").click()
    expect(page.get_by_role("alert").first).to_contain_text("Row 1:")
    problems += problems_here(page, "paper sheet (refused)")
    # Every other page, as every role, is walked by test_every_page_in_a_browser.py; here the
    # variants that walk does not open: the Paid ticks, a sorted board.
    Club.objects.update(collects_table_money=True, table_money=2)  # the Paid ticks
    for path in [
        f"/club/sessions/{tonight.pk}/check-in/",
        "/standings/?sort=win_rate&dir=desc",
    ]:
        problems += problems_on(page, base + path)
    assert problems == []


def test_member_and_public_pages_pass_axe_and_have_big_targets(
    live_server, browser, demo_club, browser_watch
):
    base = live_server.url
    browser_watch.allow(r"/no-such-page/", "the not-found page is visited on purpose")
    page = browser.new_page(viewport=PHONE)
    problems = problems_on(page, base + "/") + problems_on(page, base + "/accounts/login/")
    problems += problems_on(page, base + "/no-such-page/")
    log_in(page, base, *MEMBER_LOGIN)
    # The member's other pages are walked by test_every_page_in_a_browser.py.
    problems += problems_on(page, base + "/scoring/practice/")
    page.locator(".picker-tiles").get_by_role("button", name="East wind", exact=True).click()
    expect(page.locator(".picker-status")).to_be_visible()
    problems += problems_here(page, base + "/scoring/practice/ (a hand being built)")
    assert problems == []
