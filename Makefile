# Every target works from a fresh clone with only python3 and make.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# Reinstall (and rebuild the C kernel) when the build inputs change.
BUILD_INPUTS := pyproject.toml setup.py $(sort $(wildcard src/mtcompute/_kernel/*.c src/mtcompute/_kernel/*.h))
HASH := $(shell cat $(BUILD_INPUTS) | $(PYTHON) -c "import hashlib,sys;print(hashlib.sha1(sys.stdin.buffer.read()).hexdigest()[:12])")
STAMP := $(VENV)/.installed-$(HASH)
# `make serve` needs only the server extra; a development install (STAMP) has it already.
SERVE_STAMP := $(VENV)/.serving-$(HASH)

.PHONY: help install test test-pythons lint serve example bench clean

help:
	@echo "make test     set up .venv and run the whole test suite"
	@echo "make serve    set up .venv and run the main job"
	@echo "make lint     ruff and mypy --strict"
	@echo "make test-pythons  the kernel's significance tests under Python 3.12 and 3.13"

# The extras installed with the package (CI adds fuzz, ja and ko in the same one install).
EXTRAS ?= test,lint,docs

$(STAMP): $(BUILD_INPUTS)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	rm -f $(VENV)/.installed-*
	touch $@

install: $(STAMP)

$(SERVE_STAMP): $(BUILD_INPUTS)
	if [ ! -f $(STAMP) ]; then \
	  $(PYTHON) -m venv $(VENV) && \
	  $(BIN)/python -m pip install --quiet --upgrade pip && \
	  $(BIN)/python -m pip install --quiet -e '.[server]'; \
	fi
	rm -f $(VENV)/.serving-*
	touch $@

# One worker more than CPUs: many tests wait on a child (a server, Node, Chromium, sacreBLEU).
test: $(STAMP)
	$(BIN)/python -m pytest -n $$(( $$(nproc) + 1 )) --dist loadfile --durations=20

# The kernel's significance tests under Python 3.12 and 3.13 where found (.ci/run runs them).
test-pythons:
	scripts/test_pythons.sh

lint: $(STAMP)
	$(BIN)/ruff check src tests scripts benchmarks
	$(BIN)/ruff format --check src tests scripts benchmarks
	$(BIN)/mypy

# The main job: every surface (HTTP API, MCP at /mcp, pages) on 127.0.0.1:8000.
serve: $(SERVE_STAMP)
	$(BIN)/mtcompute serve --host 127.0.0.1 --port 8000

# The contract examples through the CLI.
example: $(STAMP)
	@for f in examples/*.json; do \
	  tool=$$(basename $$f .json); id=$${tool%@*}; ver=$${tool#*@}; \
	  echo "$$ mtcompute run $$id $$ver --input $$f"; \
	  $(BIN)/mtcompute run $$id $$ver --input $$f || true; \
	done

# The benchmark table (ratios against sacreBLEU, NLTK, fastchrf, bleuscore), one run.
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .venv-python3.* build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
