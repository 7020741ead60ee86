"""Who may open a match's pages: its players and the club's coordinators. The one
permission decorator of every view of one match (the table page, the score sheet)."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied

from club.roles import is_coordinator


def players_and_coordinators(find_match, refusal: str):
    """Decorate a view of one match. Anonymous users go to the login page; the match is
    found by `find_match(request, kwargs)`, which takes the address's words it reads out of
    `kwargs` (a 404 when there is none); a user who neither plays in it nor coordinates
    is refused (403, `refusal`). The view is called as view(request, match, **rest)."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            match = find_match(request, kwargs)
            # A player first: their chairs are read anyway, the club's roles only if not.
            playing = match.chair_of(request.user) is not None
            if not playing and not is_coordinator(request.user, request.club):
                raise PermissionDenied(refusal)
            return view(request, match, **kwargs)

        return wrapper

    return decorate
