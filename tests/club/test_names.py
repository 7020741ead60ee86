"""Names and usernames, every form that takes one, against a table of hostile values: names
made only of invisible characters are refused in words (never stored as a blank), names are
stored tidied, and a new username is plain ASCII and looks like no login already there."""

import html
import unicodedata

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from club.member_import import read
from club.models import Club, Member
from club.names import check_new_username, tidy_name, username_skeleton
from tests.club.test_members import member_form
from tests.factories import MemberFactory, SessionFactory, UserFactory

pytestmark = pytest.mark.django_db

# Names nobody could read: zero-width space, non-joiner and joiner, word joiner, byte-order
# mark, combining marks on nothing, odd spaces, a Hangul filler, the braille blank, a
# right-to-left override, and all of them at once.
INVISIBLE = [
    "\u200b",
    "\u200c\u200d",
    "\u2060",
    "\ufeff",
    "\u0301",
    "\u0301\u0308\u0327",
    "\u3000\u00a0\u2003",
    "\u3164",
    "\u2800",
    "\u202e",
    "\u200b \u2060\ufeff\u0301\u3000\u3164",
]


def test_every_invisible_name_is_tidied_to_nothing_readable():
    for name in INVISIBLE:
        assert not any(unicodedata.category(ch)[0] in "LN" for ch in tidy_name(name)), repr(name)


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("  Pat \u00a0  Visitor\u200b ", "Pat Visitor"),
        ("Zoe\u0308", "Zoë"),  # decomposed: composed, as typed on another keyboard
        ("\uff21\uff4e\uff4e", "Ann"),  # full-width letters
        ("Đặng Thị Lan", "Đặng Thị Lan"),
        ("Σοφία", "Σοφία"),
        ("李小龍", "李小龍"),
    ],
)
def test_real_names_in_any_alphabet_are_kept_tidied(coordinator_client, club, typed, stored):
    response = coordinator_client.post(
        reverse("club:member_add"), member_form(name=typed, table_name="")
    )
    assert response.status_code == 302
    member = Member.objects.get()
    assert member.name == stored
    assert member.table_name == stored.split()[0]


@pytest.mark.parametrize("field", ["name", "table_name"])
@pytest.mark.parametrize("value", INVISIBLE, ids=ascii)
def test_the_member_form_refuses_an_invisible_name(coordinator_client, club, field, value):
    if field == "table_name" and not value.strip():
        pytest.skip("spaces alone are a name at the table left empty: made from the name")
    data = member_form(**{field: value})
    response = coordinator_client.post(reverse("club:member_add"), data)
    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == [field]
    # Spaces alone are an empty field, as Django strips them.
    assert "at least one letter we can show" in form.errors[field][0] or (
        not value.strip() and field == "name"
    )
    assert 'value="edith@example.org"' in response.content.decode()  # entries kept
    assert not Member.objects.filter(email="edith@example.org").exists()


def test_an_invisible_character_does_not_make_a_second_name_at_the_table(coordinator_client, club):
    MemberFactory(club=club, name="Bob Ray", table_name="Bob")
    data = member_form(name="Bob Jones", table_name="Bob\u200b")
    response = coordinator_client.post(reverse("club:member_add"), data)
    assert "already called “Bob” at the table" in response.content.decode()
    assert Member.objects.count() == 1


@pytest.mark.parametrize("value", INVISIBLE, ids=ascii)
def test_a_walk_in_with_an_invisible_name_is_refused(coordinator_client, club, value):
    session = SessionFactory(club=club)
    response = coordinator_client.post(reverse("club:walk_in", args=[session.pk]), {"name": value})
    assert response.status_code == 200
    assert "Please type the person's name." in html.unescape(response.content.decode())
    assert not Member.objects.exists()


def test_a_walk_in_name_is_stored_tidied(coordinator_client, club):
    session = SessionFactory(club=club)
    coordinator_client.post(
        reverse("club:walk_in", args=[session.pk]), {"name": "\ufeffPat\u200b Visitor"}
    )
    assert Member.objects.get().name == "Pat Visitor"


@pytest.mark.parametrize("value", INVISIBLE, ids=ascii)
def test_the_club_settings_refuse_an_invisible_club_name(coordinator_client, club, value):
    from tests.test_club_settings import settings_post

    response = coordinator_client.post(reverse("club_settings"), settings_post(club, name=value))
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "Please type the club's name." in page or not value.strip()
    assert Club.objects.get().name == club.name


@pytest.mark.parametrize("value", INVISIBLE, ids=ascii)
def test_an_imported_row_with_an_invisible_name_is_named(club, value):
    if not value.strip():
        pytest.skip("a row of spaces alone is a blank row, skipped like an empty one")
    batch = read(f"Name,Name at the table\n{value},\nAnn Lee,\n", club)
    assert not batch.is_clean
    bad = batch.bad_rows
    assert [row.number for row in bad] == [2]
    assert "has no letter we can show" in " ".join(bad[0].messages())


def test_an_imported_name_differing_only_by_invisible_characters_is_the_same_member(club):
    MemberFactory(club=club, name="Ann Lee", table_name="Ann")
    batch = read("Name\nAnn\u200b Lee\u2060\n", club)
    assert "“Ann\u200b Lee\u2060” is already a member" in " ".join(batch.rows[0].messages())


# --- usernames ------------------------------------------------------------------------------

HOSTILE_USERNAMES = [
    "m\u0435mber",  # Cyrillic е
    "\u0440aul",  # Cyrillic р
    "\u03bflive",  # Greek ο
    "mémber",
    "member\u200b",
    "\uff4d\uff45\uff4d\uff42\uff45\uff52",  # full-width
    "mem ber",
    "member\x00",
    "\u200b",
    "<script>",
]


@pytest.mark.parametrize("username", HOSTILE_USERNAMES, ids=ascii)
def test_a_new_login_must_be_plain_letters_digits_and_signs(coordinator_client, club, username):
    data = member_form(login="new", username=username, password="red-dragon-pung-42")
    response = coordinator_client.post(reverse("club:member_add"), data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["username"]
    assert not Member.objects.filter(email="edith@example.org").exists()
    assert not get_user_model().objects.exclude(pk=response.wsgi_request.user.pk).exists()


def test_the_username_message_says_what_is_allowed(coordinator_client, club):
    data = member_form(login="new", username="m\u0435mber", password="red-dragon-pung-42")
    page = coordinator_client.post(reverse("club:member_add"), data).content.decode()
    assert "only the letters a to z" in page


@pytest.mark.parametrize(
    ("existing", "new"),
    [
        ("m\u0435mber", "member"),  # a Cyrillic login made before this check
        ("member", "MEMBER"),
        ("olive", "0live"),
        ("paul", "pau1"),
        ("modern", "modem"),  # rn looks like m
    ],
)
def test_a_new_login_that_looks_like_an_existing_one_is_refused(
    coordinator_client, club, existing, new
):
    UserFactory(username=existing)
    data = member_form(login="new", username=new, password="red-dragon-pung-42")
    response = coordinator_client.post(reverse("club:member_add"), data)
    assert response.status_code == 200
    message = response.context["form"].errors["username"][0]
    assert "taken" in message or "looks too much like" in message
    assert not get_user_model().objects.filter(username=new).exists()


def test_different_usernames_are_not_look_alikes():
    check_new_username("margaret", ["margot", "marg", "brian", "m\u0435mber"])
    assert username_skeleton("Brian") != username_skeleton("Brain")
