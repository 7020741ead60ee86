"""Reading a backup a line at a time: its head, then its rows, refusing lines too long or
nested too deep for a backup."""

from __future__ import annotations

from collections.abc import Iterator

from front.backup.export import _loads, _TooDeep
from front.backup.format import _END, FORMAT, MAX_LINE, READS, BackupRefused


def _refusal(problem: str) -> BackupRefused:
    return BackupRefused(f"{problem} Nothing was imported.")


def _lines(file) -> Iterator[tuple[int, str, bool]]:
    """(line number, text without its line ending, whether the line ended) for each line
    of the binary `file`, refusing a line that is too long or not text before reading
    further."""
    number = 0
    while True:
        raw = file.readline(MAX_LINE + 1)
        if not raw:
            return
        number += 1
        ended = raw.endswith(b"\n")
        if not ended and len(raw) > MAX_LINE:
            raise _refusal(
                f"Line {number} of this file is longer than any line of a club backup "
                f"(over {MAX_LINE // (1024 * 1024)} MB): this is not a club backup, or it "
                "was damaged."
            )
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            if number == 1:
                raise _refusal("This file is not a club backup: it is not JSON text.") from None
            raise _refusal(
                f"Line {number} of this backup is not text (it holds bytes no backup has): "
                "the file was damaged."
            ) from None
        if number == 1:
            text = text.removeprefix("\ufeff")
        yield number, text.rstrip("\r\n"), ended


def _check_head(head) -> None:
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise _refusal(f"This file is not a club backup (its format should be “{FORMAT}”).")
    if head.get("version") not in READS:
        raise _refusal(
            f"This backup is version {head.get('version')!r}, but this app reads versions "
            f"{' and '.join(str(version) for version in READS)} only."
        )


def backup_rows(file) -> Iterator[tuple[int, object]]:
    """(line number, parsed row) for every row of the backup in the binary `file`, after
    checking its first line; refuses a file that is not one, or is cut short."""
    lines = _lines(file)
    first = next(lines, None)
    if first is None:
        raise _refusal("This file is empty: it is not a club backup.")
    _, text, _ = first
    try:
        head = _loads(text + _END)
    except ValueError:
        head = None
    if head is None:
        # A backup written all on one line (by hand, or another tool): small enough to
        # read whole, since its line passed the length limit.
        try:
            whole = _loads(text)
        except _TooDeep as error:
            raise _refusal(str(error)) from None
        except ValueError as error:
            raise _refusal(f"This file is not a club backup: it is not JSON ({error}).") from None
        _check_head(whole)
        data = whole.get("data")
        if not isinstance(data, list):
            raise _refusal("This backup has no list of rows under “data”.")
        if next(lines, None) is not None:
            raise _refusal("This backup goes on after its end (line 1).")
        yield from ((1, row) for row in data)
        return
    _check_head(head)
    if head.get("data") != []:
        raise _refusal("This backup's first line does not end where its rows begin.")
    more = True  # whether a row (or the end) must follow
    number = 1
    rows = 0
    for number, text, ended in lines:
        if text == _END:
            break
        if not text.strip():
            continue
        if not more:
            raise _refusal(
                f"Line {number} of this backup follows the last row (the row before it has "
                "no comma): the file was damaged."
            )
        more = text.endswith(",")
        try:
            row = _loads(text[:-1] if more else text)
        except ValueError as error:
            if not ended:
                raise _refusal(
                    f"This backup stops in the middle of line {number}: the file was cut "
                    "short (copied only in part?)."
                ) from None
            if isinstance(error, _TooDeep):
                raise _refusal(
                    f"Line {number} of this backup is not a row: {error.reason}."
                ) from None
            raise _refusal(f"Line {number} of this backup is not a row of JSON.") from None
        rows += 1
        yield number, row
    else:
        raise _refusal(
            f"This backup ends at line {number} before its last line (“{_END}”): the file "
            "was cut short (copied only in part?)."
        )
    if more and rows:
        raise _refusal(f"The last row of this backup, before line {number}, ends with a comma.")
    for number, text, _ in lines:
        if text.strip():
            raise _refusal(f"Line {number} of this backup comes after its end.")
