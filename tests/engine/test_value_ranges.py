"""Every table value and whole-number option of every rule set has a sensible range, kept as
data beside the values; `with_overrides` refuses anything outside it with a sentence naming
the value and the range, and at the ends of every range (the worst a club may choose) no
hand, scored or entered by its total, pays more than the database's whole numbers hold."""

import random

import pytest

from scoring.engine import EngineError, Outcome, payments_for_total, score
from scoring.engine.random_hands import random_hand
from scoring.engine.rulesets import RULESET_NAMES, get_ruleset
from scoring.engine.rulesets.base import MAX_TOTAL

INT32 = 2**31 - 1  # PostgreSQL's integer; SQLite's is wider
RULESETS = [get_ruleset(name) for name in RULESET_NAMES]


def whole_number_options(ruleset):
    return {
        name: default
        for name, default in ruleset.option_defaults.items()
        if isinstance(default, int) and not isinstance(default, bool)
    }


@pytest.mark.parametrize("ruleset", RULESETS, ids=RULESET_NAMES)
def test_every_value_and_option_has_a_range_holding_its_default(ruleset):
    assert set(ruleset.value_ranges) == set(ruleset.value_defaults)
    for name, default in ruleset.value_defaults.items():
        low, high, unit = ruleset.value_ranges[name]
        assert low <= default <= high and unit, name
    for name, default in whole_number_options(ruleset).items():
        low, high = ruleset.option_ranges[name]
        assert high is not None and low <= default <= high, name


@pytest.mark.parametrize("ruleset", RULESETS, ids=RULESET_NAMES)
def test_each_value_takes_the_ends_of_its_range_and_refuses_beyond(ruleset):
    for name, (low, high, _) in ruleset.value_ranges.items():
        assert ruleset.with_overrides(values={name: low}).values[name] == low
        assert ruleset.with_overrides(values={name: high}).values[name] == high
        for wrong in (low - 1, high + 1, 10**30):
            with pytest.raises(EngineError) as refused:
                ruleset.with_overrides(values={name: wrong})
            message = str(refused.value)
            assert name in message and f"{high:,}" in message and str(wrong) in message


@pytest.mark.parametrize("ruleset", RULESETS, ids=RULESET_NAMES)
def test_each_option_refuses_beyond_its_range(ruleset):
    for name in whole_number_options(ruleset):
        low, high = ruleset.option_ranges[name]
        for wrong in (low - 1, high + 1, 10**30):
            with pytest.raises(EngineError, match=name):
                ruleset.with_overrides(options={name: wrong})


def test_the_reported_case_mahjong_at_minus_1000_is_refused():
    with pytest.raises(EngineError, match="from 0 to 1,000 points, not -1000"):
        get_ruleset("classical").with_overrides(values={"mahjong.points": -1000})


def test_hk_says_what_minus_one_means():
    with pytest.raises(EngineError, match='or -1 for "max", not -2'):
        get_ruleset("hk").with_overrides(values={"special.seven_pairs": -2})


@pytest.mark.parametrize("total", [MAX_TOTAL + 1, 2**31, 2**63, 10**30])
@pytest.mark.parametrize("name", RULESET_NAMES)
def test_an_absurd_total_is_refused_in_words(name, total):
    with pytest.raises(EngineError, match="more than any hand scores|above the limit"):
        get_ruleset(name).check_total(total)


def worst(ruleset, end):
    """The rule set with every value and option at the top of its range (`end` "high"), or
    the options at the top and the values at the bottom: the most a club could make a hand
    pay."""
    values = {n: (r.high if end == "high" else r.low) for n, r in ruleset.value_ranges.items()}
    options = {}
    for name in whole_number_options(ruleset):
        if name != "players":
            options[name] = ruleset.option_ranges[name][1]
    if ruleset.minimum_option:  # the minimum at the top would allow no hand at all
        options[ruleset.minimum_option] = 0
    return ruleset.with_overrides(options=options, values=values)


@pytest.mark.parametrize("end", ["high", "low"])
@pytest.mark.parametrize("ruleset", RULESETS, ids=RULESET_NAMES)
def test_at_the_ends_of_the_ranges_no_hand_pays_more_than_the_database_holds(ruleset, end):
    club = worst(ruleset, end)
    rng = random.Random(16)
    largest = 0
    for _ in range(300):
        data = random_hand(rng, shapes=club.shapes)
        try:
            result = score(data, club)
        except EngineError:
            continue
        largest = max(largest, *(abs(v) for v in result.payments.values()))
    for players in (3, 4):
        for won_by, discarder in (("wall", None), ("discard", 1)):
            outcome = Outcome(winner=0, won_by=won_by, discarder=discarder, players=players)
            try:
                paid = payments_for_total(club, MAX_TOTAL, outcome)
            except EngineError:  # above this club's limit: refused, not paid
                paid = payments_for_total(club, club.maximum_total(club.option_defaults), outcome)
            largest = max(largest, *(abs(v) for v in paid))
    # A whole evening of such hands still fits a tally.
    assert largest * 1000 < INT32
