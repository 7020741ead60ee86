"""Seating writes that span several models: plan, re-roll, swap, late arrivals, leavers.

Each runs in one transaction that first locks the session's row, so two coordinators (or
a double tap) queue up instead of racing, also before the session has a plan at all; an
error leaves the saved plan exactly as it was. Refusals raise `SeatingError` or
`SessionClosed`, whose message is one plain sentence the page shows as it is.

Publishing, unpublishing and locking a table change the plan alone: they are methods of
`SeatingPlan`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from django.db import transaction
from django.dispatch import Signal
from django.utils import timezone

from club.models import Attendance, Member, Seat, SeatingPlan, SeatingTable, Session, new_rng_seed
from club.seating import load, planner
from club.seating.load import as_player, plan_of, room, saved_seating
from club.seating.planner import SeatingError

# Sent inside the transaction whenever a plan's tables were saved (sender: SeatingPlan,
# with `plan`), so play at the tables can follow a late arrival or a leaver without the
# seating knowing about matches.
tables_changed = Signal()


@dataclass
class ChangeAnswer:
    """What a change did, or the choice it needs first.

    ``changed`` is False when nothing was saved because the coordinator must choose: one of
    ``choices`` (best first: the page suggests the first, its label after ``prefix``),
    ``override`` (what was asked for, "anyway": never the suggestion), or ``fallback``
    (leave things as they are), posted back as ``choice`` together with ``fields``.
    ``waiting`` says in a few words what waits for the answer ("a swap of Ann and Bob"),
    for the refusal to publish while the question is open.
    """

    message: str
    changed: bool
    choices: list[tuple[str, str]] = field(default_factory=list)
    fallback: tuple[str, str] | None = None
    fields: dict[str, str] = field(default_factory=dict)
    override: tuple[str, str] | None = None
    prefix: str = "Suggested:"
    waiting: str = ""

    @property
    def recommended(self) -> tuple[str, str] | None:
        return self.choices[0] if self.choices else None

    @property
    def alternatives(self) -> list[tuple[str, str]]:
        """The next two choices, the override and the fallback: shown as buttons."""
        return (
            self.choices[1:3]
            + ([self.override] if self.override else [])
            + ([self.fallback] if self.fallback else [])
        )

    @property
    def others(self) -> list[tuple[str, str]]:
        """The rest, behind "Other choices"."""
        return self.choices[3:]


CONFIRM, CANCEL, KEEP = "confirm", "cancel", "keep"


def _lock(session: Session) -> tuple[Session, SeatingPlan | None]:
    """Lock the session's row for the rest of the transaction; its plan, if any."""
    session = (
        Session.objects.select_for_update(of=("self",)).select_related("club").get(pk=session.pk)
    )
    session.ensure_open("its seating")
    plan = plan_of(session)
    if plan is not None:
        plan.session = session
    return session, plan


def _locked_plan(session: Session, ensure) -> SeatingPlan:
    """The session's plan with the session's row locked, checked by `ensure`
    (`SeatingPlan.ensure_draft` or `SeatingPlan.ensure_published`)."""
    session, plan = _lock(session)
    if plan is None:
        raise SeatingError("There is no seating yet: press “Make the seating” first.")
    ensure(plan)
    return plan


def _rng(plan: SeatingPlan, *parts) -> random.Random:
    """A generator fixed by the plan's seed and the action, so a repeated request
    (or a choice posted back) gives the same dice."""
    return random.Random(":".join(str(p) for p in (plan.rng_seed, *parts)))


def _save_tables(plan: SeatingPlan, seating: planner.Seating, undo: dict | None = None) -> None:
    """Write the planner's tables to the plan, touching only tables that changed.
    `undo` is what "Undo" puts back afterwards (see `_state`); None: nothing to undo."""
    plan.undo = undo
    existing = {t.number: t for t in plan.tables.all()}
    saved: dict[int, tuple] = {number: () for number in existing}
    for seat in Seat.objects.filter(plan=plan).select_related("table").order_by("position"):
        saved[seat.table.number] += ((seat.member_id, seat.wind, tuple(seat.dice or ())),)

    wanted = {
        t.number: tuple((c.player_id, c.wind.value, tuple(c.throws)) for c in t.chairs)
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
            table = existing[number] = SeatingTable.objects.create(plan=plan, number=number)
        new_seats += [
            Seat(
                plan=plan, table=table, member_id=pk, wind=wind, position=position, dice=list(dice)
            )
            for position, (pk, wind, dice) in enumerate(wanted[number], start=1)
        ]
    Seat.objects.bulk_create(new_seats)
    for number, table in existing.items():
        if number in wanted and table.locked != (number in seating.locked):
            table.locked = number in seating.locked
            table.save(update_fields=["locked"])
    plan.save(update_fields=["updated", "undo", "changed_by_hand", "rng_seed"])
    tables_changed.send(sender=SeatingPlan, plan=plan)


def _state(plan: SeatingPlan) -> dict:
    """The plan's tables as JSON, to put back by `undo`."""
    tables = saved_seating(plan, history=[])
    return {
        "seed": plan.rng_seed,
        "by_hand": plan.changed_by_hand,
        "locked": sorted(tables.locked),
        "tables": [
            [t.number, [[c.player_id, c.wind.value, list(c.throws)] for c in t.chairs]]
            for t in tables.tables
        ],
    }


def _from_state(state: dict) -> planner.Seating:
    tables = [
        planner.Table(
            number, tuple(planner.PlannedSeat(pk, planner.Wind(w), tuple(d)) for pk, w, d in chairs)
        )
        for number, chairs in state["tables"]
    ]
    return planner.seating_from_tables(tables, locked=state["locked"])


def _plan_room(
    session: Session, plan: SeatingPlan | None, seed: int, coming: list[Member] | None = None
) -> planner.Seating:
    """Seat everyone present (or the `coming`), keeping the plan's locked tables as they are."""
    here = room(session, coming)
    locked: list[planner.Table] = []
    if plan is not None:
        current = saved_seating(plan, history=[])
        locked = [current.table(n) for n in sorted(current.locked)]
        present = {m.pk for m in here.members}
        for table in locked:
            gone = [pid for pid in table.player_ids if pid not in present]
            if gone:
                raise SeatingError(
                    f"{current.names[gone[0]]} is at locked table {table.number} but is no "
                    f"longer checked in: unlock table {table.number} or check them in again."
                )
    if coming is not None and len(coming) < 3:
        raise SeatingError(
            f"Only {len(coming)} {'member has' if len(coming) == 1 else 'members have'} said "
            "they are coming: a table needs at least 3 players."
        )
    if not here.members:
        raise SeatingError("Nobody is checked in yet: check people in first.")
    if len(here.members) < 3 and not locked:
        # The planner's own message here talks about locked tables, which would mislead.
        raise SeatingError(
            f"Only {len(here.members)} {'person is' if len(here.members) == 1 else 'people are'} "
            "checked in: a table needs at least 3 players."
        )
    return planner.plan_seating(
        here.players,
        here.history,
        rules=here.rules,
        locked_tables=locked,
        rng=random.Random(seed),
    )


@transaction.atomic
def make_seating(
    session: Session, *, seed: int | None = None, from_replies: bool = False
) -> tuple[SeatingPlan, bool]:
    """The session's first seating (a draft), seating the present members at random and
    avoiding this season's pairs. Returns the plan and whether it was made now: when a plan
    exists already (another screen, a double tap) it is returned unchanged.

    `from_replies`: seat those who said they are coming instead (a draft made before the
    evening; at the door the coordinator publishes it, or re-rolls it from who came)."""
    session, plan = _lock(session)
    if plan is not None:
        return plan, False
    seed = new_rng_seed() if seed is None else seed
    coming = None
    if from_replies:
        coming = list(
            Member.objects.filter(pk__in=session.replies.coming().values("member_id")).order_by(
                "table_name"
            )
        )
    seating = _plan_room(session, None, seed, coming)
    plan = SeatingPlan.objects.create(session=session, rng_seed=seed)
    _save_tables(plan, seating)
    return plan, True


def reroll_question() -> ChangeAnswer:
    """What a re-roll asks after swaps by hand: nothing is suggested, re-rolling is the
    override."""
    return ChangeAnswer(
        "You have changed this seating by hand. A re-roll seats everyone again "
        "(locked tables stay) and your changes go.",
        False,
        fallback=(CANCEL, "Keep this seating"),
        override=(CONFIRM, "Re-roll anyway"),
        waiting="a re-roll",
    )


@transaction.atomic
def reroll(session: Session, *, seed: int | None = None, choice: str = "") -> ChangeAnswer:
    """Plan the draft again: locked tables stay exactly as they are, everyone else moves.
    After swaps by hand it asks first (``choice`` CONFIRM goes ahead); "Undo" brings the
    seating before the re-roll back."""
    plan = _locked_plan(session, SeatingPlan.ensure_draft)
    if choice == CANCEL:
        return ChangeAnswer("Nothing changed: the seating is as it was.", True)
    if plan.changed_by_hand and choice != CONFIRM:
        return reroll_question()
    seed = new_rng_seed() if seed is None else seed
    seating = _plan_room(plan.session, plan, seed)
    undo = {"what": "the re-roll", **_state(plan)}
    plan.rng_seed, plan.changed_by_hand = seed, False
    _save_tables(plan, seating, undo)
    return ChangeAnswer("Re-rolled: everyone not at a locked table has a new seat.", True)


PAIR_CHOICE = "pair-{}-{}"  # the suggested swap, posted back as a choice


def _swap_question(before: planner.Seating, a: Member, b: Member, result) -> ChangeAnswer | None:
    """The question a swap asks before it seats people with someone from last week (None:
    it asks nothing): a swap that does not, when there is one, is suggested; swapping
    anyway and not swapping are the other two answers."""
    again = planner.last_week_pairs_made(before, result)
    if not again:
        return None
    names = before.names
    pairs = [f"{names[x]} with {names[y]}" for x, y in again]
    message = f"This swap seats {_listed(pairs)} again: they sat together last week."
    choices = []
    suggestion = planner.suggest_swap(before, a.pk, b.pk)
    if suggestion is not None:
        x, y = suggestion
        mover, to = (a, before.table_of(b.pk)) if x == a.pk else (b, before.table_of(a.pk))
        message += (
            f" Swapping {names[x]} and {names[y]} instead still moves {mover} to table "
            f"{to.number}, and seats nobody with someone from last week."
        )
        choices = [(PAIR_CHOICE.format(x, y), f"Do the suggested swap: {names[x]} and {names[y]}")]
    return ChangeAnswer(
        message,
        False,
        choices,
        (CANCEL, "Do not swap"),
        {"a": str(a.pk), "b": str(b.pk)},
        override=(CONFIRM, f"Swap {a} and {b} anyway"),
        prefix="",
        waiting=f"a swap of {a} and {b}",
    )


def swap_question(session: Session, a: Member, b: Member) -> ChangeAnswer:
    """The question about swapping `a` and `b`, asked again (nothing is saved): the swap's
    own question, or, when it no longer needs one, whether to swap them."""
    plan = plan_of(session)
    if plan is None:
        raise SeatingError("There is no seating yet: press “Make the seating” first.")
    plan.ensure_draft()
    before = saved_seating(plan)
    result = planner.swap(before, a.pk, b.pk, random.Random(0))
    return _swap_question(before, a, b, result) or ChangeAnswer(
        f"Swap {a} and {b}?",
        False,
        [],
        (CANCEL, "Do not swap"),
        {"a": str(a.pk), "b": str(b.pk)},
        override=(CONFIRM, f"Swap {a} and {b}"),
        waiting=f"a swap of {a} and {b}",
    )


@transaction.atomic
def swap_members(session: Session, a: Member, b: Member, choice: str = "") -> ChangeAnswer:
    """Swap two seated members' chairs; the dice are thrown again at their table(s).
    A swap that seats people with someone from last week asks first, suggesting a swap
    that does not when there is one (``choice`` "pair-x-y" makes that swap instead)."""
    plan = _locked_plan(session, SeatingPlan.ensure_draft)
    if choice == CANCEL:
        return ChangeAnswer("Nothing changed: nobody was swapped.", True)
    before = saved_seating(plan)
    if choice.startswith("pair-"):
        suggestion = planner.suggest_swap(before, a.pk, b.pk)
        if suggestion is None or choice != PAIR_CHOICE.format(*suggestion):
            raise SeatingError("That choice is no longer available: please choose again.")
        members = {m.pk: m for m in Member.objects.filter(pk__in=suggestion)}
        a, b = members[suggestion[0]], members[suggestion[1]]
    result = planner.swap(before, a.pk, b.pk, _rng(plan, "swap", a.pk, b.pk))
    question = _swap_question(before, a, b, result)
    if question is not None and choice != CONFIRM:
        return question
    undo = {"what": f"the swap of {a} and {b}", **_state(plan)}
    plan.changed_by_hand = True
    _save_tables(plan, result, undo)
    ta, tb = result.table_of(a.pk).number, result.table_of(b.pk).number
    if ta == tb:
        return ChangeAnswer(
            f"{a} and {b} swapped chairs at table {ta}; the dice were thrown again there.", True
        )
    return ChangeAnswer(
        f"{a} now sits at table {ta} and {b} at table {tb}; "
        "the dice were thrown again at both tables.",
        True,
    )


@transaction.atomic
def undo(session: Session) -> str:
    """Put the draft back as it was before its last change (a swap or a re-roll)."""
    plan = _locked_plan(session, SeatingPlan.ensure_draft)
    state = plan.undo
    if not state:
        raise SeatingError("There is nothing to undo.")
    present = {m.pk for m in load.present_members(plan.session)}
    missing = [pk for _, chairs in state["tables"] for pk, _, _ in chairs if pk not in present]
    if missing:
        raise SeatingError("That seating cannot come back: someone in it is no longer checked in.")
    plan.rng_seed, plan.changed_by_hand = state["seed"], state["by_hand"]
    _save_tables(plan, _from_state(state))
    return f"Undone: {state['what']}."


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


@transaction.atomic
def seat_late_arrival(session: Session, member: Member, choice: str = "") -> ChangeAnswer:
    """Check the member in (if needed) and seat them at one table, moving nobody else.

    When no table can take one more, nothing moves and the planner's explanation is
    returned; if it offers a fallback (a new table of three with two Dreamers), the
    coordinator can post it back as ``choice``.
    """
    plan = _locked_plan(session, SeatingPlan.ensure_published)
    if Seat.objects.filter(plan=plan, member=member).exists():
        raise SeatingError(f"{member} already has a seat.")
    plan.session.check_in(member)
    result = planner.add_late_arrival(
        saved_seating(plan, arriving=member), as_player(member), _rng(plan, "late", member.pk)
    )
    if result.table is not None:
        _save_tables(plan, result.seating)
        return ChangeAnswer(result.message, True)
    if choice:
        option = _pick(result.options, choice)
        _save_tables(plan, option.seating)
        return ChangeAnswer(f"Done: {option.description}.", True)
    return ChangeAnswer(
        f"{result.message} {member} is checked in and waits for a seat.",
        False,
        [(str(i), o.description) for i, o in enumerate(result.options)],
        fields={"member": str(member.pk)},
    )


@transaction.atomic
def remove_early_leaver(session: Session, member: Member, choice: str = "") -> ChangeAnswer:
    """Take out a member who goes home early; only their table changes.

    When the planner offers fixes (their table is left with two, or with three beside a
    five) the coordinator chooses (``choice``) one of them, or KEEP to just take them out;
    until then nothing is saved.
    """
    plan = _locked_plan(session, SeatingPlan.ensure_published)
    if not Seat.objects.filter(plan=plan, member=member).exists():
        raise SeatingError(f"{member} has no seat in this seating.")
    result = planner.remove_leaver(saved_seating(plan), member.pk)
    if result.options and not choice:
        keep = (
            f"Just take {member} out; table {result.table} keeps two for now"
            if result.needs_action
            else f"Take {member} out; table {result.table} plays as a table of three"
        )
        return ChangeAnswer(
            result.message,
            False,
            [(str(i), o.description) for i, o in enumerate(result.options)],
            (KEEP, keep),
            {"member": str(member.pk)},
        )
    if result.options and choice != KEEP:
        option = _pick(result.options, choice)
        after, message = option.seating, f"{member} has left. Done: {option.description}."
    else:
        after, message = result.seating, f"{member} has left. {result.message}"
    Attendance.objects.filter(session=plan.session, member=member, left_at__isnull=True).update(
        left_at=timezone.now()
    )
    _save_tables(plan, after)
    return ChangeAnswer(message, True)


def _pick(options, choice: str):
    try:
        return options[int(choice)]
    except (ValueError, IndexError):
        raise SeatingError("That choice is no longer available: please choose again.") from None
