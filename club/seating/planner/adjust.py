"""The coordinator's changes to a seating: lock, swap, late arrivals and early leavers.

Every function returns new objects; a :class:`Seating` is never changed in place.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, replace
from itertools import combinations

from .errors import SeatingError
from .history import meeting_ages, pair
from .players import Names, Player, PlayerId, as_players, names_of
from .quality import evaluate
from .tables import Seating, Table
from .winds import Wind, join_chair, leave_chair, roll_winds


@dataclass(frozen=True, slots=True)
class Move:
    """One player changing table (``from_table`` None: arriving; ``to_table`` None: a new table)."""

    player_id: PlayerId
    from_table: int | None
    to_table: int


@dataclass(frozen=True, slots=True)
class Option:
    """One way to make a change, with what it costs in repeated pairings."""

    description: str
    moves: tuple[Move, ...]
    seating: Seating
    cost: float  # weighted cost of the new pairs it creates
    last_week_pairs: int  # new pairs that sat together last week


@dataclass(frozen=True, slots=True)
class LateArrival:
    """Result of :func:`add_late_arrival`.

    ``table`` / ``wind`` are where the player now sits, or None when no table could take
    them; then ``seating`` is unchanged and ``options`` holds any fallback (a new table of
    three with two Dreamers).  Otherwise ``options`` ranks every table that could take them,
    best (the one chosen) first.
    """

    seating: Seating
    table: int | None
    wind: Wind | None
    message: str
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class Leaver:
    """Result of :func:`remove_leaver`.

    ``seating`` is the room without the leaver.  When their table drops to two players,
    ``needs_action`` is True and ``options`` ranks the ways to fix it (move both players to
    other tables, or bring one player over), least cost first; ``options[0].seating`` is the
    suggested result.  When it drops to three while a table has five, ``options`` offers
    moving a five's Dreamer over (two tables of four); playing on as three needs nothing.
    """

    seating: Seating
    table: int
    needs_action: bool
    message: str
    options: tuple[Option, ...]


WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _then(sizes: dict[int, int]) -> str:
    """'both then have four', or 'table 4 then has four and table 2 three'."""
    if len(sizes) == 2 and len(set(sizes.values())) == 1:
        return f"both then have {WORDS[next(iter(sizes.values()))]}"
    parts = [f"table {n} then has {WORDS[size]}" for n, size in sizes.items()]
    return " and ".join([parts[0], *(p.replace(" then has", "") for p in parts[1:])])


def lock(seating: Seating, *numbers: int) -> Seating:
    """Lock tables so that :func:`reroll` keeps them as they are."""
    for n in numbers:
        seating.table(n)
    return replace(seating, locked=seating.locked | frozenset(numbers))


def unlock(seating: Seating, *numbers: int) -> Seating:
    return replace(seating, locked=seating.locked - frozenset(numbers))


def _rebuild(
    seating: Seating, tables: Iterable[Table], players: tuple[Player, ...] | None = None
) -> Seating:
    tables = tuple(sorted(tables, key=lambda t: t.number))
    players = seating.players if players is None else players
    return replace(
        seating,
        tables=tables,
        players=players,
        quality=evaluate(tables, players, seating.history, seating.rules),
        locked=seating.locked & {t.number for t in tables},
    )


def _problems_with(
    seating: Seating, pid: PlayerId, mates: Iterable[PlayerId], number: int, names: Names
) -> list[str]:
    """Hard constraints broken if ``pid`` sat with ``mates`` at table ``number``."""
    rules = seating.rules
    found = [
        f"{names[pid]} and {names[m]} must never sit together."
        for m in mates
        if m != pid and rules.apart(pid, m)
    ]
    want = rules.fixed_tables.get(pid)
    if want is not None and want != number:
        found.append(f"{names[pid]} must sit at table {want}.")
    return found


def last_week_pairs_made(before: Seating, after: Seating) -> list[tuple[PlayerId, PlayerId]]:
    """Pairs at one table in ``after`` but not in ``before`` who sat together last week."""
    if not before.history:
        return []

    def pairs(s: Seating) -> set[frozenset]:
        return {pair(a, b) for t in s.tables for a, b in combinations(t.player_ids, 2)}

    last = {pair(a, b) for t in before.history[-1] for a, b in combinations(t, 2)}
    return [tuple(p) for p in (pairs(after) - pairs(before)) & last]


def swap(
    seating: Seating,
    a: PlayerId,
    b: PlayerId,
    rng: random.Random | None = None,
    *,
    force: bool = False,
) -> Seating:
    """Swap two players: each takes the other's chair.

    The dice are rolled again at the table(s) involved, so the winds shown match the throws
    of the people now sitting there.  Refuses (:class:`SeatingError`) to touch a locked table
    or to break a never-together or fixed-table rule, unless ``force=True`` (then the
    quality lists the violations).
    """
    if a == b:
        raise SeatingError("Choose two different players to swap.")
    rng = rng or random.Random()
    names = seating.names
    ta, tb = seating.table_of(a), seating.table_of(b)
    if not force:
        for t in {ta.number, tb.number} & seating.locked:
            raise SeatingError(f"Table {t} is locked; unlock it before swapping.")
        if ta.number != tb.number:
            issues = _problems_with(
                seating, a, [x for x in tb.player_ids if x != b], tb.number, names
            )
            issues += _problems_with(
                seating, b, [x for x in ta.player_ids if x != a], ta.number, names
            )
            if issues:
                raise SeatingError("This swap is not allowed: " + " ".join(issues))

    def exchanged(t: Table) -> list[PlayerId]:
        return [b if x == a else a if x == b else x for x in t.player_ids]

    changed = {ta.number: ta, tb.number: tb}
    tables = [
        Table(t.number, tuple(roll_winds(exchanged(t), rng))) if t.number in changed else t
        for t in seating.tables
    ]
    return _rebuild(seating, tables)


def suggest_swap(seating: Seating, a: PlayerId, b: PlayerId) -> tuple[PlayerId, PlayerId] | None:
    """A swap close to swapping ``a`` and ``b`` (between two tables) that seats nobody with
    someone from last week: ``a`` with someone else at ``b``'s table, or ``b`` with someone
    else at ``a``'s; the one whose new pairs cost least, or None when every one of them
    brings back last week or breaks a rule."""
    ta, tb = seating.table_of(a), seating.table_of(b)
    if ta.number == tb.number:
        return None
    candidates = [(a, c) for c in tb.player_ids if c != b] + [
        (c, b) for c in ta.player_ids if c != a
    ]
    best, best_cost = None, None
    for x, y in candidates:
        try:
            after = swap(seating, x, y, random.Random(0))
        except SeatingError:
            continue
        if last_week_pairs_made(seating, after):
            continue
        tx, ty = seating.table_of(x), seating.table_of(y)
        cost = _new_pairs_cost(seating, x, [m for m in ty.player_ids if m != y])[0]
        cost += _new_pairs_cost(seating, y, [m for m in tx.player_ids if m != x])[0]
        if best_cost is None or cost < best_cost:
            best, best_cost = (x, y), cost
    return best


def _new_pairs_cost(
    seating: Seating, pid: PlayerId, mates: Iterable[PlayerId], player: Player | None = None
) -> tuple[float, int]:
    """Weighted cost and last-week count of the pairs ``pid`` would form with ``mates``."""
    weights, rules = seating.rules.weights, seating.rules
    ages = meeting_ages(seating.history)
    beginner = {p.id for p in seating.players if p.beginner}
    if player is not None and player.beginner:
        beginner.add(player.id)
    cost, lw = 0.0, 0
    for m in mates:
        met = ages.get(pair(pid, m), ())
        cost += sum(weights.meeting(x) for x in met)
        lw += 1 in met
        if rules.spread_beginners and pid in beginner and m in beginner:
            cost += weights.beginner_pair
    return cost, lw


def add_late_arrival(
    seating: Seating, player: Player | PlayerId, rng: random.Random | None = None
) -> LateArrival:
    """Seat someone who arrives after publishing, without moving anybody else.

    Candidate tables: a table left with two players (it becomes three), a table of three (it
    becomes a four: they take North) or of four (it becomes a five: they are the Dreamer and
    rotate in), never a five; never-together and fixed-table rules are honoured.  Ranked by
    fewest last-week pairs, then fuller-making (2, then 3, then 4), then the weighted cost of
    the new pairs.  When none fits, nothing changes and the message says why; if two tables of
    five exist, ``options`` offers a new table of three with their two Dreamers (who were
    sitting out the first hand anyway).
    """
    (player,) = as_players([player])
    pid = player.id
    names = names_of((*seating.players, player))
    if any(p.id == pid for p in seating.players):
        raise SeatingError(f"{names[pid]} is already present.")
    players = (*seating.players, player)
    ranked = []
    for t in seating.tables:
        if t.size >= 5 or _problems_with(seating, pid, t.player_ids, t.number, names):
            continue
        cost, lw = _new_pairs_cost(seating, pid, t.player_ids, player)
        chairs = join_chair(t.chairs, pid)
        tables = [Table(t.number, chairs) if x.number == t.number else x for x in seating.tables]
        option = Option(
            f"{names[pid]} joins table {t.number} as {chairs[-1].wind.label}; "
            f"it then has {WORDS[t.size + 1]}",
            (Move(pid, None, t.number),),
            _rebuild(seating, tables, players),
            round(cost, 6),
            lw,
        )
        ranked.append(((lw, t.size, cost, t.number), option))
    ranked.sort(key=lambda x: x[0])
    options = tuple(o for _, o in ranked)
    if options:
        best = options[0]
        number = best.moves[0].to_table
        wind = best.seating.table(number).wind_of(pid)
        return LateArrival(
            best.seating,
            number,
            wind,
            f"{names[pid]} joins table {number} as {wind.label}.",
            options,
        )

    fives = [t for t in seating.tables if t.size == 5]
    fallback = []
    rng = rng or random.Random()
    number = 1
    while any(t.number == number for t in seating.tables):
        number += 1
    for t1, t2 in combinations(fives, 2):
        d1, d2 = t1.dreamer, t2.dreamer
        if d1 is None or d2 is None:
            continue
        trio = [pid, d1, d2]
        if any(_problems_with(seating, x, trio, number, names) for x in (d1, d2)) or _problems_with(
            seating, pid, trio, number, names
        ):
            continue
        c1, lw1 = _new_pairs_cost(seating, pid, [d1, d2], player)
        c2, lw2 = _new_pairs_cost(seating, d1, [d2])
        tables = [
            Table(t.number, leave_chair(t.chairs, t.dreamer))
            if t.number in (t1.number, t2.number)
            else t
            for t in seating.tables
        ]
        tables.append(Table(number, tuple(roll_winds(trio, rng))))
        fallback.append(
            Option(
                f"New table {number} of three: {names[pid]} with the Dreamers {names[d1]} (table {t1.number}) and {names[d2]} (table {t2.number})",
                (Move(pid, None, number), Move(d1, t1.number, number), Move(d2, t2.number, number)),
                _rebuild(seating, tables, players),
                round(c1 + c2, 6),
                lw1 + lw2,
            )
        )
    fallback.sort(key=lambda o: (o.last_week_pairs, o.cost))
    reason = (
        "every table already has five players"
        if all(t.size >= 5 for t in seating.tables)
        else "the tables with room conflict with a 'never together' or fixed-table rule"
    )
    message = f"No table can take {names[pid]}: {reason}."
    message += (
        " A new table of three with two Dreamers is possible (see options)."
        if fallback
        else " They can wait for the next late arrival or for a table to finish."
    )
    return LateArrival(seating, None, None, message, tuple(fallback))


def remove_leaver(seating: Seating, player_id: PlayerId) -> Leaver:
    """Take out someone who leaves early, without moving anybody else.

    At a table of five the Dreamer takes the empty chair; at a four the other three go on as a
    three (``options`` offers a five's Dreamer to make it four again).  A three becomes a
    table of two, which cannot play: ``needs_action`` is set and ``options`` lists, least
    cost first, moving both players to tables with room, or bringing one player over from
    a table of five or four.
    """
    names = seating.names
    t = seating.table_of(player_id)
    chairs = leave_chair(t.chairs, player_id)
    players = tuple(p for p in seating.players if p.id != player_id)
    tables = [Table(t.number, chairs) if x.number == t.number else x for x in seating.tables]
    after = _rebuild(seating, tables, players)
    if len(chairs) >= 3:
        note = ""
        if t.size == 5 and t.dreamer != player_id:
            note = f" The Dreamer {names[t.dreamer]} takes the empty chair."
        message = f"Table {t.number} goes on with {WORDS[len(chairs)]} players.{note}"
        # A three beside a five: the five's Dreamer (sitting out anyway) can make two fours.
        dreamers = []
        if len(chairs) == 3:
            for five in after.tables:
                if five.size == 5 and not _problems_with(
                    seating, five.dreamer, after.table(t.number).player_ids, t.number, names
                ):
                    dreamers.append(_bring_over(seating, after, five, five.dreamer, t.number))
            dreamers.sort(key=lambda o: (o.last_week_pairs, o.cost))
        return Leaver(after, t.number, False, message, tuple(dreamers))
    table = after.table(t.number)
    pair_ids = table.player_ids
    ranked: list[tuple[tuple, Option]] = []
    others = [x for x in after.tables if x.number != t.number]

    # Move both remaining players to tables with room (the table of two closes; a player
    # fixed to this table cannot move: _problems_with refuses it).
    if others:
        p, q = pair_ids
        for tp in others:
            for tq in others:
                if tp.size >= 5 or tq.size >= 5 or (tp.number == tq.number and tp.size > 3):
                    continue
                dest = (
                    {tp.number: [p], tq.number: [q]}
                    if tp.number != tq.number
                    else {tp.number: [p, q]}
                )
                bad = False
                cost, lw = 0.0, 0
                for number, movers in dest.items():
                    mates = after.table(number).player_ids
                    for m in movers:
                        bad = bad or bool(_problems_with(seating, m, mates, number, names))
                        c, w = _new_pairs_cost(seating, m, mates)
                        cost, lw = cost + c, lw + w
                if bad:
                    continue
                new_tables = []
                for x in others:
                    if x.number in dest:
                        ch = x.chairs
                        for m in dest[x.number]:
                            ch = join_chair(ch, m)
                        x = Table(x.number, ch)
                    new_tables.append(x)
                if len(dest) == 1:
                    ((n, _),) = dest.items()
                    size = after.table(n).size + 2
                    desc = f"{names[p]} and {names[q]} both move to table {n}, which then has {WORDS[size]}"
                else:
                    desc = (
                        f"{names[p]} moves to table {tp.number} and {names[q]} to table {tq.number}; "
                        + _then({n: after.table(n).size + 1 for n in dest})
                    )
                moves = tuple(Move(m, t.number, n) for n, ms in dest.items() for m in ms)
                option = Option(
                    f"Close table {t.number}: {desc}",
                    moves,
                    _rebuild(after, new_tables),
                    round(cost, 6),
                    lw,
                )
                ranked.append(((lw, cost, 2, tp.number, tq.number), option))
    # Bring one player over from a table of five or four.
    for donor in others:
        if donor.size < 4:
            continue
        for m in donor.player_ids:
            if _problems_with(seating, m, pair_ids, t.number, names):
                continue
            option = _bring_over(seating, after, donor, m, t.number)
            # a five giving its Dreamer disturbs nobody playing: prefer it on equal cost
            key = (option.last_week_pairs, option.cost, 0 if m == donor.dreamer else 1)
            ranked.append(((*key, donor.number), option))
    ranked.sort(key=lambda x: x[0])
    options = tuple(o for _, o in ranked)
    message = f"Table {t.number} is down to two players and cannot play."
    if not options:
        message += " No other table can take them or spare a player."
    return Leaver(after, t.number, True, message, options)


def _bring_over(
    seating: Seating, after: Seating, donor: Table, pid: PlayerId, number: int
) -> Option:
    """``pid`` moves from table ``donor`` to table ``number`` (in ``after``), in plain words."""
    names = seating.names
    target = after.table(number)
    tables = []
    for x in after.tables:
        if x.number == donor.number:
            x = Table(x.number, leave_chair(x.chairs, pid))
        elif x.number == number:
            x = Table(x.number, join_chair(x.chairs, pid))
        tables.append(x)
    who = names[pid]
    if pid == donor.dreamer:
        who = f"{who}, the Dreamer at table {donor.number},"
        where = f"moves to table {number}"
    else:
        where = f"moves from table {donor.number} to table {number}"
    cost, lw = _new_pairs_cost(seating, pid, target.player_ids)
    return Option(
        f"{who} {where}; " + _then({donor.number: donor.size - 1, number: target.size + 1}),
        (Move(pid, donor.number, number),),
        _rebuild(after, tables),
        round(cost, 6),
        lw,
    )
