import sys

from django.core.management.base import BaseCommand

from front.backup import write_backup


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
        if output:
            with open(output, "w", encoding="utf-8", newline="\n") as file:
                write_backup(file)
            # To stderr, so that a backup written to stdout stays clean JSON.
            sys.stderr.write(f"The club is saved in {output}.\n")
        else:
            write_backup(_Unended(self.stdout))


class _Unended:
    """The command's stdout, writing each piece as it is (it adds a line ending otherwise)."""

    def __init__(self, stdout):
        self.stdout = stdout

    def write(self, text: str) -> None:
        self.stdout.write(text, ending="")
