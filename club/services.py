"""Writes for members, sessions and attendance. Each changes its rows in one transaction
and raises a ServiceError with a message fit to show the coordinator."""

import datetime

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import ProtectedError, Q
from django.utils import timezone
from django.utils.formats import date_format

from . import selectors
from .forms import MemberForm
from .models import Attendance, Club, KeepApart, Member, Session


class ServiceError(Exception):
    """Something the coordinator asked for cannot be done; str() says why, in plain words."""


class MemberHasPlayed(ServiceError):
    pass


class SessionExists(ServiceError):
    pass


class SessionClosed(ServiceError):
    pass


class SameNameMembers(ServiceError):
    def __init__(self, message: str, matches: list[Member]):
        super().__init__(message)
        self.matches = matches


def nice_date(date: datetime.date) -> str:
    return date_format(date, "l j F Y")


# --- Members ---------------------------------------------------------------------------


@transaction.atomic
def save_member(form: MemberForm) -> Member:
    """Save a valid MemberForm, linking, creating or removing the member's login."""
    member = form.save(commit=False)
    action = form.cleaned_data["login"]
    if action == MemberForm.LOGIN_NONE:
        member.user = None
    elif action == MemberForm.LOGIN_EXISTING:
        member.user = form.cleaned_data["existing_user"]
    elif action == MemberForm.LOGIN_NEW:
        member.user = get_user_model().objects.create_user(
            username=form.cleaned_data["username"].strip(),
            password=form.cleaned_data["password"],
            email=member.email,
            first_name=member.table_name,
        )
    member.save()
    return member


def retire_member(member: Member) -> None:
    member.is_active = False
    member.save(update_fields=["is_active"])


def reactivate_member(member: Member) -> None:
    member.is_active = True
    member.save(update_fields=["is_active"])


def delete_member(member: Member) -> None:
    """Delete a member added by mistake. A member who has played is kept: retire them."""
    refusal = (
        f"{member.table_name} has played at the club, so their record is kept for the "
        "standings. Mark them as lapsed (retire) instead."
    )
    if selectors.member_has_played(member):
        raise MemberHasPlayed(refusal)
    try:
        with transaction.atomic():
            member.delete()
    except ProtectedError as error:  # e.g. hands recorded by a later feature
        raise MemberHasPlayed(refusal) from error


def add_keep_apart(member: Member, other: Member, reason: str = "") -> KeepApart:
    if other.pk == member.pk:
        raise ServiceError("A member cannot be kept apart from themselves.")
    if other.club_id != member.club_id:
        raise ServiceError(f"{other.table_name} is not a member of this club.")
    pair = KeepApart(club_id=member.club_id, member_a=member, member_b=other, reason=reason)
    try:
        with transaction.atomic():
            pair.save()
    except IntegrityError as error:
        raise ServiceError(
            f"{member.table_name} and {other.table_name} are already kept apart."
        ) from error
    return pair


def remove_keep_apart(member: Member, pair_id: int) -> Member | None:
    """Remove one of the member's pairs; returns the other member, or None if already gone."""
    pair = (
        KeepApart.objects.filter(pk=pair_id)
        .filter(Q(member_a=member) | Q(member_b=member))
        .select_related("member_a", "member_b")
        .first()
    )
    if pair is None:
        return None
    other = pair.other(member)
    KeepApart.objects.filter(pk=pair.pk).delete()
    return other


# --- Sessions --------------------------------------------------------------------------

# The buttons on a session's page: planned -> in play -> closed, and reopening a closed one.
STATUS_MOVES = {
    Session.Status.PLANNED: [Session.Status.IN_PLAY],
    Session.Status.IN_PLAY: [Session.Status.CLOSED],
    Session.Status.CLOSED: [Session.Status.IN_PLAY],
}


def next_session_date(source: Session, today: datetime.date) -> datetime.date:
    """A week after `source`, same weekday. From the latest session, never in the past:
    after a break the club starts again on the first such weekday from today."""
    date = source.date + datetime.timedelta(days=7)
    if date < today and not Session.objects.filter(club=source.club_id, date__gt=source.date):
        date += datetime.timedelta(days=7 * -(-(today - date).days // 7))
    return date


def create_next_session(
    club: Club, source: Session | None = None, today: datetime.date | None = None
) -> Session:
    """The session a week after `source` (default: the latest one), at the same venue.
    Refuses if there is already a session on that day."""
    source = source or selectors.latest_session(club)
    if source is None:
        raise ServiceError("There is no session yet to copy. Please add the first one.")
    date = next_session_date(source, today or timezone.localdate())
    refusal = f"There is already a session on {nice_date(date)}."
    if Session.objects.filter(club=club, date=date).exists():
        raise SessionExists(refusal)
    try:
        with transaction.atomic():
            return Session.objects.create(club=club, date=date, venue=source.venue)
    except IntegrityError as error:  # two coordinators clicked at once
        raise SessionExists(refusal) from error


def move_session(session: Session, status: str) -> Session:
    if status not in STATUS_MOVES.get(session.status, []):
        label = dict(Session.Status.choices).get(status, status)
        raise ServiceError(
            f"This session is {session.get_status_display().lower()}; "
            f"it cannot be set to “{label}” from here."
        )
    session.status = status
    session.save(update_fields=["status"])
    return session


# --- Attendance ------------------------------------------------------------------------


def _refuse_if_closed(session: Session) -> None:
    if session.is_closed:
        raise SessionClosed(
            "This session is closed, so its attendance can no longer change. "
            "Reopen it on the session's page if something needs correcting."
        )


def set_present(session: Session, member: Member, present: bool) -> Attendance | None:
    """Mark the member here or not here. Asking twice for the same thing changes nothing.

    Unticking someone before play starts removes the mistake; once play has started it
    records that they left.
    """
    _refuse_if_closed(session)
    if member.club_id != session.club_id:
        raise ServiceError("That person is not a member of this club.")
    with transaction.atomic():
        if present:
            attendance, created = Attendance.objects.get_or_create(session=session, member=member)
            if not created and attendance.left_at is not None:
                attendance.left_at = None
                attendance.save(update_fields=["left_at"])
            return attendance
        attendance = (
            Attendance.objects.select_for_update().filter(session=session, member=member).first()
        )
        if attendance is None:
            return None
        if session.status == Session.Status.PLANNED:
            attendance.delete()
            return None
        if attendance.left_at is None:
            attendance.left_at = timezone.now()
            attendance.save(update_fields=["left_at"])
        return attendance


def _free_table_name(club: Club, name: str) -> str:
    words = name.split()
    first = words[0]
    candidates = [first]
    if len(words) > 1:
        candidates.append(f"{first} {words[-1][0].upper()}")
        candidates.append(name)
    taken = {
        t.lower()
        for t in Member.objects.filter(club=club, table_name__istartswith=first).values_list(
            "table_name", flat=True
        )
    }
    for candidate in candidates:
        if candidate.lower() not in taken and len(candidate) <= 40:
            return candidate
    n = 2
    while f"{first[:35]} {n}".lower() in taken:
        n += 1
    return f"{first[:35]} {n}"


def check_in_walk_in(
    session: Session, name: str, joining: bool = False, member_id: int | None = None
) -> tuple[Member, bool]:
    """Check in someone typed at the door: an existing member found by name, or a new
    guest (or new member, if joining today). Returns (member, created)."""
    _refuse_if_closed(session)
    club = session.club
    with transaction.atomic():
        # Walk-ins queue on the club row: two at once would otherwise pick the same free
        # table name (PostgreSQL; SQLite's IMMEDIATE transactions already queue).
        Club.objects.select_for_update().filter(pk=club.pk).first()
        if member_id is not None:
            member = Member.objects.get(pk=member_id, club=club)
            created = False
        else:
            matches = selectors.find_members_by_name(club, name)
            if len(matches) > 1:
                raise SameNameMembers(
                    f"More than one member is called “{name}”. Please tap the right one.",
                    matches,
                )
            if matches:
                member, created = matches[0], False
            else:
                member = Member.objects.create(
                    club=club,
                    name=name,
                    table_name=_free_table_name(club, name),
                    is_guest=not joining,
                    experience=Member.Experience.BEGINNER,
                    notes="" if joining else f"Guest at the session of {nice_date(session.date)}.",
                )
                created = True
        set_present(session, member, True)
    return member, created
