"""The message catalogues are complete and up to date.

- Extracting every marked string again (the way ``make i18n`` does) gives exactly the
  msgids of the committed ``messages.pot`` and of every language's ``.po``: a new
  string that was not extracted, or a stale catalogue, fails here.
- The German catalogue translates every msgid (no empty, no fuzzy msgstr) and keeps
  every placeholder.
- No template shows words outside ``_()``: the text between tags and the readable
  attributes (title, aria-label, placeholder, alt) hold no letters of their own.
"""

from __future__ import annotations

import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from app import i18n

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "app" / "locale"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)(?:![rsa])?(?::[^}]*)?\}")


def _keywords() -> list[str]:
    """The extra extraction keywords, read from the Makefile (one source of truth)."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    line = next(ln for ln in text.splitlines() if ln.startswith("I18N_KEYWORDS"))
    return line.split(":=", 1)[1].split()


def _ids(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in catalog if m.id}


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as fh:
        return read_po(fh, locale=locale)


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    out = tmp_path_factory.mktemp("i18n") / "messages.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
         *_keywords(), "--no-location", "--sort-output", "-o", str(out), "."],
        cwd=ROOT, check=True, capture_output=True)
    return _read(out)


def test_the_committed_template_holds_every_marked_string(extracted: Catalog) -> None:
    committed = _ids(_read(LOCALE / "messages.pot"))
    fresh = _ids(extracted)
    assert fresh - committed == set(), "new strings: run `make i18n` and translate them"
    assert committed - fresh == set(), "strings no longer used: run `make i18n`"


@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
def test_every_language_catalogue_matches_the_code(extracted: Catalog, language: str) -> None:
    po = _read(LOCALE / language / "LC_MESSAGES" / "messages.po", language)
    assert _ids(po) == _ids(extracted), f"{language}: run `make i18n`"


def _placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def test_the_german_catalogue_is_complete_and_keeps_every_placeholder() -> None:
    po = _read(LOCALE / "de" / "LC_MESSAGES" / "messages.po", "de")
    problems = []
    for m in po:
        if not m.id:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        if "fuzzy" in m.flags:
            problems.append(f"fuzzy: {ids[0]!r}")
        if not all(s.strip() for s in strings) or len(strings) < 1:
            problems.append(f"untranslated: {ids[0]!r}")
            continue
        wanted = _placeholders(ids[-1]) | _placeholders(ids[0])
        for s in strings:
            if _placeholders(s) - wanted or (_placeholders(s) != wanted and len(ids) == 1):
                problems.append(f"placeholders differ: {ids[0]!r} -> {s!r}")
    assert problems == []
    assert len(po) > 400  # the whole interface, not a sample


def test_the_catalogues_load_and_translate() -> None:
    with i18n.language("de"):
        assert i18n.gettext("Open the table") == "Tisch öffnen"
        assert i18n.ngettext("{who} wins the match.", "{who} win the match.", 2) == \
            "{who} gewinnen die Partie."
        assert i18n.pgettext("French card rank: jack", "J") == "B"
        assert i18n.format_number(1234.5, 1) == "1.234,5"
    with i18n.language("en"):
        assert i18n.gettext("Open the table") == "Open the table"
        assert i18n.format_number(1234.5, 1) == "1,234.5"


WORD = re.compile(r"[A-Za-zÄÖÜäöüß]{2,}")
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
CLASS_BLOCK = re.compile(r"\{%\s*block main_class\s*%\}.*?\{%\s*endblock\s*%\}", re.S)
READABLE = {"title", "aria-label", "placeholder", "alt"}
PROPER_NAMES = {"Stammtisch"}  # the product's name is the same in every language


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script"):
            self.hidden += 1
        for key, value in attrs:
            if key in READABLE and value and WORD.search(value):
                self.found.append(f"<{tag} {key}={value!r}>")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        words = [w for w in WORD.findall(data) if w not in PROPER_NAMES]
        if not self.hidden and words:
            self.found.append(data.strip())


def test_templates_show_no_words_outside_the_catalogue() -> None:
    untranslated = {}
    for path in sorted((ROOT / "templates").rglob("*.html")):
        parser = _Text()
        parser.feed(JINJA.sub(" ", CLASS_BLOCK.sub(" ", path.read_text())))
        if parser.found:
            untranslated[str(path.relative_to(ROOT))] = parser.found
    assert untranslated == {}


def test_the_scanner_finds_bare_words() -> None:
    parser = _Text()
    parser.feed(JINJA.sub(" ", '<p>{{ _("fine") }} Not fine</p><b title="Nope">x</b>'))
    assert parser.found == ["Not fine", "<b title='Nope'>"]
