"""Determinized search (perfect-information Monte Carlo, as Kermit plays Skat).

For one decision: deal the cards this seat cannot see in a way consistent with
everything it has seen (a *world*), rebuild the state in that world, and play
every legal action out to the end of the deal (Lügenbeutel: a few turns, then a
static score) with the house heuristic deciding for every seat. Every action is
tried on the same worlds and the same dice (common random numbers), so the
differences between actions are much less noisy than their values. An action
clearly beaten after a few worlds drops out of the race (``PRUNE``), so the worlds
left go to the actions that may still win. The action with the best mean wins,
unless its edge over the heuristic's own choice is within ``CONFIDENCE`` standard
errors: then the heuristic's choice stands, so the search leaves its rollout
policy only on evidence (a game may set its own ``confidence``: 0 lets the best
mean win outright, as the textbook search does, which also sets ``prune`` off).

The rollouts run on the engines of ``app.games`` themselves: a world is built as a
real match (``Match.from_view``: the state the view shows, the hidden places
filled in), each action is tried on a copy of it, and every rule comes from the
engine. What a view hides (``Match.unseen``) is the engine's answer too.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any, Protocol

from app.bots.search.history import History
from app.games import Match

# How many standard errors the best action must lead the heuristic's choice by: a
# light thumb on the scale for the heuristic (2.0 kept its choice nearly always at
# the worlds a decision affords; 0.5 measured better against the plain search).
CONFIDENCE = 0.5
SAFETY = 0.9  # share of the budget the search plans to use
# An option trailing the leader by this many standard errors after PRUNE_AFTER
# worlds is dropped (racing: the budget goes to the options that may still win).
PRUNE = 3.0
PRUNE_AFTER = 8
DEAL_END = "deal_end"  # the event a deal (a Lügenbeutel round) ends with


@dataclass
class World:
    """One determinization: every hidden place filled in (``place -> cards``, the
    places of ``Match.unseen``): ``hand:<seat>``, ``stock`` (top first), ``removed``,
    ``discards:<seat>``, ``discard``, ``open`` (the turn open to challenge),
    ``laid``. ``match``: the world as a match, when drawing it built one already."""

    hidden: dict[str, list[str]]
    match: Match | None = None


class Game(Protocol):
    """What the search needs of a game (one module per game implements it)."""

    name: str

    def prepare(self, view: dict[str, Any], history: History) -> Any:
        """What every world of this decision shares (what the view hides, the
        seat's memory of the deal); raises Inconsistent (a ValueError) when the
        view and the memory do not fit together."""

    def sample(self, position: Any, rng: random.Random) -> World:
        """A world consistent with the prepared ``position``; raises Inconsistent."""

    def build(self, position: Any, world: World, seed: int) -> Match:
        """The match the position shows, with the hidden parts from ``world``."""

    def rollout(self, match: Match, position: Any, action: str,
                rng: random.Random) -> float:
        """Apply ``action`` for the viewing seat, play on, return the result."""

    def prior(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        """The heuristic's choice (the rollout policy's answer at the root)."""

    # Optional: ``candidates(view, legal)``, the options to weigh instead of
    # ``legal`` (fewer, or plans of several actions), and ``answer(option)``, the
    # action of ``legal`` to take now for the option chosen (a plan's first word).


@dataclass
class Report:
    """What a search found: per action mean result, the samples behind it."""

    action: str
    samples: int
    means: dict[str, float]
    prior: str
    elapsed_ms: float
    failures: int = 0  # worlds that could not be drawn or rebuilt


def search(game: Game, view: dict[str, Any], legal: list[str], history: History,
           rng: random.Random, budget_ms: float | None, max_samples: int,
           min_samples: int = 1) -> Report:
    """The best of ``legal`` for the seat of ``view`` (``legal`` may hold a game's
    name for staying silent, which its ``rollout`` understands)."""
    start = time.perf_counter()
    prior = game.prior(view, legal, random.Random(rng.random()))
    if len(legal) == 1:
        return Report(legal[0], 0, {}, prior, 0.0)
    report = _search(game, view, legal, history, rng, budget_ms, max_samples,
                     min_samples, start, prior)
    answer = getattr(game, "answer", None)
    if answer is not None:
        report.action = answer(report.action)
    return report


def _search(game: Game, view: dict[str, Any], legal: list[str], history: History,
            rng: random.Random, budget_ms: float | None, max_samples: int,
            min_samples: int, start: float, prior: str) -> Report:
    """:func:`search` past the root's one legal action: the option to take (of
    ``candidates`` when the game narrows or widens ``legal``)."""
    narrow = getattr(game, "candidates", None)
    if narrow is not None:
        legal = narrow(view, legal)
        if prior not in legal:
            legal = [*legal, prior]
        if len(legal) == 1:
            return Report(legal[0], 0, {}, prior, 0.0)
    # leave room for the answer's way back and a slow last world
    deadline = None if budget_ms is None else start + max(0.0, SAFETY * budget_ms - 5) / 1000
    try:
        position = game.prepare(view, history)
    except ValueError:
        elapsed = (time.perf_counter() - start) * 1000.0
        return Report(prior, 0, {}, prior, elapsed, 1)

    keep = prior if getattr(game, "prune", True) else None
    results, samples, failures = _rollouts(game, position, legal, rng, deadline,
                                           max_samples, min_samples, keep)
    elapsed = (time.perf_counter() - start) * 1000.0
    if samples == 0:
        return Report(prior, 0, {}, prior, elapsed, failures)
    means = {a: sum(got) / len(got) for a, got in results.items() if got}
    # the best of the options weighed on every world (a pruned one stopped early)
    best = max((a for a in legal if len(results[a]) == samples),
               key=lambda a: (means[a], a == prior))
    diffs = [b - p for b, p in zip(results[best], results[prior], strict=True)]
    if best != prior and not _clearly_better(diffs, getattr(game, "confidence", CONFIDENCE)):
        best = prior
    return Report(best, samples, means, prior, elapsed, failures)


def _rollouts(game: Game, position: Any, options: list[str], rng: random.Random,
              deadline: float | None, max_samples: int, min_samples: int,
              keep: str | None = None) -> tuple[dict[str, list[float]], int, int]:
    """Every option of ``options`` played out on the same worlds and dice, world after
    world until ``max_samples`` or the ``deadline`` (but at least ``min_samples``):
    each option's result per world (in the worlds' order), the number of worlds and
    of worlds that failed.

    With ``keep`` (an option never dropped: the heuristic's choice), an option that
    trails the leader by more than ``PRUNE`` standard errors of its lead, world by
    world, after ``PRUNE_AFTER`` worlds, is played out no more: its results stop
    there, and the worlds left go to the options still in the race."""
    results: dict[str, list[float]] = {a: [] for a in options}
    racing = list(options)
    samples = 0
    failures = 0
    last_cost = 0.0
    while samples < max_samples:
        now = time.perf_counter()
        # stop when the next world would likely overrun the budget (never before
        # ``min_samples`` worlds: a late start still weighs the options)
        if deadline is not None and samples >= min_samples and now + last_cost > deadline:
            break
        sample_seed = rng.getrandbits(62)
        world_rng = random.Random(sample_seed)
        try:
            world = game.sample(position, world_rng)
            base = game.build(position, world, sample_seed)
        except ValueError:
            failures += 1
            if failures > 2 * max_samples + 10:
                break
            continue
        world_results: dict[str, float] = {}
        for action in racing:
            if (deadline is not None and samples >= min_samples
                    and time.perf_counter() > deadline):
                break  # out of time: this world is dropped half done
            world_results[action] = game.rollout(base.copy(), position, action,
                                                 random.Random(sample_seed ^ 0x5EED))
        if len(world_results) < len(racing):
            break
        for action in racing:
            results[action].append(world_results[action])
        samples += 1
        last_cost = time.perf_counter() - now
        if keep is not None and samples >= PRUNE_AFTER and len(racing) > 2:
            racing = _still_racing(results, racing, keep)
    return results, samples, failures


def _still_racing(results: dict[str, list[float]], racing: list[str],
                  keep: str) -> list[str]:
    """The options of ``racing`` not clearly beaten by the leader (``keep`` stays)."""
    leader = max(racing, key=lambda a: sum(results[a]))
    out = []
    for action in racing:
        if action in (leader, keep):
            out.append(action)
            continue
        diffs = [b - a for b, a in zip(results[leader], results[action], strict=True)]
        if not _clearly_better(diffs, PRUNE):
            out.append(action)
    return out


@dataclass
class Estimates:
    """Every option's result on each world of one decision (common random numbers:
    the i-th result of every option comes from the same world and dice)."""

    results: dict[str, list[float]]
    samples: int
    elapsed_ms: float
    failures: int = 0

    def mean(self, option: str) -> float:
        got = self.results[option]
        return sum(got) / len(got) if got else 0.0

    def paired_error(self, better: str, worse: str) -> float:
        """The standard error of the mean of ``better``'s lead over ``worse``, world
        by world (0 with fewer than two worlds)."""
        diffs = [b - w for b, w in zip(self.results[better], self.results[worse],
                                       strict=True)]
        n = len(diffs)
        if n < 2:
            return 0.0
        mean = sum(diffs) / n
        return math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)


def estimate(game: Game, view: dict[str, Any], options: list[str], history: History,
             rng: random.Random, budget_ms: float | None, max_samples: int,
             min_samples: int = 1) -> Estimates:
    """Every one of ``options`` (legal actions, the game's silence, or plans of its
    ``candidates``) played out on the same worlds, as :func:`search` weighs them but
    with no option left out (a review of a decision). Raises ValueError (the game's
    Inconsistent) when the view and the memory do not fit together."""
    start = time.perf_counter()
    deadline = None if budget_ms is None else start + max(0.0, SAFETY * budget_ms - 5) / 1000
    position = game.prepare(view, history)
    results, samples, failures = _rollouts(game, position, options, rng, deadline,
                                           max_samples, min_samples)
    return Estimates(results, samples, (time.perf_counter() - start) * 1000.0, failures)


def _clearly_better(diffs: list[float], confidence: float = CONFIDENCE) -> bool:
    """Whether the paired differences to the prior's results are positive beyond
    noise (``confidence`` standard errors, on ``PRUNE_AFTER`` worlds or more; 0:
    positive at all)."""
    n = len(diffs)
    mean = sum(diffs) / n
    if mean <= 0:
        return False
    if confidence <= 0:
        return True
    if n < PRUNE_AFTER:  # too few worlds to say how noisy the lead is
        return False
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if var == 0:
        return True
    return mean > confidence * math.sqrt(var / n)
