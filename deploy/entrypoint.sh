#!/bin/sh
# Starts the club app (the Dockerfile's ENTRYPOINT; works the same outside a container):
# waits for the database, refuses one a newer release has migrated, brings its tables up to
# date, then runs the command given, gunicorn with deploy/gunicorn.conf.py when none is.
# docs/deploy.md explains each step.
#
#   MIGRATE_ON_START=false  skip `migrate` and `createcachetable` (with several app servers,
#                           one of them, or a one-off job, does it)
#   DB_WAIT_SECONDS=60      how long to wait for the database
set -eu

cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python}

if [ -z "${SECRET_KEY:-}" ]; then
    # Better than a key written in a file anyone can read: logins last until a restart.
    echo "SECRET_KEY is not set: using a random key until the app restarts." \
         "Set SECRET_KEY (in .env beside compose.yaml) to keep logins across restarts." >&2
    SECRET_KEY=$("$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(50))')
    export SECRET_KEY
fi

# What the start-up says goes to standard error, so a command's own output stays clean
# (`docker compose run --rm -T app python manage.py export_club > club.json`).
"$PYTHON" deploy/wait_for_database.py >&2

# A database a newer release has migrated (after a roll-back to this one) is refused, saying
# so, before anything is changed: exit 1 (docs/deploy.md, "Rolling back").
"$PYTHON" manage.py check_database_not_newer >&2

if [ "${MIGRATE_ON_START:-true}" = "true" ]; then
    "$PYTHON" manage.py migrate --noinput >&2
    # The cache's table (the default CACHE_URL=database): migrate makes it too; this makes
    # sure for a database migrated before it did. Does nothing for the other caches.
    "$PYTHON" manage.py createcachetable >&2
fi

if [ "$#" -eq 0 ]; then
    set -- gunicorn --config deploy/gunicorn.conf.py config.wsgi
fi
exec "$@"
