"""The calendar: a member's page with their private address, renewing it, and the two feeds
(a member's, and the club's public one when the club publishes it).

The feeds' addresses name no club (`/calendar/...`, as a table's card does): the token, or
the club's address in the public one, says which. Finding it is the request's one query,
which also reads what the answer depends on (feed.Freshness), so a calendar app's poll that
brings back the last ETag or date is answered 304 at that cost. A wrong, renewed or lapsed
member's token is the site's plain 404, the same as any address that leads nowhere.
"""

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db.models import Count, Max, OuterRef, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import get_script_prefix, reverse, set_script_prefix
from django.utils import timezone
from django.utils.cache import get_conditional_response
from django.utils.http import http_date
from django.views.decorators.http import require_POST, require_safe

from club.calendar_feed import feed
from club.calendar_feed.models import TOKEN_LENGTH, CalendarAddress, digest_of
from club.lookups import my_member
from club.models import Club
from club.scoping import scope, scopes_disabled
from club.week.models import SessionReply

HEX = frozenset("0123456789abcdef")


def _member_answers(member, sessions) -> dict[int, tuple[str, str]]:
    """The member's answers for `sessions` (the window's, read already): {session id:
    (answer, note)}, each looked up by its session's key. Found through the sessions'
    dates instead, PostgreSQL read every answer the member ever gave."""
    replies = SessionReply.objects.filter(member=member, session_id__in=[s.pk for s in sessions])
    return {
        session_id: (answer, note)
        for session_id, answer, note in replies.order_by().values_list(
            "session_id", "answer", "note"
        )
    }


def _reply_annotations(today) -> dict:
    """Subqueries (for `.annotate` on an address) of when the member's answers in the window
    last changed and how many there are."""
    start, end = feed.window(today)
    replies = (
        SessionReply.objects.filter(
            member=OuterRef("member"), session__date__gte=start, session__date__lte=end
        )
        .order_by()
        .values("member")
    )
    return {
        "replies_changed": Coalesce(
            Subquery(replies.annotate(last=Max("updated_at")).values("last")),
            Value(feed.EPOCH),
        ),
        "replies_count": Coalesce(Subquery(replies.annotate(n=Count("pk")).values("n")), Value(0)),
    }


def _site_address(request, viewname: str, **kwargs) -> str:
    """The full address of a page outside any club (the feeds), from a club's page."""
    prefix = get_script_prefix()
    set_script_prefix(request.META.get("SCRIPT_NAME", "") + "/")
    try:
        return request.build_absolute_uri(reverse(viewname, kwargs=kwargs))
    finally:
        set_script_prefix(prefix)


def _answer(request, freshness: feed.Freshness, make_body) -> HttpResponse:
    """304 when the caller has this answer already; otherwise the file `make_body()` writes."""
    etag, last_modified = freshness.etag, freshness.last_modified
    not_modified = get_conditional_response(
        request, etag=etag, last_modified=int(last_modified.timestamp())
    )
    response = not_modified or HttpResponse(
        make_body(), content_type="text/calendar; charset=utf-8"
    )
    response["ETag"] = etag
    response["Last-Modified"] = http_date(last_modified.timestamp())
    # Calendar apps ask again on their schedule; no proxy keeps a member's answers.
    response["Cache-Control"] = "private, no-cache"
    response["X-Robots-Tag"] = "noindex"
    if not_modified is None:
        response["Content-Disposition"] = 'inline; filename="calendar.ics"'
    return response


def _valid_token(token: str) -> bool:
    return len(token) == TOKEN_LENGTH and set(token) <= HEX


@require_safe
def member_feed(request, calendar_token: str):
    if not _valid_token(calendar_token):
        raise Http404
    today = timezone.localdate()
    # The token names the club: the one lookup runs before any club is in scope.
    with scopes_disabled():
        address = (
            CalendarAddress.objects.filter(digest=digest_of(calendar_token), member__is_active=True)
            .select_related("club", "member")
            .annotate(
                **feed.freshness_annotations(OuterRef("club"), today),
                **_reply_annotations(today),
            )
            .first()
        )
    # Under another club's address (/c/<other>/calendar/...), a token is not found either.
    if address is None or (request.club is not None and request.club.pk != address.club_id):
        raise Http404
    club, member = address.club, address.member
    freshness = feed.Freshness(
        club=club,
        today=today,
        changed=(address.sessions_changed, address.replies_changed, address.made_at),
        counts=(address.sessions_count, address.replies_count),
        whose=f"{request.get_host()} {member.pk} {member.table_name} {address.made_at.isoformat()}",
    )

    def body() -> bytes:
        with scope(club=club), timezone.override(club.time_zone):
            sessions = list(feed.sessions_in_window(today).order_by("date"))
            return feed.build(
                club,
                sessions,
                title=f"{club.name}: {member.table_name}'s sessions",
                home_address=_club_home(request, club),
                answers=_member_answers(member, sessions),
                host=request.get_host().split(":")[0],
            )

    return _answer(request, freshness, body)


@require_safe
def public_feed(request, slug: str):
    today = timezone.localdate()
    club = (
        Club.objects.filter(slug=slug, public_calendar=True)
        .annotate(**feed.freshness_annotations(OuterRef("pk"), today))
        .first()
        if len(slug) <= 40
        else None
    )
    if club is None or (request.club is not None and request.club.pk != club.pk):
        raise Http404
    freshness = feed.Freshness(
        club=club,
        today=today,
        changed=(club.sessions_changed,),
        counts=(club.sessions_count,),
        whose=request.get_host(),  # in the UIDs and links
    )

    def body() -> bytes:
        with scope(club=club), timezone.override(club.time_zone):
            sessions = list(feed.sessions_in_window(today).order_by("date"))
            return feed.build(
                club,
                sessions,
                title=f"{club.name}: sessions",
                home_address=_club_home(request, club),
                host=request.get_host().split(":")[0],
            )

    return _answer(request, freshness, body)


def _club_home(request, club: Club) -> str:
    """The club's home page, at its own address (which answers for every club, the one at
    the root too), without a query to find which club is at the root."""
    return request.build_absolute_uri(f"{request.META.get('SCRIPT_NAME', '')}/c/{club.slug}/")


# --- the member's page ----------------------------------------------------------------------


def _member_or_none(request):
    return my_member(request) if request.user.is_authenticated else None


@require_safe
def calendar_page(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    member = _member_or_none(request)
    address = CalendarAddress.objects.of_member(member) if member is not None else None
    context = {"member": member, "address": address}
    if address is not None:
        context.update(_addresses(request, address))
    if request.club.public_calendar:
        context["public_address"] = _site_address(
            request, "public_calendar_feed", slug=request.club.slug
        )
    return render(request, "club/calendar/page.html", context)


def _addresses(request, address: CalendarAddress) -> dict:
    https = _site_address(request, "calendar_feed", calendar_token=address.token)
    webcal = "webcal://" + https.split("://", 1)[1]
    return {"feed_address": https, "webcal_address": webcal}


@require_POST
def renew(request):
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("club:calendar"))
    member = _member_or_none(request)
    if member is None:
        messages.error(request, "Only the club's members have a calendar address.")
        return redirect("club:calendar")
    if request.POST.get("renew") != "yes":  # not the page's button: nothing is changed
        messages.error(request, "Nothing was changed: use the button on this page.")
        return redirect("club:calendar")
    had_one = CalendarAddress.objects.of_member(member) is not None
    CalendarAddress.renew(member)
    messages.success(
        request,
        "Your calendar has a new address. The old one no longer works: "
        "subscribe to the new one in your calendar app."
        if had_one
        else "Your calendar address is ready: add it to your calendar app.",
    )
    return redirect("club:calendar")
