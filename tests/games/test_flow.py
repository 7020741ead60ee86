"""games.flow: the contract's examples, a worked match per seed, every FlowError, properties."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.flow import RULES, WINDS, FlowError, State, replay


def wall(winner):
    return {"winner": winner, "won_by": "wall", "discarder": None}


def discard(winner, discarder):
    return {"winner": winner, "won_by": "discard", "discarder": discarder}


DRAW = {"draw": True}


def rows(states):
    """(hand, round, dealer, winds, goulash, over) per state, for compact expectations."""
    return [(s.hand, s.round, s.dealer, s.winds, s.goulash, s.over) for s in states]


def winds(text):
    return tuple(None if w == "-" else w for w in text.split())


# --- the contract's examples, verbatim ---------------------------------------------------


def test_contract_u3a_example():
    states = replay(
        "u3a",
        [
            {"winner": 0, "won_by": "wall", "discarder": None},
            {"draw": True},
            {"winner": 2, "won_by": "discard", "discarder": 1},
            {"winner": 3, "won_by": "wall", "discarder": None},
        ],
    )
    assert len(states) == 5
    assert rows(states) == [
        (1, "E", 0, winds("E S W N"), False, False),
        (2, "E", 0, winds("E S W N"), False, False),  # the dealer won: keeps the deal
        (3, "E", 0, winds("E S W N"), True, False),  # after the draw
        (4, "E", 1, winds("N E S W"), False, False),  # goulash won: the deal passes
        (5, "E", 2, winds("W N E S"), False, False),  # chair 3 won, not the dealer
    ]


def test_contract_u3a_five_players_example():
    states = replay("u3a", [{"winner": 2, "won_by": "wall", "discarder": None}], players=5)
    assert states[0].winds == ("E", "S", "W", "N", None)
    assert states[0].sitting_out == 4
    assert states[1].dealer == 1
    assert states[1].winds == (None, "E", "S", "W", "N")
    assert states[1].sitting_out == 0


def test_contract_classical_example():
    states = replay(
        "classical",
        [{"winner": 2, "won_by": "discard", "discarder": 0}, {"draw": True}],
    )
    assert states[1].dealer == 2
    assert states[1].winds == ("E", "S", "W", "N")
    assert (states[2].hand, states[2].dealer, states[2].round) == (3, 2, "E")
    assert states[2].games_played == 1


def test_state_is_frozen_and_has_the_contract_fields():
    state = replay("fan", [])[0]
    assert state == State(1, "E", 0, ("E", "S", "W", "N"), False, False, None, None)
    with pytest.raises(AttributeError):
        state.dealer = 1  # type: ignore[misc]
    assert set(state.as_dict()) >= {"hand", "round", "dealer", "winds", "goulash", "over"}
    assert state.as_dict()["winds"] == ["E", "S", "W", "N"]
    assert state.seated == (0, 1, 2, 3)


# --- a worked sequence per rule set, from its seed ---------------------------------------


def test_u3a_worked_match_from_seed_004():
    # "If the Dealer wins (Mahjongs) — Dealer keeps the dice and toss again.  No wind
    #  positions change from the previous hand."
    # "If another Player wins — Dealer passes the dice to the player on their right who now
    #  becomes the Dealer (East) and tosses the dice."
    # "No winner — no wind positions change from the previous hand.  Dealer keeps the dice
    #  and tosses again for an extra game of “goulash/Chop Suey hand”"
    # "Regardless of who wins the Goulash hand, the Dealer passes the dice to the player on
    #  their right for the next game."
    # "On rare occasions, the Goulash game may end without a winner.  In this case, the
    #  players can play another Goulash hand."
    # "The East (1st) Round is completed when all four players have been Dealer (East)."
    outcomes = [
        wall(0),  # dealer 0 wins: keeps the deal
        DRAW,  # goulash next, same dealer
        DRAW,  # goulash without a winner: another goulash
        wall(0),  # goulash won, even by the dealer: the deal passes
        discard(3, 1),  # chair 3 wins, dealer 1 did not: passes to 2
        discard(2, 0),  # dealer 2 wins: keeps it
        wall(1),  # passes to 3
        wall(0),  # passes back to chair 0: the East round is over
    ]
    states = replay("u3a", outcomes)
    assert rows(states) == [
        (1, "E", 0, winds("E S W N"), False, False),
        (2, "E", 0, winds("E S W N"), False, False),
        (3, "E", 0, winds("E S W N"), True, False),
        (4, "E", 0, winds("E S W N"), True, False),
        (5, "E", 1, winds("N E S W"), False, False),
        (6, "E", 2, winds("W N E S"), False, False),
        (7, "E", 2, winds("W N E S"), False, False),
        (8, "E", 3, winds("S W N E"), False, False),
        (9, "S", 0, winds("E S W N"), False, False),
    ]


def test_u3a_match_is_four_rounds():
    # "A Match consists of four Rounds ... finally North (4th) Round completes the match."
    passes = [wall((hand % 4 + 1) % 4) for hand in range(16)]
    states = replay("u3a", passes)
    assert [s.round for s in states[:-1]] == [w for w in WINDS for _ in range(4)]
    assert states[-1].over and states[-1].round is None and states[-1].dealer is None
    assert states[-1].winds is None


def test_hk_worked_match_from_seed_002():
    # "At the end of a hand (unless it was a tie), the East position moves to the player to
    #  the current East's right, and that player goes first."
    # "If a hand ends in a tie, just reshuffle the tiles, rebuild the walls, and play
    #  another hand."
    # "Once every player has been East, the round wind changes to South"
    states = replay("hk", [wall(0), DRAW, discard(3, 2), wall(1), wall(3), wall(2)])
    assert rows(states) == [
        (1, "E", 0, winds("E S W N"), False, False),
        (2, "E", 1, winds("N E S W"), False, False),
        (3, "E", 1, winds("N E S W"), False, False),  # the tie is replayed, same East
        (4, "E", 2, winds("W N E S"), False, False),  # whoever won, the deal passes
        (5, "E", 3, winds("S W N E"), False, False),
        (6, "S", 0, winds("E S W N"), False, False),
        (7, "S", 1, winds("N E S W"), False, False),
    ]


def test_hk_ends_when_a_player_runs_out_of_points():
    # "It also ends immediately if any player runs out of points completely."
    hand1 = {**discard(1, 0), "tallies": [436, 564, 500, 500]}
    hand2 = {**wall(2), "tallies": [0, 500, 772, 228]}
    states = replay("hk", [hand1, hand2])
    assert not states[1].over
    assert states[2].over and states[2].round is None
    with pytest.raises(FlowError, match="already over"):
        replay("hk", [hand1, hand2, DRAW])


def test_hk_tally_below_zero_on_a_draw_record_ends_too():
    states = replay("hk", [{"draw": True, "tallies": [-8, 300, 400, 500]}])
    assert states[1].over


def test_hk_ends_after_the_agreed_rounds():
    # "A game usually ends after 1-4 rounds (depending on how long a game people want)."
    states = replay("hk", [wall(0), wall(1), wall(2), wall(3)], options={"rounds": 1})
    assert states[-1].over and not states[-2].over
    states = replay("hk", [wall(0)] * 8, options={"rounds": 2})
    assert [s.round for s in states] == ["E"] * 4 + ["S"] * 4 + [None]


def test_fan_worked_match_from_seed_003():
    # "If no one declares Mahjong → the hand is a draw."
    # "Deal passes East → South → West → North."
    states = replay("fan", [wall(0), DRAW, discard(0, 2), DRAW, wall(1)])
    assert rows(states) == [
        (1, "E", 0, winds("E S W N"), False, False),
        (2, "E", 1, winds("N E S W"), False, False),
        (3, "E", 2, winds("W N E S"), False, False),  # a draw passes the deal too
        (4, "E", 3, winds("S W N E"), False, False),
        (5, "S", 0, winds("E S W N"), False, False),
        (6, "S", 1, winds("N E S W"), False, False),
    ]


def test_fan_default_match_is_four_rounds_of_hands():
    states = replay("fan", [DRAW] * 16)
    assert states[-1].over and not states[-2].over
    with pytest.raises(FlowError, match="Hand 17 cannot be recorded"):
        replay("fan", [DRAW] * 17)


def test_classical_worked_match_from_seed_000():
    # "Whoever won the last game is now the dealer. The Personal Winds given to the players
    #  don’t change."
    # "Next 4x games the Prevailing Wind is South" (and West, North after each further four)
    outcomes = [discard(1, 0), DRAW, wall(3), wall(3), discard(0, 2)]
    outcomes += [wall(2)] * 12  # sixteen games in all
    states = replay("classical", outcomes)
    fixed = winds("E S W N")
    assert all(s.winds == fixed for s in states[:-1])
    assert [s.dealer for s in states[:6]] == [0, 1, 1, 3, 3, 0]
    assert [s.games_played for s in states[:6]] == [0, 1, 1, 2, 3, 4]
    assert [s.round for s in states[:6]] == ["E", "E", "E", "E", "E", "S"]
    assert [s.round for s in states[5:17]] == ["S"] * 4 + ["W"] * 4 + ["N"] * 4
    assert states[-1].over and states[-1].games_played == 16
    assert len(states) == 18  # seventeen hands: sixteen games and one replayed draw


def test_classical_five_players_dreamer_from_seed_000():
    # "When the player who is East Wind doesn’t go Mahjong they retire, the Winds rotate and
    #  the incoming player becomes North Wind."
    states = replay("classical", [wall(0), DRAW, discard(3, 1), wall(1)], players=5)
    assert [(s.dealer, s.winds, s.sitting_out, s.games_played) for s in states] == [
        (0, winds("E S W N -"), 4, 0),
        (0, winds("E S W N -"), 4, 1),  # East won: keeps the deal
        (0, winds("E S W N -"), 4, 1),  # a draw is replayed, nothing moves, no game
        (1, winds("- E S W N"), 0, 2),  # East lost: retires, the Dreamer is North
        (1, winds("- E S W N"), 0, 3),  # chair 1 won as East
    ]


# --- tables of three, four and five, every rule set -------------------------------------


@pytest.mark.parametrize(
    ("players", "first", "second"),
    [
        (3, "E S W", "W E S"),
        (4, "E S W N", "N E S W"),
        (5, "E S W N -", "- E S W N"),
    ],
)
@pytest.mark.parametrize("rules", ["u3a", "hk", "fan"])
def test_rotating_rules_at_every_table_size(rules, players, first, second):
    # Each hand won by the chair after the dealer: the deal passes under every rule set.
    outcomes = [wall((hand + 1) % players) for hand in range(4 * players)]
    states = replay(rules, outcomes, players=players)
    assert states[0].winds == winds(first)
    assert states[1].winds == winds(second)
    assert [s.dealer for s in states[: players + 1]] == [*range(players), 0]
    # The East round ends once every chair has dealt, then South, West, North.
    assert [s.round for s in states[:-1]] == [w for w in WINDS for _ in range(players)]
    assert states[-1].over and not states[-2].over
    if players == 5:
        assert [s.sitting_out for s in states[:6]] == [4, 0, 1, 2, 3, 4]
    else:
        assert all(s.sitting_out is None for s in states)


@pytest.mark.parametrize(
    ("players", "fixed"),
    [(3, "E S W"), (4, "E S W N")],
)
def test_classical_three_and_four_players_keep_their_winds(players, fixed):
    # seed 000, "for 3 Players": "The players choose from three Winds, which must include
    # East"; the winner deals, winds stay.
    states = replay("classical", [wall(players - 1), DRAW, wall(1)] + [wall(0)] * 14, players)
    assert all(s.winds == winds(fixed) for s in states[:-1])
    assert [s.dealer for s in states[:4]] == [0, players - 1, players - 1, 1]
    assert all(s.sitting_out is None for s in states)
    assert states[-1].over and states[-1].games_played == 16


def test_classical_five_players_full_match():
    # Dealer wins, then the next chair wins: East keeps the deal once, then retires.
    outcomes = [wall(chair % 5) for chair in range(1, 9) for _ in range(2)]
    outcomes = [wall(0)] + outcomes[:15]
    states = replay("classical", outcomes, players=5)
    assert [s.dealer for s in states[:6]] == [0, 0, 1, 1, 2, 2]
    assert [s.sitting_out for s in states[:6]] == [4, 4, 0, 0, 1, 1]
    assert [s.round for s in states[:-1]] == [w for w in WINDS for _ in range(4)]
    assert states[-1].over


def test_u3a_three_player_goulash():
    states = replay("u3a", [DRAW, wall(1), wall(1)], players=3)
    assert [(s.dealer, s.goulash, s.winds) for s in states] == [
        (0, False, winds("E S W")),
        (0, True, winds("E S W")),
        (1, False, winds("W E S")),  # the goulash winner was not the dealer; passes anyway
        (1, False, winds("W E S")),  # chair 1 won as dealer: keeps the deal
    ]


def test_u3a_five_player_goulash_keeps_the_dreamer_out():
    states = replay("u3a", [wall(3), DRAW, wall(1)], players=5)
    assert [(s.dealer, s.sitting_out, s.goulash) for s in states] == [
        (0, 4, False),
        (1, 0, False),
        (1, 0, True),
        (2, 1, False),
    ]


# --- every FlowError ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: replay("mcr", []), "Unknown rule set 'mcr'"),
        (lambda: replay(None, []), "Unknown rule set None"),
        (lambda: replay("u3a", [], players=2), "3 to 5 players, not 2"),
        (lambda: replay("u3a", [], players=6), "3 to 5 players, not 6"),
        (lambda: replay("u3a", [], players="4"), "3 to 5 players, not '4'"),
        (lambda: replay("u3a", [], players=True), "3 to 5 players, not True"),
        (lambda: replay("u3a", [], options={"rounds": 2}), "Unknown option 'rounds' for u3a"),
        (lambda: replay("classical", [], options={"limit": 1}), "Unknown option 'limit'"),
        (lambda: replay("hk", [], options={"round": 2}), r"Unknown option 'round' .*rounds"),
        (lambda: replay("hk", [], options=[("rounds", 2)]), "options must be names"),
        (lambda: replay("hk", [], options={"rounds": 0}), "from 1 to 4.*not 0"),
        (lambda: replay("fan", [], options={"rounds": 5}), "from 1 to 4.*not 5"),
        (lambda: replay("fan", [], options={"rounds": "2"}), "whole number"),
        (lambda: replay("hk", [], options={"rounds": 2.0}), "whole number"),
    ],
)
def test_bad_settings(call, message):
    with pytest.raises(FlowError, match=message):
        call()


@pytest.mark.parametrize(
    ("outcome", "message"),
    [
        ("E won", "Hand 2: an outcome must say who won"),
        (None, "must say who won"),
        ({"winner": 4, "won_by": "wall"}, "winner must be one of the chairs 0 to 3 .*not 4"),
        ({"winner": -1, "won_by": "wall"}, "chairs 0 to 3 .*not -1"),
        ({"winner": "1", "won_by": "wall"}, "not '1'"),
        ({"winner": True, "won_by": "wall"}, "not True"),
        ({"winner": 1.0, "won_by": "wall"}, "not 1.0"),
        (discard(1, 7), "discarder must be one of the chairs 0 to 3 .*not 7"),
        (discard(2, 2), "chair 2 cannot both win and be the discarder"),
        ({"winner": 1, "won_by": "discard", "discarder": None}, "discard needs the chair"),
        ({"winner": 1, "won_by": "discard"}, "discard needs the chair"),
        ({"winner": 1, "won_by": "robbing_kong"}, "robbed kong needs the chair"),
        ({"winner": 1, "won_by": "wall", "discarder": 0}, "from the wall is self-drawn"),
        ({"winner": 1, "won_by": "replacement", "discarder": 0}, "from the kong box"),
        ({"winner": 1, "won_by": "self"}, "won_by must be one of wall, replacement"),
        ({"winner": 1, "won_by": None}, "won_by must be one of .*not None"),
        ({"winner": 1}, "does not say how the hand was won"),
        ({"won_by": "wall"}, "does not say the winner"),
        ({}, "does not say the winner"),
        ({**wall(1), "points": 3}, "unknown field 'points'"),
        ({"won_by": "wall", "who": 1}, "unknown field 'who'"),
        ({"draw": True, "note": "x"}, "unknown field 'note'"),
        ({"draw": False}, '"draw" can only be true'),
        ({"draw": 1}, '"draw" can only be true'),
        ({"draw": True, "winner": 1}, "either a win or a draw, not both"),
        ({**wall(1), "tallies": [500, 500, 500, 500]}, "tallies are only recorded with the hk"),
        ({"draw": True, "tallies": [1, 2, 3, 4]}, "only recorded with the hk rules, not u3a"),
        ({**wall(1), "\u202ex": 1}, r"unknown field '\\u202ex'"),
    ],
)
def test_bad_outcomes(outcome, message):
    with pytest.raises(FlowError, match=message):
        replay("u3a", [wall(0), outcome])


@pytest.mark.parametrize(
    ("tallies", "message"),
    [
        ([500, 500, 500], "list of 4 numbers, one for each chair"),
        ([500, 500, 500, 500, 500], "list of 4 numbers"),
        ("500", "list of 4 numbers"),
        ([500, "500", 500, 500], "chair 1's tally must be a number, not '500'"),
        ([500, 500, None, 500], "chair 2's tally must be a number"),
        ([500, 500, 500, float("nan")], "chair 3's tally must be a number"),
        ([True, 500, 500, 500], "chair 0's tally must be a number"),
    ],
)
def test_bad_hk_tallies(tallies, message):
    with pytest.raises(FlowError, match=message):
        replay("hk", [{**wall(1), "tallies": tallies}])


def test_hk_tallies_at_a_table_of_five_include_the_dreamer():
    states = replay("hk", [{**wall(1), "tallies": [500, 564, 468, 468, 500]}], players=5)
    assert not states[-1].over
    with pytest.raises(FlowError, match="list of 5 numbers"):
        replay("hk", [{**wall(1), "tallies": [500, 564, 468, 468]}], players=5)


@pytest.mark.parametrize("rules", RULES)
def test_sitting_out_chair_cannot_win_or_discard(rules):
    with pytest.raises(FlowError, match="Hand 1: chair 4 is sitting out this hand, .*winner"):
        replay(rules, [wall(4)], players=5)
    with pytest.raises(FlowError, match="Hand 1: chair 4 is sitting out .*the discarder"):
        replay(rules, [discard(1, 4)], players=5)
    # Once the deal passes, chair 0 dreams and chair 4 is back.
    assert replay(rules, [wall(3)], players=5)[1].sitting_out == 0
    replay(rules, [wall(3), discard(4, 1)], players=5)
    with pytest.raises(FlowError, match="Hand 2: chair 0 is sitting out"):
        replay(rules, [wall(3), discard(0, 1)], players=5)


@pytest.mark.parametrize("rules", RULES)
def test_outcome_after_the_match_is_over(rules):
    # Every hand won by the next chair: the deal passes (or the game counts) each time.
    outcomes = [wall((hand + 1) % 4) for hand in range(40)]
    states = replay(rules, outcomes[:16])
    assert states[-1].over and not states[-2].over
    with pytest.raises(FlowError, match="Hand 17 cannot be recorded: the match is already over"):
        replay(rules, outcomes[:17])


def test_errors_are_value_errors():
    assert issubclass(FlowError, ValueError)


# --- properties over random outcome sequences -------------------------------------------

WON_BY = ["wall", "replacement", "discard", "robbing_kong"]

step = st.tuples(
    st.integers(0, 9),  # 0-2: a draw, else a win
    st.integers(0, 4),  # which seated chair wins
    st.integers(0, 3),  # which other seated chair discards
    st.sampled_from(WON_BY),
    st.one_of(st.none(), st.integers(-50, 1000)),  # hk: the lowest tally after the hand
)


def build(rules, players, options, steps):
    """Valid outcomes from random choices, stopping at the end of the match."""
    outcomes = []
    state = replay(rules, [], players, options)[-1]
    for kind, win_pick, discard_pick, won_by, low_tally in steps:
        if state.over:
            break
        seated = state.seated
        if kind < 3:
            outcome = {"draw": True}
        else:
            winner = seated[win_pick % len(seated)]
            others = [chair for chair in seated if chair != winner]
            discarder = others[discard_pick % len(others)] if won_by in WON_BY[2:] else None
            outcome = {"winner": winner, "won_by": won_by, "discarder": discarder}
        if rules == "hk" and low_tally is not None:
            outcome["tallies"] = [low_tally] + [500] * (players - 1)
        outcomes.append(outcome)
        state = replay(rules, outcomes, players, options)[-1]
    return outcomes


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("rules", RULES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rounds=st.integers(1, 4),
    steps=st.lists(step, max_size=90),
)
def test_flow_properties(rules, players, rounds, steps):
    options = {"rounds": rounds} if rules in ("hk", "fan") else None
    outcomes = build(rules, players, options, steps)
    states = replay(rules, outcomes, players, options)

    assert len(states) == len(outcomes) + 1
    assert [s.hand for s in states] == list(range(1, len(outcomes) + 2))

    # Once over, the match stays over: only the last state may be over, and more raises.
    assert not any(s.over for s in states[:-1])
    if states[-1].over:
        last = states[-1]
        assert (last.round, last.dealer, last.winds, last.goulash) == (None, None, None, False)
        with pytest.raises(FlowError, match="already over"):
            replay(rules, [*outcomes, {"draw": True}], players, options)

    playing = [s for s in states if not s.over]
    wind_count = min(players, 4)
    rotating = not (rules == "classical" and players < 5)
    for s in playing:
        # Exactly one dealer, seated, and (where winds follow the deal) East.
        assert s.dealer in s.seated
        if rotating:
            assert s.winds[s.dealer] == "E"
            assert s.winds.count("E") == 1
        else:
            assert s.winds == WINDS[:players]
        seated_winds = [w for w in s.winds if w is not None]
        assert sorted(seated_winds, key=WINDS.index) == list(WINDS[:wind_count])
        if players == 5:
            assert s.sitting_out is not None and s.winds[s.sitting_out] is None
            assert s.winds.count(None) == 1
            assert s.sitting_out == (s.dealer - 1) % 5
        else:
            assert s.sitting_out is None and None not in s.winds

    # The round only moves forward.
    round_order = [WINDS.index(s.round) for s in playing]
    assert round_order == sorted(round_order)

    for i, outcome in enumerate(outcomes):
        before, after = states[i], states[i + 1]
        if rules == "classical":
            wins = sum("winner" in o for o in outcomes[: i + 1])
            assert after.games_played == wins
            if not after.over:
                assert after.round == WINDS[wins // 4]
        else:
            assert after.games_played is None
        # u3a: a goulash hand only follows a draw (a plain or goulash one).
        if rules == "u3a":
            assert after.goulash == (not after.over and "draw" in outcome)
        else:
            assert not after.goulash
        if "draw" in outcome and rules != "fan" and not after.over:
            assert (after.dealer, after.winds, after.round) == (
                before.dealer,
                before.winds,
                before.round,
            )
        if rules == "fan" and not after.over:
            assert after.dealer == (before.dealer + 1) % players
