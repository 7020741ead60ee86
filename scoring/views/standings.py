"""Results and standings pages, their CSV exports and the room display."""

from __future__ import annotations

import heapq
from decimal import Decimal
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import get_script_prefix
from django.utils import timezone
from django.views.decorators.http import require_safe

from club import csv_export
from club.lookups import my_member
from club.models import Club, Member, Session
from club.roles import coordinator_required
from games.access import room_key_opens, room_key_refused
from scoring import standings
from scoring.charts import bar_chart
from scoring.models import Hand, KongChips
from scoring.room import latest_played, room_display, room_session


def standings_visible(view):
    """Members only, or anyone when the club made its standings public (read only). The
    view gets the club, so pages need not load it again."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        club = request.club
        public = club.standings_visibility == Club.Visibility.PUBLIC
        if not public and not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, club, *args, **kwargs)

    return wrapper


def room_visible(view):
    """The room display: whoever may see the standings (`standings_visible`), and a device
    holding the club's room card (games.models.RoomKey) with no login, checked on every
    request: a card stopped or re-issued is refused from the next one. The card opens this
    page only; every other page treats the device as any visitor."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        club = request.club
        public = club.standings_visibility == Club.Visibility.PUBLIC
        if public or request.user.is_authenticated:
            return view(request, club, *args, **kwargs)
        opens = room_key_opens(request)
        if opens is None:
            return redirect_to_login(request.get_full_path())
        if not opens:
            return room_key_refused(request)
        if not request.htmx:
            # A TV shows the display once a week: each evening's first load renews the
            # device's session (two weeks), so the card keeps working without a new scan.
            request.session.modified = True
        return view(request, club, *args, **kwargs)

    return wrapper


def _season(request, club: Club) -> tuple[standings.Season, str]:
    """The season the address asks for, and a plain sentence when it asked for one that
    cannot be shown (this season is shown instead; never a server error)."""
    return standings.season_from_key(club, request.GET.get("season"), timezone.localdate())


def _me(request) -> int:
    """The user's id, to mark their own row (0 when logged out: no member row has it)."""
    return request.user.pk if request.user.is_authenticated else 0


def _latest_played(club: Club) -> Session | None:
    return latest_played(club)


@require_safe
@standings_visible
def latest_evening(request, club):
    session = _latest_played(club)
    if session is None:
        return render(request, "scoring/no_results.html", {"club": club})
    return redirect("scoring:evening", pk=session.pk)


@require_safe
@standings_visible
def evening(request, club, pk):
    session = get_object_or_404(Session, pk=pk, club=club)
    evening = standings.evening_results(session, club)
    context = {"club": club, "evening": evening, "me": _me(request)}
    if request.htmx:  # the page asking for fresh figures while play goes on
        return render(request, "scoring/evening.html#evening-body", context)
    return render(request, "scoring/evening.html", context)


@require_safe
@standings_visible
def evening_csv(request, club, pk):
    session = get_object_or_404(Session, pk=pk, club=club)
    evening = standings.evening_results(session, club)
    # One rule set's results a file (`?rules=`, the first by default): chips and points
    # never share a column.
    asked = request.GET.get("rules")
    part = next((p for p in evening.parts if p.rules == asked), None) or (
        evening.parts[0] if evening.parts else None
    )
    unit, hand_unit = (part.unit, part.hand_unit) if part else ("points", "points")
    header = ["Place", "Name", f"Result ({unit})", "Hands won", "Hands played"]
    header += ["Placing points", "At the table", f"Best hand ({hand_unit})", "Rules"]
    rows = [header]
    for row in part.rows if part else []:
        rows.append(
            [
                row.rank,
                row.member.table_name,
                row.result,
                row.hands_won,
                row.hands_played,
                _number(row.points),
                "; ".join(row.placings),
                row.best_total if row.best_total is not None else "",
                part.name,
            ]
        )
    name = session.date.isoformat() + (f"-{part.rules}" if evening.split else "")
    return _csv_response(f"results-{name}.csv", rows)


def _leaderboard_context(request, club):
    season, season_problem = _season(request, club)
    sort = request.GET.get("sort", "rank")
    direction = request.GET.get("dir")
    board = standings.leaderboard(
        club,
        season,
        sort,
        None if direction not in ("asc", "desc") else direction == "desc",
        rules=request.GET.get("rules") or None,
    )
    today = timezone.localdate()
    if board.span:
        seasons = standings.seasons_between(club, *board.span, today)
    else:
        seasons = standings.seasons(club, today)
    return {
        "club": club,
        "board": board,
        "columns": board.columns,  # the figures' headings carry the rule set's unit
        "seasons": seasons,
        "season_problem": season_problem,
        "me": _me(request),
        # Links on the board start with it (a site served under a sub-path): part of the
        # kept rendering's key.
        "script_prefix": get_script_prefix(),
    }


def _you(request, club: Club, board: standings.Leaderboard) -> dict | None:
    """The logged-in member's place on the board, and, on this season's board, their last
    evening: for the top of the page (None for a visitor or a login that is no member's).
    Their row on the board names them; only a member not on it is looked up."""
    me = _me(request)
    if not me:
        return None
    member_id = next((row.member_id for row in board.rows if row.user_id == me), None)
    if member_id is None:
        member = my_member(request)
        if member is None:
            return None
        member_id = member.pk
    current = board.season == standings.Season.containing(club, timezone.localdate())
    return {
        "season": standings.season_place(board, member_id, club),
        "evening": standings.last_evening(member_id, club) if current else None,
        "current": current,
    }


@require_safe
@standings_visible
def leaderboard(request, club):
    context = _leaderboard_context(request, club)
    if request.htmx:
        return render(request, "scoring/leaderboard.html#board", context)
    context["you"] = _you(request, club, context["board"])
    return render(request, "scoring/leaderboard.html", context)


class _Echo:
    def write(self, value):
        return value


def _csv_response(filename: str, rows) -> StreamingHttpResponse:
    writer = csv_export.writer(_Echo())  # no cell a spreadsheet would run as a formula
    response = StreamingHttpResponse(
        (writer.writerow(row) for row in rows), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _number(value, places: int = 2) -> Decimal | int:
    """Whole numbers without ".0", others to `places` decimals, a half rounded up as the
    pages do (exactly: 0.225 is 0.23): numbers a spreadsheet reads."""
    figure = Decimal(standings.plain_figure(value, places))
    return int(figure) if figure == figure.to_integral_value() else figure


@require_safe
@standings_visible
def leaderboard_csv(request, club):
    board = _leaderboard_context(request, club)["board"]
    # One rule set's standings (as the page shows them), its units in the headings.
    unit, hand_unit = board.part.unit, board.part.hand_unit
    header = ["Place", "Name", f"Total ({unit})", f"Average ({unit})", "Sessions"]
    header += ["Hands played", "Hands won", "Win rate (%)", "Placing points"]
    header += [f"Best hand ({hand_unit})", "Rules"]

    def rows():
        yield header
        for row in board.rows:
            yield [
                row.rank if row.rank is not None else "",
                row.name,
                row.total,
                _number(row.average),
                row.sessions,
                row.hands_played,
                row.hands_won,
                _number(row.win_rate),
                _number(row.points),
                row.best_total if row.best_total is not None else "",
                board.part.name,
            ]

    name = board.season.key + (f"-{board.rules}" if board.split else "")
    return _csv_response(f"standings-{name}.csv", rows())


def _in_season(records, club: Club, season: standings.Season):
    """A season's live hands or kong chips of the club, in the order they were played."""
    return (
        records.filter(
            voided_at__isnull=True,
            match__session__club=club,
            match__session__date__gte=season.start,
            match__session__date__lt=season.end,
        )
        .select_related("match__session")
        .order_by("match__session__date", "match__table_number", "match__started_at", "match_id")
    )


def _played_order(record) -> tuple:
    """Where a hand or kong chips come in the CSV: by match, then hand; a hand's kong chips
    (made while it was played) just before it."""
    match = record.match
    number = record.number if isinstance(record, Hand) else record.hand_number
    kind = 1 if isinstance(record, Hand) else 0
    return (
        match.session.date,
        match.table_number,
        match.started_at,
        match.pk,
        number,
        kind,
        record.pk,
    )


@require_safe
@standings_visible
def hands_csv(request, club):
    """Every hand of the season with each player's payment, and the kong chips paid (U3A)
    as rows of their own: a member's payments over the season add up to their total."""
    season, _ = _season(request, club)
    hands = _in_season(Hand.objects, club, season).order_by(
        "match__session__date", "match__table_number", "match__started_at", "match_id", "number"
    )
    kongs = _in_season(KongChips.objects, club, season).order_by(
        "match__session__date",
        "match__table_number",
        "match__started_at",
        "match_id",
        "hand_number",
        "pk",
    )
    names = standings.chair_names(club, season)
    header = ["Date", "Table", "Rules", "Hand", "Outcome", "Winner", "Won by", "Discarder"]
    header += ["Value", "Entry"]
    for seat in range(1, 6):
        header += [f"Player {seat}", f"Payment {seat}"]

    def payments(record, chairs) -> list:
        row = []
        for chair in range(5):
            if chair < len(chairs):
                row += [chairs[chair], record.payments[chair]]
            else:
                row += ["", ""]
        return row

    def hand_row(hand, chairs) -> list:
        return [
            hand.match.session.date.isoformat(),
            hand.match.table_number,
            hand.match.rules,
            hand.number,
            "draw" if hand.is_draw else "win",
            chairs[hand.winner] if hand.winner is not None else "",
            hand.get_won_by_display() if hand.won_by else "",
            chairs[hand.discarder] if hand.discarder is not None else "",
            hand.total if hand.total is not None else "",
            hand.entry,
        ]

    def kong_row(kong, chairs) -> list:
        # The kong's maker is paid by the others: "Winner" names who gains, "Won by" the kind.
        return [
            kong.match.session.date.isoformat(),
            kong.match.table_number,
            kong.match.rules,
            kong.hand_number,
            "kong chips",
            chairs[kong.chair] if kong.chair < len(chairs) else "",
            kong.get_kind_display(),
            "",
            "",
            "",
        ]

    def rows():
        yield header
        records = heapq.merge(
            hands.iterator(chunk_size=2000), kongs.iterator(chunk_size=2000), key=_played_order
        )
        for record in records:
            chairs = names.get(record.match_id, [])
            row = hand_row(record, chairs) if isinstance(record, Hand) else kong_row(record, chairs)
            yield row + payments(record, chairs)

    return _csv_response(f"hands-{season.key}.csv", rows())


@require_safe
@standings_visible
def member_page(request, club, pk):
    season, season_problem = _season(request, club)
    member = get_object_or_404(standings.with_season_span(Member.objects, club, season), pk=pk)
    season.held = member.held or 0
    # Kept per rule set: a season played under two has a total and a chart for each.
    played = standings.SeasonPlayed(member, season)
    parts = standings.member_season(played, club, season)
    for number, part in enumerate(parts):
        part.chart_id = "chart" if number == 0 else f"chart-{part.rules}"  # ids stay unique
        under = f" under {part.name} rules" if len(parts) > 1 else ""
        part.chart = bar_chart(
            [(s["session__date"], s["result"]) for s in part.sessions],
            f"{member.table_name}'s result ({part.unit}) each session of the "
            f"{season.label} season{under}",
        )
    context = {
        "club": club,
        "member": member,
        "season": season,
        "season_problem": season_problem,
        "seasons": standings.seasons_between(
            club, member.first_date, member.last_date, timezone.localdate()
        ),
        "parts": parts,
        "chart": None
        if parts
        else bar_chart(
            [], f"{member.table_name}'s result each session of the {season.label} season"
        ),
        "companions": standings.played_with_most(played),
        "recent": standings.recent_hands(played),
        "special": standings.member_special_hands(played),
    }
    return render(request, "scoring/member.html", context)


@require_safe
@standings_visible
def records(request, club):
    season, season_problem = _season(request, club)
    context = {
        "club": club,
        "season": season,
        "season_problem": season_problem,
        "seasons": standings.seasons(club, timezone.localdate()),
        "records": standings.records(club, season),
    }
    return render(request, "scoring/records.html", context)


@require_safe
@room_visible
def room(request, club):
    """Tonight's tables and provisional results in very large type, for a TV in the hall:
    laid out to fit the screen for the number of tables, with fresh figures every 20
    seconds."""
    session = room_session(club)
    evening = standings.evening_results(session, club) if session else None
    shown = room_display(session, evening) if evening and evening.rows else None
    context = {"club": club, "session": session, "evening": evening, "room": shown}
    if request.htmx:
        return render(request, "scoring/room.html#room-body", context)
    return render(request, "scoring/room.html", context)


@require_safe
@coordinator_required
def attendance(request):
    club = request.club
    season, season_problem = _season(request, club)
    report = standings.attendance_report(club, season)
    context = {
        "club": club,
        "season": season,
        "season_problem": season_problem,
        "seasons": standings.seasons(club, timezone.localdate()),
        "report": report,
    }
    return render(request, "scoring/attendance.html", context)


@require_safe
@coordinator_required
def attendance_csv(request):
    club = request.club
    season, _ = _season(request, club)
    report = standings.attendance_report(club, season)
    which = request.GET.get("by", "sessions")
    if which == "members":
        header = [
            "Name",
            "Sessions attended",
            "Sessions held",
            "Attendance (%)",
            "Sent apologies",
            "Absent without word",
        ]
        body = [
            [m.name, m.attended, report.held, _number(m.share, 1), m.apologies, m.absent]
            for m in report.members
        ]
    elif which == "sessions":
        header = ["Date", "Members present", "Names", "Sent apologies", "Absent without word"]
        body = [
            [s.date.isoformat(), s.present, "; ".join(s.names), s.apologies, s.absent]
            for s in report.sessions
        ]
    else:
        raise Http404("No such report.")
    return _csv_response(f"attendance-{which}-{season.key}.csv", [header, *body])
