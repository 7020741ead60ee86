# The club app's image. `docker compose up` (compose.yaml) builds and starts it with
# PostgreSQL; docs/deploy.md explains the settings and running several of them.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/app

WORKDIR /app

# The dependencies first, exactly as locked (requirements.lock: every version pinned and
# every file's hash checked, made from pyproject.toml with its redis extra, so CACHE_URL
# may name a Redis server): a change to the code alone reuses this layer. psycopg's binary
# wheel needs no compiler.
COPY requirements.lock ./
RUN pip install --no-cache-dir --require-hashes --no-deps -r requirements.lock \
    && useradd --system --uid 10001 --user-group --home-dir /app --shell /usr/sbin/nologin club

# The app runs from /app (PYTHONPATH), where its templates and static files are. Static
# files are gathered and compressed once, here.
COPY . .
RUN DEBUG=false SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput

# Not root (by number, so the platform can check it is not 0): the app can read its files
# and write none of them (the data is in PostgreSQL).
USER 10001:10001
ENV GUNICORN_BIND=0.0.0.0:8000
EXPOSE 8000

# /health/ answers 200 "ok" once the database does (front/health.py).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "deploy/healthcheck.py"]

# Waits for the database, runs migrate and createcachetable, then the command.
ENTRYPOINT ["deploy/entrypoint.sh"]
CMD ["gunicorn", "--config", "deploy/gunicorn.conf.py", "config.wsgi"]
