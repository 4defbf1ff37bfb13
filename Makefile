# Two commands a newcomer needs: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint bench clean tools

# uv installs the wheels in seconds where pip takes a minute; pip is the fallback.
INSTALL = $(BIN)/python -m uv pip install --quiet --python $(BIN)/python
FALLBACK = $(BIN)/python -m pip install --quiet

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet uv || true

$(VENV)/.installed-demo: pyproject.toml | $(BIN)/python
	$(INSTALL) -e ".[plot]" || $(FALLBACK) -e ".[plot]"
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(INSTALL) -e ".[test,plot]" || $(FALLBACK) -e ".[test,plot]"
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

bench: $(VENV)/.installed-test
	for b in benchmarks/bench_*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) demo-report .pytest_cache
