"""The container's own health check (Dockerfile HEALTHCHECK): asks this container's gunicorn
for /health/ and exits 0 when the answer is 200 "ok", 1 otherwise.

The request names a host the site answers to (the first in ALLOWED_HOSTS), since Django
refuses any other; /health/ is not redirected to HTTPS (front/health.py).
"""

import http.client
import os
import sys


def probe_host(allowed_hosts: str) -> str:
    """A Host header Django accepts: the first ALLOWED_HOSTS entry, made concrete."""
    for entry in allowed_hosts.split(","):
        host = entry.strip()
        if host == "*":
            return "localhost"
        if host:
            return host.lstrip(".")  # ".example.org" allows example.org itself
    return "localhost"


def probe_port(bind: str) -> int:
    """The port gunicorn listens on, from GUNICORN_BIND (host:port)."""
    _, _, port = bind.rpartition(":")
    return int(port) if port.isdigit() else 8000


def main(environ=os.environ) -> int:
    port = probe_port(environ.get("GUNICORN_BIND", "127.0.0.1:8000"))
    host = probe_host(environ.get("ALLOWED_HOSTS", ""))
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/health/", headers={"Host": host})
        response = connection.getresponse()
        body = response.read(100)
    except OSError as error:
        print(f"unhealthy: no answer on port {port}: {error}", file=sys.stderr)
        return 1
    if response.status == 200 and body.strip() == b"ok":
        return 0
    print(f"unhealthy: {response.status} {body[:60]!r}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
