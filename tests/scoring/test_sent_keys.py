"""Every quick-entry write takes the page's one-time key (`sent_key`, kept by the outbox on
every resend): a write sent again with its key is answered "already saved" with the table
as it is, never made twice and never a conflict with itself. The key is written in the
write's own transaction (scoring.models.SentWrite, unique per match and key), so it holds
after a restart and only for a write that was made. Every answer says what became of the
write in X-Table-Outcome, for the outbox to read without reading the words."""

import uuid

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from club.models import Session
from games.models import Match
from games.start import end_evening, start_play
from scoring import recording
from scoring.models import Hand, KongChips, SentWrite
from scoring.recording import Win, record_kong, record_win
from tests.games.helpers import seated_session
from tests.threads import at_once, failures

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
OUTCOME = "X-Table-Outcome"


@pytest.fixture
def match(club):
    club.rule_set = "u3a"
    club.save()
    return start_play(seated_session(club, sizes=(4,)))[0]


def url(name, match):
    return reverse(f"scoring:{name}", args=[match.session_id, match.table_number])


def post(client, name, match, data):
    return client.post(url(name, match), {"match": match.pk, **data}, **HTMX)


def live_kongs(match):
    return KongChips.objects.filter(match=match, voided_at__isnull=True).count()


# Each write: what to post (before it, what the table needs) and how to count its effect.
def _win(match):
    return "win", {"hand": 1, "winner": 1, "won_by": "wall", "total": 10, "action": "save"}


def _draw(match):
    return "draw", {"hand": 1}


def _kong(match):
    return "kong", {"hand": 1, "chair": 2, "kind": "concealed", "key": str(uuid.uuid4())}


def _take_back(match):
    kong = record_kong(match, 1, 2, "concealed")
    return "take_back_kong", {"kong": kong.pk}


def _undo(match):
    record_win(match, 1, Win(1, "wall", None, 10))
    return "undo", {"hand": 1}


WRITES = {
    "win": (_win, lambda m: m.live_hands().count(), 1),
    "draw": (_draw, lambda m: m.live_hands().count(), 1),
    "kong": (_kong, live_kongs, 1),
    "take_back": (_take_back, live_kongs, 0),
    "undo": (_undo, lambda m: m.live_hands().count(), 0),
}


@pytest.mark.parametrize("write", WRITES)
def test_a_write_sent_again_with_its_key_is_already_saved(coordinator_client, match, write):
    prepare, effect, once = WRITES[write]
    name, data = prepare(match)
    key = str(uuid.uuid4())
    first = post(coordinator_client, name, match, {**data, "sent_key": key})
    assert first.status_code == 200 and first[OUTCOME] == "saved"
    assert effect(match) == once
    again = post(coordinator_client, name, match, {**data, "sent_key": key})
    assert again.status_code == 200 and again[OUTCOME] == "already-saved"
    assert "That was saved already." in again.content.decode()
    assert effect(match) == once  # not twice
    assert list(SentWrite.objects.filter(match=match).values_list("key", flat=True)) == [
        uuid.UUID(key)
    ]
    match.refresh_from_db()
    version = match.version
    post(coordinator_client, name, match, {**data, "sent_key": key})
    match.refresh_from_db()
    assert match.version == version  # nothing was written, not even the version


def test_the_key_is_kept_by_the_database_not_the_process(coordinator_client, match):
    """A resend after a restart finds the key in the database: simulated by a key written
    by another process (a row only), with the hand it saved."""
    key = uuid.uuid4()
    record_win(match, 1, Win(1, "wall", None, 10))
    SentWrite.objects.create(match=match, key=key, kind="win", hand_number=1)
    data = {"hand": 1, "winner": 1, "won_by": "wall", "total": 10, "action": "save"}
    again = post(coordinator_client, "win", match, {**data, "sent_key": str(key)})
    assert again[OUTCOME] == "already-saved"
    assert Hand.objects.filter(match=match).count() == 1


def test_a_refused_write_leaves_no_key_and_may_be_sent_again(coordinator_client, match):
    key = str(uuid.uuid4())
    # A chair outside the table: refused, so nothing is written, the key neither.
    refused = post(coordinator_client, "draw", match, {"hand": 2, "sent_key": key})
    assert refused[OUTCOME] == "refused"
    assert not SentWrite.objects.exists()
    saved = post(coordinator_client, "draw", match, {"hand": 1, "sent_key": key})
    assert saved[OUTCOME] == "saved"
    assert SentWrite.objects.get().kind == "draw"


def test_a_different_hand_for_a_recorded_number_is_a_conflict_with_both(coordinator_client, match):
    record_win(match, 1, Win(1, "wall", None, 10))
    data = {"hand": 1, "winner": 2, "won_by": "wall", "total": 12, "action": "save"}
    answer = post(coordinator_client, "win", match, {**data, "sent_key": str(uuid.uuid4())})
    assert answer[OUTCOME] == "conflict"
    html = answer.content.decode()
    assert "was saved on another device first" in html
    assert "12 points" in html and "10 points" in html
    drawn = post(coordinator_client, "draw", match, {"hand": 1, "sent_key": str(uuid.uuid4())})
    assert drawn[OUTCOME] == "conflict"
    assert Hand.objects.filter(match=match).count() == 1
    assert not SentWrite.objects.exists()


def test_the_same_hand_saved_by_another_device_is_already_saved(coordinator_client, match):
    record_win(match, 1, Win(1, "wall", None, 10))  # by nobody: another device
    data = {"hand": 1, "winner": 1, "won_by": "wall", "total": 10, "action": "save"}
    answer = post(coordinator_client, "win", match, {**data, "sent_key": str(uuid.uuid4())})
    assert answer[OUTCOME] == "already-saved"
    assert Hand.objects.filter(match=match).count() == 1


def test_after_the_evening_ended_a_write_is_ended_unless_it_was_made(coordinator_client, match):
    key = str(uuid.uuid4())
    data = {"hand": 1, "winner": 1, "won_by": "wall", "total": 10, "action": "save"}
    assert post(coordinator_client, "win", match, {**data, "sent_key": key})[OUTCOME] == "saved"
    end_evening(Session.objects.get(pk=match.session_id))
    # Made before the end, its answer lost: saved already, not "ended".
    assert post(coordinator_client, "win", match, {**data, "sent_key": key})[OUTCOME] == (
        "already-saved"
    )
    other = {"hand": 2, "sent_key": str(uuid.uuid4())}
    assert post(coordinator_client, "draw", match, other)[OUTCOME] == "ended"
    assert Hand.objects.filter(match=match).count() == 1


def test_a_write_from_a_replaced_match_is_refused(coordinator_client, match):
    data = {"hand": 1, "match": match.pk + 1000, "sent_key": str(uuid.uuid4())}
    answer = coordinator_client.post(url("draw", match), data, **HTMX)
    assert answer[OUTCOME] == "refused"


def test_a_key_that_is_not_a_key_is_ignored(coordinator_client, match):
    answer = post(coordinator_client, "draw", match, {"hand": 1, "sent_key": "not-a-key"})
    assert answer[OUTCOME] == "saved"
    assert not SentWrite.objects.exists()


def test_the_database_refuses_a_key_twice_for_one_match(match):
    key = uuid.uuid4()
    SentWrite.objects.create(match=match, key=key, kind="win", hand_number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        SentWrite.objects.create(match=match, key=key, kind="draw", hand_number=1)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("write", ["win", "draw", "kong", "undo"])
def test_the_same_keyed_write_twice_at_once_is_made_once(club, write):
    """Two sends of one write released together (the outbox and a press, two tabs): one
    record; the other waits for the match's lock and finds the key."""
    club.rule_set = "u3a"
    club.save()
    match = start_play(seated_session(club, sizes=(4,)))[0]
    if write == "undo":
        record_win(match, 1, Win(1, "wall", None, 10))
    key = uuid.uuid4()
    calls = {
        "win": lambda: recording.save_win(match, 1, Win(1, "wall", None, 10), sent_key=key),
        "draw": lambda: recording.save_draw(match, 1, sent_key=key),
        "kong": lambda: recording.save_kong(match, 1, 2, "concealed", sent_key=key),
        "undo": lambda: recording.save_undo(match, 1, sent_key=key),
    }
    results = at_once([calls[write], calls[write]])
    errors = failures(results)
    assert len(errors) == 1 and isinstance(errors[0], recording.AlreadySent), results
    assert SentWrite.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).version == 1 + (write == "undo")
    if write == "kong":
        assert live_kongs(match) == 1
    else:
        assert Hand.objects.filter(match=match, voided_at__isnull=(write != "undo")).count() == 1
