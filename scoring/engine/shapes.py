"""Special (non four-sets-and-a-pair) shapes, recognised from tile counts.

Each function takes the 34 concealed tile counts of a hand with no declared melds
(14 tiles) and says whether the tiles form that shape. `decompose.readings` calls them.
"""

from __future__ import annotations

from .tiles import ORPHANS

SHAPES = (
    "standard",
    "seven_pairs",
    "thirteen_orphans",
    "double_knitting",
    "triple_knitting",
    "little_snake",
)
SPECIAL_SHAPES = SHAPES[1:]


def is_seven_pairs(counts) -> bool:
    """Seven pairs; four of a kind counts as two pairs (rule sets may refuse that)."""
    return all(c % 2 == 0 for c in counts) and sum(counts) == 14


def is_thirteen_orphans(counts) -> bool:
    """One of each terminal and honour plus one more of any of them."""
    return sum(counts) == 14 and all(counts[t] >= 1 for t in ORPHANS)


def is_double_knitting(counts) -> bool:
    """Seven knitted pairs: each pair is one number in two suits; two suits only, no honours."""
    if sum(counts) != 14 or any(counts[27:34]):
        return False
    used = [s for s in range(3) if any(counts[9 * s : 9 * s + 9])]
    if len(used) != 2:
        return False
    a, b = used[0] * 9, used[1] * 9
    return all(counts[a + n] == counts[b + n] for n in range(9))


def is_triple_knitting(counts) -> bool:
    """Four knitted triples (one number in all three suits) plus a knitted pair (one number in
    two suits); no honours. So every number has equal counts in the three suits except the
    pair's number, where two suits have one more than the third."""
    if sum(counts) != 14 or any(counts[27:34]):
        return False
    pair_numbers = 0
    for n in range(9):
        low, mid, high = sorted((counts[n], counts[9 + n], counts[18 + n]))
        if low == high:
            continue
        if mid == high == low + 1:
            pair_numbers += 1
        else:
            return False
    return pair_numbers == 1


def is_little_snake(counts) -> bool:
    """1 to 9 of one suit plus five different honours, no pair."""
    if sum(counts) != 14 or any(c > 1 for c in counts[27:34]) or sum(counts[27:34]) != 5:
        return False
    for s in range(3):
        block = counts[9 * s : 9 * s + 9]
        if any(block):
            return all(c == 1 for c in block) and sum(counts[:27]) == 9
    return False


def special_shapes(counts) -> list[str]:
    """Names of every special shape these 14 concealed tiles form.

    Most hands are none of them, so cheap C-level totals rule shapes out first: seven pairs
    has at most 7 distinct tiles, thirteen orphans exactly 13, the little snake 14 with 5
    honours; knitting has no honours and suit totals (0, 7, 7) or (4, 5, 5).
    """
    found: list[str] = []
    distinct = len(counts) - counts.count(0)
    honour_count = sum(counts[27:34])
    if distinct <= 7 and is_seven_pairs(counts):
        found.append("seven_pairs")
    if honour_count == 0:
        totals = sorted((sum(counts[0:9]), sum(counts[9:18]), sum(counts[18:27])))
        if totals == [0, 7, 7] and is_double_knitting(counts):
            found.append("double_knitting")
        elif totals == [4, 5, 5] and is_triple_knitting(counts):
            found.append("triple_knitting")
    elif distinct == 13:
        if honour_count >= 7 and is_thirteen_orphans(counts):
            found.append("thirteen_orphans")
    elif distinct == 14 and honour_count == 5 and is_little_snake(counts):
        found.append("little_snake")
    return found
