"""Everything the club holds about one member, for them to download ("My data"): their
details and login, the evenings they came to, where they sat, every hand they played or
recorded, their answers to "are you coming?", their results and the corrections of their
hands.

The rows are made by the club backup's own serializer (front/backup/), so the file reads
as a backup does (model, pk, fields), filtered to the one member. What it leaves out, and
why: other members. A hand's row keeps the chairs' payments (a hand needs them to add up)
but no other player's name or id: the member's own chair says which column is theirs. A
login named on a row (who recorded a hand or made a correction) is written only when it is
the member's own; anyone else's is written empty. The "never seat with" pairs are left out,
as each names another member. Password hashes are never in it.

The CSV is the same rows set out for reading in a spreadsheet, a section a kind.
"""

from __future__ import annotations

import datetime
import io

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from club import csv_export
from club.models import Member
from club.scoping import scope
from front.backup.export import _RowSerializer, _snapshot
from front.backup.format import CHUNK, _dumps

FORMAT = "mahjong-club-member-data"
VERSION = 1
# The login's fields a member gets (never the password hash, nor the admin flags).
LOGIN_FIELDS = ("username", "email", "first_name", "last_name", "last_login", "date_joined")
# The table keys a tablet recorded with are the club's devices, not the member's.
RECORD_FIELDS = ("recorded_with", "voided_with")


def _fields(label: str) -> tuple[str, ...] | None:
    """The fields written for `label` (None: all of them)."""
    if label == "auth.user":
        return LOGIN_FIELDS
    if label == "club.club":
        return ("name", "slug")
    if label == "club.session":
        return ("date", "venue", "status")
    if label in ("scoring.hand", "scoring.kongchips"):
        model = apps.get_model(label)
        return tuple(
            field.name
            for field in model._meta.local_fields
            if not field.primary_key and field.name not in RECORD_FIELDS
        )
    return None


def _querysets(member: Member) -> list[tuple[str, object]]:
    """Each model's rows about `member` (in the club's scope), in the backup's order."""
    model = apps.get_model
    user_id = member.user_id
    matches = model("games.match").objects.filter(chairs__member=member).values("pk")
    attended = model("club.attendance").objects.filter(member=member)
    replies = model("club.sessionreply").objects.filter(member=member)
    hands = Q(match__in=matches)
    corrections = Q(match__in=matches)
    if user_id is not None:  # what they recorded or corrected at other tables too
        hands |= Q(recorded_by=user_id) | Q(voided_by=user_id)
        corrections |= Q(made_by=user_id)
    sessions = model("club.session").objects.filter(
        Q(pk__in=attended.values("session"))
        | Q(pk__in=matches.values("session"))
        | Q(pk__in=replies.values("session"))
    )
    logins = get_user_model().objects.filter(pk=user_id or 0)
    return [
        ("auth.user", logins),
        ("club.club", model("club.club").objects.filter(pk=member.club_id)),
        ("club.member", model("club.member").objects.filter(pk=member.pk)),
        ("club.coordinator", model("club.coordinator").objects.filter(user=user_id or 0)),
        ("club.session", sessions),
        ("club.attendance", attended),
        ("club.sessionreply", replies),
        ("club.awayperiod", model("club.awayperiod").objects.filter(member=member)),
        ("club.seat", model("club.seat").objects.filter(member=member)),
        ("games.match", model("games.match").objects.filter(pk__in=matches)),
        ("games.chair", model("games.chair").objects.filter(member=member)),
        ("scoring.hand", model("scoring.hand").objects.filter(hands)),
        ("scoring.kongchips", model("scoring.kongchips").objects.filter(match__in=matches)),
        ("scoring.correction", model("scoring.correction").objects.filter(corrections)),
        ("scoring.matchresult", model("scoring.matchresult").objects.filter(member=member)),
    ]


def member_rows(member: Member) -> list[dict]:
    """The rows the club holds about `member`, as the backup writes rows."""
    rows: list[dict] = []
    with scope(club=member.club), _snapshot():
        logins = get_user_model().objects.filter(pk=member.user_id or 0)
        serializer = _RowSerializer(rows.append, logins)
        for label, queryset in _querysets(member):
            serializer.serialize(
                queryset.distinct().order_by("pk").iterator(chunk_size=CHUNK),
                use_natural_foreign_keys=True,
                fields=_fields(label),
            )
    return rows


def as_json(member: Member, rows: list[dict]) -> str:
    head = {
        "format": FORMAT,
        "version": VERSION,
        "club": member.club.slug,
        "member": member.name,
        "exported_at": timezone.now().isoformat(),
    }
    return _dumps(head)[:-1] + ',"data":[\n' + ",\n".join(_dumps(row) for row in rows) + "\n]}\n"


def _by_model(rows: list[dict]) -> dict[str, list[dict]]:
    grouped: dict[str, list[dict]] = {}
    for row in rows:
        grouped.setdefault(row["model"], []).append(row)
    return grouped


def _day(value) -> str:
    """A stored date or time as a spreadsheet reads it: "2026-03-05" or "2026-03-05 19:30"."""
    if not value:
        return ""
    text = str(value)
    if "T" not in text:
        return text
    moment = datetime.datetime.fromisoformat(text)
    return timezone.localtime(moment).strftime("%Y-%m-%d %H:%M")


def as_csv(member: Member, rows: list[dict]) -> str:
    """The same rows, set out for reading: a heading line, then a section a kind."""
    grouped = _by_model(rows)
    out = io.StringIO()
    write = csv_export.writer(out).writerow
    write(
        [
            f"Everything {member.club.name} holds about {member.name}",
            _day(timezone.now().isoformat()),
        ]
    )
    write([])
    write(["Your details"])
    for row in grouped.get("club.member", []):
        for name, value in row["fields"].items():
            if name != "club":
                write([name.replace("_", " "), "" if value is None else value])
    for row in grouped.get("auth.user", []):
        for name, value in row["fields"].items():
            shown = _day(value) if name in ("last_login", "date_joined") else value
            write([f"login {name.replace('_', ' ')}", "" if shown is None else shown])
    sessions = {row["pk"]: row["fields"] for row in grouped.get("club.session", [])}
    write([])
    write(["Evenings you came to"])
    write(["Date", "Venue", "Arrived", "Left", "Paid table money"])
    for row in grouped.get("club.attendance", []):
        fields = row["fields"]
        session = sessions.get(fields["session"], {})
        write(
            [
                session.get("date", ""),
                session.get("venue", ""),
                _day(fields["arrived_at"]),
                _day(fields["left_at"]),
                "yes" if fields["paid"] else "no",
            ]
        )
    write([])
    write(["Your answers: coming or not this week"])
    write(["Date", "Venue", "Answer", "Note", "Answered"])
    for row in grouped.get("club.sessionreply", []):
        fields = row["fields"]
        session = sessions.get(fields["session"], {})
        answer = "coming" if fields["answer"] == "coming" else "not this week"
        write(
            [
                session.get("date", ""),
                session.get("venue", ""),
                answer,
                fields["note"],
                _day(fields["updated_at"]),
            ]
        )
    write([])
    write(["Your times away"])
    write(["From", "To"])
    for row in grouped.get("club.awayperiod", []):
        write([row["fields"]["first"], row["fields"]["last"]])
    matches = {row["pk"]: row["fields"] for row in grouped.get("games.match", [])}
    my_chair = {
        row["fields"]["match"]: row["fields"]["number"] for row in grouped.get("games.chair", [])
    }
    write([])
    write(["Hands"])
    write(
        [
            "Date",
            "Table",
            "Hand",
            "Your chair",
            "Winner's chair",
            "Won by",
            "Total",
            "Your payment",
            "Recorded by you",
            "Voided",
        ]
    )
    for row in grouped.get("scoring.hand", []):
        fields = row["fields"]
        match = matches.get(fields["match"], {})
        chair = my_chair.get(fields["match"])
        winner = fields["winner"]
        write(
            [
                sessions.get(match.get("session"), {}).get(
                    "date", _day(fields["recorded_at"])[:10]
                ),
                match.get("table_number", ""),
                fields["number"],
                "" if chair is None else chair + 1,
                "draw" if winner is None else winner + 1,
                fields["won_by"],
                "" if fields["total"] is None else fields["total"],
                "" if chair is None else fields[f"pay{chair}"],
                "yes" if fields["recorded_by"] else "no",
                "yes" if fields["voided_at"] else "no",
            ]
        )
    write([])
    write(["Results"])
    write(["Date", "Table", "Result", "Place", "Hands played", "Hands won"])
    for row in grouped.get("scoring.matchresult", []):
        fields = row["fields"]
        match = matches.get(fields["match"], {})
        write(
            [
                sessions.get(fields["session"], {}).get("date", ""),
                match.get("table_number", ""),
                fields["result"],
                fields["place"],
                fields["hands_played"],
                fields["hands_won"],
            ]
        )
    write([])
    write(["Corrections of your hands"])
    write(["When", "Hand", "What", "Reason", "Made by you"])
    for row in grouped.get("scoring.correction", []):
        fields = row["fields"]
        write(
            [
                _day(fields["made_at"]),
                fields["hand_number"],
                fields["kind"],
                fields["reason"],
                "yes" if fields["made_by"] else "no",
            ]
        )
    return out.getvalue()


def filename(member: Member, kind: str) -> str:
    day = timezone.localdate().isoformat()
    return f"my-data-{member.club.slug}-{day}.{kind}"
