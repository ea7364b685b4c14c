# The commands of the README: `make serve` (play with friends in the browser), `make play` (a game in the
# terminal) and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SERVE_STAMP := $(VENV)/.installed-serve

.PHONY: serve play test test-fast lint typecheck bench check-examples clean i18n icons

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,server,arena,solver,research,cluster,scale]'
	touch $(STAMP) $(SERVE_STAMP)

# `make serve` and `make play` install only what the server and the bots need (the solver's numba included);
# research (OpenSpiel, PettingZoo), Ray, plotting and the test tools come with `make test`.
$(SERVE_STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[server,solver]'
	touch $(SERVE_STAMP)

serve: $(SERVE_STAMP)
	$(VENV)/bin/fiftysix serve $(ARGS)

play: $(SERVE_STAMP)
	$(VENV)/bin/fiftysix play $(ARGS)

# axe-core (the accessibility scan of the browser tests), from the npm registry, kept out of git.
AXE := tests/browser/node_modules/axe-core/axe.min.js
$(AXE):
	npm install --prefix tests/browser --no-save --no-audit --no-fund axe-core@4

test: $(STAMP) $(AXE) lint
	$(VENV)/bin/mypy --strict src/fiftysix
	$(VENV)/bin/python -m pytest

# The quick loop: everything but slow tests, PostgreSQL, the browser and strength duels (under a minute).
test-fast: $(STAMP)
	$(VENV)/bin/python -m pytest -m "not slow and not db and not browser and not strength"

# ruff, and no function above cyclomatic complexity 25 (radon; the exceptions are listed in tools/complexity.py)
lint: $(STAMP)
	$(VENV)/bin/ruff check src tests bench
	$(PY) tools/complexity.py src/fiftysix

typecheck: $(STAMP)
	$(VENV)/bin/mypy --strict src/fiftysix

# The message catalogues: extract every message (Python, the page's t()/tn(), static HTML), merge it into
# src/fiftysix/i18n/locale/*/LC_MESSAGES/fiftysix.po, compile the .mo and static/i18n/*.json (all committed).
i18n: $(STAMP)
	$(PY) tools/i18n.py

# The app's icons (committed): drawn with Pillow.
icons: $(STAMP)
	$(PY) tools/make_icons.py

bench: $(STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) test-artifacts .pytest_cache .mypy_cache .ruff_cache .hypothesis
