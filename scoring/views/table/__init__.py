"""A table's match: the page a table records its hands on and its live scoreboard (the
coordinator's start and end of play are games/play_views.py), one module per job: `page`
(the page, who may see it, the poll, the dice), `quick_entry` (a win, a draw, kong chips,
undo), `full_hand` (a hand worked out from its tiles).

Members record at the table where they are seated while the session is in play;
coordinators at any table. Every write posts the hand number (and match) the page showed,
so a stale or doubled form is refused as "already recorded" instead of counted twice.
Refusals re-render the form with status 200 (htmx 2 swaps no 4xx) and the entries kept.
"""

from scoring.views.table.full_hand import full_hand
from scoring.views.table.page import poll, table, throw_dice
from scoring.views.table.quick_entry import (
    preview_win,
    record_draw,
    record_kong,
    record_win,
    take_back_kong,
    undo,
)

__all__ = [
    "full_hand",
    "poll",
    "preview_win",
    "record_draw",
    "record_kong",
    "record_win",
    "table",
    "take_back_kong",
    "throw_dice",
    "undo",
]
