"""Search bots: determinized search (PIMC) with the house heuristics as rollout
policy. :func:`sample_worlds` exposes the sampler (what a seat imagines the hidden
cards to be).

Every module ``app/bots/search/<game>.py`` named after a game of
``app.games.GAMES`` is that game's search: its ``SEARCH`` (a :class:`Game`) and, for
a game whose seats may let a moment pass (a challenge window), ``SILENT``, the name
under which the search weighs staying silent as one more option. They are found
here; nothing lists them. ``GAMES`` maps a game to its search, ``SILENCE`` a game
to its ``SILENT``."""

from __future__ import annotations

import importlib
import pkgutil
import random
from typing import Any

from app.bots.search.core import Game, Report, World, search
from app.bots.search.deal import Inconsistent
from app.bots.search.history import History
from app.games import GAMES as ENGINES

GAMES: dict[str, Game] = {}
SILENCE: dict[str, str] = {}


def _discover() -> None:
    modules = {found.name for found in pkgutil.iter_modules(__path__)}
    for game in ENGINES:  # in the lobby's order
        if game not in modules:
            continue
        module = importlib.import_module(f"{__name__}.{game}")
        GAMES[game] = module.SEARCH
        if hasattr(module, "SILENT"):
            SILENCE[game] = module.SILENT


_discover()


def sample_worlds(game: str, view: dict[str, Any], count: int, seed: int,
                  history: History | None = None) -> list[World]:
    """``count`` worlds the search would imagine for this view (and this seat's
    memory of the deal), drawn exactly as the search draws them for ``seed``."""
    if history is None:
        history = History()
        history.observe(view)
    rng = random.Random(seed)
    position = GAMES[game].prepare(view, history)
    return [GAMES[game].sample(position, random.Random(rng.getrandbits(62)))
            for _ in range(count)]


__all__ = ["GAMES", "SILENCE", "History", "Inconsistent", "Report", "World",
           "sample_worlds", "search"]
