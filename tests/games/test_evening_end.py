"""A table write that arrives after "End the evening": it is told plainly what happened,
keeps what was entered, and can be sent again once the coordinator reopens the evening,
when the tables the end stopped carry on. Ending and saving at once never lose a hand."""

import re
import uuid
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.models import Session
from games.models import Match
from games.start import end_evening, start_play
from scoring.models import Hand, KongChips
from scoring.recording import Win, record_draw, record_kong, record_win
from tests.factories import CoordinatorFactory, UserFactory
from tests.games.helpers import seated_members, seated_session
from tests.threads import at_once

HTMX = {"HTTP_HX_REQUEST": "true"}
ENDED = "The coordinator ended the evening at "
NOT_OURS = "this page is for the club's coordinators"


@pytest.fixture
def evening(club):
    """A u3a session in play: table 1 of four (a hand recorded), table 2 of five."""
    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4, 5))
    first, _ = start_play(session)
    record_draw(first, 1)
    session.refresh_from_db()
    return session


def _seated_client(session, number=1) -> Client:
    member = seated_members(session, number)[0]
    member.user = UserFactory()
    member.save()
    client = Client()
    client.force_login(member.user)
    return client


def _url(name, session, number=1):
    return reverse(f"scoring:{name}", args=[session.pk, number])


def _match(session, number=1) -> Match:
    return Match.objects.filter(session=session, table_number=number).latest("pk")


# Each table write, with what it posts (the hand being played is 2 after the draw).
def _writes(match) -> dict[str, dict]:
    kong = KongChips.objects.filter(match=match, voided_at__isnull=True).first()
    return {
        "win": {"hand": "2", "winner": "1", "won_by": "wall", "total": "12", "action": "save"},
        "draw": {"hand": "2"},
        "kong": {"hand": "2", "chair": "2", "kind": "concealed", "key": str(uuid.uuid4())},
        "take_back_kong": {"kong": str(kong.pk) if kong else "0"},
        "undo": {"hand": "1"},
    }


def _records(session) -> tuple:
    hands = Hand.objects.filter(match__session=session)
    kongs = KongChips.objects.filter(match__session=session)
    return (
        sorted(hands.values_list("pk", "number", "voided_at")),
        sorted(kongs.values_list("pk", "hand_number", "voided_at")),
    )


def _kept_fields(page: str) -> dict[str, str]:
    """The hidden fields of the "send it again" form on an evening-ended answer."""
    form = page[page.index('class="error-summary evening-ended"') :]
    form = form[: form.index("</form>")]
    fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form)
    return {name: unescape(value) for name, value in fields if name != "csrfmiddlewaretoken"}


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["win", "draw", "kong", "take_back_kong", "undo"])
@pytest.mark.parametrize("htmx", [True, False])
def test_every_table_write_after_the_end_is_told_why_and_keeps_its_entries(evening, name, htmx):
    match = _match(evening)
    record_kong(match, 2, 0, "concealed")
    data = {**_writes(match)[name], "match": str(match.pk)}
    client = _seated_client(evening)
    end_evening(evening)
    before = _records(evening)
    at = timezone.localtime(Match.objects.get(pk=match.pk).finished_at).strftime("%H:%M")

    response = client.post(_url(name, evening), data, **(HTMX if htmx else {}))

    page = response.content.decode()
    assert response.status_code == 200
    assert NOT_OURS not in page
    assert f"{ENDED}{at} before " in page
    assert "Ask the coordinator to reopen the evening to " in page
    assert _records(evening) == before  # nothing written
    assert _kept_fields(page) == data  # the entries, to send again
    if name == "win":
        assert "What this device sent (not saved):" in page and "12 points" in page


@pytest.mark.django_db
def test_the_live_preview_and_the_tile_picker_say_the_evening_ended(evening):
    match = _match(evening)
    client = _seated_client(evening)
    end_evening(evening)
    data = {"hand": "2", "winner": "1", "won_by": "wall", "total": "12", "match": match.pk}
    preview = client.post(_url("preview", evening), data, **HTMX)
    assert preview.status_code == 200 and ENDED in preview.content.decode()
    picker = client.get(_url("full", evening), follow=True)
    assert picker.status_code == 200 and "The coordinator ended the evening at " in (
        picker.content.decode()
    )
    saved = client.post(_url("full", evening), {"hand": "2", "match": match.pk, "save": "1"})
    assert saved.status_code == 200 and ENDED in saved.content.decode()
    assert NOT_OURS not in saved.content.decode()


def _coordinator() -> Client:
    client = Client()
    client.force_login(CoordinatorFactory())
    return client


def _reopen(session) -> None:
    client = _coordinator()
    response = client.post(reverse("club:session_status", args=[session.pk]), {"status": "in_play"})
    assert response.status_code == 302


@pytest.mark.django_db
def test_reopening_lets_the_tables_the_end_stopped_carry_on(evening, club):
    """Only the matches "End the evening" ended open again; one that played to the end
    or ended when its table changed stays as it was."""
    first, second = _match(evening, 1), _match(evening, 2)
    # Table 3 played a one-round fan match to its end, then the evening ended.
    played = Match.objects.create(
        session=evening, table_number=3, rules="fan", starting_tally=0, flow_options={"rounds": 1}
    )
    for chair, member in enumerate(seated_members(evening, 2)[:3]):
        played.chairs.create(number=chair, member=member)
    for number in (1, 2, 3):
        record_draw(played, number)
    played.refresh_from_db()
    assert played.ending == Match.Ending.FLOW
    client = _seated_client(evening)
    end_evening(evening)
    refused = client.post(
        _url("win", evening), {**_writes(first)["win"], "match": first.pk}, **HTMX
    )
    assert ENDED in refused.content.decode()

    _reopen(evening)

    evening.refresh_from_db()
    assert evening.status == Session.Status.IN_PLAY
    for match in (first, second):
        match.refresh_from_db()
        assert match.is_in_play and match.ending == "" and match.finished_at is None
    assert Match.objects.get(pk=played.pk).ending == Match.Ending.FLOW
    # The same entries, sent again, are saved as hand 2 of the same match.
    again = client.post(_url("win", evening), _kept_fields(refused.content.decode()), **HTMX)
    page = again.content.decode()
    assert "Hand 2 saved" in page, re.findall(r"(?:error|message)[^>]*>([^<]+)", page)
    assert first.live_hands().last().number == 2
    # And the evening can be ended again, with the same matches.
    end_evening(evening)
    assert not Match.objects.filter(session=evening).in_play().exists()


def _saved_or_told(session, name, response, before, after) -> str:
    """A write racing "End the evening" either landed before the end (its effect is in
    the records, the answer says so) or was refused after it (nothing written, told
    why): never a hand lost, never the coordinators' page."""
    page = response.content.decode()
    assert response.status_code == 200, page[:500]
    assert NOT_OURS not in page
    if ENDED in page:
        assert after == before, f"{name} was refused yet wrote something"
        return "refused"
    assert after != before, f"{name} was answered as saved but nothing was written"
    return "saved"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", ["win", "draw", "kong", "take_back_kong", "undo"])
def test_ending_the_evening_while_a_table_saves_never_loses_the_save(club, name):
    """ "End the evening" and a table's write released together, several rounds: each
    write lands before the end or is refused after it, and after reopening the refused
    one is sent again and saved."""
    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4, 4))
    start_play(session)
    first = _match(session)
    record_draw(first, 1)
    table = _seated_client(session)
    ender = _coordinator()
    outcomes = []
    for _ in range(4):
        match = _match(session)
        number = match.replay()[-1].hand
        if name == "take_back_kong":
            record_kong(match, number, 0, "concealed")
        if name == "undo" and not match.live_hands().exists():
            record_win(match, number, Win(0, "wall", None, 12))
            number += 1
        data = {
            **_writes(match)[name],
            "hand": str(number - 1 if name == "undo" else number),
            "match": str(match.pk),
        }
        if name == "take_back_kong":
            data = {"kong": str(match.kong_chips.latest("pk").pk), "match": str(match.pk)}
        before = _records(session)
        end, write = at_once(
            [
                lambda: ender.post(reverse("games:end", args=[session.pk]), {}),
                lambda data=data: table.post(_url(name, session), data, **HTMX),
            ]
        )
        assert end.status_code == 302
        after = _records(session)
        outcome = _saved_or_told(session, name, write, before, after)
        outcomes.append(outcome)
        assert not Match.objects.filter(session=session).in_play().exists()
        _reopen(session)
        assert _match(session).pk == match.pk and _match(session).is_in_play
        if outcome == "refused":
            kept = _kept_fields(write.content.decode())
            resent = table.post(_url(name, session), kept, **HTMX)
            assert ENDED not in resent.content.decode()
            assert _records(session) != before  # added after the reopening
    assert len(outcomes) == 4


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["win", "draw", "kong", "undo"])
def test_a_save_that_queued_behind_the_end_is_told_why(evening, name, monkeypatch):
    """The table's page read the evening as in play, then "End the evening" committed
    before the save took the match's row: the save finds the match ended by the evening
    and is answered as above, nothing written."""
    from scoring import selectors

    match = _match(evening)
    data = {**_writes(match)[name], "match": str(match.pk)}
    client = _seated_client(evening)
    # The table's match as the page found it, with its session, before the evening ended.
    read_before_the_end = Match.objects.select_related("session").get(pk=match.pk)
    end_evening(evening)
    monkeypatch.setattr(selectors, "table_match", lambda session, number: read_before_the_end)
    before = _records(evening)

    response = client.post(_url(name, evening), data, **HTMX)

    page = response.content.decode()
    assert ENDED in page, re.findall(r"(?:error|message)[^>]*>([^<]+)", page)
    assert response.status_code == 200
    assert _records(evening) == before and _kept_fields(page) == data


@pytest.mark.django_db
def test_undoing_the_hand_that_ended_a_match_waits_for_a_reopened_evening(club):
    """Undoing the last hand of a match that played to its end opens it again: not in a
    closed session (the match would stay open after "End the evening")."""
    from scoring.recording import EveningEnded, undo_last_hand

    club.rule_set = "fan"
    club.save()
    session = seated_session(club, sizes=(3,))
    (match,) = start_play(session)
    Match.objects.filter(pk=match.pk).update(flow_options={"rounds": 1})
    match.refresh_from_db()
    for number in (1, 2, 3):
        record_draw(match, number)
    end_evening(session)
    with pytest.raises(EveningEnded):
        undo_last_hand(match, 3)
    match.refresh_from_db()
    assert match.ending == Match.Ending.FLOW and match.live_hands().count() == 3
    Session.objects.filter(pk=session.pk).update(status=Session.Status.IN_PLAY)
    undo_last_hand(match, 3)
    assert Match.objects.get(pk=match.pk).is_in_play
