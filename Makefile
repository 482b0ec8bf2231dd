# tokaido-sim: `make run` sets up and runs the default balance study; `make test` checks everything.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RESULTS := results

.PHONY: run test test-slow check lint typecheck pytest bench playthroughs clean env browser

env: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The default balance study (expert bots: each Traveler's strength, random and drafted, 2-5 players; Gastronomy
# and Preparations, 3-5 players; Crossroads, Crossroads + Matsuri, the promos) and its report, plots inline.
run: $(STAMP)
	$(BIN)/tokaido-sim study studies/default.toml --out $(RESULTS)/default --resume
	$(BIN)/tokaido-sim report $(RESULTS)/default --out $(RESULTS)/report
	@echo "report: $(RESULTS)/report/report.md, the same as one page: $(RESULTS)/report/report.html"

lint: $(STAMP)
	$(BIN)/ruff format --check sim kernels analysis tests benchmarks
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

# A headless browser for the test that opens the report's HTML page (Debian's chromium; as root or with sudo).
# Without one that test is skipped, saying so.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; elif command -v sudo >/dev/null 2>&1; then SUDO=sudo; else \
	    echo "no chromium, and no root or sudo to install it: the browser test will be skipped"; exit 0; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; }

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
