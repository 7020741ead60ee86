"""Match-flow benchmark: how often games.flow.replay() can replay a long match per second.

Run from the repository root:  python bench/flow_bench.py  [--seconds 1.0]

The app replays a match's outcomes on every request, so one replay of a 100-hand match
must stay well under a millisecond. Each rule set replays the longest match its flow
allows up to 100 hands (fan passes the deal every hand, so its matches are short), built
from a fixed seed with every kind of outcome (hk carries tallies on every hand).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.flow import RULES, replay  # noqa: E402

SEED = 20240601
HANDS = 100
TARGET_REPLAYS_PER_SECOND = 2_000  # a 100-hand match, on the 2-core club server


def long_match(rules: str, players: int, rng: random.Random) -> list[dict]:
    """Up to HANDS valid outcomes; a hand that would end the match is swapped for a draw,
    or (fan, where a draw ends it too) the match stops there."""
    outcomes: list[dict] = []
    state = replay(rules, outcomes, players)[-1]
    while len(outcomes) < HANDS:
        seated = state.seated
        if rng.random() < 0.2:
            outcome = {"draw": True}
        else:
            winner = rng.choice(seated)
            won_by = rng.choice(["wall", "replacement", "discard", "robbing_kong"])
            others = [chair for chair in seated if chair != winner]
            discarder = rng.choice(others) if won_by in ("discard", "robbing_kong") else None
            outcome = {"winner": winner, "won_by": won_by, "discarder": discarder}
        if rules == "hk":
            outcome["tallies"] = [rng.randint(1, 1000) for _ in range(players)]
        after = replay(rules, [*outcomes, outcome], players)[-1]
        if after.over:
            outcome = {"draw": True, **({"tallies": outcome["tallies"]} if rules == "hk" else {})}
            after = replay(rules, [*outcomes, outcome], players)[-1]
            if after.over:
                break
        outcomes.append(outcome)
        state = after
    return outcomes


def rate(rules: str, outcomes: list[dict], players: int, seconds: float) -> float:
    replays = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(100):
            replay(rules, outcomes, players)
        replays += 100
    return replays / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per rule set")
    args = parser.parse_args()
    rng = random.Random(SEED)
    print(f"{'rules':<10} {'players':>7} {'hands':>6} {'replays/s':>10} {'us/hand':>8}")
    print("-" * 45)
    slowest = None
    for rules in RULES:
        players = 5 if rules == "fan" else 4
        outcomes = long_match(rules, players, rng)
        per_second = rate(rules, outcomes, players, args.seconds)
        per_hand = 1e6 / per_second / max(len(outcomes), 1)
        print(f"{rules:<10} {players:>7} {len(outcomes):>6} {per_second:>10,.0f} {per_hand:>8.2f}")
        if len(outcomes) == HANDS and (slowest is None or per_second < slowest):
            slowest = per_second
    verdict = "meets" if slowest and slowest >= TARGET_REPLAYS_PER_SECOND else "BELOW"
    print(
        f"\nslowest {HANDS}-hand replay {verdict} the target of "
        f"{TARGET_REPLAYS_PER_SECOND:,} replays/s."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
