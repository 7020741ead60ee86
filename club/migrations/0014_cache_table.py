"""The cache's table (Django's DatabaseCache, `createcachetable`), made by `migrate` itself:
production keeps the throttles' counts in it by default (config/settings/services.py), so
every way of starting the app (deploy/entrypoint.sh, the docs' `manage.py migrate`, the
tests' servers) has it, whatever CACHE_URL said when the database was made."""

from django.core.management.commands.createcachetable import Command as CreateCacheTable
from django.db import migrations

# config/settings/services.py's CACHE_TABLE (tests/test_settings_services.py checks they agree).
CACHE_TABLE = "club_cache"


def make_cache_table(apps, schema_editor):
    # Does nothing when the table is there (an earlier `createcachetable`).
    command = CreateCacheTable()
    command.verbosity = 0
    command.create_table(schema_editor.connection.alias, CACHE_TABLE, dry_run=False)


def drop_cache_table(apps, schema_editor):
    schema_editor.execute(f"DROP TABLE IF EXISTS {schema_editor.quote_name(CACHE_TABLE)}")


class Migration(migrations.Migration):
    dependencies = [("club", "0013_club_at_the_root")]

    operations = [migrations.RunPython(make_cache_table, drop_cache_table, elidable=False)]
