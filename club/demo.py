"""The demo club that `make run` loads into an empty database.

Each later feature adds its own step (past sessions, seating, hands) to DEMO_STEPS, so a
newcomer opens a living club.
"""

import datetime
import random

from django.contrib.auth import get_user_model
from django.db import transaction

from .models import Club, Member
from .roles import make_coordinator

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


def create_club_and_members(rng: random.Random) -> Club:
    club = Club.objects.current()
    club.name = "Riverside U3A Mahjong"
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
    make_coordinator(coordinator)
    Member.objects.filter(table_name="Margaret").update(user=coordinator)
    member_user = User.objects.create_user(MEMBER_LOGIN[0], password=MEMBER_LOGIN[1])
    Member.objects.filter(table_name="Brian").update(user=member_user)
    return club


# Later features append their own steps: each takes (club, rng).
DEMO_STEPS: list = []


def database_is_empty() -> bool:
    return not Club.objects.exists() and not get_user_model().objects.exists()


@transaction.atomic
def load_demo(seed: int = 2026) -> Club:
    rng = random.Random(seed)
    club = create_club_and_members(rng)
    for step in DEMO_STEPS:
        step(club, rng)
    return club
