"""POST /api/score/: one hand in, exactly the command line's answer for that line out
(200 when it scored, 400 otherwise); no login, no CSRF token, nothing stored."""

import io
import json

import pytest
from django.test import Client

from scoring.engine import cli
from scoring.engine.random_hands import random_hands

pytestmark = pytest.mark.django_db
URL = "/api/score/"

HAND = {
    "tiles": "b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr",
    "melds": [{"tiles": "ww ww ww", "concealed": False}],
    "winning_tile": "d9",
    "won_by": "discard",
    "discarder": "N",
    "seat_wind": "S",
    "prevailing_wind": "E",
    "bonus": "f2 s3",
}


@pytest.fixture
def api():
    # A tool, not a browser: CSRF is checked as strictly as Django can, and nobody logs in.
    return Client(enforce_csrf_checks=True)


def cli_answer(body: bytes, rules: str, *options: str) -> bytes:
    out = io.BytesIO()
    argv = ["--rules", rules, "--workers", "1"]
    for option in options:
        argv += ["--option", option]
    assert cli.main(argv, stdin=io.BytesIO(body), stdout=out) == 0
    return out.getvalue()


def post(api, body, query="?rules=classical", content_type="application/json"):
    if not isinstance(body, bytes):
        body = json.dumps(body).encode()
    return api.post(URL + query, body, content_type=content_type)


def test_a_hand_is_answered_exactly_as_the_command_line_answers_it(api, club):
    response = post(api, HAND)
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response.content == cli_answer(json.dumps(HAND).encode(), "classical")
    assert json.loads(response.content)["total"] == 136


@pytest.mark.parametrize("rules", ["classical", "hk", "fan", "u3a"])
def test_random_hands_match_the_command_line_byte_for_byte(api, club, rules):
    for hand in random_hands(25, seed=7):
        body = json.dumps(hand).encode()
        response = post(api, body, f"?rules={rules}")
        assert response.content == cli_answer(body, rules)
        assert response.status_code == (200 if b'"ok": true' in response.content else 400)


def test_options_are_the_command_lines_options(api, club):
    query = "?rules=classical&option=limit=100"
    response = post(api, HAND, query)
    assert response.status_code == 200
    assert response.content == cli_answer(json.dumps(HAND).encode(), "classical", "limit=100")
    assert json.loads(response.content)["total"] == 100
    hk = post(api, HAND, "?rules=hk&option=min_faan=0&option=max_faan=5")
    assert hk.content == cli_answer(json.dumps(HAND).encode(), "hk", "min_faan=0", "max_faan=5")


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({**HAND, "tiles": "b1 b2 b3 d9"}, "a winning hand has 14"),
        ({**HAND, "tiles": HAND["tiles"] + " x7"}, "Tile 'x7' in 'tiles' is not a tile code"),
        ({**HAND, "last_tiles": True}, "unknown field"),
        (b'{"tiles": ', "not valid JSON"),
        (b"", "blank"),
        (b"[1, 2]", "must be a JSON object"),
        (b"\xff\xfe", "not valid JSON text"),
    ],
)
def test_a_bad_hand_is_400_with_the_command_lines_error_line(api, club, body, error):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = post(api, raw)
    assert response.status_code == 400
    answer = json.loads(response.content)
    assert answer["ok"] is False and error in answer["error"]
    # An empty body is the command line's blank line (an empty input has no lines at all).
    assert response.content == cli_answer(raw or b"\n", "classical")


def test_a_body_over_the_command_lines_line_limit_is_refused_as_it_is(api, club):
    body = json.dumps({**HAND, "bonus": " " * cli.MAX_LINE_BYTES}).encode()
    response = post(api, body)
    assert response.status_code == 400
    assert "longer than 1 MB" in json.loads(response.content)["error"]
    assert response.content == cli_answer(body, "classical")


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("", "Say which rules to score by"),
        ("?rules=mahjongg", "mahjongg"),
        ("?rules=classical&option=nolimit=5", "nolimit"),
        ("?rules=classical&option=limit=lots", "limit"),
        ("?rules=classical&option=limit", "option needs KEY=VALUE"),
    ],
)
def test_bad_rules_or_options_are_400_with_a_message(api, club, query, error):
    response = post(api, HAND, query)
    assert response.status_code == 400
    answer = json.loads(response.content)
    assert answer["ok"] is False and error in answer["error"]


def test_only_json_is_taken(api, club):
    response = post(api, b"tiles=b1", content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert "Content-Type: application/json" in json.loads(response.content)["error"]


def test_only_post_is_answered(api, club):
    assert api.get(URL + "?rules=classical").status_code == 405
