"""Recording a win on the table page: the form, the engine's checks, the payment preview,
stale and doubled forms, and the page without JavaScript."""

from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Match
from games.start import finish, start_play
from scoring.engine.rulesets.base import RuleSet
from scoring.models import Hand
from scoring.recording import Win, record_draw, record_win
from tests.games.helpers import seated_members, seated_session
from tests.scoring.test_table_views import HTMX, login_as_seated, match_at, url

# Wins need the engine's quick-entry payments (RuleSet.check_total / payments).
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        not hasattr(RuleSet, "check_total"),
        reason="the engine's RuleSet.check_total is not merged",
    ),
]


@pytest.fixture
def evening(club):
    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4, 5))
    start_play(session)
    return session


@pytest.fixture
def names(evening):
    return [m.table_name for m in seated_members(evening, 1)]


def win(hand="1", winner="1", won_by="wall", total="10", discarder=None, **extra):
    data = {"hand": hand, "winner": winner, "won_by": won_by, "total": total, **extra}
    if discarder is not None:
        data["discarder"] = discarder
    return data


def test_a_self_drawn_win_is_saved_and_everyone_else_pays(coordinator_client, evening, names):
    response = coordinator_client.post(url("win", evening), win(), **HTMX)
    html = unescape(response.content.decode())
    assert response.status_code == 200 and html.lstrip().startswith('<div id="table-play"')
    assert f"Hand 1 saved: {names[1]} won self-drawn from the wall, 10 points." in html
    match = match_at(evening, 1)
    assert match.tallies() == [-10, 30, -10, -10]
    hand = match.hands.get()
    assert (hand.winner, hand.won_by, hand.discarder, hand.total) == (1, "wall", None, 10)
    # Not the dealer's win: the deal passes to chair 1.
    assert f"{names[1]} deals" in html and "Hand 2" in html and "Save hand 2" in html


def test_a_discard_win_is_paid_by_the_discarder_only(coordinator_client, evening, names):
    coordinator_client.post(url("win", evening), win(winner="0", won_by="discard", discarder="2"))
    match = match_at(evening, 1)
    assert match.tallies() == [10, 0, -10, 0]
    # The dealer won: the dealer keeps the deal.
    page = unescape(coordinator_client.get(url("table", evening)).content.decode())
    assert f"{names[0]} deals" in page
    assert f"{names[0]} won on {names[2]}'s discard, 10 points" in page


def test_the_preview_shows_each_payment_in_words_and_saves_nothing(
    coordinator_client, evening, names
):
    response = coordinator_client.post(url("preview", evening), win(total="12"), **HTMX)
    html = unescape(response.content.decode())
    assert html.lstrip().startswith('<div id="preview"')
    assert f"{names[1]} receives 36" in html and f"{names[0]} pays 12" in html
    assert not Hand.objects.exists()


def test_the_preview_gives_the_engines_reason(coordinator_client, evening):
    html = unescape(
        coordinator_client.post(url("preview", evening), win(total="2")).content.decode()
    )
    assert "below this club's minimum of 3 points" in html
    html = coordinator_client.post(url("preview", evening), win(total="lots")).content.decode()
    assert "whole number" in html
    html = coordinator_client.post(url("preview", evening), {"hand": "1"}).content.decode()
    assert "The payments show here" in html


@pytest.mark.parametrize(
    ("data", "field", "reason"),
    [
        (win(total="2"), "total", "below this club's minimum of 3 points"),
        (win(won_by="discard"), "discarder", "Choose who discarded the winning tile."),
        (win(won_by="robbing_kong"), "discarder", "Choose whose kong was robbed."),
        (win(won_by="discard", discarder="1"), "discarder", "cannot also be the one who pays"),
        (win(winner=""), "winner", "Choose who went out."),
        (win(total=""), "total", "Type the total the table agreed."),
    ],
)
def test_a_refused_win_keeps_the_entries_and_says_why_next_to_the_field(
    coordinator_client, evening, data, field, reason
):
    response = coordinator_client.post(url("win", evening), data, **HTMX)
    html = unescape(response.content.decode())
    assert response.status_code == 200
    assert reason in html
    assert f'id="id_{field}_error" role="alert"' in html
    # Focus goes to the field with the reason.
    focused = html.split(" autofocus")[0].rsplit("<input", 1)[1]
    assert f'name="{field}"' in focused
    if data["total"]:
        assert f'value="{data["total"]}"' in html
    assert not Hand.objects.exists()


def test_a_total_the_rule_set_cannot_produce_is_refused(coordinator_client, club):
    club.rule_set = "classical"
    club.save()
    session = seated_session(club)
    start_play(session)
    response = coordinator_client.post(url("win", session), win(total="7"), **HTMX)
    assert "id_total_error" in unescape(response.content.decode())
    assert not Hand.objects.exists()


def test_a_goulash_win_takes_the_pot(coordinator_client, evening, names):
    record_draw(match_at(evening, 1), 1)
    coordinator_client.post(url("win", evening), win(hand="2", winner="3", total="6"))
    match = match_at(evening, 1)
    assert match.tallies() == [-5, -5, -5, 15]
    assert match.hands.get(number=2).goulash


def test_a_stale_win_is_shown_beside_the_saved_hand_and_the_next_form_is_blank(
    client, evening, names
):
    match = match_at(evening, 1)
    record_win(match, 1, Win(2, "wall", None, 10))  # on the other device
    login_as_seated(client, evening, 1)
    response = client.post(url("win", evening), win(total="16"), **HTMX)
    html = unescape(response.content.decode())
    assert "Hand 1 was saved on another device first" in html
    assert f"{names[2]} won self-drawn from the wall, 10 points" in html  # what was saved
    assert f"{names[2]} receives 30" in html
    assert f"{names[1]} won self-drawn from the wall, 16 points" in html  # what we entered
    assert f"{names[1]} receives 48" in html
    assert "press Save again" not in html and "different hand" not in html
    # The next hand's form is blank: nothing of ours is carried into hand 2.
    assert 'name="hand" value="2"' in html and "Save hand 2" in html
    assert 'value="16"' not in html and "checked" not in html.split('id="win-form"')[1]
    assert match.hands.count() == 1
    # "Ours is different" opens the correction of hand 1 with our entries.
    correct = reverse("scoring:correct", args=[match.pk, 1])
    link = html.split(f'href="{correct}?')[1].split('"')[0]
    page = unescape(client.get(f"{correct}?{link}").content.decode())
    assert 'value="16"' in page and 'name="winner" value="1" id="id_winner_1" checked' in page
    assert match.hands.count() == 1


def test_a_member_is_told_to_ask_the_coordinator_when_the_saved_hand_ended_the_match(
    client, evening, names
):
    match = match_at(evening, 1)
    record_win(match, 1, Win(2, "wall", None, 10))  # on the other device; then the match ends
    finish(match, Match.Ending.FLOW)
    login_as_seated(client, evening, 1)
    html = unescape(client.post(url("win", evening), win(total="16"), **HTMX).content.decode())
    assert "Hand 1 was saved on another device first" in html
    assert f"{names[1]} won self-drawn from the wall, 16 points" in html
    assert "Ours is different" not in html
    assert "ask the coordinator to correct hand 1" in html
    assert match.hands.count() == 1


def test_the_same_hand_saved_on_two_devices_is_simply_saved(client, evening, names):
    match = match_at(evening, 1)
    record_win(match, 1, Win(1, "wall", None, 10))  # the other device, the same hand
    login_as_seated(client, evening, 1)
    html = unescape(client.post(url("win", evening), win(), **HTMX).content.decode())
    assert "Hand 1 was saved on another device, the same as yours." in html
    assert "saved on another device first" not in html
    assert match.hands.count() == 1


def test_a_double_tap_records_one_win(coordinator_client, evening):
    first = coordinator_client.post(url("win", evening), win(), **HTMX)
    second = coordinator_client.post(url("win", evening), win(), **HTMX)
    assert "Hand 1 saved" in unescape(first.content.decode())
    assert "another device" not in unescape(second.content.decode())
    assert Hand.objects.count() == 1


def test_two_devices_stay_consistent(client, coordinator, evening):
    """A hand saved on one device reaches the other by polling; the other's stale form is
    refused rather than recorded twice."""
    tablet, phone = Client(), Client()
    tablet.force_login(coordinator)
    login_as_seated(phone, evening, 1)
    match = match_at(evening, 1)
    shown = match.version
    tablet.post(url("win", evening), win(), **HTMX)
    polled = phone.get(url("poll", evening) + f"?m={match.pk}&v={shown}&open=1&h=1", **HTMX)
    assert polled.status_code == 200 and "Hand 2" in unescape(polled.content.decode())
    refused = phone.post(url("win", evening), win(winner="2"), **HTMX)
    assert "was saved on another device first" in unescape(refused.content.decode())
    assert Hand.objects.count() == 1


def test_without_javascript_check_shows_the_payments_then_save_redirects(
    coordinator_client, evening, names
):
    checked = coordinator_client.post(url("win", evening), win(action="check"))
    html = unescape(checked.content.decode())
    assert "<html" in html and f"{names[1]} receives 30" in html
    assert not Hand.objects.exists()
    saved = coordinator_client.post(url("win", evening), win(action="save"))
    assert saved.status_code == 302 and saved["Location"] == url("table", evening)
    page = coordinator_client.get(saved["Location"]).content.decode()
    assert "Hand 1 saved" in page


def test_the_flow_ending_the_match_makes_the_page_read_only(coordinator_client, club):
    club.rule_set = "u3a"
    club.save()
    session = seated_session(club)
    match = start_play(session)[0]
    # Every chair deals once in each of four rounds, losing the deal each time: 16 hands.
    hand = 1
    while match.replay()[-1].over is False:
        state = match.replay()[-1]
        winner = (state.dealer + 1) % 4
        record_win(match, hand, Win(winner, "wall", None, 3))
        hand += 1
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and hand == 17
    page = coordinator_client.get(url("table", session)).content.decode()
    assert "Match over" in page and "Save hand" not in page
    # The hand that ended it can still be undone: play goes on.
    assert "Undo hand 16" in page
    coordinator_client.post(url("undo", session), {"hand": "16"})
    assert "Save hand 16" in coordinator_client.get(url("table", session)).content.decode()


def test_the_session_progress_names_the_leader(coordinator_client, evening, names):
    coordinator_client.post(url("win", evening), win(total="8"))
    html = coordinator_client.get(reverse("club:session_detail", args=[evening.pk])).content
    assert f"Leading: {names[1]} (24)" in html.decode()
