# unosim: every target installs what it needs into .venv by itself.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

GAMES ?= 1000000
SEED  ?= 1
SCALE ?= 1

# report pages: reports/NAME.md (+ .html, figures in reports/NAME/) from analyses/NAME.py
ANALYSES    := seats length points stacking house-rules editions skill
PAGES       := $(ANALYSES:%=reports/%.md)
# what a page's numbers depend on (the simulation code and the report code)
REPORT_DEPS := analyses/common.py unosim/report/page.py unosim/analysis/compare.py unosim/stats/__init__.py \
               unosim/report/figures.py unosim/report/palette.py unosim/report/findings.py \
               unosim/game/cards.py unosim/players/strategies.py unosim/game/rules.py unosim/sim/simulate.py \
               unosim/sim/results.py unosim/sim/match.py unosim/analysis/tournament.py unosim/analysis/tune.py \
               unosim/players/expert.py unosim/sim/assembled.py unosim/players/seats.py \
               unosim/sim/engine.py $(wildcard unosim/kernel/*.py)
SCALE_STAMP := results/reports/.scale

.PHONY: help install test test-all bench bench-pair demo lint clean reports check-pages FORCE

help:  ## list the targets
	@grep -E '^[a-zA-Z_%-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{sub("%", "NAME", $$1); printf "  make %-12s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	@echo "compiling the kernels into numba's cache (once, about a minute)..."
	$(BIN)/python -c "from unosim.sim.simulate import warm; print(f'compiled in {warm():.0f} s')"
	touch $(STAMP)

install: $(STAMP)  ## create .venv and install unosim with its test extras

test: $(STAMP)  ## run the test suite (slow statistical runs excluded)
	$(BIN)/python -m pytest -q

test-all: $(STAMP)  ## run every test, the slow statistical ones too
	$(BIN)/python -m pytest -q -m ''

bench: $(STAMP)  ## games/s and ns/turn: 1 thread, all cores, every preset
	$(BIN)/python benchmarks/bench.py

BASE  ?= 4e3cfb5
bench-pair: $(STAMP)  ## this tree against commit BASE: official/random, 1 thread, alternated runs
	$(BIN)/python benchmarks/pair.py --base $(BASE)

demo: $(STAMP)  ## simulate GAMES official 4-player rounds and print the summary
	$(BIN)/unosim simulate --rules official --players 4 --games $(GAMES) --seed $(SEED) --out results/official.parquet

lint: $(STAMP)  ## ruff (pyflakes rules)
	$(BIN)/pip install --quiet ruff && $(BIN)/ruff check --select F unosim tests benchmarks analyses tools

clean:  ## remove the venv, numba caches and results
	rm -rf $(VENV) results .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

reports: $(PAGES)  ## build every report page and the index in reports/ (SCALE=10: ten times the games)
	$(BIN)/python analyses/build_reports.py --index

CHROMIUM ?= /usr/bin/chromium
CHECK_FLAGS ?= --first-screen-figure  # a page whose first screen shows no figure fails

check-pages: $(STAMP)  ## render every HTML page of reports/ and a sample `unosim report` page in headless Chromium (installed if missing): fails on an image that does not load or a page error; first-screen screenshots in results/screens/
	@test -x $(CHROMIUM) || { apt-get update && apt-get install -y chromium; }
	$(BIN)/python tools/check_pages.py --sample --chromium $(CHROMIUM) $(CHECK_FLAGS)

report-%: reports/%.md  ## build one page: make report-seats (length, points, stacking, house-rules, editions, skill)
	@:

# a page is rebuilt when its script, the code behind it or SCALE changes; simulations
# are cached in results/reports/, so a rebuild reruns only what changed
.SECONDEXPANSION:
$(PAGES): reports/%.md: analyses/$$(subst -,_,$$*).py $(REPORT_DEPS) $(SCALE_STAMP) | $(STAMP)
	$(BIN)/python analyses/$(subst -,_,$*).py --scale $(SCALE)

reports/skill.md: analyses/expert_skill.py

# rewritten only when SCALE differs from the last build's
$(SCALE_STAMP): FORCE
	@mkdir -p $(@D); echo '$(SCALE)' | cmp -s - $@ || echo '$(SCALE)' > $@

FORCE:
