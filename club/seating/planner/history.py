"""Past sessions turned into pair weights: who has sat with whom this season, and how recently."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import SeatingError
from .players import PlayerId

#: One session: its tables, each a sequence of player ids.
Session = Sequence[Sequence[PlayerId]]
#: This season's past sessions, oldest first, most recent (last week) last.
History = Sequence[Session]
Pair = frozenset  # frozenset of two player ids


@dataclass(frozen=True, slots=True)
class Weights:
    """How much a repeated pairing costs, and the beginner-spread term.

    A pair that sat at the same table ``age`` sessions ago (1 = last week) costs
    ``meeting(age)``; a pair's cost is the sum over all its meetings this season, so a pair
    that met twice costs about twice a pair that met once.  Defaults: last week 40, then
    ``floor + recent * decay ** (age - 2)``: 5, 4.5, 4.25, 4.125, ... never below 4, so that
    fewer repeats nearly always win and, among as many, the oldest ones are chosen.

    ``plan_seating`` treats last week's pairs as more important than everything else except the
    hard constraints (lexicographically), whatever ``last_week`` is; ``last_week`` still sets
    the reported weighted cost and how much the look-ahead avoids next-week repeats.

    ``beginner_pair`` is added for every two beginners at one table when the club asks to
    spread beginners: fewest beginner pairs = beginners spread as evenly as possible.
    """

    last_week: float = 40.0
    recent: float = 1.0
    decay: float = 0.5
    floor: float = 4.0
    beginner_pair: float = 6.0

    def __post_init__(self) -> None:
        if min(self.last_week, self.recent, self.floor, self.beginner_pair) < 0:
            raise SeatingError("Seating weights cannot be negative.")
        if not 0 <= self.decay <= 1:
            raise SeatingError("The weight decay must be between 0 and 1.")

    def meeting(self, age: int) -> float:
        """The cost of one meeting ``age`` sessions ago (1 = last week)."""
        if age <= 1:
            return self.last_week
        return self.floor + self.recent * self.decay ** (age - 2)


def pair(a: PlayerId, b: PlayerId) -> Pair:
    return frozenset((a, b))


def normalise_history(
    history: Iterable[Session] | None,
) -> tuple[tuple[tuple[PlayerId, ...], ...], ...]:
    """Check the shape of ``history`` and freeze it (sessions oldest first)."""
    if history is None:
        return ()
    sessions = []
    for number, session in enumerate(history, start=1):
        if isinstance(session, str | bytes):
            raise SeatingError(f"Session {number} of the history must be a list of tables.")
        tables = []
        seen: set[PlayerId] = set()
        for table in session:
            if isinstance(table, str | bytes):
                raise SeatingError(f"A table in session {number} must be a list of player ids.")
            ids = tuple(table)
            for pid in ids:
                if pid in seen:
                    raise SeatingError(
                        f"Player {pid!r} sits twice in session {number} of the history."
                    )
                seen.add(pid)
            tables.append(ids)
        sessions.append(tuple(tables))
    return tuple(sessions)


def meeting_ages(history: History) -> dict[Pair, list[int]]:
    """For each pair who sat at one table this season: the ages of their meetings (1 = last week)."""
    ages: dict[Pair, list[int]] = {}
    total = len(history)
    for index, session in enumerate(history):
        age = total - index
        for table in session:
            ids = list(table)
            for i, a in enumerate(ids):
                for b in ids[i + 1 :]:
                    ages.setdefault(pair(a, b), []).append(age)
    return ages


def pair_weights(
    history: History, weights: Weights | None = None, *, offset: int = 0
) -> dict[Pair, float]:
    """The cost of seating each pair together this week (pairs never met are absent: cost 0).

    ``offset`` ages every meeting by that many weeks (used for looking ahead).
    """
    weights = weights or Weights()
    return {
        p: sum(weights.meeting(a + offset) for a in ages)
        for p, ages in meeting_ages(history).items()
    }
