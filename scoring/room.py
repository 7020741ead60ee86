"""The room display: tonight's tables on a TV across the hall (read only).

A TV does not scroll, so the page is laid out for the number of tables: `grid(n)` picks
the columns and rows that give the largest type on a 16:9 screen, and each card says how
many lines and characters it must hold, so the stylesheet sizes its type to fit the card
(static/css/room.css). Plain Python apart from the queries in `room_session`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils import timezone

from club.models import Session
from games.models import Match
from scoring.selectors import Board, session_progress

# The part of a 1920x1080 screen below the heading, in pixels (only its shape matters):
# the leaders' column takes 1 part of its width, the tables LEADERS_SHARE[columns] parts
# (room-main-N in room.css), so a few tables leave the leaders more room.
AREA_WIDTH, AREA_HEIGHT = 1860, 880
GAP = 16
LEADERS_SHARE = {1: 1.6, 2: 2.2, 3: 2.7, 4: 3.2, 5: 3.6, 6: 4}
# A card's type must fit `lines` lines of 1.25 em and `chars` characters of about 0.6 em;
# the stylesheet's classes room-lines-N and room-chars-N say the same to the browser.
LINE_EM, CHAR_EM, PAD_EM = 1.25, 0.62, 1.2
# Character widths the stylesheet has a class for: the cards ask for the first that holds
# their longest line. Names count as NAME_CHARS at most (they are up to 40 characters):
# a longer one takes two lines, in smaller type if need be (room-long-N), so one long
# name does not make every card's type small. A figure and the gap before it take
# FIGURE_CHARS.
CHAR_STEPS = (14, 18, 22, 26, 32, 40, 48)
NAME_CHARS, FIGURE_CHARS = 14, 8
LONG_STEPS = (18, 22, 26, 32, 40)
MAX_TABLES_LAID_OUT = 30


def grid(
    count: int,
    lines: int = 8,
    chars: int = 22,
    width: float = AREA_WIDTH,
    height: float = AREA_HEIGHT,
) -> tuple[int, int]:
    """(columns, rows) for `count` cards of `lines` lines of `chars` characters that gives
    them the largest type."""
    count = max(1, min(count, MAX_TABLES_LAID_OUT))
    best, best_size = (1, count), 0.0
    for columns in range(1, count + 1):
        rows = math.ceil(count / columns)
        if (columns - 1) * rows >= count:
            continue  # a column left empty: fewer columns hold the same
        tables_width = width * tables_share(columns) / (1 + tables_share(columns))
        card_w = (tables_width - GAP * columns) / columns
        card_h = (height - GAP * (rows - 1)) / rows
        size = min(card_h / (lines * LINE_EM + PAD_EM), card_w / (chars * CHAR_EM + PAD_EM))
        if size > best_size:
            best, best_size = (columns, rows), size
    return best


def tables_share(columns: int) -> float:
    return LEADERS_SHARE.get(columns, 4)


def chars_step(longest: int) -> int:
    """The stylesheet's width class that holds a line of `longest` characters."""
    return next((step for step in CHAR_STEPS if longest <= step), CHAR_STEPS[-1])


def long_name(name: str) -> int | None:
    """The smaller-type class (room-long-N) for a name longer than NAME_CHARS, else None."""
    if len(name) <= NAME_CHARS:
        return None
    return next((step for step in LONG_STEPS if len(name) <= step), LONG_STEPS[-1])


@dataclass
class Line:
    """A name on the display and its figure."""

    name: str
    figure: int
    place: int | None = None

    @property
    def long(self) -> int | None:
        return long_name(self.name)


@dataclass
class RoomTable:
    number: int
    board: Board

    @property
    def players(self) -> list[Line]:
        """Highest tally first, as the evening's results list a table (ties in seat order)."""
        seats = sorted(self.board.seats, key=lambda seat: -seat.tally)
        return [Line(seat.name, seat.tally) for seat in seats]

    @property
    def lines(self) -> int:
        """Heading, hand and round, dealer (or how it ended), then a line per player; a
        long name takes two."""
        dealer = self.dealer
        return (
            3
            + (dealer is not None and dealer.long is not None)
            + sum(1 + (line.long is not None) for line in self.players)
        )

    @property
    def chars(self) -> int:
        """The longest line, counting a name as at most NAME_CHARS (longer names get
        smaller type: `long_name`)."""
        return max(
            len(f"Table {self.number}") + 2,
            len(self.state_line),
            *(min(len(seat.name), NAME_CHARS) + FIGURE_CHARS for seat in self.board.seats),
        )

    @property
    def state_line(self) -> str:
        board = self.board
        if board.is_open:
            return f"Hand {board.hand}, {board.round_word} round"
        if board.match.is_in_play:
            return "Played to the end"
        return "Finished"

    @property
    def dealer(self) -> Line | None:
        dealer = self.board.dealer
        return Line(dealer.name, 0) if self.board.is_open and dealer is not None else None

    @property
    def hands_played(self) -> int:
        return self.board.last_hand.number if self.board.last_hand else 0


@dataclass
class LeaderGroup:
    """One rule set's top ten: chips and points are never ranked together."""

    title: str  # "U3A (chips)": shown only when the evening was played under two rule sets
    lines: list[Line]


@dataclass
class Room:
    session: Session
    tables: list[RoomTable]
    leader_groups: list[LeaderGroup]  # the evening's top ten, per rule set

    @property
    def split(self) -> bool:
        return len(self.leader_groups) > 1

    @property
    def leaders(self) -> list[Line]:
        return [line for group in self.leader_groups for line in group.lines]

    @property
    def columns(self) -> int:
        return grid(len(self.tables), self.lines, self.chars)[0]

    @property
    def rows(self) -> int:
        return grid(len(self.tables), self.lines, self.chars)[1]

    @property
    def lines(self) -> int:
        """Every card gets the same type: the one with the most lines sets it."""
        return max((table.lines for table in self.tables), default=7)

    @property
    def leaders_lines(self) -> int:
        """The heading, each rule set's title when there are two, and a line per leader
        (two for a long name)."""
        titles = len(self.leader_groups) if self.split else 0
        return 1 + titles + sum(1 + (line.long is not None) for line in self.leaders)

    @property
    def chars(self) -> int:
        return chars_step(max((table.chars for table in self.tables), default=14))

    @property
    def leaders_chars(self) -> int:
        """Place ("10th"), name and figure on one line."""
        names = [min(len(row.name), NAME_CHARS) for row in self.leaders]
        return chars_step(max(names, default=0) + 5 + FIGURE_CHARS)


def room_session(club) -> Session | None:
    """The session the room display shows: the one in play, else today's (before play
    starts: nothing to show yet), else the last one played."""
    # The last few sessions up to today, newest first (the club's (club, date) index), and
    # their matches by the sessions' keys; further back only if none of them was played.
    # One query picking the session in play, today's or the latest played by OR and a
    # subquery read every session of the club, each looked up among its matches (53 -> 256
    # rows beside 300 clubs).
    today = timezone.localdate()
    recent = list(
        Session.objects.filter(club=club, date__lte=today).order_by("-date")[:RECENT_SESSIONS]
    )
    in_play = [session for session in recent if session.status == Session.Status.IN_PLAY]
    if in_play:
        return in_play[0]
    if recent and recent[0].date == today:
        return recent[0]
    return latest_played(club, recent)


# Sessions read at a time, newest first, when looking for the last one played.
RECENT_SESSIONS = 8


def latest_played(club, recent: list[Session] | None = None) -> Session | None:
    """The club's last session with a match, read backwards by date from the last, a few
    sessions at a time (the club's (club, date) index) and their matches looked up by the
    sessions' keys (`recent`: the first few, if already read). One query with EXISTS lets
    PostgreSQL hash every match the club played (the latest evening read 5 rows alone,
    259 beside 300 clubs)."""
    if recent is None:
        recent = list(Session.objects.filter(club=club).order_by("-date")[:RECENT_SESSIONS])
    while recent:
        # Unordered: the matches' own order joins their sessions, which PostgreSQL hashed
        # whole (every session the club held) to sort eight sessions' matches. By the
        # sessions' keys alone (they are the club's): with the club's key too, PostgreSQL
        # beside many clubs read all of the club's matches by (club, session) and filtered.
        played = set(
            Match._base_manager.filter(session__in=[session.pk for session in recent])
            .order_by()
            .values_list("session_id", flat=True)
        )
        for session in recent:
            if session.pk in played:
                return session
        earlier = Session.objects.filter(club=club, date__lt=recent[-1].date)
        recent = list(earlier.order_by("-date")[:RECENT_SESSIONS])
    return None


def room_display(session: Session, evening) -> Room:
    """Each table's current match (while the evening is in play, only tables in play) and
    the evening's leaders (`evening`: scoring.standings.evening_results)."""
    tables = [
        RoomTable(table.number, table.board)
        for table in session_progress(session).tables
        if table.board.match.is_in_play or not evening.provisional
    ]
    groups = [
        LeaderGroup(
            f"{part.name} ({part.unit})",
            [Line(row.member.table_name, row.result, row.rank) for row in part.rows[:10]],
        )
        for part in evening.parts
    ]
    return Room(session, tables, groups)
