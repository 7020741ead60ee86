"""Locust users for the region bench's Tuesday afternoon (bench/region_bench.py starts it).

REGION_CLUBS names the file region_bench.py writes: per club its address, tonight's session,
a login at each table (the member in chair 0) and a reader's login.

- TableUser, one per table: the table's page polls every 4 seconds (scoring:poll, as the
  page's htmx does: 204 while nothing changed, the board after a change) and, about every
  3 minutes, a hand is saved through the quick-entry form (a dealer's self-drawn win, so the
  match never ends during the run).
- ReaderUser, one per club: the club's members reading results, about 3 times each an
  afternoon (30 members: one page every 2 minutes a club): home, standings, the last
  evening's results or a member's results.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
import secrets
import string
from pathlib import Path

from locust import FastHttpUser, constant_pacing, task

CLUBS = json.loads(Path(os.environ["REGION_CLUBS"]).read_text())
TABLES = [(club, table) for club in CLUBS for table in club["tables"]]
POLL_SECONDS, HAND_SECONDS, READ_SECONDS = 4, 180, 120

_next_table = itertools.count()
_next_club = itertools.count()
HAND_FIELD = re.compile(r'id="win-form".*?name="hand" value="(\d+)"', re.S)
VERSION = re.compile(r"[?&](?:amp;)?v=(\d+)")


def _csrf_secret() -> str:
    alphabet = string.ascii_letters + string.digits
    return "".join(secrets.choice(alphabet) for _ in range(32))


class TableUser(FastHttpUser):
    weight = len(TABLES)
    wait_time = constant_pacing(POLL_SECONDS)

    def on_start(self):
        self.club, table = TABLES[next(_next_table) % len(TABLES)]
        self.table = dict(table)
        self.csrf = _csrf_secret()
        self.cookie = f"sessionid={self.table['cookie']}; csrftoken={self.csrf}"
        self.base = (
            f"/c/{self.club['slug']}/play/{self.club['session']}/tables/{self.table['table']}/"
        )
        self.rng = random.Random()

    @task
    def poll(self):
        if self.rng.random() < POLL_SECONDS / HAND_SECONDS:
            self.save()
            return
        table = self.table
        url = f"{self.base}poll/?m={table['match']}&v={table['version']}&open=1&h={table['hand']}"
        with self.client.get(
            url,
            name="poll",
            headers={"Cookie": self.cookie, "HX-Request": "true"},
            catch_response=True,
        ) as response:
            if response.status_code == 200:
                found = VERSION.search(response.text or "")
                if found:
                    table["version"] = int(found.group(1))
                response.request_meta["name"] = "poll after a hand (200)"
            elif response.status_code == 204:
                response.request_meta["name"] = "poll, nothing new (204)"
            else:
                response.failure(f"status {response.status_code}")

    def save(self):
        table = self.table
        data = {
            "csrfmiddlewaretoken": self.csrf,
            "match": table["match"],
            "hand": table["hand"],
            "winner": 0,
            "won_by": "wall",
            "total": 24,
            "action": "save",
        }
        with self.client.post(
            self.base + "win/",
            data=data,
            name="saved hand",
            headers={"Cookie": self.cookie, "HX-Request": "true"},
            catch_response=True,
        ) as response:
            shown = HAND_FIELD.search(response.text or "")
            if response.status_code != 200 or not shown:
                response.failure(f"status {response.status_code}, no next hand")
                return
            table["hand"] = int(shown.group(1))


class ReaderUser(FastHttpUser):
    weight = len(CLUBS)
    wait_time = constant_pacing(READ_SECONDS)

    def on_start(self):
        self.club = CLUBS[next(_next_club) % len(CLUBS)]
        self.cookie = f"sessionid={self.club['reader_cookie']}"
        self.rng = random.Random()

    @task
    def read(self):
        club = self.club
        name, path = self.rng.choice(
            [
                ("home page", ""),
                ("standings", "standings/"),
                ("an evening's results", f"standings/evening/{club['evening']}/"),
                ("a member's results", f"standings/members/{club['reader']}/"),
            ]
        )
        self.client.get(f"/c/{club['slug']}/{path}", name=name, headers={"Cookie": self.cookie})
