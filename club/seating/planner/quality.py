"""How good a seating is: repeats against this season's history, with proven lower bounds.

:func:`evaluate` measures any seating (also a hand-made one) against the history and gives
the proven lower bounds of :mod:`.bounds`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .bounds import degree_bound, pigeonhole_bound
from .history import History, meeting_ages, normalise_history, pair
from .players import Names, Player, PlayerId, as_players, names_of
from .rules import SeatingRules


class Table(Protocol):
    """What is read of a table (see .tables.Table): its number and who sits at it."""

    @property
    def number(self) -> int: ...

    @property
    def player_ids(self) -> tuple[PlayerId, ...]: ...


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
    * ``repeat_pairs_random`` / ``last_week_pairs_random``: how many a seating drawn at
      random (same table sizes) has on average, to say how many were avoided.
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
    repeat_pairs_random: float = 0.0
    last_week_pairs_random: float = 0.0
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


def evaluate(
    tables: Sequence[Table | Sequence[PlayerId]],
    players: Iterable[Player | PlayerId],
    history: History | None = None,
    rules: SeatingRules | None = None,
) -> Quality:
    """The :class:`Quality` of a seating: :class:`Table` objects, or lists of player ids
    (one list per table, numbered 1, 2, ... in the order given)."""
    rules = rules or SeatingRules()
    weights = rules.weights
    players = as_players(players)
    numbers = [getattr(t, "number", n) for n, t in enumerate(tables, start=1)]
    tables = [tuple(getattr(t, "player_ids", t)) for t in tables]
    history = normalise_history(history)
    ages = meeting_ages(history)
    last = (
        {pair(a, b) for t in history[-1] for i, a in enumerate(t) for b in t[i + 1 :]}
        if history
        else set()
    )
    beginners = {p.id for p in players if p.beginner}
    spread = rules.spread_beginners

    def weight(a: PlayerId, b: PlayerId) -> float:
        w = sum(weights.meeting(x) for x in ages.get(pair(a, b), ()))
        if spread and a in beginners and b in beginners:
            w += weights.beginner_pair
        return w

    repeat = lw = 0
    cost = 0.0
    max_meetings = 0
    for table in tables:
        ids = list(table)
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                p = pair(a, b)
                met = len(ages.get(p, ()))
                repeat += met > 0
                lw += p in last
                cost += weight(a, b)
                max_meetings = max(max_meetings, met + 1)
    history_extra = sum(len(a) - 1 for a in ages.values())

    ids = [p.id for p in players]
    present = set(ids)
    sizes = [len(t) for t in tables]
    k = len(tables)
    repeat_min = max(
        math.ceil(degree_bound(ids, sizes, lambda a, b: 1.0 if pair(a, b) in ages else 0.0) - 1e-9),
        pigeonhole_bound(present, k, [t for session in reversed(history) for t in session]),
    )
    lw_min = max(
        math.ceil(degree_bound(ids, sizes, lambda a, b: 1.0 if pair(a, b) in last else 0.0) - 1e-9),
        pigeonhole_bound(present, k, history[-1] if history else ()),
    )
    # At random every pair of present players is equally likely to share a table.
    share = sum(math.comb(size, 2) for size in sizes) / max(1, math.comb(len(ids), 2))
    met_here = sum(1 for p in ages if p <= present)
    last_here = sum(1 for p in last if p <= present)
    cheapest_repeat = min((weights.meeting(a) for a in range(1, len(history) + 1)), default=0.0)
    cost_min = max(
        degree_bound(ids, sizes, weight),
        lw_min * weights.last_week,
        repeat_min * cheapest_repeat,
    )
    return Quality(
        repeat_pairs=repeat,
        repeat_pairs_min=repeat_min,
        last_week_pairs=lw,
        last_week_pairs_min=lw_min,
        cost=round(cost, 6),
        cost_min=round(min(cost_min, cost), 6),
        season_extra_meetings=history_extra + repeat,
        season_extra_meetings_min=history_extra + repeat_min,
        max_meetings=max_meetings,
        repeat_pairs_random=round(share * met_here, 1),
        last_week_pairs_random=round(share * last_here, 1),
        beginners_per_table=tuple(sum(1 for x in t if x in beginners) for t in tables),
        violations=_violations(tables, numbers, rules, names_of(players)),
    )


def _violations(
    tables: Sequence[Sequence[PlayerId]],
    numbers: Sequence[int],
    rules: SeatingRules,
    names: Names,
) -> tuple[str, ...]:
    """Broken hard constraints: never-together pairs at one table, fixed tables not kept."""

    found = []
    for number, ids in zip(numbers, tables, strict=True):
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if rules.apart(a, b):
                    found.append(
                        f"{names[a]} and {names[b]} must never sit together but share table {number}."
                    )
        for pid in ids:
            fixed = rules.fixed_tables.get(pid)
            if fixed is not None and fixed != number:
                found.append(
                    f"{names[pid]} should sit at table {fixed} (fixed table) but sits at table {number}."
                )
    return tuple(found)
