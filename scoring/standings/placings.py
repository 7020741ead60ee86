"""Placings: a table's places and each player's shares of 1st..4th place, placing points
as exact fractions, and the half-up rounding every page and CSV shows them with."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from club.models import (
    Club,
)
from scoring.results import MatchResult

PLACES = 4  # placing points are given for 1st to 4th


def _position_shares(position: int, size: int) -> list[Fraction]:
    """How much of each of 1st..4th place the `position`-th (from 1) of `size` players earns.

    The first always earns 1st place and the last 4th place; those between are spread
    evenly (at a table of five the 2nd earns 3/4 of 2nd and 1/4 of 1st), so every table
    shares out the same points on average whether it seats three, four or five."""
    shares = [Fraction(0)] * PLACES
    if size <= 1:
        shares[0] = Fraction(1)
        return shares
    q = Fraction((position - 1) * (PLACES - 1), size - 1)  # 0 = 1st .. 3 = 4th
    low = int(q)
    frac = q - low
    shares[low] += 1 - frac
    if frac:
        shares[low + 1] += frac
    return shares


def placings(results: list[int]) -> list[tuple[int, bool, list[Fraction]]]:
    """For each player's result at one table: their place (tied players share the best
    of the places they cover), whether they tied, and their shares of 1st..4th place
    (tied players share the points of the places they cover), as exact fractions."""
    size = len(results)
    order = sorted(range(size), key=lambda chair: -results[chair])
    out: list[tuple[int, bool, list[Fraction]]] = [(0, False, [])] * size
    start = 0
    while start < size:
        end = start
        while end + 1 < size and results[order[end + 1]] == results[order[start]]:
            end += 1
        positions = range(start + 1, end + 2)
        shares = [Fraction(0)] * PLACES
        for position in positions:
            for place, share in enumerate(_position_shares(position, size)):
                shares[place] += share / len(positions)
        for chair in order[start : end + 1]:
            out[chair] = (start + 1, end > start, shares)
        start = end + 1
    return out


# Every share of a place is a multiple of 1/240 (places spread in quarters at five and
# halves at three, split between up to five tied players), so the stored floats, and their
# sums, read back exactly: placing points are then exact fractions, and a figure exactly
# half-way rounds up, never by float noise.
SHARE_DENOMINATOR = 240


def exact_share(value: float | None) -> Fraction:
    """A stored share of a place (or a sum of them) as the exact fraction it stands for."""
    return Fraction(round((value or 0) * SHARE_DENOMINATOR), SHARE_DENOMINATOR)


def exact_points(club: Club) -> list[Fraction]:
    """The club's placing points as exact numbers (e.g. 3.5 is 7/2, not a float)."""
    return [Fraction(repr(float(p))) for p in club.placing_points_list]


def placing_points(shares, points: list[Fraction]) -> Fraction:
    """Placing points, exactly, for stored shares (or sums of shares) of 1st..4th place."""
    return sum(
        (exact_share(share) * p for share, p in zip(shares, points, strict=True)), Fraction(0)
    )


def shares_of(result: MatchResult) -> tuple:
    return (result.first, result.second, result.third, result.fourth)


def weighted_points(matches: list[tuple[int, Fraction]]) -> Fraction:
    """A member's placing points for one evening from (hands played, placing points) per
    match: each match weighs by its share of their hands, so the evening counts once."""
    hands = sum(played for played, _ in matches)
    if not hands:
        return Fraction(0)
    return sum((played * points for played, points in matches), Fraction(0)) / hands


def rank_rows(rows, key) -> None:
    """Standard competition ranking: equal keys share a rank (1, 2, 2, 4)."""
    previous = None
    for index, row in enumerate(rows, start=1):
        value = key(row)
        if value != previous:
            rank = index
        row.rank = rank
        previous = value


def round_half_up(value, places: int = 2) -> Decimal:
    """`value` (a whole number, a Fraction, a Decimal; a float as the decimal it prints
    as) to `places` decimals, a half rounded away from zero as a spreadsheet's ROUND does:
    0.225 is 0.23 and 0.975 is 0.98, whatever binary floats would make of them."""
    if isinstance(value, float):
        value = Fraction(repr(value))
    scaled = Fraction(value) * 10**places
    whole, rest = divmod(abs(scaled.numerator), scaled.denominator)
    if 2 * rest >= scaled.denominator:
        whole += 1
    return Decimal(-whole if scaled < 0 else whole).scaleb(-places)


def plain_figure(value, places: int = 2) -> str:
    """`round_half_up` as text without trailing zeros: "2.5", "0.23", "4"."""
    text = f"{round_half_up(value, places):f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
