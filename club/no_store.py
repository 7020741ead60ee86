"""No browser or proxy keeps a copy of a page shown to someone logged in.

Pages for members and coordinators carry names, emails, phone numbers and notes; on a
shared tablet a copy in the HTTP cache (or the back button after a logout) would show them
to the next person. Every answer to a request with a login, or with a session at all (a
table's tablet), is sent with `Cache-Control: private, no-store`, unless its view already
said what may be kept (the health check, the backup download, the service worker). The
table page's offline copy is the service worker's own (front/offline.py), kept on purpose
and cleared by a logout.
"""

from django.conf import settings
from django.utils.cache import patch_cache_control


class NoStoreForSessionsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.has_header("Cache-Control"):
            return response
        user = getattr(request, "user", None)
        logged_in = user is not None and user.is_authenticated
        if logged_in or settings.SESSION_COOKIE_NAME in request.COOKIES:
            patch_cache_control(response, private=True, no_store=True)
        return response
