# The commands of the README: `make serve` (play with friends in the browser), `make play` (a game in the
# terminal) and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
SERVE_STAMP := $(VENV)/.installed-serve

.PHONY: lock serve play test test-fast lint typecheck bench check-examples clean i18n icons

UV := $(VENV)/bin/uv

# Every install comes from the lock in requirements/ (exact versions with hashes, made by `make lock`), so a
# release upstream cannot change what a fresh machine gets. uv itself is pinned and hashed in requirements/uv.txt.
$(UV): requirements/uv.txt
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes --no-deps -r requirements/uv.txt
	touch $(UV)

# the project itself, editable and without dependencies (they come from the lock); setuptools is in the lock
INSTALL_SELF = $(UV) pip install --quiet --python $(PY) --no-deps --no-build-isolation -e .

$(STAMP): pyproject.toml requirements/test.txt $(UV)
	$(UV) pip sync --quiet --python $(PY) --require-hashes requirements/test.txt
	$(INSTALL_SELF)
	touch $(STAMP) $(SERVE_STAMP)

# `make serve` and `make play` install only what the server and the bots need (the solver's numba included);
# research (OpenSpiel, PettingZoo), Ray, plotting and the test tools come with `make test`.
$(SERVE_STAMP): pyproject.toml requirements/serve.txt $(UV)
	$(UV) pip sync --quiet --python $(PY) --require-hashes requirements/serve.txt
	$(INSTALL_SELF)
	touch $(SERVE_STAMP)

# Refresh the lock to the newest releases that pyproject.toml allows, reinstall from it and run the whole suite.
# `make lock UPGRADE=` only adds what pyproject.toml newly names and keeps every other pin.
# The serve set is resolved inside the test set, so both install the same versions.
UPGRADE ?= --upgrade
LOCK = $(UV) pip compile --quiet --universal --python-version 3.11 --generate-hashes $(UPGRADE)
lock: $(UV)
	$(LOCK) pyproject.toml requirements/build.in --all-extras -o requirements/test.txt
	$(LOCK) pyproject.toml requirements/build.in --extra server --extra solver \
		-c requirements/test.txt -o requirements/serve.txt
	rm -f $(STAMP) $(SERVE_STAMP)
	$(MAKE) test

serve: $(SERVE_STAMP)
	$(VENV)/bin/fiftysix serve $(ARGS)

play: $(SERVE_STAMP)
	$(VENV)/bin/fiftysix play $(ARGS)

# axe-core (the accessibility scan of the browser tests), from the npm registry, kept out of git.
AXE := tests/browser/node_modules/axe-core/axe.min.js
$(AXE):
	npm install --prefix tests/browser --no-save --no-audit --no-fund axe-core@4

# The suite runs on JOBS processes (pytest-xdist; each has its own throwaway PostgreSQL, redis and browser), then the
# tests that hold a time budget (marked serial) run alone, so no other test shares their cores.
JOBS ?= 2
test: $(STAMP) $(AXE) lint
	$(VENV)/bin/mypy --strict src/fiftysix
	$(VENV)/bin/python -m pytest -n $(JOBS) -m "not serial" --durations=25
	$(VENV)/bin/python -m pytest -m serial

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
