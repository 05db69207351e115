# Two commands on a fresh clone: `make demo` and `make test`. Each builds .venv itself, with the
# CPU build of torch pinned first so that no CUDA packages are downloaded. `make demo` installs the
# package and torch only (seconds after the first time); the test stack comes with `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
TORCH  ?= torch==2.13.0
# The Hugging Face Trainer callback's test runs a real Trainer (the extra `hf`); pinned to
# releases that run on torch 2.13 and Python 3.11, installed in the same resolve as torch.
HF     ?= transformers==5.24.0 accelerate==1.15.0
# Half of the suite's time is spent waiting on child processes (reproductions, torchrun, Spark, a
# browser): 6 workers keep the project machine's 2 cores busy (with 2 workers, under load, it took
# 12 min), and work stealing keeps the long tests from ending up queued behind one worker.
PYTEST_WORKERS ?= 6
# One stamp per torch requirement, so that `make test TORCH='torch==2.5.1'` really installs that
# torch into .venv, and the next plain `make test` the default one again.
TORCH_STAMP := $(VENV)/.torch-$(shell printf '%s' '$(TORCH)' | tr -c 'A-Za-z0-9.' '_')

.PHONY: demo test lint bench site serve gpu-check clean pyodide

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(TORCH_STAMP): | $(BIN)/python
	@echo "installing $(TORCH) (the CPU build) into $(VENV)"
	$(BIN)/python -m pip install -q "$(TORCH)"
	rm -f $(VENV)/.torch-*
	touch $@

# The package alone, editable, with its light dependencies (pydantic, PyYAML, rapidfuzz...).
$(VENV)/.package: pyproject.toml $(TORCH_STAMP)
	$(BIN)/python -m pip install -q -e . "$(TORCH)"
	touch $@

# The test and docs stack: pytest, ruff, mypy, mkdocs-material, Lightning, transformers, pyspark,
# Playwright... The torch requirement goes into the same resolve, so nothing replaces the pinned
# build.
$(VENV)/.dev: pyproject.toml Makefile $(VENV)/.package
	@echo "installing the test stack into $(VENV) (the first time takes a few minutes)"
	$(BIN)/python -m pip install -q -e ".[torch,dev]" "$(TORCH)" $(HF)
	touch $@

demo: $(VENV)/.package
	$(BIN)/diagnoser --lang en samples/shape-matmul.txt
	@echo
	$(BIN)/diagnoser --lang zh samples/shape-matmul.txt
	@echo
	@echo "diagnoser is installed in $(VENV)/bin: run 'source $(VENV)/bin/activate' to put it on"
	@echo "your PATH, or call it as $(BIN)/diagnoser (README: Install)."

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# pytest exits 5 when it collected nothing: for us that is a broken suite, never a pass.
test: lint pyodide
	@$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal --durations=15; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: the suite is broken" >&2; exit 1; fi; \
	exit $$rc

bench: $(VENV)/.dev
	$(BIN)/python bench/bench.py
	$(BIN)/python bench/lint_bench.py
	$(BIN)/python bench/hook.py
	$(BIN)/python bench/triage_bench.py

# The paste box's engine: Pyodide from the npm registry, into a cache outside the repository
# (diagnoser/guide/engine.py). Without npm the guide still builds, and its paste box says the
# engine is not bundled (the browser paste test then fails in CI): hence the leading '-'.
pyodide: $(VENV)/.package
	-$(BIN)/python -m diagnoser.guide.engine fetch

# The bilingual guide: pages are generated from kb/ by hooks/kb_pages.py on every build.
site: $(VENV)/.dev pyodide
	$(BIN)/mkdocs build --strict

serve: $(VENV)/.dev
	$(BIN)/mkdocs serve

# On a machine with CUDA: every reproduction that needs it (both ways) and the GPU paths of
# watch, preflight(memory=True) and `diagnoser env`, captured under tests/data/gpu/ for the CPU
# suite. Without CUDA it says so and exits 77 (make then reports "Error 77"). GPU_PYTHON: the
# interpreter with the CUDA build of torch (and this package's dependencies).
GPU_PYTHON ?= $(if $(wildcard $(BIN)/python),$(BIN)/python,$(PYTHON))
gpu-check:
	PYTHONPATH=$(CURDIR) $(GPU_PYTHON) tools/gpu_check.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
