"""The command line, per the contract: one answer per line, in order; exit codes; --help."""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.engine import cli, get_ruleset, score_json
from scoring.engine.errors import EngineError
from scoring.engine.random_hands import random_hands
from scoring.engine.result import Item, Result
from scoring.engine.rulesets.base import RuleSet, settle

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = json.loads(cli.EXAMPLE_HAND)


class Toy(RuleSet):
    """A rule set of our own, so these tests do not depend on any real table."""

    name = "toy"
    title = "Toy rules"
    option_defaults = {"limit": 100, "bonus_each": 1}
    value_defaults = {}

    def score_reading(self, hand, reading, opts):
        if hand.prevailing_wind == "N" and hand.seat_wind == "N" and hand.dealer == "N":
            raise ZeroDivisionError("a bug in a rule set")
        total = min(opts["limit"], 10 + opts["bonus_each"] * len(hand.bonus))
        owed = {s: total for s in "ESWN" if s != hand.seat_wind}
        return Result(
            self.name,
            total,
            total == opts["limit"],
            True,
            (Item("Base", points=total),),
            settle(hand.seat_wind, owed),
        )


TOY = Toy()


def run_lines(lines: list[str | bytes], ruleset=TOY, raw: bytes | None = None) -> list[dict]:
    data = (
        raw
        if raw is not None
        else b"".join(
            (line if isinstance(line, bytes) else line.encode()) + b"\n" for line in lines
        )
    )
    out = io.BytesIO()
    cli.run(ruleset, io.BytesIO(data), out)
    return [json.loads(line) for line in out.getvalue().decode().splitlines()]


def engine(*args: str, input: bytes = b"", timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring.engine", *args],
        input=input,
        capture_output=True,
        cwd=ROOT,
        timeout=timeout,
    )


# -- lines in, lines out ------------------------------------------------------------------


def test_one_answer_per_line_in_order():
    hands = list(random_hands(300, seed=2))
    answers = run_lines([json.dumps(h) for h in hands])
    assert answers == [score_json(h, TOY) for h in hands]


def test_bad_lines_are_answered_in_place():
    good = json.dumps(EXAMPLE)
    answers = run_lines(
        [
            good,
            "",
            "   ",
            "{not json",
            "[1, 2]",
            json.dumps(dict(EXAMPLE, tiles="b1 b2 b3 c5 c5 c5 c5 c5 d9 dr dr")),
            json.dumps(dict(EXAMPLE, options={"nonsense": 1})),
            good,
        ]
    )
    assert len(answers) == 8
    assert answers[0]["ok"] and answers[7] == answers[0]
    errors = [a["error"] for a in answers[1:7]]
    assert all(not a["ok"] and a["rules"] == "toy" for a in answers[1:7])
    assert errors[0] == "Line 2 is blank; each line must hold one hand as a JSON object."
    assert errors[1].startswith("Line 3 is blank")
    assert errors[2].startswith("Line 4 is not valid JSON (") and "column" in errors[2]
    assert errors[3].startswith("A hand must be a JSON object")
    assert errors[4] == "There are 5 of c5 in this hand; a set has only 4 of each tile."
    assert errors[5].startswith("Unknown option 'nonsense' for the toy rules")


def test_last_line_without_newline_and_crlf_lines():
    good = json.dumps(EXAMPLE).encode()
    answers = run_lines([], raw=good + b"\r\n" + good)
    assert len(answers) == 2 and all(a["ok"] for a in answers)


def test_invalid_utf8_is_an_error_line():
    answers = run_lines([b"\xff\xfe{", json.dumps(EXAMPLE)])
    assert not answers[0]["ok"] and answers[0]["error"].startswith("Line 1 is not valid JSON")
    assert answers[1]["ok"]


def test_deeply_nested_json_is_an_error_line():
    answers = run_lines(["[" * 100_000 + "]" * 100_000, json.dumps(EXAMPLE)])
    assert not answers[0]["ok"] and answers[1]["ok"]


def test_over_long_line_is_refused_without_holding_it(monkeypatch):
    monkeypatch.setattr(cli, "MAX_LINE_BYTES", 1000)
    monkeypatch.setattr(cli, "READ_CHUNK", 256)
    answers = run_lines(["x" * 5000, json.dumps(EXAMPLE), "y" * 5000])
    assert [a["ok"] for a in answers] == [False, True, False]
    assert answers[0]["error"].startswith("Line 1 is longer than")
    assert answers[2]["error"].startswith("Line 3 is longer than")


def test_a_bug_in_a_rule_set_is_an_error_line_not_a_crash():
    buggy = dict(EXAMPLE, prevailing_wind="N", seat_wind="N", dealer="N", discarder="E")
    answers = run_lines([json.dumps(buggy), json.dumps(EXAMPLE)])
    assert answers[0]["error"].startswith("Internal error while scoring line 1 (ZeroDivisionError")
    assert answers[1]["ok"]


def test_hand_options_override_the_command_line_options():
    club = TOY.with_overrides(options={"bonus_each": 5})
    plain, own = run_lines(
        [json.dumps(EXAMPLE), json.dumps(dict(EXAMPLE, options={"bonus_each": 2}))], club
    )
    assert plain["total"] == score_json(EXAMPLE, TOY, {"bonus_each": 5})["total"]
    assert own["total"] == score_json(EXAMPLE, TOY, {"bonus_each": 2})["total"]
    assert plain["total"] != own["total"]


def test_parallel_workers_answer_exactly_like_one_process():
    hands = list(random_hands(2000, seed=12))
    lines = [json.dumps(h).encode() for h in hands]
    lines[5] = b"not json"
    lines[1500] = b""
    data = b"\n".join(lines) + b"\n"
    answers = {}
    for workers in (1, 2):
        out = io.BytesIO()
        cli.run(TOY, io.BytesIO(data), out, workers=workers)
        answers[workers] = out.getvalue()
    assert answers[1] == answers[2]
    assert answers[2].count(b"\n") == 2000


class DiesInWorkers(Toy):
    """Kills any worker process that scores an East-round hand (the parent never dies)."""

    parent = os.getpid()

    def score_reading(self, hand, reading, opts):
        if hand.prevailing_wind == "E" and os.getpid() != self.parent:
            os._exit(1)
        return super().score_reading(hand, reading, opts)


def test_a_dead_worker_does_not_lose_or_hang_lines():
    hands = list(random_hands(600, seed=13))
    data = b"".join(json.dumps(h).encode() + b"\n" for h in hands)
    out = io.BytesIO()
    cli.run(DiesInWorkers(), io.BytesIO(data), out, workers=2)
    expected = io.BytesIO()
    cli.run(DiesInWorkers(), io.BytesIO(data), expected, workers=1)
    assert out.getvalue() == expected.getvalue()
    assert out.getvalue().count(b"\n") == 600


def test_output_is_the_same_json_as_score_json():
    hands = list(random_hands(200, seed=9))
    out = io.BytesIO()
    cli.run(TOY, io.BytesIO(b"".join(json.dumps(h).encode() + b"\n" for h in hands)), out)
    for line, hand in zip(out.getvalue().decode().splitlines(), hands, strict=True):
        assert line == json.dumps(score_json(hand, TOY), ensure_ascii=False)


# -- the real process ---------------------------------------------------------------------


def test_process_scores_the_contract_example_and_exits_zero():
    ruleset = get_ruleset("classical")
    done = engine("--rules", "classical", input=cli.EXAMPLE_HAND.encode() + b"\n\n")
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.decode().splitlines()
    assert json.loads(first) == score_json(EXAMPLE, ruleset)
    assert json.loads(second)["ok"] is False
    assert done.stderr == b""


def test_option_on_the_command_line_applies_to_every_hand():
    ruleset = get_ruleset("classical")
    hands = [h for h in random_hands(200, seed=4)]
    data = b"".join(json.dumps(h).encode() + b"\n" for h in hands)
    done = engine("--rules", "classical", "--option", "limit=40", "--workers", "2", input=data)
    assert done.returncode == 0
    answers = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert answers == [score_json(h, ruleset, {"limit": 40}) for h in hands]
    assert all(a["total"] <= 40 for a in answers if a["ok"])
    assert answers != [score_json(h, ruleset) for h in hands]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "mcr"], "Unknown rule set 'mcr'"),
        ([], "--rules"),
        (["--rules", "classical", "--option", "nonsense=1"], "Unknown option 'nonsense'"),
        (["--rules", "classical", "--option", "limit"], "--option needs KEY=VALUE"),
        (["--rules", "classical", "--option", "=5"], "--option needs KEY=VALUE"),
        (["--rules", "classical", "--option", "limit=lots"], "must be a whole number, not 'lots'"),
        (["--rules", "classical", "--bogus"], "unrecognized arguments"),
        (["--rules", "classical", "--workers", "-1"], "--workers must be 0"),
    ],
)
def test_bad_usage_exits_2_with_a_message(args, message):
    done = engine(*args, input=cli.EXAMPLE_HAND.encode())
    assert done.returncode == 2
    assert message in done.stderr.decode()
    assert done.stdout == b""
    assert b"Traceback" not in done.stderr


def test_help_explains_everything_with_an_example():
    done = engine("--help")
    assert done.returncode == 0
    text = done.stdout.decode()
    for needle in (
        "--rules",
        "--option KEY=VALUE",
        "classical",
        "hk",
        "fan",
        "u3a",
        "winning_tile",
        "won_by",
        "Blank lines",
        "exit status",
        "example:",
        cli.EXAMPLE_HAND,
        "one JSON line per input line",
    ):
        assert needle in text, needle


def test_rule_set_name_is_case_insensitive():
    done = engine("--rules", "Classical", input=cli.EXAMPLE_HAND.encode())
    assert done.returncode == 0 and json.loads(done.stdout)["rules"] == "classical"


def test_streams_each_answer_before_the_next_line_arrives():
    """A program may write one hand, wait for its answer, then write the next."""
    child = subprocess.Popen(
        [sys.executable, "-m", "scoring.engine", "--rules", "classical"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
    )
    try:
        for _ in range(3):
            child.stdin.write(cli.EXAMPLE_HAND.encode() + b"\n")
            child.stdin.flush()
            ready, _, _ = select.select([child.stdout], [], [], 30)
            assert ready, "no answer within 30 s: the CLI is holding its output back"
            line = child.stdout.readline()
            assert json.loads(line)["ok"]
        child.stdin.close()
        assert child.wait(timeout=30) == 0
    finally:
        child.kill()


def test_closed_output_pipe_is_quiet(tmp_path):
    """`... | head -1`: the reader goes away; no traceback."""
    hands = tmp_path / "hands.jsonl"
    hands.write_bytes((cli.EXAMPLE_HAND + "\n").encode() * 20000)
    done = subprocess.run(
        f"'{sys.executable}' -m scoring.engine --rules classical < '{hands}' | head -n 1",
        shell=True,
        capture_output=True,
        cwd=ROOT,
        timeout=120,
    )
    assert json.loads(done.stdout)["ok"]
    assert b"Traceback" not in done.stderr and b"Error" not in done.stderr


def test_engine_error_is_the_only_bad_input_exception():
    with pytest.raises(EngineError):
        TOY.resolve_options({"limit": "x"})
