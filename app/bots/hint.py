"""A hint (issue 28, practice tables): what the strong bot would do in a person's seat
now, and how it weighed the options.

The strong bot (:class:`app.bots.api.SearchBot`) is asked exactly as it is asked
when it plays the seat: the seat's view, its legal actions and the seat's memory of
the deal (the pool's :class:`~app.bots.search.History`, handed in as plain data and
never changed here: a hint is not an action). Its search reports a mean result per
option it played out (:class:`app.bots.search.core.Report`); where the game's search
weighs plans of several words (``candidates``), a legal action is worth its best
plan (the game's ``answer`` names a plan's first word, the action). Where the bot
answered without searching (one legal action, a game without a search, a view its
search could not make sense of, so the house rules answered) the hint says so and
gives no estimate. A seat that may act but need not (a challenge window) has letting
the moment pass as an option, under the game's name for silence (``SILENCE``).

No hidden card enters: the search draws its worlds from the view and the memory
only, with randomness from ``seed`` and what the seat sees.
"""

from __future__ import annotations

from typing import Any

from app.bots.api import MAX_SAMPLES, SearchBot
from app.bots.search import SILENCE, History

# the worlds a hint weighs at least, however busy the pool (its budget shrinks while
# bots queue): a person asked for estimates and waits a little longer for them
MIN_WORLDS = 12

# why a hint has no estimates
ONE_OPTION = "one"  # a single legal action: nothing to weigh
HOUSE_RULES = "house"  # the bot answered by its house rules, without a search


def hint(game: str, view: dict[str, Any], legal: list[str], memory: dict[str, Any] | None,
         *, budget_ms: float | None, seed: int, optional: bool = False,
         max_samples: int = MAX_SAMPLES) -> dict[str, Any]:
    """The strong bot's choice for the seat of ``view`` and its estimates, as JSON:
    ``{"action", "searched", "why", "samples", "options": [{"action", "estimate"}]}``,
    the options best first, one per legal action the search weighed (and silence);
    ``searched`` False (``why``: :data:`ONE_OPTION` or :data:`HOUSE_RULES`) with no
    options where it did not search. ``optional``: the seat may let the moment pass
    (``action`` is then the game's name for silence)."""
    bot = SearchBot(game, seed=seed, budget_ms=budget_ms, max_samples=max_samples,
                    min_samples=min(MIN_WORLDS, max_samples))
    bot.history = History.from_state(memory)
    silent = SILENCE.get(game)
    if optional:
        chosen = bot.choose_optional(view, legal)
        action = chosen if chosen is not None else (silent or "")
    else:
        action = bot.choose(view, legal)
    report = bot.last_report
    if report is None or not report.samples or not report.means:
        alone = len(legal) == 1 and not (optional and silent is not None)
        return {"action": action, "searched": False,
                "why": ONE_OPTION if alone else HOUSE_RULES, "samples": 0, "options": []}
    answer = getattr(bot.search_game, "answer", None)
    allowed = set(legal) | ({silent} if optional and silent else set())
    value: dict[str, float] = {}
    for plan, mean in report.means.items():
        first = answer(plan) if answer is not None else plan
        if first in allowed and (first not in value or mean > value[first]):
            value[first] = mean
    if action not in value:  # the house rules' choice stood outside the plans weighed
        return {"action": action, "searched": False, "why": HOUSE_RULES, "samples": 0,
                "options": []}
    options = sorted(value.items(), key=lambda kv: (-kv[1], kv[0] != action))
    return {"action": action, "searched": True, "why": "", "samples": report.samples,
            "options": [{"action": a, "estimate": v} for a, v in options]}


def top(options: list[dict[str, Any]], chosen: str, count: int = 3) -> list[dict[str, Any]]:
    """The ``count`` options with the best estimates, best first, the ``chosen`` one
    always among them (in place of the last, where the bot kept its own play though
    others led it by less than the noise)."""
    best = options[:count]
    if chosen in (o["action"] for o in best):
        return best
    mine = [o for o in options if o["action"] == chosen]
    return [*best[:count - 1], *mine] if mine else best
