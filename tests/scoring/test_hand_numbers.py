"""Every write at a table that takes a hand number (a win, a draw, kong chips, an undo, a
hand worked out from its tiles) takes only the hand it may change: the next hand (the last
one for an undo). Anything else (0, a negative number, no number, words, a hand ahead or
already recorded) saves nothing and says, in words that name it, what was wrong."""

import uuid
from html import unescape

import pytest

from scoring.models import Hand, KongChips
from scoring.picker import steps_for
from scoring.recording import record_draw
from tests.scoring.test_full_hand import TILES, evening_of
from tests.scoring.test_table_views import HTMX, match_at, url

pytestmark = pytest.mark.django_db

NO_HAND = ["0", "-1", "", "x", "1.5"]


def refusal_for(posted: str, next_hand: int, write: str = "") -> str:
    """What the answer must say for a hand number `posted` when `next_hand` is next."""
    if posted.strip() == "":
        return "The form did not say which hand it was for, so nothing was saved."
    try:
        number = int(posted)
    except ValueError:
        number = None
    if number is None or number < 1:
        return f"“{posted}” is not a hand number (hands count from 1), so nothing was saved."
    if number == next_hand + 1 and write in ("win", "kong"):  # entries kept: said why
        return f"Hand {next_hand} was just undone on another device, so nothing was saved"
    if number > next_hand:
        return f"The next hand to record is hand {next_hand}, not {number}"
    return f"Hand {number}"  # recorded: the answer shows both (see test_table_views)


def records(session):
    hands = Hand.objects.filter(match__session=session)
    return (
        list(hands.values_list("number", "voided_at")),
        list(KongChips.objects.filter(match__session=session).values_list("hand_number")),
    )


WRITES = {
    "win": {"winner": "1", "won_by": "wall", "total": "10"},
    "draw": {},
    "kong": {"chair": "1", "kind": "concealed"},
}


@pytest.mark.parametrize("write", sorted(WRITES))
@pytest.mark.parametrize("posted", [*NO_HAND, "1", "3", "99"])
def test_a_write_for_any_hand_but_the_next_saves_nothing_and_says_why(
    coordinator_client, club, write, posted
):
    session = evening_of(club, "u3a")
    record_draw(match_at(session, 1), 1)  # hand 1 is played: hand 2 is next
    before = records(session)
    data = {**WRITES[write], "hand": posted, "sent_key": str(uuid.uuid4())}
    if write == "kong":
        data["key"] = str(uuid.uuid4())
    response = coordinator_client.post(url(write, session), data, **HTMX)
    assert response.status_code == 200
    assert refusal_for(posted, 2, write) in unescape(response.content.decode())
    assert records(session) == before


@pytest.mark.parametrize("posted", [*NO_HAND, "2", "3"])
def test_an_undo_of_any_hand_but_the_last_undoes_nothing_and_says_why(
    coordinator_client, club, posted
):
    session = evening_of(club, "u3a")
    record_draw(match_at(session, 1), 1)
    before = records(session)
    data = {"hand": posted, "sent_key": str(uuid.uuid4())}
    response = coordinator_client.post(url("undo", session), data, **HTMX)
    page = unescape(response.content.decode())
    if posted.lstrip("-").isdigit() and int(posted) >= 1:
        assert f"Hand {posted} was already undone." in page  # the last is hand 1
    else:
        assert refusal_for(posted, 2) in page
    assert records(session) == before


@pytest.mark.parametrize("posted", [*NO_HAND, "2", "7"])
def test_the_tile_picker_saves_only_the_next_hand(coordinator_client, club, posted):
    """The picker once saved a hand posted as `hand=0` as the hand being played."""
    session = evening_of(club, "classical")
    body = {
        "hand": posted,
        "steps": " ".join(steps_for(TILES)),
        "winning": TILES["winning_tile"],
        "won_by": "wall",
        "winner": "0",
        "save": "1",
    }
    response = coordinator_client.post(url("full", session), body, **HTMX)
    page = unescape(response.content.decode())
    if posted in NO_HAND:
        assert refusal_for(posted, 1) in page
        assert "The next hand to record is hand 1." in page
    else:
        assert refusal_for(posted, 1) in page
    assert records(session) == ([], [])
    # The same post for hand 1 is saved: the refusals above were about the number alone.
    response = coordinator_client.post(url("full", session), {**body, "hand": "1"}, **HTMX)
    assert records(session) == ([(1, None)], [])
