"""Tests of the seating planner (club.seating.planner): pure Python, no database.

Run with: .venv/bin/pytest -p no:django tests/club/seating/test_planner.py
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club.seating.planner import (
    Player,
    SeatingError,
    SeatingRules,
    Weights,
    Wind,
    add_late_arrival,
    evaluate,
    lock,
    meeting_ages,
    pair_weights,
    plan_seating,
    remove_leaver,
    reroll,
    roll_winds,
    seating_from_tables,
    swap,
    table_sizes,
)
from club.seating.planner.winds import WINDS_BY_SIZE

# --- helpers -------------------------------------------------------------------------------


def partitions(ids: list, sizes: list[int]):
    """Every way to split ``ids`` into unlabelled tables of the given sizes (brute force)."""
    if not ids:
        yield []
        return
    first, rest = ids[0], ids[1:]
    for size in sorted(set(sizes)):
        remaining = list(sizes)
        remaining.remove(size)
        for mates in combinations(rest, size - 1):
            left = [x for x in rest if x not in mates]
            for tail in partitions(left, remaining):
                yield [[first, *mates], *tail]


def pairs_of(tables) -> set[frozenset]:
    return {frozenset(p) for t in tables for p in combinations(t, 2)}


def random_history(rng: random.Random, ids: list, weeks: int, attendance: float = 0.8):
    history = []
    for _ in range(weeks):
        present = [i for i in ids if rng.random() < attendance]
        if len(present) < 3:
            present = ids[:]
        rng.shuffle(present)
        tables, start = [], 0
        for size in table_sizes(len(present)):
            tables.append(present[start : start + size])
            start += size
        history.append(tables)
    return history


def check_seating(seating, ids, prefer="five") -> None:
    """Everyone present seated exactly once, sizes as table_sizes, winds valid."""
    seated = [pid for t in seating.tables for pid in t.player_ids]
    assert sorted(seated, key=repr) == sorted(ids, key=repr)
    assert sorted(t.size for t in seating.tables) == sorted(table_sizes(len(ids), prefer))
    assert [t.number for t in seating.tables] == list(range(1, len(seating.tables) + 1))
    for t in seating.tables:
        assert tuple(c.wind for c in t.chairs) == WINDS_BY_SIZE[t.size]


# --- table sizes ---------------------------------------------------------------------------


def expected_sizes(n: int, prefer: str) -> list[int]:
    """Most fours using only the preferred odd size; failing that, only the other one."""
    odd_first = 5 if prefer == "five" else 3
    for odd in (odd_first, 8 - odd_first):
        best = None
        for count in range(n // odd + 1):
            rest = n - odd * count
            if rest % 4 == 0 and (best is None or rest // 4 > best[0]):
                best = (rest // 4, count)
        if best is not None:
            return [4] * best[0] + [odd] * best[1]
    raise AssertionError(n)


@pytest.mark.parametrize("prefer", ["five", "three"])
@pytest.mark.parametrize("n", range(3, 61))
def test_table_sizes_every_head_count(n: int, prefer: str) -> None:
    sizes = table_sizes(n, prefer)
    assert sum(sizes) == n
    assert all(s in (3, 4, 5) for s in sizes)
    assert sizes == expected_sizes(n, prefer)
    assert sizes == sorted(sizes, key=lambda s: s != 4)  # fours first


def test_table_sizes_examples() -> None:
    assert table_sizes(13, "five") == [4, 4, 5]
    assert table_sizes(13, "three") == [4, 3, 3, 3]
    assert table_sizes(6, "five") == [3, 3]  # too few for two fives
    assert table_sizes(5, "three") == [5]  # too few for three threes
    assert table_sizes(15, "five") == [5, 5, 5]
    assert table_sizes(15, "three") == [4, 4, 4, 3]


@pytest.mark.parametrize("n", [-1, 0, 1, 2])
def test_table_sizes_too_few(n: int) -> None:
    with pytest.raises(SeatingError, match="at least 3"):
        table_sizes(n)


def test_table_sizes_bad_preference() -> None:
    with pytest.raises(SeatingError):
        table_sizes(12, "six")  # type: ignore[arg-type]


# --- dice and winds ------------------------------------------------------------------------


class Scripted(random.Random):
    """A Random whose randint returns scripted values (for the dice)."""

    def __init__(self, values: list[int]) -> None:
        super().__init__(0)
        self.values = list(values)

    def randint(self, a: int, b: int) -> int:  # noqa: ARG002
        return self.values.pop(0)


def test_roll_winds_highest_is_east_and_counter_clockwise() -> None:
    # chairs counter-clockwise: a, b, c, d; c throws highest
    rolls = roll_winds(["a", "b", "c", "d"], Scripted([2, 5, 6, 1]))
    assert [(r.player_id, r.wind) for r in rolls] == [
        ("c", Wind.EAST),
        ("d", Wind.SOUTH),
        ("a", Wind.WEST),
        ("b", Wind.NORTH),
    ]
    assert [r.throws for r in rolls] == [(6,), (1,), (2,), (5,)]


def test_roll_winds_ties_for_highest_throw_again() -> None:
    # a and c tie on 6; they throw again: 3 and 3 (tie again), then 2 and 4: c wins
    rolls = roll_winds(["a", "b", "c", "d"], Scripted([6, 5, 6, 1, 3, 3, 2, 4]))
    by_player = {r.player_id: r for r in rolls}
    assert rolls[0].player_id == "c" and rolls[0].wind is Wind.EAST
    assert by_player["a"].throws == (6, 3, 2)
    assert by_player["c"].throws == (6, 3, 4)
    assert by_player["b"].throws == (5,)  # not in the tie: one throw only
    assert [r.player_id for r in rolls] == ["c", "d", "a", "b"]


def test_roll_winds_a_lower_tie_does_not_throw_again() -> None:
    rolls = roll_winds(["a", "b", "c"], Scripted([2, 2, 5]))
    assert [(r.player_id, r.wind, r.throws) for r in rolls] == [
        ("c", Wind.EAST, (5,)),
        ("a", Wind.SOUTH, (2,)),
        ("b", Wind.WEST, (2,)),
    ]


@pytest.mark.parametrize("size", [3, 4, 5])
@pytest.mark.parametrize("seed", range(30))
def test_roll_winds_valid_for_every_table_size(size: int, seed: int) -> None:
    ids = list(range(size))
    rolls = roll_winds(ids, random.Random(seed))
    assert tuple(r.wind for r in rolls) == WINDS_BY_SIZE[size]
    assert sorted(r.player_id for r in rolls) == ids
    east = rolls[0]
    # East won the last round of throws among those still tied
    final_round = [r for r in rolls if len(r.throws) == len(east.throws)]
    assert all(r.throws[-1] < east.throws[-1] for r in final_round if r is not east)
    # East's first throw is the highest first throw of the table
    assert east.throws[0] == max(r.throws[0] for r in rolls)
    # the others follow counter-clockwise from East in chair order
    start = ids.index(east.player_id)
    assert [r.player_id for r in rolls] == [ids[(start + k) % size] for k in range(size)]
    assert all(1 <= x <= 6 for r in rolls for x in r.throws)


def test_table_of_five_has_a_rotating_dreamer() -> None:
    seating = plan_seating(range(5), rng=random.Random(3))
    (table,) = seating.tables
    assert table.chairs[-1].wind is Wind.DREAMER
    assert table.dreamer == table.chairs[-1].player_id
    east, south, west, north = (c.player_id for c in table.chairs[:4])
    assert table.dreamer_rotation == (table.dreamer, east, south, west, north)


@pytest.mark.parametrize("count", [0, 1, 2, 6])
def test_roll_winds_rejects_impossible_tables(count: int) -> None:
    with pytest.raises(SeatingError):
        roll_winds(list(range(count)), random.Random(0))


# --- history -------------------------------------------------------------------------------


def test_pair_weights_recent_weeks_weigh_more() -> None:
    history = [[[1, 2, 3, 4]], [[1, 2, 5, 6]], [[1, 3, 5, 7]]]
    ages = meeting_ages(history)
    assert ages[frozenset((1, 2))] == [3, 2]
    assert ages[frozenset((1, 5))] == [2, 1]
    w = pair_weights(history, Weights())
    assert w[frozenset((1, 3))] == Weights().meeting(3) + Weights().meeting(1)
    assert w[frozenset((1, 7))] == Weights().last_week  # last week only
    assert w[frozenset((5, 6))] == Weights().meeting(2)
    assert w[frozenset((3, 4))] == Weights().meeting(3)
    assert Weights().meeting(1) > Weights().meeting(2) > Weights().meeting(3) > Weights().meeting(9)
    assert frozenset((2, 7)) not in w


def test_evaluate_counts_repeats_and_last_week() -> None:
    history = [[[1, 2, 3, 4]], [[1, 2, 5, 6]]]
    q = evaluate([[1, 2, 7, 8], [3, 5, 4, 6]], range(1, 9), history)
    # table 1: 1-2 met twice (last week too); table 2: 3-4 two weeks ago, 5-6 last week
    assert q.repeat_pairs == 3
    assert q.last_week_pairs == 2
    assert q.max_meetings == 3
    assert q.season_extra_meetings == 1 + 3  # 1-2 already met twice, then three repeats
    w = Weights()
    assert q.cost == pytest.approx(2 * w.meeting(2) + 2 * w.meeting(1))
    assert 0 <= q.repeat_pairs_min <= q.repeat_pairs
    assert 0 <= q.last_week_pairs_min <= q.last_week_pairs
    assert q.cost_min <= q.cost


# --- planning: history, optimality on small rooms, bounds -------------------------------------


def brute_force(players, sizes, history, rules):
    """Every seating's (last-week pairs, weighted cost, repeats), computed independently."""
    ids = [p.id if isinstance(p, Player) else p for p in players]
    beginners = {p.id for p in players if isinstance(p, Player) and p.beginner}
    weights = pair_weights(history, rules.weights)
    last = pairs_of(history[-1]) if history else set()
    results = []
    for tables in partitions(ids, sizes):
        pairs = pairs_of(tables)
        cost = sum(weights.get(p, 0.0) for p in pairs)
        if rules.spread_beginners:
            cost += rules.weights.beginner_pair * sum(1 for p in pairs if p <= beginners)
        results.append((len(pairs & last), cost, len(pairs & set(weights))))
    return results


@pytest.mark.parametrize("seed", range(25))
def test_last_week_pairs_avoided_whenever_possible(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([7, 8, 9, 10])
    ids = list(range(n))
    history = random_history(rng, ids, rng.randint(1, 5))
    rules = SeatingRules()
    results = brute_force(ids, table_sizes(n), history, rules)
    fewest_last_week = min(r[0] for r in results)
    seating = plan_seating(ids, history, rng=random.Random(seed))
    check_seating(seating, ids)
    assert seating.quality.last_week_pairs == fewest_last_week
    # the bounds are valid lower bounds
    assert seating.quality.last_week_pairs_min <= fewest_last_week
    assert seating.quality.repeat_pairs_min <= min(r[2] for r in results)
    assert seating.quality.cost_min <= min(r[1] for r in results) + 1e-9


def test_last_week_table_is_split_up() -> None:
    # 8 players, last week {0..3} and {4..7}: this week two from each at each table
    history = [[[0, 1, 2, 3], [4, 5, 6, 7]]]
    for seed in range(10):
        seating = plan_seating(range(8), history, rng=random.Random(seed))
        for t in seating.tables:
            assert len(set(t.player_ids) & {0, 1, 2, 3}) == 2
        assert seating.quality.last_week_pairs == 4 == seating.quality.last_week_pairs_min


def test_last_week_pair_apart_even_if_older_repeats_cost_more() -> None:
    """Fewest last-week pairs comes first, before the weighted cost of older repeats."""
    old = [
        [[0, 2, 3, 4], [1, 5, 6, 7]] if k % 2 == 0 else [[0, 5, 6, 7], [1, 2, 3, 4]]
        for k in range(12)
    ]
    history = [*old, [[0, 1, 98, 99]]]  # 0 and 1 sat together last week (98, 99 absent now)
    weights = pair_weights(history)
    cheapest = min(
        partitions(list(range(8)), [4, 4]),
        key=lambda t: sum(weights.get(p, 0.0) for p in pairs_of(t)),
    )
    assert frozenset((0, 1)) in pairs_of(cheapest)  # by weighted cost alone they would meet
    for seed in range(5):
        seating = plan_seating(range(8), history, rng=random.Random(seed))
        assert seating.table_of(0) != seating.table_of(1)
        assert seating.quality.last_week_pairs == 0


@pytest.mark.parametrize("seed", range(20))
def test_small_rooms_reach_the_optimum(seed: int) -> None:
    """Without look-ahead the plan is optimal: fewest last-week pairs, then least cost."""
    rng = random.Random(1000 + seed)
    n = rng.choice([6, 8, 9, 11])
    ids = list(range(n))
    players = [Player(i, beginner=rng.random() < 0.3) for i in ids]
    history = random_history(rng, ids, rng.randint(2, 6))
    rules = SeatingRules(spread_beginners=True)
    best = min((lw, cost) for lw, cost, _ in brute_force(players, table_sizes(n), history, rules))
    seating = plan_seating(
        players, history, spread_beginners=True, rng=random.Random(seed), lookahead=0
    )
    q = seating.quality
    assert (q.last_week_pairs, q.cost) == pytest.approx(best)


@pytest.mark.parametrize("seed", range(12))
def test_sixteen_players_five_weeks_without_a_repeat(seed: int) -> None:
    """An affine plane of order 4 exists; week-by-week planning must find one (only a few
    of the repeat-free third weeks allow a repeat-free fourth: the look-ahead finds them)."""
    history: list = []
    rng = random.Random(seed)
    for _ in range(5):
        seating = plan_seating(range(16), history, rng=rng)
        assert seating.quality.repeat_pairs == 0
        history.append(seating.as_session())
    assert len(pairs_of([t for s in history for t in s])) == 5 * 4 * 6


def test_repeats_fewer_than_a_random_shuffle() -> None:
    rng = random.Random(5)
    planned: list = []
    shuffled: list = []
    for _ in range(5):
        planned.append(plan_seating(range(24), planned, rng=rng).as_session())
        ids = list(range(24))
        rng.shuffle(ids)
        shuffled.append([ids[i : i + 4] for i in range(0, 24, 4)])

    def extra(sessions) -> int:
        counts = Counter(p for s in sessions for p in pairs_of(s))
        return sum(c - 1 for c in counts.values())

    assert extra(planned) == 0
    assert extra(shuffled) > 0


def test_quality_reports_season_figures() -> None:
    history = [[[0, 1, 2, 3], [4, 5, 6, 7]]]
    seating = plan_seating(range(8), history, rng=random.Random(1))
    q = seating.quality
    assert q.repeat_pairs == 4 and q.repeat_pairs_min == 4
    assert q.season_extra_meetings == 4
    assert q.max_meetings == 2
    assert q.optimal == (q.cost <= q.cost_min + 1e-9)


# --- constraints ---------------------------------------------------------------------------


@st.composite
def rooms(draw):
    """A room with constraints that a hidden seating satisfies (so a plan must exist)."""
    n = draw(st.integers(min_value=3, max_value=22))
    prefer = draw(st.sampled_from(["five", "three"]))
    seed = draw(st.integers(min_value=0, max_value=10**6))
    rng = random.Random(seed)
    ids = [f"p{i}" for i in range(n)]
    order = ids[:]
    rng.shuffle(order)
    hidden, start = [], 0
    for size in table_sizes(n, prefer):
        hidden.append(order[start : start + size])
        start += size
    table_of = {pid: number for number, t in enumerate(hidden, start=1) for pid in t}
    apart_pairs = [p for p in combinations(ids, 2) if table_of[p[0]] != table_of[p[1]]]
    never = rng.sample(apart_pairs, min(len(apart_pairs), draw(st.integers(0, n))))
    pinned = rng.sample(ids, draw(st.integers(0, min(4, n))))
    fixed = {pid: table_of[pid] for pid in pinned}
    beginners = set(rng.sample(ids, draw(st.integers(0, n // 2))))
    history = random_history(rng, ids, draw(st.integers(0, 4)))
    players = [Player(pid, beginner=pid in beginners) for pid in ids]
    return players, prefer, never, fixed, history, seed


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rooms())
def test_constraints_always_honoured(room) -> None:
    players, prefer, never, fixed, history, seed = room
    seating = plan_seating(
        players,
        history,
        prefer=prefer,
        spread_beginners=True,
        never_together=never,
        fixed_tables=fixed,
        rng=random.Random(seed),
        effort=0.3,
    )
    check_seating(seating, [p.id for p in players], prefer)
    for a, b in never:
        assert seating.table_of(a).number != seating.table_of(b).number
    for pid, number in fixed.items():
        assert seating.table_of(pid).number == number
    assert seating.quality.violations == ()


def test_never_together_even_when_costly() -> None:
    # 0 and 1 never met and 0..3 sat together last week: keeping 0 and 1 apart is still a must
    history = [[[0, 2, 4, 6], [1, 3, 5, 7]]]
    for seed in range(10):
        seating = plan_seating(range(8), history, never_together=[(0, 4)], rng=random.Random(seed))
        assert seating.table_of(0) != seating.table_of(4)


def test_fixed_table_for_mobility() -> None:
    for seed in range(10):
        seating = plan_seating(range(13), fixed_tables={7: 3, 2: 1, 9: 3}, rng=random.Random(seed))
        assert seating.table_of(7).number == 3
        assert seating.table_of(9).number == 3
        assert seating.table_of(2).number == 1


def test_impossible_constraints_are_explained() -> None:
    with pytest.raises(SeatingError, match="only 2 tables"):
        plan_seating(range(8), fixed_tables={1: 3}, rng=random.Random(1))
    with pytest.raises(SeatingError, match="seats 4 today but 5 players"):
        plan_seating(range(8), fixed_tables={i: 1 for i in range(5)}, rng=random.Random(1))
    with pytest.raises(SeatingError, match="never sit together"):
        plan_seating(
            range(8), fixed_tables={1: 1, 2: 1}, never_together=[(1, 2)], rng=random.Random(1)
        )
    # 4 players who must all be apart from each other cannot share one table
    with pytest.raises(SeatingError, match="apart"):
        plan_seating(range(4), never_together=[(0, 1)], rng=random.Random(1))
    with pytest.raises(SeatingError, match="at least 3"):
        plan_seating(range(2), rng=random.Random(1))
    with pytest.raises(SeatingError, match="twice"):
        plan_seating([1, 2, 3, 1], rng=random.Random(1))


def test_beginners_spread_across_tables() -> None:
    players = [Player(i, beginner=i < 4) for i in range(16)]
    for seed in range(10):
        seating = plan_seating(players, spread_beginners=True, rng=random.Random(seed))
        assert seating.quality.beginners_per_table == (1, 1, 1, 1)
    # and they are counted without spreading too (not necessarily spread)
    q = plan_seating(players, rng=random.Random(0)).quality
    assert sum(q.beginners_per_table) == 4


# --- reproducibility -----------------------------------------------------------------------


def test_same_seed_same_seating() -> None:
    rng = random.Random(3)
    ids = list(range(21))
    history = random_history(rng, ids, 4)
    a = plan_seating(ids, history, never_together=[(1, 2)], rng=random.Random(42))
    b = plan_seating(ids, history, never_together=[(1, 2)], rng=random.Random(42))
    assert a.tables == b.tables
    assert a.quality == b.quality
    others = {plan_seating(ids, history, rng=random.Random(s)).tables for s in range(5)}
    assert len(others) > 1  # different seeds give different seatings


# --- coordinator: lock and re-roll, swap ------------------------------------------------------


def test_locked_tables_unchanged_by_reroll() -> None:
    ids = list(range(17))
    seating = plan_seating(ids, rng=random.Random(1))
    kept = seating.table(2)
    locked = lock(seating, 2)
    changed = False
    for seed in range(8):
        again = reroll(locked, random.Random(seed))
        assert again.table(2) == kept  # players, chairs, winds and dice
        assert again.locked == frozenset({2})
        check_seating(again, ids)
        changed |= again.tables != seating.tables
    assert changed  # the unlocked tables did change


def test_reroll_refuses_to_strand_players() -> None:
    five = plan_seating(range(5), rng=random.Random(1)).table(1)
    with pytest.raises(SeatingError, match="unlock a table"):
        plan_seating(range(7), locked_tables=[five], rng=random.Random(1))  # 2 left over
    kept = plan_seating(range(9), locked_tables=[five], rng=random.Random(1))
    assert kept.table(1) == five and kept.table(2).size == 4


def test_swap_exchanges_two_players_only() -> None:
    seating = plan_seating(range(12), rng=random.Random(4))
    a = seating.tables[0].player_ids[0]
    b = seating.tables[1].player_ids[0]
    after = swap(seating, a, b, random.Random(1))
    assert set(after.table(1).player_ids) == set(seating.table(1).player_ids) - {a} | {b}
    assert set(after.table(2).player_ids) == set(seating.table(2).player_ids) - {b} | {a}
    assert after.table(3) == seating.table(3)  # untouched table keeps chairs and winds
    # the chairs at the changed tables are kept, the dice thrown again
    assert after.table(1).chairs[0].player_id in seating.table(1).player_ids + (b,)
    check_seating(after, list(range(12)))


def test_swap_refuses_constraints_unless_forced() -> None:
    seating = plan_seating(range(8), never_together=[(0, 1)], rng=random.Random(2))
    other = next(x for x in seating.table_of(1).player_ids if x != 1)
    with pytest.raises(SeatingError, match="never sit together"):
        swap(seating, 0, other)
    forced = swap(seating, 0, other, force=True)
    assert forced.quality.violations
    with pytest.raises(SeatingError, match="locked"):
        swap(lock(seating, seating.table_of(0).number), 0, other)
    fixed = plan_seating(range(8), fixed_tables={0: 1}, rng=random.Random(2))
    stranger = fixed.table(2).player_ids[0]
    with pytest.raises(SeatingError, match="must sit at table 1"):
        swap(fixed, 0, stranger)


def test_swap_updates_quality() -> None:
    history = [[[0, 1, 2, 3], [4, 5, 6, 7]]]
    seating = plan_seating(range(8), history, rng=random.Random(1))
    t1, t2 = seating.table(1).player_ids, seating.table(2).player_ids
    # swapping two last-week partners' opposite numbers changes the count of last-week pairs
    worst = min(
        (swap(seating, a, b) for a in t1 for b in t2),
        key=lambda s: -s.quality.last_week_pairs,
    )
    assert worst.quality.last_week_pairs > seating.quality.last_week_pairs


# --- after publishing: late arrival and early leaver ----------------------------------------


def unchanged_except(before, after, numbers) -> None:
    for t in before.tables:
        if t.number not in numbers:
            assert after.table(t.number) == t


def test_late_arrival_fills_a_table_of_three_first() -> None:
    seating = plan_seating(range(11), prefer="three", rng=random.Random(1))  # 4 + 4 + 3
    # 99 met one of the three two weeks ago: the table of three is still the place
    history = [[[99, seating.table(3).player_ids[0], 50]], [[60, 61, 62]]]
    seating = seating_from_tables(seating.tables, seating.players, history)
    result = add_late_arrival(seating, Player(99))
    assert result.table == 3 and result.wind is Wind.NORTH
    assert result.seating.table(3).size == 4
    unchanged_except(seating, result.seating, {3})
    # the chairs already there keep their players and winds
    assert result.seating.table(3).chairs[:3] == seating.table(3).chairs


def test_late_arrival_makes_a_five_with_a_dreamer() -> None:
    history = [[[0, 1, 2, 3], [4, 5, 6, 7]]]
    seating = seating_from_tables([[0, 4, 1, 5], [2, 6, 3, 7]], range(8), history)
    result = add_late_arrival(seating, 0.5 if False else 8)
    assert result.table in (1, 2) and result.wind is Wind.DREAMER
    assert result.seating.table(result.table).dreamer == 8
    unchanged_except(seating, result.seating, {result.table})
    # history: 8 sat with 0 and 1 last week -> table 2 is the better one
    history2 = [[[8, 0, 1], [2, 3, 4, 5, 6, 7]]]
    seating2 = seating_from_tables([[0, 4, 1, 5], [2, 6, 3, 7]], range(8), history2)
    assert add_late_arrival(seating2, 8).table == 2


def test_late_arrival_respects_never_together() -> None:
    rules = SeatingRules(never_together=[(8, 2)])
    seating = seating_from_tables([[0, 1, 4, 5], [2, 3, 6, 7]], range(8), [], rules)
    assert add_late_arrival(seating, 8).table == 1


def test_late_arrival_when_no_table_has_room() -> None:
    seating = plan_seating(range(10), rng=random.Random(1))  # two tables of five
    result = add_late_arrival(seating, Player(99))
    assert result.table is None and result.wind is None
    assert result.seating == seating
    assert "five" in result.message
    (option,) = result.options  # a new table of three with the two Dreamers
    new = option.seating.table(3)
    assert set(new.player_ids) == {99, seating.table(1).dreamer, seating.table(2).dreamer}
    assert [t.size for t in option.seating.tables] == [4, 4, 3]
    for number in (1, 2):  # the playing chairs did not change
        assert option.seating.table(number).chairs == seating.table(number).chairs[:4]


def test_leaver_from_a_table_of_five_the_dreamer_takes_the_chair() -> None:
    seating = plan_seating(range(9), rng=random.Random(3))  # 4 + 5
    five = seating.table(2)
    east = five.east
    result = remove_leaver(seating, east)
    assert not result.needs_action
    after = result.seating.table(2)
    assert after.size == 4 and after.east == five.dreamer
    assert after.chairs[1:] == five.chairs[1:4]
    unchanged_except(seating, result.seating, {2})


def test_leaver_from_a_four_leaves_a_three() -> None:
    seating = plan_seating(range(12), rng=random.Random(3))
    gone = seating.table(1).east
    result = remove_leaver(seating, gone)
    assert not result.needs_action
    after = result.seating.table(1)
    assert [c.wind for c in after.chairs] == [Wind.EAST, Wind.SOUTH, Wind.WEST]
    assert [c.player_id for c in after.chairs] == list(seating.table(1).player_ids[1:])
    unchanged_except(seating, result.seating, {1})


def test_leaver_from_a_three_offers_the_cheapest_fix() -> None:
    history = [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10]]]
    tables = [[0, 4, 8, 9], [1, 5, 10, 11], [2, 6, 3]]
    seating = seating_from_tables(tables, [x for t in tables for x in t], history)
    result = remove_leaver(seating, 3)
    assert result.needs_action
    assert result.seating.table(3).size == 2
    assert result.options
    costs = [(o.last_week_pairs, o.cost) for o in result.options]
    assert costs == sorted(costs)
    for option in result.options:
        moved = {m.player_id for m in option.moves}
        sizes = [t.size for t in option.seating.tables]
        assert all(s >= 3 for s in sizes) and sum(sizes) == 10
        for t in seating.tables:  # nobody else changed table
            stay = set(t.player_ids) - moved - {3}
            if stay:
                assert stay <= set(option.seating.table(t.number).player_ids)
    best = result.options[0]
    assert best.last_week_pairs == 0  # 2 and 6 can go where they met nobody last week


def test_leaver_when_no_fix_exists() -> None:
    seating = plan_seating(range(3), rng=random.Random(1))
    result = remove_leaver(seating, 0)
    assert result.needs_action and result.options == ()
    assert "two players" in result.message


def test_messages_name_players_by_their_name() -> None:
    players = [Player(i, name=f"P{i}") for i in range(1, 9)]
    seating = plan_seating(players, rng=random.Random(1), never_together=[(1, 2)])
    late = add_late_arrival(seating, Player(9, name="Margaret"), random.Random(2))
    assert late.message.startswith("Margaret joins table")
    forced = swap(seating, 2, seating.table_of(1).player_ids[1], force=True)
    (violation,) = forced.quality.violations
    assert violation.startswith(("P1 and P2 must never", "P2 and P1 must never"))
