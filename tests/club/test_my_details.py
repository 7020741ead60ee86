"""A member's own details (My details), who may see them, and the coordinator's history of
changes to a member (club/views/my_details.py, club/member_history.py)."""

import re

import pytest
from django.urls import reverse

from club.models import Member
from tests.factories import ClubFactory, MemberFactory, UserFactory

pytestmark = pytest.mark.django_db

URL = reverse("my_details")
MINE = {
    "table_name": "Annie",
    "email": "annie@example.com",
    "phone": "01234 567890",
    "contact_sharing": Member.Sharing.MEMBERS,
}


@pytest.fixture
def me(member_user):
    return Member.objects.get(user=member_user)


def test_a_member_changes_their_own_details_and_who_sees_them(member_client, me):
    page = member_client.get(URL).content.decode()
    assert "Who may see your email and phone" in page
    assert re.search(r'value="coordinators"[^>]*checked', page)  # the default
    response = member_client.post(URL, MINE, follow=True)
    assert "Your details are saved." in response.content.decode()
    me.refresh_from_db()
    assert (me.table_name, me.email, me.phone, me.contact_sharing) == tuple(MINE.values())


def test_the_default_is_the_coordinators_only(club):
    assert MemberFactory(club=club).contact_sharing == Member.Sharing.COORDINATORS


def test_a_member_can_change_nothing_but_their_own_four_details(member_client, me, club):
    """Whatever the post names (another member, the full name, notes, active), only the
    login's own member's four details change."""
    other = MemberFactory(club=club, email="other@example.com", notes="keep")
    name, notes = me.name, me.notes
    member_client.post(
        URL,
        {
            **MINE,
            "pk": other.pk,
            "id": other.pk,
            "member": other.pk,
            "name": "Changed Name",
            "notes": "changed",
            "is_active": "",
            "user": "",
            "club": ClubFactory().pk,
            "membership_number": "999",
        },
    )
    other_after = Member.objects.get(pk=other.pk)
    assert (other_after.email, other_after.notes, other_after.table_name) == (
        "other@example.com",
        "keep",
        other.table_name,
    )
    me.refresh_from_db()
    assert (me.name, me.notes, me.is_active, me.membership_number) == (name, notes, True, "")
    assert me.user is not None and me.club_id == club.pk and me.email == MINE["email"]


def test_bad_input_says_what_is_wrong_and_keeps_every_entry(member_client, me, club):
    MemberFactory(club=club, table_name="Bob")
    before = Member.objects.get(pk=me.pk)
    bad = {**MINE, "table_name": "bob", "email": "annie-at-example", "phone": "07700 900123"}
    response = member_client.post(URL, bad)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Another member is already called “bob” at the table." in page
    assert "Please type a whole email address, like ann@example.com." in page
    for value in ("bob", "annie-at-example", "07700 900123"):
        assert f'value="{value}"' in page
    assert re.search(r'value="members"[^>]*checked', page)
    after = Member.objects.get(pk=me.pk)
    assert (after.table_name, after.email, after.phone) == (
        before.table_name,
        before.email,
        before.phone,
    )


def test_twenty_identical_posts_are_one_change_and_one_line_of_history(member_client, me):
    lines = me.history.count()
    for _ in range(20):
        assert member_client.post(URL, MINE).status_code == 302
    assert me.history.count() == lines + 1
    me.refresh_from_db()
    assert me.phone == MINE["phone"]


def test_a_login_in_two_clubs_has_separate_details_and_choices(client, club, me):
    other_club = ClubFactory(slug="birch")
    there = MemberFactory(club=other_club, user=me.user, table_name="Ann B", email="b@example.com")
    client.force_login(me.user)
    client.post(f"/c/birch{URL}", {**MINE, "table_name": "Ann in Birch"})
    there.refresh_from_db()
    me.refresh_from_db()
    assert (there.table_name, there.contact_sharing) == ("Ann in Birch", Member.Sharing.MEMBERS)
    assert me.contact_sharing == Member.Sharing.COORDINATORS and me.email != MINE["email"]
    assert "Ann B" not in client.get(URL).content.decode()


def test_a_login_that_is_no_member_of_the_club_is_told_so(coordinator_client):
    response = coordinator_client.get(URL)
    assert "is not one of" in response.content.decode()
    assert coordinator_client.post(URL, MINE).status_code == 200


def test_the_rule_of_who_sees_a_members_contact(club, coordinator):
    """Coordinators always; the member themself; another member of the club only if shared
    with all members; a member of another club, a lapsed member and a visitor never."""
    viewer = MemberFactory(club=club, user=UserFactory())
    lapsed = MemberFactory(club=club, user=UserFactory(), is_active=False)
    stranger = MemberFactory(club=ClubFactory(), user=UserFactory())
    for sharing in Member.Sharing:
        owner = MemberFactory(club=club, user=UserFactory(), contact_sharing=sharing)
        assert owner.contact_shown_to(coordinator)
        assert owner.contact_shown_to(owner.user)
        assert owner.contact_shown_to(viewer.user) == (sharing == Member.Sharing.MEMBERS)
        for user in (lapsed.user, stranger.user):
            user.__dict__.pop("_member_of", None)
            assert not owner.contact_shown_to(user)
        assert not owner.contact_shown_to(None)


def test_the_contact_list_shows_only_what_each_member_allows(member_client, club, coordinator):
    names = {}
    for sharing in Member.Sharing:
        names[sharing] = MemberFactory(
            club=club, email=f"{sharing}@example.com", phone="", contact_sharing=sharing
        )
    page = member_client.get(reverse("club:contacts")).content.decode()
    assert "members@example.com" in page
    assert "nobody@example.com" not in page and "coordinators@example.com" not in page
    member_client.force_login(coordinator)
    page = member_client.get(reverse("club:contacts")).content.decode()
    assert all(f"{sharing}@example.com" in page for sharing in Member.Sharing)


def test_the_coordinator_sees_who_changed_what_and_when(member_client, me, club, coordinator):
    member_client.post(URL, {**MINE, "table_name": me.table_name})
    member_client.force_login(coordinator)
    edit = reverse("club:member_edit", args=[me.pk])
    form = member_client.get(edit).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k != "user"}
    data.update(email="new@example.com", login="keep", joined=me.joined.isoformat())
    assert member_client.post(edit, data).status_code == 302
    page = member_client.get(reverse("club:member_detail", args=[me.pk])).content.decode()
    history = page[page.index("Changes to these details") :]
    lines = [line for line in history.split("<li>")[1:4]]
    assert f"{coordinator.username} (coordinator): email changed" in lines[0]
    assert (
        f"{me.table_name} (the member): email, phone and who may see the email and phone changed"
        in lines[1]
    )
    assert "added to the club" in lines[2]
    # The history names the details, never their old or new values.
    assert "annie@example.com" not in history and "01234 567890" not in history
