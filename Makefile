# Paiju: `make run` plays on the embedded default; `make test` runs the whole suite,
# `make test-engine` the engine's tests that need no database; `make mutate [MODULE=path.py]`
# mutation-tests the engine (docs/testing.md; not part of CI); `make faults` runs the fault loops
# at the full size docs/faults.md reports (by hand, as the benchmarks: `make test` runs them short).
VENV ?= .venv
PYTHON ?= python3
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

MUTATE_STAMP := $(VENV)/.mutate-installed
TYPES := clients/typescript
TYPES_STAMP := $(TYPES)/node_modules/.installed
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: install run test test-engine faults mutate mutate-report lint format type bench client-types

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,dev]'
	touch $(STAMP)

install: $(STAMP)

# openapi-typescript (and the tsc it brings), pinned by the lock file: tests/client compare
# the checked-in TypeScript types with what it makes of the live document
$(TYPES_STAMP): $(TYPES)/package-lock.json
	npm ci --prefix $(TYPES) --no-audit --no-fund --loglevel=error
	touch $(TYPES_STAMP)

# after a change to the API: the OpenAPI document and the TypeScript types made from it, again
client-types: install $(TYPES_STAMP)
	$(VENV)/bin/paiju api --openapi > clients/openapi.json
	$(TYPES)/node_modules/.bin/openapi-typescript clients/openapi.json -o $(TYPES)/paiju-api.d.ts

run: install
	$(VENV)/bin/paiju serve --demo

# Where PYTHONDONTWRITEBYTECODE is set (this machine sets it) pytest keeps no rewritten test
# modules, and each of the four processes spent 10 s of CPU rewriting every assert again; one
# collection first fills the cache (its errors, if any, are reported by the run itself).
test: install $(TYPES_STAMP)
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest --collect-only -qq > /dev/null || true
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -n 5 --dist loadfile --no-loadscope-reorder --durations=15

# the fault tests, their loops at full size (tests/fault_scale.py): 30 tests, 3:17 on this box
FAULT_TESTS := tests/faults tests/projections/test_projector_faults.py tests/effects/test_webhook_outage.py \
	tests/effects/test_webhook_kill.py tests/effects/test_webhook_kill_celery.py
faults: install
	PAIJU_FAULTS=full $(PY) -m pytest -n 4 --dist loadfile --durations=15 -s $(FAULT_TESTS)

# the fast tier: rules, table, bots, the event types and chain (mutation/tests.toml), no database;
# only the plugins it needs are loaded (schemathesis and the rest cost seconds per process)
test-engine: install
	PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 $(PY) -m pytest -n 2 -p xdist.plugin -p _hypothesis_pytestplugin \
	  -p no:cacheprovider $$($(PY) -m mutation fast-tier)

$(MUTATE_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install --quiet -e '.[test,dev,mutate]'
	touch $(MUTATE_STAMP)

# MODULE=services/rules/kadang.py (one or more; default: all in scope), JOBS=N workers,
# RETRY=survivors to run a module's survivors again, RERUN=1 to run modules whose kept results
# (mutation/results/) match their source; resumes an interrupted run
mutate: $(MUTATE_STAMP)
	$(PY) -m mutation run --jobs $(JOBS) $(foreach m,$(MODULE),--module $(m)) $(if $(RETRY),--retry $(RETRY)) $(if $(RERUN),--rerun)

mutate-report: $(MUTATE_STAMP)
	$(PY) -m mutation report

lint: install
	$(VENV)/bin/ruff check services events workers readmodels ops tests benchmarks
	$(VENV)/bin/lint-imports
	$(VENV)/bin/ruff format --check services/rules events

format: install
	$(VENV)/bin/ruff format services/rules events
	$(VENV)/bin/ruff check --fix services events workers readmodels ops tests benchmarks

type: install
	$(VENV)/bin/mypy services/rules events

bench: install
	$(PY) -m pip install --quiet -e '.[bench]'
	$(PY) benchmarks/bench_analysis.py
	$(PY) benchmarks/bench_simulate.py
	$(PY) benchmarks/bench_store.py
	$(PY) benchmarks/bench_table_load.py
