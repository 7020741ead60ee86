"""A real gunicorn serving the app on the test database, which a test can restart, stop and
kill as an operator (or a power cut) would.

The server runs `config.settings.test` (or, given `env`, what it says): the production settings with DEBUG off, plus plain
HTTP (no SSL redirect, no secure-only cookies, any host) and static files served as they are
(the manifest storage would need `collectstatic` into the checkout, which a test should not
write to). The database is the test database, passed as DATABASE_URL.

Given a `static_root` that `collect_static` filled, the server serves static files as
production does instead (tests/faults/production_static.py): whitenoise's compressed manifest
storage, where a `{% static %}` file missing from the manifest is a server error.
"""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from django.conf import settings
from django.db import connection

WORKERS = 2
# How long a restart may take before the test gives up waiting for the port to answer.
READY_WITHIN = 30.0


def database_url() -> str:
    """The URL of the database the test is using (SQLite file or PostgreSQL)."""
    db = connection.settings_dict
    if db["ENGINE"] == "django.db.backends.sqlite3":
        name = str(db["NAME"])
        if name == ":memory:" or name.startswith("file:"):
            raise RuntimeError("A second process cannot share an in-memory SQLite database.")
        return f"sqlite:///{Path(name).resolve()}"
    if db["ENGINE"] == "django.db.backends.postgresql":
        quote = urllib.parse.quote
        user = quote(db["USER"] or "", safe="")
        password = quote(db["PASSWORD"] or "", safe="")
        credentials = f"{user}:{password}@" if user else ""
        host = db["HOST"] or "127.0.0.1"
        port = db["PORT"] or "5432"
        return f"postgres://{credentials}{host}:{port}/{quote(db['NAME'], safe='')}"
    raise RuntimeError(f"No URL for database engine {db['ENGINE']}.")


PRODUCTION_STATIC = "tests.faults.production_static"


def collect_static(static_root: Path) -> None:
    """`collectstatic` into `static_root` as a production install does it (hashed names, a
    manifest, compressed copies); fails with its output if it fails."""
    done = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
        cwd=settings.BASE_DIR,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": PRODUCTION_STATIC,
            "STATIC_ROOT": str(static_root),
        },
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"collectstatic failed:\n{done.stdout}{done.stderr}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Gunicorn:
    """One gunicorn master with its sync (or threaded) workers; `start()` again after a stop
    or a kill serves on the same port."""

    def __init__(
        self,
        port: int | None = None,
        static_root: Path | None = None,
        workers: int = WORKERS,
        env: dict[str, str] | None = None,
        threads: int = 1,
    ):
        self.port = port or free_port()
        self.worker_count = workers
        # More than one: gunicorn's threaded worker, as deploy/gunicorn.conf.py runs it.
        self.threads = threads
        self.process: subprocess.Popen | None = None
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (kept open for the server's life)
            prefix="gunicorn-", suffix=".log", delete=False
        )
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": database_url(),
            "DEBUG": "false",
            # The test signs the session cookies its clients log in with.
            "SECRET_KEY": settings.SECRET_KEY,
            "PYTHONUNBUFFERED": "1",
        }
        if static_root is not None:
            self.env["DJANGO_SETTINGS_MODULE"] = PRODUCTION_STATIC
            self.env["STATIC_ROOT"] = str(static_root)
        self.env.update(env or {})

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "--workers",
                str(self.worker_count),
                "--worker-class",
                "gthread" if self.threads > 1 else "sync",
                "--threads",
                str(self.threads),
                "--bind",
                f"127.0.0.1:{self.port}",
                # A graceful stop finishes requests under way; ten seconds is plenty here.
                "--graceful-timeout",
                "10",
                "--timeout",
                "30",
                *self.no_control_socket(),
            ],
            cwd=settings.BASE_DIR,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            # Its own process group: a kill reaches the master and its workers, nothing else.
            start_new_session=True,
        )

    @staticmethod
    def no_control_socket() -> list[str]:
        """Gunicorn 25.1 and later open a control socket at one fixed path per user; two
        servers (other tests, a load test) would fight over it."""
        from importlib.metadata import version

        major, minor = (int(part) for part in version("gunicorn").split(".")[:2])
        return ["--no-control-socket"] if (major, minor) >= (25, 1) else []

    def workers(self) -> set[int]:
        """The worker processes' ids (the master's children)."""
        pid = self.process.pid
        children = set()
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                # "pid (name) state ppid ...": the name may hold spaces, so split after it.
                fields = stat.read_text().rpartition(")")[2].split()
            except OSError:  # the process has just ended
                continue
            if int(fields[1]) == pid:
                children.add(int(stat.parent.name))
        return children

    def answers(self, path: str = "/accounts/login/") -> bool:
        """Whether the server answers a page over HTTP right now."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        try:
            conn.request("GET", path)
            return conn.getresponse().status == 200
        except (OSError, http.client.HTTPException):
            return False
        finally:
            conn.close()

    def wait_until_ready(self, workers: int | None = None) -> None:
        workers = self.worker_count if workers is None else workers
        deadline = time.monotonic() + READY_WITHIN
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited early:\n{self.log_tail()}")
            if len(self.workers()) >= workers and self.answers():
                return
            time.sleep(0.05)
        raise RuntimeError(f"gunicorn did not answer within {READY_WITHIN} s:\n{self.log_tail()}")

    def replace_workers(self) -> None:
        """End every worker as gunicorn does after max_requests (SIGTERM: it finishes its
        request and exits), and wait until the master has started new ones in their place."""
        old = self.workers()
        for pid in old:
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + READY_WITHIN
        while time.monotonic() < deadline:
            new = self.workers()
            fresh = len(new - old) >= self.worker_count and not new & old
            if fresh and self.answers("/health/"):
                return
            time.sleep(0.05)
        raise RuntimeError(f"gunicorn did not replace its workers:\n{self.log_tail()}")

    def signal(self, signum: int) -> None:
        self.process.send_signal(signum)

    def kill_all(self) -> None:
        """SIGKILL the master and every worker at once, as a power cut would."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        # Workers are reaped by init; wait until none holds the port's connections.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                os.killpg(self.process.pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.02)

    def wait_exit(self, timeout: float = 20) -> None:
        self.process.wait(timeout=timeout)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def log_tail(self, lines: int = 40) -> str:
        self.log.flush()
        text = Path(self.log.name).read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def close(self) -> None:
        self.stop()
        self.log.close()
        Path(self.log.name).unlink(missing_ok=True)
