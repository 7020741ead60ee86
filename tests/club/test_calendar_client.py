"""A real calendar client subscribes to a member's feed: vdirsyncer (its read-only `http`
storage, as a subscription) copies the feed from a live server into a folder, and khal
lists the events from there, in its own time zone.

Both come from Debian (`apt-get install khal vdirsyncer`); without them the test is
skipped with that reason."""

import datetime
import shutil
import subprocess
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from club.calendar_feed.models import CalendarAddress
from club.models import Session
from club.week.models import ReplyAnswer, SessionReply
from tests.factories import ClubFactory, MemberFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not (shutil.which("khal") and shutil.which("vdirsyncer")),
        reason="needs Debian's khal and vdirsyncer (apt-get install khal vdirsyncer)",
    ),
]

VDIRSYNCER = """[general]
status_path = "{tmp}/status/"

[pair club]
a = "club_feed"
b = "club_folder"
collections = null
conflict_resolution = "a wins"

[storage club_feed]
type = "http"
url = "{url}"

[storage club_folder]
type = "filesystem"
path = "{tmp}/calendar/"
fileext = ".ics"
"""

KHAL = """[calendars]
[[club]]
path = {tmp}/calendar/
[locale]
timeformat = %H:%M
dateformat = %Y-%m-%d
longdateformat = %Y-%m-%d
datetimeformat = %Y-%m-%d %H:%M
longdatetimeformat = %Y-%m-%d %H:%M
local_timezone = Europe/London
default_timezone = Europe/London
[sqlite]
path = {tmp}/khal.db
"""


def run(*command: str) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, (command, done.stdout, done.stderr)
    return done.stdout


def test_vdirsyncer_subscribes_and_khal_shows_the_sessions_in_its_own_time(live_server, tmp_path):
    club = ClubFactory(
        time_zone="Australia/Sydney",
        sessions_begin=datetime.time(13, 30),
        sessions_end=datetime.time(16, 30),
    )
    member = MemberFactory(club=club)
    day = timezone.localdate() + datetime.timedelta(days=7)
    coming = Session.objects.create(club=club, date=day, venue="Scout Hall")
    SessionReply.objects.create(session=coming, member=member, answer=ReplyAnswer.COMING)
    token = CalendarAddress.renew(member).token
    url = f"{live_server.url}/calendar/{token}.ics"
    vdirsyncer = tmp_path / "vdirsyncer.conf"
    vdirsyncer.write_text(VDIRSYNCER.format(tmp=tmp_path, url=url))
    khal = tmp_path / "khal.conf"
    khal.write_text(KHAL.format(tmp=tmp_path))
    (tmp_path / "calendar").mkdir()

    run("vdirsyncer", "-c", str(vdirsyncer), "discover", "club")
    run("vdirsyncer", "-c", str(vdirsyncer), "sync", "club")
    files = list((tmp_path / "calendar").glob("*.ics"))
    assert len(files) == 1
    shown = run(
        "khal",
        "-c",
        str(khal),
        "list",
        "--format",
        "{start} {end} | {title} | {location} | {alarm-symbol}",
        day.isoformat(),
        "1d",
    )
    # 13:30 in Sydney, shown in khal's own London time (02:30 or 03:30, or 00:30 in summer).
    start = datetime.datetime.combine(day, datetime.time(13, 30), ZoneInfo("Australia/Sydney"))
    local = start.astimezone(ZoneInfo("Europe/London"))
    print(shown)
    assert f"{local:%H:%M}" in shown, shown
    assert f"{club.name}: Mahjong (you are coming)" in shown
    assert "Scout Hall" in shown
    assert "⏰" in shown  # the reminder came through

    # The member renews the address: the client's next sync finds nothing there.
    CalendarAddress.renew(member)
    again = subprocess.run(
        ["vdirsyncer", "-c", str(vdirsyncer), "sync", "club"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert again.returncode != 0 and "Not Found" in again.stderr, again.stderr
