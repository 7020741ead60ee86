"""How many tables of which size for a head count."""

from __future__ import annotations

from typing import Literal

from .errors import SeatingError

Prefer = Literal["five", "three"]
PREFER_CHOICES: tuple[Prefer, ...] = ("five", "three")


def table_sizes(n: int, prefer: Prefer = "five") -> list[int]:
    """Split ``n`` present players into tables of 3, 4 or 5 (never 1 or 2).

    As many tables of four as possible, using only the odd size the club prefers:

    * ``prefer="five"``: ``n % 4`` tables of five (a Dreamer sits out in turn), the rest
      fours.  When there are too few players for that (n = 6, 7, 11) tables of three are
      used instead: 6 -> [3, 3], 7 -> [4, 3], 11 -> [4, 4, 3].
    * ``prefer="three"``: ``(4 - n % 4) % 4`` tables of three, the rest fours.  When there
      are too few players for that (n = 5) one table of five: 5 -> [5].

    The fours come first, then the odd tables, so table numbers 1, 2, ... are fours.
    ``n < 3`` raises :class:`SeatingError` (no table can be formed).
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise SeatingError(f"The number of players must be a whole number, not {n!r}.")
    if prefer not in PREFER_CHOICES:
        raise SeatingError(
            f"The preferred odd table size must be 'five' or 'three', not {prefer!r}."
        )
    if n < 3:
        raise SeatingError(f"{n} players cannot make a table: a table needs at least 3 players.")
    fives = n % 4 if prefer == "five" else 0
    threes = (4 - n % 4) % 4 if prefer == "three" else 0
    if 5 * fives > n:  # too few for the fives: fall back to threes
        fives, threes = 0, (4 - n % 4) % 4
    if 3 * threes > n:  # too few for the threes (only n == 5): one five
        fives, threes = n % 4, 0
    fours = (n - 5 * fives - 3 * threes) // 4
    sizes = [4] * fours + [5] * fives + [3] * threes
    assert sum(sizes) == n and all(3 <= s <= 5 for s in sizes)
    return sizes
