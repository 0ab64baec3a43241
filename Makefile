# unosim: every target installs what it needs into .venv by itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

GAMES ?= 1000000
SEED  ?= 1

.PHONY: help install test test-all bench demo lint clean

help:  ## list the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install unosim with its test extras

test: $(STAMP)  ## run the test suite (slow statistical runs excluded)
	$(BIN)/python -m pytest -q

test-all: $(STAMP)  ## run every test, the slow statistical ones too
	$(BIN)/python -m pytest -q -m ''

bench: $(STAMP)  ## games/s and ns/turn: 1 thread, all cores, every preset
	$(BIN)/python benchmarks/bench.py

demo: $(STAMP)  ## simulate GAMES official 4-player rounds and print the summary
	$(BIN)/unosim simulate --rules official --players 4 --games $(GAMES) --seed $(SEED) --out results/official.parquet

lint: $(STAMP)  ## ruff (pyflakes rules)
	$(BIN)/pip install --quiet ruff && $(BIN)/ruff check --select F unosim tests benchmarks analyses

clean:  ## remove the venv, numba caches and results
	rm -rf $(VENV) results .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
