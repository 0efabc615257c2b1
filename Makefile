# Two commands on a fresh machine: `make demo` and `make test`. Each sets up .venv itself.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-pg lint bench quality clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) (Python 3.11) on PATH"; exit 2; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/baton demo --dir demo-vault

test: $(STAMP)
	$(BIN)/python -m pytest -q

# The database tests on PostgreSQL only, failing (not skipping) when no server answers
# (BATON_TEST_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/test).
test-pg: $(STAMP)
	BATON_TEST_BACKENDS=postgresql BATON_TEST_REQUIRE_POSTGRES=1 $(BIN)/python -m pytest -q \
		tests/test_store.py tests/test_approval.py tests/test_store_boundary.py tests/test_concurrency.py \
		tests/test_crash_matrix.py

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/python -m tests.benchmarks.bench_arxiv
	$(BIN)/python -m tests.benchmarks.bench_llm
	$(BIN)/python -m tests.benchmarks.bench_run

quality: $(STAMP)
	$(BIN)/python -m workflows.quality --vault ../shared/vault --examples ../shared/examples

clean:
	rm -rf $(VENV) demo-vault .pytest_cache .ruff_cache
