"""Every refusal the tile picker can show is in a player's words, at a table and practising,
under every rule set: no field names in quotes, no identifiers with underscores, no tile
codes, no "not ''", no Python values or Django's own phrases; and each says what is wrong.

The engine's messages are written for its command line ("'winning_tile' must be one tile
code, not ''."); the picker's page must never pass them through."""

import re
from html import unescape
from html.parser import HTMLParser

import pytest

from scoring.picker import steps_for
from scoring.picker_words import GENERAL, in_words
from tests.scoring.test_full_hand import evening_of
from tests.scoring.test_table_views import HTMX, url

pytestmark = pytest.mark.django_db

RULES = ["classical", "hk", "fan", "u3a"]
DEVELOPER_SPEAK = {
    "a quoted name or value": re.compile(r"(?<!\w)['\"][^'\"\s]*['\"]"),
    "an identifier with an underscore": re.compile(r"\b[A-Za-z]+_[A-Za-z_]+\b"),
    "a tile code": re.compile(r"\b(?:[bcd][1-9]|w[swn]|d[rgw]|[fs][1-4])\b"),
    "a Python value": re.compile(r"\b(?:None|True|False)\b|[\[\]{}]|\\x|<\w"),
    "Django's own words": re.compile(
        r"Select a valid choice|This field is required|Ensure this value|Enter a whole"
    ),
}


class _Text(HTMLParser):
    """The text a person reads or hears: every text node (visually hidden ones too), no
    attribute values (the hidden inputs hold the steps, which are tile codes)."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)


def shown_text(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return unescape(" ".join(" ".join(parser.parts).split()))


def developer_speak(text: str) -> list[str]:
    return [f"{what}: {m[0]!r}" for what, rx in DEVELOPER_SPEAK.items() for m in rx.finditer(text)]


WIN = "b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr ww ww ww"  # 136 points under classical
# Each refusal: the steps tapped, the tap just made (if any), the choices, what the page
# must say. Who won and how are filled in per place (a table's chairs, practice's winds).
CASES = {
    "nothing tapped, saved": (
        "",
        {},
        {"save": "1"},
        {"table": "Before saving, choose", "practice": "Tap the tiles below"},
    ),
    "only a declared pong: no winning tile": (
        "ww ww ww pong-ww",
        {},
        {},
        "The hand has 3 tiles: a winning hand has 14 (one more for each kong). Tap 11 more.",
    ),
    "too few tiles": (
        "b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr ww ww",
        {},
        {},
        "The hand has 13 tiles: a winning hand has 14 (one more for each kong). Tap 1 more.",
    ),
    "too few tiles with a kong": (
        "c5 c5 c5 c5 kong-c5 b1 b2 b3 d7 d8 d9 dr dr ww",
        {},
        {},
        "The hand has 13 tiles: a winning hand with 1 kong has 15. Tap 2 more.",
    ),
    "too many tiles": (
        WIN + " b4",
        {},
        {},
        "The hand has 15 tiles: a winning hand has 14 (one more for each kong). Undo 1 tile.",
    ),
    "too many tiles: four alike not declared": (
        "b1 b2 b3 c5 c5 c5 c5 d7 d8 d9 dr dr ww ww ww",
        {},
        {},
        "Four 5 Characters count as a kong only when declared",
    ),
    "a fifth tile tapped": (
        "c5 c5 c5 c5",
        {"tap": "c5"},
        {},
        "All four 5 Characters are already in the hand.",
    ),
    "a fifth tile in the steps posted": (
        "c5 c5 c5 c5 c5",
        {},
        {},
        "All four 5 Characters are already in the hand.",
    ),
    "a second flower 1": ("f1", {"tap": "f1"}, {}, "Flower 1: Plum is already laid out"),
    "a tap that is no tile": ("b1", {"tap": "x9"}, {}, "not a tile the picker knows"),
    "steps that are no tiles": ("b1 zz_top", {}, {}, "not a tile the picker knows"),
    "a concealed kong of three": (
        "b3 b3 b3",
        {"tap": "ckong-b3"},
        {},
        "Tap 3 Bamboo 4 times first, then declare the concealed kong.",
    ),
    "a pong of two": ("b3 b3", {"tap": "pong-b3"}, {}, "Tap 3 Bamboo 3 times first"),
    "a chow off the end of the suit": (
        "c8 c9",
        {"tap": "chow-c8"},
        {},
        "A chow is three tiles in a row of one suit",
    ),
    "a chow not tapped": ("c4 c6", {"tap": "chow-c4"}, {}, "Tap the three tiles of the chow"),
    "no winning shape": (
        "b1 b2 b3 b4 b5 b6 b7 b8 b9 c1 c2 c3 dr dg",
        {},
        {"won_by": "wall"},
        "These tiles do not make a winning hand",
    ),
    "thirteen orphans one short": (
        "b1 b9 c1 c9 d1 d9 we ws ww wn dr dg dg d5",
        {},
        {"won_by": "wall"},
        "These tiles do not make a winning hand",
    ),
    "robbing a kong of a tile held twice": (
        "b1 b2 b3 c5 c5 c5 d7 d8 d9 d9 d9 dr dr dr",
        {"win": "d9"},
        {"won_by": "robbing_kong", "discarder": "other"},
        "Robbing a kong: the winning tile, 9 Dots, is the one another player added",
    ),
    "discarded by the winner": (
        WIN,
        {},
        {"won_by": "discard", "discarder": "self"},
        "The winner cannot also be the one",
    ),
    "how it was won: no such answer": (
        WIN,
        {},
        {"won_by": "sideways"},
        "That answer is not one of those offered",
    ),
    "who discarded: no such answer": (
        WIN,
        {},
        {"won_by": "discard", "discarder": "9"},
        "That answer is not one of those offered",
    ),
}
# Hands whose verdict depends on the rule set: refused in plain words, or scored (and saved
# at the table: the cheap hand comes last).
EITHER = {
    "seven pairs": ("b1 b1 b3 b3 c5 c5 c7 c7 d2 d2 d9 d9 dr dr", "seven pairs", False),
    "seven pairs using four alike": (
        "b1 b1 b1 b1 c5 c5 c7 c7 d2 d2 d9 d9 dr dr",
        "seven pairs",
        False,
    ),
    "a cheap hand, saved": ("b1 b2 b3 c4 c5 c6 d7 d8 d9 b7 b8 b9 c2 c2", "minimum", True),
}


def _who(place: str, data: dict) -> dict:
    """The case's choices with who won and who discarded as the place takes them: chair 1
    (South) wins at the table, the South wind practising; "other" is North."""
    data = {"won_by": "wall", **data}
    if place == "table":
        seats = {"other": "3", "self": "1"}
        data["winner"] = "1"
    else:
        seats = {"other": "N", "self": "S"}
        data.update(seat_wind="S", prevailing_wind="E", dealer="E")
    if "discarder" in data:
        data["discarder"] = seats.get(data["discarder"], data["discarder"])
    return data


@pytest.fixture(params=RULES)
def rules(request, club):
    club.rule_set = request.param
    club.save()
    return request.param


@pytest.fixture(params=["table", "practice"])
def place(request, rules, club, client, coordinator):
    """How to post to the picker: at table 1 of an evening in play, or practising."""
    if request.param == "table":
        session = evening_of(club, rules)
        client.force_login(coordinator)
        address = url("full", session)
        hand = {"hand": "1"}
    else:
        client.force_login(coordinator)
        address, hand = "/scoring/practice/", {}

    def post(steps: str, **data):
        response = client.post(address, {**hand, "steps": steps, **data}, **HTMX)
        assert response.status_code == 200
        return response

    post.name = request.param
    return post


def _check(post, steps, tap, choices, say, problems, save=True):
    """Post the case (at a table, then again pressing Save) and note what the page says
    wrongly; returns the first answer (a Save that succeeds answers with a redirect)."""
    if isinstance(say, dict):
        say = say[post.name]
    answers = []
    for pressed in ({}, {"save": "1"}) if post.name == "table" and save else ({},):
        data = _who(post.name, {**choices, **pressed})
        response = post(steps, **tap, **data)
        text = shown_text(response.content.decode())
        found = developer_speak(text)
        if found:
            problems.append(f"{steps!r} {tap} {data}: {found}")
        if say and say not in text:
            problems.append(f"{steps!r} {tap} {data}: does not say {say!r}")
        if GENERAL in text:
            problems.append(f"{steps!r} {tap} {data}: a refusal the picker could not put in words")
        answers.append(response)
    return answers[0]


def test_every_refusal_is_in_plain_words_and_says_what_is_wrong(place, rules):
    problems: list[str] = []
    for steps, tap, choices, say in CASES.values():
        _check(place, steps, tap, choices, say, problems)
    for steps, about, save in EITHER.values():
        response = _check(place, steps, {}, {"won_by": "wall"}, "", problems, save)
        preview = response.context["preview"]
        if preview.error and about not in preview.error.lower():
            problems.append(f"{rules} {steps}: refused without naming {about}: {preview.error}")
    assert not problems, "\n".join(problems)


def test_the_winning_tile_not_in_the_hand_is_the_last_one_tapped(place, rules):
    """A winning tile posted that is not in the hand (a stale page, a hand edited) is not
    refused with the engine's words: the last tile tapped is marked and scored instead."""
    steps = " ".join(steps_for({"tiles": WIN, "winning_tile": "ww"}))  # ww tapped last
    response = place(steps, winning="c7", **_who(place.name, {}))
    html = response.content.decode()
    assert 'id="win-ww" class="win-button" aria-pressed="true"' in html
    assert not developer_speak(shown_text(html)), shown_text(html)


# The engine's own refusals the picker passes through (reachable or not), in words.
ENGINE_MESSAGES = [
    "The hand has no 'winning_tile'.",
    "'winning_tile' must be one tile code, not ''.",
    "This hand has 13 tiles (13 in 'tiles' and 0 in melds); a winning hand has 14 (14), "
    "bonus tiles aside.",
    "This hand has 14 tiles (10 in 'tiles' and 4 in melds); a winning hand has 14 plus 1 for "
    "the kong (15), bonus tiles aside.",
    "The robbed kong's tile d9 came from another player's pong, so the winner cannot hold "
    "another d9.",
    "The discarder (S) is the winner's own seat; give the seat of another player.",
    "Seven pairs may not use four of a kind as two pairs under the hk rules, and these tiles "
    "make no other complete hand.",
    "At a three-player table nobody sits North: seat_wind must be E, S or W.",
    "'won_by' must be wall, replacement, discard or robbing_kong, not 'x'.",
    "Option 'limit' of the hk rules must be a whole number, not None.",
]


@pytest.mark.parametrize("message", ENGINE_MESSAGES)
def test_the_engines_words_for_the_command_line_never_reach_a_player(message):
    words = in_words(message)
    assert not developer_speak(words), words
    assert words != message
