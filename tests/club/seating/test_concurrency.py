"""Two coordinators (or a double tap) making the first seating at the same moment: one plan
results and the other request sees it, on SQLite and on PostgreSQL."""

import datetime

import pytest

from club.models import Seat, SeatingPlan
from club.seating.changes import make_seating
from tests.club.seating.helpers import members, session_with
from tests.threads import at_once, failures


@pytest.mark.django_db(transaction=True)
def test_two_first_makes_at_once_give_one_plan_and_both_see_it(club):
    session = session_with(club, members(club, 12), date=datetime.date(2026, 6, 10))

    results = at_once([lambda: make_seating(session)] * 2)

    assert not failures(results), results
    plans = {plan.pk for plan, _ in results}
    assert len(plans) == 1 and SeatingPlan.objects.count() == 1
    assert sorted(made for _, made in results) == [False, True]
    assert Seat.objects.filter(plan__session=session).count() == 12
