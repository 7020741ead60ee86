"""The synthetic ten-year club the standings bench, the backup bench and the load test share.

`build_club` fills an empty, migrated database with 100 members and 500 weekly sessions
(28 players a week at seven tables, 17 hands a table: about 59,500 hands, classical rules)
and computes every stored result from the hands. `add_tonight` adds this evening's session
with 20 tables in play, started through the app's own code (a published seating, then
games.start.start_play), and a login for every member. Import it after django.setup().
"""

from __future__ import annotations

import datetime
import random
import time

SEED = 20261125
MEMBERS = 100
SESSIONS = 500
TABLES = 7
HANDS_PER_TABLE = 17
TONIGHT_TABLES = 20


def payments(
    rng: random.Random, size: int, winner: int, total: int
) -> tuple[list[int], int | None]:
    """Zero-sum payments for a win: self-drawn (everyone pays) or on a discard (one pays)."""
    pays = [0] * size
    if rng.random() < 0.5:
        for chair in range(size):
            if chair != winner:
                pays[chair] = -total
        pays[winner] = total * (size - 1)
        return pays, None
    discarder = rng.choice([c for c in range(size) if c != winner])
    pays[discarder] = -total * 2
    pays[winner] = total * 2
    return pays, discarder


def build_club(rng: random.Random, last: datetime.date | None = None, years: int = 10):
    """The ten-year club (or `years` years: 50 sessions a year), its last session on `last`
    (today by default); the default is the same club, row for row, as before. Returns the club,
    the "bench" login (member 0's), the sessions, the members, the number of hands and the
    seconds the results took to compute."""
    from django.contrib.auth import get_user_model

    from club.models import Attendance, Club, Member, Session
    from games.models import Chair, Match
    from scoring.models import Hand
    from scoring.standings import rebuild_results

    club = Club.objects.current()
    club.season_start = datetime.date(2020, 9, 1)
    club.save()
    user = get_user_model().objects.create_user("bench", password="bench-password-123")
    members = Member.objects.bulk_create(
        Member(club=club, name=f"Member {n}", table_name=f"Member {n}", email=f"m{n}@example.org")
        for n in range(MEMBERS)
    )
    Member.objects.filter(pk=members[0].pk).update(user=user)
    last = last or datetime.date.today()
    weeks = SESSIONS * years // 10
    first = last - datetime.timedelta(weeks=weeks - 1)
    sessions = Session.objects.bulk_create(
        Session(club=club, date=first + datetime.timedelta(weeks=w), status="closed")
        for w in range(weeks)
    )
    attendance, seatings = [], []
    for session in sessions:
        present = [members[0], *rng.sample(members[1:], TABLES * 4 - 1)]
        rng.shuffle(present)
        attendance += [Attendance(session=session, member=m) for m in present]
        seatings.append([present[t * 4 : t * 4 + 4] for t in range(TABLES)])
    Attendance.objects.bulk_create(attendance, batch_size=2000)
    matches = Match.objects.bulk_create(
        (
            Match(
                session=session,
                table_number=t + 1,
                rules="classical",
                starting_tally=2000,
                status="finished",
                ending="flow",
            )
            for session in sessions
            for t in range(TABLES)
        ),
        batch_size=2000,
    )
    chairs, hands = [], []
    tables = [table for seating in seatings for table in seating]
    for match, table in zip(matches, tables, strict=True):
        chairs += [Chair(match=match, number=n, member=m) for n, m in enumerate(table)]
        for number in range(1, HANDS_PER_TABLE + 1):
            if rng.random() < 0.08:
                hands.append(Hand(match=match, number=number))
                continue
            winner = rng.randrange(4)
            total = (
                2000 if rng.random() < 0.004 else rng.choice([10, 20, 40, 60, 80, 120, 160, 320])
            )
            pays, discarder = payments(rng, 4, winner, total)
            hand = Hand(
                match=match,
                number=number,
                winner=winner,
                total=total,
                won_by="discard" if discarder is not None else "wall",
                discarder=discarder,
            )
            hand.payments = pays
            hands.append(hand)
    Chair.objects.bulk_create(chairs, batch_size=2000)
    Hand.objects.bulk_create(hands, batch_size=2000)
    started = time.perf_counter()
    rebuild_results()
    rebuilt = time.perf_counter() - started
    # Table statistics, as a live database has them (autovacuum; SQLite's optimize), so the
    # planner sees ten years of rows rather than the empty tables it started with.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return club, user, sessions, members, len(hands), rebuilt


def add_tonight(club, members, password: str, tables: int = TONIGHT_TABLES):
    """Tonight's session, a week after the last one, with `tables` tables in play: the
    first 4 x `tables` members seated by a published seating, then play started by
    games.start.start_play. Every member gets a login `member<n>` with `password`; the
    hash is worked out once (the real hasher, as a served login needs) and shared.
    Returns the session and its matches, table 1 first."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from club.models import Attendance, Member, Seat, SeatingPlan, SeatingTable, Session
    from games.start import start_play

    User = get_user_model()
    encoded = make_password(password)
    taken = set(Member.objects.filter(user__isnull=False).values_list("pk", flat=True))
    for n, member in enumerate(members):
        if member.pk in taken:
            continue
        member.user = User.objects.create(username=f"member{n}", password=encoded)
        member.save(update_fields=["user"])
    last = Session.objects.filter(club=club).order_by("-date").first()
    tonight = Session.objects.create(club=club, date=last.date + datetime.timedelta(weeks=1))
    plan = SeatingPlan.objects.create(session=tonight, status="published")
    for t in range(tables):
        table = SeatingTable.objects.create(plan=plan, number=t + 1)
        for position in range(4):
            member = members[t * 4 + position]
            Attendance.objects.create(session=tonight, member=member)
            Seat.objects.create(
                plan=plan, table=table, member=member, wind="ESWN"[position], position=position + 1
            )
    matches = sorted(start_play(tonight), key=lambda match: match.table_number)
    return tonight, matches
