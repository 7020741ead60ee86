"""`request.club`: the club a request is about, found in one place.

An installation serves one club today (`Club.objects.current()`); views, template tags and
the helpers they call take the club from the request, so serving several clubs (a club
chosen by the address) changes only this middleware."""

from django.utils.functional import SimpleLazyObject

from club.models import Club


class CurrentClubMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        # Lazy: a request that never asks for the club (a static file, the login page's
        # post) makes no query for it; one that asks twice makes one.
        request.club = SimpleLazyObject(Club.objects.current)
        return self.get_response(request)
