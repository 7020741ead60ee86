"""The hand engine's refusals in a player's words, for the tile picker.

The engine writes its messages for the command line: they name the contract's fields in
quotes ('tiles', 'winning_tile'), list tiles by code (b1 d9) and quote values. A player at
the table needs the same reason in plain words. The picker checks what it can itself first
(the tile count, the winning tile, robbing a kong: scoring.picker); what only the engine
knows (whether the tiles make a winning hand under these rules) comes through here.

Plain Python, no Django (pyproject.toml's import contract for the pure cores holds it to
that).
"""

from __future__ import annotations

import re

from scoring.engine.tiles import CODES
from scoring.picker import FACES

RULES_WORDS = {"hk": "Hong Kong", "u3a": "U3A", "fan": "fan", "classical": "classical"}
GENERAL = (
    "These tiles cannot be scored as they are under these rules: check the tiles, the sets "
    "declared and the winning tile."
)
# Every tile code but "we" (East wind), which is also a word.
_CODE = re.compile(r"\b(" + "|".join(code for code in CODES if code != "we") + r")\b")
# What a player should never read: a field or value in quotes, an identifier with an
# underscore, an empty value, a Python value, a tile code.
DEVELOPER = re.compile(
    r"(?<!\w)'[^'\s]*'|\"[^\"]*\"|\b\w+_\w+\b|\bNone\b|[\[\]{}<>]|" + _CODE.pattern
)


def _tiles_in_words(codes: str) -> str:
    return ", ".join(FACES[code].label for code in codes.split() if code in FACES)


# (engine message, the same in a player's words); tried in order, the first match is used.
_TRANSLATIONS: tuple[tuple[re.Pattern, object], ...] = (
    (
        re.compile(
            r"This is not a complete winning hand: the concealed tiles .* do not make (.+)\."
        ),
        lambda m: (
            "These tiles do not make a winning hand: the tiles in the hand, besides the "
            f"declared sets, do not make {m[1].replace(' (nor', ', nor').rstrip(')')}."
        ),
    ),
    (
        re.compile(r"This hand \(.*\) is a (.+) hand, which is not a winning hand under (.+)\."),
        lambda m: f"These tiles make {m[1]}, which is not a winning hand under {m[2]}.",
    ),
    (
        re.compile(r"This hand \(.*\) is not complete under the classical rules: (.+)"),
        lambda m: (
            "These tiles do not make a winning hand under the classical rules: "
            + m[1].replace("it makes only", "they make only")
        ),
    ),
    (
        re.compile(r"The robbed kong's tile (\w+) came from .*"),
        lambda m: (
            f"Robbing a kong: the winning tile, {_tiles_in_words(m[1])}, is the one another "
            "player added to their pong, so the hand holds only one of it."
        ),
    ),
    (
        re.compile(r"The discarder \(\w+\) is the winner's own seat.*"),
        lambda m: "The winner cannot also be the one who discarded: choose another player.",
    ),
    (
        re.compile(r"This hand has (\d+) tiles .*; a winning hand has 14(.*?) \((\d+)\).*"),
        lambda m: (
            f"The hand has {m[1]} tiles: a winning hand{' with these kongs' if m[2] else ''} "
            f"has {m[3]}."
        ),
    ),
    (
        re.compile(r"(?:The hand has no 'winning_tile'|'winning_tile' must be).*"),
        lambda m: "Tap the tile that completed the hand (the winning tile).",
    ),
)


def item_in_words(name: str) -> str:
    """A score item's name with its tiles by label: "Pair of dragons (dr)" -> "Pair of
    dragons (Red dragon)"; "Exposed chow (b1 b2 b3)" -> "... (1, 2, 3 Bamboo)"."""

    def labels(match: re.Match) -> str:
        codes = match[1].split()
        if not all(code in FACES for code in codes):
            return match[0]
        faces = [FACES[code] for code in codes]
        if len(faces) > 1 and all(f.number and f.kind == faces[0].kind for f in faces):
            suit = faces[0].label.split(" ", 1)[1]
            return f"({', '.join(f.number for f in faces)} {suit})"
        return f"({', '.join(f.label for f in faces)})"

    return re.sub(r"\(([^()]*)\)", labels, name)


def in_words(message: str) -> str:
    """`message` (the engine's or a rule's refusal) as a player should read it: known
    refusals rewritten, rule sets by their names, tiles by their labels; anything still
    written for a developer replaced by a general sentence."""
    for pattern, words in _TRANSLATIONS:
        match = pattern.fullmatch(message.strip())
        if match:
            message = words(match)
            break
    message = re.sub(
        r"\bthe (\w+) rules\b", lambda m: f"the {RULES_WORDS.get(m[1], m[1])} rules", message
    )
    message = _CODE.sub(lambda m: FACES[m[1]].label, message)
    return GENERAL if DEVELOPER.search(message) else message
