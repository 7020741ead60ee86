"""How the logged-in member did, for their home page: `{% my_results as how %}`, and the
words for when they last played."""

import datetime

from django import template
from django.utils import timezone
from django.utils.dateformat import format as date_format

from club.lookups import my_member
from scoring.charts import signed
from scoring.standings import member_summary, plain_figure

register = template.Library()


@register.simple_tag(takes_context=True)
def my_results(context):
    """The member's last evening and season place (`standings.member_summary`); None for
    a visitor or a login that is no member's."""
    request = context.get("request")
    if request is None or not request.user.is_authenticated:
        return None
    member = my_member(request)
    if member is None:
        return None
    return member_summary(member, request.club, timezone.localdate())


@register.filter
def when_played(date: datetime.date) -> str:
    """ "Tonight", "Yesterday, Monday 11 November", "Last Tuesday, 12 November", or the
    date in full (with its year when it is not this year's)."""
    today = timezone.localdate()
    days = (today - date).days
    if days == 0:
        return "Tonight"
    if days == 1:
        return "Yesterday, " + date_format(date, "l j F")
    if 1 < days <= 7:  # a weekly club: "last Tuesday" is a week ago on a Tuesday
        return "Last " + date_format(date, "l, j F")
    return date_format(date, "l j F" if date.year == today.year else "l j F Y")


# The compact board's third column: the total, or the figure the board is sorted by.
_FIGURES = {
    "total": lambda row: signed(row.total),
    "average": lambda row: plain_figure(row.average, 1),
    "sessions": lambda row: str(row.sessions),
    "won": lambda row: f"{row.hands_won} of {row.hands_played}",
    "win_rate": lambda row: f"{plain_figure(row.win_rate, 0)}%",
    "points": lambda row: plain_figure(row.points, 1),
    "best": lambda row: "none" if row.best_total is None else str(row.best_total),
}


@register.simple_tag
def compact_column(board) -> tuple[str, str]:
    """(key, heading) of the compact board's third column; the heading carries the rule
    set's unit ("Total (chips)"), as the full table's does."""
    key = board.sort if board.sort in _FIGURES else "total"
    return key, dict(board.columns)[key]


@register.filter
def board_figure(row, key: str) -> str:
    return _FIGURES[key](row)
