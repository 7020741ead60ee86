"""`request.club`: the club a request is about, found by its address.

Each club's pages live under `/c/<slug>/` (one certificate for the whole site, readable
links on printed sheets). This middleware finds the club, takes `/c/<slug>` off the path
the URL patterns see and makes it the script prefix, so the patterns and `reverse()` are
the same for every club and every link a page draws stays inside its club. The view then
runs inside the club's scope (club/scoping.py: every query of club data is that club's)
and its time zone.

Without the prefix:
- the club recorded as served at the root (`Club.served_at_root`: the installation's first
  club, or the operators' choice) answers there, as it always has (`make run`, old links,
  the tablets' pages), however many clubs come after it; an operator's `HOME_CLUB` names
  another;
- with no such club, `/` lists the clubs, and the site's own pages (sign-up, the health
  check, the operators' admin) answer there; any other address is a plain 404.

The admin is the operators' and sees every club: it runs with the scope switched off.
"""

import re

from django.conf import settings
from django.db.utils import InterfaceError, OperationalError
from django.http import HttpResponsePermanentRedirect
from django.shortcuts import render
from django.urls import get_script_prefix, reverse, set_script_prefix
from django.utils import timezone

from club.installation import waiting_for_setup
from club.models import Club
from club.scoping import scope, scopes_disabled
from club.unavailable import unreachable_answer

CLUB_ADDRESS = re.compile(r"^/c/(?P<slug>[^/]+)(?P<rest>/.*)?$", re.DOTALL)
# The site's own pages, answered without a club on a many-club installation.
SITE_PAGES = (
    "/",
    "/signup/",
    # The first club and the operator's login, made in the browser (front/first_setup.py).
    "/setup/",
    "/health/",
    "/favicon.ico",
    # The installable app's (front/offline.py): the site's manifest, the worker that serves
    # every club's table pages, and its offline page.
    "/manifest.webmanifest",
    "/sw.js",
    "/offline/",
)
ADMIN = "/admin/"
# Pages that never need a club: answered before any club is looked up (the load balancer's
# health check costs one query, and says 503 itself when the database is down).
# The worker and its offline page are the same for every club; the manifest is not (it
# carries the club's name), so it is only a site page.
CLUBLESS = ("/health/", "/favicon.ico", "/sw.js", "/offline/")
# Addresses under this prefix never need a club either: a table key's card (`/t/` to type
# its code, `/t/<code>/` in its QR code) names no club; the key says which (games.key_views).
# Calendar feeds (`/calendar/<token>.ics`) name their club by the token, or by its address.
CLUBLESS_PREFIXES = ("/t/", "/calendar/")


class ClubAddressMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            return self._route(request)
        except (OperationalError, InterfaceError) as error:
            # Finding the club is the request's first query: a database that is down gives
            # the calm 503 page here, as it does in a view (club/unavailable.py).
            answer = unreachable_answer(request, error)
            if answer is None:
                raise
            return answer

    def _route(self, request):
        if request.path_info in CLUBLESS or request.path_info.startswith(CLUBLESS_PREFIXES):
            request.club = None
            return self.get_response(request)
        address = CLUB_ADDRESS.match(request.path_info)
        if address:
            return self._club_page(request, address["slug"], address["rest"])
        request.club = root_club()
        if request.path_info.startswith(ADMIN):
            with scopes_disabled():
                return self.get_response(request)
        if request.club is not None:
            return self._serve(request, request.club)
        if request.path_info in SITE_PAGES:
            return self.get_response(request)  # no club in scope: club data cannot be read
        return render(request, "site/not_found.html", status=404)

    def _club_page(self, request, slug, rest):
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            request.club = None
            return render(request, "site/not_found.html", {"slug": slug}, status=404)
        if rest is None:  # /c/slug -> /c/slug/
            return HttpResponsePermanentRedirect(request.path + "/")
        request.club = club
        request.path_info = rest
        prefix = get_script_prefix()
        set_script_prefix(request.META.get("SCRIPT_NAME", "") + f"/c/{slug}/")
        try:
            return self._serve(request, club)
        finally:
            set_script_prefix(prefix)

    def _serve(self, request, club):
        with scope(club=club), timezone.override(club.time_zone):
            response = self.get_response(request)
            # A streamed CSV is written after this returns: it must stay in the scope.
            if response.streaming:
                response.streaming_content = _in_scope(response.streaming_content, club)
            return response


def club_address(request, club: Club, viewname: str, args=()) -> str:
    """The path of a club's page (`reverse(viewname, args)`) from a page outside any club:
    under `/c/<slug>/`, or at the root when that club is the one served there."""
    root = request.META.get("SCRIPT_NAME", "") + "/"
    served_at_root = (root_club() or Club()).pk == club.pk
    prefix = get_script_prefix()
    set_script_prefix(root if served_at_root else f"{root}c/{club.slug}/")
    try:
        return reverse(viewname, args=args)
    finally:
        set_script_prefix(prefix)


def root_club() -> Club | None:
    """The club served without a prefix: the operators' HOME_CLUB, or the club recorded as
    the root (club/models.py). A new installation's first request makes its club, which
    takes the root; one that lets clubs sign up starts with none (its root lists them). An
    empty installation (no operator's login either) waits for its setup page instead.
    """
    club = Club.objects.at_root(settings.HOME_CLUB)
    if (
        club is None
        and not settings.CLUB_SIGNUP
        and not Club.objects.exists()
        and not waiting_for_setup()
    ):
        return Club.objects.current()
    return club


def _in_scope(chunks, club):
    with scope(club=club), timezone.override(club.time_zone):
        yield from chunks
