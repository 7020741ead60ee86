"""The demo club that `make run` loads into an empty database.

Each later feature adds its own step (past sessions, seating, hands) to DEMO_STEPS, so a
newcomer opens a living club.
"""

import datetime
import random

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from club.models import Attendance, Club, Member, SeatingPlan, Session
from club.roles import make_coordinator
from club.scoping import scope
from club.week.demo import demo_replies
from front.demo_play import demo_evenings

COORDINATOR_LOGIN = ("coordinator", "mahjong-coordinator")
MEMBER_LOGIN = ("member", "mahjong-member")

DEMO_MEMBERS = [
    ("Margaret Thornton", "Margaret"),
    ("Brian Oakes", "Brian"),
    ("Sheila Patel", "Sheila"),
    ("Derek Holloway", "Derek"),
    ("Jean McAllister", "Jean"),
    ("Keith Barnard", "Keith"),
    ("Pauline Fairweather", "Pauline"),
    ("Graham Ellis", "Graham"),
    ("Valerie Chen", "Valerie"),
    ("Roger Whitfield", "Roger"),
    ("Maureen O'Connell", "Maureen"),
    ("Alan Pritchard", "Alan"),
    ("Dorothy Singh", "Dorothy"),
    ("Trevor Lambert", "Trevor"),
    ("Brenda Kowalski", "Brenda"),
    ("Colin Ashworth", "Colin"),
    ("Ann Davies", "Ann"),
    ("Malcolm Reid", "Malcolm"),
    ("Judith Okafor", "Judith"),
    ("Geoffrey Hale", "Geoffrey"),
    ("Lorna Campbell", "Lorna"),
    ("Dennis Wong", "Dennis"),
    ("Hilary Brooks", "Hilary"),
    ("Stanley Moore", "Stanley"),
]
BEGINNERS = {"Valerie", "Alan", "Hilary", "Dennis", "Lorna"}


def create_club_and_members(club: Club, rng: random.Random) -> Club:
    club.name = "Riverside U3A Mahjong"
    club.slug = "riverside"
    club.rule_set = "classical"
    club.save()
    today = datetime.date.today()
    for full_name, table_name in DEMO_MEMBERS:
        Member.objects.create(
            club=club,
            name=full_name,
            table_name=table_name,
            email=f"{table_name.lower()}@example.org",
            joined=today - datetime.timedelta(days=rng.randint(60, 1500)),
            experience=Member.Experience.BEGINNER
            if table_name in BEGINNERS
            else Member.Experience.EXPERIENCED,
        )
    User = get_user_model()
    coordinator = User.objects.create_user(COORDINATOR_LOGIN[0], password=COORDINATOR_LOGIN[1])
    make_coordinator(coordinator, club)
    Member.objects.filter(table_name="Margaret").update(user=coordinator)
    member_user = User.objects.create_user(MEMBER_LOGIN[0], password=MEMBER_LOGIN[1])
    Member.objects.filter(table_name="Brian").update(user=member_user)
    return club


# Later features append their own steps: each takes (club, rng).
DEMO_STEPS: list = []


DEMO_VENUE = "St Mark's Church Hall"
DEMO_PAST_WEEKS = 10


def _at(date: datetime.date, hour: int, minute: int = 0) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(date, datetime.time(hour, minute)))


def demo_season_of_seating(club: Club, rng: random.Random) -> None:
    """Ten weekly sessions this season, each seated by the real algorithm (so the history
    is real), published and closed; then tonight's session with people checked in, ready
    for the coordinator to press "Make the seating"."""
    from club.seating.changes import make_seating

    today = timezone.localdate()
    if club.season_start is None:
        club.season_start = today - datetime.timedelta(weeks=DEMO_PAST_WEEKS, days=4)
        club.save(update_fields=["season_start"])
    people = list(Member.objects.filter(club=club, is_active=True))
    logins = [m for m in people if m.user_id]
    for weeks_ago in range(DEMO_PAST_WEEKS, -1, -1):
        date = today - datetime.timedelta(weeks=weeks_ago)
        session = Session.objects.create(club=club, date=date, venue=DEMO_VENUE)
        others = [m for m in people if not m.user_id]
        share = rng.uniform(0.68, 0.82)
        present = logins + rng.sample(others, round(len(people) * share) - len(logins))
        Attendance.objects.bulk_create(
            Attendance(session=session, member=m, arrived_at=_at(date, 13, rng.randint(30, 59)))
            for m in present
        )
        if weeks_ago == 0:
            continue  # tonight: checked in, seating not made yet
        plan, _ = make_seating(session, seed=rng.randrange(2**62))
        plan.publish()
        SeatingPlan.objects.filter(session=session).update(published_at=_at(date, 14))
        session.status = Session.Status.CLOSED
        session.save(update_fields=["status"])


DEMO_STEPS.append(demo_season_of_seating)


def demo_evenings_of_play(club: Club, rng: random.Random) -> None:
    demo_evenings(club, rng)


DEMO_STEPS.append(demo_evenings_of_play)
DEMO_STEPS.append(demo_replies)


def database_is_empty() -> bool:
    return not Club.objects.exists() and not get_user_model().objects.exists()


@transaction.atomic
def load_demo(seed: int = 2026) -> Club:
    rng = random.Random(seed)
    club = Club.objects.current()
    with scope(club=club):
        create_club_and_members(club, rng)
        for step in DEMO_STEPS:
            step(club, rng)
    return club


def demo_standings_settings(club: Club, rng: random.Random) -> None:
    """Members who came to fewer than six of the ten evenings are listed unranked."""
    club.min_sessions = 6
    club.save(update_fields=["min_sessions"])


DEMO_STEPS.append(demo_standings_settings)
