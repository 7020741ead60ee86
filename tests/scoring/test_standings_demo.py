"""The demo club shows its season's results and standings."""

import pytest
from django.utils import timezone

from club.models import Member, Session
from scoring import standings
from scoring.results import MatchResult
from tests.demo_club import MEMBER_LOGIN

pytestmark = pytest.mark.django_db


def test_the_demo_season_has_results_standings_and_records(client, demo_club):
    club = demo_club
    season = standings.Season.containing(club, timezone.localdate())
    board = standings.leaderboard(club, season)
    assert board.sessions_held == 10
    assert board.ranked and board.unranked  # six sessions needed to be ranked
    assert sum(row.total for row in board.rows) == 0  # every payment is someone's gain
    fields = ["chair_id", "result", "hands_played", "hands_won", "best_total", "place", "weight"]
    kept = sorted(MatchResult.objects.values_list(*fields))
    standings.rebuild_results()
    assert sorted(MatchResult.objects.values_list(*fields)) == kept  # recording kept them right
    member = Member.objects.get(user__username=MEMBER_LOGIN[0])
    client.force_login(member.user)
    latest = Session.objects.filter(matches__isnull=False).order_by("-date").first()
    page = client.get(f"/standings/evening/{latest.pk}/").content.decode()
    assert "You are <strong>" in page and "Final results" in page
    page = client.get("/standings/").content.decode()
    assert "(you)" in page
    page = client.get(f"/standings/members/{member.pk}/").content.decode()
    assert "<svg" in page and '<title id="chart-title">' in page
