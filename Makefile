# Hardpoint: `make run` serves the app, `make test` runs every test; both set up from a fresh clone.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1:8000
WORKERS ?= 3
# Development targets run with DEBUG on; `make serve` runs as production does.
DEV    := DEBUG=1

.PHONY: setup run serve test bench system-deps clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

setup: $(STAMP)
	$(DEV) $(PY) manage.py migrate --noinput
	$(DEV) $(PY) manage.py load_catalogue

run: setup
	$(DEV) $(PY) manage.py runserver $(HOST)

# gunicorn with several workers, DEBUG off, static files through WhiteNoise, the database from DATABASE_URL.
# Without SECRET_KEY in the environment a key is made once and kept in .secret-key (not committed).
serve: $(STAMP)
	@test -n "$$SECRET_KEY" -o -s .secret-key || (umask 077; $(PY) -c "import secrets; print(secrets.token_urlsafe(50))" > .secret-key)
	SECRET_KEY="$${SECRET_KEY:-$$(cat .secret-key)}" $(PY) manage.py migrate --noinput
	SECRET_KEY="$${SECRET_KEY:-$$(cat .secret-key)}" $(PY) manage.py load_catalogue
	SECRET_KEY="$${SECRET_KEY:-$$(cat .secret-key)}" $(PY) manage.py collectstatic --noinput -v 0
	SECRET_KEY="$${SECRET_KEY:-$$(cat .secret-key)}" DEBUG=0 $(VENV)/bin/gunicorn builder.wsgi \
		--bind $(HOST) --workers $(WORKERS) --access-logfile - --error-logfile -

# Browser tests need Debian's chromium, PDF checks need poppler's pdftotext.
system-deps:
	sh .ci/system-deps

# The concurrency tests run against a throwaway PostgreSQL that .ci/postgres starts (Debian's package).
test: system-deps setup
	TEST_POSTGRES_URL="$$(sh .ci/postgres)" $(PY) -m pytest

bench: setup
	$(DEV) $(PY) -m bench

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
