"""The review of a seat's deal (issue 28): for each of its decisions, every option
it had, weighed by the strong bot's search from exactly what the seat knew then.

A decision is a :class:`DecisionPoint`: the seat's view just before it acted, its
legal actions then and the action it took. The search
(:func:`app.bots.search.core.estimate`) plays every option out on the same
imagined worlds (common random numbers), worlds drawn from that view and from the
seat's memory of the deal: the earlier decisions' views and its own actions, fed to
the search's :class:`~app.bots.search.History` as a bot in that seat is fed them.
No hidden card enters: a world is drawn from the view alone, and the randomness
comes from the caller's ``seed`` and what the seat saw, so two deals that differ
only in cards hidden from the seat are reviewed alike.

Where the game's search weighs plans of several words (the classic Schafkopf's
auction: ``bid>class:solo>trump:E``), a legal action is worth its best plan. Where
a seat acted when it need not have (a challenge or a Kontra off turn), letting the
moment pass was an option too: it is listed after the legal actions, under the
game's name for silence (``SILENCE``, e.g. ``"silent"``).

The estimates are in the game's measure, as each game's search counts a deal
(see :data:`MEASURES`). The best option is the best of those the strong bot itself
weighs (its ``candidates``; every legal action where the game has none), the
chosen one and silence: an option the search leaves out on purpose is estimated but
never called better. A decision is a mistake when an option leads the chosen one
by more than the game's :data:`THRESHOLDS` and beyond noise: by more than
:func:`confidence` standard errors of the lead, world by world, on at least
``MARK_SAMPLES`` worlds (the best by its mean may be a gamble whose lead is large
but uncertain, Lügenbeutel's dump; the best of the options sure to be better is
then the one shown). The more options (plans) were weighed, the likelier one of
them leads by chance, so the bar rises with their number (a two-sided 5 % level
shared among them, as Bonferroni would).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from app.bots.search import GAMES as SEARCHES
from app.bots.search import SILENCE, History
from app.bots.search.core import Estimates, Game, estimate
from app.bots.search.tricks import TrickSearch
from app.games import GAMES
from app.games.actions import Challenge
from app.games.base import N_, Reason

MAX_SAMPLES = 2000  # worlds per decision at most (the budget usually ends it first)
ALONE_SHARE = 0.25  # of the budget for a decision with one option (its estimate only)
MARK_SAMPLES = 4  # worlds at least behind a mistake (fewer say too little of the noise)
LEVEL = 0.05  # the chance, all options alike, that noise alone makes a mark

# What an estimate counts, per game (the result each game's search plays for):
MEASURES: dict[str, str] = {
    "schafkopf": "units won minus units lost by the seat's team in the deal, the "
                 "card point margin counted at 0.5 units per deal's points",
    "beutelschneider": "points: the seat's hand total from now to the hand's end "
                       "against the other seats' average",
    "schafkopf_classic": "cents the seat wins (or pays, negative) in the deal",
    "mauscheln": "chips the seat wins (or loses, negative) in the deal",
    "luegenbeutel": "points: the seat's expected points of the round against the "
                    "other seats' average, six turns ahead",
}

# Per game, the loss (in the game's measure) above which a decision is a mistake.
THRESHOLDS: dict[str, float] = {
    "schafkopf": 0.25,
    "beutelschneider": 4.0,
    "schafkopf_classic": 6.0,
    "mauscheln": 1.0,
    "luegenbeutel": 8.0,
}

BETTER = N_("{best} was better: it wins {points} more on average")
PASS_BETTER = N_("Letting it pass was better: it wins {points} more on average")
NOT_WEIGHED = N_("This decision could not be weighed")
# game-specific reasons, where the decision's kind says more than the numbers
TOOK_TRICK = N_("{best} would have taken this trick: it wins {points} more on average")
CHALLENGE_DID_NOT_PAY = N_("Calling the liar did not pay here: {best} wins {points} more "
                           "on average")
WORTH_PLAYING = N_("Your hand was worth playing: {best} wins {points} more on average")
GIVE_UP = ("pass", "fold")  # Mauscheln: the words that give the deal up


@dataclass(frozen=True)
class DecisionPoint:
    """What one seat knew and did at one decision."""

    seq: int  # the room version the action made (its place in the match)
    seat: int
    view: dict[str, Any]  # the seat's view (Match.view(seat)) just before it acted
    legal: list[str]  # its legal actions then (Match.legal_actions(seat))
    chosen: str  # the action it took


@dataclass(frozen=True)
class Option:
    action: str
    estimate: float


@dataclass(frozen=True)
class Reviewed:
    seq: int
    chosen: str
    best: str
    options: tuple[Option, ...]  # the legal actions in legal's order (then silence)
    mistake: bool
    reason: Reason | None
    loss: float  # estimate(best) - estimate(chosen), >= 0, in the game's measure


def _rng(seed: int, point: DecisionPoint) -> random.Random:
    """The search's randomness for one decision: the caller's seed and what the
    seat saw (never a hidden card)."""
    text = json.dumps([seed, point.seq, point.seat, point.view, point.legal],
                      sort_keys=True, default=str)
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


def _memory(earlier: Sequence[DecisionPoint], now: DecisionPoint) -> History:
    """The seat's memory of the deal at decision ``now``, as a bot keeps it: every
    view it saw at its earlier decisions and its own actions, then this view."""
    history = History()
    for point in earlier:
        history.observe(point.view)
        history.note_action(point.view, point.chosen)
    history.observe(now.view)
    return history


def may_pass(game: str, point: DecisionPoint) -> str | None:
    """The game's name for silence when the seat acted though it need not have (off
    turn, in a window it may let pass); None when it had to act."""
    silent = SILENCE.get(game)
    if silent is None or "accept" in point.legal:
        return None
    return silent if point.view.get("turn") != point.seat else None


def confidence(rivals: int) -> float:
    """How many standard errors the best must lead the chosen option by, when
    ``rivals`` options were weighed against it: 1.96 for one, 2.8 for ten."""
    return NormalDist().inv_cdf(1 - LEVEL / 2 / max(1, rivals))


def _plans(search: Game, view: dict[str, Any], legal: list[str]) -> dict[str, list[str]]:
    """For each legal action the options the search plays out for it: the plans of
    the game's ``candidates`` that begin with it, or the action alone."""
    candidates = getattr(search, "candidates", None)
    answer = getattr(search, "answer", None)
    plans: dict[str, list[str]] = {a: [] for a in legal}
    if candidates is not None and answer is not None:
        for plan in candidates(view, legal):
            first = answer(plan)
            if first in plans and plan not in plans[first]:
                plans[first].append(plan)
    return {a: found or [a] for a, found in plans.items()}


def _considered(search: Game, view: dict[str, Any], legal: list[str]) -> set[str]:
    """The legal actions the strong bot itself weighs here (its ``candidates``, a
    plan standing for its first word): the options a review may call better. The
    others are estimated too, but the search leaves them out on purpose (Lügenbeutel's
    implausible lies, which its short rollouts would overrate)."""
    candidates = getattr(search, "candidates", None)
    if candidates is None:
        return set(legal)
    answer = getattr(search, "answer", None)
    return {answer(c) if answer is not None else c for c in candidates(view, legal)} & set(legal)


def review_point(game: str, point: DecisionPoint, earlier: Sequence[DecisionPoint] = (), *,
                 budget_ms: float | None, seed: int,
                 max_samples: int = MAX_SAMPLES) -> Reviewed:
    """The review of one decision; ``earlier``: the seat's decisions of the same deal
    before it, in order (its memory). One task of a pool."""
    search = SEARCHES[game]
    legal = list(point.legal)
    if point.chosen not in legal:
        raise ValueError(f"the chosen action {point.chosen!r} is not one of the seat's "
                         "legal actions")
    plans = _plans(search, point.view, legal)
    silent = may_pass(game, point)
    if silent is not None:
        plans[silent] = [silent]
    options = [plan for found in plans.values() for plan in found]
    if len(options) == 1:
        budget_ms = None if budget_ms is None else budget_ms * ALONE_SHARE
        max_samples = max(1, min(max_samples, 64))
    try:
        found = estimate(search, point.view, options, _memory(earlier, point), _rng(seed, point),
                         budget_ms, max_samples)
    except ValueError:
        found = Estimates({}, 0, 0.0, 1)
    if found.samples == 0:
        return Reviewed(point.seq, point.chosen, point.chosen,
                        tuple(Option(a, 0.0) for a in plans), False, Reason(NOT_WEIGHED),
                        0.0)
    # each option is worth its best plan
    top = {a: max(found_plans, key=found.mean) for a, found_plans in plans.items()}
    value = {a: found.mean(plan) for a, plan in top.items()}
    chosen = point.chosen
    pool = _considered(search, point.view, legal) | {chosen} | ({silent} if silent else set())
    best = max(pool, key=lambda a: (value[a], a == chosen))
    loss = value[best] - value[chosen]  # >= 0: best is the largest
    bar = confidence(len(options) - 1)

    def clearly_better(option: str) -> bool:
        lead = value[option] - value[chosen]
        return (lead > THRESHOLDS.get(game, 0.0) and found.samples >= MARK_SAMPLES
                and lead > bar * found.paired_error(top[option], top[chosen]))

    # a mistake when some option leads beyond noise: the best by its mean may be a
    # gamble (Lügenbeutel's dump) whose lead is large but not certain
    clear = [a for a in pool if a != chosen and clearly_better(a)]
    mistake = bool(clear)
    reason = None
    if mistake:  # the better option shown is the best of those sure to be better
        best = max(clear, key=lambda a: value[a])
        loss = value[best] - value[chosen]
        reason = _reason(game, search, point, earlier, best, silent, round(loss, 1), seed)
    return Reviewed(point.seq, point.chosen, best,
                    tuple(Option(a, value[a]) for a in plans), mistake, reason, loss)


def _trick_takers(search: Game, point: DecisionPoint, earlier: Sequence[DecisionPoint],
                  options: list[str], seed: int) -> dict[str, int]:
    """For each of ``options`` that ends the open trick: the seat that takes it. All
    the trick's cards are face up, so any world the seat imagines says the same; one
    is drawn and asked (the engine knows who takes a trick)."""
    if not isinstance(search, TrickSearch):
        return {}
    try:
        position = search.prepare(point.view, _memory(earlier, point))
        match = search.build(position, search.sample(position, _rng(seed, point)), seed)
    except ValueError:
        return {}
    takers: dict[str, int] = {}
    for action in options:
        for event in match.copy().simulate(point.seat, action):
            if event["type"] == "trick":
                takers[action] = int(event["winner"])
    return takers


def _reason(game: str, search: Game, point: DecisionPoint, earlier: Sequence[DecisionPoint],
            best: str, silent: str | None, points: float, seed: int) -> Reason:
    """The sentence of a mistake: the most telling of the game-specific ones that
    fits, else the general one."""
    chosen = point.chosen
    if best == silent:
        return Reason(PASS_BETTER, points=points)
    read = GAMES[game].match_class.parser.read
    if isinstance(read(chosen), Challenge) and not isinstance(read(best), Challenge):
        return Reason(CHALLENGE_DID_NOT_PAY, best=best, points=points)
    if game == "mauscheln" and chosen in GIVE_UP and best not in GIVE_UP:
        return Reason(WORTH_PLAYING, best=best, points=points)
    takers = _trick_takers(search, point, earlier, [chosen, best], seed)
    if takers.get(best) == point.seat and takers.get(chosen, point.seat) != point.seat:
        return Reason(TOOK_TRICK, best=best, points=points)
    return Reason(BETTER, best=best, points=points)


def review_points(game: str, points: Sequence[DecisionPoint], *, budget_ms: float | None,
                  seed: int, max_samples: int = MAX_SAMPLES) -> list[Reviewed]:
    """One seat's decisions of one deal, in order, each reviewed from what the seat
    knew then (its view and its memory of the earlier decisions); ``budget_ms`` per
    decision (None: ``max_samples`` worlds each)."""
    return [review_point(game, point, points[:i], budget_ms=budget_ms, seed=seed,
                         max_samples=max_samples)
            for i, point in enumerate(points)]
