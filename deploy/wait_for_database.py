"""Waits until the database answers (deploy/entrypoint.sh runs it before `migrate`).

A container often starts before its database is ready. This tries to connect once a second
for DB_WAIT_SECONDS (60 by default), saying what it waits for, and exits 1 naming the last
error if the database never answered.
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django
    from django.db import connection
    from django.db.utils import InterfaceError, OperationalError

    django.setup()
    seconds = int(os.environ.get("DB_WAIT_SECONDS", "60") or 60)
    where = connection.settings_dict.get("HOST") or connection.settings_dict["NAME"]
    deadline = time.monotonic() + seconds
    said = False
    while True:
        try:
            connection.ensure_connection()
        except (OperationalError, InterfaceError) as error:
            if time.monotonic() >= deadline:
                print(
                    f"The database at {where} did not answer within {seconds} s: {error}",
                    file=sys.stderr,
                )
                return 1
            if not said:
                print(f"Waiting for the database at {where} ...", flush=True)
                said = True
            connection.close()
            time.sleep(1)
        else:
            connection.close()
            print(f"The database at {where} answers.", flush=True)
            return 0


if __name__ == "__main__":
    sys.exit(main())
