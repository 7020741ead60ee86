"""The optimiser: players as indices 0..n-1, tables as slots 0..k-1, costs as matrices.

It minimises the summed cost of the pairs seated at one table::

    cost(tab) = sum over i < j with tab[i] == tab[j] of base[i][j]

One *candidate* is found by a randomised greedy construction, then simulated annealing with
swap moves (two players at different tables trade places), then a first-improvement descent
until no swap improves.  A swap is evaluated in O(1) from ``S[p][T]`` = cost of player p with
the players of table T, kept up to date in O(n) per accepted swap.

Several candidates are built (restarts).  With look-ahead, each candidate that could still win
is scored ``cost + discount * next``, where ``next`` is the best cost found for a hypothetical
next week with the same players in which this candidate's pairs count as last week's
(a "rollout" solved the same way, without look-ahead).  This keeps the plan from using up the
combinations next week needs: with 16 players, after two weeks there are 24 zero-repeat
seatings for week 3 but only 6 of them leave a zero-repeat week 4 (affine plane of order 4).

The search stops early when a candidate reaches ``target`` (a proven lower bound), since
nothing better exists.  Pinned players (fixed tables) never move.  Everything is deterministic
for a given ``rng`` (iteration counts, not clocks, bound the work).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

EPS = 1e-9


@dataclass(slots=True)
class Problem:
    """A one-week seating problem in index form.

    ``base`` is a symmetric n x n matrix (zero diagonal): the cost of seating i and j at one
    table this week.  ``pins[p]`` is the slot player p must sit at, or -1.  For look-ahead,
    ``futures[d - 1]`` is the matrix of the week d weeks later before the pairs of this week and
    the weeks in between are added; ``gap_weights[g - 1]`` is what a pair seated together g
    weeks earlier adds; week d counts ``discount ** d``.
    """

    sizes: list[int]
    base: list[list[float]]
    pins: list[int] = field(default_factory=list)
    futures: list[list[list[float]]] = field(default_factory=list)
    gap_weights: list[float] = field(default_factory=list)
    discount: float = 0.5

    @property
    def n(self) -> int:
        return sum(self.sizes)


@dataclass(slots=True)
class Result:
    tables: list[int]  # slot of each player
    cost: float  # this week's cost
    future_cost: float | None  # discounted cost of the look-ahead weeks planned after it
    candidates: int  # candidates built
    steps: int  # annealing steps run, rollouts included


def week_cost(base: list[list[float]], tab: list[int]) -> float:
    n = len(tab)
    return sum(base[i][j] for i in range(n) for j in range(i + 1, n) if tab[i] == tab[j])


def degree_target(base: list[list[float]], sizes: list[int]) -> float:
    """A lower bound on the cost (see bounds.degree_bound), computed on the matrix."""
    small = min(sizes)
    big = max(sizes)
    at_big = big * sizes.count(big) if big != small else 0
    total = 0.0
    extras = []
    for i, row in enumerate(base):
        costs = sorted(c for j, c in enumerate(row) if j != i)
        low = sum(costs[: small - 1])
        total += low
        extras.append(sum(costs[: big - 1]) - low)
    extras.sort()
    total += sum(extras[:at_big])
    return total / 2.0


class _State:
    def __init__(self, base: list[list[float]], tab: list[int], k: int) -> None:
        n = len(tab)
        self.base = base
        self.tab = tab
        self.members: list[list[int]] = [[] for _ in range(k)]
        for i, slot in enumerate(tab):
            self.members[slot].append(i)
        self.S = [
            [sum(base[p][x] for x in self.members[T] if x != p) for T in range(k)] for p in range(n)
        ]
        self.cost = week_cost(base, tab)

    def delta(self, a: int, b: int) -> float:
        A, B = self.tab[a], self.tab[b]
        Sa, Sb = self.S[a], self.S[b]
        return Sb[A] + Sa[B] - Sa[A] - Sb[B] - 2.0 * self.base[a][b]

    def apply(self, a: int, b: int, d: float) -> None:
        tab, base = self.tab, self.base
        A, B = tab[a], tab[b]
        mA, mB = self.members[A], self.members[B]
        mA[mA.index(a)] = b
        mB[mB.index(b)] = a
        tab[a], tab[b] = B, A
        Ba, Bb = base[a], base[b]
        for p, row in enumerate(self.S):
            diff = Bb[p] - Ba[p]
            if diff:
                row[A] += diff
                row[B] -= diff
        self.cost += d


def _greedy(problem: Problem, base: list[list[float]], rng: random.Random) -> list[int]:
    """Randomised greedy: pinned players first, then the others in random order, each to the
    table with room where they add least (ties broken at random)."""
    n, sizes = problem.n, problem.sizes
    k = len(sizes)
    pins = problem.pins or [-1] * n
    members: list[list[int]] = [[] for _ in range(k)]
    tab = [-1] * n
    free = [i for i in range(n) if pins[i] < 0]
    rng.shuffle(free)
    for i in range(n):
        if pins[i] >= 0:
            tab[i] = pins[i]
            members[pins[i]].append(i)
    for i in free:
        row = base[i]
        best, best_cost = -1, math.inf
        for T in range(k):
            if len(members[T]) < sizes[T]:
                cost = sum(row[x] for x in members[T]) + rng.random() * 1e-6
                if cost < best_cost:
                    best, best_cost = T, cost
        tab[i] = best
        members[best].append(i)
    return tab


def _anneal(
    state: _State,
    movable: list[int],
    rng: random.Random,
    steps: int,
    t0: float,
    t1: float,
    target: float,
) -> tuple[list[int], int]:
    """Simulated annealing; returns the best assignment seen and the steps run.

    Conflict-directed: the first player of a swap is drawn from the "hot" players, those
    with a positive cost at their own table (a swap of two players who both sit at no cost
    cannot improve anything); the second from all movable players.
    """
    best_tab = state.tab[:]
    best = state.cost
    m = len(movable)
    if m < 2 or steps <= 0 or best <= target + EPS:
        return best_tab, 0
    rand, exp = rng.random, math.exp
    tab, S, base = state.tab, state.S, state.base
    hot = [p for p in movable if S[p][tab[p]] > EPS]
    ratio = (t1 / t0) ** (1.0 / steps)
    temp = t0
    step = 0
    while step < steps and hot:
        step += 1
        temp *= ratio
        a = hot[int(rand() * len(hot))]
        b = movable[int(rand() * m)]
        A, B = tab[a], tab[b]
        if A == B:
            continue
        Sa, Sb = S[a], S[b]
        d = Sb[A] + Sa[B] - Sa[A] - Sb[B] - 2.0 * base[a][b]
        if d > EPS and (d > 30.0 * temp or rand() >= exp(-d / temp)):
            continue
        state.apply(a, b, d)
        hot = [p for p in movable if S[p][tab[p]] > EPS]
        if state.cost < best - EPS:
            best = state.cost
            best_tab = tab[:]
            if best <= target + EPS:
                break
    return best_tab, step


def _descend(state: _State, movable: list[int]) -> None:
    """First-improvement descent over all swaps until none improves."""
    improved = True
    tab = state.tab
    while improved:
        improved = False
        for ia, a in enumerate(movable):
            for b in movable[ia + 1 :]:
                if tab[a] != tab[b]:
                    d = state.delta(a, b)
                    if d < -EPS:
                        state.apply(a, b, d)
                        improved = True


class _Abort(Exception):
    pass


def _cliques(cands: list[int], size: int, fresh: list[int]):
    """Sets of ``size`` players from ``cands`` (in that order) in which nobody has met."""
    if size == 0:
        yield []
        return
    for idx, v in enumerate(cands):
        mask = fresh[v]
        rest = [w for w in cands[idx + 1 :] if mask >> w & 1]
        if len(rest) >= size - 1:
            for tail in _cliques(rest, size - 1, fresh):
                yield [v, *tail]


def zero_seating(
    problem: Problem, base: list[list[float]], rng: random.Random, limit: int
) -> list[int] | None:
    """A seating in which every pair at a table costs nothing, by randomised backtracking.

    Tables are filled one at a time: first those with pinned players, then, for the player
    with the fewest cost-free partners left, each possible table of each size still needed.
    Returns None when there is none or when ``limit`` search nodes were not enough.
    """
    n, sizes = problem.n, problem.sizes
    pins = problem.pins or [-1] * n
    fresh = []
    for i in range(n):
        row, mask = base[i], 0
        for j in range(n):
            if j != i and row[j] <= EPS:
                mask |= 1 << j
        fresh.append(mask)
    tab = [-1] * n
    left = (1 << n) - 1
    pinned: dict[int, list[int]] = {}
    for i, slot in enumerate(pins):
        if slot >= 0:
            pinned.setdefault(slot, []).append(i)
            tab[i] = slot
            left &= ~(1 << i)
    for members in pinned.values():
        for a in members:
            for b in members:
                if a != b and not fresh[a] >> b & 1:
                    return None
    todo = sorted(pinned)
    free_slots: dict[int, list[int]] = {}
    for slot, size in enumerate(sizes):
        if slot not in pinned:
            free_slots.setdefault(size, []).append(slot)
    nodes = 0

    def rec(left: int, todo: list[int], free: dict[int, list[int]]) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > limit:
            raise _Abort
        if todo:
            slot, rest_todo = todo[0], todo[1:]
            members = pinned[slot]
            cand = left
            for m in members:
                cand &= fresh[m]
            order = list(_bits(cand))
            rng.shuffle(order)
            for group in _cliques(order, sizes[slot] - len(members), fresh):
                for x in group:
                    tab[x] = slot
                taken = 0
                for x in group:
                    taken |= 1 << x
                if rec(left & ~taken, rest_todo, free):
                    return True
            return False
        if not left:
            return True
        need = [size for size, slots in free.items() if slots]
        smallest = min(need) - 1
        p, fewest = -1, n + 1
        for x in _bits(left):
            d = (fresh[x] & left).bit_count()
            if d < fewest:
                p, fewest = x, d
                if d < smallest:
                    return False
        rng.shuffle(need)
        for size in need:
            if fewest < size - 1:
                continue
            order = list(_bits(fresh[p] & left))
            rng.shuffle(order)
            slots = free[size]
            slot = slots[-1]
            free[size] = slots[:-1]
            for group in _cliques(order, size - 1, fresh):
                tab[p] = slot
                taken = 1 << p
                for x in group:
                    tab[x] = slot
                    taken |= 1 << x
                if rec(left & ~taken, [], free):
                    return True
            free[size] = slots
        return False

    try:
        found = rec(left, todo, free_slots)
    except _Abort:
        return None
    return tab if found else None


#: Search nodes allowed to the backtracking search for a cost-free seating.
ZERO_NODES = 400


def _candidate(
    problem: Problem,
    base: list[list[float]],
    rng: random.Random,
    steps: int,
    target: float,
    t0: float,
    t1: float,
) -> tuple[list[int], float, int]:
    """One local optimum: a cost-free seating by backtracking if the bound allows one and it
    is found quickly, else greedy construction + annealing + descent."""
    if target <= EPS:
        tab = zero_seating(problem, base, rng, ZERO_NODES)
        if tab is not None:
            return tab, week_cost(base, tab), 0
    n = problem.n
    pins = problem.pins or [-1] * n
    movable = [i for i in range(n) if pins[i] < 0]
    state = _State(base, _greedy(problem, base, rng), len(problem.sizes))
    best_tab, ran = _anneal(state, movable, rng, steps, t0, t1, target)
    state = _State(base, best_tab, len(problem.sizes))
    _descend(state, movable)
    return state.tab, week_cost(base, state.tab), ran


def _rollout(
    problem: Problem, tab: list[int], rng: random.Random, steps: int, t0: float, t1: float
) -> tuple[float, bool, int]:
    """Plan the look-ahead weeks one by one after ``tab``; their discounted cost, whether every
    week reached its bound, and the steps run."""
    k = len(problem.sizes)
    planned = [tab]
    total, at_bound, ran_total = 0.0, True, 0
    for d, future in enumerate(problem.futures, start=1):
        m = [row[:] for row in future]
        for e, earlier in enumerate(planned):
            w = problem.gap_weights[d - e - 1]
            for T in range(k):
                at = [i for i in range(len(earlier)) if earlier[i] == T]
                for i in at:
                    row = m[i]
                    for j in at:
                        if i != j:
                            row[j] += w
        target = degree_target(m, problem.sizes)
        week, cost, ran = _candidate(problem, m, rng, steps, target, t0, t1)
        ran_total += ran
        total += problem.discount**d * cost
        at_bound = at_bound and cost <= target + EPS
        planned.append(week)
    return total, at_bound, ran_total


def _popcount(x: int) -> int:
    return x.bit_count()


def _bits(x: int):
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


def openness(fresh: list[int], clique: int) -> tuple[int, int]:
    """How open the future stays: (fewest, total) fresh tables per player.

    ``fresh[i]`` is the bit set of the players i has not met.  A "fresh table" of a player is
    a set of ``clique`` players (3 or 4) containing them in which nobody has met anybody.
    Returns the smallest count over the players and the sum over the players.
    """
    counts = []
    for mask in fresh:
        total = 0
        if clique <= 3:
            for v in _bits(mask):
                total += _popcount(mask & fresh[v])
            total //= 2
        else:
            for v in _bits(mask):
                common = mask & fresh[v] & ~((2 << v) - 1)
                for w in _bits(common):
                    total += _popcount(common & fresh[w] & ~((2 << w) - 1))
        counts.append(total)
    return (min(counts), sum(counts)) if counts else (0, 0)


def _fresh_after(problem: Problem, tab: list[int]) -> list[int]:
    """Bit sets of the pairs still free of cost next week, if ``tab`` is seated this week."""
    m = problem.futures[0] if problem.futures else problem.base
    n = len(tab)
    fresh = []
    for i in range(n):
        row, mask, ti = m[i], 0, tab[i]
        for j in range(n):
            if j != i and row[j] <= EPS and tab[j] != ti:
                mask |= 1 << j
        fresh.append(mask)
    return fresh


def solve(
    problem: Problem,
    rng: random.Random,
    *,
    steps: int,
    restarts: int,
    lookahead: bool = True,
    pool: int = 1,
    clique: int = 4,
    t0: float = 2.0,
    t1: float = 0.02,
) -> Result:
    """The best seating found over ``restarts`` candidates of ``steps`` annealing steps each.

    Candidates are compared by cost plus look-ahead cost; equal ones by :func:`openness` after
    them (most open first).  The search stops early once ``pool`` candidates reached the
    bound with their look-ahead weeks at their bounds.
    """
    k = len(problem.sizes)
    target = degree_target(problem.base, problem.sizes)
    use_future = lookahead and bool(problem.futures)
    best: Result | None = None
    best_key: tuple = (math.inf,)
    seen: set[frozenset] = set()
    total = 0
    built = 0
    at_bound = 0
    for _ in range(max(1, restarts)):
        built += 1
        tab, cost, ran = _candidate(problem, problem.base, rng, steps, target, t0, t1)
        total += ran
        shape = frozenset(frozenset(i for i in range(len(tab)) if tab[i] == T) for T in range(k))
        if shape in seen:
            continue
        seen.add(shape)
        value, future_cost, future_at_bound = cost, None, True
        if use_future and cost < best_key[0] + EPS:  # it could win: score the weeks after it
            future_cost, future_at_bound, ran = _rollout(problem, tab, rng, steps, t0, t1)
            total += ran
            value = cost + future_cost
        if value > best_key[0] + EPS:
            continue
        key: tuple = (value,)
        if pool > 1:
            fewest, overall = openness(_fresh_after(problem, tab), clique)
            key = (round(value, 6), -fewest, -overall)
        if key < best_key:
            best_key = key
            best = Result(tab[:], cost, future_cost, built, 0)
        # Nothing can beat a candidate at its bound whose look-ahead weeks are at theirs.
        if cost <= target + EPS and future_at_bound:
            at_bound += 1
            if at_bound >= pool:
                break
    assert best is not None
    best.candidates = built
    best.steps = total
    return best
