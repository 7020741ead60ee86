"""`manage.py club_at_root`: which club the site's root (`/`, `/standings/`, ...) serves.

The installation's first club is served there from the start and stays there when other
clubs come; only this command (or the admin's action) changes it. Every club keeps its
`/c/<slug>/` address whatever is at the root."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from club.models import Club


class Command(BaseCommand):
    help = (
        "Say which club is served at the site's root; with SLUG, serve that club there "
        "instead; with --none, serve no club there (the root lists the clubs)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug", nargs="?", help="The address of the club to serve at the root.")
        parser.add_argument(
            "--none", action="store_true", help="Serve no club at the root: list the clubs there."
        )

    def handle(self, *args, slug=None, none=False, **options):
        if slug and none:
            raise CommandError("Give a club's address or --none, not both.")
        if slug:
            club = Club.objects.filter(slug=slug).first()
            if club is None:
                raise CommandError(f"There is no club with the address “{slug}”.")
            Club.objects.serve_at_root(club)
        elif none:
            Club.objects.serve_at_root(None)
        club = Club.objects.at_root()
        if club is None:
            self.stdout.write("No club is served at the site's root: it lists the clubs.")
        else:
            self.stdout.write(
                f"“{club.name}” is served at the site's root (/) and at /c/{club.slug}/."
            )
        home = Club.objects.at_root(settings.HOME_CLUB) if settings.HOME_CLUB else None
        if home is not None and home != club:
            self.stdout.write(
                f"While the setting HOME_CLUB={settings.HOME_CLUB} is there, “{home.name}” is "
                "served at the root instead."
            )
