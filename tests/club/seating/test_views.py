"""Seating pages: permissions, htmx partials, drafts hidden from members, own table first."""

import datetime

import pytest
from django.urls import reverse

from club.models import Seat, SeatingPlan
from club.seating.changes import make_seating
from club.seating.display import quality_in_words
from club.seating.planner import Quality
from tests.club.seating.helpers import members, plan, played, published, session_with, snapshot
from tests.factories import MemberFactory, UserFactory

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def session(club):
    return session_with(club, members(club, 8), date=datetime.date.today())


def url(name, session, *args):
    return reverse(f"club:{name}", args=[session.pk, *args])


def two_members_at_different_tables(session):
    tables = snapshot(session)
    first = Seat.objects.get(plan__session=session, member_id=tables[1][0][0]).member
    second = Seat.objects.get(plan__session=session, member_id=tables[2][0][0]).member
    return first, second


CHANGES = [
    ("seating_make", (), {}),
    ("seating_make_from_replies", (), {}),
    ("seating_reroll", (), {}),
    ("seating_undo", (), {}),
    ("seating_swap", (), {"a": "1", "b": "2"}),
    ("seating_lock", (1,), {}),
    ("seating_unlock", (1,), {}),
    ("seating_publish", (), {}),
    ("seating_unpublish", (), {}),
    ("seating_late", (), {"member": "1"}),
    ("seating_leaver", (), {"member": "1"}),
]


@pytest.mark.parametrize(("name", "args", "data"), CHANGES)
def test_members_cannot_change_the_seating(member_client, session, name, args, data):
    make_seating(session, seed=1)
    before = snapshot(session)
    response = member_client.post(url(name, session, *args), data)
    assert response.status_code == 403
    assert snapshot(session) == before


@pytest.mark.parametrize(("name", "args", "data"), CHANGES)
def test_anonymous_visitors_are_sent_to_log_in(client, session, name, args, data):
    response = client.post(url(name, session, *args), data)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not SeatingPlan.objects.filter(session=session).exists()


@pytest.mark.parametrize("name", ["seating_make", "seating_publish"])
def test_changes_need_a_post(coordinator_client, session, name):
    assert coordinator_client.get(url(name, session)).status_code == 405
    assert not SeatingPlan.objects.filter(session=session).exists()


def test_members_cannot_open_the_coordinators_page(member_client, client, session):
    assert member_client.get(url("seating_manage", session)).status_code == 403


def test_make_the_seating_with_htmx_returns_only_the_panel(coordinator_client, session):
    page = coordinator_client.get(url("seating_manage", session)).content.decode()
    assert "Make the seating" in page and "8 people are checked in" in page

    response = coordinator_client.post(url("seating_make", session), **HTMX)

    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="seating-panel"')
    assert "<html" not in html
    assert "Table 1" in html and "Table 2" in html
    assert "Draft" in html and "Publish" in html and "Re-roll" in html
    assert "This is the first seating of the season" in html
    assert SeatingPlan.objects.get(session=session).status == SeatingPlan.Status.DRAFT


def test_plain_post_redirects_back_with_a_message(coordinator_client, session):
    response = coordinator_client.post(url("seating_make", session))
    manage = url("seating_manage", session)
    assert response.status_code == 302 and response["Location"] == manage + "#answer"
    page = coordinator_client.get(manage).content.decode()
    answer = page[page.index('id="answer"') :]
    assert answer.index("Here is the proposed seating") < answer.index("Table 1")
    assert page.count("Here is the proposed seating") == 1  # not at the top as well


def test_a_refusal_is_shown_in_the_panel_with_status_200(coordinator_client, session):
    published(session)
    before = snapshot(session)
    response = coordinator_client.post(url("seating_reroll", session), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'role="alert"' in html and "The seating is published" in html
    assert snapshot(session) == before


def test_swap_two_people_with_htmx(coordinator_client, session):
    make_seating(session, seed=1)
    a, b = two_members_at_different_tables(session)
    response = coordinator_client.post(url("seating_swap", session), {"a": a.pk, "b": b.pk}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert f"{a.table_name} now sits at table 2" in html
    assert Seat.objects.get(member=a, plan__session=session).table.number == 2


def test_swap_without_choosing_is_explained(coordinator_client, session):
    make_seating(session, seed=1)
    response = coordinator_client.post(url("seating_swap", session), {"a": ""}, **HTMX)
    assert "Please choose a person from the list" in response.content.decode()


def test_lock_and_unlock_a_table(coordinator_client, session):
    make_seating(session, seed=1)
    html = coordinator_client.post(url("seating_lock", session, 1), **HTMX).content.decode()
    assert "Table 1 is locked" in html and "Unlock table 1" in html
    assert session.seating.tables.get(number=1).locked
    html = coordinator_client.post(url("seating_unlock", session, 1), **HTMX).content.decode()
    assert "Lock table 1" in html
    assert not session.seating.tables.get(number=1).locked


def test_publish_then_reroll_and_swap_are_disabled(coordinator_client, session):
    make_seating(session, seed=1)
    html = coordinator_client.post(url("seating_publish", session), **HTMX).content.decode()
    assert "Published" in html and "Unpublish to change" in html
    assert url("seating_make", session) not in html
    assert url("seating_swap", session) not in html
    assert "Late arrival" in html and "Leaving early" in html
    assert SeatingPlan.objects.get(session=session).published_at is not None


def test_refreshing_pages_never_changes_a_published_plan(
    coordinator_client, member_client, session
):
    published(session)
    before = snapshot(session)
    for name in ("seating_manage", "seating", "seating_print"):
        coordinator_client.get(url(name, session))
    coordinator_client.get(reverse("home"))
    assert snapshot(session) == before


def test_draft_is_never_shown_to_members(member_client, member_user, session):
    make_seating(session, seed=1)
    seated = Seat.objects.filter(plan__session=session).first().member
    for name in ("seating", "seating_print"):
        response = member_client.get(url(name, session))
        page = response.content.decode()
        assert response.status_code == 200
        assert "not published yet" in page
        assert seated.table_name not in page
    home = member_client.get(reverse("home")).content.decode()
    assert "not published yet" in home and seated.table_name not in home


def test_member_sees_their_own_table_first(client, club, session):
    me = MemberFactory(club=club, user=UserFactory())
    session.attendances.create(member=me)
    published(session)
    seat = Seat.objects.get(member=me)
    client.force_login(me.user)

    page = client.get(url("seating", session)).content.decode()

    find = page.index("Find your table")
    assert f"You are at <strong>table {seat.table.number}</strong>" in page
    assert f"seat <strong>{seat.get_wind_display()}</strong>" in page
    assert find < page.index("Every table")
    assert page.count('class="table-card is-mine"') == 2  # at the top and among every table


def test_home_page_shows_your_table_tonight(client, club, session):
    me = MemberFactory(club=club, user=UserFactory())
    session.attendances.create(member=me)
    published(session)
    seat = Seat.objects.get(member=me)
    mates = Seat.objects.filter(table=seat.table).exclude(member=me)
    client.force_login(me.user)

    page = client.get(reverse("home")).content.decode()

    assert "Your table tonight" in page
    assert f"Table <strong>{seat.table.number}</strong>" in page
    for mate in mates:
        assert mate.member.table_name in page
    assert url("seating_manage", session) not in page  # not a coordinator


def test_home_page_links_coordinators_to_tonights_seating(coordinator_client, session):
    page = coordinator_client.get(reverse("home")).content.decode()
    assert url("seating_manage", session) in page and "Tonight:" in page


def test_late_arrival_and_leaver_from_the_page(coordinator_client, club, session):
    published(session)
    late = MemberFactory(club=club)
    page = coordinator_client.get(url("seating_manage", session)).content.decode()
    assert f'<option value="{late.pk}">{late.table_name}</option>' in page

    html = coordinator_client.post(
        url("seating_late", session), {"member": late.pk}, **HTMX
    ).content.decode()
    assert f"{late.table_name} joins table" in html
    assert Seat.objects.filter(member=late).exists()

    leaver = Seat.objects.filter(plan__session=session).exclude(member=late).first().member
    html = coordinator_client.post(
        url("seating_leaver", session), {"member": leaver.pk}, **HTMX
    ).content.decode()
    assert f"{leaver.table_name} has left" in html
    assert not Seat.objects.filter(member=leaver).exists()


def test_late_arrival_without_room_shows_the_explanation_and_choices(coordinator_client, club):
    session = session_with(club, members(club, 10), date=datetime.date.today())
    published(session)
    before = snapshot(session)
    late = MemberFactory(club=club)

    response = coordinator_client.post(url("seating_late", session), {"member": late.pk})

    html = response.content.decode()
    assert response.status_code == 200  # no redirect: the coordinator must choose
    assert "No table can take" in html and "every table already has five players" in html
    assert 'name="choice" value="0"' in html
    assert snapshot(session) == before


def test_print_page_has_the_room_sheet_and_a_card_per_table(member_client, session):
    published(session)
    page = member_client.get(url("seating_print", session)).content.decode()
    assert page.count('class="room-sheet"') == 1
    assert page.count('class="print-card"') == 2
    assert "data-print" in page and "js/print.js" in page and "onclick" not in page


def test_unknown_session_is_404(coordinator_client, club):
    assert coordinator_client.get(reverse("club:seating_manage", args=[999])).status_code == 404


def test_cards_show_winds_dice_the_dreamer_and_beginners(coordinator_client, club):
    people = members(club, 8) + members(club, 1, experience="beginner")
    session = session_with(club, people, date=datetime.date.today())
    make_seating(session, seed=4)
    beginner = people[-1]

    html = coordinator_client.get(url("seating_manage", session)).content.decode()

    five = next(n for n, s in snapshot(session).items() if len(s) == 5)
    dreamer = Seat.objects.get(plan__session=session, table__number=five, wind="D").member
    assert (
        f"<strong>{dreamer.table_name}</strong> is the Dreamer and sits out the first hand" in html
    )
    assert html.count("Dreamer ·") == 1 and html.count("East ·") == 2
    assert "threw " in html
    card = html[html.index(f">{beginner.table_name}<") :]
    assert card.index("Beginner") < card.index("</li>")


def test_quality_is_in_plain_words(coordinator_client, club):
    people = members(club, 8)
    played(club, [people[:4], people[4:]], datetime.date.today() - datetime.timedelta(days=7))
    session = session_with(club, people, date=datetime.date.today())
    make_seating(session, seed=1)
    html = coordinator_client.get(url("seating_manage", session)).content.decode()
    # 8 people who sat as two fours last week cannot avoid it entirely: 2 + 2 pairs per table.
    assert "4 pairs sat together last week too — that is the fewest possible." in html


def test_checked_in_but_unseated_people_are_pointed_out(coordinator_client, club, session):
    make_seating(session, seed=1)
    newcomer = MemberFactory(club=club)
    session.attendances.create(member=newcomer)
    html = coordinator_client.get(url("seating_manage", session)).content.decode()
    assert f"Checked in but without a seat: {newcomer.table_name}." in html


def test_the_session_page_shows_where_the_seating_stands(coordinator_client, session):
    detail = reverse("club:session_detail", args=[session.pk])
    assert "No seating yet" in coordinator_client.get(detail).content.decode()
    make_seating(session, seed=1)
    assert "<strong>Draft</strong>" in coordinator_client.get(detail).content.decode()
    plan(session).publish()
    html = coordinator_client.get(detail).content.decode()
    assert "<strong>Published</strong>" in html and url("seating_print", session) in html


BAD_IDS = ["²", "-1", "", "abc", "99999"]


def said_for(bad: str) -> str:
    return "Please choose a person from the list" if bad == "" else "not in the list any more"


@pytest.mark.parametrize("bad", BAD_IDS)
def test_swap_with_a_bad_id_is_refused_in_plain_words(coordinator_client, session, bad):
    make_seating(session, seed=1)
    a, _ = two_members_at_different_tables(session)
    before = snapshot(session)
    tries = [{"a": bad, "b": a.pk}, {"a": a.pk, "b": bad}, {"pick": bad}]
    if bad:  # an empty first choice with a tap is simply a first tap
        tries.append({"a": bad, "pick": a.pk})
    for data in tries:
        response = coordinator_client.post(url("seating_swap", session), data, **HTMX)
        assert response.status_code == 200
        assert said_for(bad) in response.content.decode()
    assert snapshot(session) == before


@pytest.mark.parametrize(
    ("name", "bad"), [(n, b) for n in ("seating_late", "seating_leaver") for b in BAD_IDS]
)
def test_late_arrival_and_leaver_with_a_bad_id_are_refused(coordinator_client, session, name, bad):
    published(session)
    before = snapshot(session)
    response = coordinator_client.post(url(name, session), {"member": bad}, **HTMX)
    assert response.status_code == 200
    assert said_for(bad) in response.content.decode()
    # Without htmx: back to the page with the message, never a server error.
    response = coordinator_client.post(url(name, session), {"member": bad}, follow=True)
    assert response.status_code == 200 and said_for(bad) in response.content.decode()
    assert snapshot(session) == before


@pytest.mark.parametrize("bad", ["²", "-1", "abc", "7"])
def test_a_bad_choice_after_a_leaver_is_refused(coordinator_client, club, bad):
    club.odd_tables = "three"
    club.save()
    session = session_with(club, members(club, 7), date=datetime.date.today())
    published(session)
    before = snapshot(session)
    three = next(n for n, s in before.items() if len(s) == 3)
    leaver = Seat.objects.get(plan__session=session, table__number=three, position=1).member
    response = coordinator_client.post(
        url("seating_leaver", session), {"member": leaver.pk, "choice": bad}, **HTMX
    )
    assert "That choice is no longer available" in response.content.decode()
    assert snapshot(session) == before


def test_swapping_someone_with_themselves_is_refused(coordinator_client, session):
    make_seating(session, seed=1)
    a, _ = two_members_at_different_tables(session)
    html = coordinator_client.post(
        url("seating_swap", session), {"a": a.pk, "b": a.pk}, **HTMX
    ).content.decode()
    assert "Choose two different people to swap" in html


def test_someone_already_seated_is_not_a_late_arrival(coordinator_client, session):
    published(session)
    seated = Seat.objects.filter(plan__session=session).first().member
    html = coordinator_client.post(
        url("seating_late", session), {"member": seated.pk}, **HTMX
    ).content.decode()
    assert "not in the list any more" in html


def test_a_second_make_shows_the_seating_already_made(coordinator_client, session):
    coordinator_client.post(url("seating_make", session), **HTMX)
    before = snapshot(session)
    html = coordinator_client.post(url("seating_make", session), **HTMX).content.decode()
    assert "The seating had already been made" in html
    assert snapshot(session) == before
    html = coordinator_client.post(url("seating_reroll", session), **HTMX).content.decode()
    assert "Re-rolled" in html and snapshot(session) != before


# --- answering beside the control, tapping to swap, undo -----------------------------------


def seat_table(session, member) -> int:
    return Seat.objects.get(plan__session=session, member=member).table.number


def card_of(html: str, number: int) -> str:
    start = html.index(f'id="table-{number}"')
    end = html.find("</article>", start)
    return html[start:end]


def test_tapping_two_names_swaps_them_without_javascript(coordinator_client, session):
    make_seating(session, seed=1)
    a, b = two_members_at_different_tables(session)
    page = coordinator_client.post(url("seating_swap", session), {"pick": a.pk}).content.decode()
    card = card_of(page, 1)
    assert f"{a.table_name} is chosen" in card  # the answer stands on the tapped table's card
    assert f'value="{a.pk}" class="seat-pick" aria-pressed="true"' in page
    assert f'<input type="hidden" name="a" value="{a.pk}">' in page

    response = coordinator_client.post(url("seating_swap", session), {"a": a.pk, "pick": b.pk})
    assert response.status_code == 302 and response["Location"].endswith("#answer")
    assert seat_table(session, a) == 2 and seat_table(session, b) == 1
    page = coordinator_client.get(url("seating_manage", session)).content.decode()
    assert f"{a.table_name} now sits at table 2" in card_of(page, 2)


def test_tapping_the_same_name_again_chooses_nobody(coordinator_client, session):
    make_seating(session, seed=1)
    a, _ = two_members_at_different_tables(session)
    before = snapshot(session)
    html = coordinator_client.post(
        url("seating_swap", session), {"a": a.pk, "pick": a.pk}, **HTMX
    ).content.decode()
    assert "Nobody is chosen now" in html and 'aria-pressed="true"' not in html
    assert snapshot(session) == before


def test_lock_answers_on_the_tables_card(coordinator_client, session):
    make_seating(session, seed=1)
    html = coordinator_client.post(
        url("seating_lock", session, 2), {"answer_at": "table-2"}, **HTMX
    ).content.decode()
    assert "Table 2 is locked" in card_of(html, 2)
    assert 'id="answer"' in card_of(html, 2) and html.count('id="answer"') == 1


def last_week_room(club):
    people = members(club, 8)
    played(club, [people[:4], people[4:]], datetime.date.today() - datetime.timedelta(days=7))
    return people, session_with(club, people, date=datetime.date.today())


def test_a_swap_that_brings_back_last_weeks_pairs_asks_first(coordinator_client, club):
    people, session = last_week_room(club)
    make_seating(session, seed=1)
    tables = snapshot(session)
    # Someone from last week's first four swaps with someone at the other table who sat
    # with them: that pairs them with last week's mates again.
    first = Seat.objects.get(plan__session=session, member_id=tables[1][0][0]).member
    mates_of_first = {m.pk for m in (people[:4] if first in people[:4] else people[4:])}
    other = next(
        Seat.objects.get(plan__session=session, member_id=pk).member
        for pk, _, _ in tables[2]
        if pk not in mates_of_first
    )
    before = snapshot(session)
    html = coordinator_client.post(
        url("seating_swap", session), {"a": first.pk, "b": other.pk}, **HTMX
    ).content.decode()
    assert "Please choose" in html and "sat together last week" in html
    assert f"Swap {first.table_name} and {other.table_name} anyway" in html
    assert snapshot(session) == before

    html = coordinator_client.post(
        url("seating_swap", session), {"a": first.pk, "b": other.pk, "choice": "cancel"}, **HTMX
    ).content.decode()
    assert "nobody was swapped" in html and snapshot(session) == before
    coordinator_client.post(
        url("seating_swap", session), {"a": first.pk, "b": other.pk, "choice": "confirm"}, **HTMX
    )
    assert seat_table(session, first) == 2


def test_reroll_after_a_swap_asks_and_undo_brings_the_swap_back(coordinator_client, session):
    make_seating(session, seed=1)
    a, b = two_members_at_different_tables(session)
    coordinator_client.post(url("seating_swap", session), {"a": a.pk, "b": b.pk}, **HTMX)
    swapped = snapshot(session)

    html = coordinator_client.post(url("seating_reroll", session), **HTMX).content.decode()
    assert "You have changed this seating by hand" in html and "Re-roll anyway" in html
    assert snapshot(session) == swapped

    html = coordinator_client.post(
        url("seating_reroll", session), {"choice": "confirm"}, **HTMX
    ).content.decode()
    assert "Re-rolled" in html and "Undo the re-roll" in html
    assert snapshot(session) != swapped

    html = coordinator_client.post(url("seating_undo", session), **HTMX).content.decode()
    assert "Undone: the re-roll." in html
    assert snapshot(session) == swapped
    html = coordinator_client.post(url("seating_reroll", session), **HTMX).content.decode()
    assert "You have changed this seating by hand" in html  # the swap is back, so it asks


def test_undo_a_swap(coordinator_client, session):
    make_seating(session, seed=1)
    before = snapshot(session)
    a, b = two_members_at_different_tables(session)
    html = coordinator_client.post(
        url("seating_swap", session), {"a": a.pk, "b": b.pk}, **HTMX
    ).content.decode()
    assert f"Undo the swap of {a.table_name} and {b.table_name}" in html
    html = coordinator_client.post(url("seating_undo", session), **HTMX).content.decode()
    assert snapshot(session) == before
    assert "Undo" not in html.split("How well mixed")[0].replace("Undone", "")
    html = coordinator_client.post(url("seating_undo", session), **HTMX).content.decode()
    assert "There is nothing to undo" in html


def test_a_leaver_beside_a_table_of_five_is_offered_the_dreamer(coordinator_client, club):
    session = session_with(club, members(club, 9), date=datetime.date.today())  # a 4 and a 5
    published(session)
    before = snapshot(session)
    four = next(n for n, s in before.items() if len(s) == 4)
    five = next(n for n, s in before.items() if len(s) == 5)
    leaver = Seat.objects.get(plan__session=session, table__number=four, position=1).member
    dreamer = Seat.objects.get(plan__session=session, table__number=five, wind="D").member

    html = coordinator_client.post(
        url("seating_leaver", session), {"member": leaver.pk, "answer_at": "leaver"}, **HTMX
    ).content.decode()

    suggested = html[html.index("Suggested:") :]
    assert suggested.startswith(
        f"Suggested:</span> {dreamer.table_name}, the Dreamer at table {five}, moves to "
        f"table {four}; both then have four"
    )
    assert f"Take {leaver.table_name} out; table {four} plays as a table of three" in html
    assert snapshot(session) == before
    coordinator_client.post(
        url("seating_leaver", session), {"member": leaver.pk, "choice": "0"}, **HTMX
    )
    assert sorted(len(s) for s in snapshot(session).values()) == [4, 4]


def test_many_choices_show_three_and_hide_the_rest(coordinator_client, club):
    club.odd_tables = "three"
    club.save()
    session = session_with(club, members(club, 15), date=datetime.date.today())  # 4, 4, 4, 3
    published(session)
    three = next(n for n, s in snapshot(session).items() if len(s) == 3)
    leaver = Seat.objects.get(plan__session=session, table__number=three, position=1).member
    html = coordinator_client.post(
        url("seating_leaver", session), {"member": leaver.pk}, **HTMX
    ).content.decode()
    shown, hidden = html.split("<summary>Other choices")
    assert shown.count('name="choice"') == 4  # the suggestion, two more, and "keep two"
    assert hidden.count('name="choice"') > 3
    assert "->" not in html


def test_quality_says_how_many_repeats_were_avoided():
    quality = Quality(
        repeat_pairs=21,
        repeat_pairs_min=6,
        last_week_pairs=0,
        last_week_pairs_min=0,
        cost=0,
        cost_min=0,
        season_extra_meetings=0,
        season_extra_meetings_min=0,
        max_meetings=2,
        repeat_pairs_random=45.2,
        beginners_per_table=(1, 2, 0, 1),
    )
    lines = quality_in_words(
        quality, weeks_of_history=5, spread_beginners=True, numbers=[1, 2, 3, 5]
    )
    assert lines[1] == (
        "21 pairs sat together earlier this season. Seating at random would give about 45, "
        "so about 24 were avoided. At least 6 cannot be avoided by any seating."
    )
    assert lines[-1].startswith("Beginners: two share table 2. The app found no seating")


def test_the_room_sheet_marks_guests(member_client, club, session):
    guest = MemberFactory(club=club, is_guest=True, table_name="Visitor")
    session.attendances.create(member=guest)
    published(session)
    page = member_client.get(url("seating_print", session)).content.decode()
    assert '<span class="room-name">Visitor</span> <span class="room-mark">(guest)</span>' in page
    assert "<td>Visitor (guest)</td>" in page


def test_check_in_says_who_is_here_without_a_seat_with_the_tap_that_seats_them(
    coordinator_client, club, session
):
    """Ticked at the door after the seating was published (during play, too): the row says
    they have no seat and its one button is the seating's late arrival, which seats them.
    Before publishing, and once seated, nothing is said."""
    from games.start import start_play

    late = MemberFactory(club=club, table_name="Larry")
    check_in = url("check_in", session)
    tick = reverse("club:set_attendance", args=[session.pk, late.pk])
    coordinator_client.post(tick, {"present": "1"})
    assert "No seat yet" not in coordinator_client.get(check_in).content.decode()  # no seating

    coordinator_client.post(tick, {"present": "0"})
    published(session)
    start_play(session)
    row = coordinator_client.post(tick, {"present": "1"}, **HTMX).content.decode()  # at the door
    words = "No seat yet: the seating was published before Larry came."
    assert words in row and f'action="{url("seating_late", session)}"' in row
    assert f'name="member" value="{late.pk}"' in row and "Give Larry a seat" in row
    page = coordinator_client.get(check_in).content.decode()
    assert page.count("No seat yet") == 1 and words in page  # only the one without a seat

    form = {"member": late.pk, "answer_at": "late", "back": "check_in"}  # as the row posts it
    answer = coordinator_client.post(url("seating_late", session), form)
    assert answer.status_code == 302 and answer["Location"].startswith(check_in)
    assert Seat.objects.filter(plan__session=session, member=late).exists()
    page = coordinator_client.get(check_in).content.decode()
    assert "No seat yet" not in page and "Larry joins table" in page  # said at the door
