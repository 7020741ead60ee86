"""The table page's arrangement: the player buttons keep their chairs' order all evening
(marked with each one's wind and the dealer), answers come beside the button pressed even
without JavaScript, and the hands played are listed below, the earlier ones folded."""

import re
import uuid
from html import unescape

import pytest

from scoring.engine.rulesets.base import RuleSet
from scoring.recording import Win, record_draw, record_win
from tests.games.helpers import seated_members, seated_session
from tests.scoring.test_table_views import HTMX, match_at, url

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        not hasattr(RuleSet, "check_total"),
        reason="the engine's RuleSet.check_total is not merged",
    ),
]


@pytest.fixture
def evening(club):
    from games.start import start_play

    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4, 5))
    start_play(session)
    return session


def buttons(html: str, field: str) -> list[tuple[str, str]]:
    """(value, visible words) of each radio button named `field`, in page order."""
    found = re.findall(
        rf'<input type="radio" name="{field}" value="(\d*)"[^>]*> <span>(.*?)</span></label>', html
    )
    return [
        (value, re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", label)).strip())
        for value, label in found
    ]


@pytest.mark.parametrize("table", [1, 2], ids=["four", "five with one sitting out"])
def test_the_player_buttons_keep_the_chairs_order_as_the_deal_moves(
    coordinator_client, evening, table
):
    match = match_at(evening, table)
    names = [m.table_name for m in seated_members(evening, table)]
    seen = []
    for number in range(1, 4):  # a non-dealer wins each hand: the deal moves on each time
        state = match.replay()[-1]
        html = unescape(coordinator_client.get(url("table", evening, table)).content.decode())
        playing = [chair for chair, wind in enumerate(state.winds) if wind]
        for field in ("winner", "discarder", "chair"):
            shown = buttons(html, field)
            assert [int(value) for value, _ in shown] == playing, field
            for (_, words), chair in zip(shown, playing, strict=True):
                wind = {"E": "East", "S": "South", "W": "West", "N": "North"}[state.winds[chair]]
                dealer = ", deals" if chair == state.dealer else ""
                assert words == f"{names[chair]} {state.winds[chair]} {wind}{dealer}", words
        seen.append([words for _, words in buttons(html, "winner")])
        winner = playing[(playing.index(state.dealer) + 1) % len(playing)]
        record_win(match, number, Win(winner, "wall", None, 10))
        match.refresh_from_db()
    # The same names in the same places every hand; only the marks moved.
    assert len({tuple(w.split()[0] for w in hand) for hand in seen}) == 1
    assert len({tuple(hand) for hand in seen}) == 3


def test_without_javascript_the_answer_is_beside_save_not_at_the_top(coordinator_client, evening):
    saved = coordinator_client.post(
        url("win", evening),
        {"hand": "1", "winner": "1", "won_by": "wall", "total": "10", "action": "save"},
    )
    page = unescape(coordinator_client.get(saved["Location"]).content.decode())
    form = page.split('id="win-form"')[1].split("</form>")[0]
    answer = form.split('id="preview"')[1].split('class="button-row save-row"')[0]
    assert "Hand 1 saved:" in answer and 'class="message message-success answer"' in answer
    assert page.count("Hand 1 saved:") == 1  # not also at the top of the page


def test_without_javascript_kong_chips_answer_in_the_open_kong_box(coordinator_client, evening):
    data = {"hand": "1", "chair": "2", "kind": "concealed", "key": str(uuid.uuid4())}
    saved = coordinator_client.post(url("kong", evening), data)
    page = unescape(coordinator_client.get(saved["Location"]).content.decode())
    box = page.split('<details class="card kong-box" open>')[1].split("</details>")[0]
    assert "Kong chips saved for" in box
    assert page.count("Kong chips saved for") == 1


def test_an_htmx_refusal_is_beside_save(coordinator_client, evening):
    record_draw(match_at(evening, 1), 1)
    html = unescape(
        coordinator_client.post(url("draw", evening), {"hand": "1"}, **HTMX).content.decode()
    )
    answer = html.split('id="preview"')[1].split('class="button-row save-row"')[0]
    assert "Hand 1 is already recorded" in answer and 'role="alert"' in answer


def test_the_latest_hands_are_listed_below_the_form_and_the_earlier_fold_away(
    coordinator_client, evening
):
    match = match_at(evening, 1)
    for number in range(1, 6):
        record_draw(match, number)
    html = unescape(coordinator_client.get(url("table", evening)).content.decode())
    hands = html.split('id="hands"')[1]
    assert html.index('id="win-form"') < html.index('id="hands"')
    shown, folded = hands.split('<details class="older-hands">')
    assert re.findall(r"Hand (\d+)</span>", shown) == ["5", "4", "3"]
    assert "<summary>Hands 1 to 2</summary>" in folded
    assert re.findall(r"Hand (\d+)</span>", folded.split("</details>")[0]) == ["2", "1"]


def test_polling_sends_the_hands_out_of_band(coordinator_client, evening):
    match = match_at(evening, 1)
    shown = match.version
    record_draw(match, 1)
    polled = coordinator_client.get(
        url("poll", evening) + f"?m={match.pk}&v={shown}&open=1&h=1", **HTMX
    ).content.decode()
    assert polled.lstrip().startswith('<div id="poll"')
    assert (
        '<section id="hands" class="hands" aria-labelledby="hands-heading" hx-swap-oob="true">'
        in polled
    )
