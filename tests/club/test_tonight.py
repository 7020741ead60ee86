"""The Tonight page: on a session day a coordinator's home lists the evening's steps in
order, each with where it stands in words, the next one as the main button."""

import datetime
import re

import pytest
from django.urls import reverse

from club.models import Session
from games.start import end_evening, start_play
from scoring import recording
from tests.club.seating.helpers import members, session_with
from tests.factories import MemberFactory
from tests.games.helpers import seated_session

TODAY = datetime.date.today()


def step_states(page: str) -> dict[str, str]:
    """{step key: its state in words} as the page shows them."""
    states = {}
    for key, body in re.findall(r'id="step-(\w+)">(.*?)</li>\n  ', page, re.S):
        state = re.search(r'class="step-state"[^>]*>(.*?)</p>', body, re.S)
        states[key] = " ".join(state.group(1).split()) if state else ""
    return states


def next_step(page: str) -> str:
    return re.search(r'class="evening-step is-next[^"]*" id="step-(\w+)"', page).group(1)


def home(client) -> str:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    return response.content.decode()


def test_without_a_session_today_the_coordinators_home_is_the_usual_one(coordinator_client, club):
    session_with(club, members(club, 4), date=TODAY + datetime.timedelta(days=7))
    page = home(coordinator_client)
    assert "Welcome to" in page and "evening-steps" not in page


def test_members_never_see_the_tonight_page(member_client, club):
    session_with(club, members(club, 4), date=TODAY)
    page = home(member_client)
    assert "evening-steps" not in page and "Welcome to" in page


def test_steps_in_order_with_check_in_next_when_nobody_is_here(coordinator_client, club):
    members(club, 3)
    session = Session.objects.create(club=club, date=TODAY, venue="The Hall")
    page = home(coordinator_client)
    assert f"Tonight: {TODAY:%A} {TODAY.day} {TODAY:%B}" in page
    keys = re.findall(r'id="step-(\w+)"', page)
    assert keys == ["check_in", "seating", "print", "keys", "start", "tables", "end", "results"]
    states = step_states(page)
    assert states["check_in"] == "0 here, 3 not here."
    assert states["start"] == "Publish the seating first."
    assert next_step(page) == "check_in"
    assert reverse("club:check_in", args=[session.pk]) in page
    # Steps that cannot be done yet have no button.
    assert reverse("games:start", args=[session.pk]) not in page
    assert reverse("games:end", args=[session.pk]) not in page


def test_with_people_here_the_seating_is_next_then_start_play(coordinator_client, club):
    session = session_with(club, members(club, 8), date=TODAY)
    page = home(coordinator_client)
    assert step_states(page)["check_in"] == "8 here, 0 not here."
    assert next_step(page) == "seating" and step_states(page)["seating"] == "Not made yet."

    published = seated_session(club, sizes=(4, 4), date=TODAY + datetime.timedelta(days=1))
    Session.objects.filter(pk=session.pk).delete()
    Session.objects.filter(pk=published.pk).update(date=TODAY)
    page = home(coordinator_client)
    states = step_states(page)
    assert states["seating"].startswith("✓ Published")
    assert states["print"] == "The room sheet and a card for each table."
    assert states["keys"].startswith("A card for each table: a tablet opens its table")
    assert f'href="{reverse("games:table_keys", args=[published.pk])}"' in page
    assert next_step(page) == "start"
    assert "Not started yet. Opens a page for each table to record its hands." in page
    assert f'action="{reverse("games:start", args=[published.pk])}"' in page


def test_start_play_from_tonight_comes_back_to_tonight(coordinator_client, club):
    session = seated_session(club, sizes=(4, 4), date=TODAY)
    url = reverse("games:start", args=[session.pk])
    response = coordinator_client.post(url, {"next": reverse("home")})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    session.refresh_from_db()
    assert session.status == Session.Status.IN_PLAY  # moved by starting play
    # Anywhere else goes to the session's page.
    response = coordinator_client.post(url, {"next": "https://elsewhere.example/"})
    assert response["Location"] == reverse("club:session_detail", args=[session.pk])


def test_while_playing_each_table_is_linked_with_its_progress(coordinator_client, club):
    session = seated_session(club, sizes=(4, 4), date=TODAY)
    matches = start_play(session)
    recording.record_draw(matches[0], 1)
    page = home(coordinator_client)
    states = step_states(page)
    assert states["start"] == "✓ Started at 2 tables."
    assert states["tables"] == "2 tables playing, hands 1 to 2"
    assert next_step(page) == "tables"
    for number in (1, 2):
        assert reverse("scoring:table", args=[session.pk, number]) in page
    assert "Hand 2, East round" in page and "Hand 1, East round" in page
    end = reverse("games:end", args=[session.pk])
    assert f'href="{end}?next=/"' in page


def test_after_the_evening_every_step_is_done(coordinator_client, club):
    session = seated_session(club, sizes=(4,), date=TODAY)
    start_play(session)
    end_evening(session)
    page = home(coordinator_client)
    assert step_states(page)["end"] == "✓ The evening is over: the session is closed."
    assert step_states(page)["keys"] == "The evening is over: the cards no longer open the tables."
    assert reverse("games:table_keys", args=[session.pk]) not in page
    # What is left is reading out the results.
    assert page.count("is-next") == 1 and 'is-next" id="step-results"' in page
    assert step_states(page)["results"] == "Final: read them out before everyone goes home."
    assert "See who came" in page


def test_end_the_evening_from_tonight_returns_there(coordinator_client, club):
    session = seated_session(club, sizes=(4,), date=TODAY)
    start_play(session)
    end = reverse("games:end", args=[session.pk])
    confirm = coordinator_client.get(end, {"next": "/"}).content.decode()
    assert 'name="next" value="/"' in confirm
    response = coordinator_client.post(end, {"next": "/"})
    assert response["Location"] == "/"
    session.refresh_from_db()
    assert session.is_closed


def test_table_money_shows_in_the_check_in_step(coordinator_client, club):
    club.collects_table_money, club.table_money = True, 2
    club.save()
    session = session_with(club, members(club, 2), date=TODAY)
    session.set_paid(session.attendances.first().member, True)
    page = home(coordinator_client)
    assert step_states(page)["check_in"] == "2 here, 0 not here, 1 has paid (£2.00)."


def test_tonights_takings_are_in_the_clubs_currency(coordinator_client, club):
    club.collects_table_money, club.table_money, club.currency_symbol = True, 3, "€"
    club.save()
    session = session_with(club, members(club, 3), date=TODAY)
    for attendance in session.attendances.all()[:2]:
        session.set_paid(attendance.member, True)
    page = home(coordinator_client)
    assert step_states(page)["check_in"] == "3 here, 0 not here, 2 have paid (€6.00)."


def test_tonight_ends_with_the_evenings_results(coordinator_client, club):
    session = seated_session(club, sizes=(4,), date=TODAY)
    page = home(coordinator_client)
    assert step_states(page)["results"] == "Once play has started."
    start_play(session)
    page = home(coordinator_client)
    assert f'href="/standings/evening/{session.pk}/"' in page
    assert step_states(page)["results"] == "Provisional while the tables play."


@pytest.mark.parametrize("on_the_night", [True, False])
def test_sessions_list_marks_tonight_and_tones_down_next_week(
    coordinator_client, club, on_the_night
):
    date = TODAY if on_the_night else TODAY - datetime.timedelta(days=3)
    Session.objects.create(club=club, date=date)
    MemberFactory(club=club)
    page = coordinator_client.get(reverse("club:session_list")).content.decode()
    assert ('<span class="badge tonight-mark">Tonight</span>' in page) is on_the_night
    assert ("Tonight, step by step" in page) is on_the_night
    big = re.search(r'<button type="submit" class="button( secondary)?">Create next week', page)
    assert bool(big.group(1)) is on_the_night
