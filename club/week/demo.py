"""The demo club's answers to "are you coming?": most who came had said so, some who stayed
away sent apologies, and the member who missed the latest evenings said nothing."""

from __future__ import annotations

import random

from club.models import Attendance, Club, Member, Session
from club.week.models import ReplyAnswer, SessionReply

APOLOGY_NOTES = ["", "", "Away on holiday", "Hospital appointment", "Grandchildren visiting"]


def demo_replies(club: Club, rng: random.Random) -> None:
    # Its own random numbers, so the steps after it see the same ones as before.
    rng = random.Random(rng.random())
    members = list(Member.objects.filter(club=club, is_active=True, is_guest=False).order_by("pk"))
    sessions = list(Session.objects.filter(club=club).order_by("date"))
    present = set(Attendance.objects.values_list("session_id", "member_id"))
    played = [s for s in sessions if s.status == Session.Status.CLOSED]

    def missed_lately(member) -> int:
        run = 0
        for session in reversed(played):
            if (session.pk, member.pk) in present:
                break
            run += 1
        return run

    # The member who missed the most recent evenings says nothing about them: the members
    # page lists them for the coordinator to check on.
    silent = max(members, key=missed_lately)
    silent_run = {s.pk for s in played[len(played) - missed_lately(silent) :]}
    replies = []
    for session in sessions:
        for member in members:
            if (session.pk, member.pk) in present:
                if rng.random() < 0.7:
                    replies.append(
                        SessionReply(session=session, member=member, answer=ReplyAnswer.COMING)
                    )
            elif member == silent and session.pk in silent_run:
                continue
            elif rng.random() < 0.5:
                replies.append(
                    SessionReply(
                        session=session,
                        member=member,
                        answer=ReplyAnswer.NOT_COMING,
                        note=rng.choice(APOLOGY_NOTES),
                    )
                )
    SessionReply.objects.bulk_create(replies)
