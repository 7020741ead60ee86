"""Keeping each chair's `MatchResult` in step with the hands: the only writes of standings.

`refresh_match` runs inside the transaction that records, voids or undoes a hand
(scoring.recording calls it), so `MatchResult` never disagrees with the hands that count.
`rebuild_results` recomputes everything from the hands (the management command
`rebuild_standings`, and data loaded without the recording functions). Both keep the
club's records (scoring.kept_records) in step with the results they wrote."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from django.db import transaction

from games import flow
from games.models import Chair, Match
from scoring.kept_records import keep_records, rebuild_records
from scoring.models import Hand, KongChips
from scoring.results import MatchResult
from scoring.standings.placings import PLACES, placings
from scoring.table_rules import limit_total


def _limit(match: Match) -> int | None:
    return limit_total(match)


def _figures(
    match: Match, chairs: list[Chair], hands: list[Hand], kongs, states=None
) -> list[MatchResult]:
    """Each chair's row of the match, from its live hands and kong chips (and the flow's
    states over those hands, if already worked out). A match where nothing counts (no
    hand, no kong chips) has no rows, while the evening runs and after a rebuild alike: an
    empty match is no session played."""
    if not hands and not kongs:
        return []
    size = len(chairs)
    result = [0] * size
    played = [0] * size
    won = [0] * size
    best: list[Hand | None] = [None] * size
    streak = [0] * size
    run = [0] * size
    limits = [0] * size
    limit = _limit(match)
    sitting_out: list[int | None] = [None] * len(hands)
    if size == 5:  # the Dreamer sits out one hand in five: the flow says which
        try:
            states = match.replay(hands) if states is None else states
            sitting_out = [state.sitting_out for state in states[: len(hands)]]
        except flow.FlowError:
            pass
    for hand, out in zip(hands, sitting_out, strict=True):
        payments = hand.payments
        for chair in range(size):
            result[chair] += payments[chair]
            if chair == out:
                # A run is hands won one after another at the table: a hand sat out (which
                # someone else won, or was drawn) ends it, as the records page says.
                run[chair] = 0
                continue
            played[chair] += 1
            if hand.winner == chair:
                won[chair] += 1
                run[chair] += 1
                streak[chair] = max(streak[chair], run[chair])
                if limit is not None and hand.total >= limit:
                    limits[chair] += 1
                if best[chair] is None or hand.total > best[chair].total:
                    best[chair] = hand
            else:
                run[chair] = 0
    for kong in kongs:
        for chair, paid in enumerate(kong.payments[:size]):
            result[chair] += paid
    # No hands, no place: the places are shared among the players who played a hand here
    # (a Dreamer who sat out the only hand, a table with only kong chips, places nobody).
    placed = [c for c in range(size) if played[c]]
    places = dict(zip(placed, placings([result[c] for c in placed]), strict=True))
    unplaced = (0, False, [Fraction(0)] * PLACES)
    rows = []
    for chair in chairs:
        c = chair.number
        place, tied, shares = places.get(c, unplaced)
        rows.append(
            MatchResult(
                chair=chair,
                match=match,
                session_id=match.session_id,
                member_id=chair.member_id,
                result=result[c],
                hands_played=played[c],
                match_hands=len(hands),
                hands_won=won[c],
                best_total=best[c].total if best[c] else None,
                best_hand=best[c],
                longest_streak=streak[c],
                limit=limit,
                rules=match.rules,
                limit_hands=limits[c],
                table_size=len(placed),  # the players placed: "2nd of 4"
                place=place,
                tied=tied,
                first=float(shares[0]),
                second=float(shares[1]),
                third=float(shares[2]),
                fourth=float(shares[3]),
            )
        )
    return rows


_FIELDS = [
    "result",
    "hands_played",
    "match_hands",
    "hands_won",
    "best_total",
    "best_hand",
    "longest_streak",
    "limit",
    "limit_hands",
    "rules",
    "table_size",
    "place",
    "tied",
    "first",
    "second",
    "third",
    "fourth",
]


def _save_rows(match: Match, chairs: list[Chair], rows: list[MatchResult]) -> None:
    """Write the match's rows, only the fields and rows that changed, and each member's
    weight for the evening (see _reweigh), from one read of their rows that evening."""
    members = [chair.member_id for chair in chairs]
    evening = list(MatchResult.objects.filter(session_id=match.session_id, member_id__in=members))
    existing = {row.chair_id: row for row in evening if row.match_id == match.pk}
    # A chair with no row now (every hand undone or voided) loses the one it had.
    kept = {row.chair_id for row in rows}
    gone = [row.pk for chair_id, row in existing.items() if chair_id not in kept]
    if gone:
        MatchResult.objects.filter(pk__in=gone).delete()
    others = [row for row in evening if row.match_id != match.pk]
    _weigh([*others, *rows])
    new, changed, fields = [], [], set()
    for row in rows:
        old = existing.get(row.chair_id)
        if old is None:
            new.append(row)
            continue
        row.pk = old.pk
        differ = {name for name in _UPDATED if getattr(row, name) != getattr(old, name)}
        if differ:
            changed.append(row)
            fields |= differ
    MatchResult.objects.bulk_create(new, batch_size=500)
    if changed:
        MatchResult.objects.bulk_update(changed, sorted(fields), batch_size=500)
    reweighed = [row for row in others if row.weight != row.stored_weight]
    MatchResult.objects.bulk_update(reweighed, ["weight"], batch_size=500)
    keep_records(match.club_id, list(existing.values()), rows)


# The columns of a row (attnames: best_hand_id, not the hand) that a refresh may change.
_UPDATED = [MatchResult._meta.get_field(name).attname for name in [*_FIELDS, "weight"]]


def _weigh(rows: list[MatchResult]) -> None:
    """Set each row's weight (see _reweigh) from all of its member's rows that evening;
    `stored_weight` keeps what it was."""
    hands = defaultdict(int)
    for row in rows:
        row.stored_weight = row.weight
        hands[row.session_id, row.member_id, row.rules] += row.hands_played
    for row in rows:
        key = row.session_id, row.member_id, row.rules
        row.weight = row.hands_played / hands[key] if hands[key] else 0.0


def _reweigh(session_ids, member_ids=None) -> None:
    """Each member's placing counts once per evening (and rule set): when their table
    changed during the evening, each match weighs by the share of their hands played in it."""
    rows = MatchResult.objects.filter(session_id__in=session_ids)
    if member_ids is not None:
        rows = rows.filter(member_id__in=member_ids)
    rows = list(rows.only("pk", "session_id", "member_id", "rules", "hands_played", "weight"))
    hands = defaultdict(int)
    # Per rule set: standings are kept per rule set, so an evening whose tables played
    # under two (a table started again after the club changed its rules) counts once in
    # each rule set's standings.
    for row in rows:
        hands[row.session_id, row.member_id, row.rules] += row.hands_played
    changed = []
    for row in rows:
        key = row.session_id, row.member_id, row.rules
        # No hands that evening, no place: nothing to weigh.
        weight = row.hands_played / hands[key] if hands[key] else 0.0
        if row.weight != weight:
            row.weight = weight
            changed.append(row)
    MatchResult.objects.bulk_update(changed, ["weight"], batch_size=500)


def refresh_match(match: Match, *, hands=None, kongs=None, states=None) -> None:
    """Recompute the match's rows from its live hands and kong chips. Call it inside the
    transaction that changed them; a write that has just read them (and replayed the
    match's flow over the hands: `states`) passes them in. Called outside one (a command,
    a test's set-up), it is a transaction of its own: the rows and the kept records are
    rewritten together, under the club's lock (`keep_records`)."""
    chairs = match.chair_list()  # a match's chairs never change
    if hands is None:
        hands = list(match.hands.live().order_by("number"))
    if kongs is None:
        kongs = list(match.kong_chips.filter(voided_at__isnull=True))
    # No savepoint inside the write's transaction: a save's queries stay as they were.
    with transaction.atomic(savepoint=False):
        _save_rows(match, chairs, _figures(match, chairs, hands, kongs, states))


@transaction.atomic
def rebuild_results(matches=None) -> int:
    """Recompute the rows of `matches` (all matches by default) from their hands, in bulk.
    Returns how many matches were done."""
    matches = list((matches if matches is not None else Match.objects.all()).order_by("pk"))
    ids = [m.pk for m in matches]
    chairs, hands, kongs = defaultdict(list), defaultdict(list), defaultdict(list)
    for start in range(0, len(ids), 500):
        batch = ids[start : start + 500]
        for chair in Chair.objects.filter(match_id__in=batch).order_by("number"):
            chairs[chair.match_id].append(chair)
        for hand in Hand.objects.live().filter(match_id__in=batch).order_by("number"):
            hands[hand.match_id].append(hand)
        for kong in KongChips.objects.filter(match_id__in=batch, voided_at__isnull=True):
            kongs[kong.match_id].append(kong)
    rows = []
    for match in matches:
        match._chairs = chairs[match.pk]
        match._chair_count = len(chairs[match.pk])
        rows += _figures(match, chairs[match.pk], hands[match.pk], kongs[match.pk])
    MatchResult.objects.filter(match_id__in=ids).delete()
    MatchResult.objects.bulk_create(rows, batch_size=500)
    _reweigh({m.session_id for m in matches})
    rebuild_records({m.club_id for m in matches})
    return len(matches)
