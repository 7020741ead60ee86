from django.utils.functional import SimpleLazyObject

from .models import Club
from .roles import is_coordinator


def club(request):
    """The club and the user's role, for every template (lazily: most pages need them)."""
    # request.club (club/middleware.py); a page drawn before the middleware ran (an error
    # page for a request refused earlier) looks the club up itself.
    current = request.club if hasattr(request, "club") else SimpleLazyObject(Club.objects.current)
    return {
        "club": current,
        "is_coordinator": SimpleLazyObject(lambda: is_coordinator(request.user)),
    }
