"""Seat winds from a simulated dice roll, as the club's rule sheets describe.

Choosing the first dealer (seed rule sheet "Choose First Dealer"): the players sit down, each
throws one die, the highest becomes East; when several tie for the highest, only those throw
again until one is highest.  The other winds follow counter-clockwise from East: South, West,
North ("Eat Soup With Noodles").

* Table of three: East, South, West (three-player variant: the winds must include East).
* Table of five: the fifth player is the Dreamer and sits out the first hand.  With the five
  chairs taken counter-clockwise East, South, West, North, Dreamer, the Dreamer is the player
  after North.  When East does not go Mahjong, East retires and becomes the next Dreamer, the
  winds rotate (South becomes East, ...) and the Dreamer comes in as North.  So the players
  sit out in the order Dreamer, East, South, West, North, then round again.
  (The rule sheet also describes drawing the four wind tiles and a White Dragon; the dice roll
  gives the same distribution of roles.)

``throws`` always stay with the player who threw them.  When the coordinator swaps two
players before publishing, the two tables roll again (see ``adjust.swap``); after publishing, a
late arrival or a leaver changes nobody else's chair (see :func:`join_chair`, :func:`leave_chair`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from .errors import SeatingError
from .players import PlayerId


class Wind(StrEnum):
    """A player's place at the table: one of the four winds, or the Dreamer (sits out)."""

    EAST = "E"
    SOUTH = "S"
    WEST = "W"
    NORTH = "N"
    DREAMER = "D"

    @property
    def label(self) -> str:
        return {"E": "East", "S": "South", "W": "West", "N": "North", "D": "Dreamer"}[self.value]


#: Seats by table size, counter-clockwise from East.
WINDS_BY_SIZE: dict[int, tuple[Wind, ...]] = {
    2: (Wind.EAST, Wind.SOUTH),  # only transient, after a leaver; never planned
    3: (Wind.EAST, Wind.SOUTH, Wind.WEST),
    4: (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH),
    5: (Wind.EAST, Wind.SOUTH, Wind.WEST, Wind.NORTH, Wind.DREAMER),
}


@dataclass(frozen=True, slots=True)
class PlannedSeat:
    """One seat as the planner plans it: who sits there, their wind, and the dice thrown for
    it (`club.models.Seat` keeps it; a match's numbered place is `games.models.Chair`).

    ``throws`` are the die values thrown in order: the first throw, then re-throws while tied
    for the highest.  Empty for a player who joined after the roll (late arrival).
    """

    player_id: PlayerId
    wind: Wind
    throws: tuple[int, ...] = ()


def roll_winds(player_ids: Sequence[PlayerId], rng: random.Random) -> list[PlannedSeat]:
    """Simulate the dice roll for the first dealer at one table of 3 to 5 players.

    ``player_ids`` are the players in their chairs, counter-clockwise.  Everyone throws one die
    (``rng.randint(1, 6)``); while more than one player has the highest value, those players
    throw again.  The winner is East and the others take South, West, North (and Dreamer for a
    fifth player) counter-clockwise from East.  Returns the chairs East first.
    """
    ids = list(player_ids)
    if len(ids) not in (3, 4, 5):
        raise SeatingError(f"A table has 3, 4 or 5 players, not {len(ids)}.")
    if len(set(ids)) != len(ids):
        raise SeatingError("The same player cannot sit twice at one table.")
    throws: list[list[int]] = [[] for _ in ids]
    contenders = list(range(len(ids)))
    while True:
        for i in contenders:
            throws[i].append(rng.randint(1, 6))
        top = max(throws[i][-1] for i in contenders)
        contenders = [i for i in contenders if throws[i][-1] == top]
        if len(contenders) == 1:
            break
    east = contenders[0]
    winds = WINDS_BY_SIZE[len(ids)]
    order = [(east + k) % len(ids) for k in range(len(ids))]
    return [
        PlannedSeat(ids[i], wind, tuple(throws[i])) for i, wind in zip(order, winds, strict=True)
    ]


def relabel(chairs: Sequence[PlannedSeat]) -> tuple[PlannedSeat, ...]:
    """Give chairs listed counter-clockwise (first one East) the winds for their number."""
    winds = WINDS_BY_SIZE.get(len(chairs))
    if winds is None:
        raise SeatingError(f"A table cannot have {len(chairs)} players.")
    return tuple(replace(c, wind=w) for c, w in zip(chairs, winds, strict=True))


def join_chair(chairs: Sequence[PlannedSeat], player_id: PlayerId) -> tuple[PlannedSeat, ...]:
    """A player joins a table without anyone else moving.

    At a table of three they take the free North chair; at a table of four they become the
    Dreamer (they sit out the first hand and rotate in when East next retires).
    """
    if len(chairs) not in (2, 3, 4):
        raise SeatingError(f"A table of {len(chairs)} cannot take another player.")
    return relabel([*chairs, PlannedSeat(player_id, Wind.DREAMER)])


def leave_chair(chairs: Sequence[PlannedSeat], player_id: PlayerId) -> tuple[PlannedSeat, ...]:
    """A player leaves a table without the others changing chairs.

    At a table of five, if a playing chair empties the Dreamer takes that chair and its wind.
    Otherwise the others keep their chairs and the winds are read again counter-clockwise from
    East (if East left, South becomes East).
    """
    ids = [c.player_id for c in chairs]
    if player_id not in ids:
        raise SeatingError(f"Player {player_id!r} is not at this table.")
    i = ids.index(player_id)
    chairs = list(chairs)
    if len(chairs) == 5 and chairs[i].wind is not Wind.DREAMER:
        dreamer = chairs.pop()  # the Dreamer is listed last
        chairs[i] = replace(dreamer, wind=chairs[i].wind)
        return tuple(chairs)
    del chairs[i]
    return relabel(chairs)
