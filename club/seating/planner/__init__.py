"""History-aware random seating for club sessions (plain Python, no Django).

Typical use::

    import random
    from club.seating.planner import Player, plan_seating, swap, reroll, lock

    seating = plan_seating(
        [Player(1, name="Margaret"), Player(2, beginner=True, name="Brian"), ...],
        history=[[[1, 2, 3, 4], [5, 6, 7, 8]], ...],   # this season, oldest first
        prefer="five", spread_beginners=True,
        never_together=[(3, 9)], fixed_tables={7: 1},
        rng=random.Random(seed),
    )
    seating.tables      # Table(number, chairs=(PlannedSeat(player_id, Wind.EAST, throws), ...))
    seating.quality     # repeats this week / last week / weighted cost, each with its bound

Coordinator actions return a new :class:`Seating`: :func:`reroll` (keeps locked tables),
:func:`lock` / :func:`unlock`, :func:`swap`; after publishing, :func:`add_late_arrival` and
:func:`remove_leaver` change one table without reshuffling the room.  Store
``seating.as_session()`` in the history once the session is played.  Messages name players
by :attr:`Player.name`.

Modules: ``players`` and ``rules`` (the input), ``sizes`` (table sizes), ``winds`` (dice
roll and chairs), ``history`` (pair weights), ``optimiser`` (the search), ``bounds``
(unavoidable minimum), ``quality`` (measuring a seating), ``planning`` (from input to a
seating), ``tables`` (the result), ``adjust`` (coordinator changes).
"""

from .adjust import (
    LateArrival,
    Leaver,
    Move,
    Option,
    add_late_arrival,
    last_week_pairs_made,
    lock,
    remove_leaver,
    suggest_swap,
    swap,
    unlock,
)
from .errors import SeatingError
from .history import Weights, meeting_ages, pair_weights
from .planning import plan_seating, reroll, seating_from_tables
from .players import Player
from .quality import Quality, evaluate
from .rules import SeatingRules
from .sizes import table_sizes
from .tables import Seating, Table
from .winds import PlannedSeat, Wind, roll_winds

__all__ = [
    "PlannedSeat",
    "LateArrival",
    "Leaver",
    "Move",
    "Option",
    "Player",
    "Quality",
    "Seating",
    "SeatingError",
    "SeatingRules",
    "Table",
    "Weights",
    "Wind",
    "add_late_arrival",
    "evaluate",
    "last_week_pairs_made",
    "lock",
    "meeting_ages",
    "pair_weights",
    "plan_seating",
    "remove_leaver",
    "reroll",
    "roll_winds",
    "seating_from_tables",
    "suggest_swap",
    "swap",
    "table_sizes",
    "unlock",
]
