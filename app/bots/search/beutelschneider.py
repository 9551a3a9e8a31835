"""Beutelschneider search: the seat's hand total against the others' average.

A world deals the unseen cards to the other hands (voids shown in play excluded)
and, with three players, to the two cards set aside (any unseen card may be one
of them: the Beutelschneider, the Sovereign...). Rollouts run on :class:`Deal`, a
lean copy of the play and scoring rules, with :func:`choose`, a fast line-by-line
port of the house heuristic (``app.bots.beutelschneider``, whose constants it
reads), for every seat. The tests hold both to the engine and to the heuristic:
the same plays give the same trick winners and hand totals, and the port chooses
exactly what the heuristic chooses from the same view.
"""

from __future__ import annotations

import random
from typing import Any

from app.bots import beutelschneider as heuristic
from app.bots import choose_action
from app.bots.search import tricks
from app.bots.search.core import World
from app.bots.search.history import History
from app.games import Match, new_match
from app.games.beutelschneider import (
    ADVENTURER,
    ASSASSIN,
    BEUTELSCHNEIDER,
    BONUS,
    COUNTESS,
    DECK,
    GUARD,
    HAND_SIZE,
    PENALTY,
    SOVEREIGN,
    SUIT_RANKS,
    TRUMP,
    card_points,
    sort_hand,
)
from app.games.cards import suit_of

# opponent model: a world survives each play the heuristic would not have made in
# it with this probability; at most TRIES draws per world
KEEP = 0.4
TRIES = 8
SUIT = {c: suit_of(c) for c in DECK}
POINTS = {c: card_points(c) for c in DECK}
TRUMP_STRENGTH = {TRUMP + r: 100 + 10 * i for i, r in enumerate(SUIT_RANKS[TRUMP])}
SIDE_STRENGTH = {s + r: 10 + i for s in "gyr" for i, r in enumerate(SUIT_RANKS[s])}


class Outcome:
    """A resolved trick: winner, its card, card points and what the winner gains
    (card points, the -20, bonuses), as ``resolve_trick`` of the engine has them."""

    __slots__ = ("winner", "card", "points", "gain", "penalty", "bonuses", "strength")

    def __init__(self, winner: int, card: str, points: int, gain: int,
                 penalty: int | None, bonuses: list[str], strength: int) -> None:
        self.winner = winner
        self.card = card
        self.points = points
        self.gain = gain
        self.penalty = penalty
        self.bonuses = bonuses
        self.strength = strength  # the winning card's strength, powers applied


def resolve(plays: list[tuple[int, str]], last: bool) -> Outcome:
    """The engine's trick rules (Assassin, Seduction, Guard, -20, bonuses: see
    docs/rules/beutelschneider.md)."""
    led = SUIT[plays[0][1]]
    pos: dict[str, int] = {}
    strength: list[int] = []
    for i, (_, card) in enumerate(plays):
        pos[card] = i
        if card in TRUMP_STRENGTH:
            strength.append(TRUMP_STRENGTH[card])
        elif SUIT[card] == led:
            strength.append(SIDE_STRENGTH[card])
        else:
            strength.append(-1)
    killed = SOVEREIGN in pos and ASSASSIN in pos and pos[ASSASSIN] > pos[SOVEREIGN]
    if killed:
        strength[pos[SOVEREIGN]] = -1
    seducer = None
    if ADVENTURER in pos and COUNTESS in pos:
        first, seducer = ((ADVENTURER, COUNTESS) if pos[ADVENTURER] < pos[COUNTESS]
                          else (COUNTESS, ADVENTURER))
        strength[pos[seducer]] = max(strength[pos[seducer]], strength[pos[first]] + 5)
    guarded = GUARD in pos and BEUTELSCHNEIDER in pos and pos[GUARD] > pos[BEUTELSCHNEIDER]
    best = 0
    for i in range(1, len(plays)):
        if strength[i] > strength[best]:
            best = i
    winner, card = plays[best]
    points = sum(POINTS[c] for _, c in plays)
    penalty = None
    if BEUTELSCHNEIDER in pos:
        penalty = 0 if guarded else PENALTY
    bonuses: list[str] = []
    if card == GUARD and guarded:
        bonuses.append("guard_cancels_beutelschneider")
    if card == GUARD and last:
        bonuses.append("guard_wins_last_trick")
    if card == ASSASSIN and killed:
        bonuses.append("assassin_kills_sovereign")
    if seducer is not None and card == seducer:
        bonuses.append("seduction")
    gain = points + (penalty or 0) + BONUS * len(bonuses)
    return Outcome(winner, card, points, gain, penalty, bonuses, strength[best])


def takes_away(trick: list[tuple[int, str]], winner: int, best: int, seat: int, card: str,
               last: bool) -> bool:
    """Whether ``card``, played next by ``seat``, takes the trick away from ``winner``,
    whose card has strength ``best`` (as ``resolve`` would decide it). Only a trump
    can work a power; a card of another suit than the led one never wins."""
    if card in TRUMP_STRENGTH:
        return resolve([*trick, (seat, card)], last).winner != winner
    if SUIT[card] != SUIT[trick[0][1]]:
        return False
    return SIDE_STRENGTH[card] > best


class Deal:
    """The rest of one Beutelschneider hand, play only, with what each seat's view
    would show the heuristic: the last trick and the score sheets' public facts
    (a Beutelschneider captured or cancelled, the bonuses' cards)."""

    __slots__ = ("players", "hands", "trick", "turn", "done", "totals", "last", "revealed")

    def __init__(self, players: int, hands: list[list[str]], trick: list[tuple[int, str]],
                 turn: int, done: int, totals: list[int], last: list[tuple[int, str]],
                 revealed: set[str]) -> None:
        self.players = players
        self.hands = hands
        self.trick = trick
        self.turn = turn
        self.done = done
        self.totals = totals  # hand totals so far
        self.last = last  # the last finished trick
        self.revealed = revealed  # cards the score sheets give away

    def copy(self) -> Deal:
        return Deal(self.players, [list(h) for h in self.hands], list(self.trick), self.turn,
                    self.done, list(self.totals), self.last, set(self.revealed))

    @property
    def size(self) -> int:
        return HAND_SIZE[self.players]

    @property
    def over(self) -> bool:
        return self.done == self.size

    def legal_cards(self) -> list[str]:
        hand = self.hands[self.turn]
        if self.trick:
            led = SUIT[self.trick[0][1]]
            same = [c for c in hand if SUIT[c] == led]
            hand = same or hand
        return sort_hand(hand)

    def play(self, card: str) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < self.players:
            self.turn = (seat + 1) % self.players
            return
        outcome = resolve(self.trick, self.done + 1 == self.size)
        self.totals[outcome.winner] += outcome.gain
        if outcome.penalty is not None:
            self.revealed.add(BEUTELSCHNEIDER)
        for name in outcome.bonuses:
            self.revealed.update(heuristic.BONUS_CARDS.get(name, ()))
        self.last = self.trick
        self.trick = []
        self.turn = outcome.winner
        self.done += 1

    def unseen(self, seat: int) -> list[str]:
        """What the heuristic counts as unseen from ``seat``'s view."""
        seen = set(self.hands[seat]) | {c for _, c in self.trick} | {c for _, c in self.last}
        seen |= self.revealed
        return [c for c in DECK if c not in seen]


def card_value(deal: Deal, card: str, unseen: list[str]) -> float:
    """``app.bots.beutelschneider._card_value``, line by line, on a :class:`Deal`."""
    seat, players = deal.turn, deal.players
    rival = heuristic.RIVAL / (players - 1)
    trick = [*deal.trick, (seat, card)]
    last = len(deal.hands[seat]) == 1
    outcome = resolve(trick, last)
    later = [(seat + i) % players for i in range(1, players - len(trick) + 1)]
    keep = 0.0 if last else heuristic.keep_value(card)
    if not later:
        mine = outcome.winner == seat
        return (outcome.gain if mine else -rival * outcome.gain) - keep
    if outcome.winner != seat:
        return -rival * outcome.gain - keep
    pool = max(len(unseen), 1)
    later_cards = sum(len(deal.hands[s]) for s in later)
    held = min(1.0, later_cards / pool)
    led = SUIT[trick[0][1]]
    led_unseen = sum(1 for c in unseen if SUIT[c] == led)
    per_seat = later_cards / len(later)
    void = ((pool - led_unseen) / pool) ** per_seat
    hold = 1.0
    nxt = later[0]
    for other in unseen:
        if takes_away(trick, seat, outcome.strength, nxt, other, last):
            playable = 1.0 if SUIT[other] == led else void
            hold *= 1.0 - held * playable
    my_gain = float(outcome.gain)
    if BEUTELSCHNEIDER in unseen:
        rx_wins = led == "r" and SUIT[outcome.card] != TRUMP
        if not rx_wins:
            playable = 1.0 if led == "r" else void
            my_gain -= 20 * held * playable * heuristic.DUMP_CHANCE
    average = sum(POINTS[c] for c in unseen) / pool
    my_gain += heuristic.GIFT_SHARE * average * len(later)
    return hold * my_gain - (1.0 - hold) * rival * outcome.points - keep


def choose(deal: Deal) -> str:
    """The heuristic's card for the seat on turn (ties: the first in hand order)."""
    cards = deal.legal_cards()
    if len(cards) == 1:
        return cards[0]
    unseen = deal.unseen(deal.turn)
    return max(cards, key=lambda c: card_value(deal, c, unseen))


def _revealed(view: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for sheet in view.get("sheets") or []:
        if sheet.get("beutelschneider") or sheet.get("beutelschneider_cancelled"):
            out.add(BEUTELSCHNEIDER)
        for bonus in sheet.get("bonuses") or []:
            out.update(heuristic.BONUS_CARDS.get(bonus.get("name"), ()))
    return out


def deal_from_view(view: dict[str, Any], history: History, world: World) -> Deal:
    players = int(view["players"])
    seat = int(view["seat"])
    hands = [list(view["hand"]) if s == seat else list(world.hidden[f"hand:{s}"])
             for s in range(players)]
    plays = tricks.deal_plays(view, history)
    totals = [0] * players
    for i, trick in enumerate(plays[:-1]):
        outcome = resolve(trick, i + 1 == HAND_SIZE[players])
        totals[outcome.winner] += outcome.gain
    last = plays[-2] if len(plays) > 1 else []
    return Deal(players, hands, list(plays[-1]), int(view["turn"]), len(plays) - 1,
                totals, last, _revealed(view))


def build_engine(view: dict[str, Any], history: History, world: World, seed: int) -> Match:
    """The world as a real match: a stacked deal replayed play by play."""
    players = int(view["players"])
    entry: dict[str, Any] = {"hands": tricks.dealt_hands(view, history, world.hidden)}
    if "removed" in world.hidden:
        entry["removed"] = list(world.hidden["removed"])
    match = new_match("beutelschneider", players, {"dealer": int(view["dealer"]),
                                                  "target": 1000},
                      seed=seed, deals=[entry])
    tricks.replay(match, tricks.deal_plays(view, history), str)
    return match


def value(deal: Deal, seat: int, before: list[int]) -> float:
    gain = [a - b for a, b in zip(deal.totals, before, strict=True)]
    others = [g for s, g in enumerate(gain) if s != seat]
    return gain[seat] - sum(others) / len(others)


def disagreements(view: dict[str, Any], history: History, world: World) -> int:
    """How many plays of the other seats this deal the heuristic, holding the
    world's hands, would have made differently."""
    players = int(view["players"])
    seat = int(view["seat"])
    hands = tricks.dealt_hands(view, history, world.hidden)
    forehand = (int(view["dealer"]) + 1) % players
    d = Deal(players, hands, [], forehand, 0, [0] * players, [], set())
    count = 0
    for trick in tricks.deal_plays(view, history):
        for s, card in trick:
            if s != seat and d.turn == s and len(d.legal_cards()) > 1 and choose(d) != card:
                count += 1
            d.play(card)
    return count


class Beutelschneider:
    name = "beutelschneider"

    def prepare(self, view: dict[str, Any], history: History) -> Any:
        return view, history

    def sample(self, position: Any, rng: random.Random) -> World:
        view, history = position
        aside = int(view.get("set_aside") or 0)

        def draw() -> World:
            return World(tricks.sample_hands(view, history, DECK, suit_of, rng,
                                             set_aside=aside))

        return tricks.pick_world(draw, lambda w: disagreements(view, history, w), rng,
                                 KEEP, TRIES)

    def build(self, position: Any, world: World, seed: int) -> Deal:
        view, history = position
        return deal_from_view(view, history, world)

    def rollout(self, deal: Deal, position: Any, action: str,
                rng: random.Random) -> float:
        view = position[0]
        before = list(deal.totals)
        deal.play(action.split(":", 1)[1])
        while not deal.over:
            deal.play(choose(deal))
        return value(deal, int(view["seat"]), before)

    def prior(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        return choose_action(self.name, view, legal, rng)


SEARCH = Beutelschneider()  # this game's search, found by name (app.bots.search)
