"""Fan's 9-piece penalty: the player whose discard gave the winner a pure hand pays what
every loser would have paid. Recorded as a choice on the hand (quick entry, the tile picker,
a correction), kept on the hand, and followed when later hands are worked out again."""

import re
from html import unescape

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from scoring import corrections, engine
from scoring.models import Hand
from scoring.recording import Win, record_win
from scoring.table_rules import match_ruleset
from tests.games.helpers import seated_members
from tests.scoring.test_full_hand import TILES, evening_of, picker_post
from tests.scoring.test_table_views import HTMX, match_at, url

pytestmark = pytest.mark.django_db
PENALTY = "9-piece penalty"


@pytest.fixture
def fan(club):
    return evening_of(club, "fan")


@pytest.fixture
def names(fan):
    return [m.table_name for m in seated_members(fan, 1)]


def quick(winner="1", won_by="wall", total="3", discarder=None, liable=None, hand="1"):
    data = {"hand": hand, "winner": winner, "won_by": won_by, "total": total}
    if discarder is not None:
        data["discarder"] = discarder
    if liable is not None:
        data["liable"] = liable
    return data


def without_liability(match, total, winner, won_by="wall", discarder=None) -> list[int]:
    """What each chair would pay with nobody liable, as the engine pays it."""
    outcome = engine.Outcome(winner=winner, won_by=won_by, discarder=discarder, dealer=0)
    return list(engine.payments_for_total(match_ruleset(match), total, outcome))


def liable_shape(plain: list[int], winner: int, liable: int) -> list[int]:
    """The 9-piece penalty applied to `plain`: the liable chair pays every loser's share."""
    shifted = [0] * len(plain)
    shifted[winner] = plain[winner]
    shifted[liable] = -plain[winner]
    return shifted


def test_a_fan_table_offers_the_penalty_with_nobody_chosen(coordinator_client, fan):
    html = unescape(coordinator_client.get(url("table", fan)).content.decode())
    assert PENALTY in html
    assert re.search(r'name="liable" value="" id="[^"]+" checked', html)
    assert "Otherwise leave “Nobody”" in html


@pytest.mark.parametrize("rules", ["classical", "hk", "u3a"])
def test_other_rules_have_no_such_choice(coordinator_client, club, rules):
    session = evening_of(club, rules)
    assert PENALTY not in coordinator_client.get(url("table", session)).content.decode()


def test_the_liable_player_pays_for_everyone(coordinator_client, fan, names):
    response = coordinator_client.post(url("win", fan), quick(liable="2"), **HTMX)
    html = unescape(response.content.decode())
    match = match_at(fan, 1)
    hand = match.hands.get()
    assert hand.liable == 2
    plain = without_liability(match, 3, winner=1)
    assert plain[0] < 0 and plain[3] < 0  # without the penalty, everyone pays
    assert hand.payments[:4] == liable_shape(plain, winner=1, liable=2)
    assert f"{names[2]} pays for everyone (9-piece penalty)" in html
    assert match.tallies()[0] == match.tallies()[3] == match.starting_tally


def test_the_preview_shows_who_pays_for_everyone(coordinator_client, fan, names):
    response = coordinator_client.post(url("preview", fan), quick(liable="3"), **HTMX)
    html = unescape(response.content.decode())
    plain = without_liability(match_at(fan, 1), 3, winner=1)
    assert f"{names[3]} pays {plain[1]}" in html and f"{names[0]} pays" not in html
    assert not Hand.objects.exists()


def test_on_a_discard_the_liable_player_need_not_be_the_discarder(coordinator_client, fan):
    coordinator_client.post(url("win", fan), quick(won_by="discard", discarder="0", liable="3"))
    match = match_at(fan, 1)
    hand = match.hands.get()
    plain = without_liability(match, 3, winner=1, won_by="discard", discarder=0)
    assert hand.payments[:4] == liable_shape(plain, winner=1, liable=3)


def test_the_winner_cannot_be_liable_and_the_entries_are_kept(coordinator_client, fan):
    response = coordinator_client.post(url("win", fan), quick(liable="1", total="4"), **HTMX)
    html = unescape(response.content.decode())
    assert "The winner cannot pay for everyone: choose another player." in html
    assert not Hand.objects.exists()
    assert re.search(r'name="liable" value="1" id="[^"]+" checked', html)
    assert 'value="4"' in html


def test_a_liable_chair_posted_to_another_rule_set_is_ignored(coordinator_client, club):
    session = evening_of(club, "u3a")
    coordinator_client.post(url("win", session), quick(total="10", liable="2"))
    hand = match_at(session, 1).hands.get()
    assert hand.liable is None and hand.payments[:4] == [-10, 30, -10, -10]


def test_the_database_refuses_a_liable_winner_or_a_liable_draw(fan):
    match = match_at(fan, 1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(match=match, number=1, winner=1, won_by="wall", total=3, liable=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(match=match, number=1, liable=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Hand.objects.create(match=match, number=1, winner=1, won_by="wall", total=3, liable=7)


def test_a_hand_worked_out_from_its_tiles_can_make_one_player_pay(coordinator_client, fan):
    response, _ = picker_post(coordinator_client, fan, winner="1", won_by="wall", liable="2")
    result = response.context["preview"].result
    assert result["allowed"]
    response, _ = picker_post(
        coordinator_client, fan, winner="1", won_by="wall", liable="2", save="1"
    )
    assert response.status_code == 200 and "HX-Redirect" in response
    hand = Hand.objects.get()
    assert hand.liable == 2 and hand.tiles["options"]["liable"] == "W"  # chair 2 sits West
    expected = engine.score(
        {**TILES, "won_by": "wall", "seat_wind": "S", "prevailing_wind": "E", "dealer": "E"},
        match_ruleset(hand.match),
    ).payments
    plain = [expected[w] for w in "ESWN"]
    assert hand.payments[:4] == liable_shape(plain, winner=1, liable=2)


def test_a_correction_can_add_the_penalty_and_says_so(coordinator_client, fan, names):
    match = match_at(fan, 1)
    record_win(match, 1, Win(1, "wall", None, 3))
    coordinator_client.post(
        reverse("scoring:correct", args=[match.pk, 1]),
        {
            "hand_id": match.hands.get().pk,
            "what": "win",
            "winner": "1",
            "won_by": "wall",
            "total": "3",
            "liable": "2",
            "reason": "Chair 2 fed the pure hand",
        },
    )
    hand = match.live_hands().get()
    assert hand.liable == 2
    assert hand.payments[:4] == liable_shape(without_liability(match, 3, 1), winner=1, liable=2)
    page = unescape(
        coordinator_client.get(reverse("scoring:scoresheet", args=[match.pk])).content.decode()
    )
    assert f"{names[2]} pays for everyone (9-piece penalty)" in page


def test_the_correction_form_starts_from_the_hands_liability(coordinator_client, fan):
    match = match_at(fan, 1)
    record_win(match, 1, Win(1, "wall", None, 3, liable=3))
    html = coordinator_client.get(reverse("scoring:correct", args=[match.pk, 1])).content.decode()
    assert re.search(r'name="liable" value="3" id="[^"]+" checked', html)


def test_a_later_liable_hand_keeps_its_penalty_when_an_earlier_hand_is_corrected(fan):
    match = match_at(fan, 1)
    first = record_win(match, 1, Win(0, "wall", None, 3))
    record_win(match, 2, Win(1, "discard", 0, 4, liable=3))
    corrections.correct_hand(match, 1, corrections.Draw(), "It was a draw", hand_id=first.pk)
    second = match.live_hands().get(number=2)
    assert second.liable == 3
    plain = without_liability(match, 4, winner=1, won_by="discard", discarder=0)
    assert second.payments[:4] == liable_shape(plain, winner=1, liable=3)
