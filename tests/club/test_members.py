"""Members: coordinators find, add, edit, retire and (only if they never played) delete
members, give them logins, and keep pairs apart. Members see none of it."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from club.models import Attendance, KeepApart, Member
from tests.factories import (
    AttendanceFactory,
    KeepApartFactory,
    MemberFactory,
    SessionFactory,
    UserFactory,
)

HX = {"HTTP_HX_REQUEST": "true"}


def member_form(**overrides):
    data = {
        "name": "Edith Cavendish",
        "table_name": "Edith",
        "email": "edith@example.org",
        "phone": "01234 567890",
        "joined": "2025-09-04",
        "is_active": "on",
        "experience": "beginner",
        "fixed_table": "",
        "notes": "",
        "login": "none",
    }
    data.update(overrides)
    return data


@pytest.fixture
def margaret(club):
    return MemberFactory(club=club, name="Margaret Thornton", table_name="Margaret")


# --- who may do what -------------------------------------------------------------------


def _changing_requests(member, pair):
    return [
        ("get", reverse("club:member_list"), {}),
        ("get", reverse("club:member_detail", args=[member.pk]), {}),
        ("post", reverse("club:member_add"), member_form()),
        ("post", reverse("club:member_edit", args=[member.pk]), member_form()),
        ("post", reverse("club:member_retire", args=[member.pk]), {}),
        ("post", reverse("club:member_reactivate", args=[member.pk]), {}),
        ("post", reverse("club:member_delete", args=[member.pk]), {}),
        ("post", reverse("club:keep_apart_add", args=[member.pk]), {"other": pair.member_b_id}),
        ("post", reverse("club:keep_apart_remove", args=[member.pk, pair.pk]), {}),
    ]


def test_anonymous_users_are_sent_to_log_in(client, margaret):
    pair = KeepApartFactory(member_a=margaret)
    for method, url, data in _changing_requests(margaret, pair):
        response = getattr(client, method)(url, data)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    assert Member.objects.filter(pk=margaret.pk, is_active=True).exists()
    assert KeepApart.objects.count() == 1


def test_members_are_refused(member_client, margaret):
    pair = KeepApartFactory(member_a=margaret)
    count = Member.objects.count()
    for method, url, data in _changing_requests(margaret, pair):
        response = getattr(member_client, method)(url, data)
        assert response.status_code == 403, url
    assert Member.objects.count() == count
    assert Member.objects.get(pk=margaret.pk).is_active
    assert KeepApart.objects.count() == 1


def test_changing_views_refuse_get(coordinator_client, margaret):
    for name in ["member_retire", "member_reactivate", "keep_apart_add"]:
        response = coordinator_client.get(reverse(f"club:{name}", args=[margaret.pk]))
        assert response.status_code == 405, name
    assert Member.objects.get(pk=margaret.pk).is_active


def test_nav_shows_members_and_sessions_to_coordinators_only(coordinator_client, client, club):
    page = coordinator_client.get(reverse("club:member_list")).content.decode()
    assert f'<a href="{reverse("club:member_list")}" aria-current="page">Members</a>' in page
    assert f'href="{reverse("club:session_list")}"' in page
    member = UserFactory()
    MemberFactory(club=club, user=member)
    client.force_login(member)
    page = client.get(reverse("home")).content.decode()
    assert reverse("club:member_list") not in page


# --- list and search -------------------------------------------------------------------


def test_list_filters_active_lapsed_guests_and_all(coordinator_client, club, margaret):
    MemberFactory(club=club, table_name="Brian", is_active=False)
    MemberFactory(club=club, table_name="Visitor", is_guest=True)
    url = reverse("club:member_list")

    def names(show):
        return {
            m.table_name for m in coordinator_client.get(url, {"show": show}).context["members"]
        }

    assert names("active") == {"Margaret"}
    assert names("lapsed") == {"Brian"}
    assert names("guests") == {"Visitor"}
    assert names("all") == {"Margaret", "Brian", "Visitor"}


def test_search_by_part_of_name_email_or_phone(coordinator_client, club, margaret):
    MemberFactory(club=club, name="Brian Oakes", table_name="Brian", email="boakes@example.org")
    MemberFactory(club=club, name="Sheila Patel", table_name="Sheila", phone="07700 900123")
    url = reverse("club:member_list")

    def found(q):
        return {m.table_name for m in coordinator_client.get(url, {"q": q}).context["members"]}

    assert found("thorn") == {"Margaret"}
    assert found("BOAKES") == {"Brian"}
    assert found("900123") == {"Sheila"}
    assert found("margaret thornton") == {"Margaret"}
    assert found("nobody") == set()


def test_live_search_returns_only_the_results(coordinator_client, club, margaret):
    MemberFactory(
        club=club, name="Brian Hughes", table_name="Brian"
    )  # no Faker name: it may hold "marg"
    response = coordinator_client.get(
        reverse("club:member_list"), {"q": "marg"}, HTTP_HX_TARGET="member-results", **HX
    )
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="member-results">')
    assert "<html" not in page
    assert "Margaret" in page and "Brian" not in page


def test_search_works_without_javascript(coordinator_client, club, margaret):
    page = coordinator_client.get(reverse("club:member_list"), {"q": "marg"}).content.decode()
    assert 'method="get"' in page and 'name="q"' in page and 'value="marg"' in page
    assert "<html" in page and 'id="member-results"' in page


# --- add and edit ----------------------------------------------------------------------


def test_coordinator_adds_a_member(coordinator_client, club):
    response = coordinator_client.post(reverse("club:member_add"), member_form(fixed_table="2"))
    member = Member.objects.get(name="Edith Cavendish")
    assert response.status_code == 302
    assert response["Location"] == reverse("club:member_detail", args=[member.pk])
    assert member.club == club and member.table_name == "Edith" and member.fixed_table == 2
    assert member.experience == "beginner" and member.user is None
    page = coordinator_client.get(response["Location"]).content.decode()
    assert "Edith Cavendish is added to the club" in page


def test_table_name_defaults_to_first_name(coordinator_client, club):
    coordinator_client.post(reverse("club:member_add"), member_form(table_name=""))
    assert Member.objects.get(name="Edith Cavendish").table_name == "Edith"


def test_bad_input_keeps_entries_and_names_the_problem(coordinator_client, club, margaret):
    response = coordinator_client.post(
        reverse("club:member_add"),
        member_form(table_name="margaret", email="not-an-email", notes="Likes the window seat"),
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "Another member is already called “margaret” at the table" in page
    assert "Enter a valid email address" in page
    assert 'value="Edith Cavendish"' in page and "Likes the window seat" in page
    assert not Member.objects.filter(name="Edith Cavendish").exists()


def test_edit_a_member(coordinator_client, margaret):
    response = coordinator_client.post(
        reverse("club:member_edit", args=[margaret.pk]),
        member_form(name="Margaret Thornton", table_name="Maggie", notes="Needs the ramp"),
    )
    assert response.status_code == 302
    margaret.refresh_from_db()
    assert margaret.table_name == "Maggie" and margaret.notes == "Needs the ramp"


def test_editing_keeps_own_table_name(coordinator_client, margaret):
    """Her own table name is not "another member's": the edit is saved, not refused."""
    response = coordinator_client.post(
        reverse("club:member_edit", args=[margaret.pk]),
        member_form(name="Margaret Thornton", table_name="Margaret", notes="Keeps her name"),
    )
    assert response.status_code == 302
    margaret.refresh_from_db()
    assert margaret.table_name == "Margaret" and margaret.notes == "Keeps her name"
    assert Member.objects.filter(table_name__iexact="margaret").count() == 1


def test_create_a_login_for_a_member(coordinator_client, club):
    response = coordinator_client.post(
        reverse("club:member_add"),
        member_form(login="new", username="edith", password="red-dragon-pung-42"),
    )
    assert response.status_code == 302
    member = Member.objects.get(name="Edith Cavendish")
    assert member.user.username == "edith"
    assert member.user.check_password("red-dragon-pung-42")


def test_new_login_needs_a_free_username_and_a_good_password(coordinator_client, club):
    UserFactory(username="edith")
    response = coordinator_client.post(
        reverse("club:member_add"), member_form(login="new", username="Edith", password="123")
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert "The username “Edith” is taken" in page
    assert "This password is too short" in page
    assert not Member.objects.filter(name="Edith Cavendish").exists()
    assert get_user_model().objects.filter(username__iexact="edith").count() == 1


def test_link_an_existing_login_and_remove_it(coordinator_client, margaret):
    user = UserFactory()
    url = reverse("club:member_edit", args=[margaret.pk])
    form = coordinator_client.get(url).context["form"]
    assert user in form.fields["existing_user"].queryset
    coordinator_client.post(
        url,
        member_form(
            name=margaret.name,
            table_name="Margaret",
            login="existing",
            existing_user=f" {user.username.upper()} ",  # typed: any case, a keyboard's spaces
        ),
    )
    margaret.refresh_from_db()
    assert margaret.user == user
    coordinator_client.post(
        url, member_form(name=margaret.name, table_name="Margaret", login="keep")
    )
    margaret.refresh_from_db()
    assert margaret.user == user
    coordinator_client.post(
        url, member_form(name=margaret.name, table_name="Margaret", login="none")
    )
    margaret.refresh_from_db()
    assert margaret.user is None
    assert get_user_model().objects.filter(pk=user.pk).exists()


def test_a_login_already_used_by_a_member_is_not_offered(coordinator_client, club, margaret):
    taken = UserFactory()
    MemberFactory(club=club, user=taken)
    response = coordinator_client.post(
        reverse("club:member_edit", args=[margaret.pk]),
        member_form(
            name=margaret.name,
            table_name="Margaret",
            login="existing",
            existing_user=taken.username,
        ),
    )
    assert response.status_code == 200
    assert "That login cannot be given to a member" in response.content.decode()
    margaret.refresh_from_db()
    assert margaret.user is None


# --- retire, reactivate, delete --------------------------------------------------------


def test_retire_and_reactivate(coordinator_client, margaret):
    response = coordinator_client.post(
        reverse("club:member_retire", args=[margaret.pk]), follow=True
    )
    margaret.refresh_from_db()
    assert not margaret.is_active
    assert "Margaret is now marked as lapsed" in response.content.decode()
    coordinator_client.post(reverse("club:member_reactivate", args=[margaret.pk]))
    margaret.refresh_from_db()
    assert margaret.is_active


def test_a_member_who_never_played_can_be_deleted_after_confirming(coordinator_client, margaret):
    url = reverse("club:member_delete", args=[margaret.pk])
    page = coordinator_client.get(url).content.decode()
    assert "Yes, delete Margaret" in page
    assert Member.objects.filter(pk=margaret.pk).exists()
    response = coordinator_client.post(url)
    assert response.status_code == 302
    assert not Member.objects.filter(pk=margaret.pk).exists()


def test_a_member_who_played_is_never_deleted(coordinator_client, margaret):
    AttendanceFactory(member=margaret)
    detail = coordinator_client.get(reverse("club:member_detail", args=[margaret.pk]))
    assert reverse("club:member_delete", args=[margaret.pk]) not in detail.content.decode()
    page = coordinator_client.get(
        reverse("club:member_delete", args=[margaret.pk])
    ).content.decode()
    assert "cannot be deleted" in page and "Mark as lapsed instead" in page
    response = coordinator_client.post(
        reverse("club:member_delete", args=[margaret.pk]), follow=True
    )
    assert Member.objects.filter(pk=margaret.pk).exists()
    assert "has played at the club" in response.content.decode()


# --- never seat together ---------------------------------------------------------------


def test_keep_apart_add_with_htmx_returns_the_section(coordinator_client, club, margaret):
    brian = MemberFactory(club=club, table_name="Brian")
    response = coordinator_client.post(
        reverse("club:keep_apart_add", args=[margaret.pk]),
        {"other": brian.pk, "reason": "Old quarrel"},
        **HX,
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<section id="keep-apart"')
    assert "Margaret and Brian will not be seated together" in page
    pair = KeepApart.objects.get()
    assert {pair.member_a, pair.member_b} == {margaret, brian}
    assert pair.member_a_id < pair.member_b_id and pair.reason == "Old quarrel"
    # Seen from Brian's page too, and not offered twice.
    brian_page = coordinator_client.get(reverse("club:member_detail", args=[brian.pk]))
    assert "Margaret" in brian_page.content.decode()
    assert f'<option value="{margaret.pk}"' not in brian_page.content.decode()


def test_keep_apart_from_the_other_side_is_the_same_pair(coordinator_client, club, margaret):
    brian = MemberFactory(club=club, table_name="Brian")
    KeepApartFactory(member_a=margaret, member_b=brian, reason="Old quarrel")
    response = coordinator_client.post(
        reverse("club:keep_apart_add", args=[brian.pk]), {"other": margaret.pk}, **HX
    )
    assert response.status_code == 200
    assert "Brian and Margaret will not be seated together" in response.content.decode()
    assert KeepApart.objects.get().reason == "Old quarrel"


def test_keep_apart_posted_twice_keeps_one_pair_without_an_error(
    coordinator_client, club, margaret
):
    brian = MemberFactory(club=club, table_name="Brian")
    url = reverse("club:keep_apart_add", args=[margaret.pk])
    for _ in range(2):
        response = coordinator_client.post(url, {"other": brian.pk, "reason": "Quarrel"}, **HX)
    page = response.content.decode()
    assert "Margaret and Brian will not be seated together" in page
    assert "message-error" not in page and "errorlist" not in page
    assert KeepApart.objects.count() == 1
    # The choice list still offers only members not yet kept apart.
    assert f'<option value="{brian.pk}"' not in page


def test_removing_another_members_pair_is_refused(coordinator_client, club, margaret):
    brian = MemberFactory(club=club, table_name="Brian")
    carol = MemberFactory(club=club, table_name="Carol")
    pair = KeepApartFactory(member_a=brian, member_b=carol)
    response = coordinator_client.post(
        reverse("club:keep_apart_remove", args=[margaret.pk, pair.pk]), **HX
    )
    page = response.content.decode()
    assert "That pair is not one of Margaret&#x27;s, so nothing was changed." in page
    assert "message-error" in page
    assert KeepApart.objects.filter(pk=pair.pk).exists()


def test_keep_apart_without_a_choice_is_explained(coordinator_client, margaret):
    response = coordinator_client.post(
        reverse("club:keep_apart_add", args=[margaret.pk]), {"other": "", "reason": "x"}, **HX
    )
    page = response.content.decode()
    assert response.status_code == 200 and "Please choose a member." in page
    assert 'value="x"' in page


def test_keep_apart_remove(coordinator_client, club, margaret):
    brian = MemberFactory(club=club, table_name="Brian")
    pair = KeepApartFactory(member_a=brian, member_b=margaret)
    response = coordinator_client.post(
        reverse("club:keep_apart_remove", args=[margaret.pk, pair.pk]), **HX
    )
    assert "may be seated together again" in response.content.decode()
    assert not KeepApart.objects.exists()


def test_keep_apart_without_htmx_redirects_back(coordinator_client, club, margaret):
    brian = MemberFactory(club=club, table_name="Brian")
    response = coordinator_client.post(
        reverse("club:keep_apart_add", args=[margaret.pk]), {"other": brian.pk}
    )
    assert response.status_code == 302
    assert KeepApart.objects.count() == 1


def test_keep_apart_pairs_are_stored_once_in_order(club):
    a, b = MemberFactory(club=club), MemberFactory(club=club)
    first = KeepApart.objects.create(club=club, member_a=b, member_b=a)
    assert [first.member_a, first.member_b] == sorted([a, b], key=lambda m: m.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        KeepApart.objects.create(club=club, member_a=a, member_b=b)
    with pytest.raises(IntegrityError), transaction.atomic():
        KeepApart.objects.create(club=club, member_a=a, member_b=a)
    # The database refuses a reversed pair that bypasses save().
    KeepApart.objects.all().delete()
    low, high = sorted([a, b], key=lambda m: m.pk)
    with pytest.raises(IntegrityError), transaction.atomic():
        KeepApart.objects.bulk_create([KeepApart(club=club, member_a=high, member_b=low)])


def test_member_form_save_writes_the_new_login_with_the_member_or_not_at_all(club):
    from club.forms import MemberForm

    form = MemberForm(
        member_form(login="new", username="edith", password="red-dragon-pung-42"), club=club
    )
    assert form.is_valid(), form.errors
    MemberFactory(club=club, table_name="Edith")  # taken between checking and saving
    with pytest.raises(IntegrityError):
        form.save()
    assert not get_user_model().objects.filter(username="edith").exists()


# --- adding is idempotent; bounds ------------------------------------------------------


def _form_token(page: str) -> str:
    return re.search(r'name="form_token" value="([0-9a-f-]+)"', page).group(1)


def test_adding_a_member_twice_with_the_same_form_adds_them_once(coordinator_client, club):
    token = _form_token(coordinator_client.get(reverse("club:member_add")).content.decode())
    data = member_form(
        login="new", username="edith", password="red-dragon-pung-42", form_token=token
    )
    first = coordinator_client.post(reverse("club:member_add"), data)
    again = coordinator_client.post(reverse("club:member_add"), data, follow=True)
    member = Member.objects.get(name="Edith Cavendish")
    assert first["Location"] == reverse("club:member_detail", args=[member.pk])
    assert again.redirect_chain[-1][0] == first["Location"]
    assert "Edith Cavendish is already added (as “Edith”)" in again.content.decode()
    assert get_user_model().objects.filter(username="edith").count() == 1


def test_each_add_member_form_has_its_own_token(coordinator_client, club):
    url = reverse("club:member_add")
    first = _form_token(coordinator_client.get(url).content.decode())
    assert first != _form_token(coordinator_client.get(url).content.decode())
    coordinator_client.post(url, member_form(form_token=first))
    response = coordinator_client.post(url, member_form(name="Brian Oakes", table_name="Brian"))
    assert response.status_code == 302
    assert Member.objects.count() == 2


def test_a_reused_token_with_bad_entries_is_still_the_same_add(coordinator_client, club):
    token = _form_token(coordinator_client.get(reverse("club:member_add")).content.decode())
    coordinator_client.post(reverse("club:member_add"), member_form(form_token=token))
    response = coordinator_client.post(
        reverse("club:member_add"), member_form(form_token=token, email="x"), follow=True
    )
    assert "is already added" in response.content.decode()
    assert Member.objects.count() == 1


@pytest.mark.parametrize("table", ["0", "-3", "100", "99999999999"])
def test_fixed_table_outside_the_range_is_named(coordinator_client, club, table):
    response = coordinator_client.post(reverse("club:member_add"), member_form(fixed_table=table))
    assert response.status_code == 200
    assert "Table numbers go from 1 to 99." in response.content.decode()
    assert not Member.objects.exists()


def test_fixed_table_range_is_also_kept_by_the_database(club, margaret):
    for table in [0, 100]:
        with pytest.raises(IntegrityError), transaction.atomic():
            Member.objects.filter(pk=margaret.pk).update(fixed_table=table)
    Member.objects.filter(pk=margaret.pk).update(fixed_table=99)


def test_list_is_in_a_to_z_order_of_full_name(coordinator_client, club):
    for name, table in [("zoe Adams", "A"), ("Brian Oakes", "Z"), ("alice Young", "M")]:
        MemberFactory(club=club, name=name, table_name=table)
    response = coordinator_client.get(reverse("club:member_list"))
    assert [m.name for m in response.context["members"]] == [
        "alice Young",
        "Brian Oakes",
        "zoe Adams",
    ]


def test_the_short_name_is_called_name_at_the_table(coordinator_client, club, margaret):
    pages = [
        coordinator_client.get(reverse("club:member_list")).content.decode(),
        coordinator_client.get(reverse("club:member_add")).content.decode(),
        coordinator_client.get(reverse("club:member_detail", args=[margaret.pk])).content.decode(),
    ]
    for page in pages:
        assert "Name at the table" in page
        assert "Table name" not in page and "table name" not in page


def test_add_member_racing_the_same_form_answers_with_the_member_it_made(club):
    import uuid

    from club.forms import MemberForm

    token = uuid.uuid4()
    form = MemberForm(
        member_form(login="new", username="edith", password="red-dragon-pung-42", form_token=token),
        club=club,
    )
    assert form.is_valid(), form.errors
    first = MemberFactory(club=club, table_name="Edith", form_token=token)  # the other tap won
    assert form.save() == first and form.already_added == first
    assert Member.objects.count() == 1
    assert not get_user_model().objects.filter(username="edith").exists()


def test_a_long_list_is_paged_with_and_without_javascript(coordinator_client, club):
    """A club of many years has hundreds of members: the list shows 100 a page, counts
    them all, and its page links work as plain links and as htmx swaps of the list."""
    from club.views.members import MEMBERS_PER_PAGE

    Member.objects.bulk_create(
        Member(club=club, name=f"Person {n:03}", table_name=f"P{n:03}")
        for n in range(MEMBERS_PER_PAGE + 5)
    )
    url = reverse("club:member_list")
    first = coordinator_client.get(url).content.decode()
    assert f"{MEMBERS_PER_PAGE + 5} people" in first
    assert "Person 000" in first and f"Person {MEMBERS_PER_PAGE - 1:03}" in first
    assert f"Person {MEMBERS_PER_PAGE:03}" not in first
    assert "page=2" in first and "Page 1 of 2" in first
    second = coordinator_client.get(url, {"page": 2, "show": "active"}).content.decode()
    assert f"Person {MEMBERS_PER_PAGE + 4:03}" in second and "Person 000" not in second
    swapped = coordinator_client.get(
        url, {"page": 2, "q": "Person"}, HTTP_HX_TARGET="member-results", **HX
    )
    body = swapped.content.decode()
    assert "<h1>" not in body and 'id="member-results"' in body
    assert 'hx-push-url="true"' in body and f"Person {MEMBERS_PER_PAGE + 4:03}" in body


def test_sessions_attended_are_this_seasons_and_the_last_any_seasons(
    coordinator_client, club, margaret
):
    """The members list and a member's details count this season's sessions only (a count over a member's whole
    history grows with it, tests/test_flat_with_history.py); the last session attended is
    found in any season."""
    today = timezone.localdate()
    start, _ = club.season_of(today)
    for date in (start, start - datetime.timedelta(days=7), start - datetime.timedelta(days=400)):
        AttendanceFactory(member=margaret, session=SessionFactory(club=club, date=date))
    listed = coordinator_client.get(reverse("club:member_list"))
    assert listed.context["members"][0].sessions_attended == 1
    assert "Sessions this season" in listed.content.decode()
    detail = coordinator_client.get(reverse("club:member_detail", args=[margaret.pk]))
    assert detail.context["sessions_attended"] == 1
    assert detail.context["last_attended"].date == start
    assert "Sessions attended this season" in detail.content.decode()
    Attendance.objects.filter(session__date=start).delete()
    detail = coordinator_client.get(reverse("club:member_detail", args=[margaret.pk]))
    assert detail.context["sessions_attended"] == 0
    assert detail.context["last_attended"].date == start - datetime.timedelta(days=7)


def test_a_members_sessions_are_looked_up_from_today_backwards(club, margaret):
    """The latest session a member came to is found walking the club's sessions backwards
    from today, each looked up in their attendance: not from the sessions planned ahead
    (no one has come to those: a club plans months ahead, and the walk read them all first),
    nor by reading every attendance of theirs (tests/test_bounded_reads.py, item 7)."""
    today = timezone.localdate()
    for weeks in range(-2, 30):
        SessionFactory(club=club, date=today + datetime.timedelta(weeks=weeks))
    came = club.sessions.get(date=today - datetime.timedelta(weeks=1))
    AttendanceFactory(member=margaret, session=came)
    sessions = margaret.attended_sessions()
    assert list(sessions) == [came]
    assert '"club_session"."date" <= ' in str(sessions.query)
