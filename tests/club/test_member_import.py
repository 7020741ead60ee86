"""Members from a spreadsheet: a CSV file or pasted rows is read, every row is checked as
the add-member form would check it, the preview names each bad row, and nothing is imported
until every row is ready; then all are added at once, once."""

import base64
import datetime
import io
import json
import re
import threading

import pytest
import time_machine
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone

from club import member_import
from club.forms import MemberForm
from club.member_import import MAX_ROWS, Unreadable, decode, read
from club.models import Member
from tests.factories import CoordinatorFactory, MemberFactory
from tests.threads import at_once, failures

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
IMPORT = reverse("club:member_import")
CONFIRM = reverse("club:member_import_confirm")
TEMPLATE = reverse("club:member_import_template")

GOOD = (
    "Name,Name at the table,Email,Phone,Beginner\n"
    "Ann Lee,,ann@example.org,01234 567890,yes\n"
    "Bob Ray,Bobby,,,no\n"
    "Cath Moss,,,07700 900123,\n"
)


def problems(text, club):
    """Every row's messages, and the file's problems, in order."""
    batch = read(text, club)
    return batch.problems + [m for row in batch.rows for m in row.messages()]


def signed_batch(page: str) -> str:
    return re.search(r'name="batch" value="([^"]+)"', page).group(1)


def preview(client, text=GOOD, **extra):
    return client.post(IMPORT, {"text": text}, **extra)


# --- reading: headings, separators, encodings -------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        "Name,Name at the table,Email,Phone,Beginner",
        "name,name at the table,email,phone,beginner",
        "NAME,TABLE NAME,E-MAIL,TELEPHONE,BEGINNER",
        "Full name,Table name,E-mail address,Phone number,Beginner?",
        "  Name , Name  at the  table ,Email:,Telephone number,beginner",
        "full_name,table_name,email,phone,beginner",
    ],
)
def test_headings_are_matched_leniently(club, header):
    batch = read(f"{header}\nAnn Lee,Annie,ann@example.org,0123,yes\n", club)
    assert batch.problems == []
    (row,) = batch.rows
    assert (row.name, row.table_name, row.email, row.phone, row.beginner_shown) == (
        "Ann Lee",
        "Annie",
        "ann@example.org",
        "0123",
        "Yes",
    )


def test_columns_may_come_in_any_order_and_only_name_is_needed(club):
    batch = read("Email;Name\nann@example.org;Ann Lee\n", club)
    (row,) = batch.rows
    assert (row.name, row.email, row.table_name) == ("Ann Lee", "ann@example.org", "Ann")
    assert batch.is_clean


@pytest.mark.parametrize("separator", [",", ";", "\t"])
def test_commas_semicolons_and_tabs_are_all_understood(club, separator):
    text = separator.join(["Name", "Email", "Phone"]) + "\n"
    text += separator.join(["Lee, Ann", "ann@example.org", "01234 567,890"]) + "\n"
    if separator == ",":
        text = 'Name,Email,Phone\n"Lee, Ann",ann@example.org,"01234 567,890"\n'
    (row,) = read(text, club).rows
    assert (row.name, row.email, row.phone) == ("Lee, Ann", "ann@example.org", "01234 567,890")


def test_rows_pasted_from_a_spreadsheet_are_tab_separated(club):
    pasted = "Name\tName at the table\tBeginner\r\nAnn Lee\tAnnie\tYes\r\nBob Ray\t\tno\r\n"
    batch = read(pasted, club)
    assert batch.is_clean
    assert [(r.name, r.table_name, r.beginner_shown) for r in batch.rows] == [
        ("Ann Lee", "Annie", "Yes"),
        ("Bob Ray", "Bob", "No"),
    ]


def test_blank_rows_are_skipped_and_rows_keep_the_spreadsheets_numbers(club):
    text = "Name,Email\n\nAnn Lee,ann@example.org\n,\n  ,  \nBob Ray,bob@\n\n"
    batch = read(text, club)
    assert [row.number for row in batch.rows] == [3, 6]
    assert problems(text, club) == ["Row 6: email “bob@” is not an email address."]


def test_a_cell_over_two_lines_is_one_row(club):
    batch = read('Name,Email\n"Ann\nLee",ann@example.org\nBob Ray,bob@\n', club)
    assert [(row.number, row.name) for row in batch.rows] == [(2, "Ann\nLee"), (3, "Bob Ray")]


def test_utf8_with_excels_byte_order_mark(club):
    data = "\ufeffName,Email\nZoë Brontë,zoe@example.org\n".encode()
    text = decode(data)
    batch = read(text, club)
    assert batch.problems == []
    assert batch.rows[0].name == "Zoë Brontë"


def test_utf8_without_byte_order_mark():
    assert decode("Name\nJosé Núñez\n".encode()) == "Name\nJosé Núñez\n"


def test_windows_encoding_is_read_when_the_file_is_not_utf8(club):
    data = "Name,Phone\nJosé Núñez,£5 – ok\n".encode("cp1252")
    batch = read(decode(data), club)
    assert (batch.rows[0].name, batch.rows[0].phone) == ("José Núñez", "£5 – ok")


def test_bytes_cp1252_does_not_define_are_replaced_not_a_crash():
    assert decode(b"Name\nAnn\x81Lee\n") == "Name\nAnn\ufffdLee\n"


def test_excels_unicode_text_is_read():
    assert decode("Name\tEmail\nZoë\tz@example.org\n".encode("utf-16")) == (
        "Name\tEmail\nZoë\tz@example.org\n"
    )


@pytest.mark.parametrize("start", [b"PK\x03\x04rest-of-zip", b"\xd0\xcf\x11\xe0old-excel"])
def test_a_workbook_is_refused_with_how_to_save_as_csv(start):
    with pytest.raises(Unreadable, match="Save As"):
        decode(start)


def test_nul_characters_are_refused_as_not_a_spreadsheet(club):
    assert "not a CSV file" in problems("Name\nAnn\x00Lee\n", club)[0]


# --- reading: the whole file's problems ---------------------------------------------------


def test_a_missing_name_column_is_named(club):
    assert problems("Email,Phone\nann@example.org,0123\n", club) == [
        "There is no Name column: it is needed for each member's full name. Please add it, "
        "with the heading “Name” in the first row."
    ]


def test_unknown_columns_are_refused_by_name(club):
    assert problems("Name,Address,Email,Birthday\nAnn Lee,1 High St,,\n", club) == [
        "These columns are not known: “Address”, “Birthday”. Please delete them from the "
        "spreadsheet, or rename them: the columns can be Name, Name at the table, Email, "
        "Phone, Beginner, Membership No and Status."
    ]


def test_a_column_given_twice_is_refused(club):
    assert problems("Name,Email,E-mail\nAnn Lee,a@example.org,b@example.org\n", club) == [
        "The column Email is there twice (as “Email” and “E-mail”). Please keep one of them."
    ]


def test_a_spreadsheet_without_headings_is_told_to_add_them(club):
    (message,) = problems("Ann Lee,ann@example.org\nBob Ray,bob@example.org\n", club)
    assert message.startswith("The first row should name the columns (Name, Name at the")
    assert "but it has “Ann Lee”, “ann@example.org”. Please add a row of headings" in message


@pytest.mark.parametrize("text", ["", "\n\n", " , ,\n"])
def test_an_empty_spreadsheet_is_explained(club, text):
    assert problems(text, club)[0].startswith("The spreadsheet is empty.")


def test_headings_without_members_are_explained(club):
    assert problems("Name,Email\n\n", club) == [
        "The spreadsheet has the headings but no members under them. Please put one member "
        "on each row below the headings."
    ]


def test_more_rows_than_the_limit_are_refused(club):
    text = "Name\n" + "".join(f"Person {n}\n" for n in range(MAX_ROWS + 1))
    assert problems(text, club) == [
        "The spreadsheet has 1,001 members; at most 1,000 can be imported at once. Please "
        "split it into smaller spreadsheets."
    ]
    text = "Name\n" + "".join(f"Person{n} Smith\n" for n in range(MAX_ROWS))
    assert read(text, club).is_clean


def test_more_text_than_the_limit_is_refused(club):
    text = "Name,Phone\n" + "Ann Lee," + "1" * member_import.MAX_BYTES
    assert "at most 1 MB can be imported at a time" in problems(text, club)[0]


def test_an_unclosed_quote_or_huge_cell_is_explained(club):
    text = 'Name,Phone\nAnn Lee,"' + "1" * 200_000 + "\n"
    assert problems(text, club)[0].startswith("The spreadsheet could not be read")


# --- each row's problems ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "beginner"),
    [
        ("yes", True),
        ("Yes", True),
        ("Y", True),
        ("true", True),
        ("TRUE", True),
        ("1", True),
        ("no", False),
        ("N", False),
        ("false", False),
        ("0", False),
        ("", False),
    ],
)
def test_beginner_values(club, value, beginner):
    batch = read(f"Name,Beginner\nAnn Lee,{value}\n", club)
    assert batch.is_clean
    assert batch.rows[0].cleaned["experience"] == ("beginner" if beginner else "experienced")


@pytest.mark.parametrize("value", ["maybe", "x", "2", "yes please"])
def test_other_beginner_values_are_a_row_problem_naming_the_value(club, value):
    assert problems(f"Name,Beginner\nAnn Lee,{value}\n", club) == [
        f"Row 2: beginner “{value}” should be yes or no (or left empty for no)."
    ]


def test_each_row_problem_names_the_row_the_column_and_the_value(club):
    long_name = "A" * 121
    text = (
        "Name,Name at the table,Email,Phone\n"
        "Ann Lee,,ann@example.org,\n"  # row 2: ready
        ",Bert,bert@example.org,\n"  # row 3
        "Bob Ray,,bob@,\n"  # row 4
        f"{long_name},,,\n"  # row 5
        "Cath Moss,Cathy-with-a-very-long-name-at-the-table-x,,\n"  # row 6
        "Dot Kerr,,,0123456789012345678901234567890123456789X\n"  # row 7
        "Ed Fox,,,,extra\n"  # row 8
    )
    assert problems(text, club) == [
        "Row 3: the name is missing.",
        "Row 4: email “bob@” is not an email address.",
        f"Row 5: name “{'A' * 38}…” is too long: at most 120 letters.",
        "Row 6: name at the table “Cathy-with-a-very-long-name-at-the-tab…” is too long: "
        "at most 40 letters.",
        "Row 7: phone “01234567890123456789012345678901234567…” is too long: at most 40 characters.",
        "Row 8: there is an entry (“extra”) in column 5, which has no heading.",
    ]
    batch = read(text, club)
    assert [row.number for row in batch.ready_rows] == [2]
    assert batch.summary() == "1 row ready, 6 need fixing. Nothing has been imported yet."


def test_the_name_at_the_table_is_the_first_name_when_left_empty_as_the_add_form_makes_it(
    club,
):
    (row,) = read("Name,Name at the table\n  Margaret   Thornton ,\n", club).rows
    assert (row.table_name, row.table_name_made) == ("Margaret", True)
    form = MemberForm(
        {
            "name": "  Margaret   Thornton ",
            "joined": "2026-01-01",
            "experience": "experienced",
            "login": "none",
        },
        club=club,
    )
    assert form.is_valid()
    assert form.cleaned_data["table_name"] == row.cleaned["table_name"] == "Margaret"


def test_same_name_twice_in_the_file(club):
    text = "Name,Name at the table\nAnn Lee,Ann\nBob Ray,Bob\nann  lee,Annie\n"
    assert problems(text, club) == ["Row 4: same name as row 2 (“ann  lee”)."]


def test_same_name_at_the_table_twice_in_the_file(club):
    text = "Name,Name at the table\nAnn Lee,\nBob Ray,Bob\nAnn Smith,\nBobby Ray,BOB\n"
    assert problems(text, club) == [
        "Row 4: same name at the table as row 2 (“Ann”); please write a different one, e.g. "
        "“Ann S”.",
        "Row 5: same name at the table as row 3 (“BOB”).",
    ]


def test_an_existing_active_member(club):
    MemberFactory(club=club, name="Ann Lee", table_name="Annie")
    assert problems("Name\nann lee\n", club) == ["Row 2: “ann lee” is already a member."]


def test_an_existing_lapsed_member_is_said_to_be_lapsed(club):
    MemberFactory(club=club, name="Ann Lee", table_name="Annie", is_active=False)
    assert problems("Name\nAnn Lee\n", club) == [
        "Row 2: “Ann Lee” is already a member, marked as lapsed: to welcome them back, open "
        "their page and choose Make active again."
    ]


def test_an_existing_guest_is_said_to_be_a_guest(club):
    MemberFactory(club=club, name="Ann Lee", table_name="Annie", is_guest=True)
    assert problems("Name\nAnn Lee\n", club) == [
        "Row 2: “Ann Lee” is already on the list, as a guest."
    ]


def test_a_name_at_the_table_an_existing_member_has(club):
    MemberFactory(club=club, name="Ann Smith", table_name="Ann")
    MemberFactory(club=club, name="Bob Old", table_name="Bobby", is_active=False)
    text = "Name,Name at the table\nAnn Lee,\nBob Ray,bobby\n"
    assert problems(text, club) == [
        "Row 2: name at the table “Ann” is already used by Ann Smith; please write a "
        "different one, e.g. “Ann L”.",
        "Row 3: name at the table “bobby” is already used by Bob Old (a lapsed member).",
    ]


ROWS = [
    {"name": "Ann Lee"},
    {"name": "Ann Lee", "table_name": "Annie", "email": "ann@example.org", "phone": "0123"},
    {"name": ""},
    {"name": "   "},
    {"name": "Ann Lee", "email": "ann@"},
    {"name": "Ann Lee", "email": "ann@example"},
    {"name": "Ann Lee", "email": "ann lee@example.org"},
    {"name": "A" * 120},
    {"name": "A" * 121},
    {"name": "Ann Lee", "table_name": "T" * 40},
    {"name": "Ann Lee", "table_name": "T" * 41},
    {"name": "Ann" + "n" * 40 + " Lee"},
    {"name": "Ann Lee", "phone": "0" * 41},
    {"name": "Margaret Thornton"},  # her name at the table is taken
    {"name": "Ann Lee", "table_name": "margaret"},
]


@pytest.mark.parametrize("row", ROWS)
def test_a_row_is_ready_exactly_when_the_add_member_form_accepts_it(club, row):
    MemberFactory(club=club, name="Meg Thornton", table_name="Margaret")
    columns = ["name", "table_name", "email", "phone"]
    text = "Name,Name at the table,Email,Phone\n"
    text += ",".join(f'"{row.get(c, "")}"' for c in columns) + "\n"
    form = MemberForm(
        {**row, "joined": "2026-01-01", "experience": "experienced", "login": "none"}, club=club
    )
    assert read(text, club).is_clean == form.is_valid(), form.errors


# --- the pages ---------------------------------------------------------------------------


def test_the_members_list_links_to_the_import(coordinator_client):
    page = coordinator_client.get(reverse("club:member_list")).content.decode()
    assert f'<a class="button secondary" href="{IMPORT}">Import members from a spreadsheet</a>' in (
        page
    )


def test_the_import_page_explains_the_columns_and_offers_the_template(coordinator_client):
    page = coordinator_client.get(IMPORT).content.decode()
    assert "<h1>Import members from a spreadsheet</h1>" in page
    assert '<input type="file" name="spreadsheet"' in page
    assert '<label for="id_spreadsheet">Choose the spreadsheet file (CSV)</label>' in page
    assert '<textarea name="text"' in page
    assert f'<a href="{TEMPLATE}" download>Download a template spreadsheet</a>' in page
    assert 'enctype="multipart/form-data"' in page
    assert "Import " not in page.split("</h1>")[1].split("<form")[0]  # no button before a preview


def test_the_template_downloads_and_reads_back_as_one_ready_row(coordinator_client, club):
    response = coordinator_client.get(TEMPLATE)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="members-template.csv"'
    data = response.content
    assert data.startswith(
        b"\xef\xbb\xbfName,Name at the table,Email,Phone,Beginner,Membership No,Status\r\n"
    )
    batch = read(decode(data), club)
    assert batch.is_clean
    assert [(r.name, r.table_name, r.email) for r in batch.rows] == [
        ("Ann Lee", "Ann", "ann.lee@example.com")
    ]


def test_a_preview_shows_every_row_and_imports_nothing(coordinator_client, club):
    before = Member.objects.count()
    response = preview(coordinator_client)
    page = response.content.decode()
    assert response.status_code == 200
    assert "3 rows ready. Nothing has been imported yet." in page
    assert page.count('<span class="badge badge-ok">Ready</span>') == 3
    assert '<td data-label="Row" class="numeric">4</td>' in page
    assert '<td data-label="Name">Cath Moss</td>' in page
    assert 'Cath <span class="help">(their first name)</span>' in page
    assert '<button type="submit" class="button">Import 3 members</button>' in page
    assert Member.objects.count() == before


def test_a_preview_with_bad_rows_has_no_import_button_and_keeps_the_pasted_rows(
    coordinator_client, club
):
    MemberFactory(club=club, name="Bob Ray", table_name="Bob", is_active=False)
    text = GOOD.replace("ann@example.org", "ann@")
    response = preview(coordinator_client, text)
    page = response.content.decode()
    assert response.status_code == 200
    assert "1 row ready, 2 need fixing. Nothing has been imported yet." in page
    assert "Row 2: email “ann@” is not an email address." in page
    assert "Row 3: “Bob Ray” is already a member, marked as lapsed" in page
    assert 'name="batch"' not in page
    assert "Import 1 member" not in page and "Import 3 members" not in page
    assert "Ann Lee,,ann@,01234 567890,yes" in page  # the box keeps what was pasted
    assert Member.objects.count() == 1


def test_file_problems_are_shown_without_a_table(coordinator_client, club):
    page = preview(coordinator_client, "Name,Address\nAnn,1 High St\n").content.decode()
    assert "The spreadsheet needs fixing" in page
    assert "These columns are not known: “Address”." in page
    assert "<table" not in page and 'name="batch"' not in page


def test_a_file_is_read_with_its_byte_order_mark(coordinator_client, club):
    upload = SimpleUploadedFile(
        "members.csv", "\ufeffName;Beginner\nZoë Brontë;ja\n".encode(), "text/csv"
    )
    page = coordinator_client.post(IMPORT, {"spreadsheet": upload}).content.decode()
    assert '<td data-label="Name">Zoë Brontë</td>' in page
    assert "Row 2: beginner “ja” should be yes or no" in page


def test_a_windows_encoded_file_is_read(coordinator_client, club):
    upload = SimpleUploadedFile("m.csv", "Name\nJosé Núñez\n".encode("cp1252"), "text/csv")
    page = coordinator_client.post(IMPORT, {"spreadsheet": upload}).content.decode()
    assert '<td data-label="Name">José Núñez</td>' in page
    assert "Import 1 member</button>" in page


def test_a_chosen_file_is_used_rather_than_the_box(coordinator_client, club):
    upload = SimpleUploadedFile("m.csv", b"Name\nFrom File\n", "text/csv")
    page = coordinator_client.post(IMPORT, {"spreadsheet": upload, "text": GOOD}).content
    assert b"From File" in page and b"Cath Moss" not in page.split(b"<textarea")[0]


def test_neither_file_nor_rows_is_explained(coordinator_client):
    page = coordinator_client.post(IMPORT, {"text": "  "}).content.decode()
    assert "Please choose a spreadsheet file, or paste the rows into the box." in page


def test_a_workbook_upload_is_explained(coordinator_client):
    upload = SimpleUploadedFile("members.xlsx", b"PK\x03\x04\x14\x00", "application/zip")
    page = coordinator_client.post(IMPORT, {"spreadsheet": upload}).content.decode()
    assert "This looks like a spreadsheet workbook" in page


def test_a_file_over_the_limit_is_refused(coordinator_client):
    data = b"Name\n" + b"x" * member_import.MAX_BYTES
    upload = SimpleUploadedFile("big.csv", data, "text/csv")
    page = coordinator_client.post(IMPORT, {"spreadsheet": upload}).content.decode()
    assert "That is too much at once (1.0 MB); at most 1 MB can be imported" in page


def test_an_htmx_preview_answers_with_the_result_alone(coordinator_client, club):
    response = preview(coordinator_client, **HX)
    page = response.content.decode()
    assert page.lstrip().startswith('<div id="import-result"')
    assert "<html" not in page and "Import 3 members" in page


# --- importing ---------------------------------------------------------------------------


def test_import_creates_exactly_the_rows_with_their_details(coordinator_client, club):
    signed = signed_batch(preview(coordinator_client).content.decode())
    response = coordinator_client.post(CONFIRM, {"batch": signed}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("club:member_list")
    assert "3 members imported." in response.content.decode()
    rows = Member.objects.order_by("name").values_list(
        "name", "table_name", "email", "phone", "experience", "is_active", "is_guest", "user"
    )
    assert list(rows) == [
        ("Ann Lee", "Ann", "ann@example.org", "01234 567890", "beginner", True, False, None),
        ("Bob Ray", "Bobby", "", "", "experienced", True, False, None),
        ("Cath Moss", "Cath", "", "07700 900123", "experienced", True, False, None),
    ]
    assert set(Member.objects.values_list("joined", flat=True)) == {timezone.localdate()}
    assert set(Member.objects.values_list("club", flat=True)) == {club.pk}


def test_one_member_imported_is_said_in_the_singular(coordinator_client, club):
    signed = signed_batch(preview(coordinator_client, "Name\nAnn Lee\n").content.decode())
    response = coordinator_client.post(CONFIRM, {"batch": signed}, follow=True)
    assert "1 member imported." in response.content.decode()


def test_the_same_import_posted_twice_adds_the_members_once(coordinator_client, club):
    signed = signed_batch(preview(coordinator_client).content.decode())
    coordinator_client.post(CONFIRM, {"batch": signed})
    again = coordinator_client.post(CONFIRM, {"batch": signed}, follow=True)
    assert again.redirect_chain[-1][0] == reverse("club:member_list")
    assert "Those 3 members were already imported, so nobody was added twice." in (
        again.content.decode()
    )
    assert Member.objects.count() == 3


def test_a_second_preview_of_the_same_spreadsheet_finds_them_already_members(
    coordinator_client, club
):
    signed = signed_batch(preview(coordinator_client).content.decode())
    coordinator_client.post(CONFIRM, {"batch": signed})
    page = preview(coordinator_client).content.decode()
    assert "0 rows ready, 3 need fixing." in page
    assert "Row 2: “Ann Lee” is already a member." in page


def _with_text(signed: str, text: str) -> str:
    """Other text under the signed batch's timestamp and signature."""
    payload, rest = signed.split(":", 1)
    data = {"text": text, "token": "0f6b2b8e-3d5c-4d5e-9f4e-2d7f1c9a8b7e"}
    changed = base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")
    assert changed != payload
    return f"{changed}:{rest}"


@pytest.mark.parametrize(
    "tamper",
    [
        lambda s: _with_text(s, "Name\nEve Evil\n"),
        lambda s: s[:-3] + ("aaa" if not s.endswith("aaa") else "bbb"),
        lambda s: signing.dumps({"text": "Name\nEve Evil\n", "token": "x"}),  # wrong salt
        lambda s: "",
        lambda s: "not-signed-at-all",
    ],
)
def test_a_changed_or_unsigned_batch_is_refused_and_imports_nothing(
    coordinator_client, club, tamper
):
    signed = signed_batch(preview(coordinator_client).content.decode())
    response = coordinator_client.post(CONFIRM, {"batch": tamper(signed)}, follow=True)
    assert response.redirect_chain[-1][0] == IMPORT
    assert "That import could not be read, so nothing was imported." in (response.content.decode())
    assert Member.objects.count() == 0


def test_raw_text_without_a_signed_batch_is_refused(coordinator_client, club):
    response = coordinator_client.post(CONFIRM, {"text": GOOD}, follow=True)
    assert "nothing was imported" in response.content.decode()
    assert Member.objects.count() == 0


def test_a_preview_older_than_a_day_must_be_made_again(coordinator_client, club):
    signed = signed_batch(preview(coordinator_client).content.decode())
    later = timezone.now() + datetime.timedelta(days=1, minutes=1)
    with time_machine.travel(later):
        response = coordinator_client.post(CONFIRM, {"batch": signed}, follow=True)
    assert "That preview is more than a day old, so nothing was imported." in (
        response.content.decode()
    )
    assert Member.objects.count() == 0


def test_members_changed_since_the_preview_are_checked_again(coordinator_client, club):
    signed = signed_batch(preview(coordinator_client).content.decode())
    MemberFactory(club=club, name="Someone Else", table_name="Bobby")
    response = coordinator_client.post(CONFIRM, {"batch": signed})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was imported" in page
    assert "Row 3: name at the table “Bobby” is already used by Someone Else." in page
    assert 'name="batch"' not in page
    assert "Bob Ray,Bobby,,,no" in page  # the rows are in the box, to correct
    assert Member.objects.count() == 1


def test_a_failure_part_way_leaves_nobody_imported(coordinator_client, club, monkeypatch):
    signed = signed_batch(preview(coordinator_client).content.decode())
    real_bulk_create = Member.objects.bulk_create
    inserted = []

    def insert_then_fail(members, *args, **kwargs):
        inserted.extend(real_bulk_create(members, *args, **kwargs))
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(Member.objects, "bulk_create", insert_then_fail)
    with pytest.raises(RuntimeError):
        coordinator_client.post(CONFIRM, {"batch": signed})
    assert len(inserted) == 3
    assert Member.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_the_same_import_posted_twice_at_once_adds_the_members_once(club, monkeypatch):
    """Both posts find the batch not yet imported before either writes (held together at
    that check), so one insert meets the other's members under the unique tokens."""
    from django.test import Client

    real_count = member_import._imported_count
    gate = threading.Barrier(2, timeout=30)
    first_check = threading.local()
    checks = []

    def counted_together(club, tokens):
        count = real_count(club, tokens)
        checks.append(count)
        if not getattr(first_check, "done", False):
            first_check.done = True
            gate.wait()
        return count

    monkeypatch.setattr(member_import, "_imported_count", counted_together)
    coordinator = CoordinatorFactory()
    first = Client()
    first.force_login(coordinator)
    signed = signed_batch(preview(first).content.decode())

    def tap():
        client = Client(raise_request_exception=True)
        client.force_login(coordinator)
        return client.post(CONFIRM, {"batch": signed})

    responses = at_once([tap] * 2, timeout=30)
    assert not failures(responses), responses
    assert checks == [0, 0, 3]  # the loser's insert failed, and it found the winner's members
    assert [r.status_code for r in responses] == [302, 302]
    assert {r["Location"] for r in responses} == {reverse("club:member_list")}
    assert sorted(Member.objects.values_list("name", flat=True)) == [
        "Ann Lee",
        "Bob Ray",
        "Cath Moss",
    ]


# --- who may do it -----------------------------------------------------------------------


def _requests():
    return [
        ("get", IMPORT, {}),
        ("post", IMPORT, {"text": GOOD}),
        ("post", CONFIRM, {"batch": member_import.sign(GOOD, __import__("uuid").uuid4())}),
        ("get", TEMPLATE, {}),
    ]


def test_anonymous_visitors_are_sent_to_log_in(client, club):
    for method, url, data in _requests():
        response = getattr(client, method)(url, data)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    assert Member.objects.count() == 0


def test_members_are_refused(member_client, club):
    for method, url, data in _requests():
        assert getattr(member_client, method)(url, data).status_code == 403, url
    assert Member.objects.count() == 1  # the member's own record


def test_coordinators_may(coordinator_client, club):
    for method, url, data in _requests():
        response = getattr(coordinator_client, method)(url, data)
        assert response.status_code == (302 if url == CONFIRM else 200), url
    assert Member.objects.count() == 3


def test_the_import_step_refuses_get_and_the_template_refuses_post(coordinator_client):
    assert coordinator_client.get(CONFIRM).status_code == 405
    assert coordinator_client.post(TEMPLATE).status_code == 405


# --- the management command --------------------------------------------------------------


def _command(tmp_path, data: bytes, *args):
    path = tmp_path / "members.csv"
    path.write_bytes(data)
    out = io.StringIO()
    call_command("import_members", str(path), *args, stdout=out)
    return out.getvalue()


def test_the_command_imports_a_clean_spreadsheet(club, tmp_path):
    assert _command(tmp_path, ("\ufeff" + GOOD).encode()).strip() == "3 members imported."
    assert sorted(Member.objects.values_list("table_name", flat=True)) == [
        "Ann",
        "Bobby",
        "Cath",
    ]


def test_the_command_dry_run_imports_nothing(club, tmp_path):
    out = _command(tmp_path, GOOD.encode("cp1252"), "--dry-run")
    assert out.strip() == (
        "3 rows ready. Nothing has been imported yet. (--dry-run: nothing was imported.)"
    )
    assert Member.objects.count() == 0


def test_the_command_names_each_bad_row_and_imports_nothing(club, tmp_path):
    with pytest.raises(CommandError) as refusal:
        _command(tmp_path, GOOD.replace("ann@example.org", "ann@").encode())
    assert str(refusal.value) == (
        "Row 2: email “ann@” is not an email address.\n"
        "2 rows ready, 1 needs fixing. Nothing has been imported yet."
    )
    assert Member.objects.count() == 0


def test_the_command_refuses_a_workbook_and_a_missing_file(club, tmp_path):
    with pytest.raises(CommandError, match="spreadsheet workbook"):
        _command(tmp_path, b"PK\x03\x04")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_members", str(tmp_path / "nowhere.csv"))
