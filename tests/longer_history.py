"""A club's past evenings copied further back in time, by SQL: years of history in seconds.

`LongerHistory(club)` takes the club's closed sessions as they are (played through the app's
own code: the demo, a test's evenings) as the pattern. `add(copies)` writes copies 1, 2 ...
of that pattern, each copy k its dates `k x span` weeks earlier (span: the pattern's weeks
and one more), with every row under those sessions (attendance, seating, matches, chairs,
hands, kong chips, table writes, corrections, stored results) copied alongside: new keys (the
old one plus k x the table's largest key when the pattern was taken), the same club. Half the
members (those with a login, and every second one else) play in every copy, so their own
history grows; the other half are replaced, one copy per year, by a lapsed member of that
year (a name with the year's number), so the club's member list grows as a real one does.

Used by tests/test_flat_with_history.py and bench/history_bench.py (PostgreSQL: the
statements use generate_series and make_interval).
"""

from __future__ import annotations

import datetime

from django.db import connection
from django.db.models import DateField, DateTimeField, UUIDField

# Room left between a table's largest key and its first copy's, for rows written between
# copies (a check-in tap, a hand): a copy's keys stay clear of them.
MARGIN = 10_000


def copied_models() -> list:
    from club.models import Attendance, Seat, SeatingPlan, SeatingTable, Session
    from games.models import Chair, Match
    from scoring.models import Correction, Hand, KongChips, SentWrite
    from scoring.results import MatchResult

    return [
        Session,
        Attendance,
        SeatingPlan,
        SeatingTable,
        Seat,
        Match,
        Chair,
        Hand,
        KongChips,
        SentWrite,
        Correction,
        MatchResult,
    ]


def _pattern_rows(model, sessions: str) -> str:
    """SQL: the pattern's rows of `model` (`sessions`: the pattern's session ids)."""
    from club.models import Seat, SeatingPlan, SeatingTable, Session

    if model is Session:
        return f"t.id IN ({sessions})"
    names = {f.name for f in model._meta.concrete_fields}
    if "session" in names:
        return f"t.session_id IN ({sessions})"
    if model in (SeatingTable, Seat):
        return (
            f"t.plan_id IN (SELECT id FROM {SeatingPlan._meta.db_table} "
            f"WHERE session_id IN ({sessions}))"
        )
    assert "match" in names, model
    return f"t.match_id IN (SELECT id FROM games_match WHERE session_id IN ({sessions}))"


class LongerHistory:
    def __init__(self, club, per_year: int | None = None):
        from club.models import Member, Session

        self.club = club
        pattern = list(
            Session.objects.filter(club=club, status=Session.Status.CLOSED)
            .order_by("date")
            .values_list("pk", "date")
        )
        assert pattern, "the club needs closed sessions to copy"
        self.sessions = ", ".join(str(pk) for pk, _ in pattern)
        first, last = pattern[0][1], pattern[-1][1]
        self.weeks = (last - first).days // 7 + 1
        # Copies a year: 52 weeks of them (at least one).
        self.per_year = per_year or max(1, 52 // self.weeks)
        self.models = copied_models()
        members = Member.objects.filter(club=club)
        self.kept = sorted(
            pk for pk, user in members.values_list("pk", "user_id") if user or pk % 2 == 0
        )
        self.replaced = sorted(set(members.values_list("pk", flat=True)) - set(self.kept))
        self.span = {model: self._largest(model) + MARGIN for model in [Member, *self.models]}
        self.copies = 0
        self.years = 0

    @staticmethod
    def _largest(model) -> int:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT coalesce(max(id), 0) FROM {model._meta.db_table}")  # noqa: S608
            return cursor.fetchone()[0]

    @property
    def first_date(self) -> datetime.date:
        """The earliest session date the copies made so far reach."""
        from club.models import Session

        return (
            Session.objects.filter(club=self.club)
            .order_by("date")
            .values_list("date", flat=True)[0]
        )

    def add(self, copies: int) -> None:
        """Copies self.copies + 1 .. self.copies + copies of the pattern."""
        low, high = self.copies + 1, self.copies + copies
        years = (high - 1) // self.per_year + 1
        if years > self.years:
            self._lapsed_members(self.years + 1, years)
            self.years = years
        with connection.cursor() as cursor:
            for model in self.models:
                fields = model._meta.concrete_fields
                columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
                values = ", ".join(self._value(model, f) for f in fields)
                cursor.execute(
                    f"INSERT INTO {model._meta.db_table} ({columns}) SELECT {values} "  # noqa: S608
                    f"FROM {model._meta.db_table} t CROSS JOIN generate_series({low}, {high}) "
                    f"AS k WHERE {_pattern_rows(model, self.sessions)}"
                )
        self.copies = high
        self._after()

    def _value(self, model, field) -> str:
        from club.models import Member

        column = f"t.{connection.ops.quote_name(field.column)}"
        days = self.weeks * 7
        if field.primary_key:
            return f"{column} + k * {self.span[model]}"
        if field.is_relation and field.related_model is Member:
            kept = ", ".join(str(pk) for pk in self.kept) or "0"
            year = f"((k - 1) / {self.per_year} + 1)"
            return (
                f"CASE WHEN {column} IN ({kept}) THEN {column} "
                f"ELSE {column} + {year} * {self.span[Member]} END"
            )
        if field.is_relation and field.related_model in self.span:
            return (
                f"CASE WHEN {column} IS NULL THEN NULL "
                f"ELSE {column} + k * {self.span[field.related_model]} END"
            )
        if isinstance(field, DateTimeField):
            return f"{column} - make_interval(days => (k * {days})::int)"
        if isinstance(field, DateField):
            return f"{column} - (k * {days})::int"
        if field.unique and isinstance(field, UUIDField):
            return "NULL"
        return column

    def _lapsed_members(self, first_year: int, last_year: int) -> None:
        """A lapsed member for each replaced member, for each year first..last."""
        from club.models import Member

        if not self.replaced:
            return
        fields = Member._meta.concrete_fields
        q = connection.ops.quote_name
        values = []
        for field in fields:
            column = f"t.{q(field.column)}"
            if field.primary_key:
                values.append(f"{column} + y * {self.span[Member]}")
            elif field.name in ("name", "table_name"):
                values.append(f"left({column}, {field.max_length - 6}) || ' y' || y")
            elif field.name == "joined":
                values.append(f"{column} - (y * 365)")
            elif field.name == "is_active":
                values.append("false")
            elif field.name in ("user", "form_token", "fixed_table"):
                values.append("NULL")
            else:
                values.append(column)
        replaced = ", ".join(str(pk) for pk in self.replaced)
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {Member._meta.db_table} "  # noqa: S608
                f"({', '.join(q(f.column) for f in fields)}) SELECT {', '.join(values)} "
                f"FROM {Member._meta.db_table} t "
                f"CROSS JOIN generate_series({first_year}, {last_year}) AS y "
                f"WHERE t.id IN ({replaced})"
            )

    def _after(self) -> None:
        """Sequences past the copies, and fresh table statistics (as autovacuum keeps)."""
        from club.models import Member

        with connection.cursor() as cursor:
            for model in [Member, *self.models]:
                table = model._meta.db_table
                cursor.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "  # noqa: S608
                    f"(SELECT max(id) FROM {table}))"
                )
                cursor.execute(f"ANALYZE {table}")
