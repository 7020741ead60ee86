"""The coordinator's evening, step by step: what the Tonight page shows. Reads only.

Each step says where it stands in words ("19 here", "Published", "4 tables playing, hand
12") and the first one still to do is the page's main button, so the coordinator never
has to remember what comes next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse
from django.utils import timezone

from club.models import AttendanceCounts, SeatingPlan, Session
from club.money import money
from scoring import selectors


@dataclass
class Step:
    key: str
    title: str  # the button's words
    state: str  # where this step stands, in words
    url: str = ""
    done: bool = False
    ready: bool = True  # False: an earlier step must be done first (shown without a button)
    post: bool = False  # a form button rather than a link
    help: str = ""
    danger: bool = False
    # Never ticked off: check-in goes on all evening, printing is optional.
    ongoing: bool = False


@dataclass
class TableLine:
    number: int
    url: str
    words: str


@dataclass
class Evening:
    session: Session
    counts: AttendanceCounts
    plan: SeatingPlan | None
    steps: list[Step] = field(default_factory=list)
    tables: list[TableLine] = field(default_factory=list)

    @property
    def next_step(self) -> Step | None:
        """The first step that can be done and is not done yet: the main button."""
        return next((step for step in self.steps if step.ready and not step.done), None)


def today_session(club) -> Session | None:
    """The club's session dated today, if there is one."""
    return Session.objects.filter(club=club, date=timezone.localdate()).first()


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _playing_words(boards) -> str:
    playing = [board for board in boards if board.is_open]
    if not playing:
        return "Every table has finished"
    hands = sorted({board.hand for board in playing})
    at = f"hand {hands[0]}" if len(hands) == 1 else f"hands {hands[0]} to {hands[-1]}"
    return f"{_plural(len(playing), 'table', 'tables')} playing, {at}"


def _table_words(board) -> str:
    if board.is_open:
        words = f"hand {board.hand}, {board.round_word} round"
    elif board.match.is_in_play:
        words = "played to the end"
    else:
        words = f"finished: {board.match.get_ending_display().lower()}"
    if board.last_hand:
        leaders = " and ".join(seat.name for seat in board.leaders)
        words += f"; leading: {leaders} ({board.leaders[0].tally})"
    return words


def evening(session: Session) -> Evening:
    """The steps of `session`'s evening, in order, each with its state in words."""
    pk = session.pk
    counts = session.attendance_counts()
    plan = SeatingPlan.objects.filter(session=session).first()
    published = plan is not None and plan.is_published
    closed = session.is_closed
    boards = [table.board for table in selectors.session_progress(session).tables]
    started = bool(boards)
    result = Evening(session=session, counts=counts, plan=plan)
    result.tables = [
        TableLine(
            board.match.table_number,
            reverse("scoring:table", args=[pk, board.match.table_number]),
            _table_words(board),
        )
        for board in boards
    ]

    here = f"{counts.present} here, {counts.absent} not here"
    if session.club.collects_table_money:
        takings = money(counts.takings, session.club)
        here += f", {_plural(counts.paid, 'has', 'have')} paid ({takings})"
    result.steps.append(
        Step(
            "check_in",
            "See who came" if closed else "Check in",
            here,
            reverse("club:check_in", args=[pk]),
            # Done once people are here: latecomers still come, but the seating is next.
            done=closed or counts.present > 0 or plan is not None,
            ongoing=True,
        )
    )
    if plan is None:
        seating = "Not made yet"
    elif published and plan.published_at:
        at = timezone.localtime(plan.published_at)
        seating = f"Published at {at:%H:%M}: members can see their tables"
    elif published:
        seating = "Published: members can see their tables"
    else:
        seating = "A draft: not published, members cannot see it yet"
    result.steps.append(
        Step(
            "seating",
            "Seating",
            seating,
            reverse("club:seating_manage", args=[pk]),
            done=published,
            ready=counts.present > 0 or plan is not None,
        )
    )
    result.steps.append(
        Step(
            "print",
            "Print",
            "The room sheet and a card for each table"
            if published
            else "Once the seating is published",
            reverse("club:seating_print", args=[pk]),
            # Printing is optional: never the step the page waits on.
            done=True,
            ready=published,
            ongoing=True,
        )
    )
    if closed:
        keys_state = "The evening is over: the cards no longer open the tables"
    elif published:
        keys_state = "A card for each table: a tablet opens its table with it, no login needed"
    else:
        keys_state = "Once the seating is published"
    result.steps.append(
        Step(
            "keys",
            "Table keys",
            keys_state,
            reverse("games:table_keys", args=[pk]),
            # Optional, like printing (tables may record on the players' own logins).
            done=True,
            ready=published and not closed,
            ongoing=True,
        )
    )
    if started:
        start_state = f"Started at {_plural(len(boards), 'table', 'tables')}"
    elif closed:
        start_state = "Play did not start at this session"
    elif published:
        start_state = "Not started yet"
    else:
        start_state = "Publish the seating first"
    result.steps.append(
        Step(
            "start",
            "Start play at the tables",
            start_state,
            reverse("games:start", args=[pk]),
            done=started,
            ready=published and not closed,
            post=True,
            help="Opens a page for each table to record its hands.",
        )
    )
    result.steps.append(
        Step(
            "tables",
            "The tables' scores",
            _playing_words(boards) if started else "Once play has started",
            done=closed,
            ready=started,
        )
    )
    result.steps.append(
        Step(
            "end",
            "End the evening",
            "The evening is over: the session is closed"
            if closed
            else "Ends every table's match and closes the session",
            reverse("games:end", args=[pk]),
            done=closed,
            ready=started and not closed,
            danger=True,
        )
    )
    result.steps.append(
        Step(
            "results",
            "Tonight's results",
            "Final: read them out before everyone goes home"
            if closed
            else "Provisional while the tables play"
            if started
            else "Once play has started",
            reverse("scoring:evening", args=[pk]),
            # Looked at all evening; never the step the page waits on until the end.
            done=not closed,
            ready=started or closed,
            ongoing=True,
        )
    )
    return result
