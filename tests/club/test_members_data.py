"""Members' own data (club/privacy/, front/member_data.py): a member downloads what the
club holds about them and nothing of anyone else; a coordinator erases a leaver's details
while every standings page and CSV stays as it was; an older backup restored is erased
again; details are erased some months after a member lapses; the club's privacy notice."""

import datetime
import io
import json
import re
from html import escape

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from club.calendar_feed.models import CalendarAddress
from club.models import Club, KeepApart, Member, Session, SessionReply
from club.privacy import erasure
from club.privacy.models import Erasure
from club.privacy.notice import STANDARD_NOTICE
from front import backup
from games.models import Chair
from scoring.models import Correction, Hand
from tests.factories import PASSWORD, CoordinatorFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- Download my data ---------------------------------------------------------------------


def test_my_data_holds_all_of_the_member_and_nothing_of_anyone_else(demo_club):
    brian = Member.objects.get(table_name="Brian")
    others = Member.objects.exclude(pk=brian.pk)
    brian.phone = "01632 960001"
    brian.notes = "Prefers the table by the window"
    brian.save()
    # A hand Brian recorded at a table he did not sit at: his too.
    elsewhere = Hand.objects.exclude(match__chairs__member=brian).first()
    elsewhere.recorded_by = brian.user
    elsewhere.save(update_fields=["recorded_by"])
    # An answer to "are you coming?", given for him by a coordinator who took his call.
    ahead = Session.objects.create(
        club=brian.club, date=timezone.localdate() + datetime.timedelta(days=7)
    )
    SessionReply.objects.create(
        club=brian.club,
        session=ahead,
        member=brian,
        answer="not_coming",
        note="Away in Wales",
        answered_by=brian.club.coordinators.first().user,
    )
    client = logged_in(brian.user)

    answer = client.get(reverse("my_data_json"))
    assert answer.status_code == 200
    assert answer["Cache-Control"] == "no-store"
    text = answer.content.decode()
    data = json.loads(text)
    assert data["format"] == "mahjong-club-member-data"
    rows = data["data"]
    by_model = {}
    for row in rows:
        by_model.setdefault(row["model"], []).append(row)

    # Everything of his: details, attendance, every hand he played or recorded, results,
    # corrections of his hands.
    assert [row["pk"] for row in by_model["club.member"]] == [brian.pk]
    assert by_model["club.member"][0]["fields"]["phone"] == "01632 960001"
    assert len(by_model["club.attendance"]) == brian.attendances.count() > 0
    played = Hand.objects.filter(match__chairs__member=brian)
    assert {row["pk"] for row in by_model["scoring.hand"]} == {
        *played.values_list("pk", flat=True),
        elsewhere.pk,
    }
    assert len(by_model["scoring.matchresult"]) == Chair.objects.filter(member=brian).count()
    corrections = Correction.objects.filter(match__chairs__member=brian)
    assert {row["pk"] for row in by_model.get("scoring.correction", [])} == set(
        corrections.values_list("pk", flat=True)
    )
    assert {row["pk"] for row in by_model["club.sessionreply"]} == set(
        brian.replies.values_list("pk", flat=True)
    )
    assert by_model["auth.user"][0]["fields"]["username"] == brian.user.username
    assert "password" not in by_model["auth.user"][0]["fields"]

    # Nothing of anyone else: no other member's row, id, name, email or login.
    for row in rows:
        fields = row["fields"]
        if "member" in fields:
            assert fields["member"] == brian.pk, row
        for login in ("recorded_by", "voided_by", "made_by", "answered_by"):
            assert fields.get(login) in (None, [brian.user.username]), row
    csv_text = client.get(reverse("my_data_csv")).content.decode()
    for other in others.select_related("user"):
        words = {other.name, other.email, other.table_name} - {""}
        if other.user is not None:
            words.add(other.user.username)
        for word in words:
            pattern = rf"(?<![\w@.]){re.escape(word)}(?![\w@])"
            assert not re.search(pattern, text), f"{word} is in Brian's JSON"
            assert not re.search(pattern, csv_text), f"{word} is in Brian's CSV"

    # The CSV is the same rows, readable.
    assert "Evenings you came to" in csv_text and "01632 960001" in csv_text
    assert "Away in Wales" in csv_text
    assert csv_text.count("\n") > len(by_model["scoring.hand"])


def test_my_data_is_the_logged_in_members_only(club):
    anonymous = Client().get(reverse("my_data_json"))
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    coordinator = CoordinatorFactory()  # not a member of the club: nothing to give
    assert logged_in(coordinator).get(reverse("my_data_csv")).status_code == 404
    page = logged_in(coordinator).get(reverse("my_data"))
    assert b"holds no member" in page.content


# --- Erasure ------------------------------------------------------------------------------


def standings_pages(club) -> list[str]:
    sessions = Session.objects.filter(club=club, matches__isnull=False).distinct()
    urls = [
        reverse(name)
        for name in (
            "scoring:leaderboard",
            "scoring:leaderboard_csv",
            "scoring:hands_csv",
            "scoring:records",
            "scoring:attendance",
            "scoring:attendance_csv",
        )
    ]
    urls += [reverse("scoring:attendance_csv") + "?by=sessions"]
    for session in sessions:
        urls += [
            reverse("scoring:evening", args=[session.pk]),
            reverse("scoring:evening_csv", args=[session.pk]),
        ]
    urls += [
        reverse("scoring:member", args=[pk]) for pk in club.members.values_list("pk", flat=True)
    ]
    return urls


# What differs between two renders of the same page.
VARYING = re.compile(r'(csrfmiddlewaretoken" value="|X-CSRFToken": "|nonce=")[^"]+')


def read_all(client, urls) -> dict[str, str]:
    pages = {}
    for url in urls:
        answer = client.get(url)
        assert answer.status_code == 200, url
        body = b"".join(answer.streaming_content) if answer.streaming else answer.content
        pages[url] = VARYING.sub(r"\1", body.decode())
    return pages


def test_erasing_changes_no_standings_page_or_csv_but_the_name(demo_club):
    leaver = Member.objects.filter(chairs__isnull=False).exclude(user__isnull=False).first()
    # A name that sorts where "Former member 1" does: lists in name order keep their order,
    # so the pages must be the same but for the name itself.
    leaver.name, leaver.table_name = "Formerly Zebedee Quill", "Formerly"
    leaver.email, leaver.phone, leaver.notes = "zeb@example.org", "01632 960002", "Hard of hearing"
    leaver.save()
    leaver.retire()
    viewer = logged_in(CoordinatorFactory(username="viewer"))
    urls = standings_pages(demo_club)
    before = read_all(viewer, urls)
    assert any("Formerly" in page for page in before.values())

    made = erasure.erase(leaver, by=get_user_model().objects.get(username="viewer"))

    leaver.refresh_from_db()
    assert leaver.name == leaver.table_name == "Former member 1"
    assert (leaver.email, leaver.phone, leaver.notes) == ("", "", "")
    after = read_all(viewer, urls)
    for url in urls:
        expected = before[url]
        for old in ("Formerly Zebedee Quill", "Formerly"):
            expected = expected.replace(escape(old), leaver.name).replace(old, leaver.name)
        assert after[url] == expected, url
    assert made.erased_by.username == "viewer" and made.member_uid == leaver.uid
    # The record holds who and when, none of what was erased.
    recorded = json.dumps(list(Erasure.objects.values()), default=str)
    assert "Formerly" not in recorded and "zeb@" not in recorded


def test_erasure_closes_the_login_frees_its_name_and_drops_the_pairs(club):
    user = UserFactory(username="dorothy")
    leaver = MemberFactory(club=club, name="Dorothy Vale", user=user, email="dot@example.org")
    other = MemberFactory(club=club)
    KeepApart.objects.create(club=club, member_a=leaver, member_b=other, reason="Sisters")
    leaver.retire()
    erasure.erase(leaver)
    user.refresh_from_db()
    assert user.username != "dorothy" and not user.is_active and not user.has_usable_password()
    assert not user.check_password(PASSWORD)
    answer = Client().post(reverse("login"), {"username": "dorothy", "password": PASSWORD})
    assert answer.status_code == 200  # the login page again: no such login now
    UserFactory(username="dorothy")  # the name is free again
    assert not KeepApart.objects.filter(club=club).exists()


def test_erasure_leaves_no_old_detail_in_the_history_of_changes(club):
    """The history of changes (django-simple-history) keeps every earlier version of a
    member: erasing must not leave the name, email, phone or notes there."""
    leaver = MemberFactory(club=club, name="Dorothy Vale", email="dot@example.org")
    leaver.phone, leaver.notes = "01234 567890", "Needs the table by the door"
    leaver.save()
    session = Session.objects.create(club=club, date=datetime.date(2026, 1, 5))
    SessionReply.objects.create(
        club=club, session=session, member=leaver, answer="not_coming", note="Dorothy's op"
    )
    CalendarAddress.renew(leaver)
    leaver.retire()
    assert leaver.history.filter(email="dot@example.org").exists()  # kept before erasure
    erasure.erase(leaver)
    assert list(leaver.replies.values_list("answer", "note")) == [("not_coming", "")]
    assert not CalendarAddress.objects.filter(member=leaver).exists()
    kept = [str(row) for row in leaver.history.values()]
    assert len(kept) == 1
    for detail in ("Dorothy", "Vale", "dot@example.org", "01234 567890", "the door"):
        assert not any(detail in row for row in kept), detail


def test_initials_when_the_club_says_so(club):
    club.former_member_names = "initials"
    club.save()
    first = MemberFactory(club=club, name="Jean Smith", is_active=False)
    second = MemberFactory(club=club, name="John Stone", is_active=False)
    erasure.erase(first)
    erasure.erase(second)
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.table_name, second.table_name) == ("J.S.", "J.S. 2")


def test_erase_asks_first_and_is_for_coordinators_and_lapsed_members_only(club):
    coordinator = logged_in(CoordinatorFactory())
    active = MemberFactory(club=club, name="Active Annie")
    url = reverse("club:member_erase", args=[active.pk])
    assert b"only a lapsed member" in coordinator.get(url).content
    coordinator.post(url)
    active.refresh_from_db()
    assert active.name == "Active Annie" and not Erasure.objects.exists()

    leaver = MemberFactory(club=club, name="Leaving Lena", is_active=False)
    url = reverse("club:member_erase", args=[leaver.pk])
    member_user = UserFactory()
    MemberFactory(club=club, user=member_user)
    assert logged_in(member_user).post(url).status_code == 403
    assert Client().post(url).status_code == 302  # to the login page
    page = coordinator.get(url).content.decode()
    assert "What stays" in page and "Former member 1" in page  # asks first, says what stays
    detail = coordinator.get(reverse("club:member_detail", args=[leaver.pk])).content.decode()
    assert url in detail
    for _ in range(20):
        coordinator.post(url)
    leaver.refresh_from_db()
    assert leaver.name == "Former member 1"
    assert Erasure.objects.filter(member=leaver).count() == 1
    assert Member.objects.filter(name__startswith="Former member").count() == 1
    detail = coordinator.get(reverse("club:member_detail", args=[leaver.pk])).content.decode()
    assert "Personal details erased on" in detail


def test_an_older_backup_restored_is_erased_again(club, tmp_path):
    leaver = MemberFactory(club=club, name="Olive Older", email="olive@example.org", phone="123")
    older = backup.export_club(club)  # while Olive was active, with her details
    leaver.retire()
    erasure.erase(leaver)
    path = tmp_path / "older.json"
    path.write_text(backup.to_json(older))
    out = io.StringIO()
    call_command("import_club", str(path), "--slug", "restored", stdout=out)
    restored = Member.objects.get(club__slug="restored", uid=leaver.uid)
    assert restored.name == "Former member 1" and (restored.email, restored.phone) == ("", "")
    assert not restored.is_active
    assert Erasure.objects.filter(member=restored, automatic=True).exists()
    assert "erased again" in out.getvalue() and "Olive" not in out.getvalue()
    # A backup made after the erasure brings the erasure with it.
    again = backup.import_club(backup.export_club(Club.objects.get(slug="restored")), slug="third")
    assert again.erased_again == []
    assert Erasure.objects.filter(club__slug="third").count() == 1


# --- Keep no longer than needed ------------------------------------------------------------


def test_details_are_erased_months_after_a_member_lapses(club):
    coordinator = logged_in(CoordinatorFactory())
    with time_machine.travel(datetime.datetime(2026, 1, 10, 12, tzinfo=datetime.UTC)):
        early = MemberFactory(club=club, name="Early Edna")
        early.retire()
    with time_machine.travel(datetime.datetime(2026, 5, 10, 12, tzinfo=datetime.UTC)):
        late = MemberFactory(club=club, name="Late Lily")
        late.retire()
    MemberFactory(club=club, name="Staying Stan")
    with time_machine.travel(datetime.datetime(2026, 7, 15, 12, tzinfo=datetime.UTC)):
        out = io.StringIO()
        call_command("erase_expired_details", stdout=out)
        assert "0 members due" in out.getvalue()  # off by default
        settings_url = reverse("members_data_settings")
        answer = coordinator.post(
            settings_url, {"erase_after_months": "6", "former_member_names": "number"}
        )
        assert answer.status_code == 302
        page = coordinator.get(settings_url).content.decode()
        assert "Early Edna" in page and "Late Lily" not in page  # seen before it acts
        out = io.StringIO()
        call_command("erase_expired_details", stdout=out)  # a dry run by default
        assert "would erase Early" in out.getvalue()
        assert Member.objects.filter(name="Early Edna").exists()
        call_command("erase_expired_details", "--apply", stdout=io.StringIO())
        call_command("erase_expired_details", "--apply", stdout=io.StringIO())
    assert set(Member.objects.values_list("name", flat=True)) == {
        "Former member 1",
        "Late Lily",
        "Staying Stan",
    }
    assert Erasure.objects.get().automatic


def test_the_setting_refuses_months_out_of_range(club):
    coordinator = logged_in(CoordinatorFactory())
    page = coordinator.post(
        reverse("members_data_settings"),
        {"erase_after_months": "0", "former_member_names": "number", "privacy_notice": "Kept"},
    ).content.decode()
    assert "from 1 to 120" in page and "Kept" in page
    club.refresh_from_db()
    assert club.erase_after_months is None


# --- The privacy notice --------------------------------------------------------------------


def test_the_privacy_notice_is_public_filled_in_and_linked(club):
    club.erase_after_months = 18
    club.save()
    page = Client().get(reverse("privacy_notice")).content.decode()
    assert club.name in page and "18 months" in page and "{how_long}" not in page
    home = Client().get(reverse("login")).content.decode()
    assert reverse("privacy_notice") in home  # the footer links it


def test_the_coordinators_notice_is_shown_as_text(club):
    coordinator = logged_in(CoordinatorFactory())
    form = coordinator.get(reverse("members_data_settings")).content.decode()
    assert escape("What the club keeps") in form  # starts from the standard text
    text = "<script>alert(1)</script> {club} keeps names.\n\nAsk <b>Jo</b>."
    coordinator.post(
        reverse("members_data_settings"),
        {"erase_after_months": "", "former_member_names": "number", "privacy_notice": text},
    )
    page = Client().get(reverse("privacy_notice")).content.decode()
    assert "<script>alert" not in page and "&lt;script&gt;" in page and "<b>Jo" not in page
    assert f"{club.name} keeps names." in page
    # The standard text saved unchanged stays "the standard one".
    coordinator.post(
        reverse("members_data_settings"),
        {"former_member_names": "number", "privacy_notice": STANDARD_NOTICE},
    )
    club.refresh_from_db()
    assert club.privacy_notice == ""
