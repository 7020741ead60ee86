"""Hypothesis strategies and fixtures shared by the engine tests.

Rule-set tests can use them directly:

    from tests.engine.conftest import legal_hands

    @given(legal_hands())                     # any shape, every shape turns up
    @given(legal_hands("seven_pairs"))        # one shape
"""

from __future__ import annotations

import json
import random

from hypothesis import strategies as st

from scoring.engine.hand import HAND_FIELDS
from scoring.engine.random_hands import random_hand
from scoring.engine.shapes import SHAPES
from scoring.engine.tiles import CODES

# Shapes each rule set accepts as winning hands (docs/rules/ and the seeds).
ACCEPTED_SHAPES = {
    "classical": {"standard", "thirteen_orphans"},
    "hk": {"standard", "seven_pairs", "thirteen_orphans"},
    "fan": {"standard", "seven_pairs", "thirteen_orphans"},
    "u3a": set(SHAPES),
}
# Rule sets whose Seven Pairs may not use four of a kind as two pairs (seed 003 "no quads";
# hk follows the same reading).
SEVEN_PAIRS_WITHOUT_QUADS = {"hk", "fan"}


def accepted_by(name: str, hand: dict) -> bool:
    """True when rule set `name` must score this legal hand (it has a shape the rule set
    accepts), so an error would be a bug."""
    from scoring.engine.decompose import readings
    from scoring.engine.hand import parse_hand

    for reading in readings(parse_hand(hand)):
        if reading.shape not in ACCEPTED_SHAPES[name]:
            continue
        quads = reading.shape == "seven_pairs" and len({g.tile for g in reading.groups}) != 7
        if quads and name in SEVEN_PAIRS_WITHOUT_QUADS:
            continue
        return True
    return False


def legal_hands(shape: str | None = None) -> st.SearchStrategy[dict]:
    """Random LEGAL winning hands as contract JSON dicts.

    With no `shape`, a shape is drawn first (standard half the time, each special shape
    equally often otherwise), so a couple of hundred examples cover every shape.
    """
    shapes = st.just(shape) if shape else st.one_of(st.just("standard"), st.sampled_from(SHAPES))
    # A seed, not hypothesis' own Random: a hand takes many draws, which would trip
    # hypothesis' health checks; failures still print the whole hand.
    return st.tuples(st.integers(0, 2**32 - 1), shapes).map(
        lambda pair: random_hand(random.Random(pair[0]), pair[1])
    )


def shuffled_copy(hand: dict, rng: random.Random) -> dict:
    """The same hand written differently: tiles, melds, meld tiles and bonus tiles in
    another order, codes in random case, fields in another order."""

    def shuffle_codes(text: str) -> str:
        codes = text.split()
        rng.shuffle(codes)
        return " ".join(c.upper() if rng.random() < 0.3 else c for c in codes)

    out = {}
    keys = list(hand)
    rng.shuffle(keys)
    for key in keys:
        value = hand[key]
        if key in ("tiles", "bonus"):
            value = shuffle_codes(value)
        elif key == "melds":
            value = [dict(m, tiles=shuffle_codes(m["tiles"])) for m in value]
            rng.shuffle(value)
        out[key] = value
    return out


# -- junk: anything a careless caller might send ---------------------------------------

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.text(max_size=8), children, max_size=4),
    ),
    max_leaves=12,
)
# Tile strings mixing real codes, near misses and rubbish.
tile_words = st.one_of(
    st.sampled_from(CODES),
    st.sampled_from(CODES).map(str.upper),
    st.sampled_from(["x7", "b0", "b10", "w", "f5", "s0", "dd", "", "1b", "ñ"]),
    st.text(max_size=3),
)
tile_strings = st.lists(tile_words, max_size=20).map(" ".join)
junk_fields = st.fixed_dictionaries(
    {},
    optional={
        "tiles": st.one_of(tile_strings, json_values),
        "melds": st.one_of(
            st.lists(
                st.one_of(
                    st.fixed_dictionaries(
                        {"tiles": tile_strings}, optional={"concealed": json_values}
                    ),
                    json_values,
                ),
                max_size=5,
            ),
            json_values,
        ),
        "winning_tile": st.one_of(tile_words, json_values),
        "won_by": st.one_of(
            st.sampled_from(["wall", "replacement", "discard", "robbing_kong"]), json_values
        ),
        "discarder": st.one_of(st.sampled_from("ESWN"), json_values),
        "seat_wind": st.one_of(st.sampled_from("ESWN"), json_values),
        "prevailing_wind": st.one_of(st.sampled_from("ESWN"), json_values),
        "dealer": st.one_of(st.sampled_from("ESWN"), json_values),
        "bonus": st.one_of(tile_strings, json_values),
        "last_tile": json_values,
        "first_turn": json_values,
        "options": st.one_of(
            st.dictionaries(
                st.sampled_from(
                    [
                        "limit",
                        "min_faan",
                        "max_faan",
                        "min_fan",
                        "max_fan",
                        "min_points",
                        "goulash",
                        "players",
                        "liable",
                        "x",
                    ]
                ),
                json_values,
                max_size=3,
            ),
            json_values,
        ),
    },
)


@st.composite
def mutated_hands(draw) -> dict:
    """A legal hand with one field replaced, removed, or an extra field added."""
    hand = dict(draw(legal_hands()))
    action = draw(st.sampled_from(["replace", "remove", "add"]))
    field = draw(st.sampled_from(HAND_FIELDS))
    if action == "replace":
        hand[field] = draw(st.one_of(tile_strings, json_values))
    elif action == "remove":
        hand.pop(field, None)
    else:
        hand[draw(st.text(min_size=1, max_size=8))] = draw(json_values)
    return hand


junk_inputs = st.one_of(json_values, junk_fields, mutated_hands())


def junk_lines() -> st.SearchStrategy[str]:
    """Input lines a CLI may receive: junk JSON, broken JSON, blanks (no newlines)."""
    return st.one_of(
        junk_inputs.map(json.dumps),
        st.text(max_size=40).map(lambda s: s.replace("\n", " ").replace("\r", " ")),
        st.just(""),
    )
