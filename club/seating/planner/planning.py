"""Planning a session's seating.

:func:`plan_seating` turns the present players, this season's history and the club's rules
into cost matrices (:func:`_problem`) and lets :mod:`.optimiser` search them:

* a pair's cost is the sum of :meth:`Weights.meeting` over their meetings this season, plus
  ``Weights.beginner_pair`` for two beginners when spreading beginners;
* a pair who sat together last week gets an extra weight larger than everything else the
  objective can add up to, and a never-together pair one larger still, so the order is
  strict: never-together first, then fewest last-week pairs, then the weighted cost;
* fixed tables pin players to their table slot (the search never moves them);
* look-ahead weeks use the history aged by one, two ... weeks (same players, same tables),
  counting ``LOOKAHEAD_DISCOUNT`` per week further away.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence

from . import optimiser
from .bounds import pigeonhole_bound
from .errors import SeatingError
from .history import History, Weights, meeting_ages, normalise_history
from .players import Player, PlayerId, as_players, names_of
from .quality import evaluate
from .rules import SeatingRules
from .sizes import Prefer, table_sizes
from .tables import Seating, Table
from .winds import PlannedSeat, Wind, relabel, roll_winds

#: Cost matrices hold whole multiples of 1 / QUANTUM (see _problem).
QUANTUM = 2**16
#: How much a look-ahead week counts against the week being planned (per week further away).
LOOKAHEAD_DISCOUNT = 0.25
#: Default number of look-ahead weeks.
LOOKAHEAD = 2
#: Annealing steps per candidate and per free player at ``effort=1``.
STEPS_PER_PLAYER = 150
#: Candidates built at most: RESTARTS, more for small rooms (RESTART_PLAYERS / n, at most
#: MAX_RESTARTS).
RESTARTS = 4
RESTART_PLAYERS = 640
MAX_RESTARTS = 40
#: Candidates at the bound compared for openness before stopping (see optimiser.openness).
POOL = 8
#: Work units per plan at ``effort=1`` (see .optimiser; about 0.2 s of search at most).
WORK_BUDGET = 200_000


def plan_seating(
    players: Iterable[Player | PlayerId],
    history: History | None = None,
    *,
    rules: SeatingRules | None = None,
    prefer: Prefer = "five",
    spread_beginners: bool = False,
    never_together: Iterable[tuple[PlayerId, PlayerId]] = (),
    fixed_tables: Mapping[PlayerId, int] | None = None,
    locked_tables: Iterable[Table] = (),
    rng: random.Random | None = None,
    weights: Weights | None = None,
    lookahead: int = LOOKAHEAD,
    effort: float = 1.0,
) -> Seating:
    """Seat the present players at tables for this session.

    * ``players``: :class:`Player` objects (id, name, beginner flag) or bare ids.
    * ``history``: this season's past sessions, oldest first, each a list of tables (lists
      of player ids).  Absent players in it are simply ignored.
    * ``rules``: a :class:`SeatingRules`; without it, one is made of ``prefer``,
      ``spread_beginners``, ``never_together``, ``fixed_tables`` and ``weights``.
    * ``locked_tables``: tables kept exactly as they are (players, chairs, winds); the others
      are planned around them.  Their numbers are kept; the new tables take the lowest free
      numbers.
    * ``rng``: a ``random.Random``; the same seed and inputs give the same seating.
    * ``lookahead``: score each candidate also by the next ``lookahead`` weeks planned after
      it (same players; each week further counts a quarter of the one before), so that this
      week does not spoil the next ones; 0 plans this week alone.
    * ``effort``: scales the search work (at 1: typically 0.05-0.15 s, at most about 0.3 s
      for 48 present players on a laptop).

    Objective, in order: never-together pairs apart and fixed tables honoured (hard); fewest
    pairs who sat together last week; then the smallest weighted cost (:class:`Weights`),
    including the beginner-spread term and the discounted look-ahead weeks.

    Raises :class:`SeatingError` when the constraints cannot be met.
    """
    if rules is None:
        rules = SeatingRules(
            prefer=prefer,
            spread_beginners=spread_beginners,
            never_together=tuple(tuple(x) for x in never_together),
            fixed_tables=dict(fixed_tables or {}),
            weights=weights or Weights(),
        )
    return _plan(
        as_players(players),
        normalise_history(history),
        rules,
        tuple(locked_tables),
        rng or random.Random(),
        lookahead,
        effort,
    )


def reroll(
    seating: Seating,
    rng: random.Random | None = None,
    *,
    locked: Iterable[int] | None = None,
    lookahead: int = LOOKAHEAD,
    effort: float = 1.0,
) -> Seating:
    """Plan again, keeping the locked tables (``locked``, default ``seating.locked``) as they are."""
    numbers = frozenset(seating.locked if locked is None else locked)
    kept = tuple(seating.table(n) for n in sorted(numbers))
    return _plan(
        seating.players,
        seating.history,
        seating.rules,
        kept,
        rng or random.Random(),
        lookahead,
        effort,
    )


def seating_from_tables(
    tables: Sequence[Table | Sequence[PlayerId]],
    players: Iterable[Player | PlayerId] | None = None,
    history: History | None = None,
    rules: SeatingRules | None = None,
    *,
    locked: Iterable[int] = (),
) -> Seating:
    """Rebuild a :class:`Seating` (e.g. a published one loaded from the database).

    ``tables`` are :class:`Table` objects, or lists of ids in chair order counter-clockwise
    from East (numbered 1, 2, ... in the order given; winds read E, S, W, N, Dreamer; no dice
    throws).  ``players`` defaults to everyone seated, none a beginner.
    """
    built = []
    for number, t in enumerate(tables, start=1):
        if isinstance(t, Table):
            built.append(t)
        else:
            built.append(Table(number, relabel([PlannedSeat(pid, Wind.EAST) for pid in t])))
    numbers = [t.number for t in built]
    if len(set(numbers)) != len(numbers):
        raise SeatingError("Two tables have the same number.")
    built.sort(key=lambda t: t.number)
    seated = [pid for t in built for pid in t.player_ids]
    if len(set(seated)) != len(seated):
        raise SeatingError("A player is seated twice.")
    players = as_players(players if players is not None else seated)
    known = {p.id for p in players}
    if set(seated) - known:
        raise SeatingError(f"Player {next(iter(set(seated) - known))} is seated but not present.")
    history = normalise_history(history)
    rules = rules or SeatingRules()
    locked = frozenset(locked)
    return Seating(
        tuple(built), evaluate(built, players, history, rules), players, history, rules, locked
    )


def _plan(
    players: tuple[Player, ...],
    history: tuple,
    rules: SeatingRules,
    locked_tables: tuple[Table, ...],
    rng: random.Random,
    lookahead: int,
    effort: float,
) -> Seating:
    present = {p.id for p in players}
    names = names_of(players)
    locked_ids: set[PlayerId] = set()
    locked_numbers = set()
    for t in locked_tables:
        if t.number in locked_numbers:
            raise SeatingError(f"Table {t.number} is locked twice.")
        locked_numbers.add(t.number)
        for pid in t.player_ids:
            if pid not in present:
                raise SeatingError(
                    f"{names[pid]} is at locked table {t.number} but is not present."
                )
            if pid in locked_ids:
                raise SeatingError(f"{names[pid]} is at two locked tables.")
            locked_ids.add(pid)
    free = [p for p in players if p.id not in locked_ids]
    if not locked_tables:
        table_sizes(len(players), rules.prefer)  # raises a clear error for fewer than 3
    if 0 < len(free) < 3:
        raise SeatingError(
            f"Only {len(free)} player{'s are' if len(free) > 1 else ' is'} left outside the locked tables; "
            "unlock a table so that everyone can be seated."
        )
    if not players:
        raise SeatingError("Nobody is present: there is nobody to seat.")
    sizes = table_sizes(len(free), rules.prefer) if free else []
    numbers = []
    candidate = 1
    while len(numbers) < len(sizes):
        if candidate not in locked_numbers:
            numbers.append(candidate)
        candidate += 1
    slot_of_number = {num: s for s, num in enumerate(numbers)}

    # fixed tables
    pins = [-1] * len(free)
    index = {p.id: i for i, p in enumerate(free)}
    for t in locked_tables:
        for pid in t.player_ids:
            want = rules.fixed_tables.get(pid)
            if want is not None and want != t.number:
                raise SeatingError(
                    f"{names[pid]} must sit at table {want}, but is at locked table {t.number}."
                )
    for pid, want in rules.fixed_tables.items():
        if pid not in present or pid in locked_ids:
            continue
        if want in locked_numbers:
            raise SeatingError(
                f"{names[pid]} must sit at table {want}, but that table is locked without them."
            )
        if want not in slot_of_number:
            raise SeatingError(
                f"{names[pid]} must sit at table {want}, but today there are only {len(sizes) + len(locked_numbers)} tables."
            )
        pins[index[pid]] = slot_of_number[want]
    for s, size in enumerate(sizes):
        at = [free[i].id for i in range(len(free)) if pins[i] == s]
        if len(at) > size:
            raise SeatingError(
                f"Table {numbers[s]} seats {size} today but {len(at)} players are fixed to it: "
                + ", ".join(names[x] for x in at)
                + "."
            )
        for i, a in enumerate(at):
            for b in at[i + 1 :]:
                if rules.apart(a, b):
                    raise SeatingError(
                        f"{names[a]} and {names[b]} must never sit together but are both fixed to table {numbers[s]}."
                    )

    tables: list[Table] = list(locked_tables)
    if free:
        problem = _problem(free, history, rules, sizes, pins, lookahead)
        n = len(free)
        steps = int(effort * STEPS_PER_PLAYER * n)
        restarts = max(RESTARTS, min(MAX_RESTARTS, math.ceil(RESTART_PLAYERS / n)))
        result = optimiser.solve(
            problem,
            rng,
            steps=steps,
            restarts=restarts,
            budget=int(effort * WORK_BUDGET),
            pool=POOL,
        )
        for s, number in enumerate(numbers):
            ids = [free[i].id for i in range(n) if result.tables[i] == s]
            rng.shuffle(ids)  # chairs around the table
            tables.append(Table(number, tuple(roll_winds(ids, rng))))
        for t in tables:
            ids = t.player_ids
            for i, a in enumerate(ids):
                for b in ids[i + 1 :]:
                    if rules.apart(a, b):
                        raise SeatingError(
                            f"No seating found that keeps {names[a]} and {names[b]} apart; relax a 'never together' rule."
                        )
    tables.sort(key=lambda t: t.number)
    return Seating(
        tuple(tables),
        evaluate(tables, players, history, rules),
        players,
        history,
        rules,
        frozenset(locked_numbers),
    )


def _problem(
    free: Sequence[Player],
    history: tuple,
    rules: SeatingRules,
    sizes: list[int],
    pins: list[int],
    lookahead: int,
) -> optimiser.Problem:
    """Cost matrices for this week and (look-ahead) next week, in index form."""
    n = len(free)
    w = rules.weights
    index = {p.id: i for i, p in enumerate(free)}
    ages: dict[tuple[int, int], list[int]] = {}
    for p, a in meeting_ages(history).items():
        x, y = tuple(p)
        if x in index and y in index:
            ages[(index[x], index[y])] = a
    beginners = [i for i, p in enumerate(free) if p.beginner] if rules.spread_beginners else []
    # With no more beginners than tables every beginner can have a table of their own: a
    # promise, ranked above repeats (below only the hard rules). With more, the beginner
    # term just spreads them as evenly as it can among the repeats.
    apart = len(beginners) <= len(sizes)

    def secondary(offset: int) -> list[list[float]]:
        m = [[0.0] * n for _ in range(n)]
        for (i, j), a in ages.items():
            m[i][j] = m[j][i] = sum(w.meeting(age + offset) for age in a)
        if not apart:
            for x in beginners:
                for y in beginners:
                    if x != y:
                        m[x][y] += w.beginner_pair
        return m

    now = secondary(0)
    futures = [secondary(d) for d in range(1, lookahead + 1)]
    # Lexicographic weights: one more last-week pair must outweigh all the rest of the
    # objective (this week's weighted cost plus the discounted look-ahead), one more pair of
    # beginners (when they can be kept apart) all of that, and one never-together pair
    # everything else.
    big = max(sizes)
    pairs_per_week = sum(s * (s - 1) // 2 for s in sizes)

    def upper(m: list[list[float]]) -> float:
        return sum(sum(sorted(row, reverse=True)[: big - 1]) for row in m)

    gap_weights = [w.meeting(g) for g in range(1, lookahead + 1)]
    rest = upper(now) + sum(
        LOOKAHEAD_DISCOUNT**d * (upper(m) + pairs_per_week * sum(gap_weights[:d]))
        for d, m in enumerate(futures, start=1)
    )
    last_week = rest + 1.0
    below_beginners = (pairs_per_week + 1) * last_week + rest + 1.0
    beginner_pairs = len(beginners) * (len(beginners) - 1) // 2 if apart else 0
    beginner = below_beginners if beginner_pairs else 0.0
    never = (beginner_pairs + 1) * below_beginners
    floor = 0.0
    if history:
        for table in history[-1]:
            ids = [index[x] for x in table if x in index]
            for i, a in enumerate(ids):
                for b in ids[i + 1 :]:
                    now[a][b] += last_week
                    now[b][a] += last_week
        # last week's tables force some of their pairs together again (pigeonhole)
        floor = last_week * pigeonhole_bound(set(index), len(sizes), history[-1])
    if beginner:
        for x in beginners:
            for y in beginners:
                if x != y:
                    now[x][y] += beginner
    for a, b in (tuple(p) for p in rules.never_together):
        if a in index and b in index:
            i, j = index[a], index[b]
            for m in (now, *futures):
                m[i][j] += never
                m[j][i] += never
    # Whole multiples of 2**-16: the large weights above then add and subtract exactly, so
    # the optimiser's swap deltas carry no rounding noise.
    for m in (now, *futures):
        for row in m:
            row[:] = [round(x * QUANTUM) / QUANTUM for x in row]
    return optimiser.Problem(
        sizes=list(sizes),
        base=now,
        pins=list(pins),
        futures=futures,
        gap_weights=gap_weights,
        discount=LOOKAHEAD_DISCOUNT,
        floor=floor,
    )
