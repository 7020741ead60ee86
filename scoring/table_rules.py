"""A match's rules: the hand engine under the rules snapshotted when play started, with the
flow's seat winds translated to chairs.

The engine thinks in seat winds ("E", "S", ...); a match thinks in chairs (0..4) whose
winds move as the deal passes. This module is the one place that translates.
"""

from __future__ import annotations

from contextlib import contextmanager
from functools import lru_cache

from scoring import engine
from scoring.engine import EngineError, RuleSet
from scoring.refused_writes import TotalRefused
from scoring.rules import build_ruleset


@contextmanager
def engine_refusals():
    """The engine's refusal (EngineError) passed on as the table's, in the engine's words."""
    try:
        yield
    except EngineError as error:
        raise TotalRefused(str(error)) from error


@lru_cache(maxsize=64)
def _ruleset(rules: str, options: tuple, values: tuple) -> RuleSet:
    return build_ruleset(rules, dict(options), dict(values))


def match_ruleset(match) -> RuleSet:
    """The rule set the match is played under (cached: the snapshot never changes)."""
    return _ruleset(
        match.rules,
        tuple(sorted((match.rule_options or {}).items())),
        tuple(sorted((match.rule_values or {}).items())),
    )


def limit_total(match) -> int | None:
    """The match's limit (the most a hand scores under its rules), or None without one."""
    ruleset = match_ruleset(match)
    if not ruleset.limit_option:
        return None
    return ruleset.option_defaults[ruleset.limit_option]


def reaches_limit(match, total: int | None) -> bool:
    """Whether a total agreed at the table is a limit hand: it scores the match's limit."""
    limit = limit_total(match)
    return limit is not None and total is not None and total >= limit


def _outcome(match, state, win=None) -> engine.Outcome:
    """The engine's view of a hand: chairs, with the dealer the flow says."""
    if win is None:
        return engine.Outcome(winner=state.dealer, won_by="wall", dealer=state.dealer)
    return engine.Outcome(
        winner=win.winner,
        won_by=win.won_by,
        discarder=win.discarder,
        dealer=state.dealer,
        players=match.chair_count,
        liable=win.liable,
    )


def win_payments(match, state, win) -> list[int]:
    """Each chair's payment for a quick-entry win worth `win.total` in the hand `state`
    describes (dealer, goulash). Raises TotalRefused with the engine's reason.

    Payments depend only on who deals, wins and discards, so the engine's chair numbering
    serves every rule set, classical's fixed seat winds included."""
    ruleset = match_ruleset(match)
    players = match.chair_count
    with engine_refusals():
        if state.goulash:
            engine.check_total(ruleset, win.total, {"goulash": True})
            _outcome(match, state, win).winds()  # refuses a winner sitting out
            pot = engine.goulash_pot(ruleset, win.winner, players=players, dealer=state.dealer)
            return list(pot)
        return list(engine.payments_for_total(ruleset, win.total, _outcome(match, state, win)))


def kong_payments(match, state, chair: int, kind: str) -> list[int]:
    """Each chair's chips for a kong made by `chair` (U3A house rules)."""
    with engine_refusals():  # rules without kong chips refuse them: the engine's words
        chips = engine.kong_chips(
            match_ruleset(match), kind, chair, players=match.chair_count, dealer=state.dealer
        )
    return list(chips)


def has_liability(ruleset: RuleSet) -> bool:
    """Fan's 9-piece penalty: the player whose discard fed a pure hand pays for everyone."""
    return "liable" in ruleset.hand_options


def goulash_pot(match, state) -> int:
    """The chips in the pot of a goulash hand: every seated player's stake."""
    pot = engine.goulash_pot(
        match_ruleset(match), state.dealer, players=match.chair_count, dealer=state.dealer
    )
    return pot[state.dealer] - min(pot)


def unit(ruleset: RuleSet) -> str:
    """What a hand's total counts: points, faan or fan."""
    return ruleset.unit


# Where a device puts the total in the words of `total_limits` (see hand_entry.device_checks).
AMOUNT, TOTAL = "{amount}", "{total}"


def total_limits(match, goulash: bool = False) -> dict:
    """The fewest and the most a hand may total at this match (a goulash hand's when
    `goulash`), with the engine's own refusals of a total outside them, the total left as
    AMOUNT ("4 points") or TOTAL ("4"): what check_total refuses before any tiles."""
    ruleset = match_ruleset(match)
    opts = ruleset.resolve_options({"goulash": True} if goulash else {})
    return {
        "minimum": ruleset.minimum_total(opts),
        "maximum": ruleset.maximum_total(opts),
        "below": ruleset.below_minimum(-1, opts, AMOUNT),  # -1: below any minimum
        "above": ruleset.above_maximum(MAX_TOTAL_PROBE, opts, f"{TOTAL} {ruleset.unit}"),
    }


MAX_TOTAL_PROBE = 10**12  # above every limit: above_maximum always answers with its words


def has_goulash(ruleset: RuleSet) -> bool:
    """A goulash hand after a draw, with its own minimum, is a U3A house rule."""
    return "goulash" in ruleset.option_defaults


def hand_options(state) -> dict:
    """A hand's own options at this table: u3a's goulash, and three players (then nobody
    is North)."""
    options: dict = {}
    if state.goulash:
        options["goulash"] = True
    if len(state.seated) == 3:
        options["players"] = 3
    return options


def below_minimum(match, state, total: int, subject: str) -> str:
    """Why a hand worth `total` in the hand `state` describes may not go out, naming the
    minimum that applies there (a goulash hand's, or the club's). `subject` begins the
    sentence, with {} where the total goes ("This hand scores {}, which")."""
    ruleset = match_ruleset(match)
    opts = ruleset.resolve_options(hand_options(state))
    refusal = ruleset.below_minimum(total, opts, subject.format(ruleset.amount(total)))
    return refusal or f"{subject.format(ruleset.amount(total))} may not go out."


def full_hand(match, state, win) -> dict:
    """The engine contract's JSON for a win built from its tiles at this table (`win`: a
    recording.Win with tiles, or a stored Hand with its tiles): the seat and prevailing winds, the
    dealer and the options come from the state, never typed."""
    winds = state.winds
    if winds[win.winner] is None:
        raise TotalRefused("That player sits out this hand, so cannot have won it.")
    hand = {k: v for k, v in (win.tiles or {}).items() if k not in PLACE_FIELDS}
    hand.update(
        won_by=win.won_by,
        seat_wind=winds[win.winner],
        prevailing_wind=state.round,
        dealer=winds[state.dealer],
    )
    if win.discarder is not None:
        if winds[win.discarder] is None:
            raise TotalRefused("That player sits out this hand, so cannot have discarded.")
        hand["discarder"] = winds[win.discarder]
    options = hand_options(state)
    if win.liable is not None:
        if winds[win.liable] is None:
            raise TotalRefused("That player sits out this hand, so cannot pay for everyone.")
        options["liable"] = winds[win.liable]
    if options:
        hand["options"] = options
    return hand


def score_full_hand(match, state, hand: dict) -> tuple[object, list]:
    """The engine's result for `hand` (from `full_hand`) and each chair's payment: the
    engine's payments by seat wind, mapped to chairs through the state's winds (a chair
    sitting out pays nothing; at a table of three the hand says so, so nobody pays for
    North). Raises TotalRefused with the engine's message."""
    ruleset = match_ruleset(match)
    with engine_refusals():
        result = engine.score(hand, ruleset)
    payments = [0 if wind is None else result.payments[wind] for wind in state.winds]
    return result, payments


# Fields of a stored full hand that come from its place in the match, not from its tiles.
PLACE_FIELDS = ("won_by", "seat_wind", "prevailing_wind", "dealer", "discarder", "options")


def full_hand_payments(match, state, hand) -> list[int]:
    """Score a stored full hand again in a new place in the match (a correction earlier on
    changed its dealer, winds or goulash): its tiles as recorded, its seat and prevailing
    winds from `state`. Updates the hand's total, tiles, breakdown and limit in memory and
    returns each chair's payment; TotalRefused when it is no longer a hand that may go out."""
    hand_json = full_hand(match, state, hand)
    result, payments = score_full_hand(match, state, hand_json)
    if not result.allowed:
        raise TotalRefused(
            below_minimum(match, state, result.total, "in its new place it scores {}, which")
        )
    hand.total, hand.tiles, hand.limit = result.total, hand_json, result.limit
    hand.breakdown = result.to_dict()["breakdown"]
    return payments
