"""`manage.py erase_expired_details`: erase the personal details of lapsed members whom
their club's setting ("erase a leaver's contact details after N months") says are due.

A dry run by default: it lists who would be erased, club by club, and changes nothing.
`--apply` erases them (club/privacy/erasure.py), recorded as done automatically. An
operator schedules it daily (docs/deploy.md gives the cron and systemd timer lines)."""

from django.core.management.base import BaseCommand

from club.models import Club
from club.privacy.erasure import due_for_erasure, erase
from club.scoping import scope


class Command(BaseCommand):
    help = (
        "List the lapsed members whose clubs ask for their details to be erased by now; "
        "with --apply, erase them."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--apply", action="store_true", help="Erase them (without it, only list them)."
        )

    def handle(self, *args, apply=False, **options):
        total = 0
        clubs = Club.objects.filter(erase_after_months__isnull=False).order_by("slug")
        for club in clubs:
            with scope(club=club):
                due = list(due_for_erasure(club))
                for member in due:
                    when = member.left_on.isoformat()
                    if apply:
                        erasure = erase(member, automatic=True)
                        if erasure is None:
                            continue
                        # Not the old name: the erased details stay out of the logs too.
                        self.stdout.write(
                            f"{club.slug}: erased member {member.pk} (lapsed {when}); now "
                            f"“{erasure.member.table_name}”."
                        )
                    else:
                        self.stdout.write(
                            f"{club.slug}: would erase {member.name} (“{member.table_name}”, "
                            f"lapsed {when})."
                        )
                    total += 1
        if apply:
            self.stdout.write(f"Erased {total} member{'' if total == 1 else 's'}' details.")
        else:
            self.stdout.write(
                f"{total} member{'' if total == 1 else 's'} due. Nothing was changed: run with "
                "--apply to erase them."
            )
