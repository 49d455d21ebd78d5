# privbench: `make demo` runs the main job, `make test` the checks. Both create or reuse
# the virtual environment in .venv and install what they need.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install demo test lint typecheck pytest bench docs clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(BIN)/privbench demo

lint: install
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: install
	$(BIN)/mypy

# one worker per core (pytest-xdist); a test file stays on one worker, so its module
# fixtures are built once
pytest: install
	$(BIN)/pytest -q -n auto --dist loadfile

test: lint typecheck pytest

bench: install
	$(BIN)/python bench/judge_throughput.py
	$(BIN)/python bench/spatial_scoring.py
	$(BIN)/python bench/answer_reading.py
	$(BIN)/python bench/generate.py
	$(BIN)/python bench/offline.py
	$(BIN)/python bench/report.py
	$(BIN)/python bench/resume.py
	$(BIN)/python bench/judge_check.py
	$(BIN)/python bench/judge_check_widths.py
	$(BIN)/python bench/build.py
	$(BIN)/python bench/review.py
	$(BIN)/python bench/audit.py
	$(BIN)/python bench/validate.py
	$(BIN)/python bench/download.py
	$(BIN)/python bench/privacylens_run.py

# docs/commands.md is generated from the command definitions (a test checks it is current)
docs: install
	$(BIN)/python -m privbench.command_docs > docs/commands.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
