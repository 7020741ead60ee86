"""The backup file's format: its name and version, the tables it holds and in what
order, the limits a file must keep to, and the one refusal (`BackupRefused`)."""

from __future__ import annotations

import datetime
import json
import uuid

from django.apps import apps
from django.core.serializers.json import DjangoJSONEncoder

from club.refusals import Refused
from games.models import new_code

FORMAT = "mahjong-club-backup"
VERSION = 2
# Version 1: a whole single-club installation, before clubs had coordinators of their own.
READS = (1, 2)
OLD_COORDINATORS_GROUP = "Coordinators"

# Every table of the club's history, each after the tables it points to, so the rows load
# in this order. Groups go by name (a new database may number them differently).
MODELS = (
    "auth.group",
    "auth.user",
    "club.club",
    "club.member",
    "club.erasure",
    "club.coordinator",
    "club.keepapart",
    "club.session",
    "club.attendance",
    "club.sessionreply",
    "club.awayperiod",
    "club.seatingplan",
    "club.seatingtable",
    "club.seat",
    "games.match",
    "games.chair",
    # Hands and kong chips name the table key they were recorded with (the audit trail).
    "games.tablekey",
    "scoring.hand",
    "scoring.kongchips",
    "scoring.correction",
)
# Not in it: the members' history of changes (club/member_history.py). A backup is the club
# as it is now; the history names logins of this installation and details since changed.
# Nor the members' calendar addresses (club/calendar_feed/): secrets of this installation.
NAMED_BY_NATURAL_KEY = {"auth.group"}
# The fields that name a row's rule set, its options and its table values.
RULE_FIELDS = {
    "club.club": ("rule_set", "rule_options", "rule_values"),
    "games.match": ("rules", "rule_options", "rule_values"),
}


# Fields newer than backups the previous releases wrote, each with the field of the same row
# whose value a row from such a file takes for it: a session's last change is, at the
# latest, when it was made (tests/test_old_release_backup.py restores such a file).
FILLED_FROM = {("club.session", "updated"): "created"}


def made_for_here(label: str, columns: dict) -> None:
    """What a row brought in from a file must not keep as it was:
    - a table key's code opens its table on whichever installation holds it: it gets a new
      code, so a card printed for the other copy opens nothing here (codes are unique
      across clubs; the coordinator prints the table's card again);
    - a seating draft's one-step undo names members by their ids in the other copy, which
      are not theirs here: it is dropped (the draft itself comes, as it was)."""
    for (model, name), source in FILLED_FROM.items():
        if model == label and name not in columns and source in columns:
            columns[name] = columns[source]
    if label == "games.tablekey":
        columns["code"] = new_code()
    elif label == "club.member" and not columns.get("uid"):  # a file from before members had one
        columns["uid"] = uuid.uuid4()
    elif label == "club.seatingplan":
        columns["undo"] = None


# Rows read from the database at a time, and inserted with one statement at most.
CHUNK = 2000
BATCH = 1000
# The longest line a backup holds is a hand with its tiles or a correction with what it
# changed: a few kilobytes. A longer line is not a backup's, and is not read into memory.
MAX_LINE = 4 * 1024 * 1024
_END = "]}"
# The deepest a backup's rows nest lists and objects (a correction's hand, with its tiles,
# is 5 levels): a file nested deeper is not a backup, and a value nested thousands deep
# would otherwise stop the reader with Python's recursion limit.
MAX_DEPTH = 32


class BackupRefused(Refused):
    """A backup that cannot be restored; str() says why, in plain words."""


class _Encoder(DjangoJSONEncoder):
    """Times to the microsecond: Django's encoder keeps milliseconds only, which would
    change every recorded time a little on each round trip."""

    def default(self, o):
        if isinstance(o, datetime.datetime | datetime.time):
            return o.isoformat()
        return super().default(o)


def _model(label: str):
    return apps.get_model(label)


def _dumps(value) -> str:
    return json.dumps(value, cls=_Encoder, ensure_ascii=False, separators=(",", ":"))


def _head(exported_at: str, club) -> str:
    head = {"format": FORMAT, "version": VERSION, "club": club.slug, "exported_at": exported_at}
    return _dumps(head)[:-1] + ',"data":['
