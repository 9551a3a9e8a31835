# Stammtisch: `make run` serves http://localhost:8000, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 0.0.0.0
PORT ?= 8000

.PHONY: run test install vendor migrate backup lint typecheck imports pytest bench clean i18n i18n-extract

$(BIN)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# Message catalogues: app/locale/<lang>/LC_MESSAGES/messages.po (committed) -> .mo
LOCALES := $(wildcard app/locale/*/LC_MESSAGES/messages.po)
CATALOGS := $(LOCALES:.po=.mo)
# the room service's errors and the engines' reasons are msgids too (English keys)
I18N_KEYWORDS := -k RoomError -k BadRequest -k Unauthorized -k Forbidden -k NotFound \
	-k Stale -k Illegal -k Reason

%.mo: %.po $(BIN)/.installed
	$(BIN)/pybabel compile -i $< -o $@

install: $(BIN)/.installed $(CATALOGS)

# `make i18n`: extract every marked string into app/locale/messages.pot, bring each
# language's .po up to date (new msgids arrive with an empty msgstr to translate),
# then compile the .mo files
i18n-extract: $(BIN)/.installed
	$(BIN)/pybabel extract -F babel.cfg $(I18N_KEYWORDS) --no-location --sort-output \
		--add-comments=Translators: --project=Stammtisch --copyright-holder=Stammtisch \
		-o app/locale/messages.pot .
	$(BIN)/pybabel update -i app/locale/messages.pot -d app/locale --no-fuzzy-matching \
		--ignore-obsolete --no-wrap

i18n: i18n-extract
	$(BIN)/pybabel compile -d app/locale --statistics

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

# the import structure's contracts (pyproject.toml, [tool.importlinter]): the layers
# main -> web -> rooms -> bots -> games, no import cycle inside app/rooms
imports: install
	$(BIN)/lint-imports --no-cache

# the browser tests (tests/e2e) in a second pytest process beside the rest: they
# spend most of their time waiting on browsers, servers and timeouts, and one
# process for everything took about 38 minutes on a 2-core machine (CI allows 30);
# their output follows the rest's. PYTEST_ARGS (options, e.g. -k or -x) go to both
pytest: install vendor
	@$(BIN)/pytest -q -p no:cacheprovider tests/e2e $(PYTEST_ARGS) > .pytest-browser.log 2>&1 & \
	browser=$$!; $(BIN)/pytest -q --ignore=tests/e2e $(PYTEST_ARGS); rest=$$?; \
	wait $$browser; browser_rc=$$?; echo '== browser tests (tests/e2e)'; cat .pytest-browser.log; \
	if [ $$rest -ne 0 ] && [ $$rest -ne 5 ]; then exit $$rest; fi; \
	if [ $$browser_rc -ne 0 ] && [ $$browser_rc -ne 5 ]; then exit $$browser_rc; fi

test: lint typecheck imports pytest

bench: install
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/load.py --profile saturated --rounds 3
	$(BIN)/python bench/load.py

clean:
	rm -rf $(VENV) node_modules static/vendor .pytest_cache .mypy_cache .ruff_cache
