"""Starting play from the published seating, and keeping matches in step with it.

These writes span the club's seating and the games' matches, so they are functions, each
one transaction.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from club.models import Club, SeatingPlan, Session
from club.refusals import Refused
from games.models import Chair, Match

# A match needs a table of three to five (games.flow).
MIN_PLAYERS, MAX_PLAYERS = 3, 5

# Seat winds in chair order: chair 0 deals first (East), then counter-clockwise; the
# Dreamer of a table of five takes the last chair.
CHAIR_ORDER = "ESWND"


class CannotStart(Refused):
    """Play cannot start; the message is one sentence for the page."""


def _rules_snapshot(club: Club) -> dict:
    return {
        "rules": club.rule_set,
        "rule_options": dict(club.rule_options or {}),
        "rule_values": dict(club.rule_values or {}),
        "starting_tally": club.effective_starting_tally,
    }


def _tables(plan: SeatingPlan) -> dict[int, list[int]]:
    """Each table's members in chair order."""
    tables: dict[int, list[tuple[int, int]]] = {}
    for number, wind, member_id in plan.seats.values_list("table__number", "wind", "member_id"):
        tables.setdefault(number, []).append((CHAIR_ORDER.index(wind), member_id))
    return {number: [m for _, m in sorted(chairs)] for number, chairs in tables.items()}


def _open_match(session: Session, number: int, members: list[int], snapshot: dict) -> Match:
    match = Match.objects.create(session=session, table_number=number, **snapshot)
    Chair.objects.bulk_create(
        Chair(match=match, number=chair, member_id=member) for chair, member in enumerate(members)
    )
    return match


@transaction.atomic
def start_play(session: Session) -> list[Match]:
    """One match per table of the published seating, everyone in their chair; the session
    moves to "in play". Pressing it again (a double tap, a second device, or after some
    tables finished) changes nothing: a table that has its match, finished or not, keeps it."""
    session = Session.objects.select_for_update().select_related("club").get(pk=session.pk)
    session.ensure_open("play")
    plan = SeatingPlan.objects.filter(session=session).first()
    if plan is None or plan.status != SeatingPlan.Status.PUBLISHED:
        raise CannotStart("Publish the seating first: play starts from the published tables.")
    latest = _latest_matches(session)
    snapshot = _rules_snapshot(session.club)
    started = [
        _open_match(session, number, members, snapshot)
        for number, members in sorted(_tables(plan).items())
        if _needs_new_match(latest.get(number), members)
    ]
    if session.status == Session.Status.PLANNED:
        session.status = Session.Status.IN_PLAY
        session.save(update_fields=["status"])
    return started


def _latest_matches(session: Session) -> dict[int, Match]:
    """Each table's latest match this evening (in play or finished), chairs loaded. Read
    after locking the rows the caller will change: a write that reopens a finished match
    holds the session's row first (`evening_goes_on`), so finished ones need no lock here,
    and locking them would deadlock with such a write."""
    matches = session.matches.prefetch_related("chairs").order_by("pk")
    return {match.table_number: match for match in matches}


def _members(match: Match) -> list[int]:
    return [chair.member_id for chair in sorted(match.chairs.all(), key=_by_number)]


def _needs_new_match(latest: Match | None, members: list[int]) -> bool:
    """Whether a table seating `members` needs a new match. Only a table whose players
    changed does: a table that played to the end (or was ended) with the same people
    keeps its finished match, so its page, hands and tallies stay as they were."""
    if not MIN_PLAYERS <= len(members) <= MAX_PLAYERS:
        return False  # a table left with two waits for the coordinator's choice
    if latest is None:
        return True
    if latest.is_in_play:
        return False
    return latest.ending == Match.Ending.TABLE_CHANGED or _members(latest) != members


def evening_goes_on(match: Match) -> bool:
    """Whether the match's session is in play, holding its row for the rest of the
    transaction. A write that opens a finished match again asks this first: "End the
    evening" locks the session before the open matches, so the two queue up and a match
    never stays open in a closed session."""
    session = Session.objects.select_for_update().only("status").get(pk=match.session_id)
    return session.status == Session.Status.IN_PLAY


def finish(match: Match, ending: str) -> None:
    """Mark a match finished (the caller holds the transaction and the match's row)."""
    match.status = Match.Status.FINISHED
    match.ending = ending
    match.finished_at = timezone.now()
    match.save_and_bump_version("status", "ending", "finished_at")


def follow_seating(session: Session) -> None:
    """After a late arrival or an early leaver changed tables during play: each table
    whose players changed ends its match (the hands played stay with those who played
    them) and starts a new one with the people now seated there. Every other table keeps
    its match as it is, in play or finished. Runs inside the seating change's transaction."""
    session = Session.objects.select_related("club").get(pk=session.pk)
    if session.status != Session.Status.IN_PLAY:
        return
    plan = SeatingPlan.objects.filter(session=session).first()
    if plan is None or plan.status != SeatingPlan.Status.PUBLISHED:
        return
    tables = _tables(plan)
    list(session.matches.in_play().select_for_update())  # hands saved meanwhile queue up
    latest = _latest_matches(session)
    for number, match in latest.items():
        if match.is_in_play and tables.get(number) != _members(match):
            finish(match, Match.Ending.TABLE_CHANGED)
    snapshot = None
    for number, members in sorted(tables.items()):
        if _needs_new_match(latest.get(number), members):
            snapshot = snapshot or _rules_snapshot(session.club)
            _open_match(session, number, members, snapshot)


def _by_number(chair: Chair) -> int:
    return chair.number


@transaction.atomic
def end_play(session: Session, ending: str = Match.Ending.CLOSED) -> int:
    """End every match still in play (the hall closes). Returns how many were ended."""
    matches = list(session.matches.in_play().select_for_update())
    for match in matches:
        finish(match, ending)
    return len(matches)


@transaction.atomic
def end_evening(session: Session) -> int:
    """The coordinator ends the evening: every match still in play ends where it stands
    and the session is closed, together. Returns how many matches were ended."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    ended = end_play(session, Match.Ending.CLOSED)
    if session.status != Session.Status.CLOSED:
        session.status = Session.Status.CLOSED
        session.save(update_fields=["status"])
    return ended


def reopen_play(session: Session) -> int:
    """The closed evening is reopened: every table whose match "End the evening" ended
    (and nothing else) carries on where it stood, so a hand that arrived too late can be
    added. Matches that played to the end, or ended when their table changed, stay as
    they are. Runs inside the reopening's transaction; returns how many tables carry on."""
    reopened = 0
    list(session.matches.filter(ending=Match.Ending.CLOSED).select_for_update())
    for match in _latest_matches(session).values():
        if match.is_in_play or match.ending != Match.Ending.CLOSED:
            continue
        if match.replay()[-1].over:
            continue  # corrected to its end meanwhile: nothing more to play
        match.status, match.ending, match.finished_at = Match.Status.IN_PLAY, "", None
        match.save_and_bump_version("status", "ending", "finished_at")
        reopened += 1
    return reopened
