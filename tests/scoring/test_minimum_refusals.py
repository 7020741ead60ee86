"""Every refusal of a win below the minimum names the minimum that applies to that hand:
the club's for an ordinary hand, a goulash hand's own (U3A: at least 5 points) when it is
higher, saying the club's usual minimum too. For each rule set with a minimum, ordinary and
goulash hands, and each way a win is refused: the engine's check of a total, a quick win at
the table, a hand worked out from its tiles, and a correction that turns a hand into a
goulash hand."""

import re
from html import unescape

import pytest

from games.models import Match
from games.start import start_play
from scoring.corrections import CorrectionRefused, Draw, correct_hand
from scoring.engine import RULESET_NAMES, EngineError, get_ruleset
from scoring.recording import RecordingError, Win, record_draw, record_full, record_win
from scoring.rules import build_ruleset
from tests.games.helpers import seated_session
from tests.scoring.test_table_views import HTMX, url

pytestmark = pytest.mark.django_db

# A plain hand won on a discard: 1 faan (hk), 2 fan (fan), 3 points (u3a); every case below
# sets a minimum above it.
SMALL = {"tiles": "b1 b2 b3 c4 c5 c6 d7 d8 d9 d2 d3 d4 dr dr", "winning_tile": "dr"}

# (rule set, goulash hand, the club's minimum)
CASES = [
    ("hk", False, 3),
    ("fan", False, 3),
    ("u3a", False, 4),
    ("u3a", True, 3),  # the goulash minimum (5) is higher: it applies
    ("u3a", True, 0),  # the club has no minimum, a goulash hand still needs 5
    ("u3a", True, 7),  # the club's minimum is higher than a goulash hand's: the club's applies
]


def test_the_cases_cover_every_rule_set_with_a_minimum_and_every_kind_of_hand():
    with_minimum = {name for name in RULESET_NAMES if get_ruleset(name).minimum_option}
    assert {name for name, _, _ in CASES} == with_minimum
    for name in with_minimum:
        kinds = {goulash for rules, goulash, _ in CASES if rules == name}
        has_goulash = "goulash" in get_ruleset(name).hand_options
        assert kinds == ({False, True} if has_goulash else {False})


def _applies(ruleset, goulash: bool, club_minimum: int) -> int:
    if not goulash:
        return club_minimum
    return max(club_minimum, ruleset.values["goulash.min_points"])


def assert_names_the_minimum(message: str, rules: str, goulash: bool, club_minimum: int):
    ruleset = get_ruleset(rules)
    applies = _applies(ruleset, goulash, club_minimum)
    figures = re.findall(r"(?:minimum of|minimum is|at least) (\d+)", message)
    if applies > club_minimum:  # a goulash hand's own minimum
        assert f"a goulash hand needs at least {ruleset.amount(applies)}" in message
        usual = (
            f"this club's usual minimum is {ruleset.amount(club_minimum)}"
            if club_minimum
            else "other hands have no minimum"
        )
        assert usual in message
        assert "this club's minimum" not in message
    else:
        assert f"this club's minimum of {ruleset.amount(applies)}" in message
        assert figures == [str(applies)]
    assert str(applies) in figures


@pytest.mark.parametrize(("rules", "goulash", "club_minimum"), CASES)
def test_the_engine_names_the_minimum_that_applies(rules, goulash, club_minimum):
    ruleset = build_ruleset(rules, {get_ruleset(rules).minimum_option: club_minimum})
    applies = _applies(ruleset, goulash, club_minimum)
    options = {"goulash": True} if goulash else {}
    with pytest.raises(EngineError) as error:
        ruleset.check_total(applies - 1, options)
    assert_names_the_minimum(str(error.value), rules, goulash, club_minimum)
    assert ruleset.check_total(applies, options) == applies


def test_a_goulash_hand_names_its_own_minimum_and_the_clubs():
    message = get_ruleset("u3a").below_minimum(4, {"min_points": 3, "goulash": True})
    assert message == (
        "4 points is too few for a goulash hand: a goulash hand needs at least 5 points; "
        "this club's usual minimum is 3 points."
    )


def _evening(club, rules, club_minimum):
    club.rule_set = rules
    club.rule_options = {get_ruleset(rules).minimum_option: club_minimum}
    club.save()
    session = seated_session(club)
    start_play(session)
    return session, Match.objects.get(session=session, status="in_play")


def _hand_number(match, goulash: bool) -> int:
    """The next hand: a goulash hand after a drawn one."""
    if goulash:
        record_draw(match, 1)
        assert match.replay()[-1].goulash
        return 2
    return 1


@pytest.mark.parametrize(("rules", "goulash", "club_minimum"), CASES)
def test_a_quick_win_at_the_table_names_the_minimum_that_applies(
    coordinator_client, club, rules, goulash, club_minimum
):
    session, match = _evening(club, rules, club_minimum)
    number = _hand_number(match, goulash)
    total = _applies(get_ruleset(rules), goulash, club_minimum) - 1
    data = {"hand": str(number), "winner": "1", "won_by": "wall", "total": str(total)}
    response = coordinator_client.post(url("win", session), data, **HTMX)
    html = unescape(response.content.decode())
    (message,) = re.findall(rf"{total} (?:points|faan|fan) is [^<]*", html)
    assert_names_the_minimum(message, rules, goulash, club_minimum)
    assert not match.live_hands().filter(number=number).exists()


@pytest.mark.parametrize(("rules", "goulash", "club_minimum"), CASES)
def test_a_hand_worked_out_from_its_tiles_names_the_minimum_that_applies(
    club, rules, goulash, club_minimum
):
    _, match = _evening(club, rules, club_minimum)
    number = _hand_number(match, goulash)
    with pytest.raises(RecordingError) as error:
        record_full(match, number, Win(1, "discard", 0, tiles=SMALL))
    message = str(error.value)
    assert message.startswith("This hand scores ") and "It cannot be recorded as a win" in message
    assert_names_the_minimum(message, rules, goulash, club_minimum)


def test_a_correction_that_makes_a_hand_a_goulash_hand_names_the_goulash_minimum(club):
    _, match = _evening(club, "u3a", 3)
    record_win(match, 1, Win(1, "wall", None, 10))
    record_full(match, 2, Win(1, "discard", 0, tiles=SMALL))  # 3 points: the club's minimum
    with pytest.raises(CorrectionRefused) as error:
        correct_hand(match, 1, Draw(), "Nobody went out")  # hand 2 becomes a goulash hand
    assert_names_the_minimum(str(error.value), "u3a", True, 3)
    assert match.live_hands().get(number=1).winner == 1
