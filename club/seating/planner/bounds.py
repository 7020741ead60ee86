"""Proven lower bounds: how much repetition no seating of these players can avoid.

Both bounds are relaxations, so they are valid whatever the constraints (never-together,
fixed tables, locks only make the true minimum higher).  When a seating's figure equals its
bound the seating is provably optimal for that figure; a gap does *not* prove that a better
seating exists.

* Degree bound: every player must sit with ``size - 1`` others.  Player p's share is at least
  the sum of their ``size - 1`` cheapest partners; every pair is counted from both ends, so
  the total cost is at least half the sum of the shares.  Which players sit at the bigger
  tables is chosen to make the sum smallest (exact for rooms with two table sizes; with more
  sizes everyone is given the smallest size, which is still a valid bound).
* Pigeonhole bound (counts only): the players of one past table who are present form a
  group in which every pair has met.  Spread over k tables, at least
  ``sum C(m_t, 2)`` of their pairs (m_t as even as possible) sit together again.  Summed over
  past tables that share no pair (last week's tables; for the season a greedy choice of
  tables, most recent first).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import combinations

from .players import PlayerId


def pigeonhole(m: int, k: int) -> int:
    """Fewest pairs together when m players are spread over k tables as evenly as possible."""
    if k <= 0:
        return math.comb(m, 2)
    q, r = divmod(m, k)
    return r * math.comb(q + 1, 2) + (k - r) * math.comb(q, 2)


def degree_bound(
    ids: Sequence[PlayerId], sizes: Sequence[int], cost: Callable[[PlayerId, PlayerId], float]
) -> float:
    """Lower bound on the summed pair cost of any seating of ``ids`` at tables of ``sizes``."""
    n = len(ids)
    if n < 2 or not sizes:
        return 0.0
    distinct = sorted(set(sizes))
    small = distinct[0]
    rows = []
    for p in ids:
        costs = sorted(cost(p, q) for q in ids if q != p)
        rows.append(costs)

    def share(row: list[float], size: int) -> float:
        return sum(row[: max(0, size - 1)])

    total = sum(share(row, small) for row in rows)
    if len(distinct) == 2:
        big = distinct[1]
        at_big = big * sum(1 for s in sizes if s == big)
        extra = sorted(share(row, big) - share(row, small) for row in rows)
        total += sum(extra[:at_big])
    return total / 2.0


def pigeonhole_bound(present: set[PlayerId], k: int, groups: Sequence[Sequence[PlayerId]]) -> int:
    """Sum of pigeonhole bounds over past tables that share no pair (taken in the order given)."""
    covered: set[frozenset] = set()
    total = 0
    for group in groups:
        members = [p for p in group if p in present]
        if len(members) < 2 or pigeonhole(len(members), k) == 0:
            continue
        pairs = {frozenset(x) for x in combinations(members, 2)}
        if pairs & covered:
            continue
        covered |= pairs
        total += pigeonhole(len(members), k)
    return total
