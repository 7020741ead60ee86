"""Payments per chair when the table agrees only a hand's total, and the u3a chips.

At a table the players often agree just "Betty won on Alan's discard, 48 points". These
functions check such a total against the club's rule set and work out who pays whom, through
the same `RuleSet.payments` that pays a fully scored hand, so the two always agree.

    from scoring.engine import Outcome, check_total, payments_for_total

    outcome = Outcome(winner=1, won_by="discard", discarder=0, dealer=0, players=4)
    check_total("classical", 48)                        # 48, or EngineError saying why
    payments_for_total("classical", 48, outcome)        # (-96, 96, 0, 0): one entry per chair

Chairs are numbered 0 .. players-1 as in the flow of a match (games/flow.py): counting on
from the dealer, the seated chairs are East, South, West and North; at a table of five the
chair before the dealer sits out and pays nothing; at a table of three nobody is North.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .errors import EngineError
from .hand import SELF_DRAWN, WON_BY
from .rulesets import RuleSet, get_ruleset
from .tiles import WINDS

TABLE_SIZES = (3, 4, 5)


def seat_winds(players: int, dealer: int) -> tuple[str | None, ...]:
    """Each chair's seat wind for a hand, None for the chair sitting out (table of five)."""
    if isinstance(players, bool) or players not in TABLE_SIZES:
        raise EngineError(f"A table has 3, 4 or 5 players, not {players!r}.")
    _check_chair(dealer, players, "dealer")
    winds: list[str | None] = [None] * players
    for wind, step in zip(WINDS, range(min(players, 4)), strict=False):
        winds[(dealer + step) % players] = wind
    return tuple(winds)


def _check_chair(chair: object, players: int, role: str) -> int:
    if isinstance(chair, bool) or not isinstance(chair, int) or not 0 <= chair < players:
        raise EngineError(
            f"The {role} must be a chair from 0 to {players - 1} at a table of {players}, "
            f"not {chair!r}."
        )
    return chair


@dataclass(frozen=True, slots=True)
class Outcome:
    """Who won a hand and how, by chair: what the table agrees besides the total.

    won_by: "wall", "replacement", "discard" or "robbing_kong"; `discarder` is the chair
    that discarded the winning tile (or whose kong was robbed), None when self-drawn.
    `liable` (fan only): the chair that pays for everyone under the 9-piece penalty.
    """

    winner: int
    won_by: str
    discarder: int | None = None
    dealer: int = 0
    players: int = 4
    liable: int | None = None

    def winds(self) -> tuple[str | None, ...]:
        """Each chair's seat wind, after checking every chair the outcome names."""
        winds = seat_winds(self.players, self.dealer)
        winner = _seated(self.winner, winds, "winner")
        if self.won_by not in WON_BY:
            raise EngineError(
                f"How the hand was won must be one of {', '.join(WON_BY)}, not {self.won_by!r}."
            )
        if self.won_by in SELF_DRAWN:
            if self.discarder is not None:
                raise EngineError(
                    f"A hand won from the {self.won_by} has no discarder; "
                    f"chair {self.discarder} was given."
                )
        else:
            if self.discarder is None:
                raise EngineError("Say who discarded the winning tile (or whose kong was robbed).")
            if _seated(self.discarder, winds, "discarder") == winner:
                raise EngineError(f"Chair {winner} cannot win on their own discard.")
        if self.liable is not None and _seated(self.liable, winds, "liable player") == winner:
            raise EngineError(f"Chair {winner} won: another player pays for everyone.")
        return winds


def _seated(chair: object, winds: tuple[str | None, ...], role: str) -> int:
    chair = _check_chair(chair, len(winds), role)
    if winds[chair] is None:
        raise EngineError(f"Chair {chair} sits out this hand, so cannot be the {role}.")
    return chair


def _at_table(winds: tuple[str | None, ...]) -> tuple[str, ...]:
    return tuple(w for w in WINDS if w in winds)


def _per_chair(winds: tuple[str | None, ...], by_wind: Mapping[str, int]) -> tuple[int, ...]:
    return tuple(0 if wind is None else by_wind[wind] for wind in winds)


@dataclass(frozen=True, slots=True)
class _Win:
    """What `RuleSet.payments` reads of a hand (a `Hand` has the same fields)."""

    seat_wind: str
    won_by: str
    discarder: str | None
    dealer: str

    @property
    def self_drawn(self) -> bool:
        return self.won_by in SELF_DRAWN


def _options(ruleset: RuleSet, options: Mapping | None, players: int) -> dict:
    opts = dict(options or {})
    if "players" in ruleset.option_defaults:  # 3 or 4 at the table (a fifth sits out)
        opts["players"] = min(players, 4)
    return ruleset.resolve_options(opts)


def check_total(rules: str | RuleSet, total: object, options: Mapping | None = None) -> int:
    """`total` when an allowed hand can score it under `rules` with these options (the
    club's, plus per-hand ones such as u3a's goulash); otherwise EngineError saying why."""
    return get_ruleset(rules).check_total(total, options)


def payments_for_total(
    rules: str | RuleSet, total: int, outcome: Outcome, options: Mapping | None = None
) -> tuple[int, ...]:
    """Net change of each chair's tally (one entry per chair, summing to zero) for an allowed
    hand worth `total`, paid as the engine pays a scored hand of that value. EngineError
    when the total cannot be right or the outcome names a chair that cannot play that part."""
    ruleset = get_ruleset(rules)
    winds = outcome.winds()
    opts = _options(ruleset, options, outcome.players)
    if outcome.liable is not None:
        if "liable" not in ruleset.option_defaults:
            raise EngineError(
                f"Only the fan rules make one player pay for everyone, not {ruleset.name}."
            )
        opts["liable"] = winds[outcome.liable]
    total = ruleset.check_total(total, opts)
    win = _Win(
        seat_wind=winds[outcome.winner],
        won_by=outcome.won_by,
        discarder=None if outcome.discarder is None else winds[outcome.discarder],
        dealer=winds[outcome.dealer],
    )
    return _per_chair(winds, ruleset.payments(win, total, opts, _at_table(winds)))


def _u3a(rules: str | RuleSet) -> RuleSet:
    ruleset = get_ruleset(rules)
    if not ruleset.has_kong_chips:
        raise EngineError(
            f"Kong chips and the goulash pot belong to the u3a rules, not {ruleset.name}."
        )
    return ruleset


def kong_chips(
    rules: str | RuleSet, kind: str, chair: int, *, players: int = 4, dealer: int = 0
) -> tuple[int, ...]:
    """Chips for a kong, paid when it is made, apart from the hand (u3a): every other player
    at the table pays the kong's maker 3 for a concealed kong, 2 for a kong on a discard, 1
    for a tile added to an exposed pong, nothing when the kong's replacement tile wins
    ("replacement_win"). One entry per chair, summing to zero."""
    from .rulesets.u3a import kong_payments  # rule-set modules load only when used

    ruleset = get_ruleset(rules)
    if not ruleset.has_kong_chips:
        raise EngineError(f"Kong chips are not part of the {ruleset.title} rules.")
    values = ruleset.values
    winds = seat_winds(players, dealer)
    maker = winds[_seated(chair, winds, "player making the kong")]
    return _per_chair(winds, kong_payments(kind, maker, _at_table(winds), values=values))


def goulash_pot(
    rules: str | RuleSet, winner: int, *, players: int = 4, dealer: int = 0
) -> tuple[int, ...]:
    """A goulash hand (u3a): every player at the table puts 5 chips in the pot and the
    winner takes it all, so nets the pot less their own stake. One entry per chair."""
    from .rulesets.u3a import goulash_payments  # rule-set modules load only when used

    values = _u3a(rules).values
    winds = seat_winds(players, dealer)
    wind = winds[_seated(winner, winds, "winner")]
    return _per_chair(winds, goulash_payments(wind, _at_table(winds), values=values))
