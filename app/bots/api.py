"""One way to get a bot of any kind for any game.

    from app.bots import make_bot
    bot = make_bot(kind, game, seed=None, budget_ms=1000)
    bot.choose(view, legal) -> action            # the seat must act
    bot.choose_optional(view, legal) -> action | None   # it may act (None: stay silent)

Kinds: ``"random"`` (a uniformly random legal action), ``"heuristic"`` (the house
bots of ``app.bots.<game>`` through ``choose_action`` / ``choose_optional``) and
``"search"`` (determinized search, ``app.bots.search``), and for benchmarks only (never
offered at a table: the levels are ``app.bots.LEVELS``) ``"pimc"``, the textbook plain
determinized search the strong bot is measured against (``app.bots.search.pimc``:
random playouts, every legal action, the best mean). A bot sees only what it is
given: the seat's view and its legal actions. A search bot also remembers what its
seat saw earlier in the deal (the finished tricks), so call it at each of the seat's
turns, with a new bot per seat.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
from typing import Any

from app.bots import choose_action, choose_optional

log = logging.getLogger("stammtisch.bots")

KINDS = ("random", "heuristic", "search", "pimc")
DEFAULT_BUDGET_MS = 1000
MAX_SAMPLES = 2000  # worlds per decision at most (the budget usually ends it first)


class Bot:
    """The interface every kind has."""

    kind = ""

    def __init__(self, game: str, seed: int | None = None,
                 budget_ms: float | None = DEFAULT_BUDGET_MS) -> None:
        self.game = game
        self.seed = secrets.randbits(62) if seed is None else int(seed)
        self.budget_ms = budget_ms
        self.rng = random.Random(self.seed)

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        raise NotImplementedError

    def choose_optional(self, view: dict[str, Any], legal: list[str]) -> str | None:
        raise NotImplementedError


class RandomBot(Bot):
    kind = "random"

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if not legal:
            raise ValueError("a bot was asked to act without legal actions")
        return self.rng.choice(legal)

    def choose_optional(self, view: dict[str, Any], legal: list[str]) -> str | None:
        """A random legal action, or silence as often as any one action."""
        if not legal:
            return None
        pick = self.rng.randrange(len(legal) + 1)
        return legal[pick] if pick < len(legal) else None


class HeuristicBot(Bot):
    kind = "heuristic"

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        return choose_action(self.game, view, legal, self.rng)

    def choose_optional(self, view: dict[str, Any], legal: list[str]) -> str | None:
        return choose_optional(self.game, view, legal, self.rng)


class SearchBot(Bot):
    """Determinized search; the heuristic where the game has no search or the
    search cannot make sense of the view (``strict``: raise instead)."""

    kind = "search"

    def __init__(self, game: str, seed: int | None = None,
                 budget_ms: float | None = DEFAULT_BUDGET_MS,
                 max_samples: int = MAX_SAMPLES, strict: bool = False,
                 package: Any = None, min_samples: int = 1) -> None:
        """``package``: the search package to think with (``GAMES``, ``History``,
        ``search``, ``SILENCE``), :mod:`app.bots.search` unless given; a benchmark
        hands in another version of it to pit the two against each other.
        ``min_samples``: the worlds weighed however late the search starts (a hint
        wants estimates, a bot at a live table its budget)."""
        if package is None:
            import app.bots.search as package

        super().__init__(game, seed, budget_ms)
        self.package = package
        self.search_game = package.GAMES.get(game)
        self.history = package.History()
        self.max_samples = max_samples
        self.min_samples = min_samples
        self.strict = strict
        self.last_report: Any = None
        self.heuristic: Bot = HeuristicBot(game, self.seed, budget_ms)

    def _rng(self, view: dict[str, Any], legal: list[str]) -> random.Random:
        """Seeded by the bot's seed and what the seat sees: the same seed and the
        same view give the same worlds, whatever is hidden."""
        text = json.dumps([self.seed, view, legal], sort_keys=True, default=str)
        return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))

    def _search(self, view: dict[str, Any], options: list[str]) -> str:
        assert self.search_game is not None
        report = self.package.search(self.search_game, view, options, self.history,
                        self._rng(view, options), self.budget_ms, self.max_samples,
                        self.min_samples)
        self.last_report = report
        return report.action

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        if not legal:
            raise ValueError("a bot was asked to act without legal actions")
        self.history.observe(view)
        action = legal[0]
        if len(legal) > 1:
            action = self._guarded(view, legal, lambda: self._search(view, legal),
                                   lambda: self.heuristic.choose(view, legal))
        self.history.note_action(view, action)
        return action if action in legal else self.heuristic.choose(view, legal)

    def choose_optional(self, view: dict[str, Any], legal: list[str]) -> str | None:
        if not legal:
            return None
        self.history.observe(view)
        silent = self.package.SILENCE.get(self.game)
        if silent is None or "accept" in legal:
            # nothing to let pass (a game without windows, or a round end to answer)
            if silent is None:
                return self.heuristic.choose_optional(view, legal)
            return self.choose(view, legal)
        options = [*legal, silent]
        action = self._guarded(view, options, lambda: self._search(view, options),
                               lambda: self.heuristic.choose_optional(view, legal) or silent)
        return action if action in legal else None

    def _guarded(self, view: dict[str, Any], legal: list[str], run: Any, fallback: Any) -> Any:
        if self.search_game is None:
            return fallback()
        try:
            return run()
        except Exception:
            if self.strict:
                raise
            log.exception("search failed in %s; the heuristic answers", self.game)
            return fallback()


class PimcBot(SearchBot):
    """The plain determinized search (:mod:`app.bots.search.pimc`) on the search's
    worlds (``uniform``: drawn uniformly among the consistent ones); where it cannot
    search, a random legal action, not the heuristic."""

    kind = "pimc"

    def __init__(self, game: str, seed: int | None = None,
                 budget_ms: float | None = DEFAULT_BUDGET_MS,
                 max_samples: int = MAX_SAMPLES, strict: bool = False,
                 uniform: bool = False) -> None:
        from app.bots.search.pimc import plain

        super().__init__(game, seed, budget_ms, max_samples, strict)
        if self.search_game is not None:
            self.search_game = plain(self.search_game, uniform)
        self.heuristic = RandomBot(game, self.seed, budget_ms)  # the fallback


def make_bot(kind: str, game: str, seed: int | None = None,
             budget_ms: float | None = DEFAULT_BUDGET_MS, **options: Any) -> Bot:
    """A bot of ``kind`` (``random``, ``heuristic``, ``search`` or ``pimc``) for ``game``."""
    if kind == "random":
        return RandomBot(game, seed, budget_ms)
    if kind == "heuristic":
        return HeuristicBot(game, seed, budget_ms)
    if kind == "search":
        return SearchBot(game, seed, budget_ms, **options)
    if kind == "pimc":
        return PimcBot(game, seed, budget_ms, **options)
    raise ValueError(f"unknown bot kind {kind!r}; one of {', '.join(KINDS)}")
