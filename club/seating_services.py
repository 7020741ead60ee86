"""Changing a session's seating: plan, re-roll, swap, lock, publish, late arrivals, leavers.

Every function runs in one transaction with the plan row locked, so two coordinators
pressing buttons at once queue up, and an error leaves the saved plan exactly as it was.
Refusals raise `SeatingError` (from the algorithm, or here) whose message is one plain
sentence the page shows as it is.

A published plan never changes except through `unpublish`, `seat_late_arrival` and
`remove_early_leaver`, which the coordinator chooses on purpose; the last two change one
table only (or the few the coordinator picks when a table is down to two).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from django.db import transaction
from django.utils import timezone

from club import seating as algo
from club.models import Attendance, Member, Seat, SeatingPlan, SeatingTable, Session, new_rng_seed
from club.seating import SeatingError
from club.seating_selectors import (
    as_player,
    load_seating,
    member_id,
    present_members,
    season_history,
    seating_rules,
)

__all__ = [
    "Outcome",
    "SeatingError",
    "lock_table",
    "make_seating",
    "publish",
    "remove_early_leaver",
    "seat_late_arrival",
    "swap_members",
    "unpublish",
]


@dataclass
class Outcome:
    """What a late arrival or an early leaver did.

    ``changed`` is False when nothing was saved because the coordinator must choose:
    ``choices`` lists ``(value, description)`` to post back as ``choice``.
    """

    message: str
    changed: bool
    choices: list[tuple[str, str]] = field(default_factory=list)


# --- helpers -----------------------------------------------------------------------------


def _locked_plan(session: Session) -> SeatingPlan | None:
    """The session's plan, its row locked for the rest of the transaction."""
    return SeatingPlan.objects.select_for_update().filter(session=session).first()


def _require_open(session: Session) -> None:
    if session.status == Session.Status.CLOSED:
        raise SeatingError("This session is closed: its seating can no longer change.")


def _require_draft(plan: SeatingPlan | None) -> SeatingPlan:
    if plan is None:
        raise SeatingError("There is no seating yet: press “Make the seating” first.")
    if plan.status == SeatingPlan.Status.PUBLISHED:
        raise SeatingError(
            "The seating is published, so it stays as it is. "
            "Press “Unpublish to change” first if it really must change."
        )
    return plan


def _require_published(plan: SeatingPlan | None) -> SeatingPlan:
    if plan is None or plan.status != SeatingPlan.Status.PUBLISHED:
        raise SeatingError(
            "The seating is not published yet: change the draft instead (re-roll or swap)."
        )
    return plan


def _rng(plan: SeatingPlan, *parts) -> random.Random:
    """A generator fixed by the plan's seed and the action, so a repeated request
    (or a choice posted back) gives the same dice."""
    return random.Random(":".join(str(p) for p in (plan.rng_seed, *parts)))


def _save_tables(plan: SeatingPlan, seating: algo.Seating) -> None:
    """Write the algorithm's tables to the plan, touching only tables that changed."""
    existing = {t.number: t for t in plan.tables.all()}
    saved: dict[int, tuple] = {number: () for number in existing}
    for seat in Seat.objects.filter(plan=plan).select_related("table").order_by("position"):
        saved[seat.table.number] += ((seat.member_id, seat.wind, tuple(seat.dice or ())),)

    wanted = {
        t.number: tuple((int(c.player_id), c.seat.value, tuple(c.throws)) for c in t.chairs)
        for t in seating.tables
    }
    for number, table in existing.items():
        if number not in wanted:
            table.delete()
    changed = [n for n, chairs in wanted.items() if saved.get(n) != chairs]
    # Empty every changed table first: a member moving between tables must not be seated
    # twice at any moment (the database refuses it).
    Seat.objects.filter(plan=plan, table__number__in=changed).delete()
    new_seats = []
    for number in changed:
        table = existing.get(number)
        if table is None:
            table = SeatingTable.objects.create(plan=plan, number=number)
            existing[number] = table
        for position, (pk, wind, dice) in enumerate(wanted[number], start=1):
            new_seats.append(
                Seat(
                    plan=plan,
                    table=table,
                    member_id=pk,
                    wind=wind,
                    position=position,
                    dice=list(dice),
                )
            )
    Seat.objects.bulk_create(new_seats)
    for number, table in existing.items():
        if number in wanted and table.locked != (number in seating.locked):
            table.locked = number in seating.locked
            table.save(update_fields=["locked"])
    plan.save(update_fields=["updated"])


def _check_in(session: Session, member: Member) -> None:
    attendance, created = Attendance.objects.get_or_create(session=session, member=member)
    if not created and attendance.left_at is not None:
        attendance.left_at = None
        attendance.save(update_fields=["left_at"])


# --- planning ----------------------------------------------------------------------------


@transaction.atomic
def make_seating(session: Session, *, seed: int | None = None) -> SeatingPlan:
    """Seat the present members at random, avoiding this season's pairs (a draft).

    Pressing it again is the re-roll: locked tables of the draft stay exactly as they are
    and everyone else is planned again. A published seating is refused.
    """
    session = Session.objects.select_related("club").get(pk=session.pk)
    _require_open(session)
    plan = _locked_plan(session)
    if plan is not None:
        _require_draft(plan)
    members = present_members(session)
    locked: list[algo.Table] = []
    if plan is not None:
        current = load_seating(plan, history=[])
        locked = [current.table(n) for n in sorted(current.locked)]
        present = {m.pk for m in members}
        for table in locked:
            gone = [pid for pid in table.player_ids if pid not in present]
            if gone:
                raise SeatingError(
                    f"{gone[0]!r} is at locked table {table.number} but is no longer checked "
                    f"in: unlock table {table.number} or check them in again."
                )
    if not members:
        raise SeatingError("Nobody is checked in yet: check people in first.")
    if len(members) < 3 and not locked:
        # The algorithm's own message here talks about locked tables, which is misleading.
        raise SeatingError(
            f"Only {len(members)} {'person is' if len(members) == 1 else 'people are'} "
            "checked in: a table needs at least 3 players."
        )
    seed = new_rng_seed() if seed is None else seed
    seating = algo.plan_seating(
        [as_player(m) for m in members],
        season_history(session),
        locked_tables=locked,
        rng=random.Random(seed),
        **seating_rules(session, members),
    )
    if plan is None:
        plan = SeatingPlan.objects.create(session=session, rng_seed=seed)
    else:
        plan.rng_seed = seed
        plan.save(update_fields=["rng_seed"])
    _save_tables(plan, seating)
    return plan


reroll = make_seating


@transaction.atomic
def swap_members(session: Session, a: Member, b: Member) -> str:
    """Swap two seated members' chairs; the dice are thrown again at their table(s)."""
    _require_open(session)
    plan = _require_draft(_locked_plan(session))
    seating = load_seating(plan)
    result = algo.swap(seating, member_id(a), member_id(b), _rng(plan, "swap", a.pk, b.pk))
    _save_tables(plan, result)
    ta, tb = result.table_of(member_id(a)).number, result.table_of(member_id(b)).number
    if ta == tb:
        return f"{a} and {b} swapped chairs at table {ta}; the dice were thrown again there."
    return (
        f"{a} now sits at table {ta} and {b} at table {tb}; "
        "the dice were thrown again at both tables."
    )


@transaction.atomic
def lock_table(session: Session, number: int, locked: bool = True) -> str:
    """Lock a table (a re-roll keeps it as it is) or unlock it."""
    _require_open(session)
    plan = _require_draft(_locked_plan(session))
    table = plan.tables.filter(number=number).first()
    if table is None:
        raise SeatingError(f"There is no table {number}.")
    table.locked = locked
    table.save(update_fields=["locked"])
    plan.save(update_fields=["updated"])
    if locked:
        return f"Table {number} is locked: a re-roll keeps it as it is."
    return f"Table {number} is unlocked: a re-roll may change it."


@transaction.atomic
def publish(session: Session) -> SeatingPlan:
    """Members can now see the seating; it stays fixed unless the coordinator unpublishes."""
    _require_open(session)
    plan = _require_draft(_locked_plan(session))
    if not plan.tables.exists():
        raise SeatingError("There are no tables to publish: make the seating first.")
    plan.status = SeatingPlan.Status.PUBLISHED
    plan.published_at = timezone.now()
    plan.save(update_fields=["status", "published_at", "updated"])
    return plan


@transaction.atomic
def unpublish(session: Session) -> SeatingPlan:
    """Back to a draft the coordinator can change (members no longer see it)."""
    _require_open(session)
    plan = _require_published(_locked_plan(session))
    plan.status = SeatingPlan.Status.DRAFT
    plan.published_at = None
    plan.save(update_fields=["status", "published_at", "updated"])
    return plan


# --- after publishing: one table at a time -----------------------------------------------


@transaction.atomic
def seat_late_arrival(session: Session, member: Member, choice: str = "") -> Outcome:
    """Check the member in (if needed) and seat them at one table, moving nobody else.

    When no table can take one more, nothing moves and the algorithm's explanation is
    returned; if it offers a fallback (a new table of three with two Dreamers), the
    coordinator can post it back as ``choice``.
    """
    _require_open(session)
    plan = _require_published(_locked_plan(session))
    if Seat.objects.filter(plan=plan, member=member).exists():
        raise SeatingError(f"{member} already has a seat.")
    _check_in(session, member)
    seating = load_seating(plan)
    result = algo.add_late_arrival(seating, as_player(member), _rng(plan, "late", member.pk))
    if result.table is not None:
        _save_tables(plan, result.seating)
        return Outcome(result.message, True)
    if choice:
        option = _pick(result.options, choice)
        _save_tables(plan, option.seating)
        return Outcome(f"Done: {option.description}.", True)
    return Outcome(
        f"{result.message} {member} is checked in and waits for a seat.",
        False,
        [(str(i), o.description) for i, o in enumerate(result.options)],
    )


KEEP_TABLE_OF_TWO = "keep"


@transaction.atomic
def remove_early_leaver(session: Session, member: Member, choice: str = "") -> Outcome:
    """Take out a member who goes home early; only their table changes.

    If their table is left with two players the coordinator chooses (``choice``) one of the
    algorithm's fixes, or ``"keep"`` to leave the two for now; until then nothing is saved.
    """
    _require_open(session)
    plan = _require_published(_locked_plan(session))
    if not Seat.objects.filter(plan=plan, member=member).exists():
        raise SeatingError(f"{member} has no seat in this seating.")
    seating = load_seating(plan)
    result = algo.remove_leaver(seating, member_id(member))
    if result.needs_action and not choice:
        choices = [(str(i), o.description) for i, o in enumerate(result.options)]
        choices.append(
            (KEEP_TABLE_OF_TWO, f"Just take {member} out; table {result.table} keeps two for now")
        )
        return Outcome(result.message, False, choices)
    if result.needs_action and choice != KEEP_TABLE_OF_TWO:
        option = _pick(result.options, choice)
        after, message = option.seating, f"{member} has left. Done: {option.description}."
    else:
        after, message = result.seating, f"{member} has left. {result.message}"
    Attendance.objects.filter(session=session, member=member, left_at__isnull=True).update(
        left_at=timezone.now()
    )
    _save_tables(plan, after)
    return Outcome(message, True)


def _pick(options, choice: str):
    try:
        return options[int(choice)]
    except (ValueError, IndexError):
        raise SeatingError("That choice is no longer available: please choose again.") from None
