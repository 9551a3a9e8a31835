# Stammtisch: `make run` serves http://localhost:8000, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000

.PHONY: run test install vendor migrate backup lint typecheck pytest bench clean

$(BIN)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

install: $(BIN)/.installed

static/vendor/.built: package-lock.json
	npm ci --no-audit --no-fund --silent
	mkdir -p static/vendor
	cp node_modules/htmx.org/dist/htmx.min.js static/vendor/htmx.min.js
	cp node_modules/htmx-ext-ws/dist/ws.js static/vendor/ws.js
	mkdir -p static/vendor/swagger-ui
	cp node_modules/swagger-ui-dist/swagger-ui-bundle.js node_modules/swagger-ui-dist/swagger-ui.css \
	   node_modules/swagger-ui-dist/LICENSE static/vendor/swagger-ui/
	touch $@

vendor: static/vendor/.built

migrate: install
	mkdir -p data
	$(BIN)/alembic upgrade head

run: install vendor
	mkdir -p data
	PATH="$(CURDIR)/$(BIN):$$PATH" HOST=$(HOST) PORT=$(PORT) sh scripts/serve.sh

# a consistent copy of the database while the server runs (see README, Backups)
OUT ?= backups/stammtisch-$(shell date +%Y%m%d-%H%M%S)
backup: install
	mkdir -p $(dir $(OUT))
	$(BIN)/python -m app.backup $(OUT)

lint: install
	$(BIN)/ruff check app tests bench migrations

typecheck: install
	$(BIN)/mypy

pytest: install vendor
	$(BIN)/pytest -q $(PYTEST_ARGS)

test: lint typecheck pytest

bench: install
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/load.py

clean:
	rm -rf $(VENV) node_modules static/vendor .pytest_cache .mypy_cache .ruff_cache
