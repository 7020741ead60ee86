import uuid

from django.core.management.base import CommandError

from club import member_import
from club.commands import ClubCommand


class Command(ClubCommand):
    help = (
        "Add members from a spreadsheet saved as CSV (columns: Name, Name at the table, "
        "Email, Phone, Beginner), checked as the import page checks them: every row must be "
        "ready, or nothing is imported."
    )

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.add_argument("file", help="The spreadsheet, saved as CSV.")
        parser.add_argument(
            "--dry-run", action="store_true", help="Check every row and import nothing."
        )

    def handle_club(self, club, *args, file, dry_run, **options):
        try:
            with open(file, "rb") as spreadsheet:
                data = spreadsheet.read(member_import.MAX_BYTES + 1)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        if len(data) > member_import.MAX_BYTES:
            raise CommandError(member_import.too_big_message(len(data)))
        try:
            text = member_import.decode(data)
        except member_import.Unreadable as error:
            raise CommandError(str(error)) from None
        batch = member_import.read(text, club)
        if not batch.is_clean:
            lines = batch.problems + [m for row in batch.bad_rows for m in row.messages()]
            summary = "" if batch.problems else batch.summary()
            raise CommandError("\n".join([*lines, summary]).strip())
        if dry_run:
            self.stdout.write(f"{batch.summary()} (--dry-run: nothing was imported.)")
            return
        outcome = member_import.import_members(text, uuid.uuid4(), club)
        if outcome.batch is not None:  # someone changed the members meanwhile
            raise CommandError("The members changed while importing; nothing was imported.")
        n = outcome.created
        self.stdout.write(self.style.SUCCESS(f"{n} member{'' if n == 1 else 's'} imported."))
