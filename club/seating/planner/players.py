"""The people the planner seats: an id it compares, a name its messages use, beginner or not."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass

from .errors import SeatingError

PlayerId = Hashable


@dataclass(frozen=True, slots=True)
class Player:
    """A present member: any hashable id (the Django pk, say), the name the planner's messages
    use for them, and whether they are a beginner."""

    id: PlayerId
    beginner: bool = False
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or str(self.id)


def as_players(players: Iterable[Player | PlayerId]) -> tuple[Player, ...]:
    """Accept :class:`Player` objects or bare ids (not beginners); reject duplicates."""
    result = []
    seen: set[PlayerId] = set()
    for p in players:
        player = p if isinstance(p, Player) else Player(p)
        if player.id in seen:
            raise SeatingError(f"{player.label} is listed twice among the present players.")
        seen.add(player.id)
        result.append(player)
    return tuple(result)


class Names(dict):
    """Players' names for messages, by id; an id not listed reads as itself."""

    def __missing__(self, player_id: PlayerId) -> str:
        return str(player_id)


def names_of(players: Iterable[Player]) -> Names:
    return Names((p.id, p.label) for p in players)
