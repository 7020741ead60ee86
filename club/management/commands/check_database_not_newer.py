"""`manage.py check_database_not_newer`: refuses a database a newer release has migrated.

deploy/entrypoint.sh runs it before `migrate`. After a roll-back to an older release (or an
old image started by mistake), the database may hold changes this code knows nothing of:
`migrate` would say nothing and the app would fail later on a column it does not expect, or
write rows the newer release cannot read. So the start stops here, saying which release's
changes these are and what to do (docs/deploy.md, "Rolling back")."""

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.loader import MigrationLoader


def migrations_unknown_here(connection) -> list[tuple[str, str]]:
    """Migrations recorded as applied in the database that this code does not have, for
    the apps this code has migrations for (an app it does not have at all is not a sign of
    a newer release: a removed one leaves its rows behind too)."""
    loader = MigrationLoader(connection, ignore_no_migrations=True)
    known = set(loader.disk_migrations)
    # A squashed migration stands for the ones it replaces, which may be gone from disk.
    for migration in loader.disk_migrations.values():
        known.update(migration.replaces or ())
    our_apps = {app for app, _ in loader.disk_migrations}
    return sorted(
        key for key in loader.applied_migrations if key[0] in our_apps and key not in known
    )


class Command(BaseCommand):
    help = (
        "Exit non-zero, saying why, when the database has been migrated by a newer release "
        "of the app than this one (deploy/entrypoint.sh runs it before migrate)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args, database=DEFAULT_DB_ALIAS, **options):
        unknown = migrations_unknown_here(connections[database])
        if not unknown:
            if options["verbosity"] > 1:
                self.stdout.write("The database is not newer than this release.")
            return
        names = ", ".join(f"{app}.{name}" for app, name in unknown)
        raise CommandError(
            "This database was last used by a newer release of the club app: it has "
            f"{len(unknown)} change(s) this release does not know ({names}). Starting would "
            "risk the club's data, so the app stops here. Either start the newer release "
            "again, or restore the backup taken before the upgrade and then start this "
            "release (docs/deploy.md, Rolling back)."
        )
