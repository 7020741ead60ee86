"""Benchmark of the history-aware seating (club.seating.planner) against a plain random shuffle.

Run from the repository root:  python bench/seating_bench.py  [--quick]

1. Seasons: clubs of 16, 24, 32 and 48 members, 12 weekly sessions, each member present with
   probability 0.75 (fixed seed, the same attendance for both methods).  Per club and method:
   total extra meetings (for each pair, meetings beyond the first), the most times any pair
   met, repeats from the previous week (pairs at one table two sessions running), and the time
   per seating.  "bound" columns: the sum over the weeks of the proven per-week lower bounds
   (given the history each method actually produced), i.e. what no seating could have avoided.
2. Fixed rosters, everyone present every week: 16 players x 5 sessions must reach 0 repeated
   pairings (an affine plane of order 4 exists), 32 players x 8 sessions at most 4; one run
   per seed (--seeds, default 10).
3. Speed: 48 present members, 12 weekly seatings; every seating must take under 1 s.
4. Beginners: 32 members of whom 6 are beginners, spreading asked for, 5 seasons of 12
   weeks: the weeks in which two beginners share a table although there were no more
   beginners than tables (target 0), and the repeated pairings the spreading costs
   (against the same seasons planned without spreading).

Times are wall-clock on this machine (other processes running at the same time inflate them).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from club.seating.planner import Player, evaluate, plan_seating, table_sizes  # noqa: E402

SEED = 2024
PREFER = "five"


def random_shuffle(present: list[int], rng: random.Random) -> list[list[int]]:
    ids = present[:]
    rng.shuffle(ids)
    tables, start = [], 0
    for size in table_sizes(len(ids), PREFER):
        tables.append(ids[start : start + size])
        start += size
    return tables


def season_figures(sessions: list[list[list[int]]]) -> tuple[int, int, int]:
    """(total extra meetings, most meetings of one pair, repeats from the previous week)."""
    count: Counter = Counter()
    previous: set = set()
    prev_repeats = 0
    for session in sessions:
        pairs = {frozenset(p) for table in session for p in combinations(table, 2)}
        prev_repeats += len(pairs & previous)
        count.update(pairs)
        previous = pairs
    extra = sum(c - 1 for c in count.values())
    return extra, max(count.values(), default=0), prev_repeats


def run_season(method: str, attendance: list[list[int]], seed: int) -> dict:
    rng = random.Random(seed)
    history: list[list[list[int]]] = []
    times = []
    bound_extra = bound_prev = 0
    for present in attendance:
        start = time.perf_counter()
        if method == "optimiser":
            seating = plan_seating(present, history, prefer=PREFER, rng=rng)
            tables = seating.as_session()
        else:
            tables = random_shuffle(present, rng)
        times.append(time.perf_counter() - start)
        quality = evaluate(tables, present, history)
        bound_extra += quality.repeat_pairs_min
        bound_prev += quality.last_week_pairs_min
        history.append(tables)
    extra, most, prev = season_figures(history)
    return {
        "extra": extra,
        "most": most,
        "prev": prev,
        "bound_extra": bound_extra,
        "bound_prev": bound_prev,
        "mean_ms": 1000 * statistics.mean(times),
        "max_ms": 1000 * max(times),
    }


def fixed_roster(n: int, sessions: int, seed: int) -> tuple[int, float]:
    """Total repeated pairings over the sessions (everyone present), and the slowest seating."""
    rng = random.Random(seed)
    history: list[list[list[int]]] = []
    slowest = 0.0
    for _ in range(sessions):
        start = time.perf_counter()
        seating = plan_seating(range(n), history, rng=rng)
        slowest = max(slowest, time.perf_counter() - start)
        history.append(seating.as_session())
    extra, _, _ = season_figures(history)
    return extra, slowest


def beginner_seasons(spread: bool, members=32, beginners=6, seasons=5, weeks=12) -> dict:
    """Weeks with two beginners at a table (when beginners <= tables), and season figures."""
    clashes = spreadable = extra = prev = 0
    for season in range(seasons):
        rng = random.Random(SEED + 1000 * season)  # the planner's dice
        door = random.Random(SEED - 1000 * season)  # who comes: the same for both methods
        new = set(door.sample(range(members), beginners))
        history: list[list[list[int]]] = []
        for _ in range(weeks):
            present = [m for m in range(members) if door.random() < 0.75]
            players = [Player(m, beginner=m in new) for m in present]
            seating = plan_seating(players, history, spread_beginners=spread, rng=rng)
            here = sum(p.beginner for p in players)
            if here <= len(seating.tables):
                spreadable += 1
                clashes += any(n > 1 for n in seating.quality.beginners_per_table)
            history.append(seating.as_session())
        e, _, p = season_figures(history)
        extra, prev = extra + e, prev + p
    return {"clashes": clashes, "weeks": spreadable, "extra": extra, "prev": prev}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer seeds for the fixed rosters")
    parser.add_argument("--seeds", type=int, default=10, help="seeds per fixed-roster case")
    args = parser.parse_args()
    seeds = 3 if args.quick else args.seeds

    print("Seasons: 12 weekly sessions, ~75% attendance, tables of four (fives when needed)")
    header = (
        f"{'club':>4} {'method':<9} {'present':>7} | {'extra meetings':>14} {'(bound)':>7} | "
        f"{'most met':>8} | {'prev-week repeats':>17} {'(bound)':>7} | {'ms/seating mean':>15} {'max':>7}"
    )
    print(header)
    print("-" * len(header))
    failures = []
    for members in (16, 24, 32, 48):
        att_rng = random.Random(SEED + members)
        attendance = []
        for _ in range(12):
            present = [m for m in range(members) if att_rng.random() < 0.75]
            attendance.append(present)
        mean_present = statistics.mean(len(p) for p in attendance)
        for method in ("optimiser", "random"):
            r = run_season(method, attendance, SEED)
            print(
                f"{members:>4} {method:<9} {mean_present:>7.1f} | {r['extra']:>14} {r['bound_extra']:>7} | "
                f"{r['most']:>8} | {r['prev']:>17} {r['bound_prev']:>7} | {r['mean_ms']:>15.1f} {r['max_ms']:>7.1f}"
            )
            if method == "optimiser" and r["max_ms"] > 1000:
                failures.append(f"{members} members: a seating took {r['max_ms']:.0f} ms (> 1 s)")

    print()
    print("Fixed rosters (everyone present every week)")
    header = f"{'case':<22} {'target':>7} | {'repeated pairings per seed':<40} | {'met':>5} | {'max ms':>7}"
    print(header)
    print("-" * len(header))
    for n, sessions, target in ((16, 5, 0), (32, 8, 4)):
        results = [fixed_roster(n, sessions, seed) for seed in range(seeds)]
        extras = [e for e, _ in results]
        met = sum(e <= target for e in extras)
        slowest = 1000 * max(t for _, t in results)
        print(
            f"{f'{n} players x {sessions} weeks':<22} {f'<= {target}':>7} | "
            f"{' '.join(map(str, extras)):<40} | {f'{met}/{len(extras)}':>5} | {slowest:>7.1f}"
        )
        if met < len(extras):
            failures.append(f"{n} x {sessions}: {len(extras) - met} seed(s) above {target}")
    print()
    print("Speed: 48 present members, everyone every week, 12 weekly seatings (fixed seed)")
    times = []
    rng = random.Random(SEED)
    history: list[list[list[int]]] = []
    for _ in range(12):
        start = time.perf_counter()
        seating = plan_seating(range(48), history, rng=rng)
        times.append(1000 * (time.perf_counter() - start))
        history.append(seating.as_session())
    extra, most, prev = season_figures(history)
    print(
        f"ms per seating: mean {statistics.mean(times):.1f}, median {statistics.median(times):.1f}, "
        f"max {max(times):.1f} (target < 1000); extra meetings {extra}, most met {most}, "
        f"previous-week repeats {prev}"
    )
    if max(times) > 1000:
        failures.append(f"48 present: a seating took {max(times):.0f} ms (> 1 s)")
    print()
    print("Beginners: 32 members, 6 beginners, 5 seasons x 12 weeks, ~75% attendance")
    header = f"{'spreading':<10} | {'weeks with two beginners at a table':>36} | {'extra meetings':>14} | {'prev-week repeats':>17}"
    print(header)
    print("-" * len(header))
    for spread in (True, False):
        r = beginner_seasons(spread)
        shared = f"{r['clashes']} of {r['weeks']}"
        print(
            f"{'on' if spread else 'off':<10} | {shared:>36} | {r['extra']:>14} | {r['prev']:>17}"
        )
        if spread and r["clashes"]:
            failures.append(f"beginners: {r['clashes']} week(s) with two beginners at a table")
    print()
    if failures:
        print("TARGETS MISSED: " + "; ".join(failures))
        return 1
    print("All targets met.")
    return 0


if __name__ == "__main__":
    # The bench builds and checks every club's rows itself; its requests run in their club's
    # scope as in production (club/scoping.py).
    from django_scopes import scopes_disabled

    with scopes_disabled():
        raise SystemExit(main())
