from django.utils.functional import SimpleLazyObject

from .lookups import my_member
from .roles import is_coordinator


def club(request):
    """The club and the user's role, for every template (lazily: most pages need them)."""
    # request.club (club/middleware.py): None on the site's own pages (the list of clubs,
    # sign-up) and on a page drawn before the middleware ran (an error refused earlier).
    current = getattr(request, "club", None)
    return {
        "club": current,
        # The member the user is in this club (None: a visitor, or no member here).
        "my_member": SimpleLazyObject(lambda: current and my_member(request)),
        "is_coordinator": SimpleLazyObject(
            lambda: current is not None and is_coordinator(request.user, current)
        ),
    }
