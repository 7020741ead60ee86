from django.core.management.base import BaseCommand, CommandError

from front.backup import BackupRefused, import_club


class Command(BaseCommand):
    help = (
        "Restore a club from a file written by export_club, into an empty database. The "
        "whole file is checked first; on any problem nothing is imported."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The backup file (from export_club or the settings page).")

    def handle(self, *args, file, **options):
        try:
            with open(file, "rb") as backup_file:
                counts = import_club(backup_file)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        except BackupRefused as refusal:
            raise CommandError(str(refusal)) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored the club: {counts['club.member']} members, {counts['auth.user']} "
                f"logins, {counts['club.session']} sessions, {counts['games.match']} matches, "
                f"{counts['scoring.hand']} hands, {counts['scoring.correction']} corrections."
            )
        )
