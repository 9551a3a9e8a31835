"""Errors and refusals in the client's language.

The room service and the engines speak English and keep, beside the English text,
the template it was made from and its parameters (:class:`app.rooms.errors.RoomError`,
:class:`app.games.Reason`). Here the template is looked up in the catalogue of the
current language and filled in; parameters that are codes are shown in that
language's words: ``card`` (a card of the game), ``suit``, ``option`` (an option's
label) and ``game``; a parameter that is itself a :class:`~app.games.Reason` is
translated the same way.
"""

from __future__ import annotations

from typing import Any

from app.games import GAMES
from app.i18n import _
from app.web.presentation import find


def _param(name: str, value: Any, game: str | None) -> Any:
    key = getattr(value, "key", None)
    if key is not None:  # a nested Reason
        return translate(key, getattr(value, "params", {}), str(value), game)
    p = find(game) if game else None
    if name == "card" and isinstance(value, str) and p is not None and value in p.deck:
        return p.card_title(value)
    if name == "suit" and isinstance(value, str) and p is not None:
        return p.suit_label(value)
    if name == "option" and isinstance(value, str):
        return _(value)
    if name == "game" and isinstance(value, str) and value in GAMES:
        return _(GAMES[value].title)
    return value


def translate(key: str, params: dict[str, Any], english: str, game: str | None = None) -> str:
    """``key`` (an English template) in the current language, filled with ``params``;
    where the catalogue has no other words for it, the ``english`` text as it was."""
    words = _(key)
    if words == key:
        return english
    try:
        return words.format(**{k: _param(k, v, game) for k, v in params.items()})
    except (KeyError, IndexError, ValueError):  # a translation naming a missing field
        return english


def error_text(exc: Exception, game: str | None = None) -> str:
    """The message of a room error (or an engine's refusal) for the client."""
    english = getattr(exc, "message", None) or str(exc)
    return translate(getattr(exc, "key", english), getattr(exc, "params", {}), english, game)
