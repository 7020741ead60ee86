# Everything a newcomer needs: `make run` and `make test` (see README.md).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
STAMP := $(VENV)/.installed
LOAD_STAMP := $(VENV)/.installed-load

.PHONY: install lock run test lint bench history-bench outbox-bench loadtest region-bench demo clean

install: $(STAMP)

# Reinstall when the dependency list changes. The runtime dependencies exactly as locked
# (requirements.lock, hashes checked, as the image installs them), then the project and its
# dev tools: pip keeps the locked versions, which satisfy pyproject.toml.
$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet --require-hashes -r requirements.lock
	$(BIN)/pip install --quiet -e '.[dev]'
	@# Bytecode ahead of time: where PYTHONDONTWRITEBYTECODE is set, every engine CLI start
	@# would otherwise compile the sources again (0.15 s -> 0.08 s here).
	$(BIN)/python -m compileall -q config club games scoring front > /dev/null
	touch $(STAMP)

# Local use: DEBUG on unless the caller says otherwise.
run: export DEBUG ?= true
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo --if-empty
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

# Two pytest-xdist workers (the machines here have two cores), each with its own test
# database (.test-db.sqlite3_gw0, test_<name>_gw1 ...). TEST_WORKERS=0: one process.
TEST_WORKERS ?= 2
test: install
	$(BIN)/pytest -n $(TEST_WORKERS)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/hadolint Dockerfile

# requirements.lock again from pyproject.toml (after changing its dependencies), keeping
# the versions locked unless pyproject.toml asks for others; LOCK_ARGS=--upgrade takes the
# newest. tests/test_requirements_lock.py checks that the two agree.
lock: install
	$(BIN)/uv pip compile pyproject.toml --extra redis --generate-hashes --python-version 3.11 \
		--universal --quiet $(LOCK_ARGS) -o requirements.lock

bench: install
	$(BIN)/python -m compileall -q config club games scoring front > /dev/null
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/seating_bench.py
	$(BIN)/python bench/flow_bench.py
	$(BIN)/python bench/games_bench.py
	$(BIN)/python bench/picker_bench.py
	$(BIN)/python bench/corrections_bench.py
	$(BIN)/python bench/standings_bench.py
	$(BIN)/python bench/backup_bench.py
	$(BIN)/python bench/history_bench.py

# Every page at 1, 10 and 20 years of a club's history on PostgreSQL (HISTORY_PG_URL, default
# postgres://club_ci:club_ci@127.0.0.1:5432/history_bench, made afresh; skipped, saying why,
# when it cannot be reached): rows and buffers read, times, ratios, the poll against a bare
# view, and 1 against 300 clubs. HISTORY_ARGS="--years 1,10 --clubs 1" passes options. See
# bench/history_bench.py.
history-bench: install
	$(BIN)/python bench/history_bench.py $(HISTORY_ARGS)

# Not part of `make bench` (it needs Chromium): how long the table page's outbox takes to
# send 30 hands that waited offline. See bench/outbox_bench.py.
outbox-bench: install
	$(BIN)/python bench/outbox_bench.py

# Not part of `make test`: about 4 minutes of gunicorn under locust, SQLite then PostgreSQL
# (LOADTEST_PG_URL; skipped, saying why, when it cannot be reached); LOADTEST_ARGS="--seconds 5"
# passes options. See bench/loadtest/run.py.
loadtest: $(LOAD_STAMP)
	$(BIN)/python bench/loadtest/run.py $(LOADTEST_ARGS)

# Not part of `make bench`: a region of 1, 100 and 1,000 clubs on PostgreSQL (REGION_PG_URL,
# default postgres://club_ci:club_ci@127.0.0.1:5432/region_bench; the role makes <name>_1,
# <name>_100, <name>_1000; skipped, saying why, when it cannot be reached), per-request
# processor time and queries at each size, then gunicorn under locust at a Tuesday
# afternoon's mix. About 25 minutes on 2 cores; REGION_ARGS="--clubs 1,100" passes options.
# See bench/region_bench.py and docs/measurements.md.
region-bench: $(LOAD_STAMP)
	$(BIN)/python bench/region_bench.py $(REGION_ARGS)

$(LOAD_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,load]'
	touch $(LOAD_STAMP)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
