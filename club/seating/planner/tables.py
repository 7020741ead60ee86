"""A seating: its tables and their chairs, the players, and what is needed to adjust it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import SeatingError
from .players import Names, Player, PlayerId, names_of
from .quality import Quality
from .rules import SeatingRules
from .winds import PlannedSeat, Wind


@dataclass(frozen=True, slots=True)
class Table:
    """One table: its number and its chairs, counter-clockwise from East.

    For a table of five the last chair is the Dreamer's (sits out the first hand).
    """

    number: int
    chairs: tuple[PlannedSeat, ...]

    @property
    def player_ids(self) -> tuple[PlayerId, ...]:
        return tuple(c.player_id for c in self.chairs)

    @property
    def size(self) -> int:
        return len(self.chairs)

    def wind_of(self, player_id: PlayerId) -> Wind:
        for c in self.chairs:
            if c.player_id == player_id:
                return c.wind
        raise SeatingError(f"Player {player_id} is not at table {self.number}.")

    @property
    def east(self) -> PlayerId:
        return self.chairs[0].player_id

    @property
    def dreamer(self) -> PlayerId | None:
        """The player who sits out the first hand at a table of five, else None."""
        last = self.chairs[-1]
        return last.player_id if last.wind is Wind.DREAMER else None

    @property
    def dreamer_rotation(self) -> tuple[PlayerId, ...]:
        """At a table of five, who sits out in turn: the Dreamer, then East, South, West, North.

        Each time East does not go Mahjong, East retires and becomes the Dreamer, the winds
        move on (South becomes East, ...) and the Dreamer comes in as North.  Empty for other
        tables.
        """
        if self.dreamer is None:
            return ()
        return (self.chairs[-1].player_id, *(c.player_id for c in self.chairs[:-1]))


@dataclass(frozen=True)
class Seating:
    """A proposed (or published) seating with its quality and everything needed to adjust it.

    ``history`` and ``rules`` are kept so that :func:`swap`, :func:`add_late_arrival`,
    :func:`remove_leaver` and :func:`reroll` can recompute the quality.  ``locked`` holds the
    numbers of the tables the coordinator locked (kept as they are by :func:`reroll`).
    """

    tables: tuple[Table, ...]
    quality: Quality
    players: tuple[Player, ...]
    history: tuple[tuple[tuple[PlayerId, ...], ...], ...] = ()
    rules: SeatingRules = field(default_factory=SeatingRules)
    locked: frozenset[int] = frozenset()

    def table(self, number: int) -> Table:
        for t in self.tables:
            if t.number == number:
                return t
        raise SeatingError(f"There is no table {number}.")

    def table_of(self, player_id: PlayerId) -> Table:
        for t in self.tables:
            if player_id in t.player_ids:
                return t
        raise SeatingError(f"{self.names[player_id]} is not seated.")

    @property
    def names(self) -> Names:
        return names_of(self.players)

    def as_session(self) -> list[list[PlayerId]]:
        """The tables as lists of ids: append this to the history once the session is played."""
        return [list(t.player_ids) for t in self.tables]
