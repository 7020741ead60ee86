"""Two coordinators (or a double tap) making the first seating at the same moment: one plan
results and the other request sees it, on SQLite and on PostgreSQL."""

import datetime
import threading

import pytest
from django.db import connection

from club.models import Seat, SeatingPlan
from club.seating.changes import make_seating
from tests.club.seating.helpers import members, session_with


def at_once(count, work):
    """Run `work()` in `count` threads released together; their results or exceptions."""
    barrier = threading.Barrier(count)
    results = [None] * count

    def run(i):
        try:
            barrier.wait()
            results[i] = work()
        except Exception as exc:  # noqa: BLE001 - the test inspects what each thread met
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_first_makes_at_once_give_one_plan_and_both_see_it(club):
    session = session_with(club, members(club, 12), date=datetime.date(2026, 6, 10))

    results = at_once(2, lambda: make_seating(session))

    assert not [r for r in results if isinstance(r, Exception)], results
    plans = {plan.pk for plan, _ in results}
    assert len(plans) == 1 and SeatingPlan.objects.count() == 1
    assert sorted(made for _, made in results) == [False, True]
    assert Seat.objects.filter(plan__session=session).count() == 12
