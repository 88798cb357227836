# Scorekeeper — developer entry points.
#
#   make run          set up .venv if needed, then run the app ($(RUN_CMD))
#   make test         set up .venv if needed, then the whole test suite with `make lint` beside it
#   make test-fast    the inner loop: no browser tests, no slow tests, no lint
#   make lint         ruff (lint and format check) and mypy (--strict on the core)
#   make bench        set up .venv if needed, then a micro-benchmark: the engine's, or
#                     BENCH=store, events, stats or drawing (docs/benchmarks.md)
#   make capacity     how many tables at a club's pace one laptop holds (tools/loadtest/capacity.py)
#   make site         build the phone's static site into $(SITE) (docs/phone.md)
#   make screenshots  regenerate screenshots/*.png from the real app in Chromium
#   make clean        remove the venv and build/test leftovers
#
# The venv is (re)built when it is missing or pyproject.toml is newer than
# its stamp file. Override the interpreter with `make PYTHON=python3.12 ...`.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.stamp

# What `make run` starts: the app served for the phones at the table
# (http://<this machine>:8550/; it prints the join address, the table code and
# a QR code), opened in this machine's browser when there is a display.
RUN_CMD ?= $(BIN)/scorekeeper web --browser

VENV_HINT := error: '$(PYTHON) -m venv' is unusable (no ensurepip). On Debian/Ubuntu run: sudo apt-get install python3-venv

# The core is type-checked with mypy --strict; the UI and the command line in mypy's default mode.
# tools/strict_paths.py prints the core: every game package of the registry's BUILTIN (a new game
# is checked strictly from its one line there) and the modules every game stands on.
STRICT = $(shell $(BIN)/python -m tools.strict_paths)

.PHONY: run test test-fast lint bench capacity site screenshots venv clean

run: $(STAMP)
	$(RUN_CMD)

# pytest exits 5 when it collects no tests: that fails, as every other non-zero status does.
# The tests run in $(JOBS) processes (pytest-xdist), one test file to a process at a time:
# one more process than a 2-core machine has cores keeps both busy while a browser test waits
# on its page; more only queue for the CPU (the runs compared: docs/benchmarks.md).
# `make lint` runs beside the tests (its output is printed after theirs; either failing fails
# the target): mypy uses one core, in what the browser tests leave of the machine.
# The league's tests (tests/league/) run over a real PostgreSQL: $(DATABASE_URL) when it is set,
# else one throwaway cluster the tests start themselves (Debian's postgresql: initdb in a
# temporary folder, as nobody when run as root) and stop at the end; and over SQLite.
# The app's bytecode is compiled once first: every test process that starts Python (servers,
# the command line, the store's crash children) then reads it instead of compiling the app
# again, which it would where PYTHONDONTWRITEBYTECODE is set. So are the test modules with
# their asserts rewritten, in pytest's own cache (tools/warm_asserts.py): each test process
# rewrote every one of them again before its first test (28 CPU-seconds more, 2026-11-29).
# The test files are handed out costliest first (tests/costs.py), so that no long browser
# test file starts near the end while the other processes have nothing left to do.
# A test process that crashes (a segmentation fault) fails the run at once, naming the test
# (--max-worker-restart 0): pytest-xdist 3.8 with --dist loadfile, left to start a new
# process instead, waited for it forever, and CI stopped the run at its time limit.
JOBS ?= 3
LINT_LOG := $(VENV)/lint.log
test: $(STAMP)
	@$(BIN)/python -m compileall -q -j 0 scorekeeper > /dev/null
	@$(MAKE) --no-print-directory lint > $(LINT_LOG) 2>&1 & lint=$$!; \
	$(BIN)/python -m tools.warm_asserts; \
	$(BIN)/python -m pytest -n $(JOBS) --dist loadfile --max-worker-restart 0; tests=$$?; \
	wait $$lint; linted=$$?; \
	echo "=== make lint (ran beside the tests) ==="; cat $(LINT_LOG); \
	if [ $$linted -ne 0 ]; then echo "make: lint FAILED"; fi; \
	[ $$tests -eq 0 ] && [ $$linted -eq 0 ]

test-fast: $(STAMP)
	$(BIN)/python -m pytest -m "not browser and not slow"

# The two mypy runs keep a cache each: mypy checks a module again whenever the options it was
# cached with differ, so with one cache the strict run and the default one threw each other's
# away and both checked everything at every `make lint` (9.4 CPU-seconds against 0.5 with a
# cache each, 2026-11-29).
lint: $(STAMP)
	$(BIN)/ruff check scorekeeper tests tools benchmarks
	$(BIN)/ruff format --check scorekeeper tests tools benchmarks
	$(BIN)/mypy --strict --cache-dir .mypy_cache/strict $(STRICT)
	$(BIN)/mypy scorekeeper

# The benchmarks are a package run from here (python -m benchmarks.NAME): nothing edits sys.path.
BENCH ?= engine
bench: $(STAMP)
	$(BIN)/python -m benchmarks.$(BENCH)

# Tables of four phones and a wall at one entry per table every 3 s, T = 1, 4, 8, ... until the
# p95 to the other phones passes 250 ms (docs/benchmarks.md); CAPACITY="--tables 1,4,8 --seconds 30" to keep it short.
CAPACITY ?=
capacity: $(STAMP)
	$(BIN)/python -m tools.loadtest.capacity $(CAPACITY)

# The phone's site (scorekeeper site): a folder any web server can serve; see docs/phone.md.
SITE ?= build/site
site: $(STAMP)
	$(BIN)/scorekeeper site $(SITE)

screenshots: $(STAMP)
	$(BIN)/python -m tools.screenshots --out screenshots

venv: $(STAMP)

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null || { echo "error: $(PYTHON) not found; install Python >= 3.11 or pass PYTHON=..."; exit 1; }
	@# Debian ships venv without ensurepip unless python3-venv is installed.
	@if ! $(PYTHON) -c 'import ensurepip' 2>/dev/null; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "make: installing python3-venv (running as root)"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null; \
		fi; \
		$(PYTHON) -c 'import ensurepip' 2>/dev/null || { echo "$(VENV_HINT)"; exit 1; }; \
	fi
	@# A half-made venv (e.g. from an earlier failed attempt) is rebuilt.
	@if [ ! -x $(BIN)/pip ]; then rm -rf $(VENV) && $(PYTHON) -m venv $(VENV); fi
	@echo "make: installing scorekeeper-table (editable) with the test extra into $(VENV)"
	@# Before 1.0.0 the distribution was named "scorekeeper" (another project's name on the
	@# package index): a venv made then has it too, and loses it here.
	@$(BIN)/python -m pip uninstall --yes --quiet scorekeeper > /dev/null 2>&1 || true
	@# The project is installed with uv (an installer from the same index, put in the venv by pip):
	@# it takes a fraction of pip's time, as pip weighs every file of every release on each index.
	@# Either way every module is compiled to bytecode. If uv cannot be had, pip does it all.
	@if $(BIN)/python -m pip install --quiet uv && \
		$(BIN)/uv pip install --quiet --python $(BIN)/python --compile-bytecode -e '.[test]'; then :; \
	else \
		echo "make: uv could not be had or could not install here: installing with pip instead"; \
		$(BIN)/python -m pip install --quiet -e '.[test]'; \
	fi
	@touch $(STAMP)

clean:
	rm -rf $(VENV) build dist .pytest_cache .hypothesis .bench *.egg-info
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
