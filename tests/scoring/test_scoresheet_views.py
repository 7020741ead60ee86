"""The scoresheet, correcting a hand, the Changes page, blank score sheets and typing in a
paper sheet: who may see and do what, and what the pages say."""

import re

import pytest
from django.urls import reverse

from club.models import Session
from games.models import Match, TableKey
from games.start import start_play
from scoring.corrections import Void, correct_hand
from scoring.models import Correction, Hand
from scoring.recording import (
    Win,
    record_draw,
    record_kong,
    record_win,
    take_back_kong,
    undo_last_hand,
)
from tests.factories import UserFactory
from tests.games.helpers import seated_members, seated_session

pytestmark = pytest.mark.django_db
NAMES = ["Ann", "Betty", "Carol", "Dot"]
PAPER_NAMES = ["Eve", "Fay", "Gwen", "Hilda"]


@pytest.fixture
def evening(club):
    """A u3a session in play: table 1 of four (Ann, Betty, Carol, Dot) with three hands
    played, table 2 of four with none."""
    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4, 4))
    for number, names in ((1, NAMES), (2, PAPER_NAMES)):
        for member, name in zip(seated_members(session, number), names, strict=True):
            member.table_name = name
            member.save()
    start_play(session)
    session.refresh_from_db()
    match = table(session, 1)
    record_win(match, 1, Win(1, "wall", None, 10))
    record_draw(match, 2)
    record_win(match, 3, Win(2, "wall", None, 10))  # a goulash hand
    return session


def table(session, number) -> Match:
    return Match.objects.get(session=session, table_number=number)


def login_as_seated(client, session, number, position=0):
    member = seated_members(session, number)[position]
    member.user = UserFactory()
    member.save()
    client.force_login(member.user)


def text(response) -> str:
    """The page as a reader sees it: tags dropped, entities as characters."""
    import html

    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


CORRECTION = {"what": "win", "winner": "1", "won_by": "wall", "total": "12", "reason": "Miscount"}


def page_urls(session):
    match = table(session, 1)
    return {
        "scoresheet": ("get", reverse("scoring:scoresheet", args=[match.pk]), {}),
        "correct": ("get", reverse("scoring:correct", args=[match.pk, 1]), {}),
        "correct-post": (
            "post",
            reverse("scoring:correct", args=[match.pk, 1]),
            {**CORRECTION, "hand_id": str(match.live_hands().get(number=1).pk)},
        ),
        "changes": ("get", reverse("scoring:changes", args=[session.pk]), {}),
        "blank": ("get", reverse("scoring:blank_sheets", args=[session.pk]), {}),
        "paper": ("get", reverse("scoring:paper", args=[table(session, 2).pk]), {}),
        "paper-post": (
            "post",
            reverse("scoring:paper", args=[table(session, 2).pk]),
            {**sheet_data([("1", "w", "", "10")]), "action": "save"},
        ),
    }


PAGES = ["scoresheet", "correct", "correct-post", "changes", "blank", "paper", "paper-post"]
# What a member seated at table 1 may do while it is in play.
TABLE_MAY = {"scoresheet", "correct", "correct-post"}


@pytest.mark.parametrize("page", PAGES)
def test_anonymous_visitors_are_sent_to_log_in(client, evening, page):
    method, url, data = page_urls(evening)[page]
    response = getattr(client, method)(url, data)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not Correction.objects.exists() and not table(evening, 2).hands.exists()


@pytest.mark.parametrize("page", PAGES)
def test_a_member_seated_elsewhere_is_refused(client, evening, page):
    login_as_seated(client, evening, 2)
    method, url, data = page_urls(evening)[page]
    assert getattr(client, method)(url, data).status_code == 403
    assert not Correction.objects.exists() and not table(evening, 2).hands.exists()


@pytest.mark.parametrize("page", PAGES)
def test_a_member_at_the_table_reads_and_corrects_only_there(client, evening, page):
    login_as_seated(client, evening, 1)
    method, url, data = page_urls(evening)[page]
    response = getattr(client, method)(url, data)
    if page in TABLE_MAY:
        assert response.status_code in (200, 302)
    else:
        assert response.status_code == 403
    assert Correction.objects.exists() == (page == "correct-post")


@pytest.mark.parametrize("page", PAGES)
def test_a_coordinator_may_do_everything(coordinator_client, evening, page):
    method, url, data = page_urls(evening)[page]
    response = getattr(coordinator_client, method)(url, data)
    assert response.status_code == (302 if method == "post" else 200)


def test_once_the_match_is_over_only_the_coordinator_corrects(client, coordinator, evening):
    Match.objects.filter(session=evening).update(status="finished", ending="closed")
    Session.objects.filter(pk=evening.pk).update(status=Session.Status.CLOSED)
    login_as_seated(client, evening, 1)
    method, url, data = page_urls(evening)["correct-post"]
    assert client.post(url, data).status_code == 403
    sheet = client.get(page_urls(evening)["scoresheet"][1])
    assert sheet.status_code == 200 and "Correct hand 1" not in sheet.content.decode()
    client.force_login(coordinator)
    assert client.post(url, data).status_code == 302
    assert Correction.objects.count() == 1


# --- the scoresheet -----------------------------------------------------------------------


def test_the_scoresheet_lists_every_hand_with_dealer_payments_and_running_tallies(
    coordinator_client, evening
):
    match = table(evening, 1)
    response = coordinator_client.get(reverse("scoring:scoresheet", args=[match.pk]))
    page = text(response)
    assert "East round" in page
    # The round's heading spans the sheet: hand, dealer, result, paid and tally for four.
    assert 'colspan="11">East round' in response.content.decode()
    # Hand 1: Ann deals, Betty wins 10 from the wall, paying 10 each (the dealer double).
    hand1 = match.live_hands().get(number=1)
    assert "1 Ann Betty won self-drawn from the wall, 10 points" in page
    running = [0, 0, 0, 0]
    for hand in match.live_hands():
        running = [t + p for t, p in zip(running, hand.payments, strict=False)]
    assert "3 Betty Carol won self-drawn from the wall, 10 points (goulash hand)" in page
    cells = " ".join(f"{p} {t}" for p, t in zip(hand1.payments[:4], hand1.payments, strict=False))
    assert cells in page
    assert "Tallies now " + " ".join(str(t) for t in match.tallies()) in page
    assert match.tallies() == running


def test_a_corrected_hand_shows_its_earlier_version_who_when_and_why(
    coordinator_client, coordinator, evening
):
    match = table(evening, 1)
    correct_hand(match, 1, Win(1, "wall", None, 12), "Betty recounted", by=coordinator)
    page = text(coordinator_client.get(reverse("scoring:scoresheet", args=[match.pk])))
    assert "Betty won self-drawn from the wall, 12 points corrected" in page
    assert f"Corrected by {coordinator.username}" in page
    assert "“Betty recounted”. Was: Betty won self-drawn from the wall, 10 points." in page
    assert "Now: Betty won self-drawn from the wall, 12 points." in page


# --- correcting through the page ---------------------------------------------------------


def test_correcting_a_hand_re_derives_the_tallies_and_lists_it_on_changes(
    client, coordinator, evening
):
    match = table(evening, 1)
    login_as_seated(client, evening, 1)
    url = reverse("scoring:correct", args=[match.pk, 2])
    form = client.get(url).content.decode()
    assert "Ann (East)" not in form and "Betty (East)" in form  # who played hand 2
    hand = match.live_hands().get(number=2)
    response = client.post(
        url,
        {
            "hand_id": hand.pk,
            "what": "win",
            "winner": "1",
            "won_by": "discard",
            "discarder": "3",
            "total": "8",
            "reason": "Betty went out on Dot's tile",
        },
    )
    assert response.status_code == 302
    assert not match.live_hands().get(number=3).goulash
    client.force_login(coordinator)
    page = text(client.get(reverse("scoring:changes", args=[evening.pk])))
    assert "Table 1, hand 2: changed" in page
    assert "Before: Draw: the wall ran out, nobody went out." in page
    assert "After: Betty won on Dot's discard, 8 points." in page
    assert "Hand 3: no longer a goulash hand; payments worked out again" in page
    assert "“Betty went out on Dot's tile”" in page


def test_a_refused_correction_keeps_the_entries_and_says_why(coordinator_client, evening):
    match = table(evening, 1)
    hand = match.live_hands().get(number=3)
    response = coordinator_client.post(
        reverse("scoring:correct", args=[match.pk, 3]),
        {
            "hand_id": hand.pk,
            "what": "win",
            "winner": "2",
            "won_by": "wall",
            "total": "2",
            "reason": "Recount",
        },
    )
    page = text(response)
    assert response.status_code == 200
    assert "Hand 3 cannot be recorded like that" in page and "Nothing was changed" in page
    assert 'value="Recount"' in response.content.decode()
    assert not Correction.objects.exists()


def test_a_correction_form_without_a_reason_is_refused(coordinator_client, evening):
    match = table(evening, 1)
    hand = match.live_hands().get(number=1)
    response = coordinator_client.post(
        reverse("scoring:correct", args=[match.pk, 1]),
        {"hand_id": hand.pk, "what": "void", "reason": ""},
    )
    assert "Say why the hand is being corrected." in text(response)
    assert not Correction.objects.exists()


def test_voiding_from_the_page(coordinator_client, evening):
    match = table(evening, 1)
    hand = match.live_hands().get(number=3)
    coordinator_client.post(
        reverse("scoring:correct", args=[match.pk, 3]),
        {"hand_id": hand.pk, "what": "void", "reason": "Never played"},
    )
    assert match.live_hands().count() == 2
    page = text(coordinator_client.get(reverse("scoring:scoresheet", args=[match.pk])))
    assert "Hands struck out" in page and "“Never played”" in page


# --- blank score sheets ------------------------------------------------------------------


def test_blank_sheets_print_each_tables_names_chairs_and_winds(coordinator_client, evening):
    page = text(coordinator_client.get(reverse("scoring:blank_sheets", args=[evening.pk])))
    assert "Table 1 ·" in page and "Table 2 ·" in page
    assert "1. Ann East at hand 1 2. Betty South at hand 1" in page
    assert "20" in page and " 21 " not in page  # twenty hand rows: one A4 sheet


# --- paper sheets ------------------------------------------------------------------------


def sheet_data(rows, total=None) -> dict:
    total = total or max(len(rows), 1)
    data = {
        "form-TOTAL_FORMS": str(total),
        "form-INITIAL_FORMS": "0",
        "form-MIN_NUM_FORMS": "0",
        "form-MAX_NUM_FORMS": "200",
    }
    for index, row in enumerate(rows):
        for field, value in zip(("winner", "how", "discarder", "total"), row, strict=True):
            data[f"form-{index}-{field}"] = value
    return data


# Twenty hands at table 2: initials, chair numbers, every way of winning, draws and goulash.
TWENTY = [
    ("1", "w", "", "10"),
    ("f", "d", "3", "8"),  # Fay by her initial
    ("", "x", "", ""),
    ("3", "w", "", "6"),  # a goulash hand
    ("4", "r", "", "12"),
    ("2", "k", "1", "10"),
    ("", "x", "", ""),
    ("1", "w", "", "5"),
] + [("3", "w", "", str(4 + i)) for i in range(12)]  # Gwen wins until she deals


def test_a_whole_match_typed_in_is_recorded_as_quick_entry_would(coordinator_client, evening):
    paper_match = table(evening, 2)
    rows = TWENTY
    url = reverse("scoring:paper", args=[paper_match.pk])
    response = coordinator_client.post(url, {**sheet_data(rows, total=24), "action": "save"})
    assert response.status_code == 302
    hands = list(paper_match.live_hands())
    assert len(hands) == 20

    # The same hands through the table's quick entry, on a twin match, agree exactly.
    twin = _twin(evening)
    for number, row in enumerate(rows, start=1):
        if row[1] == "x":
            record_draw(twin, number)
        else:
            how = {"w": "wall", "r": "replacement", "d": "discard", "k": "robbing_kong"}[row[1]]
            winner = 1 if row[0] == "f" else int(row[0]) - 1
            discarder = int(row[2]) - 1 if row[2] else None
            record_win(twin, number, Win(winner, how, discarder, int(row[3])))
    assert [(h.flow_outcome(), h.goulash, h.payments) for h in hands] == [
        (h.flow_outcome(), h.goulash, h.payments) for h in twin.live_hands()
    ]
    assert hands[3].goulash and hands[7].goulash


def _twin(session):
    other = seated_session(session.club, sizes=(4,), date=session.date.replace(day=26))
    return start_play(other)[0]


def test_a_bad_row_is_refused_with_the_row_named_and_nothing_saved(coordinator_client, evening):
    paper_match = table(evening, 2)
    url = reverse("scoring:paper", args=[paper_match.pk])
    rows = [*TWENTY[:3], ("3", "w", "", "2"), *TWENTY[4:]]  # a goulash hand below five
    response = coordinator_client.post(url, {**sheet_data(rows), "action": "save"})
    page = text(response)
    assert response.status_code == 200
    assert "Row 4:" in page and "Nothing was saved" in page
    assert 'id="row-4" class="row-error"' in response.content.decode()
    assert 'value="2"' in response.content.decode()  # the entries are kept
    assert not paper_match.hands.exists()


@pytest.mark.parametrize(
    ("row", "says"),
    [
        (("9", "w", "", "10"), "There is no chair 9"),
        (("Zed", "w", "", "10"), "Nobody at this table is called “Zed”"),
        (("1", "q", "", "10"), "How they won must be w (wall)"),
        (("1", "d", "", "10"), "Choose who discarded the winning tile."),
        (("1", "w", "2", "10"), "Only a win on a discard"),
        (("1", "w", "", "ten"), "Type the total as a whole number"),
        (("1", "x", "", "10"), "A draw (x) has no winner"),
    ],
)
def test_a_row_that_cannot_be_read_is_named(coordinator_client, evening, row, says):
    paper_match = table(evening, 2)
    rows = [TWENTY[0], row]
    url = reverse("scoring:paper", args=[paper_match.pk])
    page = text(coordinator_client.post(url, {**sheet_data(rows), "action": "save"}))
    assert "Row 2:" in page and says in page and "Nothing was saved" in page
    assert not paper_match.hands.exists()


def test_a_gap_in_the_sheet_is_refused(coordinator_client, evening):
    paper_match = table(evening, 2)
    rows = [TWENTY[0], ("", "", "", ""), TWENTY[1]]
    url = reverse("scoring:paper", args=[paper_match.pk])
    page = text(coordinator_client.post(url, {**sheet_data(rows), "action": "save"}))
    assert "Row 2:" in page and "empty but later rows are not" in page
    assert not paper_match.hands.exists()


def test_checking_the_sheet_shows_the_tallies_and_saves_nothing(coordinator_client, evening):
    paper_match = table(evening, 2)
    url = reverse("scoring:paper", args=[paper_match.pk])
    rows = [("1", "w", "", "10"), ("fa", "d", "3", "8")]
    page = text(coordinator_client.post(url, {**sheet_data(rows), "action": "check"}))
    # U3A: a self-drawn win is paid by everyone, a win on a discard by the discarder only.
    assert "Eve won self-drawn from the wall, 10 points. 30 · -10 · -10 · -10" in page
    assert "Fay won on Gwen's discard, 8 points. 30 · -2 · -18 · -10" in page
    assert not paper_match.hands.exists()


def test_ten_more_rows_keep_what_was_typed(coordinator_client, evening):
    url = reverse("scoring:paper", args=[table(evening, 2).pk])
    response = coordinator_client.post(url, {**sheet_data(TWENTY[:2], total=24), "action": "more"})
    html = response.content.decode()
    assert 'name="form-33-winner"' in html and 'name="form-34-winner"' not in html
    assert 'name="form-0-total" value="10"' in html


def test_a_table_with_hands_is_corrected_not_typed_over(coordinator_client, evening):
    url = reverse("scoring:paper", args=[table(evening, 1).pk])
    response = coordinator_client.post(url, {**sheet_data(TWENTY[:1]), "action": "save"})
    assert "already has 3 hands recorded" in text(response)
    assert Hand.objects.filter(match=table(evening, 1)).count() == 3


def test_a_sheet_typed_in_after_the_evening_that_reaches_the_end_finishes_the_match(
    coordinator_client, evening
):
    paper_match = table(evening, 2)
    Match.objects.filter(pk=paper_match.pk).update(status="finished", ending="closed")
    # u3a ends when the North round ends: sixteen hands, each won by the next dealer's
    # predecessor, pass the deal every time.
    rows = [(str(1 + (i + 1) % 4), "w", "", "4") for i in range(16)]
    url = reverse("scoring:paper", args=[paper_match.pk])
    assert coordinator_client.post(url, {**sheet_data(rows), "action": "save"}).status_code == 302
    paper_match.refresh_from_db()
    assert (paper_match.status, paper_match.ending) == ("finished", "flow")


def test_voided_hands_in_the_void_helper_are_not_on_paper(evening):
    # The correction helpers and the paper sheet share one derivation: a voided table is
    # typed in from an empty record.
    match = table(evening, 1)
    for number in (3, 2, 1):
        correct_hand(match, number, Void(), "Typed in from paper instead")
    assert not match.live_hands().exists()


def test_the_table_page_marks_a_corrected_hand_apart_from_an_undone_one(client, evening):
    match = table(evening, 1)
    correct_hand(match, 1, Win(1, "wall", None, 12), "Betty recounted")
    login_as_seated(client, evening, 1)
    page = text(client.get(reverse("scoring:table", args=[evening.pk, 1])))
    assert "Betty won self-drawn from the wall, 10 points corrected Betty recounted" in page
    assert "undone" not in page


def test_the_scoresheet_keeps_what_the_table_undid_and_took_back(coordinator_client, evening):
    """Undone hands and kong chips taken back leave the hands and tallies, but not the
    record: the scoresheet lists them, oldest first, with when (and no tablet words for a
    device with a login). A correction's voiding is listed apart, as before."""
    match = table(evening, 1)
    kong = record_kong(match, 4, 0, "concealed")
    take_back_kong(match, kong.pk)
    undo_last_hand(match, 3)
    page = text(coordinator_client.get(reverse("scoring:scoresheet", args=[match.pk])))
    assert re.search(
        r"Undone at the table Hand 4: Kong chips: Ann made a concealed kong \(\+\d+\)\. "
        r"Taken back \d+ \w+ \d\d:\d\d\. Hand 3: Carol won self-drawn from the wall, 10 "
        r"points\. Undone \d+ \w+ \d\d:\d\d\.",
        page,
    ), page
    assert "tablet" not in page and "Hands struck out" not in page
    assert "3 Carol" not in page  # no longer a row of the sheet
    correct_hand(match, 2, Void(), "Never played")
    page = text(coordinator_client.get(reverse("scoring:scoresheet", args=[match.pk])))
    assert page.count("Undone at the table") == 1 and "Hands struck out Hand 2" in page


# Values a finger, a phone keyboard or a prober types into a number or a name: digits that
# are not 0-9 ("²".isdigit() is true, int("²") fails), numbers past 32 and 64 bits, signs,
# exponents, NUL (PostgreSQL refuses it in text), blanks and very long text.
HOSTILE_ENTRIES = [
    "²",
    "١٢",  # Arabic-Indic digits
    "１２",  # full-width digits
    str(2**31),
    str(2**63),
    str(10**30),
    "-1",
    "1e3",
    "\x00",
    "1\x002",
    "\u200b",
    "x" * 5000,
]


@pytest.mark.parametrize("field", range(4), ids=["winner", "how", "discarder", "total"])
def test_every_paper_sheet_field_refuses_hostile_entries_in_words(
    coordinator_client, evening, field
):
    """Each column of a paper sheet row, given each hostile value: the page comes back
    (never a server error) naming row 2, and nothing is saved."""
    paper_match = table(evening, 2)
    url = reverse("scoring:paper", args=[paper_match.pk])
    for value in HOSTILE_ENTRIES:
        row = ["1", "d", "2", "10"]
        row[field] = value
        response = coordinator_client.post(
            url, {**sheet_data([TWENTY[0], tuple(row)]), "action": "save"}
        )
        assert response.status_code == 200, value
        page = text(response)
        assert "Row 2:" in page and "Nothing was saved" in page, (value, page[:400])
        assert not paper_match.hands.exists()


def test_a_paper_total_above_any_hand_is_refused_with_the_range(coordinator_client, evening):
    paper_match = table(evening, 2)
    url = reverse("scoring:paper", args=[paper_match.pk])
    rows = [TWENTY[0], ("1", "w", "", str(2**31))]
    page = text(coordinator_client.post(url, {**sheet_data(rows), "action": "save"}))
    assert "The total must be a whole number from 0 to 100,000." in page


@pytest.mark.parametrize("value", HOSTILE_ENTRIES)
def test_a_correction_total_that_is_no_hand_is_refused_in_words(coordinator_client, evening, value):
    match = table(evening, 1)
    hand = match.live_hands().get(number=3)
    before = list(match.live_hands().values_list("pk", "total", "pay0", "pay1", "pay2", "pay3"))
    response = coordinator_client.post(
        reverse("scoring:correct", args=[match.pk, 3]),
        {
            "hand_id": hand.pk,
            "what": "win",
            "winner": "2",
            "won_by": "wall",
            "total": value,
            "reason": "Recount",
        },
    )
    assert response.status_code == 200
    page = text(response)
    assert "The total must be a whole number" in page or "digits only" in page, page[:400]
    assert 'value="Recount"' in response.content.decode()
    assert not Correction.objects.exists()
    after = list(match.live_hands().values_list("pk", "total", "pay0", "pay1", "pay2", "pay3"))
    assert after == before


def test_the_scoresheet_reads_the_same_queries_however_much_was_undone(evening):
    """What was undone and taken back is read with the rest, not once per record."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scoring.scoresheet import scoresheet

    match = table(evening, 1)

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            sheet = scoresheet(match)
            [line.tablet for line in sheet.taken_back]
        return len(seen.captured_queries)

    key = TableKey.objects.for_tables(evening, [1])[1]  # each names its tablet: no lookups
    undo_last_hand(match, 3, table_key=key)
    queries()  # the first reading fills what the match keeps for later ones
    once = queries()
    for _ in range(3):
        number = match.live_hands().count() + 1
        record_win(match, number, Win(0, "wall", None, 10))
        take_back_kong(match, record_kong(match, number + 1, 1, "concealed").pk, table_key=key)
        undo_last_hand(match, number, table_key=key)
    assert [line.tablet for line in scoresheet(match).taken_back] == ["on the table 1 tablet"] * 7
    assert queries() == once
