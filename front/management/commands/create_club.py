"""`manage.py create_club`: an operator starts a club from the command line, with the same
checks and the same one write as the sign-up page (front/clubs.py)."""

import ipaddress

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from club.middleware import root_club
from front.clubs import ClubNotStarted, start_club


class Command(BaseCommand):
    help = (
        "Start a club at /c/SLUG/ with its first coordinator's login (a new login: an "
        "existing one is never taken over). No other club's address changes; the "
        "installation's first club is also served at the site's root (manage.py club_at_root)."
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
        self.stdout.write(started_words(club, options["coordinator"].strip()))


def started_words(club, coordinator: str) -> str:
    """Where the new club is, as a path: the command cannot know the site's own address
    (its scheme, port, or which of ALLOWED_HOSTS the members use), so it says so, with an
    example when a host name is there; and that no club's address moved."""
    path = f"/c/{club.slug}/"
    hosts = [host for host in settings.ALLOWED_HOSTS if _named_host(host)]
    example = f", as in https://{hosts[0]}{path}" if hosts else ""
    lines = [
        f"The club “{club.name}” is started at {path} (after the site's own address"
        f"{example}). Its coordinator logs in there as “{coordinator}”."
    ]
    root = root_club()
    if root is not None and root.pk == club.pk:
        lines.append(
            "It is the first club here, so it is also served at the site's root (/): it "
            "stays there when other clubs are started."
        )
    elif root is not None:
        lines.append(
            f"“{root.name}” stays at the site's root (/) and at /c/{root.slug}/: starting a "
            "club changes no other club's address."
        )
    else:
        lines.append(
            "The site's root lists the clubs: starting a club changes no other club's address."
        )
    return "\n".join(lines)


def _named_host(host: str) -> bool:
    """A host name people type (club.example.org), not a pattern, localhost or an IP."""
    if not host or host.startswith((".", "*")) or host in ("localhost", "testserver"):
        return False
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return True
    return False
