"""Login guessing and the table page: how slow a table's page gets while threads send wrong
passwords, with the login throttle off (as before) and on.

Run from the repository root:  .venv/bin/python bench/login_bench.py  [--threads 8] [--seconds 10]

It builds the demo club in a temporary SQLite file, starts tonight's tables, and serves it
with gunicorn (two workers, production settings, plain HTTP on 127.0.0.1, TRUSTED_PROXIES=1
so a thread can send each try from its own address in X-Forwarded-For). For each setting it
measures the table page alone, then while --threads threads post wrong passwords as fast as
the server answers, in two ways:

- spray: one address, a different username on every try (one password over many logins);
- flood: a different address on every try, all against one username.

"throttle off" sets LOGIN_THROTTLE_PER_ADDRESS and _PER_USERNAME so high they never act
(django-axes still locks a username at one address after five tries, as before this change).
It prints the table page's median and 95th percentile latency, the wrong logins answered a
second, and how many of them were refused before any password was hashed (429). With the
throttle on, the table page is measured once the throttle has begun to refuse (it says how
many seconds into the attack that was): the tries before that are hashed, as they must be.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for folder in (ROOT, HERE / "loadtest"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from serve import collect_static, gunicorn_on_loopback, serving_env  # noqa: E402

NEVER = "1000000000"
SETTINGS = {
    "throttle off (before)": {
        "LOGIN_THROTTLE_PER_ADDRESS": NEVER,
        "LOGIN_THROTTLE_PER_USERNAME": NEVER,
    },
    "throttle on (after)": {},
}


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


OPENER = urllib.request.build_opener(NoRedirect)


def fetch(url: str, data: dict | None = None, headers: dict | None = None) -> tuple[int, str, dict]:
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, headers=headers or {})
    try:
        with OPENER.open(request, timeout=120) as response:
            return response.status, response.read().decode(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode(errors="replace"), dict(error.headers)


def build(folder: Path) -> dict:
    """The demo club with tonight's tables started, and a coordinator's session cookie."""
    import django

    django.setup()
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    from club.models import Session
    from club.seating.changes import make_seating
    from front.demo import COORDINATOR_LOGIN, load_demo
    from games.start import start_play

    call_command("migrate", verbosity=0)
    club = load_demo()
    tonight = Session.objects.get(club=club, status=Session.Status.PLANNED)
    plan, _ = make_seating(tonight)
    plan.publish()
    start_play(tonight)
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username=COORDINATOR_LOGIN[0])
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return {"table": f"/play/{tonight.pk}/tables/1/", "cookie": store.session_key}


def forget_attempts() -> None:
    from axes.models import AccessAttempt

    AccessAttempt.objects.all().delete()


def csrf(url: str) -> tuple[str, str]:
    status, page, headers = fetch(url + "/accounts/login/")
    cookie = re.search(r"csrftoken=([^;]+)", headers.get("Set-Cookie", "")).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    return cookie, token


def attacker(url: str, kind: str, number: int, stop: threading.Event, tally: dict, lock):
    cookie, token = csrf(url)
    tries = 0
    while not stop.is_set():
        tries += 1
        if kind == "spray":
            username, address = f"guess-{number}-{tries}", "203.0.113.50"
        else:
            username, address = "the-target", f"10.{number}.{tries // 250 % 250}.{tries % 250 + 1}"
        status, _, _ = fetch(
            url + "/accounts/login/",
            {"csrfmiddlewaretoken": token, "username": username, "password": "Summer2026!"},
            {"Cookie": f"csrftoken={cookie}", "X-Forwarded-For": address},
        )
        with lock:
            tally[status] = tally.get(status, 0) + 1


def table_latency(url: str, setup: dict, seconds: float) -> list[float]:
    headers = {"Cookie": f"sessionid={setup['cookie']}"}
    times = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.perf_counter()
        status, _, _ = fetch(url + setup["table"], headers=headers)
        times.append((time.perf_counter() - started) * 1000)
        if status != 200:
            raise RuntimeError(f"the table page answered {status}")
    return times


def run(url, setup, kind, threads, seconds, throttled) -> dict:
    stop, lock, tally = threading.Event(), threading.Lock(), {}
    workers = [
        threading.Thread(target=attacker, args=(url, kind, n, stop, tally, lock), daemon=True)
        for n in range(threads)
    ]
    begun = time.monotonic()
    for worker in workers:
        worker.start()
    # Under way; with the throttle on, until it has begun to refuse (its limits are per
    # gunicorn worker, so twice the settings' figures may be hashed first).
    time.sleep(1)
    while throttled and not tally.get(429) and time.monotonic() - begun < 300:
        time.sleep(0.2)
    engaged = time.monotonic() - begun
    with lock:
        tally.clear()
    started = time.monotonic()
    times = table_latency(url, setup, seconds)
    with lock:
        answered = dict(tally)
    elapsed = time.monotonic() - started
    stop.set()
    for worker in workers:
        worker.join(timeout=120)
    return {"times": times, "tally": answered, "elapsed": elapsed, "engaged": engaged}


def percentile(times: list[float], share: float) -> float:
    return statistics.quantiles(times, n=100)[int(share) - 1] if len(times) > 1 else times[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="login-bench-"))
    env = serving_env(
        f"sqlite:///{folder / 'club.sqlite3'}",
        STATIC_ROOT=str(folder / "static"),
        TRUSTED_PROXIES="1",
    )
    os.environ.update(env)
    setup = build(folder)
    collect_static(env)
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"Login guessing vs the table page: gunicorn --workers 2, SQLite, {args.threads} ")
    print(f"threads, {args.seconds:.0f} s each; load average {load} on {os.cpu_count()} cores")
    head = f"{'setting':<24}{'attack':<8}{'table p50':>10}{'p95':>8}"
    print(head + f"{'pages':>7}{'logins/s':>10}{'refused (429)':>15}")
    for label, extra in SETTINGS.items():
        with gunicorn_on_loopback({**env, **extra}, folder / "gunicorn.log") as server:
            fetch(server.url + setup["table"], headers={"Cookie": f"sessionid={setup['cookie']}"})
            quiet = table_latency(server.url, setup, args.seconds / 2)
            print(
                f"{label:<24}{'none':<8}{statistics.median(quiet):>8.0f}ms"
                f"{percentile(quiet, 95):>6.0f}ms{len(quiet):>7}{'-':>10}{'-':>15}"
            )
            for kind in ("spray", "flood"):
                forget_attempts()
                result = run(server.url, setup, kind, args.threads, args.seconds, bool(not extra))
                times, tally = result["times"], result["tally"]
                logins = sum(tally.values())
                print(
                    f"{label:<24}{kind:<8}{statistics.median(times):>8.0f}ms"
                    f"{percentile(times, 95):>6.0f}ms{len(times):>7}"
                    f"{logins / result['elapsed']:>10.0f}{tally.get(429, 0):>9} of {logins:<5}"
                )
                if not extra:
                    print(
                        f"    (the throttle began to refuse {result['engaged']:.0f} s into the attack)"
                    )
                other = {code: n for code, n in tally.items() if code not in (200, 429)}
                if other:
                    print(f"    other answers to the wrong logins: {other}")
    return 0


if __name__ == "__main__":
    # The bench builds and checks every club's rows itself; its requests run in their club's
    # scope as in production (club/scoping.py).
    from django_scopes import scopes_disabled

    with scopes_disabled():
        sys.exit(main())
