# Two commands do all the set-up on a fresh machine with Python 3.11 and pip:
#   make demo   diff a bundled fixture pair and print the recommendation
#   make test   lint, type-check, run the tests and check apisurface's own snapshot
PYTHON ?= python3
VENV ?= .venv
BIN = $(VENV)/bin

.PHONY: demo test test-network install wheel lint typecheck pytest selfcheck snapshot policy fuzz bench browser clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,verify]'
	touch $@

install: $(VENV)/.installed

# A wheel to install anywhere: pip install dist/apisurface-<version>-py3-none-any.whl
wheel: install
	$(BIN)/python -m pip wheel --no-deps --disable-pip-version-check --quiet -w dist .
	@ls dist/*.whl

demo: install
	$(BIN)/apisurface diff fixtures/demo/old fixtures/demo/new

lint: install
	$(BIN)/ruff check src tests $(wildcard bench)
	$(BIN)/ruff format --check src tests $(wildcard bench)

typecheck: install
	$(BIN)/mypy

# Browser tests (the HTML report in Chromium) run where Chromium is installed (make browser);
# elsewhere they are deselected, not skipped.
CHROMIUM := $(shell command -v chromium || command -v chromium-browser)

# Tests that need the package index (PyPI) are marked network: deselected here, run by
# make test-network.
pytest: install
	$(BIN)/pytest -q -m "not network$(if $(CHROMIUM),, and not browser)"

test-network: install
	$(BIN)/pytest -q -m network

browser:
	apt-get update && apt-get install -y chromium

selfcheck: install
	$(BIN)/apisurface check --quiet

test: lint typecheck pytest selfcheck

snapshot: install
	$(BIN)/apisurface snapshot

# docs/policy.md's rule table is written from the rows of ChangeKind (src/apisurface/changes.py),
# its key table from KEYS (src/apisurface/project/config.py).
policy: install
	$(BIN)/python -c 'import pathlib, apisurface.output.explain as e; \
	page = pathlib.Path("docs/policy.md"); \
	page.write_text(e.with_policy_table(page.read_text("utf-8")), "utf-8")'
	$(BIN)/python -c 'import pathlib, apisurface.project.config as c; \
	page = pathlib.Path("docs/policy.md"); \
	page.write_text(c.with_key_table(page.read_text("utf-8")), "utf-8")'

fuzz: install
	APISURFACE_FUZZ_EXAMPLES=2000 $(BIN)/pytest -q tests/test_fuzz.py tests/test_binding.py tests/test_annotations.py

bench: install
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build dist src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
