# tokaido-sim: `make run` sets up and runs the default balance study; `make test` checks everything.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RESULTS := results

.PHONY: run test test-slow check lint typecheck pytest bench playthroughs clean env

env: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The default balance study (base game, 2-5 players, expert bots, random and drafted Travelers), its report and plots.
run: $(STAMP)
	$(BIN)/tokaido-sim study studies/default.toml --out $(RESULTS)/default --resume
	$(BIN)/tokaido-sim report $(RESULTS)/default --out $(RESULTS)/report
	$(BIN)/tokaido-sim plot $(RESULTS)/default --out $(RESULTS)/plots
	@echo "report: $(RESULTS)/report/report.md   plots: $(RESULTS)/plots/"

lint: $(STAMP)
	$(BIN)/ruff check sim kernels analysis tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy sim analysis

pytest: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q -m "not slow"

# The long conformance runs (tens of thousands of refereed games); CI runs them before make test.
test-slow: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q -m slow

test: lint typecheck pytest

# Rule-change regression checks (docs/ci.md): golden games, then the balance against committed baselines.
check: $(STAMP)
	$(BIN)/tokaido-sim check golden
	$(BIN)/tokaido-sim check stats --baseline results/baselines/base-4p-greedy.json --games 100000
	$(BIN)/tokaido-sim check stats --baseline results/baselines/base-3p-greedy.json --games 100000

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py

playthroughs: $(STAMP)
	$(BIN)/tokaido-sim playthroughs

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
