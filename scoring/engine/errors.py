"""The one exception bad input may raise, and how error messages show what the user sent."""

from __future__ import annotations

# How much of a user's value an error message repeats: enough to recognise it, never a flood.
QUOTE_LIMIT = 60


class EngineError(ValueError):
    """Bad input: a hand, option or rule set name that cannot be scored.

    ``str(error)`` is one sentence a club member understands, naming the offending tile,
    meld, field or option.
    """


def escape_text(text: str) -> str:
    """`text` with every character that is not safe to show written as an escape.

    Escaped: control characters (NUL, tabs, newlines, ESC...), format characters (the bidi
    overrides and isolates U+202A-202E and U+2066-2069, zero-width joiners, BOM), lone
    surrogates (which cannot even be written as UTF-8), line and paragraph separators,
    unusual spaces and unassigned code points: exactly what `str.isprintable()` refuses,
    escaped the way `repr` does, and backslashes. Everything printable, accents and CJK
    included, is kept.
    """
    if text.isprintable() and "\\" not in text:
        return text
    # A backslash is escaped too, so the user's own "\\u202e" never passes for an escape.
    return "".join(ch if ch.isprintable() and ch != "\\" else repr(ch)[1:-1] for ch in text)


def _printable(text: str) -> str:
    """Text that is already escaped (a repr): only what is still unprintable is escaped."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


def quote_input(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A value the user sent, for an error message: quoted, escaped, cut short.

    Strings come out as 'text' with unsafe characters escaped (see `escape_text`), other
    values (numbers, lists, objects from the JSON) as their repr, which escapes the
    strings inside them the same way. Long values end in "...".
    """
    if isinstance(value, str):
        shown = escape_text(value[:limit])
        return f"'{shown}'" if len(value) <= limit else f"'{shown}...'"
    try:
        # repr escapes the strings inside lists and objects; escape_text catches any odd
        # repr of a value passed in from Python rather than from JSON.
        text = _printable(repr(value))
    except RecursionError:  # a structure nested past what repr can walk
        return f"a deeply nested {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 3] + "..."
