"""Lügenbeutel search: the round's points for this seat against the others' average.

What a world hides is the engine's answer
(:meth:`~app.games.luegenbeutel.LuegenbeutelMatch.unseen`): the other hands, the
stock, the discard pile, the cards of the turn open to challenge and the face-down
cards of the turn in progress, with a caught card that is certainly back in the
liar's hand. The seat's own face-down cards of its turn in progress it remembers
(:class:`~app.bots.search.history.History`); a world holds those.

The open turn is not dealt uniformly: the accused's hand before that turn is
dealt and kept with the chance that a player holding that many true cards makes
this claim (:func:`app.bots.luegenbeutel.claim_likelihood`, the house bot's own
model of the table: plausible play, or now and then a player who dumps cards),
tried up to ``WORLD_TRIES`` times. The turn's cards are then plausible play's (its
true cards first, the number's, then Jokers, and lies behind them, in the order the
house bot lies) or, with the chance that the claim was a dumper's who lays in any
order (:func:`app.bots.luegenbeutel.shuffled_share`), any of its cards in any order.
A skip or the one card laid after a pass is true with probability ``SINGLE_TRUE``
when the hand allowed it. So a claim of many cards from a small hand is mostly the
dumper's and its late cards lies, while a plausible claim is mostly true.

The bot's own turn weighs plausible play as the house bot plays it: its true cards
first, and a lie only while the claim stays plausible
(:func:`app.bots.luegenbeutel.may_lie`), never its last card
(:func:`candidate_actions`); and one more option, the dump (:func:`dump_plan`):
the whole hand laid at once, a try to go out that a challenge stops only by
picking a lie. Its rollouts lay the cards in a fresh random order in every world
(the table cannot know the order, so the search must not profit from knowing
it), and the others in the rollouts dump now and then too (the house bot's share
of dumpers, ``DUMPERS``).

A world is the engine's own match (``from_view``); rollouts play copies of it with
the house heuristic for every seat: on its turn ``choose_action``, in another's
challenge window ``choose_optional``, asked clockwise from the accused, once per
window. A rollout plays ``HORIZON`` turns, or to the end of the round (the points
from the engine's ``deal_end``), then scores the position with
:func:`expected_gains`.
"""

from __future__ import annotations

import math
import random
import zlib
from collections import Counter
from dataclasses import dataclass
from typing import Any

from app.bots import choose_action, choose_optional
from app.bots import luegenbeutel as heuristic
from app.bots.search.core import DEAL_END, World
from app.bots.search.deal import Inconsistent, deal
from app.bots.search.history import History
from app.bots.search.playout import HOUSE, Policy
from app.games import Match, Unseen
from app.games.actions import Lay, Skip
from app.games.luegenbeutel import (
    ACCEPT,
    END,
    LAY,
    NUMBERS,
    LuegenbeutelMatch,
    hand_points,
    is_true,
)

HORIZON = 6  # turns a rollout plays before the position is scored
WORLD_TRIES = 40  # draws per world while looking for one the claim makes likely
SINGLE_TRUE = 0.85  # a skip / a card laid after a pass is true if the hand allowed
SILENT = "silent"  # the search's name for letting a challenge window pass
STEP = ">"  # joins the actions of a plan (the dump: every card, then end the turn)
ENDED = "end"  # the event of every ended turn (a skip's too)
GAME = "luegenbeutel"


@dataclass
class Position:
    """One decision: the seat's view and what it hides (the seat's own face-down
    cards of its turn, when it remembers them, among the ``known``)."""

    view: dict[str, Any]
    unseen: Unseen

    @property
    def seat(self) -> int:
        return int(self.view["seat"])

    @property
    def accused(self) -> int | None:
        """The seat whose turn is open to challenge, unless it is this seat."""
        challenge = self.view["challenge"]
        accused = challenge["accused"] if challenge["open"] else None
        return None if accused == self.seat else accused


def prepare(view: dict[str, Any], history: History) -> Position:
    try:
        unseen = LuegenbeutelMatch.unseen(view)
    except ValueError as exc:
        raise Inconsistent(str(exc)) from exc
    seat = int(view["seat"])
    if view.get("turn") == seat and view.get("laid"):
        own = history.own_laid(view)
        if own is not None and not Counter(own) - Counter(unseen.cards):
            # the seat knows its own face-down cards (unless its memory does not
            # fit: an answer that was not played)
            for card in own:
                unseen.cards.remove(card)
            del unseen.places["laid"]
            unseen.known["laid"] = list(own)
    return Position(view, unseen)


# ----- worlds -----------------------------------------------------------------------------
def _split_open_turn(pre: list[str], count: int, kind: str, claim: str,
                     rng: random.Random) -> tuple[list[str], list[str]]:
    """From the accused's hand before the turn: (cards laid, in order; the rest)."""
    hand = list(pre)
    rng.shuffle(hand)
    # the true cards, the claim's own before the Jokers (as the house bot lays them)
    true = sorted((c for c in hand if is_true(c, claim)), key=lambda c: c != claim)
    if kind in ("skip", "pass"):
        if true and rng.random() < SINGLE_TRUE:
            laid = [true[0]]
        else:
            lies = [c for c in hand if not is_true(c, claim)] or hand
            laid = [lies[0]]
    elif rng.random() < heuristic.shuffled_share(count, len(hand), claim, len(true)):
        laid = hand[:count]  # a dumper's: any cards, in any order
    else:  # the true cards first, then lies as the house bot picks them
        laid = true[:count]
        rest = [c for c in hand if not is_true(c, claim)]
        while len(laid) < count and rest:
            lie = heuristic.lie_card(rest, claim)
            rest.remove(lie)
            laid.append(lie)
    left = list(pre)
    for c in laid:
        left.remove(c)
    return laid, left


def agrees(position: Position, hidden: dict[str, list[str]], rng: random.Random) -> bool:
    """Whether to keep the world ``hidden``: always without a claim to judge;
    otherwise with the chance that a player holding the accused's true cards of the
    world makes the claim, against the likeliest number of true cards."""
    stack = position.view.get("stack") or {}
    accused = position.accused
    if accused is None or stack.get("kind") != "lay":
        return True
    claim = str(stack["claim"])
    before = hidden["open"] + hidden[f"hand:{accused}"]
    weights = heuristic.claim_likelihood(len(hidden["open"]), len(before), claim)
    true = sum(1 for c in before if is_true(c, claim))
    return rng.random() * max(weights) < weights[true]


def sample_world(position: Position, rng: random.Random) -> dict[str, list[str]]:
    """The unseen cards dealt into their places; the accused's hand before its open
    turn is dealt whole and the turn taken from it as the house bot lays."""
    unseen, accused = position.unseen, position.accused
    places = dict(unseen.places)
    before = f"hand:{accused}"
    if accused is not None:
        places["before"] = places.pop(before) + places.pop("open")
    hidden = deal(unseen.cards, places, unseen.excluded, rng)
    if accused is not None:
        stack = position.view["stack"]
        hidden["open"], hidden[before] = _split_open_turn(
            hidden.pop("before"), int(stack["count"]), str(stack["kind"]),
            str(stack["claim"]), rng)
    for place, cards in unseen.known.items():
        hidden[place] = [*hidden.get(place, []), *cards]
    return hidden


# ----- rollouts ---------------------------------------------------------------------------
def _clockwise_from(seat: int, players: int) -> list[int]:
    return [(seat + i) % players for i in range(1, players + 1)]


def step(match: LuegenbeutelMatch, rng: random.Random, silent: int | None,
         polled: list[int | None], policy: Policy = HOUSE,
         dumpers: float = 0.0) -> list[dict[str, Any]]:
    """One action by ``policy`` (the heuristic bots unless given), as a table of
    bots would take it: in an
    open window the seats that need not act are asked first (clockwise from the
    accused, once per window: ``polled`` holds the last window asked; ``silent`` has
    let it pass), then the seat that must. A seat that begins its turn dumps its
    hand with the chance ``dumpers`` (every card in any order, then the turn's end,
    all in this one step). Returns the events."""
    window = match.challenge_window()
    if window is not None:
        assert match.open_turn is not None
        accused = match.open_turn["seat"]
        may = match.to_act()
        if match.phase == "challenge":  # a round's end: the first to answer settles it
            for s in _clockwise_from(accused, match.players):
                if s in may:
                    answer = policy.decide_optional(GAME, match, s, match.legal(s), rng)
                    return match.simulate(s, answer or ACCEPT)
        if polled[0] != window:
            polled[0] = window
            for s in _clockwise_from(accused, match.players):
                if s in (match.turn, silent, accused):
                    continue
                answer = policy.decide_optional(GAME, match, s, match.legal(s), rng)
                if answer is not None:
                    return match.simulate(s, answer)
    seat = match.turn
    assert seat is not None
    if dumpers and rng.random() < dumpers:
        hand = match.hands[seat]
        if len(hand) > 1 and not match.laid and not match.passed:
            events: list[dict[str, Any]] = []
            for card in rng.sample(hand, len(hand)):
                events += match.simulate(seat, LAY[card])
            return events + match.simulate(seat, END)
    legal = match.legal(seat)
    return match.simulate(seat, legal[0] if len(legal) == 1
                          else policy.decide(GAME, match, seat, legal, rng))


def expected_gains(match: LuegenbeutelMatch) -> list[float]:
    """Each seat's expected points from the round still in progress: the chance to
    go out first (from the cards in hand) times the points in the others' hands."""
    counts = [len(h) for h in match.hands]
    if match.phase == "challenge" and match.open_turn is not None:
        counts[match.open_turn["seat"]] = 0
    weights = [math.exp(-heuristic.WIN_SHARPNESS * c) for c in counts]
    total = sum(weights)
    points = [hand_points(h) for h in match.hands]
    everything = sum(points)
    return [w / total * (everything - p) for w, p in zip(weights, points, strict=True)]


def relative(gains: list[float], seat: int) -> float:
    others = [g for s, g in enumerate(gains) if s != seat]
    return gains[seat] - sum(others) / len(others)


class Luegenbeutel:
    name = GAME
    policy: Policy = HOUSE  # who decides for every seat in the rollouts
    # the standard errors a choice must lead the heuristic's by (app.bots.search.core):
    # a round's few worlds are noisy, and the light bar of the trick games let the
    # search drop a sure challenge for a gamble
    confidence = 2.0

    def prepare(self, view: dict[str, Any], history: History) -> Position:
        return prepare(view, history)

    def sample(self, position: Position, rng: random.Random) -> World:
        hidden = sample_world(position, rng)
        for _ in range(WORLD_TRIES):
            if agrees(position, hidden, rng):
                break
            hidden = sample_world(position, rng)
        return World(hidden)

    def build(self, position: Position, world: World, seed: int) -> Match:
        return LuegenbeutelMatch.from_view(position.view, world.hidden, None, seed)

    def rollout(self, match: Match, position: Position, action: str,
                rng: random.Random) -> float:
        assert isinstance(match, LuegenbeutelMatch)
        seat = position.seat
        silent = seat if action == SILENT else None
        events = []
        if STEP in action:  # the dump: its cards in an order the table cannot know
            *cards, end = action.split(STEP)
            for word in rng.sample(cards, len(cards)):
                events += match.simulate(seat, word)
            events += match.simulate(seat, end)
        elif action != SILENT:
            events = match.simulate(seat, action)
        polled: list[int | None] = [None]
        turns = 0
        while True:
            for event in events:
                if event["type"] == ENDED:
                    turns += 1
                elif event["type"] == DEAL_END:
                    return relative([float(p) for p in event["points"]], seat)
            if turns >= HORIZON:
                return relative(expected_gains(match), seat)
            events = step(match, rng, silent, polled, self.policy,
                          heuristic.DUMPERS if self.policy is HOUSE else 0.0)
            silent = None

    def prior(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        dump = dump_plan(view, legal) if dumping(view) else None
        if dump is not None:
            return dump  # a dump begun goes on to the last card
        if SILENT in legal:
            real = [a for a in legal if a != SILENT]
            return choose_optional(self.name, view, real, rng) or SILENT
        return choose_action(self.name, view, legal, rng)

    def candidates(self, view: dict[str, Any], legal: list[str]) -> list[str]:
        dump = dump_plan(view, legal)
        if dump is not None and dumping(view):
            return [dump]
        options = candidate_actions(view, legal)
        return options if dump is None else [*options, dump]

    def answer(self, option: str) -> str:
        """The action to take now for the option chosen (a plan's first card)."""
        return option.split(STEP)[0]


def dumping(view: dict[str, Any]) -> bool:
    """Whether the seat's turn in progress has gone past what the table may believe
    (only a dump does): then it lays the rest of its hand too."""
    laid = int(view.get("laid") or 0)
    start = len(view.get("hand") or []) + laid
    return laid > 0 and not view.get("passed") and laid > heuristic.most_plausible(
        start, str(view.get("number")))


def dump_plan(view: dict[str, Any], legal: list[str]) -> str | None:
    """The whole hand laid in one claim, then the turn ended: a try to go out now
    that a challenge stops only by picking a lie. The cards go down in an order
    shuffled by the position (the same view, the same order), so that no place of
    the turn is likelier than another to hold a true card. Begun, it goes on to
    the last card. None where the seat may not lay its whole hand (after a pass) or
    it would be a single card laid alone."""
    hand = sorted(view.get("hand") or [])
    if view.get("passed") or not hand or len(hand) + int(view.get("laid") or 0) < 2:
        return None
    if any(LAY[card].wire not in legal for card in hand):
        return None
    key = repr((hand, view.get("number"), view.get("laid"), view.get("hand_counts"),
                view.get("deal_no"), view.get("seat")))
    random.Random(zlib.crc32(key.encode())).shuffle(hand)
    return STEP.join([*(LAY[card].wire for card in hand), END.wire])


def candidate_actions(view: dict[str, Any], legal: list[str]) -> list[str]:
    """The actions worth searching: plausible play only (the true cards first, a lie
    only once none is left and while the claim stays plausible, never the last card;
    see :mod:`app.bots.luegenbeutel`); of the lies, a Lügenbeutel and the lie the
    heuristic would pick stand for all; likewise for skips."""
    number = str(view.get("number"))
    hand = list(view.get("hand") or [])
    start = len(hand) + int(view.get("laid") or 0)
    if view.get("passed"):  # only the drawn card may follow, alone
        may_lie = heuristic.may_lie(1, start, number)
    else:
        holds_true = any(is_true(c, number) for c in hand)
        may_lie = not holds_true and heuristic.may_lie(start - len(hand) + 1, start, number)
    lie = heuristic.lie_card(hand, number) if hand else None
    keep: list[str] = []
    for action in legal:
        typed = None if action == SILENT else LuegenbeutelMatch.parse(action)
        if isinstance(typed, Lay) and not is_true(typed.card, number) and not may_lie:
            continue
        if len(legal) > 6 and isinstance(typed, (Lay, Skip)) and typed.card in NUMBERS \
                and typed.card != number and typed.card != lie:
            continue
        keep.append(action)
    return keep


SEARCH = Luegenbeutel()  # this game's search, found by name (app.bots.search)
