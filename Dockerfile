# The club app's image. `docker compose up` (compose.yaml) builds and starts it with
# PostgreSQL; docs/deploy.md explains the settings and running several of them.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY . .

# The dependencies named in pyproject.toml (psycopg's binary wheel needs no compiler), with
# the redis extra so CACHE_URL may name a Redis server. The app runs from /app, where its
# templates and static files are. Static files are gathered and compressed once, here.
RUN pip install ".[redis]" \
    && rm -rf build ./*.egg-info \
    && DEBUG=false SECRET_KEY=collectstatic-only python manage.py collectstatic --noinput \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin club

# Not root: the app can read its files and write none of them (the data is in PostgreSQL).
USER club
ENV GUNICORN_BIND=0.0.0.0:8000
EXPOSE 8000

# /health/ answers 200 "ok" once the database does (front/health.py).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "deploy/healthcheck.py"]

# Waits for the database, runs migrate and createcachetable, then the command.
ENTRYPOINT ["deploy/entrypoint.sh"]
CMD ["gunicorn", "--config", "deploy/gunicorn.conf.py", "config.wsgi"]
