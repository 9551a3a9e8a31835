"""A Lügenbeutel bot: true cards first, a measured run of lies behind them, and a
challenge only where the odds pay for the die.

Laying. Under these rules a caught lie at card ``i`` sends back only cards ``i`` to
the last of the turn (plus the die), and a challenge on a true card makes the
challenger draw. So the bot lays every card of the required number first, then tops
the turn up with lies (Lügenbeutel cards first, as they can never be laid truly,
then the numbers furthest from coming round) to about four fifths of the cards it
held, never its last card as a lie. It keeps its Jokers back: once only Jokers are
left it lays them, so a turn that empties its hand ends on true cards. Without a
card of the number it skips with an Aussetzen (a true skip) if it can; after a pass
it lays the drawn card only if that card is true.

Challenging. From its own hand it knows how many copies of the claimed card and how
many Jokers are unseen, hence how likely an unseen card is true. It weighs three
kinds of player: one who lays at random, one who lays true cards (the number or
Jokers) first and then lies, and one who lays the number first and keeps its Jokers;
for the last two, card ``i`` is a lie when that player held fewer than ``i`` cards of
that kind. It challenges the card where a catch is worth most, and only when the
cards the accused would take back (weighted more when the accused is close to going
out) outweigh the die it would roll itself. At the end of a round it weighs the
points it would hand the winner by accepting against the die.

``choose`` answers whenever the seat is asked; ``optional`` is for a seat that may
call the liar but need not, and returns None to stay silent.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from math import comb
from typing import Any

from app.games.base import DIE_SIDES
from app.games.luegenbeutel import (
    AUSSETZEN,
    CARD_POINTS,
    DECK,
    JOKER,
    LUEGENBEUTEL,
    NUMBERS,
)

COPIES = Counter(DECK)
DIE_MEAN = (1 + DIE_SIDES) / 2
AVERAGE_POINTS = sum(CARD_POINTS[c] for c in DECK) / len(DECK)
# How much each kind of player counts when judging a claim: lays at random, lays
# true cards first, lays the number first (and keeps its Jokers).
MODEL_WEIGHTS = (0.2, 0.2, 0.6)
# After a pass or a skip a player who lies at all rarely lies with that one card.
SINGLE_CARD_LIE = 0.1
LIE_SHARE = 0.8  # share of the hand held at the start of a turn the bot lays in it
DANGER = 3  # an accused with this few cards left is close to winning the round
# With several players a caught liar's extra cards help this seat only in part: its
# share of the table, plus this much for the catch itself.
CATCH_BONUS = 0.2
MATCH_AT_STAKE = 3  # how much more the points count when accepting may end the match


def _true_chance(hand: list[str], claim: str, jokers: bool = True) -> float:
    """Chance that an unseen card is true for ``claim`` (the claim itself, or with
    ``jokers`` also a Joker)."""
    mine = Counter(hand)
    unseen = len(DECK) - len(hand)
    good = COPIES[claim] - mine[claim]
    if jokers:
        good += COPIES[JOKER] - mine[JOKER]
    return max(0.0, min(1.0, good / max(unseen, 1)))


def _fewer_than(successes: int, trials: int, p: float) -> float:
    """P(X < successes) for X ~ Binomial(trials, p)."""
    return sum(comb(trials, x) * p ** x * (1 - p) ** (trials - x)
               for x in range(min(successes, trials + 1)))


def _lie_chances(view: dict[str, Any]) -> dict[str, float]:
    """For every legal challenge target: the chance that it catches a lie.

    Three kinds of player are weighed: one who lays cards at random; one who lays
    true cards (the number or Jokers) first and then lies; and one who lays the
    cards of the number first and keeps the Jokers. For the last two, card ``i`` is
    a lie when the player held fewer than ``i`` cards of the kind it lays first.
    """
    stack = view["stack"]
    claim, count = stack["claim"], stack["count"]
    accused = view["challenge"]["accused"]
    hand = view["hand"]
    p = _true_chance(hand, claim)
    p_exact = _true_chance(hand, claim, jokers=False)
    held = view["hand_counts"][accused] + count  # cards in the accused's hand before
    w_random, w_true, w_exact = MODEL_WEIGHTS
    if stack["kind"] != "lay":
        # a skip, or the card drawn by a pass: one card, and seldom a bluff
        lie = w_random * (1 - p) + (1 - w_random) * SINGLE_CARD_LIE
        return {str(i): lie for i in range(1, count + 1)} | {"all": lie}

    def lie_at(i: int) -> float:
        return (w_random * (1 - p) + w_true * _fewer_than(i, held, p)
                + w_exact * _fewer_than(i, held, p_exact))

    chances = {str(i): lie_at(i) for i in range(1, count + 1)}
    chances["all"] = (w_random * (1 - p ** count) + w_true * _fewer_than(count, held, p)
                      + w_exact * _fewer_than(count, held, p_exact))
    return chances


def _best_challenge(view: dict[str, Any], legal: list[str]) -> tuple[str, float]:
    """The challenge with the highest expected value for this seat, and that value
    (in cards: the accused's extra cards count at a weight, its own die fully)."""
    chances = _lie_chances(view)
    count = view["stack"]["count"]
    accused = view["challenge"]["accused"]
    players = view["players"]
    close = view["hand_counts"][accused] <= DANGER
    weight = 1.0 if players == 2 or close else 1.0 / (players - 1) + CATCH_BONUS
    best, best_value = "", float("-inf")
    for action in legal:
        if not action.startswith("challenge:"):
            continue
        target = action.split(":", 1)[1]
        lie = chances.get(target, 0.0)
        back = count if target == "all" else count - int(target) + 1
        value = lie * weight * (back + DIE_MEAN) - (1 - lie) * DIE_MEAN
        if value > best_value:
            best, best_value = action, value
    return best, best_value


def _round_end(view: dict[str, Any], legal: list[str]) -> str:
    """Someone emptied their hand: challenge or accept."""
    action, _ = _best_challenge(view, legal)
    if not action or "accept" not in legal:
        return action or legal[0]
    chances = _lie_chances(view)
    lie = chances[action.split(":", 1)[1]]
    seat, accused = view["seat"], view["challenge"]["accused"]
    mine = sum(CARD_POINTS[c] for c in view["hand"])
    others = sum(n for s, n in enumerate(view["hand_counts"]) if s not in (seat, accused))
    at_stake = mine + others * AVERAGE_POINTS
    if view["scores"][accused] + at_stake >= view["target"]:
        at_stake *= MATCH_AT_STAKE
    cost = DIE_MEAN * AVERAGE_POINTS
    return action if lie * at_stake > (1 - lie) * cost else "accept"


def _lay(view: dict[str, Any], legal: set[str]) -> str:
    """The turn itself: lay, skip, pass, or end."""
    hand: list[str] = view["hand"]
    number = str(view["number"])
    counts = Counter(hand)
    laid = int(view["laid"])
    start = len(hand) + laid  # cards held when the turn began

    if view["passed"]:
        drawn = view.get("drawn")
        if drawn in (number, JOKER) and "lay:" + drawn in legal:
            return "lay:" + drawn
        return "end"
    if counts[number] and "lay:" + number in legal:
        return "lay:" + number
    if counts[JOKER] and counts[JOKER] == len(hand):
        return "lay:" + JOKER  # only Jokers left: they empty the hand
    if not laid and counts[AUSSETZEN] and "skip:" + AUSSETZEN in legal:
        return "skip:" + AUSSETZEN
    if laid < math.ceil(LIE_SHARE * start) and len(hand) > 1:
        # never the last card as a lie; a Joker kept back may close the turn
        return "lay:" + _lie_card(hand, number)
    return "end" if laid else "pass"


def _lie_card(hand: list[str], number: str) -> str:
    """The card to lie with: a Lügenbeutel first (it can never be laid truthfully),
    then the number that is furthest from coming round again."""
    if LUEGENBEUTEL in hand:
        return LUEGENBEUTEL
    numbers = [c for c in hand if c in NUMBERS and c != number]
    if numbers:
        due = int(number)
        return max(numbers, key=lambda c: ((int(c) - due) % 10, int(c)))
    spare = [c for c in hand if c not in (number, JOKER)]
    return spare[0] if spare else hand[0]


def choose(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """Challenge when it pays, otherwise take the turn (truthfully if possible)."""
    if "hand" not in view:
        return rng.choice(legal)
    challenges = [a for a in legal if a.startswith("challenge:")]
    if view["phase"] == "challenge":
        return _round_end(view, legal)
    turn = set(legal) - set(challenges)
    if challenges:
        action, value = _best_challenge(view, challenges)
        if value > 0 or not turn:
            return action  # with no turn of its own, any answer is a challenge
    if not turn:
        return rng.choice(legal)
    action = _lay(view, turn)
    return action if action in turn else sorted(turn)[0]


def optional(view: dict[str, Any], legal: list[str], rng: random.Random) -> str | None:
    """For a seat that may call the liar but need not: a challenge when it pays,
    ``accept`` or a challenge at the end of a round, else None (stay silent)."""
    if "hand" not in view or not legal:
        return None
    if view["phase"] == "challenge":
        return _round_end(view, legal)
    challenges = [a for a in legal if a.startswith("challenge:")]
    if not challenges:
        return None
    action, value = _best_challenge(view, challenges)
    return action if value > 0 else None
