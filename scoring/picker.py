"""Building a winning hand tile by tile, as a player thinks, for the tile picker (the
practice page and a table's full-hand entry).

The hand is a list of steps that the picker's form keeps in a hidden input
(scoring/forms/picker.py): every tap posts the steps so far plus the new one, and
`Draft.replay` rebuilds the hand from them, so the server keeps nothing between taps and the
page works without JavaScript (static/js/picker.js only queues the taps made while an answer
is on its way). A step is a tile code ("b3": a tile into the concealed hand, or a flower or
season laid out) or a set declared from tiles already tapped ("pong-b3"; "kong-b3", also the
fourth tile added to an exposed pong; "ckong-b3" for a concealed kong; "chow-c4" for c4 c5
c6). The form's *Undo the last tap* replays all the steps but the last; *Start again* drops
them all.

Also here: how each tile is drawn (`FACES`, laid out in `ROWS`), the sets the last tap makes
possible (`Draft.offers`), what is wrong with the tile count or a robbed kong in a player's
words, the hand in the engine's contract for scoring (`Draft.contract`), and the taps that
build a contract hand (`steps_for`, for tests and the bench).

Plain Python, no Django (pyproject.toml's import contract for the pure cores holds it to
that): the form in scoring/forms/picker.py and the views in scoring/views/practice.py and
scoring/views/table/full_hand.py wrap it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from scoring.engine.tiles import BONUS_TILES, CODES, FLOWERS, SEASONS

MAX_STEPS = 40  # 14 tiles + 4 kongs + 8 bonus tiles + 4 declarations, with room to spare
_TILE_BY_CODE = {code: tile for tile, code in enumerate(CODES)}
_MELD_KINDS = ("pong", "kong", "ckong", "chow")

SUIT_WORDS = ("Bamboo", "Characters", "Dots")
SUIT_MARKS = ("竹", "萬", "●")
HONOUR_FACES = (
    ("東", "East wind"),
    ("南", "South wind"),
    ("西", "West wind"),
    ("北", "North wind"),
    ("中", "Red dragon"),
    ("發", "Green dragon"),
    ("白", "White dragon"),
)
FLOWER_FACES = (("梅", "Plum"), ("蘭", "Orchid"), ("菊", "Chrysanthemum"), ("竹", "Bamboo"))
SEASON_FACES = (("春", "Spring"), ("夏", "Summer"), ("秋", "Autumn"), ("冬", "Winter"))


class PickerError(ValueError):
    """A step that cannot be taken; the message is one sentence for the player."""


@dataclass(frozen=True)
class Face:
    """How a tile is drawn on its button: a big character and a text label (never colour
    or picture alone)."""

    code: str
    glyph: str
    number: str  # the suit number drawn large, "" for honours and bonus tiles
    label: str  # "3 Bamboo", "East wind", "Flower 1: Plum"
    kind: str  # CSS family: bamboo, characters, dots, wind, dragon, flower, season

    @property
    def caption(self) -> str:
        """The label as printed on a tile at body-text size: a word too long for a tile
        may break at a soft hyphen ("Chrysan-themum"), which a screen reader never reads."""
        return self.label.replace("Chrysanthemum", "Chrysan\u00adthemum")


def _face(tile: int) -> Face:
    code = CODES[tile]
    if tile < 27:
        suit, number = divmod(tile, 9)
        return Face(
            code,
            SUIT_MARKS[suit],
            str(number + 1),
            f"{number + 1} {SUIT_WORDS[suit]}",
            SUIT_WORDS[suit].lower(),
        )
    if tile < 34:
        glyph, label = HONOUR_FACES[tile - 27]
        return Face(code, glyph, "", label, "wind" if tile < 31 else "dragon")
    if tile in FLOWERS:
        glyph, name = FLOWER_FACES[tile - FLOWERS[0]]
        return Face(code, glyph, "", f"Flower {tile - FLOWERS[0] + 1}: {name}", "flower")
    glyph, name = SEASON_FACES[tile - SEASONS[0]]
    return Face(code, glyph, "", f"Season {tile - SEASONS[0] + 1}: {name}", "season")


FACES: dict[str, Face] = {code: _face(tile) for tile, code in enumerate(CODES)}

# The picker's rows, in the order the players asked for.
ROWS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Bamboo", tuple(CODES[0:9])),
    ("Characters", tuple(CODES[9:18])),
    ("Dots", tuple(CODES[18:27])),
    ("Winds", tuple(CODES[27:31])),
    ("Dragons", tuple(CODES[31:34])),
    ("Flowers", tuple(CODES[34:38])),
    ("Seasons", tuple(CODES[38:42])),
)


@dataclass(frozen=True)
class Meld:
    kind: str  # pong | kong | chow
    tile: int  # lowest tile
    concealed: bool = False

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind == "chow":
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * (4 if self.kind == "kong" else 3)

    @property
    def codes(self) -> str:
        return " ".join(CODES[t] for t in self.tiles)

    @property
    def label(self) -> str:
        name = FACES[CODES[self.tile]].label
        if self.kind == "chow":
            return f"Chow {name} to {FACES[CODES[self.tile + 2]].label}"
        hidden = "Concealed" if self.concealed else "Exposed"
        return f"{hidden} {self.kind} of {name}"


@dataclass(frozen=True)
class Offer:
    """A set the last tap makes possible: one more tap declares it."""

    step: str
    label: str


@dataclass
class Draft:
    """The hand so far, replayed from its steps."""

    steps: list[str] = field(default_factory=list)
    concealed: list[int] = field(default_factory=list)  # in tap order
    melds: list[Meld] = field(default_factory=list)
    bonus: list[int] = field(default_factory=list)
    last_tile: int | None = None  # the last tile tapped into the concealed hand

    # -- replaying steps ------------------------------------------------------------------

    @classmethod
    def from_steps(cls, text: str) -> Draft:
        """Replay `text` (steps separated by spaces); PickerError names the first bad one."""
        draft = cls()
        for step in text.split():
            draft.take(step)
        return draft

    @classmethod
    def replay(cls, text: str) -> tuple[Draft, str]:
        """Replay as many steps as can be taken, and the reason the rest could not ("" when
        all could): a hand is never lost to one bad step."""
        draft = cls()
        for step in text.split():
            try:
                draft.take(step)
            except PickerError as error:
                return draft, str(error)
        return draft, ""

    def take(self, step: str) -> None:
        step = step.strip().lower()
        if len(self.steps) >= MAX_STEPS:
            raise PickerError("That is more tiles than any hand holds: undo or start again.")
        kind, _, code = step.rpartition("-")
        tile = _TILE_BY_CODE.get(code)
        if tile is None or kind not in ("", *_MELD_KINDS):
            raise PickerError("That tap was not a tile the picker knows: tap a tile below.")
        if kind:
            self._declare(kind, tile)
        elif tile in BONUS_TILES:
            if tile in self.bonus:
                raise PickerError(f"{FACES[code].label} is already laid out; there is only one.")
            self.bonus.append(tile)
        else:
            if self.used(tile) >= 4:
                raise PickerError(f"All four {FACES[code].label} are already in the hand.")
            self.concealed.append(tile)
            self.last_tile = tile
        self.steps.append(step)

    def _declare(self, kind: str, tile: int) -> None:
        label = FACES[CODES[tile]].label
        held = Counter(self.concealed)
        if kind == "chow":
            if tile >= 27 or tile % 9 > 6:
                raise PickerError(f"A chow is three tiles in a row of one suit, from {label}.")
            if any(held[t] < 1 for t in (tile, tile + 1, tile + 2)):
                raise PickerError("Tap the three tiles of the chow first, then declare it.")
            new = Meld("chow", tile)
            taken = [tile, tile + 1, tile + 2]
        elif kind == "kong" and held[tile] >= 1 and Meld("pong", tile) in self.melds:
            # The fourth tile added to an exposed pong.
            self.melds[self.melds.index(Meld("pong", tile))] = Meld("kong", tile)
            self._remove([tile])
            return
        else:
            need = 3 if kind == "pong" else 4
            if held[tile] < need:
                what = "concealed kong" if kind == "ckong" else kind
                raise PickerError(f"Tap {label} {need} times first, then declare the {what}.")
            new = Meld("kong" if kind == "ckong" else kind, tile, concealed=kind == "ckong")
            taken = [tile] * need
        self._remove(taken)
        self.melds.append(new)

    def _remove(self, tiles: list[int]) -> None:
        for tile in tiles:
            # The latest copy goes, so the tiles tapped before stay in tap order.
            index = len(self.concealed) - 1 - self.concealed[::-1].index(tile)
            del self.concealed[index]
        self.last_tile = self.concealed[-1] if self.concealed else None

    # -- what the picker shows ------------------------------------------------------------

    def used(self, tile: int) -> int:
        """Copies of `tile` in the hand: concealed and in declared sets."""
        return self.concealed.count(tile) + sum(m.tiles.count(tile) for m in self.melds)

    def used_up(self) -> set[str]:
        """Codes of the tiles that can be tapped no more (four used, or the bonus tile laid)."""
        counts = Counter(self.concealed)
        for meld in self.melds:
            counts.update(meld.tiles)
        gone = {CODES[t] for t, n in counts.items() if n >= 4}
        return gone | {CODES[t] for t in self.bonus}

    def offers(self) -> list[Offer]:
        """The sets the last tile tapped completes: a third copy offers a pong, a fourth a
        kong (exposed or concealed), a tile added to an exposed pong a kong, a run a chow."""
        tile = self.last_tile
        if tile is None:
            return []
        label = FACES[CODES[tile]].label
        held = Counter(self.concealed)
        offers = []
        if held[tile] == 3:
            offers.append(Offer(f"pong-{CODES[tile]}", f"Pong of {label}"))
        if held[tile] == 4:
            offers.append(Offer(f"kong-{CODES[tile]}", f"Exposed kong of {label}"))
            offers.append(Offer(f"ckong-{CODES[tile]}", f"Concealed kong of {label}"))
        if Meld("pong", tile) in self.melds:
            offers.append(Offer(f"kong-{CODES[tile]}", f"Add it to the pong: kong of {label}"))
        if tile < 27:
            number = tile % 9
            for low in range(max(tile - 2, tile - number), min(tile, tile - number + 6) + 1):
                if all(held[t] for t in (low, low + 1, low + 2)):
                    meld = Meld("chow", low)
                    offers.append(Offer(f"chow-{CODES[low]}", meld.label))
        return offers

    def hand_faces(self) -> list[Face]:
        """The concealed tiles, sorted as a player arranges them."""
        return [FACES[CODES[t]] for t in sorted(self.concealed)]

    def summary_groups(self) -> list[list[Face]]:
        """Every tile of the hand, small, for the summary kept in view: the concealed tiles,
        each declared set, then the flowers and seasons."""
        groups = [self.hand_faces()] if self.concealed else []
        groups += [[FACES[CODES[t]] for t in meld.tiles] for meld in self.melds]
        return groups + ([self.bonus_faces()] if self.bonus else [])

    def bonus_faces(self) -> list[Face]:
        return [FACES[CODES[t]] for t in sorted(self.bonus)]

    def winning_choices(self) -> list[Face]:
        return [FACES[CODES[t]] for t in sorted(set(self.concealed))]

    def winning_tile(self, chosen: str | None) -> str | None:
        """The tile marked as winning if it is in the concealed hand, else the last tapped."""
        if chosen and _TILE_BY_CODE.get(chosen) in self.concealed:
            return chosen
        return CODES[self.last_tile] if self.last_tile is not None else None

    @property
    def is_empty(self) -> bool:
        return not self.steps

    @property
    def tile_count(self) -> int:
        return len(self.concealed) + sum(len(m.tiles) for m in self.melds)

    @property
    def tiles_needed(self) -> int:
        """The tiles a winning hand of these sets has: 14, and one more per declared kong
        (flowers and seasons aside)."""
        return 14 + sum(1 for m in self.melds if m.kind == "kong")

    def hand_words(self) -> str:
        """The concealed tiles in words, by suit: "Bamboo 1, 2, 3; Red dragon ×2"."""
        groups: list[str] = []
        for title, codes in ROWS[:3]:
            numbers = [FACES[CODES[t]].number for t in sorted(self.concealed) if CODES[t] in codes]
            if numbers:
                groups.append(f"{title} {', '.join(numbers)}")
        for tile, count in sorted(Counter(t for t in self.concealed if t >= 27).items()):
            groups.append(FACES[CODES[tile]].label + (f" ×{count}" if count > 1 else ""))
        return "; ".join(groups)

    def count_problem(self) -> tuple[int, str]:
        """(tiles still to tap, what is wrong with the count in a player's words): (0, "")
        when the count is right for a winning hand."""
        have, need = self.tile_count, self.tiles_needed
        kongs = need - 14
        rule = (
            f"a winning hand with {kongs} kong{'s' if kongs > 1 else ''} has {need}"
            if kongs
            else "a winning hand has 14 (one more for each kong)"
        )
        if have < need:
            short = need - have
            return short, (
                f"The hand has {have} tile{'s' if have != 1 else ''}: {rule}. Tap {short} more."
            )
        if have > need:
            held = Counter(self.concealed)
            four = [FACES[CODES[t]].label for t, n in sorted(held.items()) if n == 4]
            hint = (
                f" Four {four[0]} count as a kong only when declared: the button to declare"
                " it shows when the fourth is tapped."
                if four
                else ""
            )
            return 0, (
                f"The hand has {have} tiles: {rule}. "
                f"Undo {have - need} tile{'s' if have - need > 1 else ''}.{hint}"
            )
        return 0, ""

    def robbed_kong_problem(self, winning: str | None) -> str:
        """Robbing a kong: the winning tile came from another player's kong, so the hand
        holds it once only. What is wrong in a player's words, or ""."""
        tile = _TILE_BY_CODE.get(winning or "")
        if tile is None or self.used(tile) == 1:
            return ""
        label = FACES[CODES[tile]].label
        return (
            f"Robbing a kong: the winning tile, {label}, is the one another player added to "
            f"their pong, so the hand holds only one {label}, not {self.used(tile)}. Choose "
            "the tile that completed the hand, or how it was won."
        )

    def contract(self, winning: str | None, **fields) -> dict:
        """The hand in the engine contract's JSON; `fields` are how it was won and the winds."""
        hand = {
            "tiles": " ".join(CODES[t] for t in sorted(self.concealed)),
            "melds": [{"tiles": m.codes, "concealed": m.concealed} for m in self.melds],
            "winning_tile": self.winning_tile(winning) or "",
            "bonus": " ".join(CODES[t] for t in sorted(self.bonus)),
        }
        hand.update(fields)
        return hand

    @property
    def text(self) -> str:
        return " ".join(self.steps)


def steps_for(hand: dict) -> list[str]:
    """The taps that build a contract hand in the picker: its sets' tiles then each
    declaration, the concealed tiles, the bonus tiles. Used by tests and the bench."""
    steps: list[str] = []
    for meld in hand.get("melds", []):
        codes = meld["tiles"].lower().split()
        steps.extend(codes)
        if len(set(codes)) == 3:
            steps.append(f"chow-{min(codes, key=_TILE_BY_CODE.get)}")
        elif len(codes) == 4:
            steps.append(f"{'ckong' if meld.get('concealed') else 'kong'}-{codes[0]}")
        else:
            steps.append(f"pong-{codes[0]}")
    steps.extend(hand["tiles"].lower().split())
    steps.extend(hand.get("bonus", "").lower().split())
    return steps
