#!/bin/sh
# The whole installation's backup: every club, every login, the site's settings.
# compose.yaml's `backup` service runs `nightly`; on one computer without Docker, cron or a
# systemd timer runs `now` (docs/deploy.md). Plain POSIX sh, so it runs in the postgres
# image, which has pg_dump and psql but no Python.
#
#   deploy/backup.sh now            one backup now, checked, then the old ones rotated out
#   deploy/backup.sh nightly        a first backup BACKUP_FIRST_DELAY seconds after it starts
#                                   (60: the app has made its tables) if there is none yet,
#                                   then one each day at BACKUP_TIME, for ever
#   deploy/backup.sh before-upgrade as `now`, and a copy kept apart in before-upgrade/ (the
#                                   last 3): the nightly rotation never replaces it
#   deploy/backup.sh restore FILE   replaces everything in the database with FILE's contents
#                                   (stop the app first); all or nothing
#   deploy/backup.sh list           the backups kept, newest first
#
# Environment:
#   DATABASE_URL       postgres://user:password@host:5432/name (pg_dump), or sqlite:////path
#                      (SQLite's online backup API, through Python); unset: the db.sqlite3
#                      beside deploy/, as the app itself uses
#   BACKUP_DIR         where backups go (default: backups/ beside deploy/)
#   BACKUP_KEEP_DAYS   daily backups kept (default 7): one a day, the day's last
#   BACKUP_KEEP_WEEKS  weekly backups kept (default 8): one a week, the week's last
#   BACKUP_TIME        HH:MM of the nightly backup, in the time zone TZ (default 03:00)
#   PYTHON             the Python for SQLite (default python3)
set -eu

HERE=$(cd "$(dirname "$0")/.." && pwd)
DATABASE_URL=${DATABASE_URL:-sqlite:///$HERE/db.sqlite3}
BACKUP_DIR=${BACKUP_DIR:-$HERE/backups}
BACKUP_KEEP_DAYS=${BACKUP_KEEP_DAYS:-7}
BACKUP_KEEP_WEEKS=${BACKUP_KEEP_WEEKS:-8}
BACKUP_TIME=${BACKUP_TIME:-03:00}
BACKUP_FIRST_DELAY=${BACKUP_FIRST_DELAY:-60}
PYTHON=${PYTHON:-python3}
# The backups hold password hashes and members' contact details: for this user's eyes only.
umask 077

say() { echo "backup: $*" >&2; }
fail() { echo "backup: $*" >&2; exit 1; }

whole_number() {
    case $2 in
        '' | *[!0-9]*) fail "$1 must be a whole number, not '$2'." ;;
    esac
}
whole_number BACKUP_KEEP_DAYS "$BACKUP_KEEP_DAYS"
whole_number BACKUP_KEEP_WEEKS "$BACKUP_KEEP_WEEKS"
whole_number BACKUP_FIRST_DELAY "$BACKUP_FIRST_DELAY"
[ "$BACKUP_KEEP_DAYS" -ge 1 ] || fail "BACKUP_KEEP_DAYS must be at least 1."

case $DATABASE_URL in
    postgres://* | postgresql://*) KIND=postgresql SUFFIX=dump ;;
    sqlite:///*) KIND=sqlite SUFFIX=sqlite3 SQLITE_FILE=${DATABASE_URL#sqlite:///} ;;
    *) fail "DATABASE_URL must start with postgres:// or sqlite:///, not '${DATABASE_URL%%:*}:'." ;;
esac

# SQLite's online backup API: a consistent copy while the app goes on writing.
sqlite_copy() {
    "$PYTHON" - "$@" <<'PY'
import sqlite3, sys
source = sqlite3.connect(sys.argv[1])
target = sqlite3.connect(sys.argv[2])
source.backup(target)
if sys.argv[3:] == ["one-file"]:
    # The copy stands alone: no write-ahead log beside it to lose.
    target.execute("PRAGMA journal_mode = DELETE")
target.close()
source.close()
PY
}

sqlite_check() {
    "$PYTHON" - "$1" <<'PY'
import sqlite3, sys
database = sqlite3.connect(sys.argv[1])
(verdict,) = database.execute("PRAGMA integrity_check").fetchone()
tables = database.execute("SELECT count(*) FROM sqlite_master WHERE name = 'django_migrations'")
if verdict != "ok" or tables.fetchone()[0] != 1:
    sys.exit(f"the copy is not a whole club database ({verdict})")
PY
}

# Keeps the newest $2 files in folder $1 (their names sort by date).
keep_newest() {
    ls "$1" | grep "^club-.*\.$SUFFIX\$" | sort -r | tail -n +"$(($2 + 1))" | while read -r old; do
        rm -f "$1/$old"
        say "removed $1/$old (older than the $2 kept)"
    done
}

back_up_now() {
    mkdir -p "$BACKUP_DIR/daily" "$BACKUP_DIR/weekly"
    day=$(date +%F)
    daily="$BACKUP_DIR/daily/club-$day.$SUFFIX"
    partial="$daily.partial"
    rm -f "$partial"
    if [ "$KIND" = postgresql ]; then
        # One snapshot of the whole database (pg_dump's own transaction): tables recording
        # meanwhile are in it as they were at its start, and go on recording.
        pg_dump --format=custom --file="$partial" --dbname="$DATABASE_URL" \
            || { rm -f "$partial"; fail "pg_dump failed: nothing was replaced."; }
        pg_restore --list "$partial" >/dev/null \
            || { rm -f "$partial"; fail "the dump cannot be read back: nothing was replaced."; }
    else
        [ -f "$SQLITE_FILE" ] || fail "no SQLite database at $SQLITE_FILE."
        sqlite_copy "$SQLITE_FILE" "$partial" one-file \
            || { rm -f "$partial"; fail "the SQLite copy failed: nothing was replaced."; }
        sqlite_check "$partial" \
            || { rm -f "$partial"; fail "the copy failed its check: nothing was replaced."; }
    fi
    # Only a whole, checked backup takes the day's name (a second one that day replaces it).
    mv "$partial" "$daily"
    weekly="$BACKUP_DIR/weekly/club-$(date +%G-W%V).$SUFFIX"
    rm -f "$weekly"
    ln "$daily" "$weekly" 2>/dev/null || cp "$daily" "$weekly"
    keep_newest "$BACKUP_DIR/daily" "$BACKUP_KEEP_DAYS"
    keep_newest "$BACKUP_DIR/weekly" "$BACKUP_KEEP_WEEKS"
    say "saved $daily ($(wc -c <"$daily" | tr -d ' ') bytes)"
    echo "$daily"
}

seconds_until_backup_time() {
    now=$(date +%s)
    next=$(date -d "today $BACKUP_TIME" +%s) || fail "BACKUP_TIME must be HH:MM, not '$BACKUP_TIME'."
    [ "$next" -gt "$now" ] || next=$(date -d "tomorrow $BACKUP_TIME" +%s)
    echo $((next - now))
}

restore() {
    file=$1
    [ -f "$file" ] || fail "no backup file at $file."
    if [ "$KIND" = postgresql ]; then
        pg_restore --list "$file" >/dev/null 2>&1 \
            || fail "$file is not a PostgreSQL backup (pg_dump --format=custom)."
        # The whole backup read first (one cut short fails here, with nothing changed), then
        # the old contents dropped and the backup's loaded in ONE transaction: a restore that
        # fails part-way leaves the database as it was.
        sql=$(mktemp)
        trap 'rm -f "$sql"' EXIT
        (
            echo "SET client_min_messages = warning;"
            echo "DROP SCHEMA public CASCADE; CREATE SCHEMA public;"
            pg_restore --no-owner --no-privileges --file=- "$file"
        ) >"$sql" || fail "$file cannot be read whole: nothing was changed."
        psql --quiet --no-psqlrc --set=ON_ERROR_STOP=1 --single-transaction \
            --dbname="$DATABASE_URL" --file="$sql" >/dev/null \
            || fail "the restore failed: the database is as it was before."
    else
        case $file in
            *.sqlite3) ;;
            *) fail "$file is not a SQLite backup (a .sqlite3 file)." ;;
        esac
        sqlite_check "$file" || fail "$file is not a whole club database."
        # The backup API again, the other way: the database's pages replaced in one go.
        sqlite_copy "$file" "$SQLITE_FILE" || fail "the restore failed."
    fi
    say "restored $file. Start the app: it brings the tables up to date as it starts."
}

case ${1:-} in
    now) back_up_now ;;
    before-upgrade)
        daily=$(back_up_now)
        mkdir -p "$BACKUP_DIR/before-upgrade"
        kept="$BACKUP_DIR/before-upgrade/club-$(date +%F-%H%M%S).$SUFFIX"
        cp "$daily" "$kept"
        keep_newest "$BACKUP_DIR/before-upgrade" 3
        say "kept $kept for a roll-back"
        echo "$kept"
        ;;
    nightly)
        say "a backup each day at $BACKUP_TIME into $BACKUP_DIR" \
            "(kept: $BACKUP_KEEP_DAYS days, $BACKUP_KEEP_WEEKS weeks)"
        if ! ls "$BACKUP_DIR/daily" 2>/dev/null | grep -q "\.$SUFFIX\$"; then
            sleep "$BACKUP_FIRST_DELAY"
            (back_up_now) >/dev/null || say "the first backup failed; trying again at $BACKUP_TIME"
        fi
        while :; do
            sleep "$(seconds_until_backup_time)"
            # A failed night is said in the log and tried again the next night.
            (back_up_now) >/dev/null || say "tonight's backup failed"
        done
        ;;
    restore)
        [ $# -eq 2 ] || fail "say which file: deploy/backup.sh restore FILE"
        restore "$2"
        ;;
    list) cd "$BACKUP_DIR" && ls -lr daily weekly $(ls -d before-upgrade 2>/dev/null) ;;
    *) fail "usage: deploy/backup.sh now | nightly | before-upgrade | restore FILE | list" ;;
esac
