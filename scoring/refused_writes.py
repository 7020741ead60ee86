"""Why a table's write is refused: `RecordingError`, one sentence for the table, and the
rules' own refusal of a total or a kong (`TotalRefused`, the engine's words), which is one
of them: scoring/table_rules.py raises it and scoring/recording.py lets it through as it
is, rather than each wrapping the other's sentence again."""

from club.refusals import Refused


class RecordingError(Refused):
    """The hand cannot be recorded; the message is one sentence for the table."""


class TotalRefused(RecordingError):
    """The engine refused the total or outcome; the message is the engine's reason."""
