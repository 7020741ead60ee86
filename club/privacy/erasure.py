"""Erasing a leaver's personal details while the club's results stay as they were.

What goes: the name (it becomes "Former member 17", or the initials, as the club chooses),
email, phone and notes, the never-seat-with pairs (their reasons name people), and the
login (closed, its name freed; a login that is also another club's is only unlinked, as it
is not this club's to close). What stays: the member's row and id, their attendance, every
hand, result and correction, so every standings page and CSV reads the same apart from the
name. The erasure list (`Erasure`) keeps who erased whom and when, and nothing erased.
"""

from __future__ import annotations

import calendar
import datetime
import uuid

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from club.accounts import may_manage_login
from club.calendar_feed.models import CalendarAddress
from club.models import Attendance, Club, FormerMemberNames, KeepApart, Member
from club.privacy.models import Erasure
from club.refusals import Refused
from club.scoping import scopes_disabled
from club.week.models import SessionReply

FORMER_MEMBER = "Former member"


class ErasureRefused(Refused):
    pass


def is_erased(member: Member) -> bool:
    return Erasure.objects.filter(member=member).exists()


def former_name(member: Member) -> str:
    """The name an erased member is shown by, free among the club's table names."""
    club = member.club
    taken = {
        name.lower()
        for name in Member.objects.filter(club=club.pk)
        .exclude(pk=member.pk)
        .values_list("table_name", flat=True)
    }
    if club.former_member_names == FormerMemberNames.INITIALS and member.name.split():
        base = "".join(f"{word[0].upper()}." for word in member.name.split()[:4])
        candidates = (base if n == 1 else f"{base} {n}" for n in range(1, 10_000))
    else:
        start = Erasure.objects.filter(club=club.pk).count() + 1
        candidates = (f"{FORMER_MEMBER} {n}" for n in range(start, start + 10_000))
    return next(name for name in candidates if name.lower() not in taken)


def _close_login(member: Member) -> None:
    """Close the member's login and free its name; a login that is another club's too, or
    can run a club, is not this club's to close: it is only unlinked from the member."""
    user = member.user
    if user is None:
        return
    if not may_manage_login(None, user, member.club):
        member.user = None
        return
    User = get_user_model()
    username = f"erased-{uuid.uuid4().hex[:12]}"
    setattr(user, User.USERNAME_FIELD, username)
    user.email = ""
    user.first_name = ""
    user.last_name = ""
    user.is_active = False
    user.set_unusable_password()
    user.save()


def erase(
    member: Member, by=None, *, automatic: bool = False, lapse: bool = False
) -> Erasure | None:
    """Erase `member`'s personal details, once: the Erasure made, or None when they were
    erased already (the same request sent twenty times has one effect). Only a lapsed
    member's (`lapse` marks an active one as lapsed first: an older backup restored)."""
    with transaction.atomic():
        member = (
            Member.objects.select_for_update(of=("self",))
            .select_related("club", "user")
            .get(pk=member.pk)
        )
        if is_erased(member):
            return None
        if member.is_active and not lapse:
            raise ErasureRefused(
                f"{member.table_name} is an active member: only a lapsed member's details can "
                "be erased. Mark them as lapsed first. Nothing was changed."
            )
        new_name = former_name(member)
        member.name = member.table_name = new_name
        member.email = member.phone = member.notes = ""
        member.is_active = False
        member.fixed_table = None
        _close_login(member)
        member.save()
        # The history of changes keeps each old name, email, phone and note: it goes too,
        # leaving the one line that says the details were erased (made by the save above).
        member.history.exclude(pk=member.history.latest().pk).delete()
        # Their calendar address dies with the login; notes to "are you coming?" may be
        # personal ("hospital that week"), the answers themselves are the register's.
        CalendarAddress.objects.filter(member=member).delete()
        SessionReply.objects.filter(member=member).exclude(note="").update(note="")
        # Their times away (club/week/) stay: two dates and no text, like the register.
        KeepApart.objects.filter(club=member.club_id, member_a=member).delete()
        KeepApart.objects.filter(club=member.club_id, member_b=member).delete()
        try:
            with transaction.atomic():
                return Erasure.objects.create(
                    club_id=member.club_id,
                    member=member,
                    member_uid=member.uid,
                    erased_at=timezone.now(),
                    erased_by=by,
                    automatic=automatic,
                )
        except IntegrityError:  # erased at the same moment by another request
            raise ErasureRefused(f"{member.table_name} was erased already.") from None


def erase_again(club: Club) -> list[str]:
    """After a backup is restored into `club`: erase once more every member whom this
    installation's erasure list (of any club) names but who came back with their details
    (an older backup); what they are called now, for the import to say."""
    with scopes_disabled():
        erased_uids = set(Erasure.objects.values_list("member_uid", flat=True))
        members = list(Member.objects.filter(club=club, uid__in=erased_uids, erasure__isnull=True))
    names = []
    for member in members:
        erasure = erase(member, automatic=True, lapse=True)
        if erasure is not None:
            names.append(erasure.member.table_name)
    return names


def months_before(day: datetime.date, months: int) -> datetime.date:
    """The same day `months` earlier (the month's last day when it has no such day)."""
    year, month = divmod(day.year * 12 + day.month - 1 - months, 12)
    month += 1
    return datetime.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def due_for_erasure(club: Club, today: datetime.date | None = None):
    """The lapsed members of `club` (in scope) whose details the club's setting says to
    erase by `today`: lapsed `erase_after_months` ago or more (for a member lapsed before
    the app kept that date, counted from their last evening, or else from joining). Empty
    when the club keeps details until a coordinator erases them."""
    if not club.erase_after_months:
        return Member.objects.none()
    today = today or timezone.localdate()
    last_evening = (
        Attendance.objects.filter(member=OuterRef("pk"))
        .order_by("-session__date")
        .values("session__date")[:1]
    )
    return (
        Member.objects.filter(club=club, is_active=False, erasure__isnull=True)
        .annotate(left_on=Coalesce("retired_on", Subquery(last_evening), "joined"))
        .filter(left_on__lte=months_before(today, club.erase_after_months))
        .order_by("left_on", "pk")
    )
