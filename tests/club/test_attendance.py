"""Check-in at the door: tap to mark here / not here, live counts, walk-ins and guests;
closed sessions are read-only."""

import pytest
from django.urls import reverse

from club.models import Attendance, Member, Session
from tests.factories import AttendanceFactory, MemberFactory, SessionFactory

HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def session(club):
    return SessionFactory(club=club)


@pytest.fixture
def margaret(club):
    return MemberFactory(club=club, name="Margaret Thornton", table_name="Margaret")


def set_url(session, member):
    return reverse("club:set_attendance", args=[session.pk, member.pk])


def test_anonymous_and_members_cannot_check_in(client, member_client, session, margaret):
    # member_client logged the client in; log out for the anonymous half.
    requests = [
        ("get", reverse("club:check_in", args=[session.pk]), {}),
        ("post", set_url(session, margaret), {"present": "1"}),
        ("post", reverse("club:walk_in", args=[session.pk]), {"name": "Pat Visitor"}),
    ]
    for method, url, data in requests:
        assert getattr(member_client, method)(url, data).status_code == 403, url
    member_client.logout()
    for method, url, data in requests:
        response = getattr(client, method)(url, data)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not Attendance.objects.exists()
    assert not Member.objects.filter(name="Pat Visitor").exists()


def test_toggle_refuses_get(coordinator_client, session, margaret):
    assert coordinator_client.get(set_url(session, margaret)).status_code == 405
    assert not Attendance.objects.exists()


def test_check_in_page_lists_active_members_with_big_toggles(
    coordinator_client, club, session, margaret
):
    MemberFactory(club=club, table_name="Lapsed Len", is_active=False)
    MemberFactory(club=club, table_name="Guest Gwen", is_guest=True)
    response = coordinator_client.get(reverse("club:check_in", args=[session.pk]))
    page = response.content.decode()
    assert [row.member for row in response.context["rows"]] == [margaret]
    assert 'class="toggle" aria-pressed="false"' in page
    assert f'hx-post="{set_url(session, margaret)}"' in page
    assert 'id="checkin-filter"' in page and "js/checkin.js" in page
    assert "Lapsed Len" not in page and "Guest Gwen" not in page


def test_toggle_with_htmx_swaps_the_row_and_updates_counts(
    coordinator_client, club, session, margaret
):
    MemberFactory(club=club, table_name="Brian")
    response = coordinator_client.post(set_url(session, margaret), {"present": "1"}, **HX)
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith(f'<li id="member-{margaret.pk}"')
    assert "<html" not in page
    assert 'aria-pressed="true"' in page and "✓ Here" in page
    assert 'name="present" value="0"' in page  # the next tap marks them not here
    assert (
        'id="checkin-counts" class="counts sticky-counts" aria-live="polite" hx-swap-oob="true"'
        in page
    )
    assert "<strong>1</strong> here" in page and "<strong>1</strong> not here" in page
    attendance = Attendance.objects.get()
    assert attendance.member == margaret and attendance.left_at is None


def test_tapping_twice_is_harmless(coordinator_client, session, margaret):
    for _ in range(2):
        coordinator_client.post(set_url(session, margaret), {"present": "1"}, **HX)
    assert Attendance.objects.filter(member=margaret, left_at__isnull=True).count() == 1
    for _ in range(2):
        response = coordinator_client.post(set_url(session, margaret), {"present": "0"}, **HX)
    assert "Not here yet" in response.content.decode()
    assert not Attendance.objects.exists()


def test_not_here_once_play_started_records_leaving(coordinator_client, session, margaret):
    session.status = Session.Status.IN_PLAY
    session.save()
    coordinator_client.post(set_url(session, margaret), {"present": "1"}, **HX)
    response = coordinator_client.post(set_url(session, margaret), {"present": "0"}, **HX)
    attendance = Attendance.objects.get()
    assert attendance.left_at is not None
    assert "Left at" in response.content.decode()
    assert "<strong>0</strong> here" in response.content.decode()
    coordinator_client.post(set_url(session, margaret), {"present": "1"}, **HX)
    attendance.refresh_from_db()
    assert attendance.left_at is None


def test_toggle_without_htmx_redirects_back_to_the_row(coordinator_client, session, margaret):
    response = coordinator_client.post(set_url(session, margaret), {"present": "1"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"#member-{margaret.pk}")
    assert Attendance.objects.filter(member=margaret).exists()


def test_closed_session_is_read_only(coordinator_client, session, margaret):
    AttendanceFactory(session=session, member=margaret)
    brian = MemberFactory(club=session.club, table_name="Brian")
    session.status = Session.Status.CLOSED
    session.save()
    page = coordinator_client.get(reverse("club:check_in", args=[session.pk])).content.decode()
    assert "This session is closed" in page
    assert "hx-post" not in page and "Add a walk-in or guest" not in page
    response = coordinator_client.post(set_url(session, brian), {"present": "1"}, **HX)
    assert response.status_code == 200
    assert "This session is closed" in response.content.decode()
    coordinator_client.post(set_url(session, margaret), {"present": "0"}, **HX)
    response = coordinator_client.post(
        reverse("club:walk_in", args=[session.pk]), {"name": "Pat Visitor"}
    )
    assert response.status_code == 200
    assert list(Attendance.objects.values_list("member", "left_at")) == [(margaret.pk, None)]
    assert not Member.objects.filter(name="Pat Visitor").exists()


def test_walk_in_guest_is_created_and_checked_in(coordinator_client, session, margaret):
    MemberFactory(club=session.club, name="Pat Jones", table_name="Pat")
    response = coordinator_client.post(
        reverse("club:walk_in", args=[session.pk]), {"name": "  Pat   Visitor "}, follow=True
    )
    guest = Member.objects.get(name="Pat Visitor")
    assert guest.is_guest and guest.table_name == "Pat V"
    assert Attendance.objects.filter(session=session, member=guest).exists()
    page = response.content.decode()
    assert "Pat Visitor is added as a guest and checked in" in page
    # A guest who came is listed on this session's check-in page.
    assert guest in [row.member for row in response.context["rows"]]


def test_walk_in_joining_today_becomes_a_member(coordinator_client, session):
    coordinator_client.post(
        reverse("club:walk_in", args=[session.pk]), {"name": "Nora Newby", "joining": "on"}
    )
    member = Member.objects.get(name="Nora Newby")
    assert not member.is_guest and member.is_active
    assert Attendance.objects.filter(member=member).exists()


def test_walk_in_finds_an_existing_member_by_name(coordinator_client, club, session):
    lapsed = MemberFactory(club=club, name="Brian Oakes", table_name="Brian", is_active=False)
    count = Member.objects.count()
    response = coordinator_client.post(
        reverse("club:walk_in", args=[session.pk]), {"name": "brian oakes"}, follow=True
    )
    assert Member.objects.count() == count
    assert Attendance.objects.filter(member=lapsed).exists()
    assert "Brian Oakes is checked in (a lapsed member" in response.content.decode()


def test_walk_in_with_two_same_names_asks_which(coordinator_client, club, session):
    one = MemberFactory(club=club, name="Ann Davies", table_name="Ann")
    two = MemberFactory(club=club, name="Ann Davies", table_name="Ann D")
    url = reverse("club:walk_in", args=[session.pk])
    response = coordinator_client.post(url, {"name": "Ann Davies"})
    page = response.content.decode()
    assert response.status_code == 200
    assert "More than one member is called “Ann Davies”" in page
    assert f'name="member_id" value="{two.pk}"' in page and 'value="Ann Davies"' in page
    assert not Attendance.objects.exists()
    coordinator_client.post(url, {"name": "Ann Davies", "member_id": two.pk})
    assert list(Attendance.objects.values_list("member", flat=True)) == [two.pk]
    assert one.attendances.count() == 0


def test_walk_in_without_a_name_is_explained(coordinator_client, session):
    response = coordinator_client.post(
        reverse("club:walk_in", args=[session.pk]), {"name": "   ", "joining": "on"}
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Please type the person&#x27;s name." in page
    assert 'name="joining" id="id_joining" checked' in page
    assert not Attendance.objects.exists()


def test_another_clubs_member_cannot_be_checked_in(coordinator_client, session):
    from tests.factories import ClubFactory

    stranger = MemberFactory(club=ClubFactory(name="Other club"))
    response = coordinator_client.post(set_url(session, stranger), {"present": "1"}, **HX)
    assert response.status_code == 404
    assert not Attendance.objects.exists()


def test_walk_in_posted_twice_is_one_member_and_one_attendance(coordinator_client, session):
    url = reverse("club:walk_in", args=[session.pk])
    for _ in range(2):
        response = coordinator_client.post(url, {"name": "Pat Visitor"})
        assert response.status_code == 302
    guest = Member.objects.get(name="Pat Visitor")
    assert list(Attendance.objects.values_list("member", flat=True)) == [guest.pk]


def test_walk_in_of_the_chosen_member_posted_twice_checks_in_once(coordinator_client, club):
    session = SessionFactory(club=club)
    MemberFactory(club=club, name="Ann Davies", table_name="Ann")
    two = MemberFactory(club=club, name="Ann Davies", table_name="Ann D")
    url = reverse("club:walk_in", args=[session.pk])
    for _ in range(2):
        coordinator_client.post(url, {"name": "Ann Davies", "member_id": two.pk})
    assert list(Attendance.objects.values_list("member", flat=True)) == [two.pk]


@pytest.mark.parametrize("bad", ["²", "-1", "abc", "99999999999999999999"])
def test_walk_in_with_a_bad_member_id_is_explained(coordinator_client, session, bad):
    response = coordinator_client.post(
        reverse("club:walk_in", args=[session.pk]), {"name": "Pat Visitor", "member_id": bad}
    )
    assert response.status_code == 200
    assert "That member could not be found. Please type the name again." in (
        response.content.decode()
    )
    assert 'value="Pat Visitor"' in response.content.decode()
    assert not Attendance.objects.exists()
    assert not Member.objects.filter(name="Pat Visitor").exists()


def test_walk_in_with_an_empty_member_id_goes_by_the_name(coordinator_client, session):
    coordinator_client.post(
        reverse("club:walk_in", args=[session.pk]), {"name": "Pat Visitor", "member_id": ""}
    )
    assert Attendance.objects.get().member.name == "Pat Visitor"


def test_walk_in_cannot_choose_another_clubs_member(coordinator_client, session):
    from tests.factories import ClubFactory

    stranger = MemberFactory(club=ClubFactory(name="Other club"), name="Pat Visitor")
    response = coordinator_client.post(
        reverse("club:walk_in", args=[session.pk]),
        {"name": "Pat Visitor", "member_id": stranger.pk},
    )
    assert "That member could not be found" in response.content.decode()
    assert not Attendance.objects.exists()


def test_walk_in_with_htmx_adds_the_row_and_counts_without_a_reload(
    coordinator_client, session, margaret
):
    response = coordinator_client.post(
        reverse("club:walk_in", args=[session.pk]), {"name": "Pat Visitor"}, **HX
    )
    page = response.content.decode()
    pat = Member.objects.get(name="Pat Visitor")
    assert response.status_code == 200 and "<html" not in page
    assert page.lstrip().startswith('<section class="card" id="walk-in"')
    assert "Pat Visitor is added as a guest and checked in" in page
    assert "Their name is now at the end of the list." in page
    assert 'hx-swap-oob="beforeend:#checkin-list"' in page and f'id="member-{pat.pk}"' in page
    assert "<strong>1</strong> here" in page and 'id="checkin-counts"' in page
    assert 'name="name" value' not in page and "autofocus" in page  # fresh for the next one


def test_walk_in_of_a_listed_member_replaces_their_row(coordinator_client, session, margaret):
    response = coordinator_client.post(
        reverse("club:walk_in", args=[session.pk]), {"name": "margaret thornton"}, **HX
    )
    page = response.content.decode()
    assert "Margaret Thornton is checked in." in page
    assert f'id="member-{margaret.pk}" class="checkin-row"' in page
    assert 'hx-swap-oob="true"' in page and "beforeend:#checkin-list" not in page


def test_walk_in_refusal_with_htmx_keeps_the_entries(coordinator_client, club, session):
    MemberFactory(club=club, name="Ann Lee", table_name="Ann L")
    MemberFactory(club=club, name="Ann Lee", table_name="Ann 2")
    url = reverse("club:walk_in", args=[session.pk])
    page = coordinator_client.post(url, {"name": "", "joining": "on"}, **HX).content.decode()
    assert "Please type the person&#x27;s name." in page and "checked" in page
    page = coordinator_client.post(url, {"name": "Ann Lee"}, **HX).content.decode()
    assert "Which one is here?" in page and 'value="Ann Lee"' in page
    assert not Attendance.objects.exists()
