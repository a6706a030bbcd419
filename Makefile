# Paiju: `make run` plays on the embedded default; `make test` runs the whole suite.
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test lint format type bench

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(VENV)/bin/paiju serve --demo

test: install
	$(PY) -m pytest -n 3 --durations=15

lint: install
	$(VENV)/bin/ruff check services events workers tests benchmarks
	$(VENV)/bin/ruff format --check services/rules events

format: install
	$(VENV)/bin/ruff format services/rules events
	$(VENV)/bin/ruff check --fix services events workers tests benchmarks

type: install
	$(VENV)/bin/mypy services/rules events

bench: install
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) benchmarks/bench_analysis.py
	$(PY) benchmarks/bench_simulate.py
	$(PY) benchmarks/bench_store.py
	$(PY) benchmarks/bench_table_load.py
