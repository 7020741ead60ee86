"""static/js/flow.js is games/flow.py's twin (the outbox moves the board on with it while
hands wait to be sent): random matches under every rule set, at tables of 3, 4 and 5, with
and without the rounds option, replayed by both, give the same state at every step.

Seeded random, so a failure is repeatable: the message names the case. Run in Chromium,
which is what CI has and what the page runs in."""

import random
from pathlib import Path

import pytest

from games import flow

FLOW_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "flow.js"
CASES_PER_SETTING = 12


def _outcome(rng: random.Random, state: flow.State, rules: str, players: int) -> dict:
    """One outcome the page's forms could send for `state` (a seated winner, a discarder
    when one pays), a draw now and then; hk tallies sometimes, which may end the match."""
    seated = list(state.seated)
    if rng.random() < 0.2:
        outcome: dict = {"draw": True}
    else:
        winner = rng.choice(seated)
        won_by = rng.choice(flow.WON_BY)
        discarder = None
        if won_by in ("discard", "robbing_kong"):
            discarder = rng.choice([chair for chair in seated if chair != winner])
        outcome = {"winner": winner, "won_by": won_by, "discarder": discarder}
    if rules == "hk" and rng.random() < 0.3:
        outcome["tallies"] = [rng.randint(-5, 500) for _ in range(players)]
    return outcome


def _cases():
    rng = random.Random(20)
    cases = []
    for rules in flow.RULES:
        for players in (3, 4, 5):
            settings = [None] + (
                [{"rounds": n} for n in (1, 2, 3, 4)] if rules in ("hk", "fan") else []
            )
            for options in settings:
                for _ in range(CASES_PER_SETTING):
                    outcomes, states = [], flow.replay(rules, [], players, options)
                    while not states[-1].over and len(outcomes) < 120:
                        outcomes.append(_outcome(rng, states[-1], rules, players))
                        states = flow.replay(rules, outcomes, players, options)
                    cases.append(
                        {
                            "rules": rules,
                            "players": players,
                            "options": options,
                            "outcomes": outcomes,
                            "states": [state.as_dict() for state in states],
                        }
                    )
    return cases


@pytest.fixture
def page(browser):
    page = browser.new_page()
    page.add_script_tag(path=str(FLOW_JS))
    # The constants the table page's JSON gives flow.js (table_flow's flow).
    page.evaluate("constants => { window.FLOW = constants; }", flow.CONSTANTS)
    yield page
    page.close()


def test_the_javascript_flow_gives_the_same_states_as_games_flow(page):
    cases = _cases()
    assert len(cases) > 300 and sum(len(case["outcomes"]) for case in cases) > 5000
    # Every kind of step is exercised: draws, goulash hands, a table of five's Dreamer, ends.
    states = [state for case in cases for state in case["states"]]
    assert any(state["goulash"] for state in states)
    assert any(state["sitting_out"] is not None for state in states)
    assert all(case["states"][-1]["over"] for case in cases)
    replayed = page.evaluate(
        """cases => cases.map(c => MatchFlow.replay(FLOW, c.rules, c.outcomes, c.players, c.options))""",
        cases,
    )
    for case, js_states in zip(cases, replayed, strict=True):
        for step, (python, javascript) in enumerate(zip(case["states"], js_states, strict=True)):
            assert javascript == python, (
                f"{case['rules']} at {case['players']} with {case['options']}: after "
                f"{step} outcomes {case['outcomes'][:step]}"
            )


def test_the_javascript_flow_refuses_what_games_flow_refuses(page):
    """A winner sitting out, an outcome after the end: both refuse (the page never sends
    one, but a port that accepted them would drift from the server silently)."""
    refused = page.evaluate(
        """() => {
          const tries = [
            () => MatchFlow.replay(FLOW, "u3a", [{winner: 4, won_by: "wall", discarder: null}], 5),
            () => MatchFlow.replay(FLOW, "fan", [{draw: true}, {draw: true}], 3, {rounds: 1}).length
              && MatchFlow.replay(FLOW, "fan", [{draw: true}, {draw: true}, {draw: true},
                                          {draw: true}], 3, {rounds: 1}),
            () => MatchFlow.replay(FLOW, "hk", [{winner: 0, won_by: "discard", discarder: 0}], 4),
          ];
          return tries.map(t => { try { t(); return false; } catch (e) { return true; } });
        }"""
    )
    assert refused == [True, True, True]
    for outcomes, players, options in (
        ([{"winner": 4, "won_by": "wall", "discarder": None}], 5, None),
        ([{"draw": True}] * 4, 3, {"rounds": 1}),
        ([{"winner": 0, "won_by": "discard", "discarder": 0}], 4, None),
    ):
        with pytest.raises(flow.FlowError):
            flow.replay(
                "u3a" if players == 5 else "fan" if options else "hk", outcomes, players, options
            )
