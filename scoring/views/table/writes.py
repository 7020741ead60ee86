"""The one view every quick-entry write at the table goes through, and the shape of the
description it runs (`TableWrite`: the write's form, its recording function, its words).

The view does what every write needs, in this order: who may record and whether the evening
was ended (`table_view`), a page from a match the table has since replaced, the form, the
one transaction of scoring/recording.py, a write sent twice with the same key, a refusal or
conflict, and the table page (or a redirect) saying what was saved. The writes themselves
are described in quick_entry.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.views.decorators.http import require_POST

from scoring import recording
from scoring.views.table.page import (
    Sent,
    after_write,
    already_sent,
    recorder,
    sent_key,
    table_changed,
    table_page,
    table_view,
)


def refused(request, match, form, error: recording.RecordingError):
    """A write refused: beside Save, "conflict" when another device recorded it first."""
    outcome = "conflict" if isinstance(error, recording.AlreadyRecorded) else "refused"
    return table_page(request, match, refusal=str(error), outcome=outcome)


def invalid_number(request, match, form):
    """A hand-numbered form refused: the hand number is its only entry, so say what was
    wrong with it."""
    refusal = " ".join(form.non_field_errors()) or "Nothing was recorded: please try again."
    return table_page(request, match, refusal=refusal, outcome="refused")


@dataclass(frozen=True)
class TableWrite:
    """One write at the table, described:

    - `form(request, match)`: the posted form;
    - `record(match, form, by=, table_key=, sent_key=)`: the recording function's call,
      returning what it saved (recording.Saved);
    - `saved(match, form, saved)`: the words for "saved";
    - `not_saved(request, match)`: what it was, in words, when the evening had ended (Sent);
    - `invalid` and `refused`: the answers to a form that does not validate and to a
      RecordingError (the same form again, another device first, not possible now);
    - `check`: the answer to "Check" (the win's payments, nothing saved), if it has one;
    - `answer_at`: where the answer shows, "win" (beside Save) or "kong"."""

    name: str
    form: Callable
    record: Callable
    saved: Callable[..., str]
    not_saved: Callable[..., Sent]
    invalid: Callable = invalid_number
    refused: Callable = refused
    check: Callable | None = None
    answer_at: str = "win"


def table_write(write: TableWrite):
    """The view that runs `write`."""

    def view(request, match):
        if changed := table_changed(request, match):
            return changed
        form = write.form(request, match)
        if not form.is_valid():
            return write.invalid(request, match, form)
        if write.check and request.POST.get("action") == "check":
            return write.check(request, match, form)
        try:
            saved = write.record(match, form, **recorder(request), sent_key=sent_key(request))
        except recording.AlreadySent:
            return already_sent(request, match, answer_at=write.answer_at)
        except recording.RecordingError as error:
            return write.refused(request, match, form, error)
        at = {"answer_at": write.answer_at} if write.answer_at != "win" else {}
        return after_write(request, match, write.saved(match, form, saved), saved, **at)

    view.__name__ = view.__qualname__ = write.name
    return table_view(write=True, sent=write.not_saved)(require_POST(view))
