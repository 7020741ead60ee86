"""Makes tests/old_release/: a club's backup written by the PREVIOUS release's own export,
and the key figures of its standings pages as that release rendered them. Run with the old
release's code and its virtualenv (docs/testing.md, "A backup from the previous release"):

    git archive <old commit> | tar -x -C /tmp/oldrel && make -C /tmp/oldrel install
    /tmp/oldrel/.venv/bin/python tests/old_release/make_backup.py /tmp/oldrel <old commit>

It loads the old release's demo club into a new SQLite database there, exports it with
`manage.py export_club`, and renders every standings page (the season's standings, each
evening, each member, the records, the attendance, and their CSV files) as the operator.
"""

import datetime
import importlib.util
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(old_tree: str, commit: str) -> None:
    old = Path(old_tree).resolve()
    database = old / "old-release.sqlite3"
    database.unlink(missing_ok=True)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DEBUG="true",
        ALLOWED_HOSTS="testserver",
        DATABASE_URL=f"sqlite:///{database}",
        CACHE_URL="memory",
    )
    os.chdir(old)
    sys.path.insert(0, str(old))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from club.models import Member, Session
    from club.scoping import scopes_disabled

    spec = importlib.util.spec_from_file_location("figures", HERE / "figures.py")
    figures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(figures)

    call_command("migrate", verbosity=0)
    call_command("demo", verbosity=0)
    call_command("export_club", output=str(HERE / "club-backup.json"))

    client = Client()
    client.force_login(get_user_model().objects.create_superuser("old-release-operator"))

    def page(name, *args, csv=False):
        response = client.get(reverse(name, args=args))
        assert response.status_code == 200, (name, args, response.status_code)
        text = b"".join(response).decode() if response.streaming else response.content.decode()
        return figures.csv_figures(text) if csv else figures.page_figures(text)

    pages = {
        "standings": page("scoring:leaderboard"),
        "standings.csv": page("scoring:leaderboard_csv", csv=True),
        "records": page("scoring:records"),
        "attendance": page("scoring:attendance"),
        "attendance.csv": page("scoring:attendance_csv", csv=True),
        "hands.csv": page("scoring:hands_csv", csv=True),
    }
    with scopes_disabled():  # the club's rows are read here as the operators' tools do
        sessions = list(Session.objects.order_by("date"))
        members = list(Member.objects.order_by("name"))
    for session in sessions:
        pages[f"evening {session.date}"] = page("scoring:evening", session.pk)
        pages[f"evening {session.date}.csv"] = page("scoring:evening_csv", session.pk, csv=True)
    for member in members:
        pages[f"member {member.name}"] = page("scoring:member", member.pk)
    made = {
        "release": commit,
        "rendered_at": datetime.datetime.now(datetime.UTC).isoformat(),
        "pages": pages,
    }
    (HERE / "standings-figures.json").write_text(json.dumps(made, indent=1, ensure_ascii=False))
    print(f"{len(pages)} pages from the release {commit}, rendered at {made['rendered_at']}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
