# Two commands set up and run everything on a fresh machine:
#   make demo   create .venv if missing, install, compile the kernels (first run only), run a real experiment
#   make test   create .venv if missing, install, run the tests
#   make dist   build the sdist and the wheel into dist/ (docs/release.md)
# make docs builds docs/ into a site in site/ (strict: a broken link fails).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test docs lint bench dist clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/cardsim warmup --strong
	$(BIN)/python experiments/demo.py --out results/demo

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q -n auto --dist loadgroup

docs: $(STAMP)
	$(BIN)/mkdocs build --strict --site-dir site

bench: $(STAMP)
	$(BIN)/python benchmarks/throughput.py --game differenzler --bots random --threads 1 --rounds 5000000
	$(BIN)/python benchmarks/throughput.py --game differenzler --bots random --threads 2 --rounds 10000000
	$(BIN)/python benchmarks/throughput.py --game differenzler --bots heuristic --threads 1 --rounds 2000000
	$(BIN)/python benchmarks/throughput.py --game wizard --bots random --threads 1 --rounds 3000000 --reference
	$(BIN)/python benchmarks/throughput.py --game wizard --bots random --threads 1 --games 300000 --reference
	$(BIN)/python benchmarks/throughput.py --game wizard --bots heuristic --threads 1 --games 100000
	$(BIN)/python benchmarks/throughput.py --game callpartner --bots random --threads 1 --rounds 2000000
	$(BIN)/python benchmarks/throughput.py --game callpartner --bots heuristic --threads 1 --games 50000
	$(BIN)/python benchmarks/runner_overhead.py --rounds 10000000 --repeat 3

dist: $(STAMP)
	$(BIN)/python -m build

clean:
	rm -rf $(VENV) build dist site *.egg-info .pytest_cache .ruff_cache .hypothesis
