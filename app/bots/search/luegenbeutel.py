"""Lügenbeutel search: the round's points for this seat against the others' average.

Hidden: the other hands, the stock, the discard pile and the cards of the turn
open to challenge (and the own face-down cards of the turn in progress, if the
bot did not see itself lay them). Known: the own hand, how many cards every pile
and hand holds, the deck (seven of each number, 26 Jokers, 8 Lügenbeutel, 8
Aussetzen), and a challenged card whose place is certain (a caught card is back
in the liar's hand, a true one on the discard pile, until anything moves them).

The open turn is not dealt uniformly: the accused's hand before that turn is
dealt and kept with the chance that a player holding that many true cards makes
this claim (:func:`app.bots.luegenbeutel.claim_likelihood`, the house bot's own
model of the table: plausible play, or now and then a player who dumps cards),
tried up to ``WORLD_TRIES`` times. The turn's cards are then its true cards first
(the number's, then Jokers) and lies behind them, in the order the house bot lies.
A skip or the one card laid after a pass is true with probability ``SINGLE_TRUE``
when the hand allowed it. So a claim of many cards from a small hand is mostly the
dumper's and its late cards lies, while a plausible claim is mostly true.

The bot's own turn keeps to plausible play as the house bot does: its true cards
first, and a lie only while the claim stays plausible
(:func:`app.bots.luegenbeutel.may_lie`), never its last card; it never dumps its
hand in one lie (:func:`candidate_actions`).

Rollouts run on :class:`Round`, a lean copy of the round's rules (tested against
the engine), with the house heuristic for every seat: on its turn
``choose_action``, in another's challenge window ``choose_optional``, asked
clockwise from the accused. A rollout plays ``HORIZON`` turns, or to the end of the
round, then scores the position with :func:`expected_gains`.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from app.bots import choose_action, choose_optional
from app.bots import luegenbeutel as heuristic
from app.bots.search.core import World
from app.bots.search.deal import Inconsistent, deal
from app.bots.search.history import History
from app.games.base import DIE_SIDES
from app.games.luegenbeutel import (
    AUSSETZEN,
    DECK,
    JOKER,
    LAST_NUMBER,
    NUMBERS,
    SKIP_STEP,
    challenge_actions,
    hand_points,
    is_true,
    next_number,
    sort_hand,
    turn_actions,
)

HORIZON = 6  # turns a rollout plays before the position is scored
WORLD_TRIES = 40  # draws per world while looking for one the claim makes likely
SINGLE_TRUE = 0.85  # a skip / a card laid after a pass is true if the hand allowed
SILENT = "silent"  # the search's name for letting a challenge window pass
DECK_COUNT = Counter(DECK)


class Round:
    """One Lügenbeutel round from now on (the engine's rules, no clock)."""

    def __init__(self, players: int, reveal_all: bool, target: int, scores: list[int],
                 rng: random.Random) -> None:
        self.players = players
        self.reveal_all = reveal_all
        self.target = target
        self.scores = scores
        self.rng = rng
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.stock: list[str] = []
        self.discard: list[str] = []
        self.number = 1
        self.turn: int | None = 0
        self.laid: list[str] = []
        self.passed = False
        self.drawn: str | None = None
        self.open_turn: dict[str, Any] | None = None
        self.accepted: list[int] = []
        self.last_turn: dict[str, Any] | None = None
        self.last_challenge: dict[str, Any] | None = None
        self.phase = "play"
        self.winner: int | None = None
        self.gained = [0] * players
        self.turns = 0  # turns ended since the search began
        self.polled = False  # the open window was offered to the silent seats

    def copy(self) -> Round:
        twin = Round.__new__(Round)
        twin.__dict__.update(self.__dict__)
        twin.hands = [list(h) for h in self.hands]
        twin.stock = list(self.stock)
        twin.discard = list(self.discard)
        twin.laid = list(self.laid)
        twin.open_turn = None if self.open_turn is None else dict(
            self.open_turn, cards=list(self.open_turn["cards"]))
        twin.accepted = list(self.accepted)
        twin.last_turn = None if self.last_turn is None else dict(self.last_turn)
        twin.gained = list(self.gained)
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        return twin

    # ----- chance -------------------------------------------------------------------
    def _shuffled(self, cards: list[str]) -> list[str]:
        deck = list(cards)
        self.rng.shuffle(deck)
        return deck

    def _draw(self, seat: int, count: int) -> list[str]:
        drawn: list[str] = []
        for _ in range(count):
            if not self.stock and self.discard:
                self.stock = self._shuffled(self.discard)
                self.discard = []
            if not self.stock:
                break
            drawn.append(self.stock.pop(0))
        self.hands[seat].extend(drawn)
        return drawn

    def _reshuffle(self) -> None:
        self.stock = self._shuffled(self.stock + self.discard)
        self.discard = []

    # ----- who may do what --------------------------------------------------------------
    def challengers(self) -> list[int]:
        if self.open_turn is None:
            return []
        others = [s for s in range(self.players) if s != self.open_turn["seat"]]
        if self.phase == "challenge":
            return [s for s in others if s not in self.accepted]
        return others

    def turn_actions(self, seat: int) -> list[str]:
        return turn_actions(self.hands[seat], len(self.laid), self.passed, self.drawn)

    def legal(self, seat: int) -> list[str]:
        actions: list[str] = []
        if self.phase == "play" and seat == self.turn:
            actions += self.turn_actions(seat)
        if seat in self.challengers():
            assert self.open_turn is not None
            actions += challenge_actions(len(self.open_turn["cards"]), self.reveal_all)
            if self.phase == "challenge":
                actions.append("accept")
        return actions

    # ----- applying ----------------------------------------------------------------------
    def apply(self, seat: int, action: str) -> None:
        kind, _, arg = action.partition(":")
        if kind == "challenge":
            self._challenge(seat, arg)
            return
        if kind == "accept":
            self._accept(seat)
            return
        if self.open_turn is not None:
            self._close_window()
        if kind == "lay":
            self.hands[seat].remove(arg)
            self.laid.append(arg)
        elif kind == "skip":
            self.hands[seat].remove(arg)
            self._end_turn("skip", [arg])
        elif kind == "pass":
            self.passed = True
            drawn = self._draw(seat, 1)
            self.drawn = drawn[0] if drawn else None
        else:
            self._end_turn("pass" if self.passed else "lay", self.laid)

    def _start_turn(self, seat: int, number: int) -> None:
        self.turn = seat
        self.number = number
        self.laid = []
        self.passed = False
        self.drawn = None

    def _close_window(self, reshuffle: bool = True) -> None:
        assert self.open_turn is not None
        ot, self.open_turn = self.open_turn, None
        self.discard.extend(ot["cards"])
        if self.last_turn is not None:
            self.last_turn["open"] = False
        if reshuffle and ot["number"] == LAST_NUMBER:
            self._reshuffle()

    def _end_turn(self, kind: str, cards: list[str]) -> None:
        seat, number = self.turn, self.number
        assert seat is not None
        self.turns += 1
        self.polled = False
        nxt = (seat + (SKIP_STEP if kind == "skip" else 1)) % self.players
        following = next_number(number)
        claim = AUSSETZEN if kind == "skip" else str(number)
        self.last_turn = {"seat": seat, "kind": kind, "number": number, "claim": claim,
                          "count": len(cards), "open": bool(cards), "void": False}
        if not cards:
            if number == LAST_NUMBER:
                self._reshuffle()
            self._start_turn(nxt, following)
            return
        self.open_turn = {"seat": seat, "kind": kind, "number": number, "claim": claim,
                          "cards": list(cards), "next": nxt}
        if not self.hands[seat]:
            self.phase = "challenge"
            self.accepted = []
            self.turn = None
            self.number = following
            self.laid, self.passed, self.drawn = [], False, None
        else:
            self._start_turn(nxt, following)

    def _challenge(self, challenger: int, arg: str) -> None:
        assert self.open_turn is not None
        ot, self.open_turn = self.open_turn, None
        liar, cards, claim = ot["seat"], ot["cards"], ot["claim"]
        if arg == "all":
            caught = any(not is_true(c, claim) for c in cards)
            first = 0
            revealed = list(cards)
        else:
            first = int(arg) - 1
            caught = not is_true(cards[first], claim)
            revealed = [cards[first]]
        void = caught and first == 0
        if caught:
            stays = cards[:first]
            self.hands[liar].extend(cards[first:])
            penalized = liar
        else:
            stays = cards
            penalized = challenger
        self.discard.extend(stays)
        die = self.rng.randint(1, DIE_SIDES)
        self._draw(penalized, die)
        self.last_challenge = {"challenger": challenger, "accused": liar,
                               "position": arg, "claim": claim, "revealed": revealed,
                               "caught": caught, "die": die, "penalized": penalized,
                               "void": void}
        if self.last_turn is not None:
            self.last_turn.update(count=len(stays), open=False, void=void)
        round_end = self.phase == "challenge"
        if round_end and not caught:
            self._end_round(liar)
            return
        if round_end:
            self.phase = "play"
            self.accepted = []
        if void:
            self._start_turn((liar + 1) % self.players, ot["number"])
            return
        if ot["number"] == LAST_NUMBER:
            self._reshuffle()
        if round_end:
            self._start_turn(ot["next"], self.number)

    def _accept(self, seat: int) -> None:
        assert self.open_turn is not None
        self.accepted.append(seat)
        if self.challengers():
            return
        winner = self.open_turn["seat"]
        self._close_window(reshuffle=False)
        self._end_round(winner)

    def _end_round(self, winner: int) -> None:
        won = sum(hand_points(self.hands[s]) for s in range(self.players) if s != winner)
        self.gained[winner] += won
        self.winner = winner
        self.phase = "over"
        self.turn = None
        self.open_turn = None

    # ----- views ---------------------------------------------------------------------
    def view(self, seat: int) -> dict[str, Any]:
        stack = None
        if self.last_turn is not None:
            stack = dict(self.last_turn)
            stack["challengeable"] = (list(range(1, len(self.open_turn["cards"]) + 1))
                                      if self.open_turn is not None else [])
        return {
            "game": "luegenbeutel", "seat": seat, "players": self.players,
            "phase": self.phase, "number": self.number, "turn": self.turn,
            "laid": len(self.laid), "passed": self.passed, "stack": stack,
            "challenge": {
                "open": self.open_turn is not None, "by": self.challengers(),
                "accused": self.open_turn["seat"] if self.open_turn is not None else None,
                "reveal_all": self.reveal_all,
            },
            "accepted": list(self.accepted), "last_challenge": self.last_challenge,
            "hand_counts": [len(h) for h in self.hands], "stock_count": len(self.stock),
            "discard_count": len(self.discard),
            "scores": [s + g for s, g in zip(self.scores, self.gained, strict=True)],
            "target": self.target, "reveal_all": self.reveal_all,
            "hand": sort_hand(self.hands[seat]),
            "drawn": self.drawn if self.turn == seat and self.passed else None,
        }

    # ----- heuristic play ----------------------------------------------------------------
    def step(self, rng: random.Random, silent: int | None = None) -> None:
        """One action by the heuristic bots, as a table of bots would take it: in
        an open window the seats that need not act are asked first (clockwise from
        the accused; ``silent`` has let it pass), then the seat that must."""
        if self.phase == "challenge":
            assert self.open_turn is not None
            accused = self.open_turn["seat"]
            for s in self._clockwise_from(accused):
                if s in self.challengers():
                    answer = choose_optional("luegenbeutel", self.view(s), self.legal(s), rng)
                    self.apply(s, answer or "accept")
                    return
            return
        if self.open_turn is not None and not self.polled:
            self.polled = True
            accused = self.open_turn["seat"]
            for s in self._clockwise_from(accused):
                if s in (self.turn, silent, accused):
                    continue
                answer = choose_optional("luegenbeutel", self.view(s), self.legal(s), rng)
                if answer is not None:
                    self.apply(s, answer)
                    return
        seat = self.turn
        assert seat is not None
        legal = self.legal(seat)
        self.apply(seat, legal[0] if len(legal) == 1
                   else choose_action("luegenbeutel", self.view(seat), legal, rng))

    def _clockwise_from(self, seat: int) -> list[int]:
        return [(seat + i) % self.players for i in range(1, self.players + 1)]


def expected_gains(r: Round) -> list[float]:
    """Each seat's expected points from the round: exact once it is over, else the
    chance to go out first (from the cards in hand) times the points in the others'
    hands."""
    n = r.players
    if r.phase == "over":
        return [float(g) for g in r.gained]
    counts = [len(h) for h in r.hands]
    if r.open_turn is not None and r.phase == "challenge":
        counts[r.open_turn["seat"]] = 0
    weights = [math.exp(-heuristic.WIN_SHARPNESS * c) for c in counts]
    total = sum(weights)
    points = [hand_points(h) for h in r.hands]
    everything = sum(points)
    return [float(r.gained[i]) + weights[i] / total * (everything - points[i])
            for i in range(n)]


def relative(gains: list[float], seat: int) -> float:
    others = [g for s, g in enumerate(gains) if s != seat]
    return gains[seat] - sum(others) / len(others)


# ----- worlds -----------------------------------------------------------------------------
def _certain_reveal(view: dict[str, Any]) -> tuple[str, str] | None:
    """(place, card) of the last challenged card while nothing can have moved it:
    a caught card is back in the liar's hand until the liar's next turn. Certain
    while the seat after the liar is up and has not acted, and the last turn shown
    is still the challenged one (its count cut back to the cards before the caught
    one, void exactly when that was the first)."""
    lc = view.get("last_challenge")
    lt = view.get("stack")
    if not lc or not lt or not lc.get("caught") or len(lc.get("revealed") or []) != 1:
        return None
    position = lc.get("position")
    if not isinstance(position, int) and not str(position).isdigit():
        return None
    position = int(position)
    accused = lc.get("accused")
    players = int(view["players"])
    if (lt.get("seat") != accused or lt.get("open") or view["challenge"].get("open")
            or view.get("laid") or view.get("passed")
            or view.get("turn") != (accused + 1) % players
            or lt.get("count") != position - 1 or bool(lt.get("void")) != (position == 1)):
        return None
    return f"hand:{accused}", str(lc["revealed"][0])


def _split_open_turn(pre: list[str], count: int, kind: str, claim: str,
                     rng: random.Random) -> tuple[list[str], list[str]]:
    """From the accused's hand before the turn: (cards laid, in order; the rest)."""
    hand = list(pre)
    rng.shuffle(hand)
    true = [c for c in hand if c == claim] + [c for c in hand if c == JOKER]
    if kind in ("skip", "pass"):
        if true and rng.random() < SINGLE_TRUE:
            laid = [true[0]]
        else:
            lies = [c for c in hand if not is_true(c, claim)] or hand
            laid = [lies[0]]
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


def agrees(view: dict[str, Any], world: World, rng: random.Random) -> bool:
    """Whether to keep ``world``: always without a claim to judge; otherwise with the
    chance that a player holding the accused's true cards of the world makes the
    claim, against the likeliest number of true cards."""
    stack = view.get("stack") or {}
    accused = view["challenge"].get("accused") if view["challenge"].get("open") else None
    if accused is None or accused == view["seat"] or stack.get("kind") != "lay":
        return True
    claim = str(stack["claim"])
    before = world.hidden["open"] + world.hidden[f"hand:{accused}"]
    weights = heuristic.claim_likelihood(len(world.hidden["open"]), len(before), claim)
    true = sum(1 for c in before if is_true(c, claim))
    return rng.random() * max(weights) < weights[true]


def sample_world(view: dict[str, Any], history: History, rng: random.Random) -> World:
    seat = int(view["seat"])
    players = int(view["players"])
    counts = view["hand_counts"]
    known = list(view["hand"])
    room: dict[str, int] = {"stock": int(view["stock_count"]),
                            "discard": int(view["discard_count"])}
    own_laid: list[str] | None = None
    if view.get("turn") == seat and view.get("laid"):
        own_laid = history.own_laid(view)
        if own_laid is not None and Counter(known) + Counter(own_laid) - DECK_COUNT:
            own_laid = None  # the memory does not fit (an answer that was not played)
        if own_laid is None:
            room["laid"] = int(view["laid"])
        else:
            known += own_laid
    stack = view.get("stack") or {}
    open_ = bool(view["challenge"].get("open"))
    accused = view["challenge"].get("accused") if open_ else None
    for s in range(players):
        if s == seat:
            continue
        if s == accused:
            room[f"pre:{s}"] = int(counts[s]) + int(stack.get("count") or 0)
        else:
            room[f"hand:{s}"] = int(counts[s])
    if open_ and accused == seat:
        room["open"] = int(stack.get("count") or 0)
    pool = list(DECK)
    for c in known:
        pool.remove(c)
    fixed = _certain_reveal(view)
    fixed_place: str | None = None
    if fixed is not None:
        place, card = fixed
        if place in room and room[place] > 0 and card in pool:
            pool.remove(card)
            room[place] -= 1
            fixed_place = place
    if sum(room.values()) != len(pool):
        raise Inconsistent("the counts of the view do not add up to the deck")
    hidden = {str(k): v for k, v in deal(pool, room, None, rng).items()}
    if fixed_place is not None and fixed is not None:
        hidden[fixed_place].append(fixed[1])
    if own_laid is not None:
        hidden["laid"] = list(own_laid)
    if accused is not None and accused != seat:
        pre = hidden.pop(f"pre:{accused}")
        laid, left = _split_open_turn(pre, int(stack.get("count") or 0),
                                      str(stack.get("kind")), str(stack.get("claim")), rng)
        hidden["open"] = laid
        hidden[f"hand:{accused}"] = left
    for key in ("stock", "discard"):
        rng.shuffle(hidden[key])
    return World(hidden)


def build(view: dict[str, Any], world: World, seed: int) -> Round:
    seat = int(view["seat"])
    players = int(view["players"])
    r = Round(players, bool(view.get("reveal_all")), int(view.get("target") or 500),
              list(view["scores"]), random.Random(seed))
    r.hands = [list(view["hand"]) if s == seat else list(world.hidden[f"hand:{s}"])
               for s in range(players)]
    r.stock = list(world.hidden["stock"])
    r.discard = list(world.hidden["discard"])
    r.number = int(view["number"])
    r.turn = view["turn"]
    r.phase = view["phase"]
    r.passed = bool(view.get("passed"))
    r.drawn = view.get("drawn")
    r.laid = list(world.hidden.get("laid", []))
    r.accepted = list(view.get("accepted") or [])
    r.last_challenge = view.get("last_challenge")
    stack = view.get("stack")
    r.last_turn = None if stack is None else {
        k: stack[k] for k in ("seat", "kind", "number", "claim", "count", "open", "void")
        if k in stack}
    if view["challenge"].get("open"):
        assert stack is not None
        accused = int(view["challenge"]["accused"])
        number = int(stack["number"])
        step = SKIP_STEP if stack["kind"] == "skip" else 1
        r.open_turn = {"seat": accused, "kind": stack["kind"], "number": number,
                       "claim": stack["claim"], "cards": list(world.hidden["open"]),
                       "next": (accused + step) % players}
    if r.phase not in ("play", "challenge"):
        raise Inconsistent(f"nothing to decide in phase {r.phase!r}")
    return r


class Luegenbeutel:
    name = "luegenbeutel"

    def prepare(self, view: dict[str, Any], history: History) -> Any:
        return view, history

    def sample(self, position: Any, rng: random.Random) -> World:
        view, history = position
        world = sample_world(view, history, rng)
        for _ in range(WORLD_TRIES):
            if agrees(view, world, rng):
                return world
            world = sample_world(view, history, rng)
        return world

    def build(self, position: Any, world: World, seed: int) -> Round:
        view, history = position
        return build(view, world, seed)

    def rollout(self, r: Round, position: Any, action: str,
                rng: random.Random) -> float:
        view = position[0]
        seat = int(view["seat"])
        r.turns = 0
        silent = None
        if action == SILENT:
            silent = seat
        else:
            r.apply(seat, action)
        while r.phase != "over" and r.turns < HORIZON:
            r.step(rng, silent)
            silent = None
        return relative(expected_gains(r), seat)

    def prior(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        if SILENT in legal:
            real = [a for a in legal if a != SILENT]
            return choose_optional(self.name, view, real, rng) or SILENT
        return choose_action(self.name, view, legal, rng)

    def candidates(self, view: dict[str, Any], legal: list[str]) -> list[str]:
        return candidate_actions(view, legal)


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
        kind, _, card = action.partition(":")
        if kind == "lay" and not is_true(card, number) and not may_lie:
            continue
        if len(legal) > 6 and kind in ("lay", "skip") and card in NUMBERS and card != number \
                and card != lie:
            continue
        keep.append(action)
    return keep


SEARCH = Luegenbeutel()  # this game's search, found by name (app.bots.search)
