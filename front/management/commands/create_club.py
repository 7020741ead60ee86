"""`manage.py create_club`: an operator starts a club from the command line, with the same
checks and the same one write as the sign-up page (front/clubs.py)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from front.clubs import ClubNotStarted, start_club


class Command(BaseCommand):
    help = (
        "Start a club at /c/SLUG/ with its first coordinator's login (a new login: an "
        "existing one is never taken over)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--slug", required=True, help="The club's address: /c/SLUG/.")
        parser.add_argument("--name", required=True, help="The club's name.")
        parser.add_argument(
            "--coordinator", required=True, help="The login name of the club's first coordinator."
        )
        parser.add_argument("--password", required=True, help="The coordinator's password.")
        parser.add_argument("--email", default="", help="The coordinator's email (optional).")
        parser.add_argument(
            "--rules", default="classical", help="The rule set (default: classical)."
        )
        parser.add_argument(
            "--time-zone",
            default=None,
            help=f"The club's time zone, e.g. Europe/London (default: {settings.TIME_ZONE}).",
        )
        parser.add_argument(
            "--currency", default=None, help="The symbol of the club's money (default: £)."
        )

    def handle(self, *args, **options):
        try:
            club = start_club(
                options["name"],
                options["slug"],
                options["rules"],
                options["coordinator"],
                options["password"],
                options["email"],
                time_zone=options["time_zone"],
                currency_symbol=options["currency"],
            )
        except ClubNotStarted as refusal:
            raise CommandError(str(refusal)) from None
        address = f"/c/{club.slug}/"
        hosts = [
            host for host in settings.ALLOWED_HOSTS if host and not host.startswith((".", "*"))
        ]
        if hosts:
            address = f"https://{hosts[0]}{address}"
        self.stdout.write(
            f"The club “{club.name}” is started at {address}. "
            f"Its coordinator logs in there as “{options['coordinator'].strip()}”."
        )
