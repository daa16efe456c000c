# Hardpoint: `make run` serves the app, `make test` runs every test; both set up from a fresh clone.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1:8000

.PHONY: setup run test bench system-deps clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[test]"
	touch $(STAMP)

setup: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_catalogue

run: setup
	$(PY) manage.py runserver $(HOST)

# Browser tests need Debian's chromium, PDF checks need poppler's pdftotext.
system-deps:
	sh .ci/system-deps

test: system-deps setup
	$(PY) -m pytest

bench: setup
	$(PY) -m bench

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache
