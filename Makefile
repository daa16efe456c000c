# Hardpoint: `make run` serves the app, `make test` runs every test; both set up from a fresh clone.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1:8000
WORKERS ?= 3
# Development targets run with DEBUG on; `make serve` and `make worker` run as production does, with SECRET_KEY
# from the environment or else from .secret-key (which `make serve` makes once; not committed).
DEV    := DEBUG=1
PROD   := SECRET_KEY="$${SECRET_KEY:-$$(cat .secret-key)}" DEBUG=0
# `A $(ALONGSIDE) B` runs A in the background while B runs, and stops A when B stops (Ctrl-C included): how the
# task worker runs beside the server.
ALONGSIDE := & trap 'kill $$! 2>/dev/null' EXIT INT TERM;

.PHONY: setup run serve worker test bench system-deps clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

setup: $(STAMP)
	$(DEV) $(PY) manage.py migrate --noinput
	$(DEV) $(PY) manage.py load_catalogue

run: setup
	$(DEV) $(PY) manage.py db_worker $(ALONGSIDE) $(DEV) $(PY) manage.py runserver $(HOST)

# gunicorn with several workers, DEBUG off, static files through WhiteNoise, the database from DATABASE_URL.
# Without SECRET_KEY in the environment a key is made once and kept in .secret-key (not committed).
serve: $(STAMP)
	@test -n "$$SECRET_KEY" -o -s .secret-key || (umask 077; $(PY) -c "import secrets; print(secrets.token_urlsafe(50))" > .secret-key)
	$(PROD) $(PY) manage.py migrate --noinput
	$(PROD) $(PY) manage.py load_catalogue
	$(PROD) $(PY) manage.py collectstatic --noinput -v 0
	$(PROD) $(PY) manage.py db_worker $(ALONGSIDE) $(PROD) $(VENV)/bin/gunicorn builder.wsgi \
		--bind $(HOST) --workers $(WORKERS) --access-logfile - --error-logfile -

# One more task worker, on this machine or another one with the same settings (DATABASE_URL, SECRET_KEY).
worker: $(STAMP)
	$(PROD) $(PY) manage.py db_worker

# Browser tests need Debian's chromium, PDF checks need poppler's pdftotext.
system-deps:
	sh .ci/system-deps

# The concurrency and multi-node tests run against a throwaway PostgreSQL and Redis that .ci/postgres and .ci/redis
# start (Debian's packages); then the bad-input suites run again with PostgreSQL as the database, which refuses what
# SQLite lets through (NUL characters, values longer than their column).
BAD_INPUT := tests/web/test_bounded_input.py tests/web/test_fuzz.py tests/web/test_fuzz_surfaces.py \
	tests/web/test_hardening.py tests/web/test_security.py tests/web/test_user_packs.py tests/web/test_pack_links.py
test: system-deps setup
	PG="$$(sh .ci/postgres)"; REDIS="$$(sh .ci/redis)"; TEST_POSTGRES_URL="$$PG" TEST_REDIS_URL="$$REDIS" $(PY) -m pytest && \
	if [ -n "$$PG" ]; then DATABASE_URL="$$PG" $(PY) -m pytest -p no:cacheprovider $(BAD_INPUT); fi

# Two nodes against one need the same throwaway PostgreSQL and Redis as the tests.
bench: setup system-deps
	TEST_POSTGRES_URL="$$(sh .ci/postgres)" TEST_REDIS_URL="$$(sh .ci/redis)" $(PY) -m bench

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
