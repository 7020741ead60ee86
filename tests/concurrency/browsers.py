"""Logged-in browsers talking plain HTTP to a live server, and firing their posts at the
same moment: the concurrency tests' one way to send a burst."""

import http.client
import secrets
import string
import threading
import urllib.parse
from dataclasses import dataclass

from django.conf import settings
from django.test import Client


@dataclass
class Answer:
    status: int
    body: str


class Browser:
    """One coordinator's logged-in session, talking plain HTTP."""

    def __init__(self, live_server, user):
        client = Client()
        client.force_login(user)
        self.session_cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
        self.csrf = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))
        parsed = urllib.parse.urlsplit(live_server.url)
        self.host, self.port = parsed.hostname, parsed.port

    def post(self, path: str, data: dict, headers: dict | None = None) -> Answer:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        try:
            connection.request(
                "POST",
                path,
                body=urllib.parse.urlencode(data, doseq=True),
                headers={
                    "Content-Type": "application/x-www-form-urlencoded",
                    "Cookie": f"{settings.SESSION_COOKIE_NAME}={self.session_cookie}; "
                    f"{settings.CSRF_COOKIE_NAME}={self.csrf}",
                    "X-CSRFToken": self.csrf,
                    **(headers or {}),
                },
            )
            response = connection.getresponse()
            return Answer(response.status, response.read().decode(errors="replace"))
        finally:
            connection.close()


def fire(browsers, requests: list[tuple[str, dict]], headers: dict | None = None) -> list[Answer]:
    """Send request i from browser i, all released at the same moment."""
    barrier = threading.Barrier(len(requests))
    answers: list[Answer | None] = [None] * len(requests)

    def run(i, path, data):
        barrier.wait()
        try:
            answers[i] = browsers[i].post(path, data, headers)
        except OSError as error:  # a dropped connection counts as a server failure
            answers[i] = Answer(599, repr(error))

    threads = [
        threading.Thread(target=run, args=(i, path, data))
        for i, (path, data) in enumerate(requests)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers
