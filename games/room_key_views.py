"""The room card: the coordinator's page with the club's room key (games.models.RoomKey) as a
QR code and a short code, and its re-issue and stop. A TV opens the room display with it at
/t/ or /t/<code>/, as a tablet opens a table (games/key_views.py); the room display lets it
in (scoring/views/standings.py)."""

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from club.roles import coordinator_required
from games.models import RoomKey
from games.table_keys import key_card

TEMPLATE = "games/room_key.html"


@require_safe
@coordinator_required
def room_key_page(request):
    """The club's room card, issued on the first visit so printing it takes no other press."""
    key = RoomKey.for_club(request.club, by=request.user)
    return render(request, TEMPLATE, {"card": key_card(request, key)})


class RoomKeyChangeForm(forms.Form):
    # The key the coordinator saw: a second tap, or another screen first, changes nothing.
    replacing = forms.IntegerField(required=False)


def _changed(request, key: RoomKey, notice: str):
    """The card swapped in for htmx, with the words in the page's status line; a redirect
    back with a message for a plain form."""
    if not request.htmx:
        messages.success(request, notice)
        return redirect("games:room_key")
    context = {"card": key_card(request, key), "notice": notice, "oob": True}
    return render(request, TEMPLATE + "#room-card", context)


@coordinator_required
@require_POST
def reissue(request):
    form = RoomKeyChangeForm(request.POST)
    replacing = form.cleaned_data["replacing"] if form.is_valid() else None
    key, issued = RoomKey.reissue(request.club, request.user, replacing)
    if issued:
        notice = (
            f"The room has a new card: {key.shown_code}. The old card no longer opens the room "
            "display: open it on the TV with this one."
        )
    else:
        notice = "The room card was already re-issued (on another screen): here it is."
    return _changed(request, key, notice)


@coordinator_required
@require_POST
def stop(request):
    live = RoomKey.objects.live().filter(club=request.club).first()
    if live is None:
        key = RoomKey.for_club(request.club, by=request.user)
        return _changed(request, key, "The room card was already stopped.")
    live.revoke()
    return _changed(
        request,
        live,
        "The room card is stopped: no TV shows the room display with it any more. Make a new "
        "card to show it again.",
    )
