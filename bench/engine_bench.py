"""Engine benchmark: hands per second through the real command line, and flat memory.

Run from the repository root:  python bench/engine_bench.py  [--hands 20000] [--stream 1000000]

For each rule set in the registry: 20,000 random legal hands (fixed seed) are written to a
temporary JSONL file and piped through `python -m scoring.engine --rules NAME`, timing the
whole process (interpreter start included; the CLI's default worker processes, one per
CPU, included). Best of --repeat runs. Peak memory is the largest process's max RSS.
Hands are drawn only in the shapes the rule set accepts; "errors" must be 0.
"CPU us/hand" is in-process CPU time (time.process_time) of parse_hand + score over the same
hands, best of --repeat: on a shared, busy machine it moves far less than wall-clock rates,
so compare code changes by it (old and new alternately).
The streaming check pipes a million lines generated on the fly (the hands repeated) and
reports peak RSS, which must stay flat: the CLI never holds its input.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from scoring.engine import get_ruleset, parse_hand, score_json  # noqa: E402
from scoring.engine.random_hands import random_hands  # noqa: E402
from scoring.engine.rulesets import RULESET_NAMES  # noqa: E402

SEED = 20240601
TARGET_HANDS_PER_SECOND = 20_000  # for classical, on the 2-core club server


# A fresh, small parent for each measured run. A fork of this (large) bench process would
# pass its own memory high-water mark on to the CLI, so every figure would start from the
# bench's size; a freshly exec'd interpreter reports only what the CLI itself used.
_MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
code = subprocess.call(sys.argv[1:])
seconds = time.perf_counter() - start
peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
sys.stderr.write(f"{seconds} {peak_kb}\\n")
sys.exit(code)
"""


def start_measured(command: list[str], stdin, stdout) -> subprocess.Popen:
    """Start `command` under a small parent that reports its seconds and peak RSS on stderr."""
    return subprocess.Popen(
        [sys.executable, "-c", _MEASURE, *command],
        stdin=stdin,
        stdout=stdout,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )


def measured_figures(stderr: bytes) -> tuple[float, float]:
    """(seconds, peak RSS MB) from the small parent's report."""
    seconds, peak_kb = stderr.decode().split()[-2:]
    return float(seconds), int(peak_kb) / 1024


def _cli(name: str, workers: int = 0) -> list[str]:
    command = [sys.executable, "-m", "scoring.engine", "--rules", name]
    return command + ["--workers", str(workers)] if workers else command


def legal_hand_lines(name: str, count: int) -> list[bytes]:
    """`count` random hands that rule set accepts, as JSON lines (fixed seed).

    Hands are drawn in the rule set's shapes; the few it still refuses (seven pairs made
    with four of a kind, in hk and fan) are not legal hands there and are dropped.
    """
    ruleset = get_ruleset(name)
    lines: list[bytes] = []
    for hand in random_hands(2 * count, SEED, shapes=ruleset.shapes):
        if score_json(hand, ruleset)["ok"]:
            lines.append((json.dumps(hand) + "\n").encode())
            if len(lines) == count:
                return lines
    raise RuntimeError(f"{name}: too few legal hands drawn")


def time_ruleset(name: str, path: Path, count: int, workers: int = 0) -> tuple[float, int, float]:
    """(seconds, errors, peak RSS MB) for one run of the CLI over the file."""
    with open(path, "rb") as source:
        child = start_measured(_cli(name, workers), source, subprocess.PIPE)
        out, err = child.communicate()
    if child.returncode != 0:
        raise RuntimeError(f"{name}: the CLI failed: {err.decode()[-500:]}")
    lines = out.splitlines()
    assert len(lines) == count, f"{name}: {len(lines)} lines out for {count} in"
    errors = sum(1 for line in lines if not json.loads(line)["ok"])
    seconds, peak = measured_figures(err)
    return seconds, errors, peak


def cpu_per_hand(name: str, lines: list[bytes], repeat: int) -> float:
    """In-process CPU microseconds per hand for parse_hand + score, best of `repeat`."""
    ruleset = get_ruleset(name)
    score = ruleset.score
    hands = [json.loads(line) for line in lines]
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        for hand in hands:
            score(parse_hand(hand))
        best = min(best, time.process_time() - start)
    return best / len(hands) * 1e6


def stream_check(name: str, lines: list[bytes], total: int) -> tuple[int, float, float]:
    """Pipe `total` lines (the hands repeated) through the CLI, output to /dev/null."""
    with open(os.devnull, "wb") as sink:
        child = start_measured(_cli(name), subprocess.PIPE, sink)
        block = b"".join(lines)
        sent = 0
        while sent + len(lines) <= total:
            child.stdin.write(block)
            sent += len(lines)
        child.stdin.write(b"".join(lines[: total - sent]))
        child.stdin.close()
        err = child.stderr.read()
        child.wait()
    seconds, peak = measured_figures(err)
    return total, seconds, peak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument(
        "--stream", type=int, default=1_000_000, help="lines for the streaming check (0: skip)"
    )
    parser.add_argument("--rules", nargs="*", help="rule sets to time (default: all)")
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="runs per rule set; the best is reported (the "
        "machine is shared, so the best run is the least disturbed one)",
    )
    args = parser.parse_args()

    names = args.rules or list(RULESET_NAMES)
    print(
        f"engine benchmark: {args.hands:,} random legal hands, seed {SEED}, python {sys.version.split()[0]}"
    )

    print(
        "Hands are drawn in the shapes each rule set accepts (classical has no seven pairs).\n"
        "'1 worker' is one process; 'default' lets the CLI use one worker per CPU."
    )
    print()
    print(
        f"{'rule set':<10} {'hands':>7} {'hands/s 1 worker':>17} {'hands/s default':>16}"
        f" {'errors':>7} {'peak RSS MB':>12} {'CPU us/hand':>12}"
    )
    print("-" * 87)
    rates = {}
    stream_lines: list[bytes] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            lines = legal_hand_lines(name, args.hands)
            if name == "classical" or not stream_lines:
                stream_lines = lines
            path = Path(tmp) / f"{name}.jsonl"
            path.write_bytes(b"".join(lines))
            single = [time_ruleset(name, path, args.hands, 1) for _ in range(args.repeat)]
            pooled = [time_ruleset(name, path, args.hands) for _ in range(args.repeat)]
            single_rate = args.hands / min(r[0] for r in single)
            pooled_rate = args.hands / min(r[0] for r in pooled)
            rates[name] = max(single_rate, pooled_rate)
            errors = single[0][1]
            peak = max(r[2] for r in single + pooled)
            cpu = cpu_per_hand(name, lines, args.repeat)
            print(
                f"{name:<10} {args.hands:>7,} {single_rate:>17,.0f} {pooled_rate:>16,.0f}"
                f" {errors:>7} {peak:>12.1f} {cpu:>12.1f}"
            )
    if "classical" in rates:
        verdict = "meets" if rates["classical"] >= TARGET_HANDS_PER_SECOND else "BELOW"
        print(f"\nclassical {verdict} the target of {TARGET_HANDS_PER_SECOND:,} hands/s.")

    if args.stream and names:
        name = "classical" if "classical" in names else names[0]
        print(f"\nstreaming check ({name}): peak RSS must not grow with the input")
        print(f"{'lines':>10} {'seconds':>8} {'lines/s':>9} {'peak RSS MB':>12}")
        sizes = {min(args.hands, args.stream), min(args.stream, 10 * args.hands), args.stream}
        for total in sorted(sizes):
            sent, seconds, peak = stream_check(name, stream_lines, total)
            print(f"{sent:>10,} {seconds:>8.1f} {sent / seconds:>9,.0f} {peak:>12.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
