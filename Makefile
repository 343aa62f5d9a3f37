# Two commands matter on a fresh clone: `make run` and `make test` (see README.md).
# Everything lives in .venv; the stamp file re-installs when pyproject.toml changes.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PORT   ?= 8000
# The landing page's one-click "Try it as the GM / alice / bob" (README, "Demo logins"); a
# development server has the demo users. `make run DEMO_LOGINS=0` turns the buttons off.
DEMO_LOGINS ?= 1

.PHONY: api-check vendor-js run test lint format migrations-check screenshots bench bench-rules bench-click bench-roll-path bench-http bench-log bench-log-scale bench-abandoned bench-sse bench-delivery bench-dashboard bench-instructions clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else "Poolside needs Python 3.12 or newer; set PYTHON=/path/to/python3.12")'
	@echo "==> Creating the virtual environment in $(VENV)/"
	$(PYTHON) -m venv $(VENV)
	@echo "==> Installing Poolside and its dependencies: a minute or a few the first time; pip names each package as it goes"
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --progress-bar on -e ".[dev]"
	@touch $(STAMP)
	@echo "==> Installed."

# The server, as `make run` starts it.
# --no-proxy-headers: uvicorn would otherwise take the client's address from X-Forwarded-For sent
# from 127.0.0.1, which any local client can forge; Poolside reads forwarded headers itself, only as
# PROXY_COUNT and BEHIND_HTTPS_PROXY allow (tests/live_servers.py serves with these same options,
# read from the next line). --lifespan off: Django's ASGI handler has no startup/shutdown hooks,
# and uvicorn's "auto" would print "ASGI 'lifespan' protocol appears unsupported" at every start.
SERVE = $(BIN)/uvicorn config.asgi:application --host 127.0.0.1 --port $(PORT) --no-proxy-headers --lifespan off
# The background worker that sends webhooks (django.tasks with django-tasks-db, docs/webhooks.md).
WORKER = $(BIN)/python manage.py db_worker --no-reload

# Migrate, create the rate-limit cache table (idempotent), load the demo data (idempotent), collect
# static files for WhiteNoise, then serve over ASGI with the task worker beside the server. Both
# run in the background of one shell that waits for the server: Ctrl-C (or a TERM/HUP to that
# shell) stops both, and when the server stops for any reason the worker is stopped with it.
run: $(STAMP)
	@echo "==> Migrating the database"
	@$(BIN)/python manage.py migrate --noinput
	@$(BIN)/python manage.py createcachetable
	@echo "==> Loading the demo data"
	@PORT=$(PORT) $(BIN)/python manage.py demo
	@$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@echo "==> Serving on http://127.0.0.1:$(PORT)/ (Ctrl-C stops the server and its task worker)"
	@$(WORKER) & worker=$$!; \
	DEMO_LOGINS=$(DEMO_LOGINS) $(SERVE) & server=$$!; \
	trap 'kill $$server $$worker 2>/dev/null' INT TERM HUP; \
	wait $$server; status=$$?; \
	kill $$server $$worker 2>/dev/null; wait $$server $$worker 2>/dev/null; exit $$status

# The page checkers the browser tests run (package.json: axe-core, the Nu HTML checker). Without
# npm they skip with a message; CI=true makes them mandatory. --ignore-scripts: vnu-jar's install
# script would fetch a Java runtime; the checker runs on the machine's own Java.
CHECKERS := node_modules/.installed

$(CHECKERS): package.json package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
		npm ci --no-audit --no-fund --ignore-scripts --loglevel=error && touch $@; \
	else echo "NOTE: no npm; the accessibility and HTML checks will skip (mandatory under CI=true)."; fi

# The browser's dice verifier (static/js/verify-dice.js) imports one committed bundle of the pinned
# @noble packages, so the app serves it without node and fetches nothing at run time. Rebuild it
# after changing their versions in package.json (static/vendor/README.md); the same node_modules
# give the same bytes.
vendor-js: $(CHECKERS)
	node vendor-src/build.mjs

# The suite on one pytest-xdist worker per CPU; each worker has its own test database, live
# channels and servers (tests/README.md, "In parallel"). `make test TEST_WORKERS=0` runs it in one
# process, as `.venv/bin/pytest` does. worksteal: a worker that runs out takes tests from the other,
# so the few long tests (the page checkers) don't leave one worker running alone at the end.
TEST_WORKERS ?= logical

test: $(STAMP) $(CHECKERS)
	$(BIN)/pytest -n $(TEST_WORKERS) --dist worksteal

# mypy reads its settings (apps checked, django-stubs plugin, strict rules) from pyproject.toml.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo --no-cache

# Schemathesis against /api/v1/openapi.json on a throwaway demo database (tests/api_schema_check.py):
# no 5xx, every answer as the schema describes it.
api-check: $(STAMP)
	$(BIN)/python tests/api_schema_check.py

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

migrations-check: $(STAMP)
	$(BIN)/python manage.py makemigrations --check --dry-run

# The PNGs in docs/screenshots/ (a throwaway demo database, uvicorn, Debian's Chromium).
screenshots: $(STAMP)
	$(BIN)/python docs/screenshots/shoot.py

# Every benchmark in one go (docs/performance.md); a missed target doesn't stop the others, but
# makes `make bench` fail at the end. The PostgreSQL ones use BENCH_DATABASE_URL and skip without it;
# the click benchmark also needs Debian's Chromium (/usr/bin/chromium) and skips without it.
BENCHMARKS := rules_odds click roll_path http_rolls log_page log_scale abandoned sse_fanout live_delivery dashboard

bench: $(STAMP)
	@status=0; for b in $(BENCHMARKS); do echo; echo "== benchmarks/$$b.py"; \
		$(BIN)/python benchmarks/$$b.py || status=1; done; exit $$status

bench-rules: $(STAMP)
	$(BIN)/python benchmarks/rules_odds.py

# One Roll click as Chromium makes it, with the table's pages open (benchmarks/click.py).
bench-click: $(STAMP)
	$(BIN)/python benchmarks/click.py

bench-roll-path: $(STAMP)
	$(BIN)/python benchmarks/roll_path.py

bench-http: $(STAMP)
	$(BIN)/python benchmarks/http_rolls.py

bench-log: $(STAMP)
	$(BIN)/python benchmarks/log_page.py

bench-log-scale: $(STAMP)
	$(BIN)/python benchmarks/log_scale.py

# Four abandoned 1M exports: how soon a bare view's throughput is back (benchmarks/abandoned.py).
bench-abandoned: $(STAMP)
	$(BIN)/python benchmarks/abandoned.py

bench-sse: $(STAMP)
	$(BIN)/python benchmarks/sse_fanout.py

# Exactly once, in order: 2 workers, 50 streams, 600 rolls at once, on NOTIFY and on Redis.
bench-delivery: $(STAMP)
	$(BIN)/python benchmarks/live_delivery.py

bench-dashboard: $(STAMP)
	$(BIN)/python benchmarks/dashboard.py

# Not in `make bench`: no target, only a count that doesn't swing with the machine (valgrind).
bench-instructions: $(STAMP)
	$(BIN)/python benchmarks/instructions.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache
