"""Locust users for the load test (bench/loadtest/run.py starts locust with this file).

Run through `make loadtest`; on its own, locust needs the logins file run.py writes:
    LOADTEST_SCENARIO=standings LOADTEST_LOGINS=logins.json \
        locust -f bench/loadtest/locustfile.py --headless -u 30 -r 30 -t 20s --host http://...

LOADTEST_SCENARIO picks one user class:
- standings: a logged-in member asks for the season's standings, no pause between requests;
- table: a member seated tonight asks for their own table's page;
- record: one member at each table records hands through the table page's quick-entry form,
  as the page's htmx does (HX-Request, the CSRF token and the hand number taken from the
  page), until the match is over or LOADTEST_HANDS hands are saved. The outcome of each
  hand is random but legal: games.flow (the app's own flow rules) says who deals and when
  the match is over, scoring.engine.check_total says which totals the rules allow. Now and
  then the same form is posted twice (a double tap) or the last hand is undone. Each table's
  tally of saved, refused and failed posts goes to LOADTEST_RESULTS for run.py to check
  against the database.

Logins are Django sessions run.py created in the database (no password typed per user):
each user sends its session cookie, and a CSRF cookie of its own whose token the pages embed.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import secrets
import string
import sys
from pathlib import Path

from locust import FastHttpUser, constant, events, task
from locust.exception import StopUser

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games import flow  # noqa: E402  (plain Python, no Django)
from scoring import engine  # noqa: E402

SCENARIO = os.environ.get("LOADTEST_SCENARIO", "standings")
SETUP = json.loads(Path(os.environ["LOADTEST_LOGINS"]).read_text())
HANDS = int(os.environ.get("LOADTEST_HANDS", "40"))
DRAWS, DOUBLE_TAPS, UNDOS = 0.3, 0.1, 0.05

_next_login = itertools.count()
_results: dict[int, dict] = {}
_finished: set[int] = set()

HAND_FIELD = re.compile(r'name="hand" value="(\d+)"')
NOTICE = re.compile(r'role="status">Hand (\d+) (?:saved|is saved|is undone)')
TOKEN_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _csrf_secret() -> str:
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(32))


class Member(FastHttpUser):
    abstract = True
    wait_time = constant(0)  # as fast as the server answers

    def on_start(self):
        logins = self.logins()
        self.login = logins[next(_next_login) % len(logins)]
        self.cookie = f"sessionid={self.login['cookie']}; csrftoken={_csrf_secret()}"

    def logins(self) -> list[dict]:
        return SETUP["logins"]

    def get(self, url: str, name: str, **headers):
        return self.client.get(url, name=name, headers={"Cookie": self.cookie, **headers})


class StandingsUser(Member):
    @task
    def standings(self):
        self.get("/standings/", "GET /standings/")


class TableUser(Member):
    @task
    def table(self):
        url = f"/play/{SETUP['session']}/tables/{self.login['table']}/"
        self.get(url, "GET /play/<session>/tables/<n>/")


class RecordUser(Member):
    """One member recording every hand at one table."""

    def logins(self) -> list[dict]:
        return SETUP["recorders"]

    def on_start(self):
        super().on_start()
        self.rng = random.Random(self.login["table"])
        self.url = f"/play/{SETUP['session']}/tables/{self.login['table']}/"
        self.outcomes: list[dict] = []
        self.tally = {"table": self.login["table"], "saved": 0, "undone": 0, "double_taps": 0}
        self.tally |= {"refused": 0, "failed": 0, "mismatch": 0}
        _results[self.login["table"]] = self.tally
        page = self.get(self.url, "GET table page")
        self.token = TOKEN_FIELD.search(page.text).group(1)
        self.hand = _form_hand(page.text)

    @task
    def record(self):
        state = flow.replay(SETUP["rules"], self.outcomes)[-1]
        if state.over or self.tally["saved"] - self.tally["undone"] >= HANDS:
            self.done()
        if self.outcomes and self.rng.random() < UNDOS:
            self.post("undo/", {"hand": self.hand - 1}, None, undo=True)
            return
        if self.rng.random() < DRAWS:
            self.post("draw/", {"hand": self.hand}, {"draw": True})
            return
        winner = self.rng.randrange(4)
        won_by = self.rng.choice(["wall", "discard"])
        discarder = None
        if won_by == "discard":
            discarder = self.rng.choice([c for c in range(4) if c != winner])
        fields = {"hand": self.hand, "winner": winner, "won_by": won_by, "action": "save"}
        fields["total"] = self.total()
        if discarder is not None:
            fields["discarder"] = discarder
        self.post("win/", fields, {"winner": winner, "won_by": won_by, "discarder": discarder})

    def total(self) -> int:
        """A random total the rules allow (the engine refuses the others)."""
        while True:
            candidate = self.rng.choice([8, 10, 16, 20, 24, 32, 48, 64, 96, 128, 256, 1000])
            try:
                return engine.check_total(SETUP["rules"], candidate)
            except engine.EngineError:
                continue

    def post(self, path: str, fields: dict, outcome: dict | None, undo: bool = False):
        data = {"csrfmiddlewaretoken": self.token, "match": self.login["match"], **fields}
        name = f"POST {path.rstrip('/')}"
        headers = {"Cookie": self.cookie, "HX-Request": "true", "Referer": self.url}
        with self.client.post(
            self.url + path, data=data, name=name, headers=headers, catch_response=True
        ) as response:
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
                self.tally["failed"] += 1
                self.resync()
                return
            notice = NOTICE.search(response.text)
            if notice is None or int(notice.group(1)) != fields["hand"]:
                self.tally["refused"] += 1
                response.failure("refused: " + _message(response.text))
                self.resync()
                return
            self.saved(outcome, undo)
            still_open = _form_hand(response.text) is not None
        if not undo and still_open and self.rng.random() < DOUBLE_TAPS:
            self.double_tap(path, data, name, headers)

    def double_tap(self, path: str, data: dict, name: str, headers: dict) -> None:
        """The same form again: the hand is reported saved once more but not saved twice,
        and the page still offers the next hand."""
        self.tally["double_taps"] += 1
        with self.client.post(
            self.url + path,
            data=data,
            name=name + " (double tap)",
            headers=headers,
            catch_response=True,
        ) as response:
            shown = _form_hand(response.text)
            if response.status_code != 200:
                response.failure(f"status {response.status_code}")
                self.tally["failed"] += 1
            elif shown != self.hand:
                self.tally["mismatch"] += 1
                response.failure(
                    f"a double tap of hand {data['hand']} left the page at hand {shown}, not "
                    f"{self.hand}: {_message(response.text)}"
                )

    def saved(self, outcome: dict | None, undo: bool) -> None:
        if undo:
            self.outcomes.pop()
            self.tally["undone"] += 1
            self.hand -= 1
        else:
            self.outcomes.append(outcome)
            self.tally["saved"] += 1
            self.hand += 1

    def resync(self) -> None:
        """After a refusal or an error: the page says which hand is next."""
        page = self.get(self.url, "GET table page")
        shown = _form_hand(page.text)
        if shown is not None and shown != self.hand:
            self.tally["mismatch"] += 1

    def done(self):
        _finished.add(self.login["table"])
        if len(_finished) == len(SETUP["recorders"]):
            self.environment.runner.quit()
        raise StopUser()


def _form_hand(text: str) -> int | None:
    """The hand number the page's win form will post (None once the match is over: the
    page then has no win form, though its undo form also carries a hand number)."""
    start = (text or "").find('id="win-form"')
    found = HAND_FIELD.search(text, start) if start >= 0 else None
    return int(found.group(1)) if found else None


def _message(text: str) -> str:
    found = re.search(r'role="alert">\s*(?:<p>)?([^<]+)', text)
    return found.group(1).strip()[:120] if found else "no message"


@events.quitting.add_listener
def _write_results(environment, **kwargs):
    if SCENARIO == "record" and os.environ.get("LOADTEST_RESULTS"):
        Path(os.environ["LOADTEST_RESULTS"]).write_text(json.dumps(list(_results.values())))


# Locust runs every non-abstract user class it finds: keep only this run's.
for _name, _cls in {
    "standings": StandingsUser,
    "table": TableUser,
    "record": RecordUser,
}.items():
    _cls.abstract = _name != SCENARIO
del _name, _cls  # locust would count the loop variable as a second user class
