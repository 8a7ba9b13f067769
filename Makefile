# Kifu: two commands that work on a fresh machine with Python 3.11+.
#   make demo  - create .venv, install Kifu, run the main job on the bundled input
#   make test  - create .venv with the test extras and run the whole test suite

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test lint venv clean

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Kifu needs Python 3.11 or newer ($(PYTHON) is older)"; exit 1; }
	@$(PYTHON) -c 'import ensurepip' 2>/dev/null || \
		{ echo "$(PYTHON) cannot make a venv: install python3-venv (apt install python3-venv)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

venv: $(VENV)/.installed

demo: $(VENV)/.installed
	mkdir -p out
	$(BIN)/kifu referee datasets/bundled/demo-observations.jsonl --sgf out/demo.sgf
	@echo "record written to out/demo.sgf"

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/mypy

test: $(VENV)/.installed-test lint
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
