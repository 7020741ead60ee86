"""The `fan` rule set (seed 003: a simple fan table).

Fan from seed 003's lists, added up and capped at `max_fan`; "max" hands score `max_fan`.
Points from fan use seed 002's faan-to-points table; on a discard the discarder pays 2x the
points and the other two 1x, self-drawn all three pay 2x. The 9-piece penalty is the hand
option `liable` (a seat letter): that player pays what all three would have paid.

Every number is in `VALUE_DEFAULTS` (a club can override it); the patterns are the small
predicates below. The page for club members is `docs/rules/fan.md`.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .. import patterns as p
from ..errors import EngineError
from ..result import Item, Result
from ..tiles import (
    WIND_NUMBER,
    WIND_TILE,
    WINDS,
    bonus_number,
    code,
    is_dragon,
    is_flower,
    is_season,
)
from .base import (
    PLAYERS_DEFAULT,
    PLAYERS_RANGE,
    RuleSet,
    ValueRange,
    owed_by_others,
    ranges_by_kind,
    settle,
)

OPTION_DEFAULTS: dict[str, int | bool | str] = {
    "min_fan": 1,  # below this the hand may not go out (allowed: false, no payments)
    "max_fan": 10,  # the limit: fan are capped here and "max" hands score it
    # The 9-piece penalty, set on the hand by the scorer: the seat letter (E, S, W, N) of
    # the player who pays for everyone; "" = nobody.
    "liable": "",
    # 4, or 3 at a table of three (East, South and West; North pays nothing).
    "players": PLAYERS_DEFAULT,
}
# Every number of seed 003's lists, plus seed 002's faan-to-points table and payment
# multipliers (docs/rules/fan.md). Keys are stable: clubs store overrides by them.
VALUE_DEFAULTS: dict[str, int] = {
    # Winning Bonuses
    "win.self_pick.fan": 1,
    "win.last_tile.fan": 1,
    "win.last_discard.fan": 1,
    "win.robbing_kong.fan": 1,
    "win.supplement_tile.fan": 1,
    # Pungs and Chows
    "sets.four_chows.fan": 1,
    "sets.four_pungs.fan": 3,
    # "Some groups score extra bonuses for concealed vs. exposed Kongs": 0 unless a club
    # sets them (the seed gives no number).
    "sets.kong.exposed.fan": 0,
    "sets.kong.concealed.fan": 0,
    # Purity
    "purity.semi_pure.fan": 3,
    "purity.pure.fan": 6,
    # Dragons (a ladder: only the highest row that fits scores)
    "dragons.one_pung.fan": 1,
    "dragons.two_pungs.fan": 2,
    "dragons.little_three.fan": 4,
    # Winds
    "winds.own_wind_pung.fan": 1,
    "winds.round_wind_pung.fan": 1,
    # Flowers & Seasons
    "bonus.own_wind.fan": 1,  # each flower or season of the winner's seat
    "bonus.none.fan": 1,
    "bonus.all_flowers_or_seasons.fan": 2,  # all four flowers; all four seasons: each
    # Special Hands (the others are "max")
    "special.seven_pairs.fan": 4,
    # Seed 002's faan-to-points table
    "points.fan_0": 1,
    "points.fan_1": 2,
    "points.fan_2": 4,
    "points.fan_3": 8,
    "points.fan_4_6": 16,
    "points.fan_7_9": 32,
    "points.fan_10_12": 64,
    "points.fan_13_up": 128,
    # Payment multipliers
    "pay.discard.discarder": 2,
    "pay.discard.other": 1,
    "pay.self_drawn.each": 2,
}
# What a club may set each value to: 0 to 20 fan an element, up to 10,000 points a hand in
# the points table, and each payment from nothing to 10 times the points.
VALUE_RANGES = ranges_by_kind(
    VALUE_DEFAULTS,
    {
        ".fan": ValueRange(0, 20, "fan"),
        "points.": ValueRange(0, 10_000, "points"),
        "pay.": ValueRange(0, 10, "times the points"),
    },
)
# The minimum and the limit: no hand scores more than 100 fan.
FAN_RANGE = 100

# Names of the breakdown items: the seed's own words.
SELF_PICK = "Self Pick"
LAST_TILE = "Out on Last Tile"
LAST_DISCARD = "Out on Last Discard"
ROBBING_KONG = "Robbing a Kong"
SUPPLEMENT = "Out on a Supplement Tile"
FOUR_CHOWS = "4 Chows"
FOUR_PUNGS = "4 Pungs"
SEMI_PURE = "Semi-Pure"
PURE = "Pure"
ONE_DRAGON = "1 Dragon Pung"
TWO_DRAGONS = "2 Dragon Pungs"
LITTLE_DRAGONS = "3 Little Dragons"
BIG_DRAGONS = "3 Big Dragons"
OWN_WIND = "Pung/Kong of Player's Own Wind"
ROUND_WIND = "Pung/Kong of Wind of the Round"
FOUR_WINDS = "4 Winds"
OWN_BONUS = "Flower/Season of Player's Own Wind"
NO_BONUS = "No Flowers or Seasons"
ALL_FLOWERS = "All Flowers"
ALL_SEASONS = "All Seasons"
SEVEN_PAIRS = "7 Pairs"
HIDDEN_TREASURE = "Hidden Treasure"
ALL_HONORS = "All Honors"  # also the Purity list's "Winds & Dragons only"
ALL_TERMINALS = "All Terminals"
NINE_GATES = "Nine Gates"
THIRTEEN_ORPHANS = "Thirteen Orphans"
ALL_KONGS = "All Kongs"
JADE_DRAGON = "Jade Dragon"
PEARL_DRAGON = "Pearl Dragon"
RUBY_DRAGON = "Ruby Dragon"
HEAVENLY = "Heavenly Hand"
EARTHLY = "Earthly Hand"
EXPOSED_KONG = "Exposed Kong"
CONCEALED_KONG = "Concealed Kong"

BAMBOO, CHARACTERS, DOTS = 0, 1, 2  # suit_of(): b, c, d (tiles.SUIT_NAMES)


# ---------------------------------------------------------------- patterns (hand, reading)
# The shared predicates of `scoring.engine.patterns` where they say exactly what the seed
# says; the rest are here.

four_chows = p.all_chows  # four chows and any pair
four_pungs = p.all_pongs  # four pungs/kongs and a pair (standard shape only)
pure = p.one_suit_only  # all one suit, no honours
semi_pure = p.one_suit_with_honours  # one suit plus at least one honour
all_honors = p.all_honours  # winds and dragons only, any shape
all_terminals = p.all_terminals  # 1s and 9s only (necessarily pungs and a pair)
nine_gates = p.nine_gates  # concealed 1112345678999 + one more of the suit, no meld
little_dragons = p.little_three_dragons  # two dragon pungs/kongs + pair of the third
big_dragons = p.big_three_dragons  # pungs/kongs of all three dragons


def dragon_sets(reading) -> list[int]:
    """The dragons of the reading's pungs and kongs, sorted (dr dg dw)."""
    return sorted(g.tile for g in reading.groups if g.is_pong_or_kong and is_dragon(g.tile))


def wind_sets(reading) -> set[int]:
    return {g.tile for g in reading.groups if g.is_pong_or_kong and g.tile in WIND_TILE.values()}


def four_winds(hand, reading) -> bool:
    """All four winds: four wind pungs/kongs, or three and a pair of the fourth."""
    return p.big_four_winds(hand, reading) or p.little_four_winds(hand, reading)


def hidden_treasure(hand, reading) -> bool:
    """Four concealed pungs/kongs and any pair, self-drawn."""
    return hand.self_drawn and p.concealed_pongs(reading) == 4


def all_kongs(hand, reading) -> bool:
    """Four kongs and any pair."""
    return p.kongs(reading) == 4


jade_dragon = p.jade_dragon  # green dragon pung/kong, the rest bamboo (chows too)
pearl_dragon = p.pearl_dragon  # white dragon, the rest circles
ruby_dragon = p.ruby_dragon  # red dragon, the rest characters


def heavenly(hand, reading) -> bool:
    """The dealer wins on the deal (self-drawn, `first_turn`)."""
    return hand.first_turn and hand.is_dealer and hand.self_drawn


def earthly(hand, reading) -> bool:
    """A non-dealer wins on the dealer's first discard (`first_turn`)."""
    return (
        hand.first_turn
        and not hand.is_dealer
        and hand.won_by == "discard"
        and hand.discarder == hand.dealer
    )


def thirteen_orphans(hand, reading) -> bool:
    return reading.shape == "thirteen_orphans"


# "max" hands, in the seed's order (Purity, Dragons, Winds, Special Hands).
MAX_HANDS = (
    (ALL_HONORS, all_honors),
    (BIG_DRAGONS, big_dragons),
    (FOUR_WINDS, four_winds),
    (HIDDEN_TREASURE, hidden_treasure),
    (ALL_TERMINALS, all_terminals),
    (NINE_GATES, nine_gates),
    (THIRTEEN_ORPHANS, thirteen_orphans),
    (ALL_KONGS, all_kongs),
    (JADE_DRAGON, jade_dragon),
    (PEARL_DRAGON, pearl_dragon),
    (RUBY_DRAGON, ruby_dragon),
    (HEAVENLY, heavenly),
    (EARTHLY, earthly),
)

# ---------------------------------------------------------------- the rule set


class FanRuleSet(RuleSet):
    name = "fan"
    title = "Fan (a simple fan table)"
    option_defaults = OPTION_DEFAULTS
    value_defaults = VALUE_DEFAULTS
    value_ranges = VALUE_RANGES
    # Seed 003's winning shapes; u3a's knitted hands and little snake are not.
    shapes = frozenset(("standard", "seven_pairs", "thirteen_orphans"))
    quads_in_seven_pairs = False  # seed 003: "7 Pairs (no quads)"
    minimum_option = "min_fan"
    limit_option = "max_fan"
    option_ranges = MappingProxyType(
        {"min_fan": (0, FAN_RANGE), "max_fan": (1, FAN_RANGE), "players": PLAYERS_RANGE}
    )
    hand_options = frozenset(("liable", "players"))
    unit = "fan"
    starting_tally = 500

    def score_reading(self, hand, reading, opts) -> Result | None:
        liable_seat(hand, opts)  # a bad liable seat refuses the hand, allowed or not
        maxed = [name for name, test in MAX_HANDS if test(hand, reading)]
        found = () if maxed else [(i.name, i.fan) for i in self.items(hand, reading) if i.fan]
        return self.capped_result(hand, opts, maxed, found)

    def items(self, hand, reading):
        """Every non-max item, in the seed's order (zero-valued ones are dropped later)."""
        v = self.values
        # Winning Bonuses
        if hand.self_drawn:  # wall or replacement
            yield Item(SELF_PICK, fan=v["win.self_pick.fan"])
        if hand.last_tile:
            if hand.self_drawn:
                yield Item(LAST_TILE, fan=v["win.last_tile.fan"])
            else:  # a discard, or a kong robbed after the last tile: as a discard
                yield Item(LAST_DISCARD, fan=v["win.last_discard.fan"])
        if hand.won_by == "robbing_kong":
            yield Item(ROBBING_KONG, fan=v["win.robbing_kong.fan"])
        if hand.won_by == "replacement":
            yield Item(SUPPLEMENT, fan=v["win.supplement_tile.fan"])
        # Pungs and Chows
        if four_chows(hand, reading):
            yield Item(FOUR_CHOWS, fan=v["sets.four_chows.fan"])
        if four_pungs(hand, reading):
            yield Item(FOUR_PUNGS, fan=v["sets.four_pungs.fan"])
        for g in reading.groups:
            if g.kind == "kong":
                if g.concealed:
                    yield Item(
                        f"{CONCEALED_KONG} ({code(g.tile)})", fan=v["sets.kong.concealed.fan"]
                    )
                else:
                    yield Item(f"{EXPOSED_KONG} ({code(g.tile)})", fan=v["sets.kong.exposed.fan"])
        # Purity
        if pure(hand, reading):
            yield Item(PURE, fan=v["purity.pure.fan"])
        elif semi_pure(hand, reading):
            yield Item(SEMI_PURE, fan=v["purity.semi_pure.fan"])
        # Dragons: a ladder, only the highest row that fits
        dragons = dragon_sets(reading)
        names = " ".join(code(t) for t in dragons)
        if little_dragons(hand, reading):
            yield Item(LITTLE_DRAGONS, fan=v["dragons.little_three.fan"])
        elif len(dragons) == 2:
            yield Item(f"{TWO_DRAGONS} ({names})", fan=v["dragons.two_pungs.fan"])
        elif len(dragons) == 1:
            yield Item(f"{ONE_DRAGON} ({names})", fan=v["dragons.one_pung.fan"])
        # Winds (both when the seat wind is the round wind)
        winds = wind_sets(reading)
        own, prevailing = WIND_TILE[hand.seat_wind], WIND_TILE[hand.prevailing_wind]
        if own in winds:
            yield Item(f"{OWN_WIND} ({code(own)})", fan=v["winds.own_wind_pung.fan"])
        if prevailing in winds:
            yield Item(f"{ROUND_WIND} ({code(prevailing)})", fan=v["winds.round_wind_pung.fan"])
        # Flowers & Seasons
        seat_number = WIND_NUMBER[hand.seat_wind]
        for t in hand.bonus:
            if bonus_number(t) == seat_number:
                yield Item(f"{OWN_BONUS} ({code(t)})", fan=v["bonus.own_wind.fan"])
        if not hand.bonus:
            yield Item(NO_BONUS, fan=v["bonus.none.fan"])
        if sum(map(is_flower, hand.bonus)) == 4:
            yield Item(ALL_FLOWERS, fan=v["bonus.all_flowers_or_seasons.fan"])
        if sum(map(is_season, hand.bonus)) == 4:
            yield Item(ALL_SEASONS, fan=v["bonus.all_flowers_or_seasons.fan"])
        # Special Hands
        if reading.shape == "seven_pairs":
            yield Item(SEVEN_PAIRS, fan=v["special.seven_pairs.fan"])

    def points(self, fan: int) -> int:
        """Seed 002's faan-to-points table."""
        v = self.values
        if fan >= 13:
            return v["points.fan_13_up"]
        if fan >= 10:
            return v["points.fan_10_12"]
        if fan >= 7:
            return v["points.fan_7_9"]
        if fan >= 4:
            return v["points.fan_4_6"]
        return v[f"points.fan_{fan}"]

    def payments(self, win, total, opts, seats=WINDS) -> dict[str, int]:
        """Net change per seat; the liable player (if any) pays what all the others would."""
        v = self.values
        points = self.points(total)
        winner = win.seat_wind
        owed = owed_by_others(
            winner,
            seats,
            None if win.self_drawn else win.discarder,  # the robbed player counts as discarder
            points * v["pay.self_drawn.each"],
            points * v["pay.discard.discarder"],
            points * v["pay.discard.other"],
        )
        liable = liable_seat(win, opts)
        if liable is not None:
            owed = {liable: sum(owed.values())}
        return settle(winner, owed)


def liable_seat(win, opts: Mapping) -> str | None:
    """The seat that pays for everyone under the 9-piece penalty (option `liable`), or None."""
    liable = opts["liable"].strip().upper()
    if not liable:
        return None
    if liable == "N" and opts["players"] == 3:
        raise EngineError(
            "At a three-player table nobody sits North: option liable must be E, S or W."
        )
    if liable not in WINDS:
        raise EngineError(
            "Option liable must be the seat (E, S, W or N) of the player who pays for "
            f"everyone under the 9-piece penalty, or empty for nobody; not {opts['liable']!r}."
        )
    if liable == win.seat_wind:
        raise EngineError(
            f"Option liable names the winner's own seat ({liable}); under the 9-piece penalty "
            "another player pays for everyone."
        )
    return liable


RULESET = FanRuleSet()
