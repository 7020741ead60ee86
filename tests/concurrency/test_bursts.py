"""A busy hall: bursts of 20 requests from 20 logged-in coordinators, fired together over
real HTTP at a live server on a database file, as in production.

Each burst asserts that no request failed with a server error and that every write that
answered success is in the database.
"""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from club.models import Attendance, Member, Seat, SeatingPlan, SeatingTable, Session
from club.seating.changes import make_seating
from tests.concurrency.browsers import Answer, Browser, fire
from tests.factories import CoordinatorFactory, MemberFactory

pytestmark = pytest.mark.django_db(transaction=True)

BURST = 20
SURNAMES = [
    "Adams",
    "Brown",
    "Clarke",
    "Davies",
    "Evans",
    "Fox",
    "Green",
    "Hughes",
    "Irwin",
    "Jones",
    "King",
    "Lewis",
    "Moore",
    "Nash",
    "Owen",
    "Price",
    "Quinn",
    "Reid",
    "Smith",
    "Taylor",
]


def url_for(action: str, session: Session, **kw) -> str:
    """The one place that knows each action's URL and its keyword names."""
    match action:
        case "check_in":
            return reverse(
                "club:set_attendance", kwargs={"pk": session.pk, "member_pk": kw["member"].pk}
            )
        case "walk_in":
            return reverse("club:walk_in", kwargs={"pk": session.pk})
        case "make":
            return reverse("club:seating_make", kwargs={"session_id": session.pk})
        case "swap":
            return reverse("club:seating_swap", kwargs={"session_id": session.pk})
        case "lock" | "unlock":
            name = f"club:seating_{action}"
            return reverse(name, kwargs={"session_id": session.pk, "number": kw["number"]})
        case "next":
            return reverse("club:session_next")
    raise ValueError(action)


@pytest.fixture
def browsers(live_server, club):
    return [Browser(live_server, CoordinatorFactory()) for _ in range(BURST)]


def report(name: str, answers: list[Answer], rows: int, expected: int) -> None:
    errors = [a for a in answers if a.status >= 500]
    print(f"\n[burst] {name}: 5xx {len(errors)}/{len(answers)}, rows {rows}/{expected}")
    assert not errors, f"{len(errors)} server errors, e.g. {errors[0].body[:300]}"
    refused = [a.status for a in answers if a.status >= 400]
    assert not refused, f"refused: {refused}"


def _session(club, present=0, **kwargs) -> Session:
    # Next week: creating the week after never jumps a break in the calendar.
    date = timezone.localdate() + datetime.timedelta(days=7)
    session = Session.objects.create(club=club, date=date, **kwargs)
    for member in MemberFactory.create_batch(present, club=club):
        Attendance.objects.create(session=session, member=member)
    return session


def _seats(session) -> dict[int, int]:
    """{member id: table number} of the session's seating."""
    return dict(
        Seat.objects.filter(plan__session=session).values_list("member_id", "table__number")
    )


def test_check_in_twenty_members_at_once(browsers, club):
    session = _session(club)
    people = MemberFactory.create_batch(BURST, club=club)
    answers = fire(
        browsers, [(url_for("check_in", session, member=m), {"present": "1"}) for m in people]
    )
    here = set(Attendance.objects.filter(session=session).values_list("member_id", flat=True))
    report("check-in toggles", answers, len(here), BURST)
    assert here == {m.pk for m in people}


def test_twenty_different_walk_ins_at_once(browsers, club):
    session = _session(club)
    names = [f"Walker{i} Newcomer" for i in range(BURST)]
    answers = fire(browsers, [(url_for("walk_in", session), {"name": n}) for n in names])
    checked_in = set(
        Attendance.objects.filter(session=session).values_list("member__name", flat=True)
    )
    report("different walk-ins", answers, len(checked_in), BURST)
    assert checked_in == set(names)
    assert Member.objects.filter(name__in=names).count() == BURST


def test_twenty_walk_ins_sharing_a_first_name_at_once(browsers, club):
    session = _session(club)
    names = [f"Pat {surname}" for surname in SURNAMES]
    answers = fire(browsers, [(url_for("walk_in", session), {"name": n}) for n in names])
    table_names = list(
        Attendance.objects.filter(session=session).values_list("member__table_name", flat=True)
    )
    report("walk-ins sharing a first name", answers, len(table_names), BURST)
    assert len(set(table_names)) == BURST


def test_make_the_seating_twenty_times_at_once(browsers, club):
    session = _session(club, present=20)
    answers = fire(browsers, [(url_for("make", session), {})] * BURST)
    seats = _seats(session)
    report("make the seating", answers, len(seats), 20)
    assert SeatingPlan.objects.filter(session=session).count() == 1
    assert set(seats) == set(
        Attendance.objects.filter(session=session).values_list("member_id", flat=True)
    )
    assert SeatingTable.objects.filter(plan__session=session).count() == 5


def test_twenty_swaps_at_once(browsers, club):
    session = _session(club, present=2 * BURST)
    make_seating(session, seed=7)
    order = list(
        Seat.objects.filter(plan__session=session)
        .order_by("table__number", "position")
        .values_list("member_id", flat=True)
    )
    # Disjoint pairs from different tables: the swaps commute, so the end is known.
    pairs = [(order[k], order[k + BURST]) for k in range(BURST)]
    before = _seats(session)
    answers = fire(browsers, [(url_for("swap", session), {"a": a, "b": b}) for a, b in pairs])
    after = _seats(session)
    swapped = sum(after[a] == before[b] and after[b] == before[a] for a, b in pairs)
    report("swaps", answers, swapped, BURST)
    assert swapped == BURST
    assert len(after) == 2 * BURST


def test_lock_and_unlock_at_once(browsers, club):
    session = _session(club, present=2 * BURST)  # ten tables
    plan, _ = make_seating(session, seed=3)
    plan.tables.filter(number__gt=5).update(locked=True)
    # Each table is asked once or twice for the same thing, so the end is known.
    requests = [(url_for("lock", session, number=n), {}) for n in (1, 2, 3, 4, 5) * 2] + [
        (url_for("unlock", session, number=n), {}) for n in (6, 7, 8, 9, 10) * 2
    ]
    answers = fire(browsers, requests)
    locked = set(plan.tables.filter(locked=True).values_list("number", flat=True))
    report("lock/unlock", answers, 10 - len(locked ^ {1, 2, 3, 4, 5}), 10)
    assert locked == {1, 2, 3, 4, 5}


def test_create_next_weeks_session_from_one_session_at_once(browsers, club):
    latest = _session(club)
    answers = fire(browsers, [(url_for("next", latest), {"from": latest.pk})] * BURST)
    dates = list(Session.objects.filter(club=club).values_list("date", flat=True))
    report("create next week's session (from a session)", answers, len(dates), 2)
    assert sorted(dates) == [latest.date, latest.date + datetime.timedelta(days=7)]


def test_create_next_weeks_session_without_a_reference_adds_nothing(browsers, club):
    """The sessions list names the session its button counts from; a post without one
    (an old page, a hand-made request) is refused instead of guessing from the latest."""
    latest = _session(club)
    answers = fire(browsers, [(url_for("next", latest), {})] * BURST)
    dates = list(Session.objects.filter(club=club).values_list("date", flat=True))
    report("create next week's session (no reference)", answers, len(dates), 1)
    assert dates == [latest.date]
