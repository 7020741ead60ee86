"""The table page: who may see and record, HTMX partials, stale and doubled forms, polling,
dice, and the coordinator's start and end of the evening."""

import random
import re
import uuid
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from club.models import Session
from games import dice
from games.access import DEVICE_KEYS
from games.models import Match, TableKey
from games.start import start_play
from scoring.models import Hand, KongChips
from scoring.recording import record_draw, record_kong
from scoring.views.table.page import STOP_POLLING
from tests.factories import ClubFactory, MemberFactory, UserFactory
from tests.games.helpers import seated_members, seated_session

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def evening(club):
    """A u3a session in play: table 1 of four, table 2 of five, table 3 of three."""
    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4, 5, 3))
    start_play(session)
    session.refresh_from_db()
    return session


def match_at(session, number) -> Match:
    return Match.objects.get(session=session, table_number=number, status="in_play")


def login_as_seated(client, session, number, position=0):
    member = seated_members(session, number)[position]
    member.user = UserFactory()
    member.save()
    client.force_login(member.user)
    return member


def url(name, session, number=1):
    return reverse(f"scoring:{name}", args=[session.pk, number])


# --- who may see and record ---------------------------------------------------------------

TABLE_WRITES = [
    ("draw", {"hand": "1"}),
    ("kong", {"hand": "1", "chair": "0", "kind": "concealed", "key": str(uuid.uuid4())}),
    ("undo", {"hand": "1"}),
    ("take_back_kong", {"kong": "1"}),
    ("win", {"hand": "1", "winner": "0", "won_by": "wall", "total": "10"}),
    ("preview", {"hand": "1", "winner": "0", "won_by": "wall", "total": "10"}),
]
TABLE_VIEWS = [("table", "get", {}), ("poll", "get", {}), ("dice", "post", {})] + [
    (name, "post", data) for name, data in TABLE_WRITES
]


def hands_and_kongs(session):
    return (Hand.objects.filter(match__session=session).count(), KongChips.objects.count())


@pytest.mark.parametrize(("name", "method", "data"), TABLE_VIEWS)
def test_anonymous_visitors_are_sent_to_log_in(client, evening, name, method, data):
    response = getattr(client, method)(url(name, evening), data)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert hands_and_kongs(evening) == (0, 0)


@pytest.mark.parametrize(("name", "method", "data"), TABLE_VIEWS)
def test_a_member_seated_elsewhere_is_refused(client, evening, name, method, data):
    login_as_seated(client, evening, 2)
    response = getattr(client, method)(url(name, evening, 1), data)
    assert response.status_code == 403
    assert hands_and_kongs(evening) == (0, 0)


@pytest.mark.parametrize(("name", "method", "data"), TABLE_VIEWS)
def test_a_member_with_no_seat_is_refused(member_client, evening, name, method, data):
    response = getattr(member_client, method)(url(name, evening, 1), data)
    assert response.status_code == 403


def test_a_member_at_the_table_sees_it_and_records(client, evening):
    login_as_seated(client, evening, 1)
    page = client.get(url("table", evening))
    assert page.status_code == 200
    assert "Record a draw for hand 1" in page.content.decode()
    response = client.post(url("draw", evening), {"hand": "1"})
    assert response.status_code == 302
    assert match_at(evening, 1).hands.get().is_draw


def test_a_coordinator_records_at_any_table(coordinator_client, evening):
    assert coordinator_client.get(url("table", evening, 3)).status_code == 200
    response = coordinator_client.post(url("draw", evening, 3), {"hand": "1"})
    assert response.status_code == 302
    assert match_at(evening, 3).hands.count() == 1


@pytest.mark.parametrize(("name", "data"), TABLE_WRITES)
@pytest.mark.parametrize("who", ["member", "coordinator"])
def test_nothing_is_recorded_once_the_session_is_not_in_play(
    client, coordinator, evening, name, data, who
):
    if who == "member":
        login_as_seated(client, evening, 1)
    else:
        client.force_login(coordinator)
    Session.objects.filter(pk=evening.pk).update(status=Session.Status.CLOSED)
    response = client.post(url(name, evening), data)
    # Not the coordinators' "not allowed" page: the table is told what happened.
    assert response.status_code == 200
    assert "ended the evening" in response.content.decode()
    assert hands_and_kongs(evening) == (0, 0)
    # The page itself stays readable, without the forms.
    page = client.get(url("table", evening)).content.decode()
    assert "Hand 1" in page and "Record a draw" not in page


def test_a_table_without_play_is_not_found(coordinator_client, evening):
    assert coordinator_client.get(url("table", evening, 9)).status_code == 404


def test_a_member_who_played_at_the_table_can_read_it_after_the_evening(client, evening):
    login_as_seated(client, evening, 1)
    Match.objects.filter(session=evening).update(status="finished", ending="closed")
    page = client.get(url("table", evening)).content.decode()
    assert "Match over" in page and "Ended when the evening closed" in page


# --- the board ---------------------------------------------------------------------------


def test_the_board_shows_hand_round_dealer_winds_and_who_sits_out(coordinator_client, evening):
    names = [m.table_name for m in seated_members(evening, 2)]
    page = coordinator_client.get(url("table", evening, 2)).content.decode()
    assert "Hand 1" in page and "East round" in page
    assert f"{names[0]} deals" in page
    assert "sits out this hand" in page
    assert page.count('<li class="seat-card') == 5
    assert "Goulash hand" not in page


def test_a_goulash_hand_says_so_with_its_pot(coordinator_client, evening):
    record_draw(match_at(evening, 1), 1)
    page = coordinator_client.get(url("table", evening)).content.decode()
    assert "Goulash hand: pot 20" in page
    three = match_at(evening, 3)
    record_draw(three, 1)
    assert (
        "Goulash hand: pot 15" in coordinator_client.get(url("table", evening, 3)).content.decode()
    )


# --- draws, kong chips, undo: HTMX in place ---------------------------------------------


def test_a_draw_with_htmx_returns_the_table_part_only(coordinator_client, evening):
    response = coordinator_client.post(url("draw", evening), {"hand": "1"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="table-play"')
    assert "<html" not in html
    assert "Hand 1 saved: a draw." in html
    assert "Hand 2" in html and "Goulash hand: pot 20" in html
    assert "Record a draw for hand 2" in html


def test_a_stale_draw_is_refused_as_already_recorded(client, coordinator, evening):
    match = match_at(evening, 1)
    record_draw(match, 1)  # on another device
    login_as_seated(client, evening, 1)
    response = client.post(url("draw", evening), {"hand": "1"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Hand 1 is already recorded" in html and 'role="alert"' in html
    assert match.hands.count() == 1


def test_a_double_tap_records_one_draw(coordinator_client, evening):
    first = coordinator_client.post(url("draw", evening), {"hand": "1"}, **HTMX)
    second = coordinator_client.post(url("draw", evening), {"hand": "1"}, **HTMX)
    assert first.status_code == second.status_code == 200
    assert "already recorded" not in second.content.decode()
    assert match_at(evening, 1).hands.count() == 1


def test_kong_chips_are_paid_at_once(coordinator_client, evening):
    response = coordinator_client.post(
        url("kong", evening),
        {"hand": "1", "chair": "1", "kind": "concealed", "key": str(uuid.uuid4())},
        **HTMX,
    )
    assert response.status_code == 200
    kong = KongChips.objects.get()
    assert kong.payments[:4] == [-3, 9, -3, -3]
    assert match_at(evening, 1).tallies() == [-3, 9, -3, -3]
    assert "made a concealed kong (+9)" in response.content.decode()


def test_a_kong_form_missing_a_choice_is_shown_again_with_the_reason(coordinator_client, evening):
    response = coordinator_client.post(
        url("kong", evening), {"hand": "1", "chair": "1", "key": str(uuid.uuid4())}, **HTMX
    )
    html = response.content.decode()
    assert "Choose which kind of kong it was." in html
    assert 'value="1" id="id_chair_1" checked' in html  # the entry is kept
    assert not KongChips.objects.exists()


def test_kong_chips_are_not_offered_under_other_rules(coordinator_client, club):
    session = seated_session(club)  # classical
    start_play(session)
    page = coordinator_client.get(url("table", session)).content.decode()
    assert "Kong chips" not in page
    response = coordinator_client.post(
        url("kong", session),
        {"hand": "1", "chair": "1", "kind": "concealed", "key": str(uuid.uuid4())},
        **HTMX,
    )
    assert "not part of the" in response.content.decode()
    assert not KongChips.objects.exists()


def test_kong_chips_saved_by_mistake_are_taken_back_and_kept_marked(client, evening):
    member = login_as_seated(client, evening, 1)
    saved = client.post(
        url("kong", evening),
        {"hand": "1", "chair": "1", "kind": "concealed", "key": str(uuid.uuid4())},
        **HTMX,
    ).content.decode()
    kong = KongChips.objects.get()
    # The card stays open after saving, with the chips and their "Take back" in view.
    assert '<details class="card kong-box" open>' in saved and "Take back" in saved
    page = client.get(url("table", evening)).content.decode()
    assert "1 saved this hand" in page and f'name="kong" value="{kong.pk}"' in page
    response = client.post(url("take_back_kong", evening), {"kong": kong.pk}, **HTMX)
    html = response.content.decode()
    assert "kong chips are taken back" in html and "saved this hand" not in html
    kong.refresh_from_db()
    assert kong.is_voided and kong.voided_by == member.user
    assert kong.void_reason == "Taken back at the table"
    assert match_at(evening, 1).tallies() == [0, 0, 0, 0]
    # A second tap (or another device) changes nothing more and says so.
    again = client.post(url("take_back_kong", evening), {"kong": kong.pk}, **HTMX)
    assert "already taken back" in again.content.decode()
    assert KongChips.objects.filter(voided_at__isnull=True).count() == 0


def test_kong_chips_of_a_finished_hand_are_not_taken_back_at_the_table(coordinator_client, evening):
    match = match_at(evening, 1)
    coordinator_client.post(
        url("kong", evening),
        {"hand": "1", "chair": "1", "kind": "discard", "key": str(uuid.uuid4())},
    )
    record_draw(match, 1)
    kong = KongChips.objects.get()
    assert (
        f'name="kong" value="{kong.pk}"'
        not in coordinator_client.get(url("table", evening)).content.decode()
    )
    response = coordinator_client.post(url("take_back_kong", evening), {"kong": kong.pk}, **HTMX)
    assert "belong to hand 1, which is finished: undo that hand first" in (
        response.content.decode()
    )
    kong.refresh_from_db()
    assert not kong.is_voided and match.tallies()[1] > 0


def test_kong_chips_of_another_table_are_not_taken_back(client, evening):
    other = match_at(evening, 2)
    kong = record_kong(other, 1, 0, "concealed")
    login_as_seated(client, evening, 1)
    response = client.post(url("take_back_kong", evening), {"kong": kong.pk}, **HTMX)
    assert "not at this table" in response.content.decode()
    kong.refresh_from_db()
    assert not kong.is_voided


def test_undo_voids_the_last_hand_and_the_deal_follows(coordinator_client, evening):
    match = match_at(evening, 1)
    record_draw(match, 1)
    response = coordinator_client.post(url("undo", evening), {"hand": "1"}, **HTMX)
    html = response.content.decode()
    assert "Hand 1 is undone" in html
    assert "<s>Draw" in html and "undone</strong>" in html
    assert "Goulash hand" not in html and "Record a draw for hand 1" in html
    hand = Hand.objects.get()
    assert hand.is_voided and hand.voided_by is not None
    # A second tap does not undo anything else.
    again = coordinator_client.post(url("undo", evening), {"hand": "1"}, **HTMX)
    assert "already undone" in again.content.decode() or "no hand to undo" in again.content.decode()


def test_a_form_from_a_replaced_match_records_nothing(coordinator_client, evening):
    old = match_at(evening, 1)
    response = coordinator_client.post(
        url("draw", evening), {"hand": "1", "match": str(old.pk + 1000)}, **HTMX
    )
    assert "players at this table changed" in response.content.decode()
    assert not Hand.objects.exists()


# --- polling -----------------------------------------------------------------------------


def live_url(session, match, version, hand=None):
    query = f"?m={match.pk}&v={version}"
    if hand is not None:
        query += f"&open=1&h={hand}"
    return url("poll", session) + query


def test_polling_answers_204_while_nothing_changed(coordinator_client, evening):
    match = match_at(evening, 1)
    response = coordinator_client.get(live_url(evening, match, match.version, 1), **HTMX)
    assert response.status_code == 204 and response.content == b""


def test_polling_sends_the_board_when_another_device_recorded(coordinator_client, evening):
    match = match_at(evening, 1)
    shown = match.version
    record_draw(match, 1)
    response = coordinator_client.get(live_url(evening, match, shown, 1), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="poll"')
    assert "Hand 2" in html and "Draw: the wall ran out" in html
    # The form being filled in is left alone; a notice says the hands moved on.
    assert 'id="win-form"' not in html
    assert 'id="stale-notice" hx-swap-oob="true"' in html
    match.refresh_from_db()
    assert f"v={match.version}" in html


def test_polling_reloads_the_page_when_the_match_is_replaced_or_finished(
    coordinator_client, evening
):
    match = match_at(evening, 1)
    response = coordinator_client.get(
        live_url(evening, match, 0, 1).replace(f"m={match.pk}", "m=0")
    )
    assert response.status_code == 204 and response["HX-Refresh"] == "true"
    Match.objects.filter(pk=match.pk).update(status="finished", ending="ended")
    response = coordinator_client.get(live_url(evening, match, match.version, 1))
    assert response["HX-Refresh"] == "true"


# --- dice ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "wall"),
    [(1, "E"), (5, "E"), (9, "E"), (13, "E"), (17, "E"), (2, "S"), (6, "S"), (10, "S")]
    + [(14, "S"), (18, "S"), (3, "W"), (7, "W"), (11, "W"), (15, "W"), (4, "N"), (8, "N")]
    + [(12, "N"), (16, "N")],
)
def test_the_dice_total_names_the_wall_counting_from_the_dealer(total, wall):
    assert dice.wall_to_break(total) == wall


@pytest.mark.parametrize("count", [2, 3])
@pytest.mark.parametrize(
    "names",
    [
        {"E": "Ann", "S": "Betty", "W": "Carol"},  # a table of three: nobody sits North
        {"E": "Ann", "S": "Betty", "W": "Carol", "N": "Dot"},
        {"E": "Eve", "S": "Ann", "W": "Betty", "N": "Carol"},  # five: Dot dreams this hand
    ],
)
def test_a_throw_names_whose_wall_it_is(count, names):
    for seed in range(60):
        thrown = dice.throw(count, names, random.Random(seed))
        assert len(thrown.dice) == count and all(1 <= d <= 6 for d in thrown.dice)
        assert count <= thrown.total <= 6 * count
        assert thrown.wall == dice.wall_to_break(thrown.total)
        assert thrown.owner == names.get(thrown.wall)
        sentence = thrown.sentence()
        assert sentence.startswith(" + ".join(map(str, thrown.dice)) + f" = {thrown.total}: ")
        if thrown.wall == "N" and "N" not in names:
            assert sentence.endswith("break the North wall (nobody sits North)")
        elif thrown.wall == "E":
            assert sentence.endswith(f"break the dealer's wall ({names['E']}'s)")
        else:
            assert f"({names[thrown.wall]}'s)" in sentence


def test_the_sentence_reads_as_the_issue_says():
    thrown = dice.Throw(dice=(4, 6, 1), wall="W", owner="Carol")
    assert thrown.sentence() == "4 + 6 + 1 = 11: break West's wall (Carol's)"
    assert thrown.faces == "⚃ ⚅ ⚀"


def test_only_two_or_three_dice(evening):
    with pytest.raises(ValueError, match="2 or 3 dice"):
        dice.throw(4, {})


def test_dice_on_the_page_only_when_the_club_wants_them(coordinator_client, club, evening):
    assert "Throw the dice" not in coordinator_client.get(url("table", evening)).content.decode()
    assert coordinator_client.post(url("dice", evening), **HTMX).status_code == 404
    club.show_dice, club.dice_count = True, 3
    club.save()
    assert "Throw the dice" in coordinator_client.get(url("table", evening)).content.decode()
    response = coordinator_client.post(url("dice", evening), **HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="dice"')
    assert "wall" in html and html.count(" + ") == 2
    assert not Hand.objects.exists()


def test_the_dice_setting_is_on_the_settings_page(coordinator_client, club):
    page = coordinator_client.get(reverse("club_settings")).content.decode()
    assert "Show dice on the table page" in page and "Three dice" in page


# --- the coordinator: start and end the evening ----------------------------------------


def test_start_play_from_the_sessions_page(coordinator_client, club):
    session = seated_session(club, sizes=(4, 4))
    detail = reverse("club:session_detail", args=[session.pk])
    assert "Start play at the tables" in coordinator_client.get(detail).content.decode()
    response = coordinator_client.post(reverse("games:start", args=[session.pk]), follow=True)
    html = response.content.decode()
    assert "Play has started at 2 tables" in html
    assert Match.objects.filter(session=session).in_play().count() == 2
    assert "Hand 1, East round" in html and "End the evening" in html


def test_the_session_page_shows_each_tables_progress(coordinator_client, evening):
    match = match_at(evening, 3)
    record_draw(match, 1)
    coordinator_client.post(
        url("kong", evening, 3),
        {"hand": "2", "chair": "2", "kind": "discard", "key": str(uuid.uuid4())},
    )
    detail = coordinator_client.get(reverse("club:session_detail", args=[evening.pk]))
    html = detail.content.decode()
    winner = seated_members(evening, 3)[2].table_name
    assert "Hand 2, East round" in html and f"Leading: {winner} (4)" in html
    assert reverse("scoring:table", args=[evening.pk, 2]) in html


def test_end_the_evening_asks_first_then_ends_every_match_and_closes(coordinator_client, evening):
    end = reverse("games:end", args=[evening.pk])
    confirm = coordinator_client.get(end).content.decode()
    assert "3 tables are still playing" in confirm
    assert Match.objects.in_play().count() == 3
    coordinator_client.post(end)
    evening.refresh_from_db()
    assert evening.status == Session.Status.CLOSED
    assert not Match.objects.in_play().exists()
    assert set(Match.objects.values_list("ending", flat=True)) == {"closed"}


@pytest.mark.parametrize(("name", "method"), [("start", "post"), ("end", "get"), ("end", "post")])
def test_only_coordinators_start_and_end_play(client, member_client, club, name, method):
    session = seated_session(club)
    target = reverse(f"games:{name}", args=[session.pk])
    response = getattr(client.__class__(), method)(target)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert getattr(member_client, method)(target).status_code == 403
    assert not Match.objects.exists()
    session.refresh_from_db()
    assert session.status == Session.Status.PLANNED


def test_a_seated_member_finds_their_table_on_the_home_page(client, evening):
    login_as_seated(client, evening, 2, position=4)
    html = client.get(reverse("home")).content.decode()
    assert "Your table: record the hands" in html
    assert reverse("scoring:table", args=[evening.pk, 2]) in html


def test_no_table_link_for_a_member_not_playing(member_client, evening):
    assert "record the hands" not in member_client.get(reverse("home")).content.decode()


def test_no_table_link_once_the_evening_is_over(client, evening):
    login_as_seated(client, evening, 1)
    Match.objects.update(status="finished", ending="closed")
    assert "record the hands" not in client.get(reverse("home")).content.decode()


# --- a table key: a device with no login records at its table --------------------------------

# Every view of the table page a key opens (the tiles' page too).
KEY_VIEWS = [*TABLE_VIEWS, ("full", "get", {})]
# The writes a key device may still send after the evening ended: answered "the evening was
# ended" (nothing written), as any device's are, not refused like every other request.
ENDED_ANSWERED = {name for name, _ in TABLE_WRITES}


def card_of(session, number=1):
    return TableKey.objects.for_tables(session, [number])[number]


def holding(client, key):
    """The device scanned the card: /t/<code>/ took it to the table."""
    assert client.get(f"/t/{key.code}/").status_code == 302
    return client


def key_refused(response) -> bool:
    return response.status_code == 403 and "This table card does not work" in (
        response.content.decode()
    )


@pytest.mark.parametrize(("name", "method", "data"), KEY_VIEWS)
def test_a_key_opens_its_own_table_for_every_view(client, evening, name, method, data):
    type(evening.club).objects.filter(pk=evening.club_id).update(show_dice=True)
    holding(client, card_of(evening, 1))
    response = getattr(client, method)(url(name, evening, 1), data, **HTMX)
    assert response.status_code in (200, 204), response.status_code
    assert "This table card does not work" not in response.content.decode()


def test_a_key_records_draws_wins_kong_chips_and_undoes_with_no_login(client, coordinator, evening):
    key = card_of(evening, 1)
    holding(client, key)
    assert client.post(url("draw", evening), {"hand": "1"}, **HTMX).status_code == 200
    win = {"hand": "2", "winner": "0", "won_by": "wall", "total": "10"}
    assert "Hand 2 saved" in client.post(url("win", evening), win, **HTMX).content.decode()
    kong = {"hand": "3", "chair": "1", "kind": "concealed", "key": str(uuid.uuid4())}
    client.post(url("kong", evening), kong, **HTMX)
    match = match_at(evening, 1)
    assert match.hands.filter(recorded_with=key).count() == 2
    assert match.kong_chips.get().recorded_with == key
    client.post(url("take_back_kong", evening), {"kong": match.kong_chips.get().pk}, **HTMX)
    client.post(url("undo", evening), {"hand": "2"}, **HTMX)
    assert [h.number for h in match.live_hands()] == [1]
    assert match.kong_chips.get().is_voided
    # Undoing and taking back are uses of the key too: the struck-out records keep it, and
    # the scoresheet's "Undone at the table" names the tablet.
    undone = match.hands.get(number=2)
    assert (undone.voided_with, undone.voided_by) == (key, None)
    assert match.kong_chips.get().voided_with == key
    reader = Client()
    reader.force_login(coordinator)
    sheet = reader.get(reverse("scoring:scoresheet", args=[match.pk]))
    said = " ".join(unescape(re.sub(r"<[^>]+>", " ", sheet.content.decode())).split())
    names = match.player_names()
    assert re.search(
        rf"Undone at the table Hand 3: Kong chips: {names[1]} made a concealed kong \(\+\d+\)\. "
        r"Taken back \d+ \w+ \d\d:\d\d on the table 1 tablet\. "
        rf"Hand 2: {names[0]} won self-drawn from the wall, 10 points\. "
        r"Undone \d+ \w+ \d\d:\d\d on the table 1 tablet\.",
        said,
    ), said


def refused_case(client, evening, case):
    """A device set up for `case`; returns the table the device asks for."""
    key = card_of(evening, 1)
    holding(client, key)
    if case == "another table":
        return 2
    if case == "after the evening ended":
        Session.objects.filter(pk=evening.pk).update(status=Session.Status.CLOSED)
    elif case == "after the key was stopped":
        key.revoke()
    elif case == "the old key after a re-issue":
        TableKey.reissue(evening, 1, None, key.pk)
    elif case == "a forged key id in the session":
        session = client.session
        session[DEVICE_KEYS] = [key.pk + 1000]
        session.save()
    return 1


KEY_REFUSED = [
    "another table",
    "after the evening ended",
    "after the key was stopped",
    "the old key after a re-issue",
    "a forged key id in the session",
]


@pytest.mark.parametrize("case", KEY_REFUSED)
@pytest.mark.parametrize(("name", "method", "data"), KEY_VIEWS)
def test_a_key_is_refused_where_it_does_not_open(client, evening, name, method, data, case):
    number = refused_case(client, evening, case)
    for extra in ({}, HTMX):
        response = getattr(client, method)(url(name, evening, number), data, **extra)
        if case == "after the evening ended" and method == "post" and name in ENDED_ANSWERED:
            # Sent after the end (an outbox catching up): told so, as any device is.
            assert response.status_code in (200, 302) and not key_refused(response)
            if extra and name != "preview":  # the outbox's writes say what became of them
                assert response["X-Table-Outcome"] == "ended"
        elif case == "after the evening ended" and name == "poll":
            # The card device's poll: told so, and the polling stops (htmx's 286).
            assert response.status_code == STOP_POLLING and not key_refused(response)
        else:
            assert key_refused(response), (case, response.status_code)
    assert hands_and_kongs(evening) == (0, 0)


def test_the_refusal_is_the_same_whatever_the_reason(evening):
    pages = set()
    for case in KEY_REFUSED:
        client = Client()
        number = refused_case(client, evening, case)
        page = client.get(url("table", evening, number)).content.decode()
        pages.add(re.search(r"<main.*</main>", page, re.S)[0])  # the frame holds a CSRF token
        Session.objects.filter(pk=evening.pk).update(status=Session.Status.IN_PLAY)
        TableKey.objects.all().delete()  # the next case starts with a new card
    assert len(pages) == 1


def test_the_new_key_after_a_re_issue_opens_the_table(client, evening):
    old = card_of(evening, 1)
    new, _ = TableKey.reissue(evening, 1, None, old.pk)
    holding(client, new)
    assert client.post(url("draw", evening), {"hand": "1"}).status_code == 302
    assert match_at(evening, 1).hands.get().recorded_with == new


def test_a_key_of_one_club_opens_nothing_at_another_clubs_address(client, evening):
    other = ClubFactory()
    theirs = seated_session(other, sizes=(4,))
    start_play(theirs)
    holding(client, card_of(evening, 1))
    their_table = f"/c/{other.slug}" + url("table", theirs, 1)
    assert key_refused(client.get(their_table))
    # And the other club's key, at this club's address.
    stranger = Client()
    holding(stranger, card_of(theirs, 1))
    assert key_refused(stranger.get(f"/c/{evening.club.slug}" + url("table", evening, 1)))
    assert stranger.get(f"/c/{other.slug}" + url("table", theirs, 1)).status_code == 200


def test_a_key_survives_a_late_arrival_that_replaces_the_tables_match(client, evening):
    from club.seating.changes import seat_late_arrival

    holding(client, card_of(evening, 3))  # the table of three: the late arrival joins it
    before = match_at(evening, 3)
    assert client.post(url("draw", evening, 3), {"hand": "1"}).status_code == 302
    assert seat_late_arrival(evening, MemberFactory(club=evening.club)).changed
    after = match_at(evening, 3)
    assert after.pk != before.pk and after.chair_count == 4
    assert client.get(url("table", evening, 3)).status_code == 200
    assert client.post(url("draw", evening, 3), {"hand": "1"}).status_code == 302
    assert after.hands.count() == 1


def test_a_key_opens_nothing_but_its_table(client, evening, coordinator):
    """No score sheets (its own table's neither), no members, no coordinator's pages: the
    login page, as for anyone without a login."""
    from club.models import Member

    holding(client, card_of(evening, 1))
    match = match_at(evening, 1)
    other = match_at(evening, 2)
    member = Member.objects.filter(club=evening.club).first()
    pages = [
        reverse("scoring:scoresheet", args=[match.pk]),
        reverse("scoring:scoresheet", args=[other.pk]),
        reverse("scoring:paper", args=[match.pk]),
        reverse("scoring:changes", args=[evening.pk]),
        reverse("club:member_list"),
        reverse("club:member_detail", args=[member.pk]),
        reverse("club:session_detail", args=[evening.pk]),
        reverse("club:check_in", args=[evening.pk]),
        reverse("club:seating_manage", args=[evening.pk]),
        reverse("club:seating_print", args=[evening.pk]),
        reverse("games:table_keys", args=[evening.pk]),
    ]
    # The table page does not offer what the key does not open.
    assert (
        reverse("scoring:scoresheet", args=[match.pk])
        not in client.get(url("table", evening, 1)).content.decode()
    )
    for page in pages:
        response = client.get(page)
        assert response.status_code == 302, page
        assert response["Location"].startswith(reverse("login")), page
    for write in (
        reverse("games:end", args=[evening.pk]),
        reverse("games:start", args=[evening.pk]),
    ):
        assert client.post(write).status_code == 302
    assert Session.objects.get(pk=evening.pk).status == Session.Status.IN_PLAY


def test_members_at_the_tables_never_see_a_key(client, evening):
    keys = TableKey.objects.for_tables(evening, [1, 2, 3])
    member = login_as_seated(client, evening, 1)
    pages = [
        url("table", evening, 1),
        reverse("club:seating", args=[evening.pk]),
        reverse("club:seating_print", args=[evening.pk]),
        reverse("home"),
    ]
    for page in pages:
        text = client.get(page).content.decode()
        assert member.table_name in text or "Table 1" in text, page
        assert not any(k.code in text or k.shown_code in text for k in keys.values()), page
