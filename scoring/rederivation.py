"""The kong chips' re-derivation, shared by the table's writes (scoring/recording.py: an
undo, a hand entered again) and corrections (scoring/corrections.py): who pays a kong chip
follows the outcomes of the hands before it. Its own module so that neither of the two
imports the other for it."""

from __future__ import annotations

from club.refusals import Refused
from games.models import Match
from scoring import table_rules
from scoring.models import PAY_FIELDS, KongChips


class HandRefused(Refused):
    """Hand `number` cannot stand as recorded: `reason` is one sentence for the scorer."""

    def __init__(self, number: int, reason: str):
        super().__init__(f"Hand {number}: {reason}")
        self.number = number
        self.reason = reason


def _kong_snapshot(kong: KongChips) -> dict:
    return {
        "hand": kong.hand_number,
        "chair": kong.chair,
        "kind": kong.kind,
        "payments": kong.payments,
    }


def rederive_kongs(match: Match, states, *, gap: int | None = None, kongs=None) -> list[dict]:
    """Give every live kong chip of `match` the payers its hand's state now says (the
    dealer and who sits out follow the outcomes before it), saving what changed: the one
    derivation for a correction and for the table's own undo and re-entry. `states` are the
    flow's states (before each hand, and the hand being played). `gap` is the number of a
    hand just voided: later kong chips move up with their hands. Kong chips recorded in a
    hand after the one being played wait as they are: they were made in the hand that was
    being played when the hand before it was undone, and are derived again once it is
    entered again. `kongs` are the live kong chips if already read. Returns what changed;
    raises HandRefused naming a kong that cannot stand."""
    if kongs is None:
        kongs = list(match.kong_chips.filter(voided_at__isnull=True).order_by("hand_number", "pk"))
    names = match.player_names() if kongs else []
    changes = []
    last = len(states)  # the hand being played now, if the match is open
    for kong in kongs:
        number = kong.hand_number
        if gap is not None and number > gap:
            number -= 1  # the hands after a voided one move up a place
        state = states[number - 1] if number <= last else None
        if state is None and not states[-1].over:
            continue  # after the hand being played: waits for the hands before it
        if state is None or state.over:
            raise HandRefused(
                number,
                f"{names[kong.chair]}'s kong chips were recorded in it, but the match is "
                "now over before it.",
            )
        if state.winds[kong.chair] is None:
            raise HandRefused(
                number,
                f"{names[kong.chair]} sits out hand {number} now, so cannot have made the "
                "kong recorded in it.",
            )
        try:
            payments = table_rules.kong_payments(match, state, kong.chair, kong.kind)
        except table_rules.TotalRefused as error:
            raise HandRefused(number, str(error)) from error
        if number != kong.hand_number or list(payments) != kong.payments[: len(payments)]:
            was = _kong_snapshot(kong)
            kong.hand_number, kong.payments = number, payments
            kong.save(update_fields=["hand_number", *PAY_FIELDS])
            changes.append({"kong": True, "was": was, "now": _kong_snapshot(kong)})
    return changes
