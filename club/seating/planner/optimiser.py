"""The optimiser: players as indices 0..n-1, tables as slots 0..k-1, costs as matrices.

It minimises the summed cost of the pairs seated at one table::

    cost(tab) = sum over i < j with tab[i] == tab[j] of base[i][j]

One *candidate* seating is found by:

1. randomised backtracking for a seating where every pair costs nothing, when the lower
   bound allows one (fast and exact in the tight repeat-free cases where local search
   struggles, e.g. the last repeat-free weeks of a fixed roster);
2. otherwise randomised greedy construction, simulated annealing with swap moves (two
   players at different tables trade places; the first one drawn among the players with a
   positive cost at their table), a short tabu search, and a first-improvement descent.
   A swap is evaluated in O(1) from ``S[p][T]`` = cost of player p with the players of
   table T, kept up to date in O(n) per accepted swap.

Several candidates are built (restarts).  With look-ahead, each candidate that could still win
is scored ``cost + discount * next``, where ``next`` is the cost of a hypothetical next week
with the same players planned after it, in which its pairs count as last week's (a
"rollout").  This keeps a plan from using up the combinations next week needs: with 16
players, after two weeks there are 24 repeat-free seatings for week 3 but only 6 of them
leave a repeat-free week 4 (affine plane of order 4).  Among equally good candidates the
most *open* wins: the one leaving every player the most fresh tables (:func:`openness`).

The work is bounded by counts, not clocks, so a given ``rng`` always gives the same result:
at most ``restarts`` candidates, none after PATIENCE distinct candidates in a row without a
better one, and no new one once ``budget`` work units are spent (an
annealing step = 1 unit, a tabu swap evaluation = 2/5, a backtracking node = n; about
1 microsecond each).  It
stops early once ``pool`` candidates reached their lower bound (nothing can beat them).
Pinned players (fixed tables) never move.
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
    floor: float = 0.0  # a proven lower bound on this week's cost, if one is known

    @property
    def n(self) -> int:
        return sum(self.sizes)


@dataclass(slots=True)
class Result:
    tables: list[int]  # slot of each player
    cost: float  # this week's cost
    future_cost: float | None  # discounted cost of the look-ahead weeks planned after it
    candidates: int  # candidates built
    work: int  # work units spent (see the module docstring)


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


def _tabu(
    state: _State,
    movable: list[int],
    rng: random.Random,
    iterations: int,
    evaluations: int,
    target: float,
) -> tuple[list[int], int]:
    """Tabu search from the current state; returns the best assignment seen and the swap
    evaluations spent.

    Each iteration makes the best swap of a "hot" player (positive cost at their table) with
    any movable player at another table, even when it makes things worse, except that a
    player may not go back to a table they left in the last 5-15 iterations (unless that
    gives a new best).  Stops after ``iterations`` iterations or ``evaluations`` swap
    evaluations, or at ``target``.
    """
    tab, S, base = state.tab, state.S, state.base
    best, best_tab = state.cost, tab[:]
    banned: dict[tuple[int, int], int] = {}
    rand = rng.random
    spent = 0
    for it in range(iterations):
        if best <= target + EPS or spent >= evaluations:
            break
        hot = [p for p in movable if S[p][tab[p]] > EPS]
        if not hot:
            break
        spent += len(hot) * len(movable)
        cost = state.cost
        best_d, move, ties = math.inf, None, 0
        for a in hot:
            Sa, A, Ba = S[a], tab[a], base[a]
            for b in movable:
                B = tab[b]
                if B == A:
                    continue
                Sb = S[b]
                d = Sb[A] + Sa[B] - Sa[A] - Sb[B] - 2.0 * Ba[b]
                if d > best_d + EPS:
                    continue
                if (
                    banned.get((a, B), -1) > it or banned.get((b, A), -1) > it
                ) and cost + d >= best - EPS:
                    continue
                if d < best_d - EPS:
                    best_d, move, ties = d, (a, b), 1
                else:  # equal: pick uniformly among the ties
                    ties += 1
                    if rand() * ties < 1.0:
                        move = (a, b)
        if move is None:
            break
        a, b = move
        A, B = tab[a], tab[b]
        state.apply(a, b, best_d)
        banned[(a, A)] = it + 5 + int(rand() * 11)
        banned[(b, B)] = it + 5 + int(rand() * 11)
        if state.cost < best - EPS:
            best, best_tab = state.cost, tab[:]
    return best_tab, spent


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
) -> tuple[list[int] | None, int, bool]:
    """A seating in which every pair at a table costs nothing, by randomised backtracking.

    Tables are filled one at a time: first those with pinned players, then, for the player
    with the fewest cost-free partners left, each possible table of each size still needed.
    Returns the seating (or None), the search nodes used, and whether the search was
    complete (None with a complete search proves that no cost-free seating exists).
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
                    return None, 0, True
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
        return None, nodes, False
    return (tab if found else None), nodes, True


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


#: Tabu search after the annealing: iterations per player (candidates, look-ahead weeks),
#: and most swap evaluations.
TABU_PER_PLAYER = 3
ROLLOUT_TABU_PER_PLAYER = 1
TABU_EVALUATIONS = 40_000
#: Stop after this many candidates in a row found nothing better.
PATIENCE = 16
#: Search nodes allowed to the backtracking search for a cost-free seating.
ZERO_NODES = 1000
#: Openness counts fresh tables of four only when some player has fewer cost-free partners
#: left than this share of the players (else tables of three: cheaper, as telling when dense).
OPEN_DENSITY = 0.5


class _Search:
    """One call of :func:`solve`: the problem, the random source and the work spent."""

    def __init__(
        self, problem: Problem, rng: random.Random, steps: int, t0: float, t1: float
    ) -> None:
        self.problem = problem
        self.rng = rng
        self.steps = steps
        self.t0, self.t1 = t0, t1
        self.work = 0
        self.rollout_zero = True  # backtracking still worth trying in look-ahead weeks
        n = problem.n
        pins = problem.pins or [-1] * n
        self.movable = [i for i in range(n) if pins[i] < 0]

    def candidate(
        self, base: list[list[float]], target: float, try_zero: bool, tabu_per_player: int = 0
    ) -> tuple[list[int], float, bool]:
        """A local optimum of ``base``: (seating, cost, whether the backtracking search found
        it or proved there is none, i.e. did not run out of nodes)."""
        problem, n = self.problem, self.problem.n
        if try_zero and target <= EPS:
            tab, nodes, complete = zero_seating(problem, base, self.rng, ZERO_NODES)
            self.work += nodes * n
            if tab is not None:
                return tab, week_cost(base, tab), True
            try_zero = complete
        else:
            try_zero = False
        k = len(problem.sizes)
        state = _State(base, _greedy(problem, base, self.rng), k)
        best_tab, ran = _anneal(state, self.movable, self.rng, self.steps, self.t0, self.t1, target)
        self.work += ran + n * n // 4
        state = _State(base, best_tab, k)
        if tabu_per_player and state.cost > target + EPS:
            iterations = tabu_per_player * n
            best_tab, spent = _tabu(
                state, self.movable, self.rng, iterations, TABU_EVALUATIONS, target
            )
            self.work += spent * 2 // 5
            state = _State(base, best_tab, k)
        _descend(state, self.movable)
        self.work += len(self.movable) ** 2 // 2
        return state.tab, week_cost(base, state.tab), try_zero

    def rollout(self, tab: list[int]) -> tuple[float, bool]:
        """Plan the look-ahead weeks one by one after ``tab``: their discounted cost, and
        whether every one of them reached its bound."""
        problem = self.problem
        k = len(problem.sizes)
        planned = [tab]
        total, at_bound = 0.0, True
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
            self.work += len(m) ** 2
            week, cost, self.rollout_zero = self.candidate(
                m, target, self.rollout_zero, ROLLOUT_TABU_PER_PLAYER
            )
            total += problem.discount**d * cost
            at_bound = at_bound and cost <= target + EPS
            planned.append(week)
        return total, at_bound


def solve(
    problem: Problem,
    rng: random.Random,
    *,
    steps: int,
    restarts: int,
    budget: int = 1 << 62,
    lookahead: bool = True,
    pool: int = 1,
    clique: int = 4,
    t0: float = 2.0,
    t1: float = 0.02,
) -> Result:
    """The best seating found (see the module docstring for the method and the limits)."""
    k, n = len(problem.sizes), problem.n
    search = _Search(problem, rng, steps, t0, t1)
    target = max(degree_target(problem.base, problem.sizes), problem.floor)
    use_future = lookahead and bool(problem.futures)
    fewest_fresh = min(
        (
            sum(1 for j, c in enumerate(row) if j != i and c <= EPS)
            for i, row in enumerate(problem.base)
        ),
        default=0,
    )
    if clique > 3 and fewest_fresh - (max(problem.sizes) - 1) >= OPEN_DENSITY * n:
        clique = 3
    best_value = math.inf
    ties: list[tuple[list[int], float, float | None]] = []
    seen: set[frozenset] = set()
    built = distinct = at_bound = last_gain = 0
    try_zero = True
    while built < max(1, restarts) and (built == 0 or search.work < budget):
        if distinct - last_gain >= PATIENCE:
            break
        built += 1
        tab, cost, quick = search.candidate(problem.base, target, try_zero, TABU_PER_PLAYER)
        try_zero = try_zero and quick and cost <= EPS  # else it failed or proved impossible
        shape = frozenset(frozenset(i for i in range(n) if tab[i] == T) for T in range(k))
        if shape in seen:
            continue
        seen.add(shape)
        distinct += 1
        value, future_cost, future_at_bound = cost, None, True
        if use_future and cost < best_value + EPS:  # it could win: score the weeks after it
            future_cost, future_at_bound = search.rollout(tab)
            value = cost + future_cost
        if value < best_value - EPS:
            best_value, last_gain = value, distinct
            ties = [t for t in ties if t[1] + (t[2] or 0.0) <= value + EPS]
        if value <= best_value + EPS:
            ties.append((tab, cost, future_cost))
        # Nothing can beat a candidate at its bound whose look-ahead weeks are at theirs.
        if cost <= target + EPS and future_at_bound:
            at_bound += 1
            if at_bound >= pool:
                break
    if len(ties) > 1:
        ties.sort(key=lambda t: openness(_fresh_after(problem, t[0]), clique), reverse=True)
    tab, cost, future_cost = ties[0]
    return Result(tab[:], cost, future_cost, built, search.work)
