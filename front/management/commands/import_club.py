from django.core.management.base import BaseCommand, CommandError

from club.models import Club
from front.backup import BackupRefused, import_club


class Command(BaseCommand):
    help = (
        "Bring a club from a file written by export_club (or the settings page's download) "
        "into this installation, beside any clubs it hosts already. Every row gets a new id. "
        "The whole file is checked first; on any problem nothing is imported."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The backup file (from export_club or the settings page).")
        parser.add_argument(
            "--slug",
            metavar="NEW",
            help="Import the club at this address instead of the one in the file "
            "(when another club here has that address).",
        )

    def handle(self, *args, file, slug=None, **options):
        try:
            with open(file, "rb") as backup_file:
                imported = import_club(backup_file, slug=slug)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        except BackupRefused as refusal:
            raise CommandError(str(refusal)) from None
        counts = imported.counts
        logins = f"{counts['auth.user']} logins"
        if imported.logins_here:
            logins += f" ({imported.logins_here} of them already here, used as they are)"
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored the club at the address “{imported.address}” (/c/{imported.address}/"
                f"): {counts['club.member']} members, {logins}, {counts['club.session']} "
                f"sessions, {counts['games.match']} matches, {counts['scoring.hand']} hands, "
                f"{counts['scoring.correction']} corrections."
            )
        )
        if Club.objects.filter(slug=imported.address, served_at_root=True).exists():
            self.stdout.write(
                "It is the first club here, so it is also served at the site's root (/), "
                "and stays there when other clubs come."
            )
        if imported.erased_again:
            names = ", ".join(imported.erased_again)
            self.stdout.write(
                f"{len(imported.erased_again)} members in this backup had had their personal "
                "details erased here since it was made, so they were erased again (their "
                f"results are kept): {names}."
            )
        if imported.without_password:
            names = ", ".join(imported.without_password)
            self.stdout.write(
                f"{len(imported.without_password)} of the logins came without a password, "
                f"since they are logins of other clubs too where the backup was made: "
                f"{names}. They cannot log in until they have a new one: a coordinator "
                "gives a member one on the member's page, or run `manage.py changepassword "
                "USERNAME`."
            )
