"""The club's week (club/week/): members say whether they are coming, the coordinator's
picture before the evening, apologies in the register and the members absent without a
word."""

import datetime
import html
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from club.models import Attendance, Member, Seat, SeatingPlan, Session
from club.refusals import Refused
from club.week import replies
from club.week.models import AwayPeriod, ReplyAnswer, SessionReply
from games.start import start_play
from tests.club.seating.helpers import members
from tests.factories import ClubFactory, MemberFactory, UserFactory

HTMX = {"HTTP_HX_REQUEST": "true"}
COMING, NOT_COMING = ReplyAnswer.COMING, ReplyAnswer.NOT_COMING


def today() -> datetime.date:
    return timezone.localdate()


def in_days(n: int) -> datetime.date:
    return today() + datetime.timedelta(days=n)


def weekly(club, first_in_days: int, n: int) -> list[Session]:
    return [
        Session.objects.create(club=club, date=in_days(first_in_days + 7 * w)) for w in range(n)
    ]


@pytest.fixture
def me(member_user):
    return Member.objects.get(user=member_user)


def text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


# --- answering -----------------------------------------------------------------------------


def test_an_answer_is_recorded_replaced_and_kept_once(club, me, member_user):
    (session,) = weekly(club, 3, 1)
    replies.answer(session, me, COMING, "  late,   about 3 pm ", by=member_user, today=today())
    reply = replies.answer(session, me, NOT_COMING, "", by=member_user, today=today())
    assert SessionReply.objects.count() == 1
    assert (reply.answer, reply.note, reply.answered_by, reply.club_id) == (
        NOT_COMING,
        "",
        member_user,
        club.pk,
    )


@pytest.mark.parametrize(
    ("date_in_days", "status", "words"),
    [
        (-7, Session.Status.PLANNED, "is over"),
        (0, Session.Status.CLOSED, "is closed"),
        (7, Session.Status.CLOSED, "is closed"),
        (0, Session.Status.IN_PLAY, "Play has started"),
    ],
)
def test_a_past_closed_or_started_session_takes_no_answer(
    club, me, member_client, date_in_days, status, words
):
    session = Session.objects.create(club=club, date=in_days(date_in_days), status=status)
    with pytest.raises(replies.ReplyRefused, match=words):
        replies.answer(session, me, COMING, by=None, today=today())
    # Through the page, without JavaScript and with htmx: the message says why.
    url = reverse("club:week_reply", args=[session.pk])
    page = member_client.post(url, {"answer": COMING}, follow=True)
    assert words in text(page)
    part = member_client.post(url, {"answer": COMING, "note": "kept"}, **HTMX)
    assert part.status_code == 200 and words in text(part)
    assert not SessionReply.objects.exists()


def test_today_s_session_takes_answers_until_play_starts(club, me):
    session = Session.objects.create(club=club, date=today())
    replies.answer(session, me, COMING, by=None, today=today())
    Session.objects.filter(pk=session.pk).update(status=Session.Status.IN_PLAY)
    with pytest.raises(replies.ReplyRefused):
        replies.answer(session, me, NOT_COMING, by=None, today=today())
    assert SessionReply.objects.get().answer == COMING


def test_a_member_of_another_club_or_a_long_note_is_refused(club, me):
    (session,) = weekly(club, 3, 1)
    stranger = MemberFactory(club=ClubFactory())
    with pytest.raises(Refused, match="not a member"):
        replies.answer(session, stranger, COMING, by=None, today=today())
    with pytest.raises(Refused, match="keep it to 60"):
        replies.answer(session, me, COMING, "x" * 61, by=None, today=today())
    with pytest.raises(Refused, match="I'm coming"):
        replies.answer(session, me, "maybe", by=None, today=today())
    assert not SessionReply.objects.exists()


# --- the member's home page ----------------------------------------------------------------


def test_home_page_offers_the_next_sessions_and_one_tap_answers_without_javascript(
    club, me, member_client
):
    past = Session.objects.create(club=club, date=in_days(-7))
    sessions = weekly(club, 2, 6)
    page = member_client.get(reverse("home"))
    body = page.content.decode()
    assert "Are you coming?" in body
    shown = [s for s in sessions if f'id="week-{s.pk}"' in body]
    assert shown == sessions[: replies.WEEKS_AHEAD]
    assert f'id="week-{past.pk}"' not in body
    response = member_client.post(
        reverse("club:week_reply", args=[sessions[0].pk]),
        {"answer": COMING, "note": "late, about 3 pm"},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("home") + f"#week-{sessions[0].pk}"
    reply = SessionReply.objects.get()
    assert (reply.member, reply.answer, reply.note) == (me, COMING, "late, about 3 pm")
    home = text(member_client.get(reverse("home")))
    assert "Thank you: you are coming on" in home and "✓ You are coming." in home
    assert "late, about 3 pm" in home


def test_htmx_answer_swaps_the_session_s_row(club, me, member_client):
    (session,) = weekly(club, 2, 1)
    response = member_client.post(
        reverse("club:week_reply", args=[session.pk]), {"answer": NOT_COMING}, **HTMX
    )
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith(f'<li id="week-{session.pk}"')
    assert "<html" not in body and "You sent apologies." in body
    assert 'aria-pressed="true">Not this week' in body


def test_a_wrong_answer_shows_again_with_the_note_kept(club, me, member_client):
    (session,) = weekly(club, 2, 1)
    url = reverse("club:week_reply", args=[session.pk])
    for extra in ({}, HTMX):
        page = member_client.post(url, {"answer": "perhaps", "note": "my typed note"}, **extra)
        assert page.status_code == 200
        assert "Please press “I'm coming” or “Not this week”." in text(page)
        assert 'value="my typed note"' in page.content.decode()
        long = member_client.post(url, {"answer": COMING, "note": "y" * 70}, **extra)
        assert "Please keep the note to 60 characters." in long.content.decode()
        assert "y" * 70 in long.content.decode()
    assert not SessionReply.objects.exists()


def test_away_answers_every_open_session_between_the_dates(club, me, member_client):
    sessions = weekly(club, 3, 6)
    started = Session.objects.create(club=club, date=today(), status=Session.Status.IN_PLAY)
    response = member_client.post(
        reverse("club:week_away"),
        {"first": today().isoformat(), "last": in_days(3 + 7 * 3).isoformat(), "note": "Spain"},
        follow=True,
    )
    assert "your apologies are noted" in text(response)
    answered = SessionReply.objects.order_by("session__date")
    assert [r.session for r in answered] == sessions[:4]
    assert {(r.answer, r.note) for r in answered} == {(NOT_COMING, "Spain")}
    assert not started.replies.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"first": "2026-12-23", "last": "2026-12-02"}, "The last day away is before the first"),
        ({"first": "someday", "last": "2026-12-02"}, "Please give the first day as a date"),
        ({"last": "2026-12-02"}, "Please give the first day you are away."),
    ],
)
def test_away_with_wrong_dates_shows_the_form_again_with_what_was_typed(
    club, me, member_client, data, message
):
    weekly(club, 3, 2)
    page = member_client.post(reverse("club:week_away"), {**data, "note": "Hols"})
    assert page.status_code == 200 and message in page.content.decode()
    assert 'value="Hols"' in page.content.decode()
    assert not SessionReply.objects.exists()


def test_home_page_queries_do_not_grow_with_sessions_and_answers(club, me, member_client):
    def count() -> int:
        member_client.get(reverse("home"))  # caches warmed
        with CaptureQueriesContext(connection) as queries:
            assert member_client.get(reverse("home")).status_code == 200
        return len(queries)

    (first,) = weekly(club, 1, 1)
    one = count()
    for session in [first, *weekly(club, 8, 4)]:
        replies.answer(session, me, COMING, "note", by=None, today=today())
    assert count() == one


def test_a_member_of_two_clubs_sees_each_club_s_sessions_at_its_address(db, client):
    from club.scoping import scope

    login = UserFactory()
    a, b = ClubFactory(slug="alder"), ClubFactory(slug="birch")
    for club in (a, b):
        MemberFactory(club=club, user=login)
    (at_a,) = weekly(a, 2, 1)
    (at_b,) = weekly(b, 4, 1)
    client.force_login(login)
    page_a = client.get(f"/c/{a.slug}/").content.decode()
    page_b = client.get(f"/c/{b.slug}/").content.decode()
    assert f'id="week-{at_a.pk}"' in page_a and f'id="week-{at_b.pk}"' not in page_a
    assert f'id="week-{at_b.pk}"' in page_b and f'id="week-{at_a.pk}"' not in page_b
    # Answering B's session at A's address finds nothing there.
    wrong = client.post(f"/c/{a.slug}/club/sessions/{at_b.pk}/reply/", {"answer": COMING})
    assert wrong.status_code == 404
    right = client.post(f"/c/{b.slug}/club/sessions/{at_b.pk}/reply/", {"answer": COMING})
    assert right.status_code == 302
    with scope(club=b):
        assert SessionReply.objects.get().member.club == b


# --- the coordinator's picture -------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "prefer", "words"),
    [
        (17, "five", "3 tables of four and one of five"),
        (16, "five", "4 tables of four"),
        (7, "five", "1 table of four and one of three"),
        (6, "five", "2 tables of three"),
        (13, "three", "1 table of four and three of three"),
        (5, "three", "1 table of five"),
        (2, "five", "not enough for a table yet"),
        (0, "five", "nobody yet"),
    ],
)
def test_tables_in_words(count, prefer, words):
    assert replies.tables_in_words(count, prefer) == words


def answered(club, n_coming: int, n_apologies: int, n_silent: int, session):
    people = members(club, n_coming + n_apologies + n_silent)
    for member in people[:n_coming]:
        SessionReply.objects.create(session=session, member=member, answer=COMING)
    for member in people[n_coming : n_coming + n_apologies]:
        SessionReply.objects.create(session=session, member=member, answer=NOT_COMING, note="Ill")
    return people


def test_session_page_shows_counts_names_and_tables(club, coordinator_client):
    (session,) = weekly(club, 2, 1)
    people = answered(club, 17, 3, 9, session)
    page = text(coordinator_client.get(reverse("club:session_detail", args=[session.pk])))
    assert "17 coming, 3 sent apologies, 9 not heard from." in page
    assert "The coming make 3 tables of four and one of five ." in page
    assert f"{people[17].table_name}: Ill" in page and people[-1].table_name in page


def test_tonight_shows_the_picture_before_play(club, coordinator_client):
    session = Session.objects.create(club=club, date=today())
    answered(club, 8, 1, 2, session)
    page = text(coordinator_client.get(reverse("home")))
    assert "8 coming, 1 sent apologies, 2 not heard from." in page
    assert "2 tables of four" in page


def test_session_page_queries_do_not_grow_with_answers(club, coordinator_client):
    (session,) = weekly(club, 2, 1)
    url = reverse("club:session_detail", args=[session.pk])

    def count() -> int:
        coordinator_client.get(url)
        with CaptureQueriesContext(connection) as queries:
            assert coordinator_client.get(url).status_code == 200
        return len(queries)

    answered(club, 1, 1, 1, session)
    few = count()
    answered(club, 12, 5, 7, session)
    assert count() == few


def test_a_coordinator_answers_for_a_member_who_rang(club, coordinator, coordinator_client):
    (session,) = weekly(club, 2, 1)
    rang = MemberFactory(club=club)
    url = reverse("club:week_reply_for", args=[session.pk])
    response = coordinator_client.post(
        url, {"member": rang.pk, "answer": NOT_COMING, "note": "Rang: flu"}, follow=True
    )
    assert f"{rang.table_name} is down as not coming" in text(response)
    reply = SessionReply.objects.get()
    assert (reply.member, reply.answer, reply.note, reply.answered_by) == (
        rang,
        NOT_COMING,
        "Rang: flu",
        coordinator,
    )
    # No member chosen: the page again, the note kept.
    page = coordinator_client.post(url, {"answer": COMING, "note": "kept note"})
    assert page.status_code == 200 and "Please choose the member who rang." in text(page)
    assert 'value="kept note"' in page.content.decode()
    # Another club's member is not in the list.
    stranger = MemberFactory(club=ClubFactory())
    refused = coordinator_client.post(url, {"member": stranger.pk, "answer": COMING})
    assert "That member is not in the list" in text(refused)
    assert SessionReply.objects.count() == 1


def test_coordinator_only_actions_are_refused_to_members_on_the_server(
    club, me, member_client, client
):
    (session,) = weekly(club, 2, 1)
    other = MemberFactory(club=club)
    posts = [
        (reverse("club:week_reply_for", args=[session.pk]), {"member": other.pk, "answer": COMING}),
        (reverse("club:seating_make_from_replies", args=[session.pk]), {}),
    ]
    for url, data in posts:
        assert member_client.post(url, data).status_code == 403
    assert member_client.get(reverse("club:session_detail", args=[session.pk])).status_code == 403
    assert not SessionReply.objects.exists() and not SeatingPlan.objects.exists()
    # Visitors are sent to log in, for the members' answers too.
    client.logout()
    for url, data in [*posts, (reverse("club:week_reply", args=[session.pk]), {"answer": COMING})]:
        response = client.post(url, data)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not SessionReply.objects.exists()


def test_a_login_that_is_no_member_cannot_answer(club, coordinator_client):
    (session,) = weekly(club, 2, 1)
    response = coordinator_client.post(
        reverse("club:week_reply", args=[session.pk]), {"answer": COMING}
    )
    assert response.status_code == 403 and not SessionReply.objects.exists()


def test_check_in_lists_those_coming_first(club, coordinator_client):
    session = Session.objects.create(club=club, date=today())
    people = members(club, 5)
    for member in (people[3], people[1]):
        SessionReply.objects.create(session=session, member=member, answer=COMING)
    page = coordinator_client.get(reverse("club:check_in", args=[session.pk])).content.decode()
    order = [int(pk) for pk in re.findall(r'<li id="member-(\d+)"', page)]
    first_two = sorted([people[1], people[3]], key=lambda m: m.table_name)
    assert order[:2] == [m.pk for m in first_two]
    assert page.count("Said coming") == 2
    # After a tap the row keeps its mark.
    row = coordinator_client.post(
        reverse("club:set_attendance", args=[session.pk, people[3].pk]), {"present": "1"}, **HTMX
    )
    assert "Said coming" in row.content.decode()


def test_a_draft_seating_from_the_coming_list(club, coordinator_client):
    (session,) = weekly(club, 2, 1)
    people = answered(club, 9, 2, 2, session)
    page = coordinator_client.get(reverse("club:seating_manage", args=[session.pk]))
    assert "Make a draft from the 9 coming" in page.content.decode()
    response = coordinator_client.post(
        reverse("club:seating_make_from_replies", args=[session.pk]), follow=True
    )
    assert "Here is a draft from those who said they are coming" in text(response)
    plan = SeatingPlan.objects.get(session=session)
    assert plan.status == SeatingPlan.Status.DRAFT
    seated = set(Seat.objects.filter(plan=plan).values_list("member_id", flat=True))
    assert seated == {m.pk for m in people[:9]}
    assert sorted(plan.tables.values_list("number", flat=True)) == [1, 2]
    plan.publish()  # published as it is, before anyone arrives
    assert not Attendance.objects.filter(session=session).exists()


def test_a_draft_needs_three_coming(club, coordinator_client):
    (session,) = weekly(club, 2, 1)
    answered(club, 2, 0, 3, session)
    response = coordinator_client.post(
        reverse("club:seating_make_from_replies", args=[session.pk]), follow=True
    )
    assert "Only 2 members have said they are coming" in text(response)
    assert not SeatingPlan.objects.exists()


# --- the register and the absent without a word --------------------------------------------


def test_the_register_tells_apart_present_apologies_and_absent_without_word(
    club, coordinator_client
):
    club.season_start = in_days(-60)
    club.save()
    came, sorry, silent = members(club, 3)
    sessions = weekly(club, -21, 3)
    for session in sessions:
        Attendance.objects.create(session=session, member=came)
        SessionReply.objects.create(session=session, member=sorry, answer=NOT_COMING)
        # Said coming and came: still present; said coming and stayed away: without word.
        SessionReply.objects.create(session=session, member=silent, answer=COMING)
    report = replies_report(club)
    assert [(s.present, s.apologies, s.absent) for s in report.sessions] == [(1, 1, 1)] * 3
    by_name = {m.name: (m.attended, m.apologies, m.absent) for m in report.members}
    assert by_name == {came.table_name: (3, 0, 0), sorry.table_name: (0, 3, 0)}
    page = text(coordinator_client.get(reverse("scoring:attendance")))
    assert "Sent apologies" in page and "Absent without word" in page


def replies_report(club):
    from scoring.standings import attendance_report, seasons

    return attendance_report(club, seasons(club, today())[0])


def test_members_page_lists_those_absent_without_word_for_the_club_s_number(
    club, coordinator_client
):
    long_ago = in_days(-400)
    came, sorry, silent, quiet_twice = members(club, 4, joined=long_ago)
    newcomer = MemberFactory(club=club, joined=in_days(-3))
    sessions = weekly(club, -28, 4)
    Attendance.objects.create(session=sessions[0], member=silent)
    Attendance.objects.create(session=sessions[1], member=quiet_twice)
    for session in sessions:
        Attendance.objects.create(session=session, member=came)
        SessionReply.objects.create(session=session, member=sorry, answer=NOT_COMING)
    url = reverse("club:member_list")
    page = text(coordinator_client.get(url))
    assert "missed the last 3 sessions without coming or sending apologies" in page
    section = page.split("Absent without a word")[1].split("club settings")[0]
    assert silent.table_name in section and "last came on" in section
    for member in (came, sorry, quiet_twice, newcomer):
        assert member.table_name not in section
    club.absent_alert_after = 2
    club.save()
    section = text(coordinator_client.get(url)).split("Absent without a word")[1]
    assert silent.table_name in section and quiet_twice.table_name in section


def test_the_setting_is_in_the_club_settings_within_its_range(club, coordinator_client):
    from front.forms import ClubSettingsForm

    data = {**ClubSettingsForm(instance=club).initial, "absent_alert_after": "53"}
    form = ClubSettingsForm(data, instance=club)
    assert not form.is_valid()
    assert form.errors["absent_alert_after"] == [
        "The sessions missed without a word must be between 1 and 52."
    ]
    assert (
        'name="absent_alert_after"'
        in coordinator_client.get(reverse("club_settings")).content.decode()
    )


def test_started_play_closes_the_answers_on_the_home_page(club, me, member_client):
    from tests.games.helpers import seated_session

    session = seated_session(club, sizes=(4,), date=today())
    start_play(session)
    weekly(club, 7, 1)
    body = member_client.get(reverse("home")).content.decode()
    assert f'id="week-{session.pk}"' not in body


def test_the_demo_club_has_answers_for_tonight(demo_club):
    from club.scoping import scope

    with scope(club=demo_club):
        tonight = Session.objects.get(date=today())
        shown = replies.picture(tonight)
    assert len(shown.coming) > 8 and shown.apologies and shown.not_heard


# --- a time away holds for sessions added later --------------------------------------------


def away_answers(session) -> set:
    return set(session.replies.values_list("member__table_name", "answer", "note", "answered_by"))


def test_a_time_away_holds_for_sessions_the_coordinator_adds_later(
    club, me, member_client, coordinator
):
    coordinator_client = Client()
    coordinator_client.force_login(coordinator)
    lapsed = MemberFactory(club=club, is_active=False)
    AwayPeriod.objects.create(member=lapsed, first=in_days(1), last=in_days(40))
    elsewhere = MemberFactory(club=ClubFactory())  # another club's member, away too
    AwayPeriod.objects.create(member=elsewhere, first=in_days(1), last=in_days(40))
    page = member_client.post(
        reverse("club:week_away"),
        {"first": in_days(2).isoformat(), "last": in_days(23).isoformat(), "note": ""},
        follow=True,
    )
    assert "is kept: a session added in those days will show your apologies too" in text(page)
    assert not SessionReply.objects.exists()  # no session yet
    (period,) = AwayPeriod.objects.filter(member=me)
    assert (period.club, period.first, period.last) == (club, in_days(2), in_days(23))

    # Added by each way sessions are made: the form, and "next week's session".
    add = {"date": in_days(9).isoformat(), "venue": "Hall", "notes": "", "status": "planned"}
    coordinator_client.post(reverse("club:session_add"), add)
    added = Session.objects.get(club=club, date=in_days(9))
    coordinator_client.post(reverse("club:session_next"), {"from": added.pk})
    next_week = Session.objects.get(club=club, date=in_days(16))
    coordinator_client.post(reverse("club:session_next"), {"from": next_week.pk})
    after = Session.objects.get(club=club, date=in_days(23))  # the last day away counts
    coordinator_client.post(reverse("club:session_next"), {"from": after.pk})
    back = Session.objects.get(club=club, date=in_days(30))
    away = {(me.table_name, NOT_COMING, AwayPeriod.NOTE, None)}
    assert [away_answers(s) for s in (added, next_week, after)] == [away] * 3
    assert away_answers(back) == set()
    # On the member's home page, each session shows the apologies.
    home = text(member_client.get(reverse("home")))
    assert home.count("You sent apologies. Note: “away”.") == 3


def test_a_new_session_and_its_away_answers_are_one_transaction(club, me, monkeypatch):
    AwayPeriod.objects.create(member=me, first=in_days(1), last=in_days(9))

    def broken(session):
        raise RuntimeError("the answers could not be written")

    monkeypatch.setattr("club.models.answer_new_session", broken)
    with pytest.raises(RuntimeError):
        Session.objects.create(club=club, date=in_days(2))
    assert not Session.objects.filter(club=club).exists()


def test_a_time_away_is_kept_once_and_its_dates_are_checked(club, me, member_client):
    from django.db import IntegrityError, transaction

    data = {"first": in_days(2).isoformat(), "last": in_days(9).isoformat(), "note": ""}
    for _ in range(2):
        member_client.post(reverse("club:week_away"), data)
    assert AwayPeriod.objects.filter(member=me).count() == 1
    with pytest.raises(IntegrityError), transaction.atomic():
        AwayPeriod.objects.create(member=me, first=in_days(9), last=in_days(2))
    with pytest.raises(IntegrityError), transaction.atomic():
        AwayPeriod.objects.create(member=me, first=in_days(2), last=in_days(9))
    # Days already over: refused, the entries shown again.
    past = {"first": in_days(-9).isoformat(), "last": in_days(-2).isoformat(), "note": "Hols"}
    page = member_client.post(reverse("club:week_away"), past)
    assert "Those days are over" in text(page) and 'value="Hols"' in page.content.decode()
    assert AwayPeriod.objects.filter(member=me).count() == 1


def test_a_member_sees_and_removes_their_own_times_away(club, me, member_client):
    mine = AwayPeriod.objects.create(member=me, first=in_days(2), last=in_days(9))
    AwayPeriod.objects.create(member=me, first=in_days(-20), last=in_days(-10))  # over
    other = AwayPeriod.objects.create(
        member=MemberFactory(club=club), first=in_days(2), last=in_days(9)
    )
    (answered,) = weekly(club, 3, 1)  # answered "away" when it was added
    home = member_client.get(reverse("home"))
    assert text(home).count("Remove this time away") == 1
    assert reverse("club:week_away_end", args=[mine.pk]) in home.content.decode()
    # Another member's time away is not mine to remove.
    member_client.post(reverse("club:week_away_end", args=[other.pk]))
    assert AwayPeriod.objects.filter(pk=other.pk).exists()
    page = member_client.post(reverse("club:week_away_end", args=[mine.pk]), follow=True)
    assert "is removed. Answers already given stay as they are" in text(page)
    assert not AwayPeriod.objects.filter(pk=mine.pk).exists()
    assert answered.replies.get(member=me).answer == NOT_COMING
    # A session added now is no longer answered for me (still for the other member).
    later = Session.objects.create(club=club, date=in_days(4))
    assert list(later.replies.values_list("member", flat=True)) == [other.member_id]


def test_times_away_are_in_my_data_and_stay_when_a_leaver_is_erased(club, me, member_client):
    from club.privacy.erasure import erase

    AwayPeriod.objects.create(member=me, first=in_days(2), last=in_days(9))
    rows = member_client.get(reverse("my_data_json")).json()["data"]
    kept = [row["fields"] for row in rows if row["model"] == "club.awayperiod"]
    assert [(f["first"], f["last"]) for f in kept] == [
        (in_days(2).isoformat(), in_days(9).isoformat())
    ]
    csv = member_client.get(reverse("my_data_csv")).content.decode()
    assert f"Your times away\r\nFrom,To\r\n{in_days(2)},{in_days(9)}" in csv
    me.retire()
    erase(me)
    assert AwayPeriod.objects.filter(member=me).count() == 1  # two dates, nothing personal


# --- the coordinator answers from the member's page ----------------------------------------


def test_a_coordinator_answers_for_a_member_from_the_member_s_page(
    club, coordinator, coordinator_client
):
    rang = MemberFactory(club=club)
    weekly(club, -7, 1)  # last week's: over
    nearest, _ = weekly(club, 2, 2)
    page_url = reverse("club:member_detail", args=[rang.pk])
    page = coordinator_client.get(page_url)
    assert f"{rang.table_name} has not said yet." in text(page)
    assert reverse("club:week_reply_for", args=[nearest.pk]) in page.content.decode()
    response = coordinator_client.post(
        reverse("club:week_reply_for", args=[nearest.pk]),
        {"member": rang.pk, "answer": NOT_COMING, "note": "rang: a cold", "back": "member"},
    )
    assert response["Location"] == page_url + "#next-session"
    page = text(coordinator_client.get(page_url))
    assert f"{rang.table_name} is down as not coming (apologies)" in page
    assert f"{rang.table_name} sent apologies. Note: “rang: a cold”." in page
    reply = SessionReply.objects.get()
    assert (reply.session, reply.member, reply.answered_by) == (nearest, rang, coordinator)
    # A lapsed member's page offers no answer.
    rang.retire()
    assert "has not said yet" not in text(coordinator_client.get(page_url))
    assert reverse("club:week_reply_for", args=[nearest.pk]) not in text(
        coordinator_client.get(page_url)
    )


def test_answering_from_the_member_s_page_is_refused_to_members(club, me, member_client):
    (session,) = weekly(club, 2, 1)
    other = MemberFactory(club=club)
    data = {"member": other.pk, "answer": COMING, "back": "member"}
    assert (
        member_client.post(reverse("club:week_reply_for", args=[session.pk]), data).status_code
        == 403
    )
    assert member_client.get(reverse("club:member_detail", args=[other.pk])).status_code == 403
    assert not SessionReply.objects.exists()


def test_a_session_moved_into_a_time_away_answers_only_those_who_had_not(
    club, me, coordinator_client
):
    (session,) = weekly(club, 20, 1)
    said = MemberFactory(club=club)
    replies.answer(session, said, COMING, "", by=None, today=today())
    for member in (me, said):
        AwayPeriod.objects.create(member=member, first=in_days(2), last=in_days(9))
    edit = {"date": in_days(5).isoformat(), "venue": "Hall", "notes": "", "status": "planned"}
    coordinator_client.post(reverse("club:session_edit", args=[session.pk]), edit)
    assert away_answers(session) == {
        (me.table_name, NOT_COMING, AwayPeriod.NOTE, None),
        (said.table_name, COMING, "", None),  # their own answer stands
    }
