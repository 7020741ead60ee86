"""One word for "the rules refuse this": every refusal of the house is a `Refused`, so a
view catches one class, and `show_refusal` is the one place its sentence reaches the user."""

import pytest
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.test import RequestFactory
from django.urls import reverse

from club.accounts import LoginRefused
from club.models import MemberHasPlayed, SessionClosed
from club.refusals import Refused, show_refusal
from club.walk_ins import SameNameMembers
from front.backup import BackupRefused
from games.start import CannotStart
from scoring.corrections import CorrectionRefused, HandRefused, SheetRefused
from scoring.recording import AlreadyRecorded, RecordingError
from scoring.table_rules import TotalRefused


@pytest.mark.parametrize(
    "refusal",
    [
        MemberHasPlayed,
        SessionClosed,
        SameNameMembers,
        LoginRefused,
        BackupRefused,
        CannotStart,
        TotalRefused,
        HandRefused,
        RecordingError,
        AlreadyRecorded,
        CorrectionRefused,
        SheetRefused,
    ],
)
def test_every_refusal_of_the_house_is_a_refused(refusal):
    assert issubclass(refusal, Refused)


# Exceptions of the house that are not refusals of the rules, and why.
NOT_REFUSALS = {
    "club.member_import.Unreadable",  # a file that is not a spreadsheet: bad input, not a rule
    "scoring.picker.PickerError",  # a tile the picker cannot place: the picker's own input
    "scoring.recording.EveningEnded",  # answered by the table's pages, keeping the entries
}


def test_no_exception_of_the_house_escapes_the_one_base():
    """Every exception class the apps define (the pure cores keep their own) is a
    Refused, or is named above with its reason: a new one cannot be forgotten."""
    import importlib
    import inspect
    import pkgutil

    found = set()
    for app in ("club", "games", "scoring", "front"):
        package = importlib.import_module(app)
        for info in pkgutil.walk_packages(package.__path__, f"{app}."):
            if any(core in info.name for core in (".engine", ".planner", ".migrations")):
                continue
            if info.name in ("games.flow",) or ".management." in info.name:
                continue
            module = importlib.import_module(info.name)
            for _, cls in inspect.getmembers(module, inspect.isclass):
                if cls.__module__ == info.name and issubclass(cls, Exception):
                    found.add(cls)
    assert len(found) > 10, found
    strays = {
        f"{cls.__module__}.{cls.__qualname__}"
        for cls in found
        if not issubclass(cls, Refused)
        and f"{cls.__module__}.{cls.__qualname__}" not in NOT_REFUSALS
    }
    assert strays == set()


def test_show_refusal_says_why_and_sends_the_user_on(db):
    request = RequestFactory().post("/sessions/next/")
    request.session = {}
    request._messages = FallbackStorage(request)
    response = show_refusal(
        request, CannotStart("No table has three players yet."), "club:session_list"
    )
    assert response.status_code == 302
    assert response.url == reverse("club:session_list")
    shown = [(m.level_tag, m.message) for m in get_messages(request)]
    assert shown == [("error", "No table has three players yet.")]


def test_a_start_refused_by_the_games_reaches_the_page(client, coordinator, club):
    """The games' start button catches the one base: a start with no published seating
    (a refusal of the games) shows its sentence as the page's error."""
    from tests.factories import SessionFactory

    session = SessionFactory(club=club)
    client.force_login(coordinator)
    response = client.post(reverse("games:start", args=[session.pk]))
    shown = [(m.level_tag, m.message) for m in get_messages(response.wsgi_request)]
    assert shown == [("error", "Publish the seating first: play starts from the published tables.")]
