"""The match's own small behaviours that several modules share: its players' names in chair
order, and saving with the version moved on (what every device at the table polls)."""

from django.utils import timezone

from games.models import Match
from games.start import start_play
from tests.games.helpers import one_named_table


def test_player_names_are_in_chair_order(club):
    match = start_play(one_named_table("u3a", names=("Ann", "Betty", "Carol", "Dot")))[0]
    assert match.player_names() == ["Ann", "Betty", "Carol", "Dot"]


def test_save_and_bump_version_saves_the_fields_named_and_moves_the_version_on(club):
    match = start_play(one_named_table("u3a"))[0]
    version = match.version
    match.status, match.ending = Match.Status.FINISHED, Match.Ending.CLOSED
    match.finished_at = timezone.now()
    match.rules = "fan"  # not named: stays as saved
    match.save_and_bump_version("status", "ending", "finished_at")
    match.refresh_from_db()
    assert match.version == version + 1
    assert (match.status, match.ending) == (Match.Status.FINISHED, Match.Ending.CLOSED)
    assert match.rules == "u3a"
