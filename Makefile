# ptkg: `make run` builds the graph of the bundled sample; `make test` runs the tests.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
GRAPH  ?= out/graph.json
SAMPLE := data/seed_sample.txt

.PHONY: run test lint bench clean

$(BIN)/ptkg: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[model,test]"
	touch $@

run: $(BIN)/ptkg
	$(BIN)/ptkg build $(SAMPLE) --graph $(GRAPH)
	$(BIN)/ptkg stats --graph $(GRAPH)

test: $(BIN)/ptkg
	$(BIN)/ruff check .
	$(BIN)/pytest

bench: $(BIN)/ptkg
	$(BIN)/python bench/extract.py

clean:
	rm -rf $(VENV) out .pytest_cache .ruff_cache
