"""The flow of a match: who deals, which wind prevails, who sits out, which hand is a goulash,
when it is over.

Plain Python, no Django: the rest of the app calls `replay()`, through `Match.replay()`, and
reads `WIND_WORDS`. docs/match-flow.md describes the whole flow, with examples; this
docstring summarises the model.

Chairs
    Chairs are numbered ``0 .. players-1`` counter-clockwise, starting with the first
    dealer: before hand 1 chair 0 is East, chair 1 South, chair 2 West, chair 3 North. A
    table of three has no North. At a table of five, chair 4 is the Dreamer and sits out
    hand 1; from then on the chair just before the dealer (``dealer - 1``) sits out.

Passing the deal
    The next chair counter-clockwise (``dealer + 1``) becomes dealer and every seated
    chair's wind moves on with it: the new dealer is East, the next chair South, and so on.
    At a table of five the old dealer retires to dream and the Dreamer comes back as North.
    Classical at three or four players is the exception: the winner of a game becomes
    dealer and the seat winds never change, so there the dealer need not be East.

Rounds
    A round (one prevailing wind, E -> S -> W -> N) ends when the deal passes back to
    chair 0, that is when every chair has dealt once in it. u3a plays four rounds; hk and
    fan play the ``rounds`` option (default 4), and hk also ends when a tally is at or
    below zero. Classical instead counts games (won hands; a drawn hand is replayed and is
    no game): games 1-4 East, 5-8 South, 9-12 West, 13-16 North, over after game 16.

Each rule set is a small state machine (`_Flow` subclasses) with two moves, after a win and
after a draw; `replay()` checks each outcome against the current state, applies it, and
records an immutable `State` before every hand and after the last one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["RULES", "WINDS", "FlowError", "State", "replay"]

WINDS = ("E", "S", "W", "N")
# The winds in words, for pages and messages.
WIND_WORDS = {"E": "East", "S": "South", "W": "West", "N": "North"}
RULES = ("classical", "hk", "fan", "u3a")
WON_BY = ("wall", "replacement", "discard", "robbing_kong")
# Robbing a kong pays as a win on a discard, with the robbed player as the discarder.
_NEEDS_DISCARDER = frozenset({"discard", "robbing_kong"})
_WON_BY = frozenset(WON_BY)

CLASSICAL_GAMES = 16
GAMES_PER_ROUND = 4
DEFAULT_ROUNDS = 4
MAX_ROUNDS = len(WINDS)
MIN_PLAYERS, MAX_PLAYERS = 3, 5

# The constants above as the table page's JSON gives them to static/js/flow.js, which keeps
# only the moves: a constant changed here changes there too.
CONSTANTS = {
    "winds": list(WINDS),
    "needs_discarder": sorted(_NEEDS_DISCARDER),
    "classical_games": CLASSICAL_GAMES,
    "games_per_round": GAMES_PER_ROUND,
    "default_rounds": DEFAULT_ROUNDS,
    "max_rounds": MAX_ROUNDS,
    "min_players": MIN_PLAYERS,
    "max_players": MAX_PLAYERS,
}

_WIN_FIELDS = frozenset({"winner", "won_by", "discarder"})
_MISSING = object()


class FlowError(ValueError):
    """A match's outcomes or settings that cannot be played; the message is for a scorer."""


@dataclass(frozen=True, slots=True)
class State:
    """Where the match stands before a hand (or after the last one).

    `hand`, `round`, `dealer`, `winds`, `goulash` and `over` are the contract's fields.
    `sitting_out` is the chair sitting out this hand (tables of five only), and
    `games_played` counts classical games (won hands) so far; it is None for other rules.
    """

    hand: int
    round: str | None
    dealer: int | None
    winds: tuple[str | None, ...] | None
    goulash: bool = False
    over: bool = False
    sitting_out: int | None = None
    games_played: int | None = None

    @property
    def seated(self) -> tuple[int, ...]:
        """The chairs playing this hand, in chair order (empty once the match is over)."""
        if self.winds is None:
            return ()
        return tuple(chair for chair, wind in enumerate(self.winds) if wind is not None)

    def as_dict(self) -> dict[str, Any]:
        state = asdict(self)
        if state["winds"] is not None:
            state["winds"] = list(state["winds"])
        return state


def _winds_after_passing(players: int, dealer: int) -> tuple[str | None, ...]:
    """Seat winds when `dealer` is East and the winds follow the deal round the table."""
    winds = []
    for chair in range(players):
        offset = (chair - dealer) % players
        # Offset 4 only exists at a table of five: the chair just before the dealer dreams.
        winds.append(WINDS[offset] if offset < len(WINDS) else None)
    return tuple(winds)


# Every table's winds for every dealer, built once: replay() only looks them up.
_ROTATING_WINDS = {
    players: tuple(_winds_after_passing(players, dealer) for dealer in range(players))
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}
_SITTING_OUT = {
    players: tuple((dealer - 1) % players if players == 5 else None for dealer in range(players))
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}


class _Flow:
    """The moves of one rule set; subclasses say what a win and a draw do to the deal."""

    rules = ""
    options: frozenset[str] = frozenset()

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.dealer = 0
        self.round = 0
        self.goulash = False
        self.over = False
        self.games: int | None = None
        self.rounds = DEFAULT_ROUNDS
        # Seat winds and the Dreamer follow the dealer unless a rule set fixes them.
        self.winds_by_dealer = _ROTATING_WINDS[players]
        self.sitting_out_by_dealer = _SITTING_OUT[players]

    def state(self, hand: int) -> State:
        if self.over:
            return State(hand, None, None, None, False, True, None, self.games)
        dealer = self.dealer
        return State(
            hand,
            WINDS[self.round],
            dealer,
            self.winds_by_dealer[dealer],
            self.goulash,
            False,
            self.sitting_out_by_dealer[dealer],
            self.games,
        )

    def pass_deal(self) -> None:
        self.dealer = dealer = (self.dealer + 1) % self.players
        if dealer == 0:
            self.round += 1
            if self.round >= self.rounds:
                self.over = True

    def after_win(self, winner: int) -> None:
        raise NotImplementedError

    def after_draw(self) -> None:
        raise NotImplementedError


class _U3A(_Flow):
    """Seed 004: the dealer keeps the deal by winning; a draw brings a goulash hand."""

    rules = "u3a"

    def after_win(self, winner: int) -> None:
        if self.goulash:
            # "Regardless of who wins the Goulash hand, the Dealer passes the dice."
            self.goulash = False
            self.pass_deal()
        elif winner != self.dealer:
            self.pass_deal()

    def after_draw(self) -> None:
        # Same dealer, same winds; a goulash that nobody wins is followed by another.
        self.goulash = True


class _Rounds(_Flow):
    """Seeds 002 and 003 play a number of rounds (the `rounds` option) and the deal passes
    after every win; they differ in what a drawn hand does."""

    options = frozenset({"rounds"})

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        self.rounds = _rounds_option(options)

    def after_win(self, winner: int) -> None:
        self.pass_deal()


class _HK(_Rounds):
    """Seed 002: the deal passes after every win; a drawn hand is replayed."""

    rules = "hk"

    def after_draw(self) -> None:
        pass


class _Fan(_Rounds):
    """Seed 003: the deal passes after every hand, drawn or won."""

    rules = "fan"

    def after_draw(self) -> None:
        self.pass_deal()


class _Classical(_Flow):
    """Seeds 000/001: games are won hands; the prevailing wind moves every four games.

    At three or four players the winner becomes dealer and seat winds stay with the chairs.
    At five (seed 000's variant) East keeps the deal by winning, otherwise retires to dream.
    """

    rules = "classical"

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        super().__init__(players, options)
        self.games = 0
        self.with_dreamer = players == 5
        if not self.with_dreamer:
            fixed = self.winds_by_dealer[0]
            self.winds_by_dealer = (fixed,) * players

    def after_win(self, winner: int) -> None:
        self.games += 1
        if self.games >= CLASSICAL_GAMES:
            self.over = True
            return
        self.round = self.games // GAMES_PER_ROUND
        if not self.with_dreamer:
            self.dealer = winner
        elif winner != self.dealer:
            # The round follows the games, not the deal: move the dealer without pass_deal().
            self.dealer = (self.dealer + 1) % self.players

    def after_draw(self) -> None:
        pass


_FLOWS: dict[str, type[_Flow]] = {flow.rules: flow for flow in (_Classical, _HK, _Fan, _U3A)}


def _show(value: Any) -> str:
    """A value from the caller, quoted safely and briefly for a message."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _rounds_option(options: Mapping[str, Any]) -> int:
    rounds = options.get("rounds", DEFAULT_ROUNDS)
    if type(rounds) is not int or not 1 <= rounds <= MAX_ROUNDS:
        raise FlowError(
            f"The number of rounds must be a whole number from 1 to {MAX_ROUNDS} "
            f"(one per prevailing wind), not {_show(rounds)}."
        )
    return rounds


def _check_chair(flow: _Flow, hand: int, role: str, chair: Any) -> None:
    if type(chair) is not int or not 0 <= chair < flow.players:
        raise FlowError(
            f"Hand {hand}: the {role} must be one of the chairs 0 to {flow.players - 1} "
            f"at this table, not {_show(chair)}."
        )
    if chair == flow.sitting_out_by_dealer[flow.dealer]:
        raise FlowError(
            f"Hand {hand}: chair {chair} is sitting out this hand, so cannot be the {role}."
        )


def _check_tallies(flow: _Flow, hand: int, tallies: Any) -> bool:
    """Check hk tallies; True when one is at or below zero, which ends the match."""
    if flow.rules != "hk":
        raise FlowError(
            f"Hand {hand}: tallies are only recorded with the hk rules, not {flow.rules}."
        )
    if not isinstance(tallies, list | tuple) or len(tallies) != flow.players:
        raise FlowError(
            f"Hand {hand}: the tallies must be a list of {flow.players} numbers, "
            f"one for each chair, not {_show(tallies)}."
        )
    for chair, tally in enumerate(tallies):
        if type(tally) is not int and (type(tally) is not float or not math.isfinite(tally)):
            raise FlowError(
                f"Hand {hand}: chair {chair}'s tally must be a number, not {_show(tally)}."
            )
    return min(tallies) <= 0


def _unknown_fields(outcome: Mapping[Any, Any], allowed: Iterable[str]) -> str:
    unknown = [key for key in outcome if key not in allowed]
    return ", ".join(_show(key) for key in unknown)


def _apply(flow: _Flow, hand: int, outcome: Any) -> None:
    """Check one outcome against the current state, then play it."""
    if flow.over:
        raise FlowError(f"Hand {hand} cannot be recorded: the match is already over.")
    if type(outcome) is not dict and not isinstance(outcome, Mapping):
        raise FlowError(
            f"Hand {hand}: an outcome must say who won (or that it was a draw), "
            f"not {_show(outcome)}."
        )
    tallies = outcome.get("tallies", _MISSING)
    fields = len(outcome) - (tallies is not _MISSING)
    if "draw" in outcome:
        if outcome["draw"] is not True:
            raise FlowError(
                f'Hand {hand}: "draw" can only be true (the wall ran out), '
                f"not {_show(outcome['draw'])}."
            )
        if fields != 1:
            if any(field in outcome for field in _WIN_FIELDS):
                raise FlowError(f"Hand {hand}: an outcome is either a win or a draw, not both.")
            raise FlowError(
                f"Hand {hand}: unknown field {_unknown_fields(outcome, ('draw', 'tallies'))} "
                f'(a draw has only "draw" and, with hk, "tallies").'
            )
        ends = tallies is not _MISSING and _check_tallies(flow, hand, tallies)
        flow.after_draw()
        if ends:
            flow.over = True
        return

    winner = outcome.get("winner", _MISSING)
    won_by = outcome.get("won_by", _MISSING)
    discarder = outcome.get("discarder")
    if fields != 2 + ("discarder" in outcome) or winner is _MISSING or won_by is _MISSING:
        unknown = _unknown_fields(outcome, ("winner", "won_by", "discarder", "tallies"))
        if unknown:
            raise FlowError(
                f"Hand {hand}: unknown field {unknown} (expected winner, won_by and "
                f'discarder, or "draw": true).'
            )
        missing = "the winner" if winner is _MISSING else "how the hand was won (won_by)"
        raise FlowError(f"Hand {hand}: the outcome does not say {missing}.")
    _check_chair(flow, hand, "winner", winner)
    if type(won_by) is not str or won_by not in _WON_BY:
        raise FlowError(
            f"Hand {hand}: won_by must be one of {', '.join(WON_BY)}, not {_show(won_by)}."
        )
    if won_by in _NEEDS_DISCARDER:
        what = "a discard" if won_by == "discard" else "a robbed kong"
        if discarder is None:
            raise FlowError(
                f"Hand {hand}: a win on {what} needs the chair of the player who "
                f"{'discarded' if won_by == 'discard' else 'was robbed'} (discarder)."
            )
        _check_chair(flow, hand, "discarder", discarder)
        if discarder == winner:
            raise FlowError(
                f"Hand {hand}: chair {winner} cannot both win and be the discarder; "
                f"a player who wins on their own tile wins from the wall."
            )
    elif discarder is not None:
        raise FlowError(
            f"Hand {hand}: a win from the {'wall' if won_by == 'wall' else 'kong box'} "
            f"is self-drawn and has no discarder, but chair {_show(discarder)} was given."
        )
    ends = tallies is not _MISSING and _check_tallies(flow, hand, tallies)
    flow.after_win(winner)
    if ends:
        flow.over = True


def replay(
    rules: str,
    outcomes: Iterable[Mapping[str, Any]],
    players: int = 4,
    options: Mapping[str, Any] | None = None,
) -> list[State]:
    """The state before each hand and after the last: ``len(outcomes) + 1`` states.

    Raises FlowError for an unknown rule set or option, a table size outside 3..5, or an
    outcome that cannot be played at that point of the match.
    """
    flow_class = _FLOWS.get(rules) if type(rules) is str else None
    if flow_class is None:
        raise FlowError(f"Unknown rule set {_show(rules)}; choose one of {', '.join(RULES)}.")
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise FlowError(
            f"A table has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {_show(players)}."
        )
    if options is None:
        options = {}
    elif not isinstance(options, Mapping):
        raise FlowError(f"The options must be names with values, not {_show(options)}.")
    unknown = [name for name in options if name not in flow_class.options]
    if unknown:
        known = ", ".join(sorted(flow_class.options)) or "none"
        raise FlowError(
            f"Unknown option {', '.join(_show(name) for name in unknown)} for {rules} "
            f"(its match options: {known})."
        )
    flow = flow_class(players, options)
    states = [flow.state(1)]
    append = states.append
    hand = 1
    for outcome in outcomes:
        _apply(flow, hand, outcome)
        hand += 1
        append(flow.state(hand))
    return states
