"""What the scoresheet and the Changes page show: every hand of a match in order with its
dealer, result, payments and running tallies, each hand's earlier versions, and a session's
corrections in words. Reads only, in a fixed number of queries whatever the hands."""

from __future__ import annotations

from dataclasses import dataclass, field

from games.flow import WIND_WORDS
from games.models import Match
from scoring import table_rules
from scoring.models import Correction, Hand, KongChips
from scoring.recording import KONG_TAKEN_BACK, UNDONE_REASON
from scoring.selectors import describe_hand, kong_words


@dataclass
class Version:
    """One correction of a hand, in words."""

    correction: Correction
    before: str
    after: str  # "voided" when the hand was struck out

    @property
    def who(self) -> str:
        user = self.correction.made_by
        return user.get_username() if user else "someone"


@dataclass
class KongLine:
    text: str
    payments: list[int]


@dataclass
class TakenBack:
    """A hand undone, or kong chips taken back, at the table: struck out, kept for the
    record with when and (for a tablet without a login) which table's tablet did it."""

    text: str
    record: Hand | KongChips

    @property
    def verb(self) -> str:
        return "Undone" if isinstance(self.record, Hand) else "Taken back"

    @property
    def at(self):
        return self.record.voided_at

    @property
    def tablet(self) -> str:
        return self.record.voided_tablet_words


@dataclass
class SheetRow:
    hand: Hand
    dealer: str
    text: str
    payments: list[int]
    tallies: list[int]  # after this hand (and its kong chips)
    kongs: list[KongLine] = field(default_factory=list)
    versions: list[Version] = field(default_factory=list)
    breakdown: list = field(default_factory=list)

    @property
    def number(self) -> int:
        return self.hand.number

    @property
    def cells(self) -> list[tuple[int, int]]:
        """Each chair's payment and tally after the hand."""
        return list(zip(self.payments, self.tallies, strict=True))


@dataclass
class SheetRound:
    wind: str
    rows: list[SheetRow]

    @property
    def word(self) -> str:
        return WIND_WORDS.get(self.wind, self.wind)


@dataclass
class Scoresheet:
    match: Match
    names: list[str]
    unit: str
    rules_title: str
    starting: list[int]
    rounds: list[SheetRound]
    tallies: list[int]
    voided: list[Version]  # hands struck out altogether
    pending_kongs: list[KongLine]  # kong chips of the hand being played
    taken_back: list[TakenBack] = field(default_factory=list)  # undone at the table, oldest first

    @property
    def width(self) -> int:
        """Columns across the sheet: hand, dealer, result, then paid and tally per player."""
        return 3 + 2 * len(self.names)

    @property
    def columns(self) -> list[tuple[str, int]]:
        return list(zip(self.names, self.tallies, strict=True))


def snapshot_words(snapshot: dict | None, names: list[str], unit: str) -> str:
    """A stored hand snapshot (see scoring.corrections) in words."""
    if snapshot is None:
        return "voided"
    hand = Hand(
        winner=snapshot["winner"],
        won_by=snapshot["won_by"],
        discarder=snapshot["discarder"],
        liable=snapshot.get("liable"),  # snapshots from before the 9-piece penalty lack it
        total=snapshot["total"],
    )
    text = describe_hand(hand, names, unit)
    return text + (" (goulash hand)" if snapshot.get("goulash") else "")


def _version(correction: Correction, names, unit) -> Version:
    return Version(
        correction=correction,
        before=snapshot_words(correction.before, names, unit),
        after=snapshot_words(correction.after, names, unit),
    )


def scoresheet(match: Match) -> Scoresheet:
    names = match.player_names()
    count = len(names)
    ruleset = table_rules.match_ruleset(match)
    unit = table_rules.unit(ruleset)
    hands = list(match.live_hands().select_related("recorded_with"))
    states = match.replay(hands)
    every_kong = list(match.kong_chips.select_related("voided_with").order_by("hand_number", "pk"))
    kongs = [kong for kong in every_kong if not kong.is_voided]
    undone = match.hands.filter(void_reason=UNDONE_REASON).select_related("voided_with")
    taken_back = sorted(
        [TakenBack(f"Hand {h.number}: {describe_hand(h, names, unit)}", h) for h in undone]
        + [
            TakenBack(f"Hand {k.hand_number}: {kong_words(k, names)}", k)
            for k in every_kong
            if k.void_reason == KONG_TAKEN_BACK
        ],
        key=lambda line: (line.at, line.record.pk),
    )
    corrections = list(match.corrections.select_related("made_by").order_by("made_at", "pk"))
    by_replacement = {c.replacement_id: c for c in corrections if c.replacement_id}
    kongs_by_hand: dict[int, list] = {}
    for kong in kongs:
        kongs_by_hand.setdefault(kong.hand_number, []).append(kong)

    running = [match.starting_tally] * count
    rounds: list[SheetRound] = []
    for hand in hands:
        state = states[hand.number - 1]
        kong_lines = []
        for kong in kongs_by_hand.pop(hand.number, []):
            running = [t + p for t, p in zip(running, kong.payments, strict=False)]
            kong_lines.append(KongLine(kong_words(kong, names), kong.payments[:count]))
        running = [t + p for t, p in zip(running, hand.payments, strict=False)]
        versions = []
        earlier = by_replacement.get(hand.pk)
        while earlier is not None:
            versions.append(_version(earlier, names, unit))
            earlier = by_replacement.get(earlier.original_id)
        text = describe_hand(hand, names, unit) + (" (goulash hand)" if hand.goulash else "")
        row = SheetRow(
            hand=hand,
            dealer=names[state.dealer],
            text=text,
            payments=hand.payments[:count],
            tallies=list(running),
            kongs=kong_lines,
            versions=list(reversed(versions)),
            breakdown=list(getattr(hand, "breakdown", None) or []),
        )
        if not rounds or rounds[-1].wind != state.round:
            rounds.append(SheetRound(wind=state.round, rows=[]))
        rounds[-1].rows.append(row)
    pending = [
        KongLine(kong_words(kong, names), kong.payments[:count])
        for kong in kongs_by_hand.get(states[-1].hand, [])
    ]
    return Scoresheet(
        match=match,
        names=names,
        unit=unit,
        rules_title=ruleset.title,
        starting=[match.starting_tally] * count,
        rounds=rounds,
        tallies=match.tallies(hands + kongs),
        voided=[_version(c, names, unit) for c in corrections if c.kind == Correction.Kind.VOIDED],
        pending_kongs=pending,
        taken_back=taken_back,
    )


@dataclass
class ChangeLine:
    version: Version
    table: int
    knock_on: list[str]
    tallies: list[tuple[str, int, int]]  # name, before, after


def _knock_on_words(entry: dict, names, unit) -> str:
    was, now = entry["was"], entry["now"]
    if entry.get("kong"):
        return (
            f"Kong chips of {names[was['chair']]} (hand {was['hand']}"
            f"{'' if was['hand'] == now['hand'] else ', now hand ' + str(now['hand'])}) "
            "paid again with the new dealer"
        )
    moved = "" if was["number"] == now["number"] else f", now hand {now['number']}"
    parts = []
    if was["goulash"] != now["goulash"]:
        parts.append("now a goulash hand" if now["goulash"] else "no longer a goulash hand")
    if was["payments"] != now["payments"]:
        parts.append("payments worked out again for the new dealer")
    what = "; ".join(parts) or "moved up"
    return f"Hand {was['number']}{moved}: {what}"


def session_changes(session) -> list[ChangeLine]:
    """Every correction of the session's hands, oldest first, in words."""
    corrections = (
        Correction.objects.of_session(session)
        .select_related("made_by", "match", "original__recorded_with")
        .order_by("made_at", "pk")
    )
    names_of: dict[int, tuple[list[str], str]] = {}
    lines = []
    for correction in corrections:
        match = correction.match
        if match.pk not in names_of:
            names = match.player_names()
            names_of[match.pk] = (names, table_rules.unit(table_rules.match_ruleset(match)))
        names, unit = names_of[match.pk]
        lines.append(
            ChangeLine(
                version=_version(correction, names, unit),
                table=match.table_number,
                knock_on=[_knock_on_words(e, names, unit) for e in correction.knock_on],
                tallies=[
                    (name, before, after)
                    for name, before, after in zip(
                        names, correction.tallies_before, correction.tallies_after, strict=False
                    )
                ],
            )
        )
    return lines
