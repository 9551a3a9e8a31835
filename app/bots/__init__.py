"""Bots: they see exactly what a player sees (``view(seat)`` and the seat's legal
actions) and answer with one of those actions. A game without its own bot falls
back to a random legal action.

Every module ``app/bots/<game>.py`` named after a game of ``app.games.GAMES`` is
that game's house bot: its ``decide(view, legal, rng)`` on the typed actions
(``Match.legal``; a search's playouts ask it), ``choose(view, legal, rng)``, the same
asked with the room's strings and answering one, and, for a game with moves a seat
may make but need not, ``decide_optional`` and ``optional`` (the same pair). They are
found here; nothing lists them."""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Callable
from typing import Any

from app.games import GAMES
from app.games.actions import Action

Policy = Callable[[dict[str, Any], list[str], random.Random], str]
Optional = Callable[[dict[str, Any], list[str], random.Random], str | None]
Decision = Callable[[dict[str, Any], list[Action], random.Random], Action]
OptionalDecision = Callable[[dict[str, Any], list[Action], random.Random], Action | None]

POLICIES: dict[str, Policy] = {}
DECISIONS: dict[str, Decision] = {}  # the same bots on typed actions

# A bot seat's level at the table and the kind of bot that plays it (see
# app.bots.api): "easy" plays the house rules, "strong" searches.
LEVELS: dict[str, str] = {"easy": "heuristic", "strong": "search"}
DEFAULT_LEVEL = "strong"
# a person's seat a bot plays for (away, out of time, released) gets the strong bot
STAND_IN_LEVEL = "strong"

BOT_NAMES = ["Alois", "Burgl", "Kathi", "Girgl", "Wastl", "Zenzi", "Fonse", "Leni"]


# Policies for moves a seat may make but need not (calling the liar in another
# player's challenge window): they answer an action or None to stay silent.
OPTIONAL: dict[str, Optional] = {}
OPTIONAL_DECISIONS: dict[str, OptionalDecision] = {}  # the same on typed actions


def _discover() -> None:
    for found in pkgutil.iter_modules(__path__):
        if found.name not in GAMES:
            continue
        module = importlib.import_module(f"{__name__}.{found.name}")
        POLICIES[found.name] = module.choose
        if hasattr(module, "decide"):
            DECISIONS[found.name] = module.decide
        if hasattr(module, "optional"):
            OPTIONAL[found.name] = module.optional
        if hasattr(module, "decide_optional"):
            OPTIONAL_DECISIONS[found.name] = module.decide_optional


_discover()


def choose_optional(game: str, view: dict[str, Any], legal: list[str],
                    rng: random.Random) -> str | None:
    """For a seat that may act but need not: an action from ``legal``, or None to
    let the moment pass (a game without an opinion stays silent)."""
    optional = OPTIONAL.get(game)
    choice = optional(view, legal, rng) if optional else None
    return choice if choice in legal else None


def choose_action(game: str, view: dict[str, Any], legal: list[str],
                  rng: random.Random) -> str:
    """The bot's choice among ``legal`` (never anything else)."""
    if not legal:
        raise ValueError("a bot was asked to act without legal actions")
    policy = POLICIES.get(game)
    action = policy(view, legal, rng) if policy else rng.choice(legal)
    return action if action in legal else rng.choice(legal)


def decide_action(game: str, view: dict[str, Any], legal: list[Action],
                  rng: random.Random) -> Action:
    """:func:`choose_action` on typed actions (a search's playouts): the bot's choice
    among ``legal``; the engine checks it when it is taken."""
    decide = DECISIONS.get(game)
    return decide(view, legal, rng) if decide else rng.choice(legal)


def decide_optional_action(game: str, view: dict[str, Any], legal: list[Action],
                           rng: random.Random) -> Action | None:
    """:func:`choose_optional` on typed actions: an action of ``legal`` or None to
    let the moment pass."""
    decide = OPTIONAL_DECISIONS.get(game)
    return decide(view, legal, rng) if decide else None


def make_bot(kind: str, game: str, seed: int | None = None, budget_ms: float | None = 1000,
             **options: Any) -> Any:
    """A bot object: ``bot.choose(view, legal)``, ``bot.choose_optional(view, legal)``;
    kinds ``"random"``, ``"heuristic"``, ``"search"`` (see :mod:`app.bots.api`)."""
    from app.bots.api import make_bot as make

    return make(kind, game, seed=seed, budget_ms=budget_ms, **options)
