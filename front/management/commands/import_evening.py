import argparse
import datetime

from django.core.management.base import BaseCommand, CommandError

from club.models import Club
from club.refusals import Refused
from front.evening_import import import_evening


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"“{text}” is not a date: write it as YYYY-MM-DD, e.g. 2026-11-26."
        ) from None


class Command(BaseCommand):
    help = (
        "Bring an evening played on a hall laptop back into the club on this site: reads the "
        "laptop's backup of the club (export_club there) and adds the evenings the club does "
        "not have here (sessions, attendance, seating, matches, hands, kong chips, "
        "corrections), members matched by their name at the table. One transaction: on any "
        "problem nothing is brought."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="The laptop's backup of the club (from export_club).")
        parser.add_argument(
            "--club", metavar="SLUG", required=True, help="The club's address on this site."
        )
        parser.add_argument(
            "--date",
            metavar="YYYY-MM-DD",
            type=_date,
            help="Bring this evening only (default: every evening of the file the club "
            "does not have here).",
        )

    def handle(self, *args, file, club, date=None, **options):
        try:
            chosen = Club.objects.for_command(club)
            with open(file, "rb") as backup_file:
                brought = import_evening(backup_file, chosen, date)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        except Refused as refusal:
            raise CommandError(str(refusal)) from None
        for line in brought.lines():
            self.stdout.write(line)
