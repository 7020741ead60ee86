from django.utils.functional import SimpleLazyObject

from .models import Club
from .roles import is_coordinator


def club(request):
    """The club and the user's role, for every template (lazily: most pages need them)."""
    return {
        "club": SimpleLazyObject(Club.objects.current),
        "is_coordinator": SimpleLazyObject(lambda: is_coordinator(request.user)),
    }
