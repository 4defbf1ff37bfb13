# Two commands a newcomer needs: `make demo` and `make test`.
#
# Both install exactly the versions in uv.lock (the versions the tests passed with), whatever the
# registry serves that day; pyproject.toml keeps the ranges a `pip install` user gets.
# `make test-latest` (not in CI) installs the newest versions those ranges allow, in a venv of its
# own, and runs the suite there: the next breaking release is found by us, not by a user.
# `make lock` updates uv.lock to the newest allowed versions (then run `make test`).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LATEST := .venv-latest
# uv reads and writes uv.lock; pinned so that every machine reads the lock the same way.
UV_VERSION := 0.13.9
UV = UV_PROJECT_ENVIRONMENT=$(VENV) $(BIN)/python -m uv

.PHONY: demo test test-latest lint bench clean tools lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet "uv==$(UV_VERSION)"

# --inexact: keep uv itself (and the other extra's packages) in the venv
$(VENV)/.installed-demo: pyproject.toml uv.lock | $(BIN)/python
	$(UV) sync --quiet --locked --inexact --extra plot
	touch $@

$(VENV)/.installed-test: pyproject.toml uv.lock | $(BIN)/python
	$(UV) sync --quiet --locked --inexact --extra test --extra plot
	touch $@ $(VENV)/.installed-demo

demo: $(VENV)/.installed-demo
	$(BIN)/parsescore demo --out demo-report

lint: $(VENV)/.installed-test
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/mypy

# Real components the tests use, from Debian's packages: Chromium (the HTML report is tested in
# a headless browser) and pandoc (an independent converter renders tables in Markdown and LaTeX
# for the table readers' round-trip tests).
TOOLS := chromium pandoc
tools:
	@missing=""; for t in $(TOOLS); do command -v $$t >/dev/null 2>&1 || missing="$$missing $$t"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing Debian's$$missing for the tests"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "the tests need$$missing: sudo apt-get install$$missing"; \
	  fi; \
	fi

test: $(VENV)/.installed-test lint tools
	$(BIN)/python -m pytest -q

# The newest versions pyproject.toml allows (no lock), in a venv of their own; not run by CI.
test-latest: tools
	rm -rf $(LATEST)
	$(PYTHON) -m venv $(LATEST)
	$(LATEST)/bin/python -m pip install --quiet "uv==$(UV_VERSION)"
	$(LATEST)/bin/python -m uv pip install --quiet --refresh --upgrade \
	  --python $(LATEST)/bin/python -e ".[test,plot]"
	$(LATEST)/bin/python -m uv pip list --python $(LATEST)/bin/python
	$(LATEST)/bin/python -m pytest -q

lock: | $(BIN)/python
	$(UV) lock --upgrade --refresh

bench: $(VENV)/.installed-test
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) $(LATEST) demo-report .pytest_cache
