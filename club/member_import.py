"""Members from a spreadsheet: read a CSV file (or rows pasted from a spreadsheet), check
every row as the "Add a member" form would, and add them all at once or not at all.

A row is ready exactly when the add-member form would accept it: each row is checked by a
MemberForm of its own, so the rules (and the name at the table made from the first name
when left empty) are the form's. On top of the form, a row whose full name is already a
member's, or that repeats an earlier row's name or name at the table, is refused: a
spreadsheet that repeats people is far more often a copying slip than two namesakes.

The import is idempotent: each preview carries a batch token, and each member it creates
stores a token made from it and the row number (the add-member form's unique `form_token`).
The same import posted twice, or twice at once, adds its members once.
"""

import csv
import io
import uuid
from dataclasses import dataclass, field

from django import forms
from django.core import signing
from django.db import IntegrityError, transaction
from django.utils import timezone
from simple_history.utils import bulk_create_with_history

from club import csv_export
from club.forms import MemberForm
from club.models import Club, Member
from club.names import tidy_name

MAX_BYTES = 1_000_000
MAX_ROWS = 1000

# The columns, as the template spells them, and the other ways people write them.
COLUMNS = {
    "name": ("Name", ("name", "full name", "member", "member name")),
    "table_name": (
        "Name at the table",
        ("name at the table", "name at table", "table name", "short name", "known as"),
    ),
    "email": ("Email", ("email", "e-mail", "email address", "e-mail address")),
    "phone": (
        "Phone",
        ("phone", "telephone", "phone number", "telephone number", "tel", "mobile"),
    ),
    "beginner": ("Beginner", ("beginner",)),
    # As the U3A membership system's export names them.
    "membership_number": (
        "Membership No",
        (
            "membership no",
            "mem no",
            "membership number",
            "member no",
            "member number",
            "mem number",
        ),
    ),
    "membership_status": ("Status", ("status", "membership status", "mem status")),
}
HEADINGS = [heading for heading, _ in COLUMNS.values()]
HEADINGS_IN_WORDS = ", ".join(HEADINGS[:-1]) + " and " + HEADINGS[-1]
# How the messages name each column.
LABELS = {
    "name": "name",
    "table_name": "name at the table",
    "email": "email",
    "phone": "phone",
    "beginner": "beginner",
    "membership_number": "membership number",
    "membership_status": "status",
}
# The membership system's statuses, as the member's `membership_status` keeps them.
STATUSES = {
    "current": Member.MembershipStatus.CURRENT,
    "lapsed": Member.MembershipStatus.LAPSED,
    "": Member.MembershipStatus.UNKNOWN,
}
YES = {"yes", "y", "true", "1"}
NO = {"no", "n", "false", "0", ""}

TEMPLATE_EXAMPLE = [
    "Ann Lee",
    "Ann",
    "ann.lee@example.com",
    "01234 567890",
    "no",
    "1234",
    "Current",
]


def template_csv() -> str:
    """The template to download: the headings and one example row. The byte order mark
    makes Excel read accents (é, ñ) typed into it correctly."""
    out = io.StringIO()
    writer = csv_export.writer(out, lineterminator="\r\n")
    writer.writerow(HEADINGS)
    writer.writerow(TEMPLATE_EXAMPLE)
    return "\ufeff" + out.getvalue()


class Unreadable(ValueError):
    """The file is not text a spreadsheet saved as CSV would be; str() says so plainly."""


WORKBOOK = (
    "This looks like a spreadsheet workbook (such as .xlsx, .xls or .ods), not a CSV file. "
    "In your spreadsheet choose File, then Save As (or Download), and pick “CSV”. Or copy "
    "the rows, headings included, and paste them into the box below."
)


def decode(data: bytes) -> str:
    """Text from an uploaded file: UTF-8 with or without Excel's byte order mark, UTF-16
    (Excel's "Unicode text"), otherwise Windows' own encoding, which never fails."""
    if data.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):  # zip (xlsx, ods); old .xls
        raise Unreadable(WORKBOOK)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as error:
            raise Unreadable(WORKBOOK) from error
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _plain(text: str) -> str:
    # As the form stores it: "Bob" and "Bob" with a zero-width space are the same name.
    return tidy_name(text)


def _heading_key(heading: str) -> str | None:
    words = _plain(heading.replace("_", " ")).strip(" ?:*.").lower()
    for key, (_, aliases) in COLUMNS.items():
        if words in aliases:
            return key
    return None


def _delimiter(first_line: str) -> str:
    """Tab (pasted from a spreadsheet), semicolon (CSV from a European Excel) or comma:
    whichever the heading row has most of."""
    counts = {d: first_line.count(d) for d in ("\t", ";", ",")}
    best = max(counts, key=counts.get)
    return best if counts[best] else ","


def _quoted(values) -> str:
    return ", ".join(f"“{value}”" for value in values)


@dataclass
class ImportRow:
    """One row of the spreadsheet, numbered as the spreadsheet shows it."""

    number: int
    name: str = ""
    table_name: str = ""
    email: str = ""
    phone: str = ""
    beginner: str = ""
    membership_number: str = ""
    membership_status: str = ""
    # Left empty in the spreadsheet, so made from the first name as the add form does.
    table_name_made: bool = False
    problems: list[str] = field(default_factory=list)
    # The values the add-member form cleaned, for creating the member.
    cleaned: dict = field(default_factory=dict)

    @property
    def ready(self) -> bool:
        return not self.problems

    @property
    def beginner_shown(self) -> str:
        """Yes or No, as the preview shows it; a value not understood, as it was written."""
        value = self.beginner.strip().lower()
        if value in YES:
            return "Yes"
        return "No" if value in NO else self.beginner

    def messages(self) -> list[str]:
        return [f"Row {self.number}: {problem.rstrip('.')}." for problem in self.problems]


@dataclass
class MemberImport:
    """A spreadsheet read and checked. `problems` are about the whole file (no name column,
    unknown columns, too many rows); each row carries its own."""

    rows: list[ImportRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def ready_rows(self) -> list[ImportRow]:
        return [row for row in self.rows if row.ready]

    @property
    def bad_rows(self) -> list[ImportRow]:
        return [row for row in self.rows if not row.ready]

    @property
    def is_clean(self) -> bool:
        return bool(self.rows) and not self.problems and not self.bad_rows

    def summary(self) -> str:
        ready, bad = len(self.ready_rows), len(self.bad_rows)
        text = f"{ready} row{'' if ready == 1 else 's'} ready"
        if bad:
            text += f", {bad} need{'s' if bad == 1 else ''} fixing"
        return text + ". Nothing has been imported yet."


def read(text: str, club: Club) -> MemberImport:
    """Read `text` (CSV, or rows pasted from a spreadsheet) and check every row."""
    batch = MemberImport()
    if "\x00" in text:
        batch.problems.append(WORKBOOK)
        return batch
    if len(text.encode("utf-8", errors="replace")) > MAX_BYTES:
        batch.problems.append(too_big_message(len(text.encode("utf-8", errors="replace"))))
        return batch
    text = text.lstrip("\ufeff")
    lines = [line for line in text.splitlines() if line.strip(" \t,;")]
    reader = csv.reader(
        io.StringIO(text, newline=""), delimiter=_delimiter(lines[0] if lines else "")
    )
    try:
        records = [
            (number, [cell.strip() for cell in cells])
            for number, cells in enumerate(reader, start=1)
        ]
    except csv.Error:
        batch.problems.append(
            "The spreadsheet could not be read: a cell is far too long, or quote marks are "
            "not closed. Please check it, save it as CSV again and try once more."
        )
        return batch
    # Blank rows are skipped, but counted: row numbers stay those the spreadsheet shows.
    records = [(number, cells) for number, cells in records if any(cells)]
    if not records:
        batch.problems.append(
            f"The spreadsheet is empty. Its first row should have the headings "
            f"{HEADINGS_IN_WORDS}, with one member on each row below."
        )
        return batch
    (_, header), data = records[0], records[1:]
    columns = _columns(header, batch)
    if batch.problems:
        return batch
    if not data:
        batch.problems.append(
            "The spreadsheet has the headings but no members under them. Please put one "
            "member on each row below the headings."
        )
        return batch
    if len(data) > MAX_ROWS:
        batch.problems.append(
            f"The spreadsheet has {len(data):,} members; at most {MAX_ROWS:,} can be "
            "imported at once. Please split it into smaller spreadsheets."
        )
        return batch
    for number, cells in data:
        row = ImportRow(number=number)
        for index, cell in enumerate(cells):
            key = columns.get(index)
            if key is not None:
                setattr(row, key, cell)
            elif cell:
                row.problems.append(
                    f"there is an entry (“{_shown(cell)}”) in column {index + 1}, which has no heading"
                )
        batch.rows.append(row)
    _check_rows(batch.rows, club)
    return batch


def too_big_message(size: int) -> str:
    return (
        f"That is too much at once ({size / 1_000_000:.1f} MB); at most "
        f"{MAX_BYTES // 1_000_000} MB can be imported at a time. Please split the "
        "spreadsheet into smaller ones."
    )


def _columns(header: list[str], batch: MemberImport) -> dict[int, str]:
    """Which column (by position) holds what; file problems for unknown, repeated or
    missing columns."""
    columns: dict[int, str] = {}
    seen: dict[str, str] = {}
    unknown = []
    for index, heading in enumerate(header):
        if not heading:
            continue
        key = _heading_key(heading)
        if key is None:
            unknown.append(heading)
        elif key in seen:
            batch.problems.append(
                f"The column {COLUMNS[key][0]} is there twice (as “{seen[key]}” and "
                f"“{heading}”). Please keep one of them."
            )
        else:
            seen[key] = heading
            columns[index] = key
    if not columns:
        batch.problems.append(
            f"The first row should name the columns ({HEADINGS_IN_WORDS}), but it has "
            f"{_quoted(h for h in header if h)}. Please add a row of headings at the top."
        )
        return columns
    if unknown:
        batch.problems.append(
            f"These columns are not known: {_quoted(unknown)}. Please delete them from the "
            f"spreadsheet, or rename them: the columns can be {HEADINGS_IN_WORDS}."
        )
    if "name" not in seen:
        batch.problems.append(
            "There is no Name column: it is needed for each member's full name. Please add "
            "it, with the heading “Name” in the first row."
        )
    return columns


def _check_rows(rows: list[ImportRow], club: Club) -> None:
    existing = list(club.members.values("name", "table_name", "is_active", "is_guest"))
    first_with_number: dict[str, int] = {}
    by_name = {_plain(m["name"]).lower(): m for m in existing}
    by_table_name = {m["table_name"].lower(): m for m in existing}
    first_with_name: dict[str, int] = {}
    first_with_table_name: dict[str, int] = {}
    today = timezone.localdate().isoformat()
    for row in rows:
        beginner = row.beginner.strip().lower()
        if beginner not in YES | NO:
            row.problems.append(
                f"beginner “{_shown(row.beginner)}” should be yes or no (or left empty for no)"
            )
        status = STATUSES.get(row.membership_status.strip().lower())
        if status is None:
            row.problems.append(
                f"status “{_shown(row.membership_status)}” should be Current or Lapsed "
                "(or left empty)"
            )
        number = " ".join(row.membership_number.split())
        if number and number in first_with_number:
            row.problems.append(
                f"same membership number as row {first_with_number[number]} (“{number}”)"
            )
        elif number:
            first_with_number[number] = row.number
        form = MemberForm(
            {
                "name": row.name,
                "table_name": row.table_name,
                "email": row.email,
                "phone": row.phone,
                "membership_number": number,
                "membership_status": status or "",
                "joined": today,
                "is_active": "on",
                "experience": Member.Experience.BEGINNER
                if beginner in YES
                else Member.Experience.EXPERIENCED,
                "login": MemberForm.LOGIN_NONE,
            },
            club=club,
        )
        form.is_valid()
        # As the form makes it (its cleaned value is absent when the form refused it).
        table_name = _plain(row.table_name) or (_plain(row.name).split() or [""])[0]
        if not row.table_name and table_name:
            row.table_name, row.table_name_made = table_name, True
        row.cleaned = form.cleaned_data
        for name, errors in form.errors.as_data().items():
            for error in errors:
                if name == "table_name" and table_name.lower() in by_table_name:
                    continue  # said below, naming the member
                row.problems.append(_form_problem(name, row, error))
        name = _plain(row.name).lower()
        if name and name in by_name:
            row.problems.append(_already_a_member(row.name, by_name[name]))
            continue  # their name at the table is taken too, by themselves
        if name in first_with_name:
            row.problems.append(f"same name as row {first_with_name[name]} (“{_shown(row.name)}”)")
            continue
        if name:
            first_with_name[name] = row.number
        key = table_name.lower()
        if key and key in by_table_name:
            other = by_table_name[key]
            row.problems.append(
                f"name at the table “{table_name}” is already used by {other['name']}"
                + ("" if other["is_active"] else " (a lapsed member)")
                + _first_name_hint(row, table_name)
            )
        elif key in first_with_table_name:
            row.problems.append(
                f"same name at the table as row {first_with_table_name[key]} (“{table_name}”)"
                + _first_name_hint(row, table_name)
            )
        elif key:
            first_with_table_name[key] = row.number


def _first_name_hint(row: ImportRow, table_name: str) -> str:
    words = row.name.split()
    if len(words) < 2 or not row.table_name_made:
        return ""
    return f"; please write a different one, e.g. “{words[0]} {words[-1][0].upper()}”"


def _already_a_member(name: str, member: dict) -> str:
    if member["is_guest"]:
        return f"“{name}” is already on the list, as a guest"
    if not member["is_active"]:
        return (
            f"“{name}” is already a member, marked as lapsed: to welcome them back, open "
            "their page and choose Make active again"
        )
    return f"“{name}” is already a member"


def _shown(value: str) -> str:
    """A value as a message quotes it: a long one cut short."""
    return value if len(value) <= 40 else value[:38] + "…"


def _form_problem(name: str, row: ImportRow, error) -> str:
    label = LABELS.get(name, name.replace("_", " "))
    value = _shown(getattr(row, name, ""))
    if error.code == "taken":  # says the number and whose it is
        return " ".join(error.messages).rstrip(".")
    if error.code == "required":
        return f"the {label} is missing"
    if error.code == "no_letter":  # quoting it would show empty quotes
        return f"the {label} has no letter we can show (only invisible characters or marks)"
    if name == "email" and error.code == "invalid":
        return f"email “{value}” is not an email address"
    if error.code == "max_length":
        limit = error.params.get("limit_value") if error.params else None
        unit = "letters" if name in ("name", "table_name") else "characters"
        return f"{label} “{value}” is too long: at most {limit} {unit}"
    message = " ".join(error.messages)
    return f"{label} “{value}”: {message}" if value else f"{label}: {message}"


def row_tokens(batch_token: uuid.UUID, rows: list[ImportRow]) -> list[uuid.UUID]:
    """Each row's member's one-time token: the batch's and the row number, so the same
    batch always makes the same tokens."""
    return [uuid.uuid5(batch_token, str(row.number)) for row in rows]


def _imported_count(club: Club, tokens: list[uuid.UUID]) -> int:
    return Member.objects.filter(club=club, form_token__in=tokens).count()


@dataclass
class ImportReport:
    """What an import did: `created` members, or found the batch `already_imported` (how
    many of its members exist), or found `batch` no longer clean and added nobody."""

    created: int = 0
    already_imported: int = 0
    batch: MemberImport | None = None


def import_members(text: str, batch_token: uuid.UUID, club: Club) -> ImportReport:
    """Check `text` again, as the database is now, and add all its members in one
    transaction, or none. The batch posted again (a double tap, a retry, two at once)
    adds nobody the second time."""
    batch = read(text, club)
    tokens = row_tokens(batch_token, batch.rows)
    already = _imported_count(club, tokens)
    if already:
        return ImportReport(already_imported=already)
    if not batch.is_clean:
        return ImportReport(batch=batch)
    try:
        with transaction.atomic():
            # With a line of history each ("added to the club", by the coordinator).
            bulk_create_with_history(
                [
                    Member(
                        club=club,
                        name=row.cleaned["name"],
                        table_name=row.cleaned["table_name"],
                        email=row.cleaned["email"],
                        phone=row.cleaned["phone"],
                        membership_number=row.cleaned["membership_number"],
                        membership_status=row.cleaned["membership_status"],
                        experience=row.cleaned["experience"],
                        form_token=token,
                    )
                    for row, token in zip(batch.rows, tokens, strict=True)
                ],
                Member,
            )
    except IntegrityError:
        # The same batch posted at the same moment got there first, or someone took a name
        # at the table since the check: the batch now says which.
        already = _imported_count(club, tokens)
        if already:
            return ImportReport(already_imported=already)
        batch = read(text, club)
        if batch.is_clean:
            raise
        return ImportReport(batch=batch)
    return ImportReport(created=len(batch.rows))


# --- The two steps' forms ------------------------------------------------------------


class SpreadsheetForm(forms.Form):
    """Step 1: a CSV file, or rows pasted from a spreadsheet. `content` is the text."""

    spreadsheet = forms.FileField(
        label="Choose the spreadsheet file (CSV)",
        required=False,
        widget=forms.FileInput(attrs={"accept": ".csv,.txt,text/csv,text/plain"}),
        help_text="If you choose a file, the box below is not used.",
    )
    text = forms.CharField(
        label="Or paste the rows here",
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "class": "wide"}),
        help_text="In your spreadsheet, select the rows with the headings, copy them, and "
        "paste them here.",
    )

    def clean(self):
        cleaned = super().clean()
        upload = cleaned.get("spreadsheet")
        text = cleaned.get("text") or ""
        if upload:
            if upload.size > MAX_BYTES:
                raise forms.ValidationError(too_big_message(upload.size))
            try:
                cleaned["content"] = decode(upload.read())
            except Unreadable as error:
                raise forms.ValidationError(str(error)) from error
        elif text.strip():
            size = len(text.encode("utf-8", errors="replace"))
            if size > MAX_BYTES:
                raise forms.ValidationError(too_big_message(size))
            cleaned["content"] = text
        else:
            raise forms.ValidationError(
                "Please choose a spreadsheet file, or paste the rows into the box."
            )
        return cleaned


SIGNING_SALT = "club.member_import"
# A preview left open overnight is checked afresh: upload the spreadsheet again.
PREVIEW_MAX_AGE = 24 * 60 * 60


def sign(text: str, batch_token: uuid.UUID) -> str:
    """The checked text and its batch token, signed so the import step gets exactly what
    the preview showed."""
    return signing.dumps(
        {"text": text, "token": str(batch_token)}, salt=SIGNING_SALT, compress=True
    )


class ConfirmForm(forms.Form):
    """Step 3: the signed batch from the preview."""

    batch = forms.CharField(widget=forms.HiddenInput, required=False, strip=False)

    def clean_batch(self) -> tuple[str, uuid.UUID]:
        try:
            data = signing.loads(
                self.cleaned_data["batch"], salt=SIGNING_SALT, max_age=PREVIEW_MAX_AGE
            )
            return data["text"], uuid.UUID(data["token"])
        except signing.SignatureExpired as error:
            raise forms.ValidationError(
                "That preview is more than a day old, so nothing was imported. Please "
                "choose the spreadsheet again."
            ) from error
        except (signing.BadSignature, KeyError, TypeError, ValueError) as error:
            raise forms.ValidationError(
                "That import could not be read, so nothing was imported. Please choose the "
                "spreadsheet again."
            ) from error
