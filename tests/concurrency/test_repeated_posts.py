"""Every write that a "press again" message can invite, posted twice in a row and twenty
times at once over real HTTP at a live server: one effect each, and every answer is the
success or an "already" (never a server error, never a second record).

Each entry of WRITES builds its state and says what to post and how to count the effect;
the same post goes out as a double tap (twice in a row) and as a burst (twenty at once, by
the same person from twenty tabs). Run on SQLite and on PostgreSQL (DATABASE_URL).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from club.calendar_feed.models import CalendarAddress
from club.models import (
    Attendance,
    AwayPeriod,
    Club,
    Coordinator,
    Member,
    Session,
    SessionReply,
)
from club.privacy.models import Erasure
from front.forms import ClubSettingsForm
from games.models import Match
from games.start import start_play
from scoring.models import Correction, KongChips
from scoring.recording import Win, record_kong, record_win
from tests.concurrency.browsers import Browser, fire
from tests.factories import CoordinatorFactory, MemberFactory
from tests.games.helpers import seated_session

pytestmark = pytest.mark.django_db(transaction=True)

BURST = 20
HTMX = {"HX-Request": "true"}


@dataclass
class Case:
    """One write, ready to post: where, what, and how to count what it did."""

    path: str
    data: dict
    count: Callable[[], object]  # the effect, read from the database
    once: object  # what `count` gives after the write took effect exactly once
    answers: tuple[str, ...]  # an answer with status 200 says one of these (lower case)
    headers: dict | None = None


def _table(club, rules="u3a") -> Match:
    """A session in play with one table of four; its match."""
    club.rule_set = rules
    club.save()
    session = seated_session(club, sizes=(4,))
    return start_play(session)[0]


def _live(match) -> int:
    return match.hands.filter(voided_at__isnull=True).count()


def _table_url(name, match) -> str:
    return reverse(f"scoring:{name}", args=[match.session_id, match.table_number])


def win(club) -> Case:
    match = _table(club)
    data = {"hand": 1, "match": match.pk, "winner": 1, "won_by": "wall", "total": 10}
    return Case(
        _table_url("win", match),
        {**data, "action": "save"},
        lambda: (match.hands.count(), _live(match)),
        (1, 1),
        ("hand 1 saved:", "hand 1 is saved."),
        HTMX,
    )


def draw(club) -> Case:
    match = _table(club)
    return Case(
        _table_url("draw", match),
        {"hand": 1, "match": match.pk},
        lambda: match.hands.count(),
        1,
        ("hand 1 saved: a draw",),
        HTMX,
    )


def kong(club) -> Case:
    match = _table(club)
    data = {"hand": 1, "match": match.pk, "chair": 1, "kind": "concealed", "key": uuid.uuid4()}
    return Case(
        _table_url("kong", match),
        data,
        lambda: KongChips.objects.filter(match=match).count(),
        1,
        ("kong chips saved for", "are already saved"),
        HTMX,
    )


def take_back_kong(club) -> Case:
    match = _table(club)
    chips = record_kong(match, 1, 1, "concealed", key=uuid.uuid4())
    version = Match.objects.get(pk=match.pk).version

    def count():
        voided = KongChips.objects.filter(match=match, voided_at__isnull=False).count()
        return voided, Match.objects.get(pk=match.pk).version - version

    return Case(
        _table_url("take_back_kong", match),
        {"kong": chips.pk, "match": match.pk},
        count,
        (1, 1),
        ("kong chips are taken back", "already taken back"),
        HTMX,
    )


def undo(club) -> Case:
    match = _table(club)
    record_win(match, 1, Win(1, "wall", None, 10))
    record_win(match, 2, Win(2, "wall", None, 12))
    return Case(
        _table_url("undo", match),
        {"hand": 2, "match": match.pk},
        # A second undo must not undo hand 1 too.
        lambda: list(match.hands.filter(voided_at__isnull=True).values_list("number", flat=True)),
        [1],
        ("hand 2 is undone", "hand 2 was already undone"),
        HTMX,
    )


def correction(club) -> Case:
    match = _table(club)
    hand = record_win(match, 1, Win(1, "wall", None, 10))
    record_win(match, 2, Win(2, "wall", None, 12))
    data = {
        "hand_id": hand.pk,
        "what": "win",
        "winner": 1,
        "won_by": "wall",
        "total": 20,
        "reason": "The total was 20",
    }
    return Case(
        reverse("scoring:correct", args=[match.pk, 1]),
        data,
        lambda: (Correction.objects.filter(match=match).count(), match.hands.count()),
        (1, 3),  # hand 1's row voided, its replacement, hand 2
        ("already corrected like that",),
    )


def void(club) -> Case:
    """Voiding hand 1 renumbers hand 2 as hand 1: a repeat must not void that one too."""
    match = _table(club)
    hand = record_win(match, 1, Win(1, "wall", None, 10))
    record_win(match, 2, Win(2, "wall", None, 12))
    data = {"hand_id": hand.pk, "what": "void", "reason": "Never played"}
    return Case(
        reverse("scoring:correct", args=[match.pk, 1]),
        data,
        lambda: (
            Correction.objects.filter(match=match).count(),
            list(match.live_hands().values_list("number", "total")),
        ),
        (1, [(1, 12)]),
        ("already voided",),
    )


def paper_sheet(club) -> Case:
    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4,))
    match = start_play(session)[0]
    rows = [("2", "w", "", "10"), ("", "x", "", ""), ("3", "d", "1", "16")]
    data = {
        "form-TOTAL_FORMS": len(rows),
        "form-INITIAL_FORMS": 0,
        "form-MIN_NUM_FORMS": 0,
        "form-MAX_NUM_FORMS": 200,
        "action": "save",
    }
    for i, (winner, how, discarder, total) in enumerate(rows):
        data |= {
            f"form-{i}-winner": winner,
            f"form-{i}-how": how,
            f"form-{i}-discarder": discarder,
            f"form-{i}-total": total,
        }
    return Case(
        reverse("scoring:paper", args=[match.pk]),
        data,
        lambda: match.hands.count(),
        len(rows),
        ("already has 3 hands recorded",),
    )


def _planned_session(club) -> Session:
    return seated_session(club, sizes=(4,), date=None)


def check_in(club) -> Case:
    session = _planned_session(club)
    member = MemberFactory(club=club)
    return Case(
        reverse("club:set_attendance", kwargs={"pk": session.pk, "member_pk": member.pk}),
        {"present": "1"},
        lambda: Attendance.objects.filter(session=session, member=member).count(),
        1,
        ("✓ here",),  # the member's row, ticked,
        HTMX,
    )


def walk_in(club) -> Case:
    session = _planned_session(club)
    name = "Wanda Newcomer"

    def count():
        members = Member.objects.filter(name=name)
        here = Attendance.objects.filter(session=session, member__in=members).count()
        return members.count(), here

    return Case(
        reverse("club:walk_in", kwargs={"pk": session.pk}),
        {"name": name},
        count,
        (1, 1),
        ("is checked in", "is added as a guest and checked in"),
        HTMX,
    )


def club_settings(club) -> Case:
    form = ClubSettingsForm(instance=club)
    data = {}
    for field in form:
        value = field.value()
        if isinstance(value, bool):
            if value:
                data[field.html_name] = "on"
        elif value is not None:
            data[field.html_name] = value
    data["name"] = "The Tuesday Tiles"
    return Case(
        reverse("club_settings"),
        data,
        lambda: list(Club.objects.values_list("name", flat=True)),
        ["The Tuesday Tiles"],
        (),
    )


def my_details(club) -> Case:
    """A member's own details: the coordinator (made just before) is a member here too."""
    login = get_user_model().objects.filter(coordinator_roles__club=club).latest("pk")
    member = MemberFactory(club=club, user=login)
    mine = {"table_name": "Annie", "email": "annie@example.com", "phone": "01234 567890"}

    def count():
        after = Member.objects.get(pk=member.pk)
        # The details, and the lines of history: the adding and one change.
        return [getattr(after, name) for name in mine], member.history.count()

    return Case(
        reverse("my_details"),
        {**mine, "contact_sharing": Member.Sharing.MEMBERS},
        count,
        (list(mine.values()), 2),
        ("your details were already saved", "your details are saved"),
    )


def erase(club) -> Case:
    """Erasing a leaver's personal details: one erasure, one new name."""
    leaver = MemberFactory(club=club, name="Leaving Lena", is_active=False)
    return Case(
        reverse("club:member_erase", args=[leaver.pk]),
        {},
        lambda: (
            Erasure.objects.filter(member=leaver).count(),
            list(Member.objects.filter(pk=leaver.pk).values_list("name", flat=True)),
        ),
        (1, ["Former member 1"]),
        ("personal details are erased", "erased already", "personal details erased on"),
    )


def _next_week(club) -> Session:
    return Session.objects.create(club=club, date=timezone.localdate() + timedelta(days=7))


def reply(club) -> Case:
    """A member's own "I'm coming" from the home page (htmx), twenty tabs at once."""
    session = _next_week(club)
    login = club.coordinators.get().user  # the poster, a member of the club too
    member = MemberFactory(club=club, user=login)
    return Case(
        reverse("club:week_reply", args=[session.pk]),
        {"answer": "coming", "note": "late, about 3 pm"},
        lambda: list(SessionReply.objects.values_list("member", "answer", "note")),
        [(member.pk, "coming", "late, about 3 pm")],
        ("thank you: you are coming on",),
        HTMX,
    )


def away(club) -> Case:
    """A member's time away with a session in it: one time away kept, one answer."""
    session = _next_week(club)
    member = MemberFactory(club=club, user=club.coordinators.get().user)
    day = session.date.isoformat()
    return Case(
        reverse("club:week_away"),
        {"first": day, "last": day, "note": "Hols"},
        lambda: (
            list(AwayPeriod.objects.values_list("member", "first", "last")),
            list(SessionReply.objects.values_list("member", "answer", "note")),
        ),
        ([(member.pk, session.date, session.date)], [(member.pk, "not_coming", "Hols")]),
        (),
    )


def reply_for(club) -> Case:
    """A coordinator answering for a member who rang (a plain form post)."""
    session = _next_week(club)
    member = MemberFactory(club=club)
    return Case(
        reverse("club:week_reply_for", args=[session.pk]),
        {"member": member.pk, "answer": "not_coming", "note": "rang"},
        lambda: list(SessionReply.objects.values_list("member", "answer")),
        [(member.pk, "not_coming")],
        (),
    )


def _keyed(write):
    """`write` as the table page's outbox sends it: with its one-time key (sent_key), which
    a repeat finds already kept ("That was saved already.")."""

    def case(club) -> Case:
        made = write(club)
        made.data = {**made.data, "sent_key": str(uuid.uuid4())}
        made.answers = (*made.answers, "that was saved already.")
        return made

    case.__name__ = f"{write.__name__}_with_its_key"
    return case


def calendar_renew(club) -> Case:
    """A member's "Make my calendar address": pressed again (or in twenty tabs), the
    member still has one address (the last made; the others open nothing)."""
    login = Coordinator.objects.filter(club=club).latest("pk").user
    member = MemberFactory(club=club, user=login)
    return Case(
        reverse("club:calendar_renew"),
        {"renew": "yes"},
        lambda: CalendarAddress.objects.filter(member=member).count(),
        1,
        ("your calendar",),
    )


WRITES = [
    win,
    draw,
    kong,
    take_back_kong,
    undo,
    *(_keyed(write) for write in (win, draw, kong, take_back_kong, undo)),
    correction,
    void,
    paper_sheet,
    check_in,
    walk_in,
    club_settings,
    calendar_renew,
    my_details,
    erase,
    reply,
    away,
    reply_for,
]


@pytest.mark.parametrize("times", ["twice", "at_once"])
@pytest.mark.parametrize("write", WRITES, ids=lambda write: write.__name__)
def test_a_repeated_post_has_one_effect(live_server, club, write, times):
    coordinator = CoordinatorFactory()
    case = write(club)
    if times == "twice":
        browser = Browser(live_server, coordinator)
        answers = [browser.post(case.path, case.data, case.headers) for _ in range(2)]
    else:
        browsers = [Browser(live_server, coordinator) for _ in range(BURST)]
        answers = fire(browsers, [(case.path, case.data)] * BURST, case.headers)
    failed = [answer for answer in answers if answer.status not in (200, 302)]
    assert not failed, f"{len(failed)} failed, e.g. {failed[0].status}: {failed[0].body[:500]}"
    for answer in answers:
        if answer.status == 200:
            text = unescape(answer.body).lower()
            assert any(words in text for words in case.answers), text[:3000]
    assert case.count() == case.once
