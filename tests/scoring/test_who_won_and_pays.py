"""One check of who won and who pays: the same mistake, made on any of the ways a win is
entered, is refused in the same words (scoring.hand_entry.check_win)."""

import pytest
from django.urls import reverse

from games.start import start_play
from scoring import hand_entry, selectors
from scoring.corrections import correct_hand
from scoring.forms import CorrectionForm, PaperRowForm
from scoring.forms.table import TablePickerForm, WinForm
from scoring.recording import RecordingError, Win, preview_win, record_full, record_win
from tests.games.helpers import seated_session

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
NAMES = ["Ann", "Betty", "Carol", "Dot"]
PLAYERS = list(enumerate(NAMES))
# Betty wins on a discard, and Betty is named as the one who discarded it.
PAYS_HERSELF = Win(1, "discard", 1, 12)
SAID = hand_entry.WINNER_PAYS


@pytest.fixture
def match(club):
    club.rule_set = "u3a"
    club.save()
    return start_play(seated_session(club, sizes=(4,)))[0]


def _post(win: Win) -> dict:
    return {"hand": 1, "winner": win.winner, "won_by": win.won_by, "discarder": win.discarder}


def _refused(call) -> str:
    with pytest.raises(RecordingError) as refused:
        call()
    return str(refused.value)


def test_the_quick_entry_page_says_it(coordinator_client, match):
    url = reverse("scoring:win", args=[match.session_id, match.table_number])
    response = coordinator_client.post(url, {**_post(PAYS_HERSELF), "total": 12}, **HTMX)
    assert SAID in response.content.decode()
    assert not match.hands.exists()


def test_the_quick_entry_form_says_it(match):
    form = WinForm({**_post(PAYS_HERSELF), "total": 12}, board=selectors.board(match))
    assert form.errors["discarder"] == [SAID]


def test_the_tile_picker_says_it(match):
    form = TablePickerForm(_post(PAYS_HERSELF), board=selectors.board(match))
    assert form.errors["discarder"] == [SAID]


def test_the_correction_form_says_it(match):
    data = {**_post(PAYS_HERSELF), "hand_id": 1, "what": "win", "total": 12, "reason": "typo"}
    form = CorrectionForm(data, players=PLAYERS, unit="points")
    assert form.errors["discarder"] == [SAID]


def test_the_paper_sheet_says_it():
    form = PaperRowForm(
        {"winner": "Betty", "how": "d", "discarder": "Betty", "total": "12"}, names=NAMES
    )
    assert form.errors["__all__"] == [SAID]


def test_the_recording_functions_say_it(match):
    assert _refused(lambda: record_win(match, 1, PAYS_HERSELF)) == SAID
    assert _refused(lambda: preview_win(match, 1, PAYS_HERSELF)) == SAID
    full = Win(1, "discard", 1, tiles={"tiles": "b1 b1 b1", "winning_tile": "b1"})
    assert _refused(lambda: record_full(match, 1, full)) == SAID
    assert not match.hands.exists()


def test_a_correction_says_it(match):
    record_win(match, 1, Win(0, "wall", None, 10))
    assert _refused(lambda: correct_hand(match, 1, PAYS_HERSELF, "typo")) == SAID


def test_a_winner_sitting_out_is_refused_in_the_forms_words(club):
    """At a table of five the Dreamer (chair 4) sits out hand 1: the write says so as the
    full-hand scoring does, not in the flow's chair numbers."""
    club.rule_set = "u3a"
    club.save()
    five = start_play(seated_session(club, sizes=(5,)))[0]
    said = hand_entry.SITS_OUT["winner"]
    assert _refused(lambda: record_win(five, 1, Win(4, "wall", None, 10))) == said
    discarder = hand_entry.SITS_OUT["discarder"]
    assert _refused(lambda: record_win(five, 1, Win(0, "discard", 4, 10))) == discarder
