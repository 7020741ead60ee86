"""Table keys (games/models.py TableKey, games/key_views.py): the codes, issuing and stopping
them, opening a table by its card at /t/ (one club at the root, several clubs), the one
refusal for every code that does not work, the guessing throttle, the coordinator's Table
keys page and the seating's printed cards, and the audit trail of hands recorded with a key.
Who a key lets in at the table page is tests/scoring/test_table_views.py."""

import re
from html import unescape

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from club.models import Club, Session
from club.roles import make_coordinator
from games.access import DEVICE_KEYS, KEY_REFUSAL
from games.models import KEY_ALPHABET, KEY_LENGTH, Match, TableKey, normalise_code
from games.start import end_evening, start_play
from scoring.corrections import correct_hand
from scoring.models import Hand
from scoring.recording import Win
from scoring.views.table.page import STOP_POLLING
from tests.factories import ClubFactory, CoordinatorFactory, UserFactory
from tests.games.helpers import seated_members, seated_session
from tests.htmx_requests import longest_request_lines
from tests.test_security_enumerated import walk
from tests.threads import at_once, failures

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def evening(club):
    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4, 4))
    start_play(session)
    session.refresh_from_db()
    return session


def keys_of(session) -> dict[int, TableKey]:
    return TableKey.objects.for_tables(session, [1, 2])


def csrf_of(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def table_url(session, number=1, prefix="") -> str:
    return prefix + reverse("scoring:table", args=[session.pk, number])


# --- the codes ----------------------------------------------------------------------------


def test_codes_are_ten_unambiguous_characters_shown_in_groups(evening):
    key = keys_of(evening)[1]
    assert len(key.code) == KEY_LENGTH == 10
    assert set(key.code) <= set(KEY_ALPHABET) and not set("ILOU") & set(KEY_ALPHABET)
    assert len(KEY_ALPHABET) ** KEY_LENGTH >= 2**45  # not guessable
    assert key.shown_code == f"{key.code[:4]}-{key.code[4:8]}-{key.code[8:]}"
    assert keys_of(evening)[2].code != key.code


def test_typing_ignores_case_spaces_and_dashes_and_reads_o_i_l_as_digits():
    assert normalise_code(" 7kqm-4px2 dh ") == "7KQM4PX2DH"
    assert normalise_code("o0-il") == "0011"


def test_a_table_has_at_most_one_live_key_by_the_databases_constraint(evening):
    key = keys_of(evening)[1]
    with pytest.raises(IntegrityError), transaction.atomic():
        TableKey.objects.create(session=evening, table_number=1, code="ABCDEFGHJK")
    key.revoke()
    TableKey.objects.create(session=evening, table_number=1, code="ABCDEFGHJK")
    assert TableKey.objects.live().filter(session=evening, table_number=1).count() == 1


def test_issuing_is_once_per_table_and_a_stopped_key_stays_stopped(evening):
    first = keys_of(evening)
    assert keys_of(evening) == first  # a reload issues nothing new
    first[1].revoke()
    again = keys_of(evening)
    assert again[1].pk == first[1].pk and not again[1].is_live
    assert TableKey.objects.filter(session=evening).count() == 2


def test_reissue_stops_the_old_key_and_a_second_tap_changes_nothing(evening, coordinator):
    old = keys_of(evening)[1]
    new, issued = TableKey.reissue(evening, 1, coordinator, replacing=old.pk)
    assert issued and new.pk != old.pk and new.issued_by == coordinator
    old.refresh_from_db()
    assert old.revoked_at is not None
    again, issued = TableKey.reissue(evening, 1, coordinator, replacing=old.pk)
    assert (again.pk, issued) == (new.pk, False)


def test_a_key_is_usable_until_its_evening_ends_or_it_is_stopped(evening):
    keys = keys_of(evening)
    assert set(TableKey.objects.usable()) == set(keys.values())
    keys[2].revoke()
    assert list(TableKey.objects.usable()) == [keys[1]]
    Session.objects.filter(pk=evening.pk).update(status=Session.Status.CLOSED)
    assert list(TableKey.objects.usable()) == []


def test_the_lookup_by_code_finds_keys_of_any_club_and_nothing_else(evening):
    key = keys_of(evening)[1]
    other = ClubFactory()
    far = TableKey.objects.for_tables(seated_session(other, sizes=(4,)), [1])[1]
    assert TableKey.find_by_code_in_any_club(key.shown_code.lower()) == key
    assert TableKey.find_by_code_in_any_club(far.code) == far
    assert TableKey.find_by_code_in_any_club("0000000000") is None
    assert TableKey.find_by_code_in_any_club(key.code[:9]) is None
    key.revoke()
    assert TableKey.find_by_code_in_any_club(key.code) is None


@pytest.mark.django_db(transaction=True)
def test_two_coordinators_reissuing_at_once_leave_exactly_one_live_key(club):
    session = seated_session(club, sizes=(4,))
    old = TableKey.objects.for_tables(session, [1])[1]
    one, two = CoordinatorFactory(), CoordinatorFactory()

    results = at_once(
        [lambda: TableKey.reissue(session, 1, one, old.pk)]
        + [lambda: TableKey.reissue(session, 1, two, old.pk)]
    )

    assert not failures(results), results
    live = list(TableKey.objects.live().filter(session=session, table_number=1))
    assert len(live) == 1
    # One re-issued; the other saw it done and shows the same new card.
    assert sorted(issued for _, issued in results) == [False, True]
    assert {key.pk for key, _ in results} == {live[0].pk}


@pytest.mark.django_db(transaction=True)
def test_two_first_visits_at_once_issue_one_key_per_table(club):
    session = seated_session(club, sizes=(4, 4))
    results = at_once([lambda: TableKey.objects.for_tables(session, [1, 2])] * 2)
    assert not failures(results), results
    assert TableKey.objects.filter(session=session).count() == 2
    assert results[0] == results[1]


# --- opening a table by its card ----------------------------------------------------------


def test_scanning_the_card_opens_the_table_page_at_once_with_one_club_at_the_root(evening):
    client = Client()
    key = keys_of(evening)[1]
    response = client.get(f"/t/{key.code}/")
    assert response.status_code == 302
    assert response["Location"] == table_url(evening)
    assert client.session[DEVICE_KEYS] == [key.pk]
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert "Record a draw for hand 1" in page.content.decode()


@pytest.mark.parametrize("came_from", [None, "none", "same-origin"])
def test_a_scan_or_a_typed_address_opens_the_table_at_once(evening, came_from):
    """A camera's scan and a typed address are the browser's own ("none"); older browsers
    do not say (no Sec-Fetch-Site): all go straight to the table."""
    headers = {} if came_from is None else {"HTTP_SEC_FETCH_SITE": came_from}
    client = Client()
    key = keys_of(evening)[1]
    response = client.get(f"/t/{key.code}/", **headers)
    assert response.status_code == 302 and response["Location"] == table_url(evening)
    assert client.session[DEVICE_KEYS] == [key.pk]


@pytest.mark.parametrize("came_from", ["cross-site", "same-site"])
def test_a_card_address_followed_from_another_website_asks_before_opening(evening, came_from):
    """Another site's link or image must not make a device record at a table (it could move
    a table's tablet to another table): the code is shown ready, and one press opens it."""
    client = Client(enforce_csrf_checks=True)
    keys = keys_of(evening)
    client.get(f"/t/{keys[1].code}/")  # this tablet records at table 1
    response = client.get(f"/t/{keys[2].code}/", HTTP_SEC_FETCH_SITE=came_from)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Open table 2?" in page and "This link came from another website" in page
    assert f'value="{keys[2].shown_code}"' in page
    assert "The code on table 2's card</label>" in page
    assert client.session[DEVICE_KEYS] == [keys[1].pk]  # still table 1's tablet
    assert client.get(table_url(evening, 2)).status_code == 403
    # Another site cannot press it for the visitor: the form's post needs the page's token.
    assert Client(enforce_csrf_checks=True).post("/t/", {"code": keys[2].code}).status_code == 403
    opened = client.post("/t/", {"code": keys[2].shown_code, "csrfmiddlewaretoken": csrf_of(page)})
    assert opened["Location"] == table_url(evening, 2)
    assert client.session[DEVICE_KEYS] == [keys[2].pk]


def test_a_wrong_code_from_another_website_gets_the_same_refusal(evening):
    answer = Client().get("/t/7KQM4PX2DH/", HTTP_SEC_FETCH_SITE="cross-site")
    assert answer.status_code == 403
    assert KEY_REFUSAL in unescape(answer.content.decode())
    main = re.compile(r"<main.*</main>", re.S)
    same = Client().get("/t/7KQM4PX2DH/").content.decode()
    assert main.search(answer.content.decode()).group() == main.search(same).group()


def test_with_several_clubs_the_card_opens_its_clubs_address(evening, club):
    ClubFactory()
    Club.objects.serve_at_root(None)  # the root lists the clubs (manage.py club_at_root --none)
    client = Client()
    key = keys_of(evening)[1]
    response = client.get(f"/t/{key.code}/")
    assert response["Location"] == table_url(evening, prefix=f"/c/{club.slug}")
    assert client.get(response["Location"]).status_code == 200
    assert client.get(table_url(evening)).status_code == 404  # no club at the root
    typed = Client().post("/t/", {"code": key.shown_code})
    assert typed["Location"] == response["Location"]


def test_a_device_holds_one_key_at_a_time(evening):
    client = Client()
    keys = keys_of(evening)
    client.get(f"/t/{keys[1].code}/")
    client.get(f"/t/{keys[2].code}/")
    assert client.session[DEVICE_KEYS] == [keys[2].pk]
    assert client.get(table_url(evening, 1)).status_code == 403
    assert client.get(table_url(evening, 2)).status_code == 200


def test_leaving_the_table_forgets_the_key_and_everything_the_device_kept(evening):
    client = Client()
    key = keys_of(evening)[1]
    client.get(f"/t/{key.code}/")
    page = client.get(table_url(evening)).content.decode()
    assert "Leave this table" in page
    assert client.get("/t/leave/").status_code == 405  # a visit changes nothing
    response = client.post("/t/leave/")
    assert response.status_code == 302 and response["Location"] == "/t/"
    # Like a logout, on a secure context (the test client's host is not one): see below.
    assert DEVICE_KEYS not in client.session
    assert client.get(table_url(evening)).status_code == 302  # to the login page now
    assert key.refresh_from_db() is None and key.revoked_at is None  # the card still works


def header_of(page: str) -> str:
    return page.split('<header class="site-header">', 1)[1].split("</header>", 1)[0]


def test_every_page_a_card_opens_says_whose_tablet_it_is_and_offers_leaving(evening):
    """The header of every whole page a card device opens (each table page with its number
    in the address) names the table's tablet and offers "Leave this table", never "Log in"
    (which would log nobody out of anything here)."""
    client = Client()
    client.get(f"/t/{keys_of(evening)[2].code}/")
    pages = 0
    for name, route, _ in walk():
        if "tables/<int:number>/" not in route:
            continue
        url = reverse(name, kwargs={"session_id": evening.pk, "number": 2})
        response = client.get(url)
        if response.status_code != 200 or b"<header" not in response.content:
            continue  # a write's address, or a poll's part of a page
        header = header_of(response.content.decode())
        assert "Table 2's tablet" in header, url
        assert 'action="/t/leave/"' in header and "Leave this table" in header, url
        assert "Log in" not in header, url
        pages += 1
    assert pages >= 2  # the table page and the tile picker


def test_a_logged_in_header_is_the_login_s_not_the_tablet_s(evening):
    player = seated_members(evening, 1)[0]
    player.user = player.user or UserFactory()
    player.save()
    client = Client()
    client.force_login(player.user)
    header = header_of(client.get(table_url(evening)).content.decode())
    assert "Log out" in header and "tablet" not in header


def test_leaving_sends_clear_site_data_where_browsers_act_on_it(evening):
    client = Client(HTTP_HOST="localhost")
    client.get(f"/t/{keys_of(evening)[1].code}/")
    assert client.post("/t/leave/")["Clear-Site-Data"] == '"cache", "storage"'
    hall = Client(HTTP_HOST="192.168.8.10")
    assert "Clear-Site-Data" not in hall.post("/t/leave/")


def test_a_logged_in_player_leaving_keeps_the_login_and_drops_the_key(evening):
    player = seated_members(evening, 1)[0]
    player.user = player.user or UserFactory()
    player.save()
    client = Client()
    client.force_login(player.user)
    client.get(f"/t/{keys_of(evening)[2].code}/")
    page = client.get(table_url(evening, 2))
    assert "Leave this table" not in page.content.decode()  # a login logs out instead
    client.post("/t/leave/")
    assert DEVICE_KEYS not in client.session
    assert client.get(table_url(evening, 2)).status_code == 403
    assert client.get(table_url(evening, 1)).status_code == 200  # still logged in


def refusals(evening) -> dict:
    """The answer to each kind of code that does not work, from a fresh device."""
    keys = keys_of(evening)
    stopped = keys[2]
    stopped.revoke()
    other = ClubFactory()
    other_session = seated_session(other, sizes=(4,))
    answers = {
        "made up": Client().get("/t/7KQM4PX2DH/"),
        "short": Client().get("/t/7KQM/"),
        "stopped": Client().get(f"/t/{stopped.code}/"),
        "another club's at this club's address": Client().get(
            f"/c/{evening.club.slug}/t/{TableKey.objects.for_tables(other_session, [1])[1].code}/"
        ),
    }
    Session.objects.filter(pk=evening.pk).update(status=Session.Status.CLOSED)
    answers["ended"] = Client().get(f"/t/{keys[1].code}/")
    return answers


def test_every_code_that_does_not_work_gets_one_and_the_same_refusal(evening):
    answers = refusals(evening)
    assert {r.status_code for r in answers.values()} == {403}
    # The same words (the frame around them holds each device's own CSRF token, and at a
    # club's own address it is the club's).
    words = {re.search(rb"<h1>.*</main>", r.content, re.S)[0] for r in answers.values()}
    assert len(words) == 1, "a refusal gives a hint"
    assert KEY_REFUSAL in unescape(answers["made up"].content.decode())
    assert all(DEVICE_KEYS not in r.wsgi_request.session for r in answers.values())


def test_the_typed_code_opens_the_table_whatever_case_spaces_and_dashes(evening):
    client = Client()
    key = keys_of(evening)[1]
    page = client.get("/t/")
    assert page.status_code == 200
    assert "Type the code on the table's card" in unescape(page.content.decode())
    typed = f" {key.shown_code.lower().replace('-', ' - ')} "
    response = client.post("/t/", {"code": typed})
    assert response["Location"] == table_url(evening)
    assert client.get(table_url(evening)).status_code == 200


@pytest.mark.parametrize(
    ("typed", "says"),
    [
        ("", "Type the code printed on the table's card."),
        ("7KQM-4PX", "The code on the card has 10 letters and digits; this has 7."),
        ("7KQM-4PX2-D*", "A table's code has only letters and digits: take out *."),
        ("7KQM-4PX2-DH", "That code does not open a table."),
    ],
)
def test_a_wrong_typed_code_says_what_is_wrong_and_keeps_what_was_typed(evening, typed, says):
    response = Client().post("/t/", {"code": typed})
    text = unescape(response.content.decode())
    assert response.status_code == 200
    assert says in text
    assert f'value="{typed}"' in text or not typed


def test_wrong_codes_wait_per_address_and_a_right_code_from_there_still_opens(evening, settings):
    """Reported: 30 wrong codes from an address stopped every real card from it for 15
    minutes (a hall's tablets share one public address). Past the limit the address's wrong
    codes are answered "please wait"; a right code, scanned or typed, opens its table."""
    settings.TABLE_KEY_GUESSES_PER_ADDRESS = 3
    key = keys_of(evening)[1]
    guesser = Client(REMOTE_ADDR="203.0.113.9")
    for n in range(3):
        assert guesser.get(f"/t/{n}BCDEFGHJK/").status_code == 403
    assert guesser.get("/t/9BCDEFGHJK/").status_code == 429
    waiting = guesser.post("/t/", {"code": "9BCD-EFGH-JK"})
    assert waiting.status_code == 429 and waiting["Retry-After"]
    assert "too many wrong codes have been typed" in waiting.content.decode()
    # A tablet at the same address, with the table's card: scanned and typed, it opens.
    tablet = Client(REMOTE_ADDR="203.0.113.9")
    assert tablet.get(f"/t/{key.code}/").status_code == 302
    assert Client(REMOTE_ADDR="203.0.113.9").post("/t/", {"code": key.code}).status_code == 302
    # Right codes are never counted: another hall opens its tables as often as it likes.
    hall = Client(REMOTE_ADDR="198.51.100.7")
    for _ in range(5):
        assert hall.get(f"/t/{key.code}/").status_code == 302
    assert hall.get("/t/9BCDEFGHJK/").status_code == 403


def test_every_poll_of_a_card_devices_page_after_the_evening_ends_is_answered_and_stops(evening):
    """Reported: after "End the evening" the card device's page went on polling and each poll
    was refused (403, a console error). Every hx-get the device's table page makes, asked
    after the end, gets an ordinary answer that stops the polling (htmx's 286) and says why."""
    key = keys_of(evening)[1]
    device = Client()
    assert device.get(f"/t/{key.code}/").status_code == 302
    page = device.get(table_url(evening)).content.decode()
    polls = [unescape(address) for address, _ in longest_request_lines(page)]
    assert polls  # the scoreboard's poll
    end_evening(evening)
    for address in polls:
        answer = device.get(address, **HTMX)
        assert answer.status_code == STOP_POLLING, (address, answer.status_code)
        assert "The coordinator has ended the evening" in answer.content.decode()
    # The key opens nothing else any more.
    assert device.get(table_url(evening)).status_code == 403


# --- the coordinator's page ---------------------------------------------------------------


def keys_url(session):
    return reverse("games:table_keys", args=[session.pk])


def test_the_table_keys_page_shows_each_tables_qr_code_and_code(coordinator_client, evening):
    page = coordinator_client.get(keys_url(evening))
    text = page.content.decode()
    keys = keys_of(evening)
    assert page.status_code == 200
    for number, key in keys.items():
        assert f"Table {number}" in text and key.shown_code in text
        assert f'aria-label="QR code that opens table {number}"' in text
    assert text.count("<svg ") >= 2 and "testserver/t/" in text
    assert "<script>" not in text and " style=" not in text  # the strict CSP holds
    # The QR code holds the absolute address of the card.
    assert keys[1].issued_by is not None


def test_the_qr_code_holds_the_cards_address():
    import segno

    from games.table_keys import qr_svg

    svg = qr_svg("https://club.example/t/7KQM4PX2DH/", "QR")
    expected = segno.make("https://club.example/t/7KQM4PX2DH/", error="m", micro=False)
    assert f'viewBox="0 0 {expected.symbol_size(border=4)[0]}' in svg  # quiet zone of four
    assert svg.startswith('<svg role="img" aria-label="QR"')


@pytest.mark.parametrize("how", ["htmx", "plain"])
def test_reissue_gives_a_new_card_and_the_old_one_stops_working(coordinator_client, evening, how):
    old = keys_of(evening)[1]
    device = Client()
    device.get(f"/t/{old.code}/")
    extra = HTMX if how == "htmx" else {}
    url = reverse("games:table_key_reissue", args=[evening.pk, 1])
    response = coordinator_client.post(url, {"replacing": old.pk}, **extra)
    new = TableKey.objects.live().get(session=evening, table_number=1)
    assert new.pk != old.pk
    if how == "htmx":
        text = response.content.decode()
        assert response.status_code == 200 and new.shown_code in text
        assert 'id="key-card-1"' in text and 'hx-swap-oob="true"' in text
        assert "Table 1 has a new card" in text
    else:
        assert response["Location"] == keys_url(evening)
        page = coordinator_client.get(response["Location"]).content.decode()
        assert "Table 1 has a new card" in page and new.shown_code in page
    assert device.get(table_url(evening)).status_code == 403
    fresh = Client()
    fresh.get(f"/t/{new.code}/")
    assert fresh.get(table_url(evening)).status_code == 200


def test_stop_stops_the_key_at_once_and_a_second_tap_says_so(coordinator_client, evening):
    key = keys_of(evening)[1]
    device = Client()
    device.get(f"/t/{key.code}/")
    url = reverse("games:table_key_stop", args=[evening.pk, 1])
    first = coordinator_client.post(url, {"replacing": key.pk}, **HTMX).content.decode()
    assert "key is stopped" in first and key.shown_code not in first
    assert device.get(table_url(evening)).status_code == 403
    again = coordinator_client.post(url, {"replacing": key.pk}, **HTMX).content.decode()
    assert "already stopped" in again
    # The page does not quietly issue a new key for the stopped table.
    page = coordinator_client.get(keys_url(evening)).content.decode()
    assert "key is stopped: no card opens it" in page
    assert TableKey.objects.live().filter(session=evening, table_number=1).count() == 0


def test_a_closed_evening_issues_no_keys_and_refuses_reissue(coordinator_client, evening):
    Session.objects.filter(pk=evening.pk).update(status=Session.Status.CLOSED)
    page = coordinator_client.get(keys_url(evening)).content.decode()
    assert "This evening has ended" in page and TableKey.objects.count() == 0
    url = reverse("games:table_key_reissue", args=[evening.pk, 1])
    answer = coordinator_client.post(url, **HTMX).content.decode()
    assert "This session is closed, so its table keys can no longer change" in answer
    assert TableKey.objects.count() == 0


def card_html(page: str, number: int) -> str:
    return re.search(
        rf'<section class="key-card[^"]*" id="key-card-{number}".*?</section>', page, re.S
    )[0]


def test_a_live_card_is_only_reissued_or_stopped_after_a_second_press(coordinator_client, evening):
    """A stray tap must not stop a table's tablets mid-evening: a live card's re-issue and
    stop buttons sit inside a closed <details> that says what happens, so they take two
    presses (and work without JavaScript). A stopped key has no card to lose: one press."""
    keys_of(evening)[2].revoke()
    page = coordinator_client.get(keys_url(evening)).content.decode()
    live = card_html(page, 1)
    changes = re.findall(r"<details class=\"key-change[^>]*>(.*?)</details>", live, re.S)
    assert len(changes) == 2 and '<details class="key-change no-print" open' not in live
    reissue, stop = changes
    assert "Re-issue table 1's card (lost card)</summary>" in reissue
    assert "stops working at once" in reissue and "Yes, make a new card for table 1" in reissue
    assert "Stop table 1's key</summary>" in stop and "Yes, stop table 1's key" in stop
    # Every button that changes a live card is inside one of those two.
    assert live.count("<button") == 2 == sum(c.count("<button") for c in changes)
    stopped = card_html(page, 2)
    assert "<details" not in stopped and "Make a new card for table 2</button>" in stopped


def test_a_card_refused_because_the_evening_ended_offers_no_more_changes(
    coordinator_client, evening
):
    """The evening ended while the keys page was open: the press is refused in words, and
    the card it swaps in has no buttons left to press."""
    key = keys_of(evening)[1]
    Session.objects.filter(pk=evening.pk).update(status=Session.Status.CLOSED)
    url = reverse("games:table_key_stop", args=[evening.pk, 1])
    answer = coordinator_client.post(url, {"replacing": key.pk}, **HTMX).content.decode()
    assert "This session is closed" in answer
    assert 'id="key-card-1"' in answer and "<button" not in card_html(answer, 1)
    assert TableKey.objects.get(pk=key.pk).is_live


def coordinator_pages(session):
    return [
        ("get", keys_url(session)),
        ("post", reverse("games:table_key_reissue", args=[session.pk, 1])),
        ("post", reverse("games:table_key_stop", args=[session.pk, 1])),
    ]


def test_the_key_pages_are_for_the_clubs_coordinators_only(evening, member_user, coordinator):
    keys = keys_of(evening)
    holder = Client()
    holder.get(f"/t/{keys[1].code}/")
    member = Client()
    member.force_login(member_user)
    elsewhere = ClubFactory()
    theirs = Client()
    theirs_login = UserFactory()
    make_coordinator(theirs_login, elsewhere)
    theirs.force_login(theirs_login)
    # Two clubs now: every address is the club's own.
    for method, url in coordinator_pages(evening):
        address = f"/c/{evening.club.slug}{url}"
        for who, client in {"anonymous": Client(), "key holder": holder}.items():
            response = getattr(client, method)(address)
            assert response.status_code == 302, (who, url)
            assert "/accounts/login/" in response["Location"]
        assert getattr(member, method)(address).status_code == 403
        assert getattr(theirs, method)(address).status_code == 403
    assert set(TableKey.objects.values_list("pk", flat=True)) == {k.pk for k in keys.values()}
    assert all(k.is_live for k in TableKey.objects.all())
    ours = Client()
    ours.force_login(coordinator)
    assert ours.get(f"/c/{evening.club.slug}{keys_url(evening)}").status_code == 200


def test_the_session_and_seating_pages_lead_to_the_table_keys(coordinator_client, evening):
    for name in ("club:session_detail", "club:seating_manage"):
        page = coordinator_client.get(reverse(name, args=[evening.pk])).content.decode()
        assert keys_url(evening) in page, name


def test_the_printed_seating_shows_each_tables_card_to_coordinators_only(
    coordinator_client, evening, member_user
):
    printed = coordinator_client.get(reverse("club:seating_print", args=[evening.pk]))
    text = printed.content.decode()
    keys = keys_of(evening)
    for number, key in keys.items():
        assert key.shown_code in text
        assert f'aria-label="QR code that opens table {number}"' in text
    seated = seated_members(evening, 1)[0]
    seated.user = UserFactory()
    seated.save()
    for user in (member_user, seated.user):
        client = Client()
        client.force_login(user)
        page = client.get(reverse("club:seating_print", args=[evening.pk])).content.decode()
        assert "Table 1" in page
        assert not any(k.code in page or k.shown_code in page for k in keys.values())


# --- what a key records -------------------------------------------------------------------


def test_hands_and_kong_chips_recorded_with_a_key_say_so_in_the_audit_trail(
    evening, coordinator_client
):
    key = keys_of(evening)[1]
    device = Client()
    device.get(f"/t/{key.code}/")
    base = table_url(evening)
    assert device.post(base + "draw/", {"hand": "1"}).status_code == 302
    win = {"hand": "2", "winner": "0", "won_by": "wall", "total": "10"}
    assert device.post(base + "win/", win).status_code == 302
    page = device.get(base).content.decode()
    kong_key = re.search(r'name="key" value="([0-9a-f-]+)"', page)[1]
    kong = {"hand": "3", "chair": "0", "kind": "concealed", "key": kong_key}
    assert device.post(base + "kong/", kong).status_code == 302
    match = Match.objects.get(session=evening, table_number=1)
    records = [*match.hands.all(), *match.kong_chips.all()]
    assert len(records) == 3
    assert all(r.recorded_with == key and r.recorded_by is None for r in records)
    sheet = coordinator_client.get(reverse("scoring:scoresheet", args=[match.pk]))
    assert sheet.content.decode().count("recorded on the table 1 tablet") == 2  # the hands
    correct_hand(match, 2, Win(1, "wall", None, 10), "Betty went out, not Ann")
    changes = coordinator_client.get(reverse("scoring:changes", args=[evening.pk]))
    assert "recorded on the table 1 tablet" in changes.content.decode()


def test_a_double_tap_from_a_key_device_is_recognised(evening, coordinator_client):
    key = keys_of(evening)[1]
    device = Client()
    device.get(f"/t/{key.code}/")
    base = table_url(evening)
    win = {"hand": "1", "winner": "0", "won_by": "wall", "total": "10"}
    device.post(base + "win/", win, **HTMX)
    again = device.post(base + "win/", win, **HTMX).content.decode()
    assert "Hand 1 is saved." in again and "another device" not in again
    device.post(base + "draw/", {"hand": "2"}, **HTMX)
    again = device.post(base + "draw/", {"hand": "2"}, **HTMX).content.decode()
    assert "Hand 2 saved: a draw." in again and "already" not in again
    assert Hand.objects.count() == 2
    # The same hand from another device (the coordinator's phone) is not this device's tap.
    other = coordinator_client.post(base + "win/", win, **HTMX).content.decode()
    assert "Hand 1 was saved on another device, the same as yours." in other
    # Nor from a tablet with the table's new card (a re-issue): no login either, but
    # another key.
    new, _ = TableKey.reissue(evening, 1, None, key.pk)
    tablet = Client()
    tablet.get(f"/t/{new.code}/")
    other = tablet.post(base + "win/", win, **HTMX).content.decode()
    assert "Hand 1 was saved on another device, the same as yours." in other
    other = tablet.post(base + "draw/", {"hand": "2"}, **HTMX).content.decode()
    assert "Hand 2 is already recorded. The page now shows hand 3." in other
