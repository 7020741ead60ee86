"""Working a hand out from its tiles at a table: the picker with the match's winds, its live
preview (the engine's messages with the hand kept, then the itemised score and payments),
and saving it as quick entry does (tallies and deal move on; stale and doubled saves)."""

from html import unescape

import pytest

from games.start import start_play
from scoring import engine
from scoring.models import Hand
from scoring.picker import steps_for
from tests.games.helpers import seated_members, seated_session
from tests.games.test_table_views import HTMX, match_at, url

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
