"""Management commands about one club: `--club SLUG` names it (it may be left out on an
installation of one club), and the work runs inside that club's scope and time zone, as a
request to the club's address does (club/scoping.py)."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from club.models import Club
from club.refusals import Refused
from club.scoping import scope


class ClubCommand(BaseCommand):
    def add_arguments(self, parser):
        parser.add_argument(
            "--club",
            metavar="SLUG",
            help="The club's address (as in /c/SLUG/); needed where the installation hosts "
            "several clubs.",
        )

    def handle(self, *args, club=None, **options):
        try:
            the_club = Club.objects.for_command(club)
        except Refused as refusal:
            raise CommandError(str(refusal)) from None
        with scope(club=the_club), timezone.override(the_club.time_zone):
            return self.handle_club(the_club, *args, **options)

    def handle_club(self, club: Club, *args, **options):
        raise NotImplementedError
