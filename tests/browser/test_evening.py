"""The coordinator's evening and the members' phones, in a real browser: the Tonight
page's steps on a tablet, check-in (counts in view, paid ticks, a walk-in without a
reload) and a member's home, last week's tables and "Our rules" on a phone; a member's
"I'm coming" on a phone and the coordinator's picture and draft seating on a tablet."""

import datetime
import re
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from club.models import Club, Member, SeatingTable, Session
from tests.browser.helpers import axe_violations, log_in, small_targets
from tests.club.seating.helpers import played, published
from tests.factories import CoordinatorFactory, UserFactory

TABLET = {"width": 800, "height": 1280}
PHONE = {"width": 390, "height": 844}
TODAY = datetime.date.today()


@pytest.fixture
def club(transactional_db):
    return Club.objects.create(name="Riverside Mahjong", odd_tables="five")


def people(club, n, **kwargs):
    return [
        Member.objects.create(
            club=club, name=f"Person {i:02d} Test", table_name=f"Person {i:02d}", **kwargs
        )
        for i in range(n)
    ]


def step(page, key):
    return page.locator(f"#step-{key}")


def test_tonight_walks_the_coordinator_through_the_evening_on_a_tablet(browser, live_server, club):
    CoordinatorFactory(username="boss")
    session = Session.objects.create(club=club, date=TODAY, venue="The Hall")
    for member in people(club, 8):
        session.attendances.create(member=member)
    page = log_in(browser.new_page(viewport=TABLET), live_server.url, "boss")

    expect(page.get_by_role("heading", level=1)).to_contain_text("Tonight:")
    expect(page.locator(".lead")).to_contain_text("Next: Seating.")
    expect(step(page, "check_in")).to_contain_text("8 here, 0 not here")
    expect(step(page, "start")).to_contain_text("Publish the seating first")
    expect(step(page, "start").get_by_role("button")).to_have_count(0)
    seating = step(page, "seating").get_by_role("link", name="Seating")
    expect(seating).to_be_in_viewport()
    seating.click()
    page.get_by_role("button", name="Make the seating").click()
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("members can see their tables").first).to_be_visible()

    page.get_by_role("link", name="Home").click()
    expect(step(page, "seating")).to_contain_text("✓ Published")
    expect(page.locator(".evening-step.is-next")).to_have_attribute("id", "step-start")
    expect(step(page, "start")).to_contain_text("Opens a page for each table")
    step(page, "start").get_by_role("button", name="Start play at the tables").click()

    expect(page.get_by_role("heading", level=1)).to_contain_text("Tonight:")  # back here
    expect(step(page, "tables")).to_contain_text("2 tables playing, hand 1")
    expect(step(page, "start")).to_contain_text("✓ Started at 2 tables")
    assert Session.objects.get(pk=session.pk).status == Session.Status.IN_PLAY
    table_two = step(page, "tables").get_by_role("link", name="Table 2")
    expect(table_two).to_be_visible()
    table_two.click()
    expect(page).to_have_url(re.compile(rf"/play/{session.pk}/tables/2/$"))
    page.go_back()

    step(page, "end").get_by_role("link", name="End the evening").click()
    page.get_by_role("button", name="Yes, end the evening").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Tonight:")
    expect(step(page, "end")).to_contain_text("The evening is over: the session is closed")
    # Only the results are left: the main button now, and they open the evening's results.
    expect(page.locator(".evening-step.is-next")).to_have_attribute("id", "step-results")
    assert Session.objects.get(pk=session.pk).is_closed
    step(page, "results").get_by_role("link", name="Tonight's results").click()
    expect(page).to_have_url(re.compile(rf"/standings/evening/{session.pk}/$"))
    page.go_back()

    # The sessions list marks tonight; next week's session is no longer the big button.
    page.get_by_role("navigation").get_by_role("link", name="Sessions").click()
    expect(page.locator(".tonight-mark")).to_have_text("Tonight")
    expect(page.get_by_role("button", name=re.compile("Create next week"))).to_have_class(
        re.compile("secondary")
    )
    icon = page.locator('link[rel="icon"][type="image/svg+xml"]').get_attribute("href")
    answer = page.request.get(live_server.url + icon)
    assert answer.ok and answer.headers["content-type"].startswith("image/svg+xml")


def test_check_in_on_a_phone_counts_stay_in_view_paid_and_a_walk_in_without_reload(
    browser, live_server, club
):
    Club.objects.filter(pk=club.pk).update(collects_table_money=True, table_money=Decimal("2.50"))
    CoordinatorFactory(username="boss")
    session = Session.objects.create(club=club, date=TODAY)
    everyone = people(club, 30)
    session.attendances.create(member=everyone[0])
    page = log_in(browser.new_page(viewport=PHONE), live_server.url, "boss")
    page.goto(f"{live_server.url}/club/sessions/{session.pk}/check-in/")
    page.evaluate("window.stillThisPage = true")
    counts = page.locator("#checkin-counts")
    expect(counts).to_contain_text("1 here")
    expect(counts).to_contain_text("0 paid: £0.00")

    # Far down the list the counts are still on screen and follow each tap.
    last = page.locator(f"#member-{everyone[-1].pk}")
    last.get_by_role("button", name=re.compile("Person 29")).click()
    expect(counts).to_contain_text("2 here")
    assert page.evaluate("window.scrollY") > 1000
    expect(counts).to_be_in_viewport()
    last.get_by_role("button", name=re.compile("Paid £2.50")).click()
    expect(last.get_by_role("button", name=re.compile("✓ Paid £2.50"))).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(counts).to_contain_text("1 paid: £2.50")
    expect(counts).to_be_in_viewport()

    # A walk-in: added where the coordinator is, no reload, no jump to the top.
    page.get_by_label("Name of the walk-in or guest").fill("Zelda Visitor")
    page.get_by_role("button", name="Check them in").click()
    notice = page.locator("#walk-in [role=status]")
    expect(notice).to_contain_text("Zelda Visitor is added as a guest and checked in")
    expect(notice).to_be_in_viewport()
    expect(counts).to_contain_text("3 here")
    expect(counts).to_be_in_viewport()
    assert page.evaluate("window.stillThisPage === true")
    assert page.evaluate("window.scrollY") > 1000
    zelda = page.locator("#checkin-list li").last
    expect(zelda).to_contain_text("Zelda")
    expect(zelda).to_contain_text("✓ Here")
    expect(page.get_by_label("Name of the walk-in or guest")).to_have_value("")
    expect(page.get_by_label("Name of the walk-in or guest")).to_be_focused()


def test_a_members_phone_table_first_last_week_and_our_rules(browser, live_server, club):
    user = UserFactory(username="betty")
    everyone = people(club, 7, experience=Member.Experience.BEGINNER)
    me = Member.objects.create(club=club, name="Betty Shaw", table_name="Betty", user=user)
    played(club, [[me, *everyone[:3]], everyone[3:]], TODAY - datetime.timedelta(days=7))
    tonight = Session.objects.create(club=club, date=TODAY)
    for member in [me, *everyone]:
        tonight.attendances.create(member=member)
    plan = published(tonight)
    SeatingTable.objects.filter(plan=plan).update(locked=True)
    seat = plan.seats.get(member=me)
    Club.objects.filter(pk=club.pk).update(rule_options={"limit": 1000})

    page = log_in(browser.new_page(viewport=PHONE), live_server.url, "betty")
    number = page.locator(".big-seat strong").first
    expect(number).to_have_text(str(seat.table.number))
    expect(number).to_be_in_viewport()  # at the top, without scrolling
    font = page.evaluate("el => parseFloat(getComputedStyle(el).fontSize)", number.element_handle())
    assert font >= 48
    expect(page.locator(".big-seat strong").nth(1)).to_have_text(seat.get_wind_display())

    page.get_by_role("link", name="See every table").click()
    expect(page.get_by_role("heading", name="Find your table")).to_be_visible()
    expect(page.get_by_text("Locked")).to_have_count(0)
    expect(page.get_by_text("Beginner")).to_have_count(0)

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Menu").click()
    page.get_by_role("main").get_by_role("link", name="Last week's tables").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Tables on")
    expect(page.get_by_text("You sat at table 1, seat East.")).to_be_visible()
    expect(page.get_by_role("heading", name="Where everyone sat")).to_be_visible()

    # On a phone the header keeps Home, Results and Menu in one row under the club's name.
    header = page.locator(".site-header")
    assert header.bounding_box()["height"] <= 130
    bar = page.get_by_role("navigation", name="Main")
    expect(bar.get_by_role("link", name="Our rules")).to_be_hidden()
    bar.get_by_role("link", name="Menu").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Menu")
    page.get_by_role("navigation", name="Everything in the club app").get_by_role(
        "link", name="Our rules"
    ).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Our rules")
    expect(page.get_by_text("1000 points (the limit)")).to_be_visible()
    expect(page.get_by_role("heading", name="How payments work")).to_be_visible()
    pong = page.get_by_role("row", name="Minor, concealed 4 points, 1 doubling").first
    expect(pong).to_be_visible()


def test_coming_or_not_in_one_tap_on_a_phone_and_the_picture_and_draft_on_a_tablet(
    browser, live_server, club
):
    """The member's phone answers from the home page in one tap (the row changes in place,
    no reload), changes the answer, and the coordinator's tablet shows the counts, names
    and tables, answers for a member who rang and makes a draft seating from the coming."""
    from club.week.models import SessionReply

    CoordinatorFactory(username="boss")
    user = UserFactory(username="betty")
    me = Member.objects.create(club=club, name="Betty Shaw", table_name="Betty", user=user)
    others = people(club, 6)
    session = Session.objects.create(
        club=club, date=TODAY + datetime.timedelta(days=2), venue="Church hall"
    )
    for member in others[:2]:
        SessionReply.objects.create(session=session, member=member, answer="coming")
    SessionReply.objects.create(
        session=session, member=others[2], answer="not_coming", note="Hospital"
    )

    page = log_in(browser.new_page(viewport=PHONE), live_server.url, "betty")
    page.evaluate("window.stillThisPage = true")
    row = page.locator(f"#week-{session.pk}")
    expect(row).to_contain_text("You have not said yet.")
    problems = axe_violations(page, "phone home") + small_targets(page, "phone home")
    row.get_by_label("Note (optional)").fill("late, about 3 pm")
    row.get_by_role("button", name="I'm coming").click()
    row = page.locator(f"#week-{session.pk}")
    expect(row).to_contain_text("✓ You are coming.")
    expect(row).to_contain_text("late, about 3 pm")
    expect(row.get_by_role("button", name="I'm coming")).to_have_attribute("aria-pressed", "true")
    row.get_by_role("button", name="Not this week").click()
    expect(page.locator(f"#week-{session.pk}")).to_contain_text("You sent apologies.")
    page.locator(f"#week-{session.pk}").get_by_role("button", name="I'm coming").click()
    expect(page.locator(f"#week-{session.pk}")).to_contain_text("✓ You are coming.")
    assert page.evaluate("window.stillThisPage === true"), "the page reloaded"
    problems += axe_violations(page, "phone home answered")
    page.locator("#week").screenshot(path="test-results/week/phone-home-answered.png")
    assert SessionReply.objects.get(member=me).answer == "coming"
    # A time away with no session in it yet: kept, listed, with a way to remove it.
    away_from = TODAY + datetime.timedelta(days=20)
    page.get_by_label("Away from", exact=True).fill(away_from.isoformat())
    page.get_by_label("Back after", exact=True).fill(
        (away_from + datetime.timedelta(days=7)).isoformat()
    )
    page.get_by_role("button", name="Not coming those weeks").click()
    away = page.locator("#away")
    expect(away).to_contain_text("Your times away")
    expect(away.get_by_role("button", name=re.compile("Remove this time away"))).to_be_visible()
    problems += axe_violations(page, "phone home, a time away")
    problems += small_targets(page, "phone home, a time away")
    away.screenshot(path="test-results/week/phone-home-away.png")

    tablet = log_in(
        browser.new_page(viewport={"width": 1024, "height": 768}), live_server.url, "boss"
    )
    tablet.goto(f"{live_server.url}/club/sessions/{session.pk}/")
    picture = tablet.locator("#picture")
    expect(picture).to_contain_text("3 coming, 1 sent apologies, 3 not heard from.")
    expect(picture).to_contain_text("Hospital")
    expect(picture).to_contain_text("The coming make 1 table of three.")
    problems += axe_violations(tablet, "session page") + small_targets(tablet, "session page")
    tablet.get_by_label("Member", exact=True).select_option(
        label=f"{others[3].table_name} ({others[3].name})"
    )
    tablet.get_by_role("button", name="Coming", exact=True).click()
    expect(tablet.locator(".messages, [role=status]").first).to_be_visible()
    expect(picture).to_contain_text("4 coming, 1 sent apologies, 2 not heard from.")
    expect(picture).to_contain_text("1 table of four")
    tablet.screenshot(path="test-results/week/tablet-session-page.png", full_page=True)
    tablet.goto(f"{live_server.url}/club/sessions/{session.pk}/seating/manage/")
    tablet.get_by_role("button", name="Make a draft from the 4 coming").click()
    expect(
        tablet.get_by_text("Here is a draft from those who said they are coming")
    ).to_be_visible()
    problems += axe_violations(tablet, "draft seating")
    # From the members page: the member's own page answers for the next session.
    tablet.goto(f"{live_server.url}/club/members/{others[4].pk}/")
    card = tablet.locator("#next-session")
    expect(card).to_contain_text(f"{others[4].table_name} has not said yet.")
    card.get_by_role("button", name="Not this week").click()
    expect(tablet.locator("#next-session")).to_contain_text("sent apologies")
    problems += axe_violations(tablet, "member's page") + small_targets(tablet, "member's page")
    tablet.screenshot(path="test-results/week/tablet-member-page.png", full_page=True)
    assert problems == []
