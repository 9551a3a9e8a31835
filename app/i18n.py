"""Translation markers for every player-facing word.

``_`` translates now, ``N_`` only marks a string for extraction (a constant that is
translated later, where it is shown). Both read the active translations, which for
now are :class:`gettext.NullTranslations` (English, the text unchanged); the language
issue installs real catalogues with :func:`install` and the Jinja environment picks
them up through the same object.
"""

from __future__ import annotations

import gettext as _gettext

_translations: _gettext.NullTranslations = _gettext.NullTranslations()


def install(translations: _gettext.NullTranslations) -> None:
    """Make ``translations`` the active catalogue (Python code and templates)."""
    global _translations
    _translations = translations


def translations() -> _gettext.NullTranslations:
    return _translations


def gettext(message: str) -> str:
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translations.ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 - the conventional name of the marker
    """Mark ``message`` for extraction without translating it yet."""
    return message


_ = gettext

__all__ = ["N_", "_", "gettext", "install", "ngettext", "translations"]
