"""The demo club for tests, built once a test run.

Loading the demo plays a season of evenings through the real code (about 9 s). The session
fixture in tests/conftest.py loads it once, through the `demo` command, inside a transaction
that is then rolled back, and keeps every row the load wrote. Each test that asks for
`demo_club` gets those rows written back in one go: raw inserts, as `loaddata` does, so every
value (timestamps too) is what the load wrote and no model code runs again.

Only for tests on the `db` fixture: a `transactional_db` test's flush recreates the
permissions under new ids, which the coordinators' group refers to.
"""

import io
from dataclasses import dataclass, field

from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import DEFAULT_DB_ALIAS, connection, transaction

from club.demo import COORDINATOR_LOGIN, MEMBER_LOGIN  # noqa: F401  (the tests' one import)
from club.models import Club


def _tables() -> list:
    return [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and not model._meta.proxy
    ]


def _rows(model) -> list[dict]:
    return list(model._base_manager.order_by("pk").values())


@dataclass
class DemoDump:
    """What `manage.py demo` printed, and every row it wrote, table by table."""

    output: str
    rows: dict = field(default_factory=dict)

    def restore(self) -> Club:
        """Write the demo's rows into the (empty) test database; returns the demo club."""
        with transaction.atomic():
            for model, rows in self.rows.items():
                objs = [model(**row) for row in rows]
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
        transaction.set_rollback(True)
    return dump
