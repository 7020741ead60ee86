"""The command line: JSON Lines in, one JSON line out per line in, in order.

python -m scoring.engine --rules RULESET [--option KEY=VALUE ...] < hands.jsonl
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import select
import sys
from collections import deque
from collections.abc import Iterator

from .errors import EngineError, escape_text
from .hand import parse_hand
from .result import error_json, result_json
from .rulesets import RULESET_NAMES, RuleSet, get_ruleset

# One input line may not exceed this; longer lines are answered with an error and skipped
# without being held in memory.
MAX_LINE_BYTES = 1 << 20
READ_CHUNK = 1 << 16
# Inputs arriving in chunks of at least this many lines are scored by several processes.
PARALLEL_MIN_LINES = 100

EXAMPLE_HAND = (
    '{"tiles": "b1 b2 b3 c5 c5 c5 d7 d8 d9 dr dr", '
    '"melds": [{"tiles": "ww ww ww", "concealed": false}], '
    '"winning_tile": "d9", "won_by": "discard", "discarder": "N", '
    '"seat_wind": "S", "prevailing_wind": "E", "bonus": "f2 s3"}'
)

DESCRIPTION = """\
Score Mahjong hands. Reads JSON Lines on standard input, one hand per line, and
writes exactly one JSON line per input line to standard output, in the same order.
"""

EPILOG = f"""\
input line (one hand, a JSON object):
  tiles            concealed tiles incl. the winning tile, e.g. "b1 b2 b3 dr dr" (required)
  melds            declared sets: [{{"tiles": "ww ww ww", "concealed": false}}, ...];
                   "concealed": true only for a declared concealed kong (default [])
  winning_tile     the tile that completed the hand; must be among tiles (required)
  won_by           wall | replacement | discard | robbing_kong (required)
  discarder        seat (E S W N) who discarded / whose kong was robbed
                   (required for discard and robbing_kong, absent otherwise)
  seat_wind        the winner's seat, E S W N (required)
  prevailing_wind  the round's wind, E S W N (required)
  dealer           the dealer's seat (default E)
  bonus            flowers and seasons laid out, e.g. "f2 s3" (default "")
  last_tile        won with the last tile of the wall / its discard (default false)
  first_turn       heavenly or earthly hand (default false)
  options          rule-set options for this hand only; they override --option

tile codes (case-insensitive): b1-b9 bamboo, c1-c9 characters, d1-d9 dots,
  we ws ww wn winds, dr dg dw dragons, f1-f4 flowers, s1-s4 seasons.

output line:
  {{"ok": true, "rules": ..., "total": ..., "limit": ..., "allowed": ...,
   "breakdown": [{{"name": ..., "points"|"doublings"|"faan"|"fan": ...}}, ...],
   "payments": {{"E": ..., "S": ..., "W": ..., "N": ...}}}}
  or, for a line that is not a legal winning hand (bad JSON, a blank line, an
  invalid or incomplete hand, a bad option in the hand):
  {{"ok": false, "rules": ..., "error": "a sentence naming the problem"}}
  Blank lines are answered with such an error line too, so line N of the output
  always answers line N of the input. Lines over {MAX_LINE_BYTES // (1 << 20)} MB are refused the same way.

exit status:
  0  every input line was read and answered (even if some lines are errors)
  2  bad usage: unknown rule set, unknown --option name, bad --option value

large inputs are scored by --workers processes (default: one per CPU), answers still
in input order; answers are flushed whenever the input pauses, so a program may write
a line and wait for its answer. Profiling? Use --workers 1.

example:
  echo '{EXAMPLE_HAND}' \\
    | python -m scoring.engine --rules classical --option limit=1000
"""


def _ruleset_help() -> str:
    lines = ["rule sets and their options (KEY=default):"]
    for name in RULESET_NAMES:
        try:
            ruleset = get_ruleset(name)
            options = " ".join(f"{k}={_show(v)}" for k, v in ruleset.option_defaults.items())
            lines.append(f"  {name:<10} {ruleset.title}")
            lines.append(f"  {'':<10} options: {options or 'none'}")
        except Exception as error:  # help must work even if one rule set is broken
            lines.append(f"  {name:<10} (cannot be loaded: {error})")
    return "\n".join(lines)


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    pass


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m scoring.engine",
        usage="%(prog)s --rules RULESET [--option KEY=VALUE ...] < hands.jsonl",
        description=DESCRIPTION,
        formatter_class=_HelpFormatter,
        allow_abbrev=False,
    )
    parser.add_argument(
        "--rules",
        required=True,
        metavar="RULESET",
        help=f"the rule set: {', '.join(RULESET_NAMES)}",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        metavar="N",
        help="processes scoring large inputs in parallel (default 0: one per CPU; "
        "1: score in this process only); answers stay in input order",
    )
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="set a rule-set option for every hand (repeatable), e.g. limit=1000, "
        "min_faan=3, max_faan=10, min_points=3; true/false for yes/no options",
    )
    return parser


def _parse_option_args(parser: argparse.ArgumentParser, pairs: list[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            parser.error(f"--option needs KEY=VALUE, e.g. --option limit=1000, not {pair!r}.")
        options[key] = value.strip()
    return options


def main(argv: list[str] | None = None, stdin=None, stdout=None) -> int:
    """Run the command line; returns the exit status. stdin/stdout are binary streams."""
    parser = _parser()
    if argv is None:
        argv = sys.argv[1:]
    if any(a in ("-h", "--help") for a in argv):
        parser.epilog = EPILOG + "\n" + _ruleset_help()
    args = parser.parse_args(argv)
    options = _parse_option_args(parser, args.option)
    try:
        ruleset = get_ruleset(args.rules)
        if options:
            ruleset = ruleset.with_overrides(options=options)
    except EngineError as error:
        parser.error(str(error))
    if args.workers < 0:
        parser.error(f"--workers must be 0 (one per CPU) or more, not {args.workers}.")
    workers = args.workers or default_workers()
    if stdin is None:
        stdin = sys.stdin.buffer
    if stdout is None:
        stdout = sys.stdout.buffer
    try:
        run(ruleset, stdin, stdout, workers)
    except KeyboardInterrupt:
        return 130  # stopped by the user: no traceback
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly. Pointing stdout at /dev/null
        # keeps the interpreter's final flush from printing a traceback.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 0


def answer_line(ruleset: RuleSet, line: bytes, number: int) -> str:
    """The output line (without newline) for one input line."""
    name = ruleset.name
    try:
        data = _loads(line)
    except ValueError as error:
        if not line.strip():
            message = f"Line {number} is blank; each line must hold one hand as a JSON object."
        elif isinstance(error, json.JSONDecodeError):
            message = f"Line {number} is not valid JSON ({error.msg} at column {error.colno})."
        else:  # e.g. bytes that are not UTF-8
            message = f"Line {number} is not valid JSON text ({error})."
        return error_json(name, message)
    except RecursionError:
        return error_json(name, f"Line {number} is nested too deeply to be a hand.")
    try:
        return result_json(ruleset.score(parse_hand(data)))
    except EngineError as error:
        return error_json(name, str(error))
    except Exception as error:  # a bug must not stop the stream or hide the other lines
        return _internal_error(ruleset, number, error)


def _internal_error(ruleset: RuleSet, number: int, error: Exception) -> str:
    # The exception's text may repeat the user's input: escaped and cut short like any echo.
    detail = escape_text(str(error))
    if len(detail) > 200:
        detail = detail[:197] + "..."
    return error_json(
        ruleset.name,
        f"Internal error while scoring line {number} ({type(error).__name__}: {detail}); "
        "please report this hand.",
    )


# The C scanner behind JSONDecoder.raw_decode, called directly (one Python frame less).
_scan_once = json.JSONDecoder().scan_once


def _loads(line: bytes) -> object:
    """json.loads for one UTF-8 line, without encoding detection and regex passes."""
    text = line.decode().strip()
    try:
        data, end = _scan_once(text, 0)
    except StopIteration:
        return json.loads(text)  # the same error, with json's own position and wording
    if end != len(text):
        return json.loads(text)  # "Extra data" error
    return data


def _answer_block(ruleset: RuleSet, first_number: int, block: bytes | None) -> bytes:
    """Output bytes for a block of whole input lines (None: one line that was too long).

    Blocks stay raw bytes until here, so a worker process splits, decodes and scores its
    own lines and the parent only moves bytes.
    """
    if block is None:
        return _too_long(ruleset, first_number).encode() + b"\n"
    lines = block.split(b"\n")
    if not lines[-1]:
        lines.pop()  # the block's final newline
    out = []
    number = first_number
    for line in lines:
        try:
            out.append(answer_line(ruleset, line, number))
        except Exception as error:  # whatever one line holds, the others are still answered
            out.append(_internal_error(ruleset, number, error))
        number += 1
    out.append("")
    # Answers hold no lone surrogates (messages escape what users sent); should one slip
    # through, it is written as the JSON escape \udxxx instead of failing the whole block.
    return "\n".join(out).encode("utf-8", "backslashreplace")


def _blocks(stdin) -> Iterator[tuple[int, bytes | None]]:
    """(number of the first line, block) for each chunk read; memory stays bounded.

    A block is whole lines, each ending in a newline except perhaps the input's last line;
    None stands for one line over MAX_LINE_BYTES, whose bytes were dropped while reading.
    """
    read = getattr(stdin, "read1", None) or stdin.read
    pending = b""
    skipping = False  # inside an over-long line, dropping its bytes
    number = 1
    while True:
        chunk = read(READ_CHUNK)
        if not chunk:
            break
        data = pending + chunk
        end = data.rfind(b"\n") + 1
        if end:
            block = data[:end]
            pending = data[end:]
            if skipping:  # the over-long line ends at the first newline
                yield number, None
                number += 1
                block = block[block.find(b"\n") + 1 :]
                skipping = False
            if block:
                if len(block) > MAX_LINE_BYTES:
                    # Only a block this big can hold a line over the limit that arrived
                    # with its newline (the read check below only sees unfinished lines).
                    yield from _split_long_lines(number, block)
                else:
                    yield number, block
                number += block.count(b"\n")
        else:
            pending = data
        if len(pending) > MAX_LINE_BYTES:
            pending = b""
            skipping = True
    if skipping:
        yield number, None
    elif pending:  # a last line without a final newline is still a line
        yield number, pending


def _split_long_lines(number: int, block: bytes) -> Iterator[tuple[int, bytes | None]]:
    """`block` as (first line number, lines) runs, with None for each line whose bytes
    before the newline are more than MAX_LINE_BYTES."""
    start = 0  # of the line being looked at
    run = 0  # start of the lines not yet yielded
    size = len(block)
    while start < size:
        end = block.find(b"\n", start)
        if end == -1:
            end = size
        if end - start > MAX_LINE_BYTES:
            if run < start:
                yield number, block[run:start]
                number += block.count(b"\n", run, start)
            yield number, None
            number += 1
            run = end + 1
        start = end + 1
    if run < size:
        yield number, block[run:]


def _may_block(stream) -> bool:
    """True when reading `stream` now might wait for the writer."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return False  # in-memory streams never wait
    try:
        return not select.select([fd], [], [], 0)[0]
    except (OSError, ValueError):
        return True


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


# Set in the parent before forking the workers, which inherit it.
_worker_ruleset: RuleSet | None = None


def _worker_block(first_number: int, block: bytes | None) -> bytes:
    assert _worker_ruleset is not None
    return _answer_block(_worker_ruleset, first_number, block)


def _start_pool(ruleset: RuleSet, workers: int):
    """Forked worker processes, or None where fork is not available.

    concurrent.futures rather than multiprocessing.Pool: if a worker dies, the futures
    fail (BrokenProcessPool) instead of waiting for ever.
    """
    global _worker_ruleset
    import multiprocessing  # only big inputs pay for these imports
    from concurrent.futures import ProcessPoolExecutor

    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    _worker_ruleset = ruleset
    try:
        return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
    except OSError:
        return None


def run(ruleset: RuleSet, stdin, stdout, workers: int = 1) -> None:
    """Answer every line of `stdin` in order, streaming: memory stays flat however long
    the input.

    Input is read in chunks of whatever is available. The next read only waits once every
    answer so far is written and flushed, so a program that writes some lines and waits
    for their answers is never stuck behind a buffer.

    With workers > 1, once a chunk of PARALLEL_MIN_LINES or more arrives, chunks are
    scored by that many forked processes (at most two chunks each in flight), answers
    still written in input order. If a worker dies, its chunks are answered here.
    """
    write = stdout.write
    flush = stdout.flush
    pool = None
    wait_for = None  # concurrent.futures.wait, imported with the pool
    in_flight: deque = deque()  # (first_number, block, future), oldest first

    def write_oldest() -> None:
        nonlocal pool
        first, block, future = in_flight.popleft()
        data = None
        if pool is not None:
            try:
                data = future.result()
            except Exception:  # a worker died: stop using the pool
                pool.shutdown(wait=False, cancel_futures=True)
                pool = None
        if data is None:
            data = _answer_block(ruleset, first, block)
        write(data)

    try:
        blocks = _blocks(stdin)
        while True:
            # Never wait for input with answers held back: while the input is not there
            # yet, write answers as they finish (and stop waiting once it arrives).
            while in_flight and _may_block(stdin):
                if pool is not None:
                    wait_for([in_flight[0][2]], timeout=0.005)
                while in_flight and (pool is None or in_flight[0][2].done()):
                    write_oldest()
                flush()
            item = next(blocks, None)
            if item is None:
                break
            first, block = item
            if (
                pool is None
                and workers > 1
                and not in_flight
                and block is not None
                and block.count(b"\n") >= PARALLEL_MIN_LINES
            ):
                pool = _start_pool(ruleset, workers)
                if pool is not None:
                    from concurrent.futures import wait as wait_for
            if pool is None:
                while in_flight:
                    write_oldest()
                write(_answer_block(ruleset, first, block))
                flush()
                continue
            in_flight.append((first, block, pool.submit(_worker_block, first, block)))
            while len(in_flight) > 2 * workers:
                write_oldest()
        while in_flight:
            write_oldest()
        flush()
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _too_long(ruleset: RuleSet, number: int) -> str:
    return error_json(
        ruleset.name,
        f"Line {number} is longer than {MAX_LINE_BYTES // (1 << 20)} MB; "
        "a hand is one short JSON object.",
    )
