"""gunicorn's settings for the club app: `gunicorn -c deploy/gunicorn.conf.py config.wsgi`.

The Dockerfile runs it so; docs/deploy.md describes each variable. The defaults suit a
two-core server: 3 worker processes of 4 threads each answer 12 requests at once (a tablet's
poll is a few milliseconds; a saved hand a few tens). Each process holds its own database
connections: up to GUNICORN_THREADS of them (set DB_POOL_MAX_SIZE to the same number when
the pool is on).
"""

import os


def _whole_number(name: str, default: int, minimum: int = 1) -> int:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) < minimum:
        raise SystemExit(f"{name} must be a whole number from {minimum}, not {value!r}.")
    return int(value)


# Where to listen: 127.0.0.1 behind a proxy on the same computer; the image sets 0.0.0.0:8000.
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = _whole_number("GUNICORN_WORKERS", 3)
threads = _whole_number("GUNICORN_THREADS", 4)
# With threads, gunicorn's threaded worker: a connection kept alive waits without a thread.
worker_class = "gthread" if threads > 1 else "sync"
# A request still running after this many seconds is stopped and its worker restarted.
timeout = _whole_number("GUNICORN_TIMEOUT", 30)
# A restart (SIGHUP, or SIGTERM to stop) lets requests under way finish for this long.
graceful_timeout = 30
# Seconds an idle connection stays open. Behind a load balancer, more than the balancer's own
# idle timeout (e.g. 75 for a balancer's 60), or it may reuse a connection gunicorn is closing.
keepalive = _whole_number("GUNICORN_KEEPALIVE", 5)
# Each worker is replaced after about a thousand requests, so memory stays level over months.
max_requests = 1000
max_requests_jitter = 100
# One line a request on standard output, with the address the proxy saw and the time taken.
accesslog = "-"
errorlog = "-"
access_log_format = '%(h)s "%({x-forwarded-for}i)s" %(t)s "%(r)s" %(s)s %(b)s %(M)sms'
# Workers' heartbeat files in memory (a container's disk can be slow to answer).
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"
# gunicorn's control socket (`gunicornc`, gunicorn 24 and later) is not used: it would be
# made in the home folder, which the image's user cannot write.
control_socket_disable = True


def when_ready(server):
    """Once the server listens: on an installation with no club yet, the setup code goes
    to the log (front/first_setup.py). Here in the main process, once, not in each worker;
    its database connection is closed before the workers start."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    import django
    from django.db import connections

    django.setup()
    from front.first_setup import announce_setup_code

    try:
        announce_setup_code()
    except Exception as error:  # a database not reachable yet: the first visit prints it
        server.log.warning("No setup code printed at start (%s): the setup page makes one.", error)
    finally:
        connections.close_all()
