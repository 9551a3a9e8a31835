"""Pure rules engines. The contract is ../shared/ENGINE.md: ``GAMES``, ``new_match``,
``restore`` and ``IllegalAction``. Nothing here imports the web, the database or bots.
"""

from __future__ import annotations

from typing import Any

from app.games.base import GameInfo, IllegalAction, Match, Option
from app.games.beutelschneider import BeutelschneiderMatch
from app.games.luegenbeutel import LuegenbeutelMatch
from app.games.mauscheln import MauschelnMatch
from app.games.schafkopf import SchafkopfMatch


def _info(cls: type[Match], title: str, blurb: str) -> GameInfo:
    return GameInfo(
        name=cls.name,
        title=title,
        min_players=cls.min_players,
        max_players=cls.max_players,
        match_class=cls,
        options=cls.options_spec,
        blurb=blurb,
    )


GAMES: dict[str, GameInfo] = {
    "schafkopf": _info(
        SchafkopfMatch,
        "Schafkopf",
        "Two teams of two, no auction: the trump suit rotates deal by deal. "
        "First team to 11 units wins.",
    ),
    "beutelschneider": _info(
        BeutelschneiderMatch,
        "Beutelschneider",
        "Tricks for gold coins with a blue trump court: the Assassin kills the Sovereign, "
        "the Adventurer seduces the Countess, the Guard stops the Beutelschneider's -20.",
    ),
    "mauscheln": _info(
        MauschelnMatch,
        "Mauscheln",
        "Four cards, four tricks, a pot of chips: say 'mauschel' to play, join in or fold. "
        "Each trick takes a quarter of the pot; whoever plays and takes no trick pays a bête.",
    ),
    "luegenbeutel": _info(
        LuegenbeutelMatch,
        "Lügenbeutel",
        "Lay cards face down, claim the required number and call the liar. "
        "Empty your hand first; first to 500 points wins.",
    ),
}


def new_match(
    name: str,
    players: int,
    options: dict[str, Any] | None = None,
    seed: int | str | None = None,
    deals: list[Any] | None = None,
) -> Match:
    """Start a match of game ``name``. Raises ValueError for an unknown game,
    a wrong number of players, bad options or a stacked deal that is not the deck."""
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}")
    return GAMES[name].match_class(players, options, seed=seed, deals=deals)


def restore(snapshot: dict[str, Any]) -> Match:
    """A match that behaves exactly as the one ``snapshot`` was taken from."""
    name = snapshot.get("game")
    if name not in GAMES:
        raise ValueError(f"unknown game {name!r}")
    return GAMES[name].match_class.from_snapshot(snapshot)


__all__ = ["GAMES", "GameInfo", "IllegalAction", "Match", "Option", "new_match", "restore"]
