"""The club's settings and standing constraints for one session's seating."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .errors import SeatingError
from .history import Weights
from .players import PlayerId
from .sizes import PREFER_CHOICES, Prefer


@dataclass(frozen=True)
class SeatingRules:
    """The club's settings and the standing constraints for one session.

    * ``prefer``: odd table size when the head count does not divide by four ("five" or
      "three"), see :func:`table_sizes`.
    * ``spread_beginners``: spread beginners across tables (a soft goal).
    * ``never_together``: pairs never seated at one table (hard).
    * ``fixed_tables``: ``{player_id: table_number}``, e.g. for mobility (hard).
    * ``weights``: the cost of repeats (see :class:`Weights`).

    Constraints about players who are absent are ignored.
    """

    prefer: Prefer = "five"
    spread_beginners: bool = False
    never_together: tuple[frozenset, ...] = ()
    fixed_tables: Mapping[PlayerId, int] = field(default_factory=dict)
    weights: Weights = field(default_factory=Weights)

    def __post_init__(self) -> None:
        if self.prefer not in PREFER_CHOICES:
            raise SeatingError(
                f"The preferred odd table size must be 'five' or 'three', not {self.prefer!r}."
            )
        pairs = []
        for item in self.never_together:
            ids = tuple(item)
            if len(ids) != 2 or ids[0] == ids[1]:
                raise SeatingError(
                    f"A 'never together' rule needs two different players, not {item!r}."
                )
            pair = frozenset(ids)
            if pair not in pairs:
                pairs.append(pair)
        object.__setattr__(self, "never_together", tuple(pairs))
        fixed = dict(self.fixed_tables)
        for pid, number in fixed.items():
            if isinstance(number, bool) or not isinstance(number, int) or number < 1:
                raise SeatingError(
                    f"Player {pid!r} is fixed to table {number!r}; table numbers are 1, 2, 3, ..."
                )
        object.__setattr__(self, "fixed_tables", MappingProxyType(fixed))

    def apart(self, a: PlayerId, b: PlayerId) -> bool:
        """True if a and b must never sit at one table."""
        return frozenset((a, b)) in self.never_together
