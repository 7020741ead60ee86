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
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import cli, get_ruleset, score_json
from scoring.engine.errors import EngineError, escape_text, quote_input
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


# -- odd input: every line answered, user text echoed safely -------------------------------

# Characters that must never reach an error message raw: they hide or reorder text on a
# screen (bidi overrides and isolates), end or corrupt lines (controls, separators), or
# cannot be written as UTF-8 at all (lone surrogates).
UNSAFE = [
    "\ud800",
    "\udfff",
    "\x00",
    "\x1b",
    "\x7f",
    "\x85",
    "\u2028",
    "\u2029",
    "\u200e",
    "\u200f",
    "\ufeff",
    *map(chr, range(0x202A, 0x202F)),
    *map(chr, range(0x2066, 0x206A)),
]


def safe_text(text: str) -> bool:
    return text.isprintable()


def test_unsafe_characters_are_all_refused_by_isprintable():
    # The quoting helper relies on str.isprintable(); this pins what it refuses.
    assert not any(ch.isprintable() for ch in UNSAFE)


@pytest.mark.parametrize("ch", UNSAFE, ids=lambda ch: f"U+{ord(ch):04X}")
def test_quote_input_escapes_unsafe_characters(ch):
    shown = quote_input(f"b1{ch}b2")
    assert safe_text(shown)
    assert shown == "'b1" + repr(ch)[1:-1] + "b2'"
    shown.encode()  # writable as UTF-8


def test_quote_input_keeps_printable_text_and_escapes_backslashes():
    assert quote_input("b1") == "'b1'"
    assert quote_input("thé 中 🀄") == "'thé 中 🀄'"
    # The user's own backslash is shown escaped, so it cannot pass for one of our escapes.
    assert quote_input("\\u202e") == "'\\\\u202e'"
    assert quote_input("x" * 100) == "'" + "x" * 60 + "...'"
    assert quote_input(["\u202e", {"k\ud800": None}]) == "['\\u202e', {'k\\ud800': None}]"
    assert quote_input(3) == "3" and quote_input(None) == "None"
    assert len(quote_input(list(range(1000)))) == 60
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert quote_input(deep) == "a deeply nested list"


def test_escape_text_leaves_safe_text_alone():
    assert escape_text("Meld 'ww ww ww'") == "Meld 'ww ww ww'"
    assert escape_text("a\u202eb\ud800") == "a\\u202eb\\ud800"


ODD_FIELDS = [
    {"tiles": "b1 \ud800 b2"},
    {"tiles": "\x00"},
    {"tiles": "b1 b2 \u202eb3\u202c"},
    {"winning_tile": "\u2066d9"},
    {"winning_tile": ["\ud800"]},
    {"melds": [{"tiles": "ww\x1cww ww", "concealed": True}]},  # \x1c splits like a space
    {"melds": [{"tiles": "ww ww \u202ewn"}]},
    {"melds": [{"tiles": "b1 b2 b4\x85"}]},
    {"melds": [{"tiles": "ww ww ww", "concealed": "\ud800"}]},
    {"melds": [{"tiles": "ww ww ww", "\u202e": 1}]},
    {"seat_wind": "E\u202e"},
    {"discarder": "\ud800"},
    {"won_by": "wall\x00"},
    {"bonus": "f1 \u2067s2"},
    {"options": {"\ud800limit": 1}},
    {"\u202eextra": 1},
]


@pytest.mark.parametrize("change", ODD_FIELDS, ids=lambda c: repr(c)[:40])
def test_odd_text_in_any_field_is_echoed_escaped(change):
    hand = dict(EXAMPLE, **change)
    answers = run_lines([json.dumps(hand), json.dumps(EXAMPLE)])
    assert len(answers) == 2 and answers[1]["ok"]
    assert answers[0]["ok"] is False
    assert safe_text(answers[0]["error"]), answers[0]["error"]


def test_parse_errors_name_the_escaped_text():
    answers = run_lines([json.dumps(dict(EXAMPLE, tiles="b1 \ud800 b2"))])
    assert answers[0]["error"].startswith("Tile '\\ud800' in 'tiles' is not a tile code")
    answers = run_lines(
        [json.dumps(dict(EXAMPLE, melds=[{"tiles": "ww\x1cww ww", "concealed": True}]))]
    )
    assert answers[0]["error"].startswith("Meld 'ww\\x1cww ww' is marked concealed")


class Echoes(Toy):
    """A rule set with a bug whose exception repeats raw text, and an item name that
    cannot be written as UTF-8: the stream must survive both."""

    def score_reading(self, hand, reading, opts):
        if hand.seat_wind == "W":
            raise RuntimeError("bad \u202e\ud800\n text")
        result = super().score_reading(hand, reading, opts)
        if hand.seat_wind == "N":
            return Result(
                self.name,
                result.total,
                result.limit,
                result.allowed,
                (Item("Base \ud800", points=result.total),),
                result.payments,
            )
        return result


@pytest.mark.parametrize("workers", [1, 2])
def test_a_line_that_breaks_the_rule_set_or_the_encoding_loses_no_other_line(workers):
    hands = [dict(EXAMPLE, seat_wind=seat, discarder="E") for seat in "SWNS"] * 50
    data = b"".join(json.dumps(h).encode() + b"\n" for h in hands)
    out = io.BytesIO()
    cli.run(Echoes(), io.BytesIO(data), out, workers=workers)
    lines = out.getvalue().decode("utf-8").splitlines()  # strict: valid UTF-8 throughout
    answers = [json.loads(line) for line in lines]
    assert len(answers) == 200
    for hand, answer in zip(hands, answers, strict=True):
        if hand["seat_wind"] == "W":
            assert answer["error"].startswith("Internal error while scoring line")
            assert "RuntimeError: bad \\u202e\\ud800\\n text" in answer["error"]
            assert safe_text(answer["error"])
        elif hand["seat_wind"] == "N":
            # The safety net writes the JSON escape; the answer still round-trips.
            assert answer["ok"] and answer["breakdown"][0]["name"] == "Base \ud800"
        else:
            assert answer == score_json(hand, TOY)


def test_line_limit_is_exact_for_lines_that_arrive_whole(monkeypatch):
    # Reads larger than the limit bring whole over-long lines, newline included.
    monkeypatch.setattr(cli, "MAX_LINE_BYTES", 1000)
    monkeypatch.setattr(cli, "READ_CHUNK", 1 << 16)
    good = json.dumps(EXAMPLE)
    exact = good[:-1] + " " * (1000 - len(good)) + "}"
    over = exact + " "
    answers = run_lines([exact, over, good, over, over, exact])
    assert [a["ok"] for a in answers] == [True, False, True, False, False, True]
    assert [a["error"][:8] for a in answers if not a["ok"]] == ["Line 2 i", "Line 4 i", "Line 5 i"]


def padded_hand(size: int) -> bytes:
    """The contract's example hand as one line of exactly `size` bytes."""
    text = cli.EXAMPLE_HAND.encode()
    return text[:-1] + b" " * (size - len(text)) + b"}"


def odd_block(n: int = 5000) -> tuple[list[bytes], dict[int, str]]:
    """n input lines, mostly real hands, with odd lines spread through; the expected
    answer kind for each odd line by index."""
    lines = [json.dumps(h).encode() for h in random_hands(n, seed=21)]
    odd = {
        3: (rb'{"tiles": "\ud800"}', "error"),  # the line: a lone surrogate
        140: (b'{"tiles": "\xed\xa0\x80"}', "error"),  # a surrogate as raw bytes: not UTF-8
        777: (b'{"tiles": "b1\x00"}', "error"),  # raw NUL: not JSON
        1201: (rb'{"tiles": "b1 \u0000 b2"}', "error"),  # NUL as an escape
        1800: ('{"tiles": "b1 \u202eb2"}'.encode(), "error"),  # bidi override, raw
        2372: (rb'{"tiles": "b1 \u2066b2\u2069"}', "error"),  # bidi isolates, escaped
        2900: (b"\xff\xfe{\x80}", "error"),  # invalid UTF-8
        3333: (padded_hand(cli.MAX_LINE_BYTES), "ok"),  # exactly 1 MB: scored
        3334: (padded_hand(cli.MAX_LINE_BYTES + 1), "too long"),  # one byte over
        4100: (
            rb'{"tiles": "x", "melds": [{"tiles": "ww\u001cww ww", "concealed": true}]}',
            "error",
        ),
        4999: (rb'{"tiles": "\udfff\ud800"}', "error"),
    }
    for index, (line, _) in odd.items():
        lines[index] = line
    return lines, {index: kind for index, (_, kind) in odd.items()}


@pytest.mark.parametrize("workers", [["--workers", "1"], []], ids=["one process", "default"])
def test_process_answers_every_line_of_a_block_with_odd_lines(workers):
    ruleset = get_ruleset("classical")
    lines, odd = odd_block()
    done = engine("--rules", "classical", *workers, input=b"\n".join(lines) + b"\n")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr == b""
    out = done.stdout.decode("utf-8").splitlines()  # strict UTF-8
    assert len(out) == 5000
    answers = [json.loads(line) for line in out]
    for index, answer in enumerate(answers):
        kind = odd.get(index)
        if kind is None:
            assert answer == score_json(json.loads(lines[index]), ruleset), index
        elif kind == "ok":
            assert answer == score_json(EXAMPLE, ruleset)
        elif kind == "too long":
            assert answer["error"].startswith(f"Line {index + 1} is longer than 1 MB")
        else:
            assert answer["ok"] is False and safe_text(answer["error"]), (index, answer)
    assert "\\ud800" in answers[3]["error"]


@settings(max_examples=200, deadline=None)
@given(st.text(st.characters(exclude_categories=()), max_size=20))
def test_any_text_in_a_hand_gives_a_printable_message(text):
    for field in ("tiles", "winning_tile", "seat_wind", "bonus"):
        answer = score_json(dict(EXAMPLE, **{field: text}), TOY)
        if not answer["ok"]:
            assert safe_text(answer["error"]), answer["error"]
    melds = [{"tiles": text, "concealed": True}]
    answer = score_json(dict(EXAMPLE, melds=melds), TOY)
    assert answer["ok"] or safe_text(answer["error"])
