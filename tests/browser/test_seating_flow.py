"""The seating evening in a real browser: check in, make the seating, swap by tapping two
names, publish, find your table."""

import datetime

from playwright.sync_api import expect

from club.models import Club, Member, Seat, SeatingPlan, Session
from club.roles import make_coordinator
from tests.browser.helpers import log_in, log_out
from tests.factories import UserFactory

NAMES = ["Margaret", "Brian", "Sheila", "Derek", "Jean", "Keith", "Pauline", "Graham"]


def test_coordinator_seats_the_room_and_a_member_finds_their_table(
    live_server, page, transactional_db
):
    club = Club.objects.create(name="Riverside Mahjong")
    people = [Member.objects.create(club=club, name=f"{n} Test", table_name=n) for n in NAMES]
    boss = UserFactory(username="boss")
    make_coordinator(boss)
    brian = people[1]
    brian.user = UserFactory(username="brian")
    brian.save()
    session = Session.objects.create(club=club, date=datetime.date.today(), venue="The Hall")

    # The coordinator checks everyone in on the attendance page.
    log_in(page, live_server.url, "boss")
    page.goto(f"{live_server.url}/club/sessions/{session.pk}/check-in/")
    for name in NAMES:
        button = page.locator(f"#member-{Member.objects.get(table_name=name).pk} button.toggle")
        button.click()
        expect(page.locator(f"#member-{Member.objects.get(table_name=name).pk}")).to_contain_text(
            "Here"
        )
    assert session.attendances.filter(left_at__isnull=True).count() == 8

    # Makes the seating from the session's page.
    page.goto(f"{live_server.url}/club/sessions/{session.pk}/")
    page.get_by_role("link", name="Make the seating").click()
    expect(page.get_by_text("8 people are checked in")).to_be_visible()
    page.get_by_role("button", name="Make the seating").click()
    expect(page.get_by_role("heading", name="Table 2")).to_be_visible()
    expect(page.locator(".status-draft")).to_contain_text("members cannot see it yet")

    # Swaps two people at different tables.
    plan = SeatingPlan.objects.get(session=session)
    first = Seat.objects.get(plan=plan, table__number=1, position=1).member
    second = Seat.objects.get(plan=plan, table__number=2, position=1).member
    page.get_by_role("button", name=first.table_name, exact=True).click()
    expect(page.get_by_role("status")).to_contain_text(f"{first.table_name} is chosen")
    page.get_by_role("button", name=second.table_name, exact=True).click()
    expect(page.get_by_role("status")).to_contain_text(f"{first.table_name} now sits at table 2")
    assert Seat.objects.get(plan=plan, member=first).table.number == 2

    # Publishes it: re-roll and swap are no longer offered.
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_role("button", name="Unpublish to change")).to_be_visible()
    expect(page.get_by_role("button", name="Re-roll")).to_have_count(0)
    expect(page.locator(".seat-pick")).to_have_count(0)  # names are no longer buttons
    assert SeatingPlan.objects.get(pk=plan.pk).status == SeatingPlan.Status.PUBLISHED
    log_out(page)

    # Brian logs in on his phone and finds his table.
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, live_server.url, "brian")
    seat = Seat.objects.get(plan=plan, member=brian)
    expect(page.get_by_role("heading", name="Your table tonight")).to_be_visible()
    seat_words = page.locator(".big-seat")  # the table and seat, large, at the top
    expect(seat_words.nth(0)).to_have_text(f"Table {seat.table.number}")
    expect(seat_words.nth(1)).to_have_text(f"Seat {seat.get_wind_display()}")
    page.get_by_role("link", name="See every table").click()
    expect(page.get_by_role("heading", name="Find your table")).to_be_visible()
    expect(page.locator(".your-table")).to_have_text(
        f"You are at table {seat.table.number}, seat {seat.get_wind_display()}."
    )
