"""Serve the app with gunicorn on loopback, as production does but over plain HTTP.

    with gunicorn_on_loopback(env, workers=2) as server:
        ...  # server.url is http://127.0.0.1:<free port>

`serving_env(database_url, static_root)` is the environment it needs: DEBUG off (the
production settings), a random SECRET_KEY, ALLOWED_HOSTS for loopback, and
SECURE_SSL_REDIRECT=false because there is no HTTPS in front. The secure-cookie and HSTS
defaults stay on: clients on loopback send their cookies themselves. Static files must be
collected first (`collect_static`), since the production storage reads the manifest.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def serving_env(database_url: str, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.base",
        DATABASE_URL=database_url,
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECURE_SSL_REDIRECT="false",
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(ROOT),
        **extra,
    )
    return env


def collect_static(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    url: str
    process: subprocess.Popen
    log: Path

    def cpu_seconds(self) -> float:
        """Processor time the server (master and workers) has used so far. On a shared
        machine this, per request, says more than requests per second do."""
        import psutil  # a dependency of locust

        master = psutil.Process(self.process.pid)
        total = 0.0
        for process in [master, *master.children(recursive=True)]:
            with contextlib.suppress(psutil.NoSuchProcess):
                times = process.cpu_times()
                total += times.user + times.system
        return total

    def errors(self) -> list[str]:
        """Lines of the server's log that report an error (tracebacks, worker deaths)."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        words = ("Traceback", "[ERROR]", "[CRITICAL]", "WORKER TIMEOUT")
        return [line for line in text.splitlines() if any(word in line for word in words)]


@contextlib.contextmanager
def gunicorn_on_loopback(
    env: dict[str, str],
    log: Path,
    workers: int = 2,
    timeout: float = 30,
    ready: str = "/accounts/login/",
):
    """gunicorn config.wsgi on 127.0.0.1 at a free port, up once `ready` answers 200 (an
    installation of several clubs has its login pages at /c/<slug>/accounts/login/);
    stopped (SIGTERM) on exit."""
    port = free_port()
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "config.wsgi",
                "--workers",
                str(workers),
                "--bind",
                f"127.0.0.1:{port}",
                "--error-logfile",
                "-",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url + ready, process, timeout)
        yield Server(url, process, log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _wait_until_up(url: str, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn stopped at start (exit {process.returncode})")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer on {url} within {timeout:.0f} s")
