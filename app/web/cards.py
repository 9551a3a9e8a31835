"""How a card code looks on the table, asked of the game's presentation.

Only codes the viewer may see ever reach these functions; a face-down card is
rendered as a back without any code. Each game's faces, suit names, trump marker and
badges live in its own module in :mod:`app.web.games`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from app import i18n
from app.web.presentation import Face, on_change, presentation

__all__ = ["Face", "card_badge", "face", "is_trump", "suit_label"]


def face(game: str, code: str) -> Face:
    return _face(game, code, i18n.translations())


@lru_cache(maxsize=4096)
def _face(game: str, code: str, _catalogue: object) -> Face:
    """A face in one language (a game's faces depend on the code and the words
    only), worked out once."""
    return presentation(game).face(code)


on_change.append(_face.cache_clear)


def suit_label(game: str, suit: str) -> str:
    return presentation(game).suit_label(suit)


def is_trump(game: str, code: str, view: dict[str, Any]) -> bool:
    """Whether a card in the viewer's hand is a trump now (for a marker on it)."""
    return presentation(game).is_trump(code, view)


def card_badge(game: str, code: str, view: dict[str, Any]) -> str:
    """A short badge on a card in the viewer's hand ("" for none)."""
    return presentation(game).card_badge(code, view)
