"""Checking in someone typed at the door: finding or creating their member record and
checking them in is one write across two models, so it lives here rather than on either."""

from django.db import transaction

from .models import Club, Member, Refused, Session, long_date


class SameNameMembers(Refused):
    """More than one member has the typed name; `matches` lists them to choose from."""

    def __init__(self, message: str, matches: list[Member]):
        super().__init__(message)
        self.matches = matches


def check_in_walk_in(
    session: Session, name: str, joining: bool = False, member: Member | None = None
) -> tuple[Member, bool]:
    """Check in `member` if the coordinator chose one, else the member called `name`, else
    a new guest (or new member, if joining today). Returns (member, created)."""
    session.ensure_open("its attendance")
    club = session.club
    with transaction.atomic():
        # Walk-ins queue on the club row: two at once would otherwise pick the same free
        # table name (PostgreSQL; SQLite's IMMEDIATE transactions already queue).
        Club.objects.select_for_update().filter(pk=club.pk).first()
        created = False
        if member is None:
            matches = list(club.members.named(name))
            if len(matches) > 1:
                raise SameNameMembers(
                    f"More than one member is called “{name}”. Please tap the right one.",
                    matches,
                )
            if matches:
                member = matches[0]
            else:
                member = Member.objects.create(
                    club=club,
                    name=name,
                    table_name=club.members.free_table_name(name),
                    is_guest=not joining,
                    experience=Member.Experience.BEGINNER,
                    notes="" if joining else f"Guest at the session of {long_date(session.date)}.",
                )
                created = True
        session.set_present(member, True)
    return member, created
