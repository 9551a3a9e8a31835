"""Search bots: determinized search (PIMC) with the house heuristics as rollout
policy. ``GAMES`` maps a game name to its search; :func:`sample_worlds` exposes the
sampler (what a seat imagines the hidden cards to be)."""

from __future__ import annotations

import random
from typing import Any

from app.bots.search.beutelschneider import Beutelschneider
from app.bots.search.core import Game, Report, World, search
from app.bots.search.deal import Inconsistent
from app.bots.search.history import History
from app.bots.search.luegenbeutel import SILENT, Luegenbeutel
from app.bots.search.mauscheln import Mauscheln
from app.bots.search.schafkopf import Schafkopf

GAMES: dict[str, Game] = {
    "schafkopf": Schafkopf(),
    "beutelschneider": Beutelschneider(),
    "mauscheln": Mauscheln(),
    "luegenbeutel": Luegenbeutel(),
}

# Games whose seats may let a moment pass (a challenge window): the search weighs
# staying silent as one more option, under this name.
SILENCE: dict[str, str] = {"luegenbeutel": SILENT}


def sample_worlds(game: str, view: dict[str, Any], count: int, seed: int,
                  history: History | None = None) -> list[World]:
    """``count`` worlds the search would imagine for this view (and this seat's
    memory of the deal), drawn exactly as the search draws them for ``seed``."""
    if history is None:
        history = History()
        history.observe(view)
    rng = random.Random(seed)
    return [GAMES[game].sample(view, history, random.Random(rng.getrandbits(62)))
            for _ in range(count)]


__all__ = ["GAMES", "SILENCE", "History", "Inconsistent", "Report", "World",
           "sample_worlds", "search"]
