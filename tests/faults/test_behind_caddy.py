"""The club app behind a real Caddy (Debian's package) with `tls internal`, as compose.yaml's
`caddy` service runs it: deploy/Caddyfile itself, imported by a Caddyfile made here that
only moves Caddy to high ports and a folder of its own (no root, no port 80 or 443).

Checked through the proxy: HTTPS with a certificate from Caddy's own authority, the
redirect from http, /health/, Django seeing https (no redirect loop, secure cookies, HSTS)
and the site's name with its port (a browser's Origin accepted by the CSRF check); then a backup taken with deploy/backup.sh while four
tables record hands through the proxy, restored into a fresh database: it holds, for each
table, the hands saved before the backup began and maybe a few more, in order, each as
saved, and the tallies agree with them (one consistent moment, not a torn copy)."""

from __future__ import annotations

import contextvars
import http.client
import os
import shutil
import ssl
import subprocess
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Match
from games.start import start_play
from scoring.models import Hand
from tests.factories import UserFactory
from tests.faults import FIGURES
from tests.faults.server import Gunicorn, free_port
from tests.games.helpers import seated_members, seated_session
from tests.installation_backup import (
    backup_script,
    contents,
    fresh_database,
    query,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        shutil.which("caddy") is None,
        reason="Caddy is not installed (apt-get install caddy): .ci/run installs it",
    ),
]

TABLES = 4
HANDS_BEFORE, HANDS_AFTER = 2, 1
CADDYFILE = Path(settings.BASE_DIR) / "deploy" / "Caddyfile"


@dataclass
class Proxy:
    http_port: int
    https_port: int
    root_certificate: Path
    process: subprocess.Popen
    log: Path

    @property
    def origin(self) -> str:
        return f"https://localhost:{self.https_port}"

    def tls(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.root_certificate))

    def https(self) -> http.client.HTTPSConnection:
        return http.client.HTTPSConnection(
            "localhost", self.https_port, context=self.tls(), timeout=30
        )

    def get(self, path: str, headers: dict | None = None) -> http.client.HTTPResponse:
        conn = self.https()
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        response.body = response.read().decode(errors="replace")
        conn.close()
        return response


@pytest.fixture
def server(transactional_db, club):
    gunicorn = Gunicorn(
        workers=2,
        threads=4,
        env={"DJANGO_SETTINGS_MODULE": "tests.faults.behind_proxy", "TRUSTED_PROXIES": "1"},
    )
    gunicorn.start()
    deadline = time.monotonic() + 30
    while not gunicorn.answers("/health/"):
        assert gunicorn.process.poll() is None, gunicorn.log_tail()
        assert time.monotonic() < deadline, gunicorn.log_tail()
        time.sleep(0.05)
    yield gunicorn
    gunicorn.close()


@pytest.fixture
def proxy(server, tmp_path):
    http_port, https_port = free_port(), free_port()
    data = tmp_path / "caddy"
    caddyfile = tmp_path / "Caddyfile"
    caddyfile.write_text(
        "{\n"
        f"\thttp_port {http_port}\n"
        # Caddy leaves its https_port out of the redirect (as for 443, the port a router
        # forwards there); the site's own port, another, is named in it.
        f"\thttps_port {free_port()}\n"
        "\tadmin off\n"
        "\tskip_install_trust\n"
        f"\tstorage file_system {data}\n"
        "}\n"
        f"import {CADDYFILE}\n"
    )
    log = tmp_path / "caddy.log"
    env = {
        **os.environ,
        "DOMAIN": f"localhost:{https_port}",
        "TLS": "internal",
        "APP_ADDRESS": f"127.0.0.1:{server.port}",
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
    }
    with log.open("w") as output:
        process = subprocess.Popen(
            ["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    root = data / "pki" / "authorities" / "local" / "root.crt"
    running = Proxy(http_port, https_port, root, process, log)
    deadline = time.monotonic() + 30
    while True:
        assert process.poll() is None, log.read_text()
        try:
            if root.exists() and running.get("/health/").status == 200:
                break
        except (OSError, ssl.SSLError, http.client.HTTPException):
            pass
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
    yield running
    process.terminate()
    process.wait(timeout=10)


def check_https_the_redirect_and_the_health_check(proxy: Proxy) -> None:
    # The certificate is Caddy's own authority's (tls internal), for the site's name.
    conn = proxy.https()
    conn.connect()
    certificate = conn.sock.getpeercert()
    conn.close()
    assert ("DNS", "localhost") in certificate["subjectAltName"]
    with pytest.raises(ssl.SSLCertVerificationError):  # not one the world trusts
        conn = http.client.HTTPSConnection(
            "localhost", proxy.https_port, context=ssl.create_default_context(), timeout=10
        )
        conn.request("GET", "/health/")

    health = proxy.get("/health/")
    assert (health.status, health.body) == (200, "ok\n")

    # http:// is sent on to https://, the path kept.
    plain = http.client.HTTPConnection("localhost", proxy.http_port, timeout=10)
    plain.request("GET", "/accounts/login/?next=/standings/")
    moved = plain.getresponse()
    assert moved.status in (301, 308)
    assert moved.getheader("Location") == f"{proxy.origin}/accounts/login/?next=/standings/"
    plain.close()

    # Django sees https (Caddy's X-Forwarded-Proto): the page itself, no redirect loop,
    # cookies for https only, and HSTS.
    login = proxy.get("/accounts/login/")
    assert login.status == 200, login.body[:500]
    assert "max-age=" in login.getheader("Strict-Transport-Security")
    cookies = login.headers.get_all("Set-Cookie")
    assert cookies and all("Secure" in cookie for cookie in cookies)


@dataclass
class Table:
    """One table's tablet, recording hands through the proxy."""

    match: Match
    cookie: str
    confirmed: list = field(default_factory=list)
    failure: str = ""


def save_hand(proxy: Proxy, table: Table, number: int) -> str:
    csrf = "c" * 32
    data = {"hand": number, "match": table.match.pk, "winner": 0, "action": "save"}
    data |= {"won_by": "wall", "total": 8 + 2 * (number % 5)}
    conn = proxy.https()
    try:
        conn.request(
            "POST",
            reverse("scoring:win", args=[table.match.session_id, table.match.table_number]),
            body=urllib.parse.urlencode(data),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"{settings.SESSION_COOKIE_NAME}={table.cookie}; "
                f"{settings.CSRF_COOKIE_NAME}={csrf}",
                "X-CSRFToken": csrf,
                # A browser's own: Django checks it against the host over https.
                "Origin": proxy.origin,
                "HX-Request": "true",
            },
        )
        response = conn.getresponse()
        return f"{response.status} {response.read().decode(errors='replace')}"
    finally:
        conn.close()


def record(proxy: Proxy, table: Table, stop: threading.Event) -> None:
    number = 1
    while not stop.is_set():
        answer = save_hand(proxy, table, number)
        if f"Hand {number} saved:" not in answer:
            raise AssertionError(f"hand {number}: {answer[:1000]}")
        table.confirmed.append(number)
        number += 1


def wait_until(condition, what: str, tables: list[Table], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        failures = [t.failure for t in tables if t.failure]
        assert not failures, failures
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


# One test, so that gunicorn and Caddy start once (about 10 s on a busy 2-core machine).
def test_behind_caddy_https_health_and_a_backup_taken_while_tables_record(
    proxy, server, club, tmp_path
):
    check_https_the_redirect_and_the_health_check(proxy)

    club.rule_set = "u3a"  # the dealer's wins keep the deal: a match that never ends
    club.save()
    session = seated_session(club, sizes=(4,) * TABLES)
    start_play(session)
    tables = []
    for match in Match.objects.filter(session=session).order_by("table_number"):
        east = seated_members(session, match.table_number)[0]
        east.user = UserFactory()
        east.save()
        client = Client()
        client.force_login(east.user)
        tables.append(Table(match, client.cookies[settings.SESSION_COOKIE_NAME].value))

    stop = threading.Event()

    def run(table: Table) -> None:
        try:
            contextvars.copy_context().run(record, proxy, table, stop)
        except BaseException as error:
            table.failure = f"{type(error).__name__}: {error}"
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(t,), daemon=True) for t in tables]
    for thread in threads:
        thread.start()
    try:
        wait_until(lambda: all(len(t.confirmed) >= HANDS_BEFORE for t in tables), "hands", tables)
        saved_before = [len(t.confirmed) for t in tables]
        taken = backup_script("now", url=server.env["DATABASE_URL"], backup_dir=tmp_path / "b")
        saved_during = [len(t.confirmed) for t in tables]
        marks = [n + HANDS_AFTER for n in saved_during]
        wait_until(
            lambda: all(len(t.confirmed) >= m for t, m in zip(tables, marks, strict=True)),
            "hands after the backup",
            tables,
        )
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=60)
    assert not [t.failure for t in tables if t.failure]
    assert taken.returncode == 0, taken.stderr
    # The tables went on recording while the backup ran.
    assert sum(saved_during) > sum(saved_before), (saved_before, saved_during)

    live = contents(server.env["DATABASE_URL"], ["scoring_hand"])["scoring_hand"]
    in_backup = 0
    with fresh_database(server.env["DATABASE_URL"], tmp_path) as target:
        restored = backup_script("restore", taken.stdout.strip(), url=target, backup_dir=tmp_path)
        assert restored.returncode == 0, restored.stderr
        # Every restored hand is a live one, as saved.
        assert set(contents(target, ["scoring_hand"])["scoring_hand"]) <= set(live)
        for table, before, after in zip(tables, saved_before, marks, strict=True):
            numbers = [
                number
                for (number,) in query(
                    target,
                    f"SELECT number FROM scoring_hand WHERE match_id = {table.match.pk} "
                    "AND voided_at IS NULL ORDER BY number",
                )
            ]
            # Hands 1..k: those saved before the backup began, maybe more, none missing.
            assert numbers == list(range(1, len(numbers) + 1))
            assert before <= len(numbers) <= after
            in_backup += len(numbers)
            # The tallies were copied at the same moment as the hands.
            tallies = query(
                target,
                f"SELECT match_hands FROM scoring_matchresult WHERE match_id = {table.match.pk}",
            )
            assert tallies == [(len(numbers),)] * 4, (table.match.table_number, tallies)
    assert Hand.objects.filter(match__session=session).count() == sum(
        len(t.confirmed) for t in tables
    )
    line = (
        f"[behind caddy] ({connection.vendor}): hands saved through the proxy before the "
        f"backup {sum(saved_before)}, when it ended {sum(saved_during)}, in the restored "
        f"database {in_backup}, in all {sum(len(t.confirmed) for t in tables)}"
    )
    print("\n" + line)
    FIGURES.append(line)
