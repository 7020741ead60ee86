"""The demo club for tests, built once a test run.

Loading the demo plays a season of evenings through the real code (about 9 s). The session
fixture in tests/conftest.py loads it once, through the `demo` command, inside a transaction
that is then rolled back, and keeps every row the load wrote. Each test that asks for
`demo_club` gets those rows written back in one go: raw inserts, as `loaddata` does, so every
value (timestamps too) is what the load wrote and no model code runs again.

The tables that held rows before the load (content types and permissions, which migrating
makes) are not in the dump; rows that refer to them (the coordinators' group's permissions)
are written back by natural key, as a `transactional_db` test's flush recreates them under
new ids.
"""

import datetime
import io
from dataclasses import dataclass, field

from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import DEFAULT_DB_ALIAS, connection, models, transaction
from django.utils import timezone

from club.models import Club
from front.demo import COORDINATOR_LOGIN, MEMBER_LOGIN  # noqa: F401  (the tests' one import)


def _tables() -> list:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    ]


def _rows(model) -> list[dict]:
    return list(model._base_manager.order_by("pk").values())


def _natural_keys(model) -> dict:
    return {obj.pk: obj.natural_key() for obj in model._base_manager.all()}


@dataclass
class DemoDump:
    """What `manage.py demo` printed, every row it wrote (table by table), and the natural
    keys of the rows it referred to in tables it did not write."""

    output: str
    rows: dict = field(default_factory=dict)
    referred: dict = field(default_factory=dict)
    # The demo is dated from the day it was loaded ("tonight" is that day): written back on
    # a later day (a run that goes on past midnight), every date moves on with it.
    loaded_on: datetime.date = field(default_factory=timezone.localdate)

    def _ids_now(self) -> dict:
        """For each referred-to table, {id at the load: id now}."""
        ids = {}
        for model, keys in self.referred.items():
            now = {key: pk for pk, key in _natural_keys(model).items()}
            ids[model] = {pk: now[key] for pk, key in keys.items()}
        return ids

    def rows_now(self, model, ids=None) -> list[dict]:
        """The rows of `model` as they must be written now: references to tables the demo
        did not write (permissions, content types) point at the same rows by natural key."""
        ids = self._ids_now() if ids is None else ids
        remap = [
            (f.attname, ids[f.related_model])
            for f in model._meta.concrete_fields
            if f.is_relation and f.related_model in ids
        ]
        rows = self.rows[model]
        if remap:
            rows = [
                {**row, **{n: m.get(row[n]) for n, m in remap if row[n] is not None}}
                for row in rows
            ]
        return self._dated_today(model, rows)

    def _dated_today(self, model, rows: list[dict]) -> list[dict]:
        """`rows` with every date and time moved on by the days since the load."""
        days = (timezone.localdate() - self.loaded_on).days
        dated = [f.attname for f in model._meta.concrete_fields if isinstance(f, models.DateField)]
        if not days or not dated:
            return rows
        later = datetime.timedelta(days=days)
        return [{**row, **{n: row[n] + later for n in dated if row[n] is not None}} for row in rows]

    def restore(self) -> Club:
        """Write the demo's rows into the (empty) test database; returns the demo club."""
        ids = self._ids_now()
        with transaction.atomic():
            for model in self.rows:
                objs = [model(**row) for row in self.rows_now(model, ids)]
                fields = model._meta.local_concrete_fields
                size = connection.ops.bulk_batch_size(fields, objs) or len(objs)
                for start in range(0, len(objs), size):
                    model._base_manager._insert(
                        objs[start : start + size], fields=fields, raw=True, using=DEFAULT_DB_ALIAS
                    )
            # PostgreSQL's id counters do not move on inserts that name the id.
            with connection.cursor() as cursor:
                for sql in connection.ops.sequence_reset_sql(no_style(), list(self.rows)):
                    cursor.execute(sql)
        return Club.objects.get()


def capture() -> DemoDump:
    """Load the demo with `manage.py demo` into an empty database, keep what it wrote, and
    roll it back. Tables that held rows before (content types, permissions) must be as they
    were: they are not part of the dump."""
    with transaction.atomic():
        before = {model: _rows(model) for model in _tables()}
        out = io.StringIO()
        call_command("demo", "--if-empty", stdout=out)
        dump = DemoDump(output=out.getvalue())
        for model in _tables():
            rows = _rows(model)
            if before[model]:
                assert rows == before[model], f"the demo changed {model._meta.label}'s rows"
            elif rows:
                dump.rows[model] = rows
        for model in dump.rows:
            for f in model._meta.concrete_fields:
                if f.is_relation and f.related_model not in dump.rows:
                    dump.referred[f.related_model] = _natural_keys(f.related_model)
        transaction.set_rollback(True)
    return dump
