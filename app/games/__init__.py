"""Pure rules engines. The contract is docs/engine.md: ``GAMES``, ``new_match``,
``restore`` and ``IllegalAction``. Nothing here imports the web, the database or bots.

Every module of this package that defines ``INFO`` (a :class:`GameInfo`, next to its
match class) is a game: it is found here at import time, so adding a game adds a
module and edits nothing else. ``register`` adds a game at run time (a test game).
``GAMES`` lists the games in lobby order (``GameInfo.position``).
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

from app.games.base import (
    CENTS,
    CHIPS,
    END_REASONS,
    HOST_ENDS,
    LEDGERS,
    N_,
    NOBODY_PLAYS_ON,
    DealEnd,
    DealStart,
    GameInfo,
    IllegalAction,
    Match,
    MatchEnd,
    Option,
    OptionError,
    Reason,
    Transfer,
    Trick,
    Unseen,
)

GAMES: dict[str, GameInfo] = {}


def _sort_games() -> None:
    """Put ``GAMES`` in lobby order, in place (importers hold the same dict)."""
    ordered = sorted(GAMES.values(), key=lambda info: (info.position, info.name))
    GAMES.clear()
    GAMES.update((info.name, info) for info in ordered)


def register(info: GameInfo) -> None:
    """Add a game to ``GAMES`` (a game defined outside this package, e.g. in a test).
    Raises ValueError if a different game already has that name."""
    if not isinstance(info, GameInfo):
        raise TypeError("register() takes a GameInfo")
    known = GAMES.get(info.name)
    if known is not None and known != info:
        raise ValueError(f"a game named {info.name!r} is already registered")
    GAMES[info.name] = info
    _sort_games()


def unregister(name: str) -> None:
    """Remove a game added with :func:`register` (a no-op for an unknown name)."""
    GAMES.pop(name, None)


def _discover() -> None:
    for module_info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        info = getattr(module, "INFO", None)
        if isinstance(info, GameInfo):
            register(info)


_discover()


def new_match(
    name: str,
    players: int,
    options: dict[str, Any] | None = None,
    seed: int | str | None = None,
    deals: list[Any] | None = None,
) -> Match:
    """Start a match of game ``name``. Raises ValueError for an unknown game,
    a wrong number of players, bad options or a stacked deal that is not the deck."""
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"unknown game {name!r}")
    return GAMES[name].match_class(players, options, seed=seed, deals=deals)


def restore(snapshot: dict[str, Any]) -> Match:
    """A match that behaves exactly as the one ``snapshot`` was taken from."""
    name = snapshot.get("game")
    if not isinstance(name, str) or name not in GAMES:
        raise ValueError(f"unknown game {name!r}")
    return GAMES[name].match_class.from_snapshot(snapshot)


__all__ = [
    "CENTS", "CHIPS", "END_REASONS", "GAMES", "HOST_ENDS", "LEDGERS", "NOBODY_PLAYS_ON", "N_",
    "DealEnd", "DealStart", "GameInfo", "IllegalAction", "Match", "MatchEnd", "Option",
    "OptionError", "Reason", "Transfer", "Trick", "Unseen", "new_match", "register",
    "restore", "unregister",
]
