# ptkg: `make run` builds the graph of the bundled sample; `make test` runs the tests (with a
# real Neo4j when java and mvn are there).
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
GRAPH  ?= out/graph.json
SAMPLE := data/seed_sample.txt

.PHONY: run test lint bench bench-render chromium clean

$(BIN)/ptkg: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[model,test]"
	touch $@

run: $(BIN)/ptkg
	$(BIN)/ptkg build $(SAMPLE) --graph $(GRAPH)
	$(BIN)/ptkg stats --graph $(GRAPH)
	$(BIN)/ptkg render --graph $(GRAPH) --out out/graph.html
	$(BIN)/ptkg render --graph $(GRAPH) --timeline --out out/timeline.html
	@echo "open in a browser (works offline): $(CURDIR)/out/graph.html $(CURDIR)/out/timeline.html"

# Debian's Chromium for tests/browser (driven by playwright; no browser download). Needs root.
chromium:
	@command -v chromium >/dev/null || [ "$$(id -u)" != 0 ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core; }

# With java and mvn on PATH, the tests run against a real Neo4j that .ci/neo4j-pytest starts
# (docker/neo4j-start.sh) and stops afterwards, keeping pytest's exit code; without them, the
# tests marked neo4j are deselected (and in CI, CI or PTKG_REQUIRE_NEO4J set, that fails).
# PYTEST_ARGS passes arguments to pytest: make test PYTEST_ARGS="-x tests/neo4j".
test: $(BIN)/ptkg chromium
	$(BIN)/ruff check .
	LINT_IMPORTS=$(BIN)/lint-imports .ci/lint-imports
	PYTHON=$(BIN)/python .ci/neo4j-pytest $(BIN)/pytest $(PYTEST_ARGS)

bench: $(BIN)/ptkg
	$(BIN)/python bench/extract.py

bench-render: $(BIN)/ptkg
	$(BIN)/python bench/render.py

clean:
	rm -rf $(VENV) out .pytest_cache .ruff_cache
