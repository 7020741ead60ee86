import sys

from django.core.management.base import BaseCommand

from club.backup import export_club, to_json


class Command(BaseCommand):
    help = (
        "Write the whole club (members, logins, sessions, seating, matches, hands, "
        "corrections, settings) to one JSON file, for backups and moving house."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "-o", "--output", help="The file to write (default: print it to the screen)."
        )

    def handle(self, *args, output=None, **options):
        text = to_json(export_club())
        if output:
            with open(output, "w", encoding="utf-8") as file:
                file.write(text)
            # To stderr, so that a backup written to stdout stays clean JSON.
            sys.stderr.write(f"The club is saved in {output}.\n")
        else:
            self.stdout.write(text, ending="")
