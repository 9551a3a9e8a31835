"""Languages: the gettext markers every player-facing word goes through, and the
catalogue of the language in use.

``_`` translates now, ``N_`` only marks a string for extraction (a constant that is
translated later, where it is shown), ``ngettext`` picks a plural. All three read the
catalogue of the *current language*, a context variable: the HTTP middleware
(:func:`app.web.language.LanguageMiddleware`) sets it per request, and the table
WebSocket per connection (its sender task inherits it), so two players at one table
each read their own language.

Catalogues are ``app/locale/<lang>/LC_MESSAGES/messages.po`` (committed), compiled to
``messages.mo`` by ``make i18n`` / ``make install`` and the Dockerfile. A ``.po`` whose
``.mo`` is missing or older is compiled in memory when first used, so a fresh
checkout still speaks every language. Numbers and dates follow the language too
(:func:`format_number`, :func:`format_datetime`, :func:`format_timedelta`).
"""

from __future__ import annotations

import gettext as _gettext
import io
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from datetime import datetime, timedelta
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Literal

from babel import Locale, dates, numbers
from babel.core import negotiate_locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

log = logging.getLogger("stammtisch.i18n")

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
#: the languages this server speaks, in the order the language switch lists them
LANGUAGES: dict[str, str] = {"de": "Deutsch", "en": "English"}
DEFAULT = "en"

_current: ContextVar[str] = ContextVar("stammtisch_language", default=DEFAULT)
_override: _gettext.NullTranslations | None = None


def _compile(po: Path) -> bytes:
    with po.open("rb") as fh:
        catalog = read_po(fh, locale=po.parent.parent.name)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


@cache
def catalogue(language: str) -> _gettext.NullTranslations:
    """The translations of ``language`` (null translations for an unknown one)."""
    if language not in LANGUAGES:
        return _gettext.NullTranslations()
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        with mo.open("rb") as fh:
            return _gettext.GNUTranslations(fh)
    if po.is_file():
        log.info("compiling %s in memory (run `make i18n` to write the .mo)", po)
        return _gettext.GNUTranslations(io.BytesIO(_compile(po)))
    return _gettext.NullTranslations()


def install(translations: _gettext.NullTranslations | None) -> None:
    """Force ``translations`` for every language (tests); None goes back to the
    catalogues."""
    global _override
    _override = translations


def translations() -> _gettext.NullTranslations:
    """The catalogue of the current language."""
    return _override if _override is not None else catalogue(_current.get())


def get_language() -> str:
    return _current.get()


def set_language(language: str) -> Token[str]:
    """Make ``language`` current in this context (and the tasks it starts)."""
    return _current.set(language if language in LANGUAGES else DEFAULT)


def reset_language(token: Token[str]) -> None:
    _current.reset(token)


@contextmanager
def language(lang: str) -> Iterator[None]:
    """``with language("de"): ...`` renders in German."""
    token = set_language(lang)
    try:
        yield
    finally:
        _current.reset(token)


def gettext(message: str) -> str:
    return translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the sense ``context`` (the same English words, other meanings)."""
    return translations().pgettext(context, message)


def N_(message: str) -> str:  # noqa: N802 - the conventional name of the marker
    """Mark ``message`` for extraction without translating it yet."""
    return message


_ = gettext


# ----- choosing a language ---------------------------------------------------------

_TAG = re.compile(r"^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$|^\*$")


def parse_accept_language(header: str | None) -> list[str]:
    """The language tags of an ``Accept-Language`` header, most wanted first
    (q=0 and malformed entries dropped)."""
    if not header:
        return []
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header.split(",")[:32]):
        tag, _sep, params = part.strip().partition(";")
        tag = tag.strip()
        if not _TAG.match(tag):
            continue
        q = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0:
            ranked.append((-q, index, tag))
    return [tag for _q, _i, tag in sorted(ranked)]


def negotiate(accept_language: str | None) -> str | None:
    """The best of :data:`LANGUAGES` for an ``Accept-Language`` header, or None."""
    wanted = [t for t in parse_accept_language(accept_language) if t != "*"]
    return negotiate_locale(wanted, list(LANGUAGES), sep="-") if wanted else None


def choose(*, query: str | None, cookie: str | None, accept_language: str | None) -> str:
    """``?lang=`` first, then the language cookie, then the browser's languages."""
    for explicit in (query, cookie):
        if explicit in LANGUAGES:
            return str(explicit)
    return negotiate(accept_language) or DEFAULT


# ----- numbers, dates and durations ------------------------------------------------

def _locale() -> Locale:
    return Locale.parse(get_language())


def format_number(value: float | int, digits: int | None = None) -> str:
    """``1234.5`` as ``1,234.5`` (English) or ``1.234,5`` (German); ``digits`` fixes
    the number of decimals."""
    if digits is None:
        return numbers.format_decimal(value, locale=_locale())
    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return numbers.format_decimal(value, format=pattern, locale=_locale(),
                                  decimal_quantization=True)


def format_signed(value: int) -> str:
    """An integer with its sign: ``+12``, ``−3`` stays ``-3``, ``0``."""
    text = format_number(abs(value))
    return ("+" if value > 0 else "-" if value < 0 else "") + text


def format_money(cents: int, signed: bool = False) -> str:
    """Cents as euros in the current language: ``120`` as "€1.20" (English) or
    "1,20 €" (German), ``-5`` as "-€0.05" / "-0,05 €"; ``signed``: a "+" before a
    gain too."""
    text = numbers.format_currency(Decimal(cents) / 100, "EUR", locale=_locale())
    return "+" + text if signed and cents > 0 else text


def format_datetime(value: datetime, width: str = "medium") -> str:
    """A date and time in the current language (``short``, ``medium``, ``long``)."""
    return dates.format_datetime(value, format=width, locale=_locale())


def format_date(value: datetime, width: str = "medium") -> str:
    return dates.format_date(value, format=width, locale=_locale())


def format_timedelta(value: timedelta | int,
                     granularity: Literal["day", "hour", "minute", "second"] = "second") -> str:
    """``timedelta(seconds=90)`` as "2 minutes" / "2 Minuten"."""
    return dates.format_timedelta(value, granularity=granularity, locale=_locale())


__all__ = [
    "DEFAULT", "LANGUAGES", "N_", "_", "catalogue", "choose", "format_date",
    "format_datetime", "format_money", "format_number", "format_signed", "format_timedelta",
    "get_language", "gettext", "install", "language", "negotiate", "ngettext",
    "parse_accept_language", "pgettext", "reset_language", "set_language", "translations",
]
