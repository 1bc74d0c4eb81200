# One command to set up and run the main job, one to set up and run the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: setup demo test browser-test lint bench

$(BIN)/aem-strands: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	# The CPU build of torch first: a plain "torch" requirement would pull a multi-GB CUDA build.
	$(BIN)/pip install --quiet torch==2.13.0
	$(BIN)/pip install --quiet -e ".[dev]"
	touch $(BIN)/aem-strands

setup: $(BIN)/aem-strands

# Exit code 1 means "some dialog fails", which is what these example dialogs are for.
demo: setup
	$(BIN)/aem-strands score examples/data/sales_report.json examples/data/sales_report_two_roots.json \
		examples/data/travel_dataset.jsonl --format table; test $$? -le 2
	# The trajectory view of the same kind of run: exit code 1 means "some trace fails", as intended here.
	$(BIN)/aem-strands trace examples/data/traces/refund_identity.yaml examples/data/traces/cancel_consent.json \
		--policy examples/data/traces/policy.yaml --format table; test $$? -le 1

test: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/pytest -q

# Opt-in, as it changes the system: `make test` never installs anything, and its browser tests skip
# without a Chromium. This installs Debian's chromium with apt-get (as root) when none is on PATH, then
# runs the browser tests, which fail instead of skipping if the browser is still missing.
browser-test: setup
	command -v chromium >/dev/null || command -v chromium-browser >/dev/null || \
		(apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium)
	AEM_BROWSER_REQUIRED=1 $(BIN)/pytest -q tests/test_report_browser.py

bench: setup
	$(BIN)/python benchmarks/sgd_benchmark.py
