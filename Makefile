# Two commands on a fresh clone: `make demo` and `make test`. Each builds .venv itself, with the
# CPU build of torch pinned first so that no CUDA packages are downloaded.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
TORCH  ?= torch==2.13.0
PYTEST_WORKERS ?= 2

.PHONY: demo test lint bench site serve clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q "$(TORCH)"
	$(BIN)/python -m pip install -q -e ".[torch,dev]"
	touch $@

demo: $(VENV)/.installed
	$(BIN)/diagnoser --lang en samples/shape-matmul.txt
	$(BIN)/diagnoser --lang zh samples/shape-matmul.txt

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# pytest exits 5 when it collected nothing: for us that is a broken suite, never a pass.
test: lint
	@$(BIN)/python -m pytest -n $(PYTEST_WORKERS) -q; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: the suite is broken" >&2; exit 1; fi; \
	exit $$rc

bench: $(VENV)/.installed
	$(BIN)/python bench/bench.py
	$(BIN)/python bench/lint_bench.py
	$(BIN)/python bench/hook.py
	$(BIN)/python bench/triage_bench.py

# The bilingual guide: pages are generated from kb/ by hooks/kb_pages.py on every build.
site: $(VENV)/.installed
	$(BIN)/mkdocs build --strict

serve: $(VENV)/.installed
	$(BIN)/mkdocs serve

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
