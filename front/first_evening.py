"""A new club's first steps, on its coordinator's home page until the club has members and a
session: add the members (or import the spreadsheet), check the club's settings, make
tonight's session. Reads only."""

from __future__ import annotations

from dataclasses import dataclass

from club.models import Club, Member, Session


@dataclass(frozen=True)
class FirstEvening:
    has_members: bool
    has_session: bool


def first_evening(club: Club) -> FirstEvening | None:
    """The club's first steps and which are done; None once it has members and a session."""
    has_members = Member.objects.filter(club=club).exists()
    has_session = Session.objects.filter(club=club).exists()
    if has_members and has_session:
        return None
    return FirstEvening(has_members=has_members, has_session=has_session)
