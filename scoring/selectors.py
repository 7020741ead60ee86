"""What a table's page and the session's progress panel show, read in a fixed number of
queries whatever the number of hands: the match, its chairs, its hands and kong chips, then
everything else (state, tallies, the list grouped by round) is worked out in Python."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch

from games.flow import WIND_WORDS
from games.models import Chair, Match
from scoring import table_rules
from scoring.models import Hand, KongChips
from scoring.recording import UNDONE_REASON


def table_match(session, number: int) -> Match | None:
    """The match the page for table `number` shows: the one in play, else the latest."""
    matches = Match.objects.filter(session=session, table_number=number).select_related("session")
    return matches.in_play().first() or matches.order_by("-started_at", "-pk").first()


@dataclass
class SeatCard:
    chair: int
    name: str
    wind: str | None  # None: sits out this hand (the Dreamer of a table of five)
    tally: int
    dealer: bool
    sits_out: bool
    is_you: bool = False

    @property
    def wind_word(self) -> str:
        return WIND_WORDS.get(self.wind or "", "")


def pay_words(names: list[str], payments, unit: str = "") -> list[str]:
    """Payments as sentences, receivers first: "Betty receives 48", "Carol pays 16"."""
    lines = []
    for name, amount in sorted(zip(names, payments, strict=False), key=lambda p: -p[1]):
        if amount > 0:
            lines.append(f"{name} receives {amount}")
        elif amount < 0:
            lines.append(f"{name} pays {-amount}")
    return lines or ["Nobody pays"]


@dataclass
class HandLine:
    number: int
    text: str
    payments: list[str]
    voided: bool
    goulash: bool
    kongs: list[str] = field(default_factory=list)
    corrected: str = ""  # why, when the hand was replaced or struck out by a correction
    # What made a hand worked out from its tiles ("Pure hand", ...); none for a total agreed.
    features: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class KongLine:
    """Kong chips saved in the hand being played, which the table can still take back."""

    id: int
    text: str


@dataclass
class RoundGroup:
    wind: str
    lines: list[HandLine]

    @property
    def word(self) -> str:
        return WIND_WORDS[self.wind]


# The table page lists this many of the latest hands; the earlier ones fold away.
RECENT_HANDS = 3


def split_rounds(rounds: list[RoundGroup], keep: int) -> tuple[list[RoundGroup], list[RoundGroup]]:
    """The last `keep` lines of `rounds`, and the lines before them, each still grouped by
    round (a round split between the two is in both, each with its own lines)."""
    recent: list[RoundGroup] = []
    older: list[RoundGroup] = []
    left = keep
    for group in reversed(rounds):
        shown = group.lines[max(len(group.lines) - left, 0) :] if left else []
        hidden = group.lines[: len(group.lines) - len(shown)]
        left -= len(shown)
        if shown:
            recent.insert(0, RoundGroup(group.wind, shown))
        if hidden:
            older.insert(0, RoundGroup(group.wind, hidden))
    return recent, older


# How a hand was won, and the kinds of kong chips, in the words of the table page; its
# outbox (static/js/outbox*.js) reads the same words from the page's JSON (table_flow).
WON_BY_WORDS = {
    Hand.WonBy.WALL: "self-drawn from the wall",
    Hand.WonBy.REPLACEMENT: "on a replacement tile",
    Hand.WonBy.DISCARD: "on {discarder} discard",
    Hand.WonBy.ROBBING_KONG: "robbing {discarder} kong",
}
KONG_WORDS = {
    "concealed": "a concealed kong",
    "discard": "a kong on a discard",
    "added": "a kong added to a pong",
}


def describe_hand(hand: Hand, names: list[str], unit: str) -> str:
    if hand.is_draw:
        return "Draw: the wall ran out, nobody went out"
    winner = names[hand.winner]
    discarder = "a" if hand.discarder is None else f"{names[hand.discarder]}'s"
    how = WON_BY_WORDS[hand.won_by].format(discarder=discarder)
    text = f"{winner} won {how}, {hand.total} {unit}"
    if hand.liable is not None:
        text += f"; {names[hand.liable]} pays for everyone (9-piece penalty)"
    return text


def kong_words(kong: KongChips, names: list[str]) -> str:
    kind = KONG_WORDS.get(kong.kind, KONG_WORDS["added"])
    gain = max(kong.payments)
    return f"Kong chips: {names[kong.chair]} made {kind} (+{gain})"


@dataclass
class Board:
    """One match as its table sees it."""

    match: Match
    names: list[str]
    state: object  # games.flow.State of the hand about to be played (or the end)
    seats: list[SeatCard]
    rounds: list[RoundGroup]
    unit: str
    last_hand: Hand | None  # the last hand that counts: what "Undo" offers
    last_hand_text: str
    kong_chips: bool  # whether this rule set has kong chips (u3a)
    liability: bool  # whether one player may pay for everyone (fan's 9-piece penalty)
    goulash_pot: int | None
    kongs_now: list[KongLine] = field(default_factory=list)
    live_hands: list[Hand] = field(default_factory=list)

    @property
    def hand(self) -> int:
        return self.state.hand

    @property
    def round_word(self) -> str:
        return WIND_WORDS.get(self.state.round or "", "")

    @property
    def dealer(self) -> SeatCard | None:
        return next((seat for seat in self.seats if seat.dealer), None)

    @property
    def playing(self) -> list[SeatCard]:
        """The chairs playing this hand, East first."""
        return sorted(
            (seat for seat in self.seats if seat.wind), key=lambda s: "ESWN".index(s.wind)
        )

    @property
    def sitting_out(self) -> SeatCard | None:
        return next((seat for seat in self.seats if seat.sits_out), None)

    @property
    def recent_rounds(self) -> list[RoundGroup]:
        """The latest few hands (RECENT_HANDS), grouped by round: always in view."""
        return split_rounds(self.rounds, RECENT_HANDS)[0]

    @property
    def older_rounds(self) -> list[RoundGroup]:
        """The hands before those, grouped by round: folded away on the table page."""
        return split_rounds(self.rounds, RECENT_HANDS)[1]

    @property
    def older_span(self) -> str:
        """The hands folded away, in words: "Hands 1 to 12"."""
        numbers = [line.number for group in self.older_rounds for line in group.lines]
        if not numbers:
            return ""
        first, last = min(numbers), max(numbers)
        return f"Hand {first}" if first == last else f"Hands {first} to {last}"

    @property
    def leaders(self) -> list[SeatCard]:
        top = max(seat.tally for seat in self.seats)
        return [seat for seat in self.seats if seat.tally == top]

    @property
    def is_open(self) -> bool:
        return self.match.is_in_play and not self.state.over

    @property
    def can_undo(self) -> bool:
        """The last hand can be undone while the match is open, or when that hand ended it."""
        return self.last_hand is not None and (
            self.match.is_in_play or self.match.ending == Match.Ending.FLOW
        )


def _match_records(match: Match) -> tuple[list[Hand], list[KongChips]]:
    cache = getattr(match, "_prefetched_objects_cache", {})
    if "hands" in cache and "kong_chips" in cache:
        hands, kongs = list(match.hands.all()), list(match.kong_chips.all())
    else:
        hands = list(match.hands.order_by("number", "recorded_at"))
        kongs = list(match.kong_chips.order_by("hand_number", "recorded_at"))
    return hands, kongs


def board(match: Match, user=None, saved=None) -> Board:
    """Everything the table page shows for `match` (four queries at most); after a write,
    from what the write read and worked out (`saved`: a recording.Saved), with none."""
    chairs = match.chair_list()
    names = match.player_names()
    hands, kongs = (saved.hands, saved.kongs) if saved else _match_records(match)
    live = [hand for hand in hands if not hand.is_voided]
    states = saved.states if saved else match.replay(live)
    state = states[-1]
    tallies = match.tallies(hands + kongs)
    you = match.chair_of(user) if user is not None else None
    ruleset = table_rules.match_ruleset(match)
    unit = table_rules.unit(ruleset)
    last = states[-2] if state.over and len(states) > 1 else state
    seats = [
        SeatCard(
            chair=number,
            name=names[number],
            wind=None if state.over else state.winds[number],
            tally=tallies[number],
            dealer=not state.over and state.dealer == number,
            sits_out=not state.over and state.winds[number] is None,
            is_you=number == you,
        )
        for number in range(len(chairs))
    ]
    kongs_by_hand: dict[int, list[str]] = {}
    for kong in kongs:
        if not kong.is_voided:
            kongs_by_hand.setdefault(kong.hand_number, []).append(kong_words(kong, names))
    rounds: list[RoundGroup] = []
    for hand in hands:
        before = states[min(hand.number, len(states)) - 1]
        wind = before.round or last.round or "E"
        if not rounds or rounds[-1].wind != wind:
            rounds.append(RoundGroup(wind=wind, lines=[]))
        rounds[-1].lines.append(
            HandLine(
                number=hand.number,
                text=describe_hand(hand, names, unit),
                payments=pay_words(names, hand.payments[: len(names)]),
                voided=hand.is_voided,
                goulash=hand.goulash,
                kongs=[] if hand.is_voided else kongs_by_hand.pop(hand.number, []),
                corrected=hand.void_reason
                if hand.is_voided and hand.void_reason != UNDONE_REASON
                else "",
                features=hand.features,
            )
        )
    # Kong chips of the hand being played, and any of the next hand left there by undoing
    # the hand before it (they wait for it, and can still be taken back).
    kongs_now = [
        KongLine(
            kong.pk,
            kong_words(kong, names)
            + (f" in hand {kong.hand_number}" if kong.hand_number != state.hand else ""),
        )
        for kong in kongs
        if not kong.is_voided and kong.hand_number >= state.hand and not state.over
    ]
    # Kong chips of the hand being played now (its result is not recorded yet).
    if kongs_by_hand.get(state.hand):
        rounds.append(RoundGroup(wind=state.round or "E", lines=[]))
        rounds[-1].lines.append(
            HandLine(
                number=state.hand,
                text="Being played",
                payments=[],
                voided=False,
                goulash=state.goulash,
                kongs=kongs_by_hand.pop(state.hand),
            )
        )
    return Board(
        match=match,
        names=names,
        state=state,
        seats=seats,
        rounds=rounds,
        unit=unit,
        last_hand=live[-1] if live else None,
        last_hand_text=describe_hand(live[-1], names, unit) if live else "",
        kong_chips=ruleset.has_kong_chips,
        liability=table_rules.has_liability(ruleset),
        goulash_pot=table_rules.goulash_pot(match, state) if state.goulash else None,
        kongs_now=kongs_now,
        live_hands=live,
    )


def earlier_matches(match: Match) -> list[Board]:
    """Matches at the same table earlier this evening, ended when the table changed."""
    earlier = (
        Match.objects.filter(
            session_id=match.session_id,
            table_number=match.table_number,
            ending=Match.Ending.TABLE_CHANGED,
            started_at__lt=match.started_at,
        )
        .exclude(pk=match.pk)
        .order_by("started_at")
        .prefetch_related(Prefetch("chairs", queryset=_chairs()), *_records_prefetch())
    )
    return [board(m) for m in earlier]


def _records_prefetch() -> list:
    return [
        Prefetch("hands", queryset=Hand.objects.order_by("number", "recorded_at")),
        Prefetch("kong_chips", queryset=KongChips.objects.order_by("hand_number", "recorded_at")),
    ]


@dataclass
class TableProgress:
    number: int
    board: Board


@dataclass
class SessionProgress:
    tables: list[TableProgress]

    @property
    def in_play(self) -> int:
        return sum(1 for table in self.tables if table.board.match.is_in_play)


def session_progress(session) -> SessionProgress:
    """Every table's current match this session (in play, else its latest), for the
    coordinator: hand, round, leader. A fixed number of queries for any number of tables."""
    matches = (
        Match.objects.filter(session=session)
        .order_by("table_number", "-started_at", "-pk")
        .prefetch_related(
            Prefetch("chairs", queryset=_chairs()),
            *_records_prefetch(),
        )
    )
    chosen: dict[int, Match] = {}
    for match in matches:
        current = chosen.get(match.table_number)
        if current is None or (match.is_in_play and not current.is_in_play):
            chosen[match.table_number] = match
    progress = []
    for number, match in sorted(chosen.items()):
        progress.append(TableProgress(number=number, board=board(match)))
    return SessionProgress(progress)


def _chairs():
    """The chairs of matches already read from the club's scope, prefetched by their keys.
    Not through the scoped manager: its join to the club's matches (to check each chair's
    club) is hashed whole by PostgreSQL when the club has years of matches, so Tonight and
    the session page read every match the club played; the matches' keys are the bound."""
    return Chair._base_manager.select_related("member").order_by("number")
