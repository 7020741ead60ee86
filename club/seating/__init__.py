"""History-aware random seating for club sessions (plain Python, no Django).

Typical use::

    import random
    from club.seating import Player, plan_seating, swap, reroll, lock

    seating = plan_seating(
        [Player(1), Player(2, beginner=True), ...],
        history=[[[1, 2, 3, 4], [5, 6, 7, 8]], ...],   # this season, oldest first
        prefer="five", spread_beginners=True,
        never_together=[(3, 9)], fixed_tables={7: 1},
        rng=random.Random(seed),
    )
    seating.tables      # Table(number, chairs=(WindRoll(player_id, Seat.EAST, throws), ...))
    seating.quality     # repeats this week / last week / weighted cost, each with its bound

Coordinator actions return a new :class:`Seating`: :func:`reroll` (keeps locked tables),
:func:`lock` / :func:`unlock`, :func:`swap`; after publishing, :func:`add_late_arrival` and
:func:`remove_leaver` change one table without reshuffling the room.  Store
``seating.as_session()`` in the history once the session is played.

Modules: ``sizes`` (table sizes), ``winds`` (dice roll), ``history`` (pair weights),
``engine`` (the optimiser), ``bounds`` (unavoidable minimum), ``plan`` (planning and
quality), ``adjust`` (coordinator changes), ``model`` (data classes).
"""

from .adjust import (
    LateArrival,
    Leaver,
    Move,
    Option,
    add_late_arrival,
    lock,
    remove_leaver,
    swap,
    unlock,
)
from .errors import SeatingError
from .history import Weights, meeting_ages, pair_weights
from .model import Player, Quality, Seating, SeatingRules, Table
from .plan import evaluate, plan_seating, reroll, seating_from_tables
from .sizes import table_sizes
from .winds import Seat, WindRoll, roll_winds

__all__ = [
    "LateArrival",
    "Leaver",
    "Move",
    "Option",
    "Player",
    "Quality",
    "Seat",
    "Seating",
    "SeatingError",
    "SeatingRules",
    "Table",
    "Weights",
    "WindRoll",
    "add_late_arrival",
    "evaluate",
    "lock",
    "meeting_ages",
    "pair_weights",
    "plan_seating",
    "remove_leaver",
    "reroll",
    "roll_winds",
    "seating_from_tables",
    "swap",
    "table_sizes",
    "unlock",
]
