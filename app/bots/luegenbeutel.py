"""A Lügenbeutel bot that plays the game as it is meant to be played: true cards,
now and then a lie the table cannot tell from the truth, and "Lügenbeutel!" for a
claim nobody's hand is likely to hold.

Plausible claims. Of the 112 cards, 33 are true for a number (its seven copies and
the 26 Jokers), 34 for an Aussetzen. A player who sees none of the liar's cards
therefore expects a hand of ``h`` cards to hold ``k`` or more true cards with the
binomial chance :func:`at_least`; a claim of ``k`` cards from a hand of ``h`` is
*plausible* while that chance is at least ``PLAUSIBLE`` (from ten cards: up to four;
from five: two; from one or two: one). Which cards are true is the engine's
:func:`~app.games.luegenbeutel.is_true`; the deck is the engine's ``DECK``.

Laying. The bot lays every true card of the number it holds (the copies, then the
Jokers), and then, with chance ``LIE_RATE`` for each card, lies behind them, as
long as the claim stays plausible and the lie is never its last card. Without a true
card it skips with an Aussetzen if it holds one (a true skip); otherwise it lies
with one card (chance ``BLUFF_RATE``; a Lügenbeutel card first, as it can never be
laid truly) or passes. After a pass it lays the drawn card only if it is true. So it
never dumps its hand in one lie: a claim of eight cards from ten would be called.

Challenging. Each claim is judged against two kinds of player: one who plays as
above (the share ``1 - DUMPERS``) and one who lays any number of cards, true ones
first (``DUMPERS``). Given the claim's size and the hand it came from, Bayes' rule
says how likely each card is a lie (:func:`lie_chances`): a claim that plausible play
rarely makes (many cards from a small hand, more than a hand of that size usually
holds) is most likely the dumper's, and its late cards most likely lies. The bot
challenges the card where a catch is worth most, and only when the cards the accused
would take back (weighted more when the accused is close to going out) outweigh the
die it would roll itself. At the end of a round it weighs the points it would hand
the winner by accepting against the die.

``choose`` answers whenever the seat is asked; ``optional`` is for a seat that may
call the liar but need not, and returns None to stay silent.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from functools import lru_cache
from math import comb
from typing import Any

from app.games.actions import Action, Challenge
from app.games.base import DIE_SIDES
from app.games.luegenbeutel import (
    ACCEPT,
    AUSSETZEN,
    CARD_POINTS,
    DECK,
    END,
    LAY,
    LUEGENBEUTEL,
    NUMBERS,
    PARSER,
    PASS,
    SKIP,
    is_true,
)

COPIES = Counter(DECK)
DIE_MEAN = (1 + DIE_SIDES) / 2
AVERAGE_POINTS = sum(CARD_POINTS[c] for c in DECK) / len(DECK)
CLAIMS = (*NUMBERS, AUSSETZEN)
# How many cards of the deck are true for each claim (the engine says which are).
TRUE_IN_DECK = {claim: sum(1 for c in DECK if is_true(c, claim)) for claim in CLAIMS}

PLAUSIBLE = 0.25  # a claim is plausible while this share of hands that size could hold it
LIE_RATE = 0.4  # chance to add one more lie behind the true cards, while plausible
BLUFF_RATE = 0.8  # without a true card or an Aussetzen: lie with one card, else pass
DUMPERS = 0.15  # share of players judged as laying any number of cards, lies included
DUMPERS_IN_ORDER = 0.5  # share of dumpers who lay their true cards first
# After a pass or a skip a player who lies at all rarely lies with that one card.
SINGLE_CARD_LIE = 0.1
DANGER = 3  # an accused with this few cards left is close to winning the round
# With several players a caught liar's extra cards help this seat only in part: its
# share of the table, plus this much for the catch itself.
CATCH_BONUS = 0.2
MATCH_AT_STAKE = 3  # how much more the points count when accepting may end the match
WIN_SHARPNESS = 0.45  # chance to go out first ~ exp(-WIN_SHARPNESS * cards in hand)


# ----- odds from what a seat can see -----------------------------------------------------
@lru_cache(maxsize=4096)
def _binomial(trials: int, good: int, total: int) -> tuple[float, ...]:
    """P(X = x) for x = 0..trials, X ~ Binomial(trials, good / total)."""
    p = max(0.0, min(1.0, good / max(total, 1)))
    return tuple(comb(trials, x) * p ** x * (1 - p) ** (trials - x)
                 for x in range(trials + 1))


def at_least(count: int, held: int, claim: str) -> float:
    """The chance that a hand of ``held`` cards, seen by nobody, holds ``count`` or
    more cards true for ``claim``: what the table believes of a claim."""
    return sum(_binomial(held, TRUE_IN_DECK[claim], len(DECK))[max(count, 0):])


def plausible(count: int, held: int, claim: str) -> bool:
    """Whether a claim of ``count`` cards from a hand of ``held`` is one the table
    may believe (``PLAUSIBLE``)."""
    return at_least(count, held, claim) >= PLAUSIBLE


def _unseen_true(hand: list[str], claim: str) -> tuple[int, int]:
    """(cards true for ``claim`` that this seat does not hold, cards it does not hold)."""
    mine = sum(1 for c in hand if is_true(c, claim))
    return TRUE_IN_DECK[claim] - mine, len(DECK) - len(hand)


@lru_cache(maxsize=512)
def most_plausible(held: int, claim: str) -> int:
    """The largest claim from a hand of ``held`` cards the table may believe."""
    return max((c for c in range(1, held + 1) if plausible(c, held, claim)), default=0)


def may_lie(count: int, held: int, claim: str) -> bool:
    """Whether plausible play adds a lie as card ``count`` of a turn begun with
    ``held`` cards: the claim stays plausible and the lie is not the last card."""
    return count < held and count <= most_plausible(held, claim)


@lru_cache(maxsize=4096)
def claim_likelihood(count: int, held: int, claim: str) -> tuple[float, ...]:
    """How likely a player makes a claim of ``count`` cards from a hand of ``held``
    when it held ``t`` cards true for the claim, for t = 0..held: plausible play
    (``1 - DUMPERS``) as :func:`choose` lays, or a dumper (``DUMPERS``) who lays
    1..held cards whatever it holds (:func:`dumper_share` splits the two)."""
    a_share = COPIES[AUSSETZEN] / (len(DECK) - TRUE_IN_DECK[claim])
    bound = most_plausible(held, claim)

    def lies(first: int) -> float:
        """Plausible play lies with cards first..count and stops there."""
        chance = 1.0
        for c in range(first, count + 1):
            chance *= LIE_RATE if may_lie(c, held, claim) else 0.0
        return chance * (1 - (LIE_RATE if may_lie(count + 1, held, claim) else 0.0))

    out = []
    for t in range(held + 1):
        if t == held:  # a hand of true cards goes out
            plain = 1.0 if count == held else 0.0
        elif t == 0:  # no true card: an Aussetzen skips; else one lie (or a pass)
            plain = (1 - a_share) ** held * BLUFF_RATE * lies(2) if held >= 2 else 0.0
        else:  # the true cards, as many as plausible, then lies while plausible
            laid = min(t, bound)
            plain = lies(laid + 1) if count >= laid else 0.0
        out.append((1 - DUMPERS) * plain + DUMPERS / held)
    return tuple(out)


def shuffled_share(count: int, held: int, claim: str, true: int) -> float:
    """The chance that a claim of ``count`` cards from a hand of ``held`` holding
    ``true`` cards true for the claim was a dumper's who lays in any order."""
    likelihood = claim_likelihood(count, held, claim)[true]
    share = DUMPERS / held * (1 - DUMPERS_IN_ORDER)
    return share / likelihood if likelihood > 0 else 1.0


@lru_cache(maxsize=4096)
def _claim_odds(count: int, held: int, claim: str, good: int, total: int
                ) -> tuple[float, ...]:
    """For a claim of ``count`` cards laid from a hand of ``held``: the chance that
    card ``i`` is a lie, for i = 1..count (index i - 1), then the chance that any
    card is. ``good`` of the ``total`` cards the judging seat does not hold are true
    for the claim.

    Plausible play lays its true cards first, so its card ``i`` is a lie exactly
    when it held fewer than ``i``; so does a dumper now and then
    (``DUMPERS_IN_ORDER``), while the others lay their cards in any order, each of
    them a lie with the share of untrue cards in the hand. Against those the first
    card is as good a target as the last, and a catch there takes the whole turn
    back."""
    prior = _binomial(held, good, total)  # how many true cards the accused held
    weights = claim_likelihood(count, held, claim)
    # true cards first: plausible play and the orderly dumpers
    ordered = [p * (w - DUMPERS / held * (1 - DUMPERS_IN_ORDER))
               for p, w in zip(prior, weights, strict=True)]
    shuffled = [p * DUMPERS / held * (1 - DUMPERS_IN_ORDER) for p in prior]
    whole = sum(ordered) + sum(shuffled) or 1.0
    each = sum(d * (1 - t / held) for t, d in enumerate(shuffled))
    odds = [(sum(ordered[:i]) + each) / whole for i in range(1, count + 1)]
    # any lie: held fewer than count true cards; of a shuffled dump, not all true
    anywhere = sum(ordered[:count]) + sum(
        d * (1 - comb(t, count) / comb(held, count)) for t, d in enumerate(shuffled))
    return (*odds, anywhere / whole)


def lie_chances(view: dict[str, Any]) -> dict[int | str, float]:
    """For every challenge of the open turn (its position: 1..count, "all"): the
    chance that it catches a lie, from this seat's view."""
    stack = view["stack"]
    claim, count = stack["claim"], int(stack["count"])
    accused = view["challenge"]["accused"]
    good, total = _unseen_true(view["hand"], claim)
    if stack["kind"] != "lay":
        # a skip, or the card drawn by a pass: one card, and seldom a bluff
        p = good / max(total, 1)
        lie = DUMPERS * (1 - p) + (1 - DUMPERS) * SINGLE_CARD_LIE
        return {i: lie for i in range(1, count + 1)} | {"all": lie}
    held = max(int(view["hand_counts"][accused]) + count, count)
    odds = _claim_odds(count, held, claim, good, total)
    chances: dict[int | str, float] = {i: odds[i - 1] for i in range(1, count + 1)}
    chances["all"] = odds[-1]
    return chances


def _taken_back(target: int | str, count: int) -> int:
    """The cards a liar caught by a challenge of ``target`` takes back, of a turn of
    ``count``: the doubted card and every one after it."""
    return count if target == "all" else count - int(target) + 1


def _best_challenge(view: dict[str, Any], challenges: list[Challenge]
                    ) -> tuple[Challenge, float]:
    """Of ``challenges`` (at least one), the one with the highest expected value for
    this seat, and that value (in cards: the accused's extra cards count at a
    weight, its own die fully)."""
    chances = lie_chances(view)
    count = view["stack"]["count"]
    accused = view["challenge"]["accused"]
    players = view["players"]
    close = view["hand_counts"][accused] <= DANGER
    weight = 1.0 if players == 2 or close else 1.0 / (players - 1) + CATCH_BONUS
    best, best_value = challenges[0], float("-inf")
    for action in challenges:
        target = action.position
        lie = chances.get(target, 0.0)
        back = _taken_back(target, count)
        value = lie * weight * (back + DIE_MEAN) - (1 - lie) * DIE_MEAN
        if value > best_value:
            best, best_value = action, value
    return best, best_value


def _challenges(legal: list[Action]) -> list[Challenge]:
    return [a for a in legal if isinstance(a, Challenge)]


def _round_end(view: dict[str, Any], legal: list[Action]) -> Action:
    """Someone emptied their hand: challenge or accept."""
    challenges = _challenges(legal)
    if not challenges:
        return legal[0]
    chances = lie_chances(view)
    seat, accused = view["seat"], view["challenge"]["accused"]
    mine = sum(CARD_POINTS[c] for c in view["hand"])
    counts = list(view["hand_counts"])
    others = sum(n for s, n in enumerate(counts) if s not in (seat, accused))
    # a catch keeps the round going: the points this seat would hand over, and its
    # own chance to win the round from here (the liar takes cards back and draws)
    counts[accused] = view["stack"]["count"] / 2 + DIE_MEAN
    going_out = [math.exp(-WIN_SHARPNESS * n) for n in counts]
    pot = sum(n for s, n in enumerate(counts) if s != seat) * AVERAGE_POINTS
    at_stake = mine + others * AVERAGE_POINTS + going_out[seat] / sum(going_out) * pot
    if view["scores"][accused] + at_stake >= view["target"]:
        at_stake *= MATCH_AT_STAKE
    cost = DIE_MEAN * AVERAGE_POINTS
    count = view["stack"]["count"]

    def value(challenge: Challenge) -> float:
        """A catch keeps the round going, and the more cards come back the
        better: a catch on the turn's first card takes the whole turn back."""
        target = challenge.position
        back = _taken_back(target, count)
        lie = chances[target]
        return lie * (at_stake + back * AVERAGE_POINTS) - (1 - lie) * cost

    action = max(challenges, key=value)
    if ACCEPT not in legal:
        return action
    lie = chances[action.position]
    return action if lie * at_stake > (1 - lie) * cost else ACCEPT


# ----- the turn ---------------------------------------------------------------------------
def _lay(view: dict[str, Any], legal: set[Action], rng: random.Random) -> Action:
    """The turn itself: lay, skip, pass, or end."""
    hand: list[str] = view["hand"]
    number = str(view["number"])
    laid = int(view["laid"])
    start = len(hand) + laid  # cards held when the turn began

    if view["passed"]:
        drawn = view.get("drawn")
        if drawn is not None and is_true(drawn, number) and LAY[drawn] in legal:
            return LAY[drawn]
        return END
    if hand and all(is_true(c, number) for c in hand):
        return LAY[hand[0]]  # nothing but true cards: out with them all
    if laid < most_plausible(start, number):
        # true cards, as many as the table may believe: the number's, then Jokers
        true = [c for c in hand if is_true(c, number)]
        if true:
            return LAY[min(true, key=lambda c: c != number)]
    if laid:
        # the true cards are down: one more lie now and then, while the table may
        # believe the claim, and never the last card
        if may_lie(laid + 1, start, number) and rng.random() < LIE_RATE:
            return LAY[lie_card(hand, number)]
        return END
    if AUSSETZEN in hand and SKIP[AUSSETZEN] in legal:
        return SKIP[AUSSETZEN]
    if len(hand) > 1 and rng.random() < BLUFF_RATE:
        return LAY[lie_card(hand, number)]
    return PASS


def lie_card(hand: list[str], number: str) -> str:
    """The card to lie with: a Lügenbeutel first (it can never be laid truthfully),
    then the number that is furthest from coming round again; an Aussetzen last (it
    makes a true skip)."""
    if LUEGENBEUTEL in hand:
        return LUEGENBEUTEL
    numbers = [c for c in hand if c in NUMBERS and c != number]
    if numbers:
        # the numbers come round in the engine's order (after the last the first)
        due = NUMBERS.index(number)
        return max(numbers, key=lambda c: ((NUMBERS.index(c) - due) % len(NUMBERS),
                                           NUMBERS.index(c)))
    spare = [c for c in hand if not is_true(c, number)]
    return spare[0] if spare else hand[0]


def decide(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """Challenge when it pays, otherwise take the turn (truthfully if possible); one
    of ``legal`` (the engine's typed actions)."""
    if "hand" not in view:
        return rng.choice(legal)
    challenges = _challenges(legal)
    if view["phase"] == "challenge":
        return _round_end(view, legal)
    turn = set(legal) - set(challenges)
    if challenges:
        action, value = _best_challenge(view, challenges)
        if value > 0 or not turn:
            return action  # with no turn of its own, any answer is a challenge
    if not turn:
        return rng.choice(legal)
    chosen = _lay(view, turn, rng)
    return chosen if chosen in turn else min(turn, key=lambda a: a.wire)


def decide_optional(view: dict[str, Any], legal: list[Action],
                    rng: random.Random) -> Action | None:
    """For a seat that may call the liar but need not: a challenge when it pays,
    ``accept`` or a challenge at the end of a round, else None (stay silent)."""
    if "hand" not in view or not legal:
        return None
    if view["phase"] == "challenge":
        return _round_end(view, legal)
    challenges = _challenges(legal)
    if not challenges:
        return None
    action, value = _best_challenge(view, challenges)
    return action if value > 0 else None


def choose(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """:func:`decide` asked with the room's strings, answering one of them."""
    return decide(view, PARSER.each(legal), rng).wire


def optional(view: dict[str, Any], legal: list[str], rng: random.Random) -> str | None:
    """:func:`decide_optional` asked with the room's strings."""
    action = decide_optional(view, PARSER.each(legal), rng)
    return None if action is None else action.wire
