"""The data the seating functions take and return (plain frozen dataclasses)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .errors import SeatingError
from .history import Weights
from .sizes import PREFER_CHOICES, Prefer
from .winds import Seat, WindRoll

PlayerId = Hashable


@dataclass(frozen=True, slots=True)
class Player:
    """A present member: any hashable id (the Django pk, say) and whether a beginner."""

    id: PlayerId
    beginner: bool = False


def as_players(players: Iterable[Player | PlayerId]) -> tuple[Player, ...]:
    """Accept :class:`Player` objects or bare ids (not beginners); reject duplicates."""
    result = []
    seen: set[PlayerId] = set()
    for p in players:
        player = p if isinstance(p, Player) else Player(p)
        if player.id in seen:
            raise SeatingError(f"Player {player.id!r} is listed twice among the present players.")
        seen.add(player.id)
        result.append(player)
    return tuple(result)


@dataclass(frozen=True)
class SeatingRules:
    """The club's settings and the standing constraints for one session.

    * ``prefer``: odd table size when the head count does not divide by four ("five" or
      "three"), see :func:`table_sizes`.
    * ``spread_beginners``: spread beginners across tables (a soft goal).
    * ``never_together``: pairs never seated at one table (hard).
    * ``fixed_tables``: ``{player_id: table_number}``, e.g. for mobility (hard).
    * ``weights``: the cost of repeats (see :class:`Weights`).

    Constraints about players who are absent are ignored.
    """

    prefer: Prefer = "five"
    spread_beginners: bool = False
    never_together: tuple[frozenset, ...] = ()
    fixed_tables: Mapping[PlayerId, int] = field(default_factory=dict)
    weights: Weights = field(default_factory=Weights)

    def __post_init__(self) -> None:
        if self.prefer not in PREFER_CHOICES:
            raise SeatingError(
                f"The preferred odd table size must be 'five' or 'three', not {self.prefer!r}."
            )
        pairs = []
        for item in self.never_together:
            ids = tuple(item)
            if len(ids) != 2 or ids[0] == ids[1]:
                raise SeatingError(
                    f"A 'never together' rule needs two different players, not {item!r}."
                )
            pair = frozenset(ids)
            if pair not in pairs:
                pairs.append(pair)
        object.__setattr__(self, "never_together", tuple(pairs))
        fixed = dict(self.fixed_tables)
        for pid, number in fixed.items():
            if isinstance(number, bool) or not isinstance(number, int) or number < 1:
                raise SeatingError(
                    f"Player {pid!r} is fixed to table {number!r}; table numbers are 1, 2, 3, ..."
                )
        object.__setattr__(self, "fixed_tables", MappingProxyType(fixed))

    def apart(self, a: PlayerId, b: PlayerId) -> bool:
        """True if a and b must never sit at one table."""
        return frozenset((a, b)) in self.never_together


@dataclass(frozen=True, slots=True)
class Table:
    """One table: its number and its chairs, counter-clockwise from East.

    For a table of five the last chair is the Dreamer's (sits out the first hand).
    """

    number: int
    chairs: tuple[WindRoll, ...]

    @property
    def player_ids(self) -> tuple[PlayerId, ...]:
        return tuple(c.player_id for c in self.chairs)

    @property
    def size(self) -> int:
        return len(self.chairs)

    def seat_of(self, player_id: PlayerId) -> Seat:
        for c in self.chairs:
            if c.player_id == player_id:
                return c.seat
        raise SeatingError(f"Player {player_id!r} is not at table {self.number}.")

    @property
    def east(self) -> PlayerId:
        return self.chairs[0].player_id

    @property
    def dreamer(self) -> PlayerId | None:
        """The player who sits out the first hand at a table of five, else None."""
        last = self.chairs[-1]
        return last.player_id if last.seat is Seat.DREAMER else None

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


@dataclass(frozen=True, slots=True)
class Quality:
    """How good a seating is, measured against this season's history.

    Every ``*_min`` field is a proven lower bound for these present players and table sizes
    (see :mod:`club.seating.bounds`): "at least this much is unavoidable".  Equal figure and
    bound = provably optimal on that figure.  The bound may be below the true optimum.

    * ``repeat_pairs``: pairs at one table this week who already sat together this season.
    * ``last_week_pairs``: pairs at one table this week who sat together last week.
    * ``cost``: the weighted cost (sum of :func:`pair_weights` of the pairs at one table,
      plus the beginner term when spreading beginners).
    * ``season_extra_meetings``: over the season including this week, the meetings of every
      pair beyond their first (what the club wants small).
    * ``max_meetings``: the most times any pair at this week's tables will have met, this
      week included.
    * ``beginners_per_table``: beginners at each table, in table order.
    * ``violations``: broken hard constraints (only possible after a forced manual change).
    """

    repeat_pairs: int
    repeat_pairs_min: int
    last_week_pairs: int
    last_week_pairs_min: int
    cost: float
    cost_min: float
    season_extra_meetings: int
    season_extra_meetings_min: int
    max_meetings: int
    beginners_per_table: tuple[int, ...] = ()
    violations: tuple[str, ...] = ()

    @property
    def optimal(self) -> bool:
        """True when provably nothing better exists (repeats, last-week pairs and cost at bound)."""
        return (
            self.repeat_pairs == self.repeat_pairs_min
            and self.last_week_pairs == self.last_week_pairs_min
            and self.cost <= self.cost_min + 1e-9
        )


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
        raise SeatingError(f"Player {player_id!r} is not seated.")

    def player(self, player_id: PlayerId) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise SeatingError(f"Player {player_id!r} is not present.")

    def as_session(self) -> list[list[PlayerId]]:
        """The tables as lists of ids: append this to the history once the session is played."""
        return [list(t.player_ids) for t in self.tables]

    @property
    def problems(self) -> tuple[str, ...]:
        """Tables that cannot play as they are (fewer than three players)."""
        return tuple(
            f"Table {t.number} has only {t.size} player{'s' if t.size != 1 else ''}: merge it or move its players."
            for t in self.tables
            if t.size < 3
        )
