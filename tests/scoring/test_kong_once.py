"""Kong chips are saved once per kong form: the form carries a one-time key, a repeat of the
same form answers "already saved", and the database refuses a second row with the key."""

import re
import uuid

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from games.models import Match
from games.start import start_play
from scoring.models import KongChips
from scoring.recording import KongAlreadySaved, record_kong
from tests.games.helpers import seated_session

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def evening(club):
    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4,))
    start_play(session)
    return session


def url(name, session):
    return reverse(f"scoring:{name}", args=[session.pk, 1])


def page_key(html: str) -> str:
    """The key the page's kong form carries."""
    return re.search(r'name="key" value="([0-9a-f-]{36})"', html).group(1)


def test_the_same_kong_form_posted_twice_saves_the_chips_once(coordinator_client, evening):
    key = page_key(coordinator_client.get(url("table", evening)).content.decode())
    data = {"hand": "1", "chair": "1", "kind": "concealed", "key": key}
    first = coordinator_client.post(url("kong", evening), data, **HTMX)
    second = coordinator_client.post(url("kong", evening), data, **HTMX)
    assert first.status_code == second.status_code == 200
    assert KongChips.objects.count() == 1
    html = second.content.decode()
    assert "are already saved" in html
    match = Match.objects.get(session=evening)
    assert match.tallies() == [-3, 9, -3, -3]
    # The page after a save offers a fresh form, with a new key, for another kong.
    assert page_key(first.content.decode()) != key
    assert page_key(html) != key


def test_a_plain_repost_also_saves_once(coordinator_client, evening):
    data = {"hand": "1", "chair": "2", "kind": "discard", "key": str(uuid.uuid4())}
    coordinator_client.post(url("kong", evening), data)
    again = coordinator_client.post(url("kong", evening), data, follow=True)
    assert again.status_code == 200
    assert "are already saved" in again.content.decode()
    assert KongChips.objects.count() == 1


def test_a_repeat_after_the_hand_moved_on_still_says_already_saved(coordinator_client, evening):
    """The chips were saved, then the hand was recorded: the repeat is not a stale form."""
    data = {"hand": "1", "chair": "1", "kind": "concealed", "key": str(uuid.uuid4())}
    coordinator_client.post(url("kong", evening), data, **HTMX)
    coordinator_client.post(url("draw", evening), {"hand": "1"}, **HTMX)
    again = coordinator_client.post(url("kong", evening), data, **HTMX).content.decode()
    assert "are already saved" in again and "just recorded on another device" not in again
    assert KongChips.objects.count() == 1


def test_a_repeat_of_chips_taken_back_saves_nothing_and_says_so(coordinator_client, evening):
    data = {"hand": "1", "chair": "1", "kind": "concealed", "key": str(uuid.uuid4())}
    coordinator_client.post(url("kong", evening), data, **HTMX)
    kong = KongChips.objects.get()
    coordinator_client.post(url("take_back_kong", evening), {"kong": kong.pk}, **HTMX)
    again = coordinator_client.post(url("kong", evening), data, **HTMX).content.decode()
    assert "saved and then taken back" in again
    assert KongChips.objects.count() == 1
    assert Match.objects.get(session=evening).tallies() == [0, 0, 0, 0]


def test_two_kongs_by_one_player_in_one_hand_are_two_forms_and_both_count(
    coordinator_client, evening
):
    for _ in range(2):
        key = page_key(coordinator_client.get(url("table", evening)).content.decode())
        data = {"hand": "1", "chair": "1", "kind": "added", "key": key}
        coordinator_client.post(url("kong", evening), data, **HTMX)
    assert KongChips.objects.count() == 2


@pytest.mark.parametrize("key", ["", "not-a-key"])
def test_a_kong_form_without_its_key_saves_nothing_and_offers_a_fresh_one(
    coordinator_client, evening, key
):
    data = {"hand": "1", "chair": "1", "kind": "concealed", "key": key}
    response = coordinator_client.post(url("kong", evening), data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "This kong form was out of date, so nothing was saved" in html
    assert 'value="1" id="id_chair_1" checked' in html  # the entries are kept
    fresh = page_key(html)
    assert not KongChips.objects.exists()
    saved = coordinator_client.post(url("kong", evening), {**data, "key": fresh}, **HTMX)
    assert "Kong chips saved for" in saved.content.decode()
    assert KongChips.objects.count() == 1


def test_the_recording_function_finds_the_chips_a_key_saved(evening):
    match = Match.objects.get(session=evening)
    key = uuid.uuid4()
    kong = record_kong(match, 1, 1, "concealed", key=key)
    with pytest.raises(KongAlreadySaved) as repeat:
        record_kong(match, 1, 1, "concealed", key=key)
    assert repeat.value.kong == kong
    assert KongChips.objects.count() == 1


def test_the_database_refuses_a_second_row_with_one_key_in_a_match(evening):
    match = Match.objects.get(session=evening)
    key = uuid.uuid4()
    record_kong(match, 1, 1, "concealed", key=key)
    with pytest.raises(IntegrityError), transaction.atomic():
        KongChips.objects.create(match=match, hand_number=1, chair=2, kind="added", key=key)
    # Rows without a key (older records) are not held to it.
    record_kong(match, 1, 1, "concealed")
    record_kong(match, 1, 1, "concealed")
    assert KongChips.objects.count() == 3


def test_kong_chips_posted_after_their_hand_was_recorded_are_not_moved_on(
    coordinator_client, evening
):
    """Another device recorded hand 1 first: the chips are not offered as hand 2's."""
    coordinator_client.post(url("draw", evening), {"hand": "1"}, **HTMX)
    data = {"hand": "1", "chair": "1", "kind": "concealed", "key": str(uuid.uuid4())}
    html = coordinator_client.post(url("kong", evening), data, **HTMX).content.decode()
    assert "Hand 1 was recorded on another device before these kong chips were saved" in html
    kong_form = html.split('action="' + url("kong", evening))[1].split("</form>")[0]
    assert 'name="hand" value="2"' in kong_form and "checked" not in kong_form
    assert not KongChips.objects.exists()
