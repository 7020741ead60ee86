"""The coordinator's seating page on a tablet or a phone: every action answers where the
coordinator is looking, choices read in plain words, swaps by tapping names, the room sheet
prints large. Each test checks what the user sees."""

import datetime
from pathlib import Path

import pytest
from playwright.sync_api import expect

from club.models import Club, Member, Seat, SeatingPlan, Session
from club.seating.changes import make_seating
from tests.browser.helpers import axe_violations, log_in, small_targets, tab_to
from tests.club.seating.helpers import latin_room, played
from tests.factories import CoordinatorFactory

TABLET = {"width": 800, "height": 1280}
TABLET_LANDSCAPE = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
SHOTS = Path("test-results/room")
TODAY = datetime.date.today()


@pytest.fixture
def club(transactional_db):
    return Club.objects.create(name="Riverside Mahjong", odd_tables="five")


@pytest.fixture
def coordinator(transactional_db):
    return CoordinatorFactory(username="boss")


def room(club, n, beginners=0, **session_kwargs):
    people = [
        Member.objects.create(
            club=club,
            name=f"Member {i:02d} Test",
            table_name=f"Member {i:02d}",
            experience="beginner" if i < beginners else "experienced",
        )
        for i in range(n)
    ]
    session = Session.objects.create(club=club, date=TODAY, venue="The Hall", **session_kwargs)
    for member in people:
        session.attendances.create(member=member)
    return people, session


def open_manage(browser, live_server, session, viewport):
    page = browser.new_page(viewport=viewport)
    log_in(page, live_server.url, "boss")
    page.goto(f"{live_server.url}/club/sessions/{session.pk}/seating/manage/")
    page.evaluate("window.stillThisPage = true")  # gone if the page reloads
    return page


def expect_answer_in_view(page, text):
    answer = page.locator("#answer")
    expect(answer).to_contain_text(text)
    expect(answer).to_be_in_viewport()
    expect(answer).to_be_focused()
    assert page.evaluate("window.stillThisPage === true")  # answered by htmx, no reload


def axe_problems(page) -> list[str]:
    return axe_violations(page, page.url) + small_targets(page, page.url)


def name_button(page, member):
    return page.get_by_role("button", name=member.table_name, exact=True)


def table_of(session, member) -> int:
    return Seat.objects.get(plan__session=session, member=member).table.number


def at(session, number, position=1):
    return Seat.objects.get(plan__session=session, table__number=number, position=position).member


def test_tapping_two_names_at_the_bottom_answers_there(live_server, browser, club, coordinator):
    _, session = room(club, 40)  # ten tables: the page is long
    make_seating(session, seed=3)
    page = open_manage(browser, live_server, session, TABLET)
    first, second = at(session, 10), at(session, 9, 2)

    name_button(page, first).scroll_into_view_if_needed()
    name_button(page, first).click()
    expect_answer_in_view(page, f"{first.table_name} is chosen")
    expect(page.get_by_role("button", name=first.table_name)).to_have_attribute(
        "aria-pressed", "true"
    )
    name_button(page, second).click()

    expect_answer_in_view(page, f"{first.table_name} now sits at table 9")
    assert Seat.objects.get(member=first).table.number == 9
    assert Seat.objects.get(member=second).table.number == 10
    assert axe_problems(page) == []


def test_tapping_works_from_the_keyboard(live_server, browser, club, coordinator):
    _, session = room(club, 16)
    make_seating(session, seed=3)
    page = open_manage(browser, live_server, session, PHONE)
    first, second = at(session, 1), at(session, 2)

    tab_to(page, name_button(page, first))  # the keyboard alone: no click, no focus()
    page.keyboard.press("Enter")
    expect_answer_in_view(page, f"{first.table_name} is chosen")
    assert axe_problems(page) == []  # the chosen state too
    tab_to(page, name_button(page, second))
    page.keyboard.press("Space")

    expect_answer_in_view(page, f"{first.table_name} now sits at table 2")
    assert Seat.objects.get(member=first).table.number == 2


def test_a_refused_swap_from_the_lists_answers_beside_them(live_server, browser, club, coordinator):
    _, session = room(club, 24)
    make_seating(session, seed=3)
    page = open_manage(browser, live_server, session, PHONE)
    someone = at(session, 1)
    page.get_by_text("Swap two people by choosing from lists").click()
    label = f"{someone.table_name} (table 1)"
    page.get_by_label("First person").select_option(label=label)
    page.get_by_label("Second person").select_option(label=label)
    page.get_by_role("button", name="Swap them").click()

    expect_answer_in_view(page, "Choose two different people to swap")
    expect(page.get_by_label("First person")).to_have_value(str(someone.pk))  # kept


def test_late_arrival_at_the_bottom_answers_there(live_server, browser, club, coordinator):
    _, session = room(club, 32)
    plan, _ = make_seating(session, seed=3)
    plan.publish()
    late = Member.objects.create(club=club, name="Late Comer", table_name="Latecomer")
    page = open_manage(browser, live_server, session, TABLET)

    page.get_by_label("Who has arrived?").select_option(label="Latecomer")
    page.get_by_role("button", name="Give them a seat").click()

    expect_answer_in_view(page, "Latecomer joins table")
    expect(page.locator("form:has(#late-member) + #answer")).to_have_count(1)  # right below it
    assert Seat.objects.filter(member=late).exists()


def test_a_leaver_beside_a_five_is_offered_the_dreamer_first(
    live_server, browser, club, coordinator
):
    _, session = room(club, 13)  # fours and a five
    plan, _ = make_seating(session, seed=3)
    plan.publish()
    five = next(t for t in plan.tables.all() if t.seats.count() == 5).number
    dreamer = Seat.objects.get(plan=plan, table__number=five, wind="D").member
    leaver = at(session, 1)
    page = open_manage(browser, live_server, session, TABLET)

    page.get_by_label("Who is leaving?").select_option(value=str(leaver.pk))
    page.get_by_role("button", name="Take them out").click()

    choose = page.locator(".choose")
    expect(choose).to_be_in_viewport()
    first_button = choose.get_by_role("button").first
    expect(first_button).to_have_text(
        f"Suggested: {dreamer.table_name}, the Dreamer at table {five}, moves to table 1; "
        "both then have four"
    )
    assert axe_problems(page) == []
    first_button.click()
    expect_answer_in_view(page, f"{leaver.table_name} has left")
    assert sorted(t.seats.count() for t in plan.tables.all()) == [4, 4, 4]


def test_a_table_of_two_shows_a_suggestion_alternatives_and_other_choices(
    live_server, browser, club, coordinator
):
    club.odd_tables = "three"
    club.save()
    _, session = room(club, 23)  # five fours and a three
    plan, _ = make_seating(session, seed=3)
    plan.publish()
    three = next(t for t in plan.tables.all() if t.seats.count() == 3).number
    leaver = at(session, three)
    page = open_manage(browser, live_server, session, PHONE)

    page.get_by_label("Who is leaving?").select_option(value=str(leaver.pk))
    page.get_by_role("button", name="Take them out").click()

    choose = page.locator(".choose")
    expect(choose.get_by_role("button").first).to_contain_text("Suggested:")
    expect(choose.get_by_role("button").first).to_be_in_viewport()
    visible = choose.locator("button:visible")
    expect(visible).to_have_count(4)  # the suggestion, two alternatives, "keeps two"
    expect(choose.get_by_text("Other choices")).to_be_visible()
    for text in visible.all_inner_texts():
        assert "->" not in text and "then ha" in text or "keeps two" in text
    choose.get_by_text("Other choices").click()
    assert choose.locator("button:visible").count() > 4


def test_a_swap_that_brings_back_last_week_asks_first(live_server, browser, club, coordinator):
    people, session = room(club, 8)
    played(club, [people[:4], people[4:]], TODAY - datetime.timedelta(days=7))
    make_seating(session, seed=3)
    page = open_manage(browser, live_server, session, PHONE)
    first = at(session, 1)
    mates = people[:4] if first in people[:4] else people[4:]
    other = next(
        s.member
        for s in Seat.objects.filter(plan__session=session, table__number=2)
        if s.member not in mates
    )
    before = table_of(session, first)

    name_button(page, first).click()
    expect_answer_in_view(page, "is chosen")
    name_button(page, other).click()

    choose = page.locator(".choose")
    expect(choose).to_be_in_viewport()
    expect(choose).to_contain_text("sat together last week")
    assert table_of(session, first) == before
    choose.get_by_role("button", name="Do not swap").click()
    expect_answer_in_view(page, "nobody was swapped")


def test_reroll_asks_before_losing_a_swap_and_undo_brings_it_back(
    live_server, browser, club, coordinator
):
    _, session = room(club, 16)
    make_seating(session, seed=3)
    page = open_manage(browser, live_server, session, TABLET)
    first, second = at(session, 1), at(session, 2)
    name_button(page, first).click()
    expect_answer_in_view(page, "is chosen")
    name_button(page, second).click()
    expect_answer_in_view(page, "now sits at table 2")

    page.get_by_role("button", name="Re-roll").click()
    expect(page.locator(".choose")).to_contain_text("You have changed this seating by hand")
    page.get_by_role("button", name="Re-roll anyway").click()
    expect_answer_in_view(page, "Re-rolled")
    page.get_by_role("button", name="Undo the re-roll").click()
    expect_answer_in_view(page, "Undone: the re-roll.")
    assert Seat.objects.get(member=first).table.number == 2


def test_quality_says_what_was_avoided(live_server, browser, club, coordinator):
    people, session = room(club, 16)
    for weeks in range(3, 0, -1):
        order = people[weeks:] + people[:weeks]
        played(club, [order[i::4] for i in range(4)], TODAY - datetime.timedelta(weeks=weeks))
    make_seating(session, seed=3)
    page = open_manage(browser, live_server, session, PHONE)
    quality = page.locator(".quality")
    expect(quality).to_be_visible()
    text = quality.inner_text()
    assert "no seating can have fewer than" not in text
    assert "were avoided" in text or "fewest possible" in text or "Nobody sits" in text


def test_beginners_each_get_a_table(live_server, browser, club, coordinator):
    people, session = room(club, 24, beginners=6)
    for weeks in range(4, 0, -1):
        order = people[weeks * 5 :] + people[: weeks * 5]
        played(club, [order[i::6] for i in range(6)], TODAY - datetime.timedelta(weeks=weeks))
    make_seating(session, seed=3)
    page = open_manage(browser, live_server, session, TABLET)
    for card in page.locator(".table-card").all():
        expect(card.locator(".badge-beginner")).to_have_count(1)
    expect(page.locator(".quality")).to_contain_text("Beginners: each at a different table.")


def test_the_room_sheet_reads_from_across_the_hall_and_marks_guests(
    live_server, browser, club, coordinator
):
    _, session = room(club, 12)
    guest = Member.objects.create(club=club, name="Vera Visitor", table_name="Vera", is_guest=True)
    session.attendances.create(member=guest)
    plan, _ = make_seating(session, seed=3)
    SeatingPlan.objects.get(pk=plan.pk).publish()
    page = open_manage(browser, live_server, session, TABLET)
    page.goto(f"{live_server.url}/club/sessions/{session.pk}/seating/print/")
    page.emulate_media(media="print")

    sizes = page.eval_on_selector_all(
        ".room-name", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert len(sizes) == 13 and min(sizes) >= 37  # 28pt
    row = page.locator(".room-table li", has_text="Vera")
    expect(row).to_contain_text("(guest)")
    expect(row).to_be_visible()


@pytest.mark.parametrize("viewport", [TABLET_LANDSCAPE, PHONE], ids=["1024x768", "390x844"])
def test_publish_while_a_swap_waits_for_an_answer_asks_for_the_answer_first(
    live_server, browser, club, coordinator, viewport
):
    groups, session = latin_room(club)
    a, b, instead = groups[0][0], groups[1][1], groups[0][1]
    page = open_manage(browser, live_server, session, viewport)
    size = f"{viewport['width']}x{viewport['height']}"
    name_button(page, a).click()
    expect_answer_in_view(page, "is chosen")
    name_button(page, b).click()

    choose = page.locator(".choose")
    expect(choose).to_be_in_viewport()
    suggested = choose.get_by_role("button", name=f"Do the suggested swap: {a} and {instead}")
    expect(suggested).to_be_visible()
    expect(choose.get_by_role("button", name=f"Swap {a} and {b} anyway")).to_be_visible()
    expect(choose.get_by_role("button", name="Do not swap")).to_be_visible()
    expect(choose).not_to_contain_text("Suggested: Swap")
    expect(page.locator("#publish-waits")).to_contain_text("waiting for an answer")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"swap-question-{size}.png")
    assert axe_problems(page) == []

    page.get_by_role("button", name="Publish", exact=True).click()
    expect_answer_in_view(page, f"Not published yet: you have a swap of {a} and {b} waiting")
    expect(page.locator(".choose")).to_contain_text("sat together last week")
    page.screenshot(path=SHOTS / f"swap-question-after-publish-{size}.png")
    assert SeatingPlan.objects.get(session=session).status == SeatingPlan.Status.DRAFT
    assert table_of(session, a) == 1

    page.locator(".choose").get_by_role("button", name="Do the suggested swap").click()
    expect_answer_in_view(page, f"{a} now sits at table 2 and {instead} at table 1")
    page.get_by_role("button", name="Publish", exact=True).click()
    expect_answer_in_view(page, "Published")
    assert SeatingPlan.objects.get(session=session).status == SeatingPlan.Status.PUBLISHED
