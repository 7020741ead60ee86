"""Who changed what in a member's details, and when, in words for the coordinator's page:
"12 Nov, Jean (coordinator): phone changed".

The rows are django-simple-history's (`Member.history`): every save of a member keeps a
copy of its details with the login that made it (its middleware records the request's
user) and the time. They are club data like the member (scoped, `ClubScopedHistory`),
shown to the club's coordinators only, and not carried in the club's backup (a backup is
the club as it is now). The words name which details changed, never the old or new email
or phone, so the page shows no contact detail the member's page would not.
"""

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model

from club.models import Coordinator, Member

# The newest changes a page shows: years of a member's life are a few dozen rows.
SHOWN = 50
# The details whose change is worth a line; the rest (the form token) are the app's own.
NOT_SHOWN = {"id", "club"}


@dataclass(frozen=True)
class Change:
    when: datetime
    who: str
    what: str


# The details in the order the member's page lists them.
ORDER = [field.name for field in Member._meta.fields]
# Details whose own label (the form's) reads oddly in a line of history.
LABELS = {
    "user": "login",
    "is_active": "active or lapsed",
    "contact_sharing": "who may see the email and phone",
}


def _label(name: str) -> str:
    return LABELS.get(name) or str(Member._meta.get_field(name).verbose_name)


def _in_words(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _who(member: Member, user_ids: set[int]) -> dict[int, str]:
    """Each login as the page names it: its name at this club's table (or its username),
    and its part: "Jean (coordinator)", "Brian (the member)"."""
    users = get_user_model().objects.in_bulk(user_ids)
    table_names = dict(
        Member.objects.filter(club=member.club_id, user__in=user_ids).values_list(
            "user", "table_name"
        )
    )
    coordinators = set(
        Coordinator.objects.filter(club=member.club_id, user__in=user_ids).values_list(
            "user", flat=True
        )
    )
    names = {}
    for pk, user in users.items():
        name = table_names.get(pk) or user.get_username()
        if pk in coordinators:
            part = "coordinator"
        elif pk == member.user_id:
            part = "the member"
        elif user.is_superuser:
            part = "site operator"
        else:
            part = "a member"
        names[pk] = f"{name} ({part})"
    return names


def changes(member: Member) -> list[Change]:
    """The member's changes, newest first: added, which details changed, deleted."""
    records = list(member.history.order_by("-history_date", "-history_id")[: SHOWN + 1])[::-1]
    user_ids = {r.history_user_id for r in records if r.history_user_id is not None}
    who = _who(member, user_ids)
    found = []
    for index, record in enumerate(records):
        if index == 0 and len(records) > SHOWN:
            continue  # only there to compare the oldest shown with
        if record.history_type == "+":
            what = "added to the club"
        elif record.history_type == "-":
            what = "deleted"
        elif index == 0:
            what = "details changed"
        else:
            delta = record.diff_against(records[index - 1])
            fields = sorted(delta.changed_fields, key=ORDER.index)
            names = [_label(name) for name in fields if name not in NOT_SHOWN]
            if not names:
                continue  # saved as it was
            what = f"{_in_words(names)} changed"
        if record.history_user_id is None:
            by = "the app (an import or a command)"
        else:
            by = who.get(record.history_user_id, "a login no longer here")
        found.append(Change(when=record.history_date, who=by, what=what))
    return found[::-1]
