from django.core.management.base import BaseCommand, CommandError

from front.demo import COORDINATOR_LOGIN, MEMBER_LOGIN, database_is_empty, load_demo


class Command(BaseCommand):
    help = "Load the demo club (members, logins and a season of play) into the database."

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing if the database already holds a club or users.",
        )

    def handle(self, *args, if_empty=False, **options):
        if not database_is_empty():
            if if_empty:
                self.stdout.write("The database already has data: demo club not loaded.")
                self.print_logins()
                return
            raise CommandError(
                "The database already has data. Use a fresh database for the demo club."
            )
        club = load_demo()
        self.stdout.write(self.style.SUCCESS(f"Loaded the demo club “{club.name}”."))
        self.print_logins()

    def print_logins(self):
        self.stdout.write(
            f"  Coordinator login: {COORDINATOR_LOGIN[0]} / {COORDINATOR_LOGIN[1]}\n"
            f"  Member login:      {MEMBER_LOGIN[0]} / {MEMBER_LOGIN[1]}"
        )
