"""The dealer's wall-breaking throw (seed 004, "Breaking the Wall"): two or three dice, the
total counted counter-clockwise from the dealer to find whose wall is broken.

Dealer (East) 1, 5, 9, 13, 17; South 2, 6, 10, 14, 18; West 3, 7, 11, 15; North 4, 8, 12, 16.
The count goes East, South, West, North at a table of three too (nobody sits North, so that
wall has no owner), and at a table of five only the four players of this hand have walls.
Plain Python, no Django (pyproject.toml's import contract for the pure cores holds it to
that).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.flow import WIND_WORDS

WALL_ORDER = ("E", "S", "W", "N")
# Dice faces as characters, large on the page; the number is always written beside them.
FACES = {1: "⚀", 2: "⚁", 3: "⚂", 4: "⚃", 5: "⚄", 6: "⚅"}
DICE_COUNTS = (2, 3)


def wall_to_break(total: int) -> str:
    """The seat wind whose wall is broken for a dice total (counting the dealer as 1)."""
    if total < 1:
        raise ValueError(f"A dice total is at least 1, not {total}.")
    return WALL_ORDER[(total - 1) % 4]


@dataclass(frozen=True)
class Throw:
    dice: tuple[int, ...]
    wall: str  # "E", "S", "W" or "N"
    owner: str | None  # the name of whoever sits in that seat this hand, None if nobody

    @property
    def total(self) -> int:
        return sum(self.dice)

    @property
    def faces(self) -> str:
        return " ".join(FACES[value] for value in self.dice)

    def sentence(self) -> str:
        """ "4 + 6 + 1 = 11: break West's wall (Carol's)"."""
        sums = f"{' + '.join(str(v) for v in self.dice)} = {self.total}"
        if self.wall == "E":
            whose = f"break the dealer's wall ({self.owner}'s)"
        elif self.owner:
            whose = f"break {WIND_WORDS[self.wall]}'s wall ({self.owner}'s)"
        else:
            whose = f"break the {WIND_WORDS[self.wall]} wall (nobody sits {WIND_WORDS[self.wall]})"
        return f"{sums}: {whose}"


def throw(count: int, names_by_wind: dict[str, str], rng: random.Random | None = None) -> Throw:
    """Throw `count` dice; `names_by_wind` names who sits in each seat this hand."""
    if count not in DICE_COUNTS:
        raise ValueError(f"The wall is broken with 2 or 3 dice, not {count}.")
    rng = rng or random.SystemRandom()
    dice = tuple(rng.randint(1, 6) for _ in range(count))
    wall = wall_to_break(sum(dice))
    return Throw(dice=dice, wall=wall, owner=names_by_wind.get(wall))
