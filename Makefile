# unosim: every target installs what it needs into .venv by itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
WARMED := $(VENV)/.compiled

GAMES ?= 1000000
SEED  ?= 1
SCALE ?= 1

# report pages: reports/NAME.md (+ .html, figures in reports/NAME/) from analyses/NAME.py
ANALYSES    := seats length points stacking house-rules editions skill
PAGES       := $(ANALYSES:%=reports/%.md)
# the kernel's files, in every subpackage (unosim.kernel.kernel_sources lists the same)
KERNEL_SOURCES := $(shell find unosim/kernel -name '*.py' -not -path '*/__pycache__/*')
# what a page's numbers depend on (the simulation code and the report code)
REPORT_DEPS := analyses/common.py unosim/report/cache.py unosim/report/numbers.py \
               unosim/report/words.py unosim/report/page.py unosim/analysis/compare.py unosim/stats/__init__.py \
               unosim/report/figures.py unosim/report/palette.py unosim/report/findings.py \
               unosim/report/escape.py unosim/game/names.py \
               unosim/game/cards.py unosim/players/strategies.py unosim/game/rules.py unosim/sim/simulate.py \
               unosim/sim/results.py unosim/sim/match.py unosim/analysis/tournament.py unosim/analysis/tune.py \
               unosim/players/expert.py unosim/sim/assembled.py unosim/players/seats.py \
               unosim/sim/engine.py $(KERNEL_SOURCES)
SCALE_STAMP := results/reports/.scale

.PHONY: help install test test-all test-fast test-pythons bench bench-pair demo lint docs clean reports render atlas check-pages FORCE

help:  ## list the targets
	@grep -E '^[a-zA-Z_%-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{sub("%", "NAME", $$1); printf "  make %-12s %s\n", $$1, $$2}'

# installs into the venv with uv (itself from PyPI: some 3 times faster than pip on a fresh
# machine, 21 against 60 s with empty caches), or with pip where uv cannot be had
PIP = $$(test -x $(BIN)/uv && echo '$(BIN)/uv pip install --python $(BIN)/python' || echo '$(BIN)/pip install') --quiet

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv || $(BIN)/pip install --quiet --upgrade pip
	@echo "installing unosim and its test extras into $(VENV)..."
	@$(PIP) -e '.[test]'
	@$(BIN)/python tools/byte_compile.py
	touch $(STAMP)

# the kernels compiled into numba's cache, for the targets that run them; `make reports`
# needs only the install: it compiles them (or loads them) itself before its pages. The
# environments' BatchEnv (unosim.env.batch.warm, a layer above unosim.sim) compiles beside
# warm()'s two processes, three compiles on the cores
$(WARMED): $(STAMP)
	@echo "compiling the kernels into numba's cache (once; docs/performance.md says how long)..."
	$(BIN)/python -c "from unosim.env.batch import warm; warm()" & batch=$$!; \
	$(BIN)/python -c "from unosim.sim.simulate import warm; print(f'compiled in {warm():.0f} s')"; \
	core=$$?; wait $$batch && exit $$core
	touch $(WARMED)

install: $(WARMED)  ## create .venv, install unosim with its test extras and compile its kernels

# the suite runs on every core (pytest-xdist, at most 4 workers), one test file per worker
# at a time so that a file's shared set-up is built once; TEST_WORKERS=0 runs it in one process
TEST_WORKERS ?= auto
test: $(WARMED)  ## run the test suite on every core (the long runs marked slow excluded)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --maxprocesses 4 --dist loadfile --durations=15

test-all: $(WARMED)  ## run every test, the long ones marked slow too
	$(BIN)/python -m pytest -q -m '' -n $(TEST_WORKERS) --maxprocesses 4 --dist loadfile

# a useful subset in under a minute: rules, scenarios, statistics, layers, the CLI's
# errors, replays and the move checker's planted faults (not its 1,000-round sweep)
FAST_TESTS := tests/meta/test_layers.py tests/game/test_rules.py \
              tests/game/test_rule_declarations.py tests/scenarios/test_scenarios.py \
              tests/stats/test_stats.py tests/kernel/test_rng.py tests/sim/test_where.py \
              tests/sim/test_replay.py tests/verify/test_checker.py
FAST_SELECT := not passes_on and not every_traced_move
test-fast: $(WARMED)  ## a useful subset of the tests in under a minute
	$(BIN)/python -m pytest -q -p no:cacheprovider $(FAST_TESTS) -k '$(FAST_SELECT)'

# every Python the project claims, oldest and newest: its own venv each, the fast subset
PYTHONS ?= 3.10 3.13
PYENV   ?= /root/.pyenv/versions
test-pythons:  ## the fast subset under Python 3.10 and 3.13, each in .venv-VERSION
	@set -e; for v in $(PYTHONS); do \
	  py=$$(ls -d $(PYENV)/$$v.*/bin/python3 2>/dev/null | tail -1); \
	  [ -n "$$py" ] || py=$$(command -v python$$v) || { echo "no Python $$v found"; exit 1; }; \
	  if [ ! -f .venv-$$v/.installed ] || [ pyproject.toml -nt .venv-$$v/.installed ]; then \
	    $$py -m venv .venv-$$v && .venv-$$v/bin/pip install --quiet --upgrade pip && \
	    .venv-$$v/bin/pip install --quiet -e '.[test]' && touch .venv-$$v/.installed; fi; \
	  echo "== Python $$v: $$(.venv-$$v/bin/python --version)"; \
	  .venv-$$v/bin/python -m pytest -q -p no:cacheprovider $(FAST_TESTS) -k '$(FAST_SELECT)'; \
	done

bench: $(WARMED)  ## games/s and ns/turn: 1 thread, all cores, every preset; agent and environment decisions/s
	$(BIN)/python benchmarks/bench.py
	$(BIN)/python benchmarks/agents_bench.py
	$(BIN)/python benchmarks/env_bench.py

BASE  ?= 4e3cfb5
PAIR_RULES ?= presets
bench-pair: $(WARMED)  ## this tree against commit BASE: every preset (PAIR_RULES='official;copag' for some), random players, 1 thread, alternated runs
	$(BIN)/python benchmarks/pair.py --base $(BASE) --rules '$(PAIR_RULES)' --games 100000

demo: $(WARMED)  ## simulate GAMES official 4-player rounds and print the summary
	$(BIN)/unosim simulate --rules official --players 4 --games $(GAMES) --seed $(SEED) --out results/official.parquet

LINTED := unosim tests benchmarks analyses tools
lint: $(STAMP)  ## ruff check and ruff format --check, and mypy's type check of unosim/ (pyproject.toml)
	$(PIP) 'ruff>=0.6' 'mypy>=1.10' pandas-stubs  # the `lint` extra
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/mypy

docs: $(STAMP)  ## the docs site from docs/ into site/ (mkdocs-material, API pages from docstrings)
	NO_MKDOCS_2_WARNING=1 $(BIN)/python -m mkdocs build --strict --site-dir site

clean:  ## remove the venvs, numba caches, results and the docs site
	rm -rf $(VENV) .venv-3.* results site .pytest_cache .mypy_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

# the pages out of date, one process each with one numba thread, REPORT_JOBS steps at once
# (default: one a core), each page once the kernels it runs are compiled, in two steps
# side by side (analyses/make_reports.py)
REPORT_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
reports: $(STAMP)  ## build every report page and the index in reports/, with progress (SCALE=10: ten times the games)
	@$(BIN)/python analyses/make_reports.py --make '$(MAKE)' --scale '$(SCALE)' --jobs '$(REPORT_JOBS)'

# after a change of words or figures only: every split page from its stored results
# (results/reports/pages/, written by its last full build at this SCALE), in seconds
render: $(STAMP)  ## render every report page again from its stored results, simulating nothing (after rewording)
	$(BIN)/python analyses/build_reports.py --render-only --scale '$(SCALE)'

ATLAS_PLAYERS ?= 2-10
# the full grid (SCALE=1: 20,000 rounds a cell for random players, 2,000 for table
# players) took 146 minutes of group builds on 2 cores shared with other work (load 4-5);
# Masters of the Universe with random players at 5-10 players was 47% of it (rounds of
# 500-1,400 turns); it resumes where it stopped
atlas: $(WARMED)  ## the rules atlas reports/atlas.html: simulates the grid into results/atlas/ (resumable; SCALE=0.02 for a quick one), then writes the page and its data
	$(PIP) altair vl-convert-python
	$(BIN)/python analyses/atlas.py --scale $(SCALE) --players $(ATLAS_PLAYERS)

CHROMIUM ?= /usr/bin/chromium
CHECK_FLAGS ?= --first-screen-figure  # a page whose first screen shows no figure fails

check-pages: $(WARMED)  ## render every HTML page of reports/ and a sample `unosim report` page in headless Chromium (installed if missing): fails on an image that does not load or a page error; clicks through the rules atlas and its permalinks, checking its numbers against its data; screenshots in results/screens/
	@test -x $(CHROMIUM) || { apt-get update && apt-get install -y chromium; }
	$(BIN)/python tools/check_pages.py --sample --atlas --chromium $(CHROMIUM) $(CHECK_FLAGS)

report-%: reports/%.md  ## build one page: make report-seats (length, points, stacking, house-rules, editions, skill)
	@:

# a page is rebuilt when its script, the code behind it or SCALE changes; simulations
# are cached in results/reports/, so a rebuild reruns only what changed
.SECONDEXPANSION:
$(PAGES): reports/%.md: analyses/$$(subst -,_,$$*).py $(REPORT_DEPS) $(SCALE_STAMP) | $(STAMP)
	$(BIN)/python analyses/$(subst -,_,$*).py --scale $(SCALE)

reports/skill.md: analyses/expert_skill.py analyses/skill_tuning.py analyses/data/skill-tunings.json

# rewritten only when SCALE differs from the last build's
$(SCALE_STAMP): FORCE
	@mkdir -p $(@D); echo '$(SCALE)' | cmp -s - $@ || echo '$(SCALE)' > $@

FORCE:
