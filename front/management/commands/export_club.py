import sys

from django.core.management.base import BaseCommand, CommandError

from club.models import Club
from club.refusals import Refused
from front.backup import write_backup


class Command(BaseCommand):
    help = (
        "Write one club (members, their logins, coordinators, sessions, seating, matches, "
        "hands, corrections, settings) to one JSON file, for backups and moving the club to "
        "another installation. No other club's rows or logins are in it."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--club",
            metavar="SLUG",
            help="The club's address (needed where the installation hosts several clubs).",
        )
        parser.add_argument(
            "-o", "--output", help="The file to write (default: print it to the screen)."
        )

    def handle(self, *args, club=None, output=None, **options):
        try:
            chosen = Club.objects.for_command(club)
        except Refused as refusal:
            raise CommandError(str(refusal)) from None
        if output:
            with open(output, "w", encoding="utf-8", newline="\n") as file:
                write_backup(file, chosen)
            # To stderr, so that a backup written to stdout stays clean JSON.
            sys.stderr.write(f"The club “{chosen.slug}” is saved in {output}.\n")
        else:
            write_backup(_Unended(self.stdout), chosen)


class _Unended:
    """The command's stdout, writing each piece as it is (it adds a line ending otherwise)."""

    def __init__(self, stdout):
        self.stdout = stdout

    def write(self, text: str) -> None:
        self.stdout.write(text, ending="")
