"""Small filters for results pages: signed tallies and tidy figures."""

from functools import lru_cache

from django import template
from django.urls import get_script_prefix, get_urlconf, reverse

from scoring.charts import signed as _signed
from scoring.results import ordinal as _ordinal
from scoring.rules import hand_unit as _hand_unit
from scoring.rules import rule_set_choices
from scoring.rules import short_name as _short_name
from scoring.rules import tally_unit as _tally_unit
from scoring.standings import plain_figure

register = template.Library()


@register.filter
def signed(value):
    """+120, −80, 0 (a real minus sign, which screen readers say as "minus")."""
    if value is None or value == "":
        return ""
    return _signed(int(value))


@register.filter
def figure(value, places=1):
    """A figure to `places` decimals, a half rounded up (exact, as in the CSVs), without a
    trailing ".0"."""
    if value is None:
        return ""
    return plain_figure(value, int(places))


@register.filter
def ordinal(value):
    return _ordinal(value) if value not in (None, "") else ""


@register.simple_tag
def sort_query(season, column, board):
    """The query string for sorting by `column`: a second tap reverses the order."""
    if board.sort == column:
        direction = "asc" if board.descending else "desc"
    else:
        direction = "asc" if column in ("rank", "name") else "desc"
    rules = f"&rules={board.rules}" if board.split else ""
    return f"?season={season.key}{rules}&sort={column}&dir={direction}"


@register.simple_tag
def rules_query(board, part):
    """The query string for one rule set's standings of the board's season (its sort kept)."""
    direction = "desc" if board.descending else "asc"
    return f"?season={board.season.key}&rules={part.rules}&sort={board.sort}&dir={direction}"


@register.filter
def member_url(member_id):
    """A member's results page. The standings list every member on every view, and
    reversing a URL each time was a sixth of the page's rendering: each is worked out once
    (per URL configuration and prefix, so a site under a sub-path still gets its own)."""
    return _member_url(get_urlconf(), get_script_prefix(), member_id)


@lru_cache(maxsize=4096)
def _member_url(urlconf, prefix: str, member_id) -> str:
    return reverse("scoring:member", args=[member_id], urlconf=urlconf)


_NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


@register.filter
def number_word(value):
    """2 -> "two" (small counts in a sentence), larger as digits."""
    value = int(value)
    return _NUMBER_WORDS[value] if 0 <= value < len(_NUMBER_WORDS) else str(value)


@register.filter
def rows_of(evening, user_id):
    """The (part, row) of each rule set tonight where the logged-in user has a row."""
    if not user_id:
        return []
    return [
        (part, row) for part in evening.parts for row in part.rows if row.member.user_id == user_id
    ]


@register.filter
def rules_name(rules):
    """A rule set's short name: "u3a" -> "U3A"."""
    return _short_name(rules)


@register.filter
def rules_title(rules):
    """A rule set's full title: "classical" -> "Classical points and doublings"."""
    return dict(rule_set_choices()).get(rules, rules)


@register.filter
def tally_unit(rules):
    """What results under a rule set count: "chips" (U3A) or "points"."""
    return _tally_unit(rules)


@register.filter
def hand_unit(rules):
    """What a hand's value under a rule set counts: "points", "faan" or "fan"."""
    return _hand_unit(rules)
