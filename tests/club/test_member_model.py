"""Member behaviour on the model and its QuerySet: retiring with the login, deleting only
those who never played, never-seat-together pairs, search and free table names."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.urls import reverse

from club.models import KeepApart, Member, MemberHasPlayed, Refused
from tests.factories import (
    PASSWORD,
    AttendanceFactory,
    ClubFactory,
    KeepApartFactory,
    MemberFactory,
    SessionFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def test_retiring_deactivates_the_login_and_reactivating_restores_it(club, client):
    user = UserFactory(username="margaret")
    member = MemberFactory(club=club, user=user)
    member.retire()
    member.refresh_from_db()
    user.refresh_from_db()
    assert not member.is_active and not user.is_active
    assert not client.login(request=HttpRequest(), username="margaret", password=PASSWORD)
    member.reactivate()
    member.refresh_from_db()
    user.refresh_from_db()
    assert member.is_active and user.is_active
    assert client.login(request=HttpRequest(), username="margaret", password=PASSWORD)


def test_retiring_through_the_page_signs_the_member_out_of_the_app(coordinator_client, club):
    user = UserFactory()
    member = MemberFactory(club=club, user=user)
    coordinator_client.post(reverse("club:member_retire", args=[member.pk]))
    assert not get_user_model().objects.get(pk=user.pk).is_active
    coordinator_client.post(reverse("club:member_reactivate", args=[member.pk]))
    assert get_user_model().objects.get(pk=user.pk).is_active


def test_retiring_a_member_without_a_login_is_fine(club):
    member = MemberFactory(club=club)
    member.retire()
    assert not Member.objects.get(pk=member.pk).is_active


def test_has_played_and_delete_if_never_played(club):
    newcomer, regular = MemberFactory(club=club), MemberFactory(club=club)
    AttendanceFactory(member=regular)
    assert not newcomer.has_played and regular.has_played
    with pytest.raises(MemberHasPlayed, match="has played at the club"):
        regular.delete_if_never_played()
    newcomer.delete_if_never_played()
    assert list(Member.objects.all()) == [regular]


def test_keep_apart_from_stores_one_ordered_pair_and_refuses_nonsense(club):
    a, b = MemberFactory(club=club), MemberFactory(club=club)
    pair = b.keep_apart_from(a, "Old quarrel")
    assert (pair.member_a, pair.member_b, pair.reason) == (a, b, "Old quarrel")
    with pytest.raises(Refused, match="cannot be kept apart from themselves"):
        a.keep_apart_from(a)
    stranger = MemberFactory(club=ClubFactory(name="Other club"))
    with pytest.raises(Refused, match="is not a member of this club"):
        a.keep_apart_from(stranger)
    assert KeepApart.objects.count() == 1


def test_keep_aparts_name_the_partner_in_table_name_order(club):
    me = MemberFactory(club=club, table_name="Me")
    zoe = MemberFactory(club=club, table_name="Zoe")
    ann = MemberFactory(club=club, table_name="ann")
    KeepApartFactory(member_a=zoe, member_b=me)
    KeepApartFactory(member_a=me, member_b=ann)
    assert [pair.partner for pair in me.keep_aparts()] == [ann, zoe]
    assert [pair.partner for pair in zoe.keep_aparts()] == [me]


def test_remove_keep_apart_returns_the_other_member(club):
    a, b = MemberFactory(club=club), MemberFactory(club=club)
    pair = KeepApartFactory(member_a=a, member_b=b)
    assert b.remove_keep_apart(pair.pk) == a
    assert not KeepApart.objects.exists()
    assert b.remove_keep_apart(pair.pk) is None


def test_search_matches_every_word_and_counts_sessions(club):
    margaret = MemberFactory(club=club, name="Margaret Thornton", table_name="Margaret")
    MemberFactory(club=club, name="Margaret Oakes", table_name="Maggie", is_active=False)
    AttendanceFactory(
        member=margaret, session=SessionFactory(club=club, date=datetime.date(2026, 3, 5))
    )
    found = list(club.members.search("marg thorn"))
    assert found == [margaret]
    Member.objects.count_sessions_attended(
        found, datetime.date(2026, 1, 1), datetime.date(2027, 1, 1)
    )
    assert found[0].sessions_attended == 1
    Member.objects.count_sessions_attended(
        found, datetime.date(2027, 1, 1), datetime.date(2028, 1, 1)
    )
    assert found[0].sessions_attended == 0
    assert {m.table_name for m in club.members.search("margaret", "all")} == {
        "Margaret",
        "Maggie",
    }


def test_named_matches_full_or_table_name_in_any_case(club):
    brian = MemberFactory(club=club, name="Brian Oakes", table_name="Bri")
    MemberFactory(club=club, name="Brian Smith", table_name="Brian S")
    assert list(club.members.named("BRIAN OAKES")) == [brian]
    assert list(club.members.named("bri")) == [brian]
    assert not club.members.named("Brian").exists()


def test_free_table_name_tries_first_name_initial_full_name_then_a_number(club):
    assert club.members.free_table_name("Pat Jones") == "Pat"
    MemberFactory(club=club, table_name="Pat")
    assert club.members.free_table_name("Pat Jones") == "Pat J"
    MemberFactory(club=club, table_name="Pat J")
    assert club.members.free_table_name("Pat Jones") == "Pat Jones"
    MemberFactory(club=club, table_name="Pat Jones")
    assert club.members.free_table_name("Pat Jones") == "Pat 2"
    assert ClubFactory(name="Other").members.free_table_name("Pat Jones") == "Pat"
