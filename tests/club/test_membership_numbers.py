"""Membership number and status (current / lapsed) from the U3A membership system: read
from its CSV export by the member import, unique in a club, shown to the coordinator."""

import re
from pathlib import Path

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from club.member_import import read
from club.models import Member
from tests.factories import ClubFactory, MemberFactory

pytestmark = pytest.mark.django_db

EXPORT = Path(__file__).parent / "data" / "u3a-membership-export.csv"
IMPORT = reverse("club:member_import")


def test_the_membership_systems_export_imports_with_numbers_and_status(coordinator_client):
    with EXPORT.open("rb") as upload:
        page = coordinator_client.post(IMPORT, {"spreadsheet": upload}).content.decode()
    assert "3 rows ready" in page
    assert "1001, Current" in page
    batch = re.search(r'name="batch" value="([^"]+)"', page).group(1)
    coordinator_client.post(reverse("club:member_import_confirm"), {"batch": batch})
    got = {
        m.name: (m.membership_number, m.membership_status, m.table_name, m.phone)
        for m in Member.objects.all()
    }
    assert got == {
        "Margaret Jones": ("1001", "current", "Peggy", "07700 900001"),
        "Robert Ray": ("1002", "lapsed", "Robert", "07700 900002"),
        "Alan Smith": ("1003", "current", "Al", ""),
    }
    # Each has a line of history: added by the coordinator who imported them.
    peggy = Member.objects.get(membership_number="1001")
    assert peggy.history.get().history_type == "+"


@pytest.mark.parametrize(
    "header", ["Membership No", "Mem No", "Membership number", "member no.", "MEM_NO"]
)
def test_the_number_column_may_have_any_of_its_names(club, header):
    batch = read(f"Name,{header},Status\nAnn Lee,77,Lapsed\n", club)
    assert batch.is_clean, batch.problems + batch.bad_rows[0].problems
    assert (batch.rows[0].membership_number, batch.rows[0].cleaned["membership_status"]) == (
        "77",
        "lapsed",
    )


def test_a_status_not_current_or_lapsed_and_a_number_taken_are_refused_by_name(club):
    MemberFactory(club=club, name="Ann Lee", membership_number="1001")
    batch = read(
        "Name,Mem No,Status\nBob Ray,1001,Current\nCath Moss,2,Resigned\nDot Wu,3,\nEd Poe,3,\n",
        club,
    )
    assert [row.messages() for row in batch.rows] == [
        ["Row 2: Membership number 1001 is already Ann Lee's."],
        ["Row 3: status “Resigned” should be Current or Lapsed (or left empty)."],
        [],
        ["Row 5: same membership number as row 4 (“3”)."],
    ]


def test_a_number_is_unique_in_its_club_by_the_database(club):
    MemberFactory(club=club, membership_number="1001")
    MemberFactory(club=club, membership_number="")
    MemberFactory(club=club, membership_number="")  # no number: any number of them
    MemberFactory(club=ClubFactory(), membership_number="1001")  # another club's
    with pytest.raises(IntegrityError), transaction.atomic():
        MemberFactory(club=club, membership_number="1001")


def test_the_coordinator_sees_and_edits_them_on_the_members_pages(coordinator_client, club):
    ann = MemberFactory(club=club, membership_number="1001", membership_status="lapsed")
    MemberFactory(club=club, name="Bob Ray", membership_number="1002")
    page = coordinator_client.get(reverse("club:member_detail", args=[ann.pk])).content.decode()
    assert "<dt>Membership number</dt><dd>1001</dd>" in page
    assert "<dt>Membership (U3A)</dt><dd>Lapsed</dd>" in page
    edit = reverse("club:member_edit", args=[ann.pk])
    data = {
        "name": ann.name,
        "table_name": ann.table_name,
        "joined": ann.joined.isoformat(),
        "is_active": "on",
        "experience": ann.experience,
        "login": "none",
        "membership_number": "1002",
        "membership_status": "current",
    }
    page = coordinator_client.post(edit, data).content.decode()
    assert "Membership number 1002 is already Bob Ray&#x27;s" in page
    assert 'value="1002"' in page  # kept as typed
    coordinator_client.post(edit, {**data, "membership_number": "1003"})
    ann.refresh_from_db()
    assert (ann.membership_number, ann.membership_status) == ("1003", "current")


def test_the_members_list_finds_a_member_by_their_number(coordinator_client, club):
    MemberFactory(club=club, name="Ann Lee", membership_number="1001")
    MemberFactory(club=club, name="Bob Ray", membership_number="10010")
    page = coordinator_client.get(reverse("club:member_list"), {"q": "1001"}).content.decode()
    assert "Ann Lee" in page and "Bob Ray" not in page
