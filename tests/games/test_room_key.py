"""The room card (games.models.RoomKey, games/room_key_views.py): a TV opens the room display
(/standings/room/) without a login, with the club's room card from the coordinator, as a
tablet opens a table with its card; it opens that page and nothing else, checked on every
request, with the same refusal and the same guess limit as table codes."""

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from games.access import DEVICE_ROOM_KEYS, KEY_REFUSAL, ROOM_KEY_REFUSAL
from games.models import RoomKey, TableKey
from tests.factories import ClubFactory
from tests.test_security_enumerated import HTMX, snapshot, urls, world  # noqa: F401

pytestmark = pytest.mark.django_db
ROOM = "/standings/room/"


def room_key(club) -> RoomKey:
    return RoomKey.for_club(club)


def tv_holding(key: RoomKey) -> Client:
    """A TV's browser that opened the room card (and holds nothing else)."""
    tv = Client()
    opened = tv.get(f"/t/{key.code}/")
    assert opened.status_code == 302
    return tv


def test_the_room_card_opens_the_room_display_without_a_login(club):
    key = room_key(club)
    tv = Client()
    opened = tv.get(f"/t/{key.shown_code.lower()}/")
    assert opened["Location"] == ROOM
    assert tv.session[DEVICE_ROOM_KEYS] == [key.pk]
    page = tv.get(ROOM)
    assert page.status_code == 200 and club.name in page.content.decode()
    assert tv.get(ROOM, **HTMX).status_code == 200  # its 20-second refresh
    typed = Client().post("/t/", {"code": key.shown_code})  # a TV without a camera
    assert typed["Location"] == ROOM
    # Without the card, the members-only room display asks for a login, as before.
    assert Client().get(ROOM)["Location"].startswith("/accounts/login/")


def test_the_room_card_opens_the_room_display_and_nothing_else(world):  # noqa: F811
    """Every URL pattern, by GET (plain and htmx) and POST: a device holding the room card
    gets exactly what an anonymous visitor gets, except the room display itself."""
    key = world["room_key"]
    before = snapshot()
    checked = 0
    for name, url in urls(world):
        for method, extra in (("get", {}), ("get", HTMX), ("post", {})):
            tv, visitor = Client(), Client()
            session = tv.session
            session[DEVICE_ROOM_KEYS] = [key.pk]
            session.save()
            ours = getattr(tv, method)(url, **extra)
            theirs = getattr(visitor, method)(url, **extra)
            if name == "scoring:room" and method == "get":
                assert ours.status_code == 200, (name, extra)
                assert theirs.status_code == 302  # the login page
                continue
            assert (ours.status_code, ours.get("Location")) == (
                theirs.status_code,
                theirs.get("Location"),
            ), (name, method, extra)
            checked += 1
    assert checked > 200
    assert snapshot() == before


def refusals(club) -> dict:
    """How /t/<code>/ answers every room code that does not work."""
    key = room_key(club)
    other = ClubFactory()
    theirs = room_key(other)
    stopped = RoomKey.reissue(club, None, key.pk)[0]
    stopped.revoke()
    return {
        "made up": Client().get("/t/7KQM4PX2DH/"),
        "re-issued": Client().get(f"/t/{key.code}/"),
        "stopped": Client().get(f"/t/{stopped.code}/"),
        "another club's at this club's address": Client().get(f"/c/{club.slug}/t/{theirs.code}/"),
    }


def test_every_room_code_that_does_not_work_gets_the_one_refusal_of_every_card(club):
    answers = refusals(club)
    assert {r.status_code for r in answers.values()} == {403}
    words = {re.search(rb"<h1>.*</main>", r.content, re.S)[0] for r in answers.values()}
    assert len(words) == 1, "a refusal gives a hint"
    assert KEY_REFUSAL in unescape(answers["made up"].content.decode())
    assert all(DEVICE_ROOM_KEYS not in r.wsgi_request.session for r in answers.values())


def test_room_codes_count_against_the_same_guess_limit(club, settings):
    settings.TABLE_KEY_GUESSES_PER_ADDRESS = 3
    room_key(club)
    guesser = Client(REMOTE_ADDR="203.0.113.9")
    for n in range(3):
        assert guesser.get(f"/t/{n}BCDEFGHJK/").status_code == 403
    assert guesser.get("/t/9BCDEFGHJK/").status_code == 429
    assert guesser.post("/t/", {"code": "9BCDEFGHJK"}).status_code == 429


def test_a_stopped_or_reissued_card_is_refused_at_the_tvs_next_request(club):
    key = room_key(club)
    tv = tv_holding(key)
    RoomKey.reissue(club, None, key.pk)
    refused = tv.get(ROOM)
    assert refused.status_code == 403
    assert ROOM_KEY_REFUSAL in unescape(refused.content.decode())
    # The display's poll is told to reload, which shows the refusal: never old figures.
    poll = tv.get(ROOM, **HTMX)
    assert poll["HX-Refresh"] == "true" and poll.content == b""
    fresh = tv_holding(RoomKey.objects.live().get())
    assert fresh.get(ROOM).status_code == 200
    RoomKey.objects.live().get().revoke()
    assert fresh.get(ROOM).status_code == 403


def test_a_clubs_room_card_opens_no_other_clubs_room_display(club):
    other = ClubFactory()
    tv = tv_holding(room_key(club))
    assert tv.get(f"/c/{club.slug}{ROOM}").status_code == 200
    assert tv.get(f"/c/{other.slug}{ROOM}").status_code == 403


def test_the_room_display_tells_the_tvs_session_to_keep_the_card(club):
    tv = tv_holding(room_key(club))
    expiry = tv.session.get_expiry_date()
    tv.get(ROOM)
    assert tv.session.get_expiry_date() > expiry


# --- the coordinator's page ---------------------------------------------------------------


def test_the_room_card_page_shows_the_qr_code_and_code_and_issues_once(coordinator_client, club):
    page = coordinator_client.get(reverse("games:room_key"))
    assert page.status_code == 200
    key = RoomKey.objects.live().get()
    text = unescape(page.content.decode())
    assert key.shown_code in text and 'aria-label="QR code that opens the room display"' in text
    assert "testserver/t/" in text
    coordinator_client.get(reverse("games:room_key"))
    assert RoomKey.objects.count() == 1


@pytest.mark.parametrize("how", ["htmx", "plain"])
def test_reissue_gives_a_new_card_and_a_second_tap_changes_nothing(coordinator_client, club, how):
    old = room_key(club)
    extra = HTMX if how == "htmx" else {}
    url = reverse("games:room_key_reissue")
    answer = coordinator_client.post(url, {"replacing": old.pk}, **extra)
    new = RoomKey.objects.live().get()
    assert new.pk != old.pk
    if how == "htmx":
        assert new.shown_code in answer.content.decode()
    else:
        assert answer["Location"] == reverse("games:room_key")
    coordinator_client.post(url, {"replacing": old.pk}, **extra)  # the second tap
    assert RoomKey.objects.live().get() == new and RoomKey.objects.count() == 2


def test_stop_stops_the_card_and_it_stays_stopped(coordinator_client, club):
    key = room_key(club)
    answer = coordinator_client.post(reverse("games:room_key_stop"), **HTMX)
    assert "The room card is stopped" in answer.content.decode()
    assert not RoomKey.objects.live().exists()
    again = coordinator_client.post(reverse("games:room_key_stop"), **HTMX)
    assert "already stopped" in again.content.decode()
    page = coordinator_client.get(reverse("games:room_key"))
    assert "The room card is stopped" in page.content.decode()
    assert not RoomKey.objects.live().exists()  # opening the page issues no new one
    assert Client().get(f"/t/{key.code}/").status_code == 403


def test_the_room_card_pages_are_for_the_clubs_coordinators_only(club, member_client):
    room_key(club)
    for url in ("games:room_key", "games:room_key_reissue", "games:room_key_stop"):
        method = member_client.get if url == "games:room_key" else member_client.post
        assert method(reverse(url)).status_code == 403
    assert RoomKey.objects.count() == 1


def test_a_club_has_at_most_one_live_room_key_by_the_databases_constraint(club):
    from django.db import IntegrityError, transaction

    room_key(club)
    with pytest.raises(IntegrityError), transaction.atomic():
        RoomKey.objects.create(club=club, code="ABCDEFGHJK")


def test_tonight_and_the_session_say_a_tv_opens_the_room_display_with_the_room_card(
    coordinator_client, club
):
    from django.utils import timezone

    from club.models import Session

    session = Session.objects.create(club=club, date=timezone.localdate())
    for url in (reverse("home"), reverse("club:session_detail", args=[session.pk])):
        text = unescape(coordinator_client.get(url).content.decode())
        assert "Show the room display (for a TV)</a>: a TV with no login opens it with" in text
        assert f'href="{reverse("games:room_key")}">the room card</a>' in text


def test_a_table_key_and_a_room_key_are_told_apart(club):
    """A table's code opens its table, never the room display, and the other way round."""
    key = room_key(club)
    tv = tv_holding(key)
    assert DEVICE_ROOM_KEYS in tv.session and "table_keys" not in tv.session
    assert not TableKey.objects.filter(code=key.code).exists()
