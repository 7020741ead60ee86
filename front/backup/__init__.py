"""One club as a versioned JSON file, and back: for backups and moving a club to another
installation (which may host other clubs already).

The file is JSON with one row a line: a first line naming the format, its version and the
club's address, then one line per row (Django's serializer's shape: model, pk, fields), then
`]}`. The export runs inside the club's scope (club/scoping.py), so the scoped managers
themselves keep every other club's rows out; the logins in it are the club's members' and
coordinators' (a login that belongs only to other clubs, or an operator's, is not in it; a
hand recorded by such a login says "recorded by nobody" in the file).

The import gives every row a new id (taken from the installation's own id counters, so it
never collides with another club's rows, even while that club plays) and rewrites every
reference to it. Both ways go a line at a time, so a backup takes the same few megabytes of
memory however long the club has played: the export reads each table in chunks from one
consistent snapshot and writes each row as it comes; the import checks the whole file first
(a pass that keeps only the ids a later row may refer to), then reads it again and inserts
the rows in batches, all in one transaction. Logins keep their password hashes, so everyone
can log in as before; but a login that is also another club's (a member or coordinator of
another club of the installation) is written without its hash (`withheld_password`): the
file goes to one club's coordinator, who must not get what would let them try to guess the
password of someone else's login elsewhere. Such a login comes back without a usable
password, and the import says so; on the installation it came from, it is still known as
the same login. The stored match results (scoring.results.MatchResult) are derived
from the hands, so they are rebuilt on import rather than carried in the file.

Version 1 files (whole single-club installations, before clubs shared one) still import:
their matches, hands, kong chips and attendance have no club key, which is filled in from
the file's one club; their "Coordinators" group becomes the club's coordinators.

The package, by job: `format` (the file's name, version, tables and limits, and the one
refusal), `export` (writing a backup), `reading` (a backup's lines), `checking` (a whole
file checked before anything is written) and `restoring` (the import). Its public names
are importable from `front.backup` itself.
"""

from front.backup.checking import (
    BackupCheck,
)
from front.backup.export import (
    WITHHELD,
    backup_filename,
    club_logins,
    export_club,
    logins_of_other_clubs,
    read_json,
    to_json,
    withheld_password,
    write_backup,
)
from front.backup.format import (
    BATCH,
    CHUNK,
    FILLED_FROM,
    FORMAT,
    MAX_DEPTH,
    MAX_LINE,
    MODELS,
    NAMED_BY_NATURAL_KEY,
    OLD_COORDINATORS_GROUP,
    READS,
    RULE_FIELDS,
    VERSION,
    BackupRefused,
    _dumps,
    made_for_here,
)
from front.backup.reading import (
    backup_rows,
)
from front.backup.restoring import (
    ADDRESS,
    Imported,
    InsertTable,
    import_club,
    new_ids,
)

__all__ = [
    "ADDRESS",
    "BATCH",
    "BackupCheck",
    "BackupRefused",
    "CHUNK",
    "FILLED_FROM",
    "FORMAT",
    "Imported",
    "InsertTable",
    "MAX_DEPTH",
    "MAX_LINE",
    "MODELS",
    "NAMED_BY_NATURAL_KEY",
    "OLD_COORDINATORS_GROUP",
    "READS",
    "RULE_FIELDS",
    "VERSION",
    "WITHHELD",
    "_dumps",
    "backup_filename",
    "backup_rows",
    "club_logins",
    "export_club",
    "import_club",
    "logins_of_other_clubs",
    "made_for_here",
    "new_ids",
    "read_json",
    "to_json",
    "withheld_password",
    "write_backup",
]
