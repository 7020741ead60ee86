"""Who may open a match's pages: its players and the club's coordinators, and for the table
page a device holding the table's key (games.models.TableKey). The one permission decorator
of every view of one match (the table page, the score sheet)."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import render

from club.roles import is_coordinator
from games.models import TableKey

# The device's table keys live in its Django session: a list of key ids (one at a time).
DEVICE_KEYS = "table_keys"
# One refusal for every key that does not open a table (wrong, stopped, ended, another
# table's, made up): it never says which, so it tells a guesser nothing.
KEY_REFUSAL = (
    "This table card does not work any more. Ask the coordinator for the table's new card or code."
)


def held_key_ids(request) -> list[int]:
    ids = request.session.get(DEVICE_KEYS, [])
    return [i for i in ids if isinstance(i, int)] if isinstance(ids, list) else []


def hold_key(request, key: TableKey) -> None:
    """This device records with `key` from now on, in place of any key it held."""
    request.session[DEVICE_KEYS] = [key.pk]


def forget_keys(request) -> None:
    """This device no longer records with any table's key."""
    request.session.pop(DEVICE_KEYS, None)


def key_refused(request, base: str = "base.html"):
    """The refusal of a table key, the same for every reason (status 403)."""
    context = {"base": base, "message": KEY_REFUSAL}
    return render(request, "games/table_keys/refused.html", context, status=403)


def players_and_coordinators(
    find_match, refusal: str, table_keys: bool = False, table_keys_answer_ended: bool = False
):
    """Decorate a view of one match. Anonymous users go to the login page; the match is
    found by `find_match(request, kwargs)`, which takes the address's words it reads out of
    `kwargs` (a 404 when there is none); a user who neither plays in it nor coordinates
    is refused (403, `refusal`). The view is called as view(request, match, **rest).

    With `table_keys` (the table page and its writes) a device whose session holds a usable
    key of this table of this evening is let in too, login or not, checked afresh on every
    request (a stopped key or an ended evening refuses the next one); `request.table_key`
    is that key (None when the user came in as player or coordinator). With
    `table_keys_answer_ended` (the writes, whose view answers a write after the evening's
    end itself) a POST with the key of this table that worked until the evening ended is let
    through to be told so; every other request with it is refused."""

    def decorate(view):
        @wraps(view)
        def wrapper(request, **kwargs):
            request.table_key = None
            held = held_key_ids(request) if table_keys else []
            if not request.user.is_authenticated and not held:
                return redirect_to_login(request.get_full_path())
            match = find_match(request, kwargs)
            if request.user.is_authenticated:
                # A player first: their chairs are read anyway, the club's roles only if not.
                playing = match.chair_of(request.user) is not None
                if playing or is_coordinator(request.user, request.club):
                    return view(request, match, **kwargs)
            if held:
                key = TableKey.objects.opening(match.session_id, match.table_number, held)
                if key is None and request.method == "POST" and table_keys_answer_ended:
                    # A write after the evening ended (a tablet's outbox catching up): the
                    # view answers it as any device's, "the evening was ended", writing nothing.
                    keys = TableKey.objects
                    key = keys.ended_with_its_evening(match.session_id, match.table_number, held)
                if key is None:
                    return key_refused(request)
                request.table_key = key
                return view(request, match, **kwargs)
            raise PermissionDenied(refusal)

        return wrapper

    return decorate
