"""Table keys: a phone or tablet opens a table by its card, and the coordinator's page of
cards (see games/models.py TableKey, games/table_keys.py). The room card's code (RoomKey,
games/room_key_views.py) is typed and scanned at the same addresses.

`/t/` and `/t/<code>/` name no club (club/middleware.py answers them outside any club): the
key says which club and table. Every refusal is the same, whatever the reason, and wrong
codes from one address are counted as wrong passwords are (club/login_throttle.py): past
TABLE_KEY_GUESSES_PER_ADDRESS the address's wrong codes are answered "please wait". A right
code still opens its table: a hall's tablets share one public address with whoever typed the
wrong codes, and a code's 50 bits are what keep guessers out (the limit only slows them)."""

from axes.helpers import get_client_ip_address
from django import forms
from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from club.login_throttle import add_failure, failures, window_minutes
from club.lookups import session_or_404
from club.middleware import club_address
from club.models import SessionClosed
from club.roles import coordinator_required
from club.views.accounts import CLEAR_ON_LOGOUT, is_trustworthy
from games.access import forget_keys, hold_key, hold_room_key, key_refused
from games.models import KEY_ALPHABET, KEY_LENGTH, RoomKey, TableKey, normalise_code
from games.table_keys import key_card, key_cards

ENTER_TEMPLATE = "games/table_keys/enter.html"
KEYS_TEMPLATE = "games/table_keys/keys.html"
SITE_BASE = "site/base.html"
THROTTLE = "table-key-address"
# A typed code that opens nothing: the same words whatever the reason (see KEY_REFUSAL).
TYPED_REFUSAL = (
    "That code does not open a table. Check it against the table's card; if it is right, the "
    "card does not work any more: ask the coordinator for the table's new card or code."
)
# Where the browser says a visit came from (the Sec-Fetch-Site header): a card's address
# followed from another website, not scanned or typed. Such a visit must not make a device
# record at a table by itself (a page elsewhere could move a table's tablet to another
# table, or plant a table on a visitor's phone): it asks first. Browsers that do not say go
# straight on, as a scan does.
FROM_ANOTHER_SITE = {"cross-site", "same-site"}
WAIT_MESSAGE = (
    "That code does not open a table, and too many wrong codes have been typed from this "
    "internet connection. Check it against the table's card and try again in {minutes} "
    "minutes, or ask the coordinator. A right code still opens its table."
)


def _base(request) -> str:
    """The page's frame: the site's at /t/, the club's at a club's own address."""
    return SITE_BASE if request.club is None else "base.html"


def _address(request) -> str:
    return get_client_ip_address(request) or ""


def _throttled(request) -> bool:
    return failures(THROTTLE, _address(request)) >= settings.TABLE_KEY_GUESSES_PER_ADDRESS


def _wait(request, template, context):
    context = {**context, "message": WAIT_MESSAGE.format(minutes=window_minutes())}
    response = render(request, template, context, status=429)
    response["Retry-After"] = str(settings.LOGIN_THROTTLE_WINDOW)
    return response


def _find(request, code: str) -> TableKey | RoomKey | None:
    """The usable key `code` names, a table's or the room card's; at a club's own address
    (`/c/<slug>/t/...`) only that club's keys (another club's is refused as any wrong code
    is)."""
    key = TableKey.find_by_code_in_any_club(code) or RoomKey.find_by_code_in_any_club(code)
    if key is not None and request.club is not None and key.club_id != request.club.pk:
        return None
    return key


def _open(request, key: TableKey | RoomKey):
    """Hold the key on this device and go straight to its table's page (the room card: to
    the room display, the one page it opens)."""
    if isinstance(key, RoomKey):
        hold_room_key(request, key)
        return redirect(club_address(request, key.club, "scoring:room"))
    hold_key(request, key)
    args = (key.session_id, key.table_number)
    return redirect(club_address(request, key.club, "scoring:table", args))


class CodeForm(forms.Form):
    code = forms.CharField(
        label="Code",
        max_length=40,
        error_messages={"required": "Type the code printed on the table's card."},
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocapitalize": "characters",
                "spellcheck": "false",
                "autocorrect": "off",
                "class": "key-code-input",
            }
        ),
    )

    def clean_code(self) -> str:
        code = normalise_code(self.cleaned_data["code"])
        if len(code) != KEY_LENGTH:
            raise forms.ValidationError(
                f"The code on the card has {KEY_LENGTH} letters and digits; this has "
                f"{len(code)}. Check it against the card (dashes and spaces do not matter)."
            )
        wrong = sorted({c for c in code if c not in KEY_ALPHABET})
        if wrong:
            raise forms.ValidationError(
                f"A table's code has only letters and digits: take out {' '.join(wrong)}."
            )
        return code


@require_http_methods(["GET", "POST"])
def enter(request):
    """`/t/`: type the code on the table's card (a phone without a camera, a blurred card)."""
    form = CodeForm(request.POST or None)
    context = {"form": form, "base": _base(request)}
    if form.is_valid():
        key = _find(request, form.cleaned_data["code"])
        if key is not None:
            return _open(request, key)
        if _throttled(request):
            return _wait(request, ENTER_TEMPLATE, context)
        add_failure(THROTTLE, _address(request))
        form.add_error("code", TYPED_REFUSAL)
    return render(request, ENTER_TEMPLATE, context)


@require_safe
def open_key(request, code: str):
    """`/t/<code>/`, the address in the card's QR code: scanned, the table's page opens;
    followed from another website, the code is shown ready to open, for a press."""
    key = _find(request, code)
    if key is None:
        if _throttled(request):
            return _wait(request, "games/table_keys/refused.html", {"base": _base(request)})
        add_failure(THROTTLE, _address(request))
        return key_refused(request, _base(request))
    if request.headers.get("Sec-Fetch-Site") in FROM_ANOTHER_SITE:
        form = CodeForm(initial={"code": key.shown_code})
        context = {"form": form, "base": _base(request), "asking_for": key}
        return render(request, ENTER_TEMPLATE, context)
    return _open(request, key)


@require_POST
def leave(request):
    """ "Leave this table" on a device that came in with a table's card: it forgets the key
    and (like a logout) everything the browser kept of the site; logged in, only the key."""
    if request.user.is_authenticated:
        forget_keys(request)
    else:
        request.session.flush()
    response = redirect("table_key_enter")
    if is_trustworthy(request):
        response["Clear-Site-Data"] = CLEAR_ON_LOGOUT
    return response


# --- the coordinator's page -------------------------------------------------------------------


@require_safe
@coordinator_required
def keys_page(request, session_id: int):
    """Every table's card: its QR code and code, with "Re-issue" and "Stop" beside each.
    Keys a table never had are issued here, so printing the page takes no other press."""
    session = session_or_404(request, session_id, "club")
    cards = key_cards(request, session, by=request.user)
    return render(request, KEYS_TEMPLATE, {"session": session, "cards": cards})


class KeyChangeForm(forms.Form):
    # The key the coordinator saw: a second tap, or another screen first, changes nothing.
    replacing = forms.IntegerField(required=False)


def _key_changed(request, session, number: int, change):
    """Run `change(form)` (a re-issue or a stop) and answer: the table's card swapped in
    for htmx, with the words out of band in the page's status line; a redirect back with a
    message for a plain form."""
    form = KeyChangeForm(request.POST)
    replacing = form.cleaned_data["replacing"] if form.is_valid() else None
    try:
        key, notice = change(replacing)
        error = ""
    except SessionClosed as refused:
        key = TableKey.objects.filter(session=session, table_number=number).last()
        notice, error = "", str(refused)
    if not request.htmx:
        if error:
            messages.error(request, error)
        else:
            messages.success(request, notice)
        return redirect("games:table_keys", session.pk)
    context = {
        "session": session,
        "card": key_card(request, key) if key else None,
        "number": number,
        "notice": notice,
        "error": error,
        "oob": True,
    }
    return render(request, KEYS_TEMPLATE + "#key-card", context)


@coordinator_required
@require_POST
def reissue(request, session_id: int, number: int):
    session = session_or_404(request, session_id, "club")

    def change(replacing):
        key, issued = TableKey.reissue(session, number, request.user, replacing)
        if issued:
            return key, (
                f"Table {number} has a new card: {key.shown_code}. The old card no longer "
                "opens the table. Print this one or read the code out."
            )
        return key, f"Table {number}'s card was already re-issued (on another screen): here it is."

    return _key_changed(request, session, number, change)


@coordinator_required
@require_POST
def stop(request, session_id: int, number: int):
    session = session_or_404(request, session_id, "club")

    def change(replacing):
        session.ensure_open("its table keys")
        live = TableKey.objects.live().filter(session=session, table_number=number).first()
        if live is None:
            last = TableKey.objects.filter(session=session, table_number=number).last()
            return last, f"Table {number}'s key was already stopped."
        live.revoke()
        return live, (
            f"Table {number}'s key is stopped: no phone or tablet records there with it any "
            "more. Re-issue it to give the table a new card."
        )

    return _key_changed(request, session, number, change)
