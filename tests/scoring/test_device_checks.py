"""The table page sends the checks the device makes before it keeps a hand to send later
(the totals' limits, a goulash hand's, the words for who won and who pays) as JSON built
from the server's own sources: for every rule set, what the JSON's limits refuse is what the
server refuses, in the same words, and what they let through the server does not refuse for
being too few or too many."""

import json
import re
from html import unescape

import pytest

from games.start import start_play
from scoring import hand_entry, table_rules
from scoring.engine.rulesets import RULESET_NAMES, get_ruleset
from scoring.recording import Win, record_draw
from tests.games.helpers import seated_session
from tests.scoring.test_table_views import match_at, url

pytestmark = pytest.mark.django_db

# A club's own minimum beside the default, where the rule set has one.
CLUB_MINIMUMS = {"u3a": 4, "fan": 4, "hk": 5}


def device_verdict(checks: dict, total: int, goulash: bool) -> str | None:
    """What static/js/outbox-queue.js (totalRefusal) says of `total`, from the JSON alone."""
    limits = checks["goulash"] if goulash else checks["hand"]
    amount = checks["one"] if total == 1 else f"{total} {checks['unit']}"
    if limits["minimum"] is not None and total < limits["minimum"]:
        return limits["below"].replace("{amount}", amount)
    if limits["maximum"] is not None and total > limits["maximum"]:
        return limits["above"].replace("{total}", str(total))
    return None


def server_verdict(match, state, total: int) -> str | None:
    """What the server says of a win worth `total` in the hand `state` describes."""
    try:
        table_rules.win_payments(match, state, Win(state.dealer, "wall", None, total))
    except table_rules.TotalRefused as error:
        return str(error)
    return None


def page_checks(client, session) -> dict:
    html = client.get(url("table", session)).content.decode()
    script = re.search(
        r'<script id="table-flow" type="application/json">(.*?)</script>', html, re.S
    )
    return json.loads(unescape(script.group(1)))["checks"]


def totals_around(limits: dict) -> set[int]:
    near = {0, 1, 2, 3}
    for bound in (limits["minimum"], limits["maximum"]):
        if bound is not None:
            near |= {bound - 1, bound, bound + 1}
    return {total for total in near if total >= 0}


@pytest.mark.parametrize(
    ("rules", "club_minimum"),
    [(rules, False) for rules in RULESET_NAMES] + [(rules, True) for rules in CLUB_MINIMUMS],
)
def test_the_pages_limits_are_the_servers_for_every_rule_set(
    coordinator_client, club, rules, club_minimum
):
    club.rule_set = rules
    if club_minimum:
        ruleset = get_ruleset(rules)
        club.rule_options = {ruleset.minimum_option: CLUB_MINIMUMS[rules]}
    club.save()
    session = seated_session(club, sizes=(4,))
    start_play(session)
    match = match_at(session, 1)
    checks = page_checks(coordinator_client, session)
    assert checks == json.loads(json.dumps(hand_entry.device_checks(match)))
    if club_minimum:
        assert checks["hand"]["minimum"] == CLUB_MINIMUMS[rules]
    states = [(False, match.replay()[-1])]
    if checks["goulash"] is not None:
        record_draw(match, 1)  # the next hand is a goulash hand
        match.refresh_from_db()
        states.append((True, match.replay()[-1]))
        assert states[-1][1].goulash
    seen = set()
    for goulash, state in states:
        limits = checks["goulash"] if goulash else checks["hand"]
        for total in sorted(totals_around(limits)):
            said = device_verdict(checks, total, goulash)
            server = server_verdict(match, state, total)
            if said is not None:
                assert server == said, (goulash, total)
                seen.add("refused")
            else:
                # Let through: the server may still refuse it for what only a rule set's
                # arithmetic knows (classical scores are even), never for too few or many.
                assert server is None or not re.search(r"minimum|too few|above the limit", server)
                seen.add("let through")
    assert seen == {"refused", "let through"}


def test_under_u3a_a_goulash_hand_of_4_points_is_refused_on_the_device(coordinator_client, club):
    """The evening's case: a goulash hand of 4 points, which the server refuses."""
    club.rule_set = "u3a"
    club.save()
    session = seated_session(club, sizes=(4,))
    start_play(session)
    checks = page_checks(coordinator_client, session)
    assert device_verdict(checks, 4, goulash=False) is None
    assert device_verdict(checks, 4, goulash=True) == (
        "4 points is too few for a goulash hand: a goulash hand needs at least 5 points; "
        "this club's usual minimum is 3 points."
    )
