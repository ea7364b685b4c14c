# The commands of the README: `make serve` (play with friends in the browser), `make play` (a game in the
# terminal) and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: serve play test test-fast lint typecheck bench check-examples clean

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,server,arena,solver,research,cluster,scale]'
	touch $(STAMP)

serve: $(STAMP)
	$(VENV)/bin/fiftysix serve $(ARGS)

play: $(STAMP)
	$(VENV)/bin/fiftysix play $(ARGS)

test: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(VENV)/bin/mypy --strict src/fiftysix
	$(VENV)/bin/python -m pytest

# The quick loop: everything but slow tests, PostgreSQL, the browser and strength duels (under a minute).
test-fast: $(STAMP)
	$(VENV)/bin/python -m pytest -m "not slow and not db and not browser and not strength"

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench

typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict src/fiftysix

bench: $(STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) test-artifacts .pytest_cache .mypy_cache .ruff_cache .hypothesis
