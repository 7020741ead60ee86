"""Working a hand out from its tiles at a table: the picker with the match's winds, its live
preview (the engine's messages with the hand kept, then the itemised score and payments),
and saving it as quick entry does (tallies and deal move on; stale and doubled saves)."""

import re
from html import unescape

import pytest

from games.start import start_play
from scoring import engine
from scoring.models import Hand
from scoring.picker import steps_for
from scoring.recording import Win, record_draw, record_win
from scoring.table_rules import match_ruleset
from tests.games.helpers import seated_members, seated_session
from tests.scoring.test_table_views import HTMX, login_as_seated, match_at, url

pytestmark = pytest.mark.django_db

# The contract's hand without its winds: the table supplies them.
TILES = {
    "tiles": "b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr",
    "melds": [{"tiles": "ww ww ww", "concealed": False}],
    "winning_tile": "d9",
    "bonus": "f2 s3",
}


def evening_of(club, rules="classical", sizes=(4,)):
    club.rule_set = rules
    club.save()
    session = seated_session(club, sizes=sizes)
    start_play(session)
    session.refresh_from_db()
    return session


@pytest.fixture
def evening(club):
    return evening_of(club)


def picker_post(client, session, tiles=TILES, number=1, table=1, **data):
    body = {
        "hand": str(number),
        "steps": " ".join(steps_for(tiles)),
        "winning": tiles["winning_tile"],
        **data,
    }
    response = client.post(url("full", session, table), body, **HTMX)
    return response, unescape(response.content.decode())


def test_the_table_page_offers_to_work_out_the_score(coordinator_client, evening):
    html = coordinator_client.get(url("table", evening)).content.decode()
    assert url("full", evening) in html and "Work out the score from the tiles" in html


def test_the_picker_shows_the_winds_and_dealer_from_the_match(coordinator_client, evening):
    names = [m.table_name for m in seated_members(evening, 1)]
    html = unescape(coordinator_client.get(url("full", evening)).content.decode())
    assert f"{names[0]} East (deals), {names[1]} South" in html
    assert "work out the score of hand 1" in html
    assert 'name="seat_wind"' not in html and 'name="prevailing_wind"' not in html


def test_a_discard_win_is_scored_with_the_matchs_winds_and_saved(coordinator_client, evening):
    names = [m.table_name for m in seated_members(evening, 1)]
    # Chair 1 (South) wins on chair 3's (North's) discard: the contract's own example.
    response, html = picker_post(
        coordinator_client, evening, winner="1", won_by="discard", discarder="3"
    )
    expected = engine.score(
        {
            **TILES,
            "won_by": "discard",
            "discarder": "N",
            "seat_wind": "S",
            "prevailing_wind": "E",
            "dealer": "E",
        },
        "classical",
    )
    assert response.context["preview"].result == expected.to_dict()
    assert "136 points" in html and f"{names[1]} receives 272" in html
    assert f"{names[3]} pays 272" in html
    assert not Hand.objects.exists()

    response, _ = picker_post(
        coordinator_client, evening, winner="1", won_by="discard", discarder="3", save="1"
    )
    assert response.status_code == 200 and response["HX-Redirect"] == url("table", evening)
    hand = Hand.objects.get()
    assert hand.entry == Hand.Entry.FULL and hand.total == 136
    assert (hand.winner, hand.won_by, hand.discarder) == (1, "discard", 3)
    assert hand.payments[:4] == [0, 272, 0, -272]
    assert hand.breakdown == expected.to_dict()["breakdown"]
    assert hand.tiles["seat_wind"] == "S" and hand.tiles["discarder"] == "N"
    assert hand.tiles["winning_tile"] == "d9" and hand.tiles["bonus"] == "f2 s3"
    match = match_at(evening, 1)
    assert match.tallies()[1] - match.tallies()[3] == 544
    page = unescape(coordinator_client.get(url("table", evening)).content.decode())
    assert f"Hand 1 saved: {names[1]} won on {names[3]}'s discard, 136 points" in page
    assert "Hand 2" in page
    # The hands played say what made it, in words (the largest items first).
    listed = re.search(r'<span class="hand-features">([^<]*)</span>', page)
    assert listed and listed.group(1) == ", ".join(hand.features)
    assert hand.features  # a hand worked out from its tiles always has some


def test_a_total_agreed_at_the_table_lists_no_features(coordinator_client, evening):
    record_win(match_at(evening, 1), 1, Win(winner=0, won_by="wall", discarder=None, total=40))
    page = coordinator_client.get(url("table", evening)).content.decode()
    assert "Hand 1" in page and "hand-features" not in page


# Hands the picker or the engine refuses, each with how it was won (chair 1, South, wins)
# and what the page says, in a player's words.
BAD_HANDS = {
    "too few tiles": (
        {"tiles": "b1 b2 b3 c5 c5", "winning_tile": "c5"},
        {},
        "The hand has 5 tiles: a winning hand has 14 (one more for each kong). Tap 9 more.",
    ),
    "not a winning shape": (
        {"tiles": "b1 b2 b3 b4 b5 b6 b7 b8 b9 c1 c2 c3 dr dg", "winning_tile": "dg"},
        {},
        "These tiles do not make a winning hand: the tiles in the hand, besides the declared "
        "sets, do not make 4 sets and a pair, nor a special hand.",
    ),
    "seven pairs under classical": (
        {"tiles": "b1 b1 b3 b3 c5 c5 c7 c7 d2 d2 d9 d9 dr dr", "winning_tile": "dr"},
        {},
        "These tiles do not make a winning hand under the classical rules: they make only "
        "seven pairs, and classical scores four sets and a pair, or thirteen orphans.",
    ),
    "robbing a kong of a tile held twice": (
        {"tiles": "b1 b2 b3 c5 c5 c5 d7 d8 d9 d9 d9 dr dr dr", "winning_tile": "d9"},
        {"won_by": "robbing_kong", "discarder": "0"},
        "Robbing a kong: the winning tile, 9 Dots, is the one another player added to their "
        "pong, so the hand holds only one 9 Dots, not 3.",
    ),
    "thirteen orphans one short": (
        {"tiles": "b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dg d5", "winning_tile": "d5"},
        {"first_turn": "on"},
        "These tiles do not make a winning hand: the tiles in the hand, besides the declared "
        "sets, do not make 4 sets and a pair, nor a special hand.",
    ),
}


@pytest.mark.parametrize("case", BAD_HANDS)
def test_every_refusal_reaches_the_picker_in_plain_words_with_the_hand_kept(
    coordinator_client, evening, case
):
    tiles, how, words = BAD_HANDS[case]
    data = {"winner": "1", "won_by": "wall", **how}
    response, html = picker_post(coordinator_client, evening, tiles, **data)
    preview = response.context["preview"]
    assert words in (preview.error or preview.status) and words in html
    steps = " ".join(steps_for(tiles))
    assert f'name="steps" value="{steps}"' in html  # the hand is kept
    # Saving it is refused in the same words, and nothing is recorded.
    response, html = picker_post(coordinator_client, evening, tiles, save="1", **data)
    assert html.count(words) == 2 and f'name="steps" value="{steps}"' in html
    assert not Hand.objects.exists()


def test_a_fifth_tile_is_refused_and_greyed_out(coordinator_client, evening):
    steps = "c5 c5 c5 c5"
    response = coordinator_client.post(
        url("full", evening), {"hand": "1", "steps": steps, "tap": "c5"}, **HTMX
    )
    html = unescape(response.content.decode())
    assert "All four 5 Characters are already in the hand." in html
    assert f'name="steps" value="{steps}"' in html
    assert 'id="tap-c5" class="tile-button tile-characters" disabled' in html
    assert "(all used)" in html


def test_until_everything_is_chosen_the_preview_says_what_is_missing(coordinator_client, evening):
    response, html = picker_post(coordinator_client, evening)
    assert "The tiles make a complete hand." in html
    assert "Still to choose: who won, how the winning tile came." in html
    response, html = picker_post(
        coordinator_client, evening, winner="1", won_by="discard", save="1"
    )
    assert "Still to choose: who discarded it." in html
    assert "Before saving, choose who discarded it." in html
    assert not Hand.objects.exists()


def test_a_stale_save_is_refused_and_a_double_tap_records_one_hand(coordinator_client, evening):
    data = {"winner": "1", "won_by": "discard", "discarder": "3", "save": "1"}
    picker_post(coordinator_client, evening, **data)
    response, html = picker_post(coordinator_client, evening, **data)  # the same tap again
    assert response["HX-Redirect"] == url("table", evening)
    assert Hand.objects.count() == 1
    other = {**data, "winner": "2", "discarder": "0"}  # another device, same hand number
    response, html = picker_post(coordinator_client, evening, **other)
    assert "Hand 1 is already recorded" in html
    assert Hand.objects.count() == 1


def test_a_table_of_five_never_charges_the_one_sitting_out(coordinator_client, club):
    evening = evening_of(club, "hk", sizes=(5,))
    match = match_at(evening, 1)
    state = match.replay()[-1]
    assert state.sitting_out == 4
    tiles = {"tiles": "b1 b1 b1 b2 b2 b2 b3 b3 b3 b4 b4 b4 b5 b5", "winning_tile": "b5"}
    response, html = picker_post(coordinator_client, evening, tiles, winner="1", won_by="wall")
    result = response.context["preview"].result
    assert result["allowed"]
    picker_post(coordinator_client, evening, tiles, winner="1", won_by="wall", save="1")
    hand = Hand.objects.get()
    assert hand.payments[4] == 0 and sum(hand.payments) == 0
    assert hand.payments[:4] == [result["payments"][w] for w in "ESWN"]


@pytest.mark.parametrize("rules", ["u3a", "classical"])
def test_a_table_of_three_has_no_north(coordinator_client, club, rules):
    evening = evening_of(club, rules, sizes=(3,))
    tiles = {"tiles": "b1 b2 b3 c4 c5 c6 d7 d8 d9 d2 d3 d4 dr dr", "winning_tile": "dr"}
    picker_post(coordinator_client, evening, tiles, winner="1", won_by="wall", save="1")
    hand = Hand.objects.get()
    assert sum(hand.payments) == 0 and hand.payments[1] > 0
    assert all(p < 0 for p in (hand.payments[0], hand.payments[2]))
    assert hand.payments[3:] == [0, 0]


def test_a_goulash_hand_pays_the_pot_and_needs_five_points(coordinator_client, club):
    evening = evening_of(club, "u3a")
    match = match_at(evening, 1)
    record_draw(match, 1)
    assert match.replay()[-1].goulash
    small = {"tiles": "b1 b2 b3 c4 c5 c6 d7 d8 d9 d2 d3 d4 dr dr", "winning_tile": "dr"}
    response, html = picker_post(
        coordinator_client,
        evening,
        small,
        number=2,
        winner="1",
        won_by="discard",
        discarder="0",
        save="1",
    )
    assert response.context["preview"].result["allowed"] is False
    assert "Below the minimum" in html
    assert "too few for a goulash hand: a goulash hand needs at least 5 points" in html
    big = {"tiles": "c1 c1 c1 c2 c3 c4 c5 c6 c7 c8 c9 c9 c9 c5", "winning_tile": "c5"}
    picker_post(coordinator_client, evening, big, number=2, winner="1", won_by="wall", save="1")
    hand = match.live_hands().get(number=2)
    assert hand.goulash and hand.entry == Hand.Entry.FULL
    pot = engine.goulash_pot(match_ruleset(match), 1, players=4, dealer=match.replay()[-2].dealer)
    assert hand.payments[:4] == list(pot)


def test_only_the_tables_players_and_coordinators_use_the_picker(client, club):
    evening = evening_of(club, sizes=(4, 4))
    login_as_seated(client, evening, 1)
    assert client.get(url("full", evening)).status_code == 200
    login_as_seated(client, evening, 2)  # seated at table 2, not 1
    assert client.get(url("full", evening)).status_code == 403
    response, _ = picker_post(client, evening, winner="1", won_by="wall", save="1")
    assert response.status_code == 403 and not Hand.objects.exists()
