"""Schafkopf search: the team's units of the deal (card points as a tie-break).

A world deals the unseen cards to the three other hands (voids shown in play
excluded). Rollouts run on :class:`Deal`, a lean copy of the play rules (checked
card for card against the engine by the tests), with the house heuristic
(``app.bots.schafkopf.choose``) choosing for every seat from that seat's view.
``build_engine`` rebuilds the same world as a real match: a stacked deal (each
hand as dealt: what it holds now plus what it played) replayed play by play. A
stacked deal starts at deal 1, whose trump is Eichel; the suits are alike but for
the trump, so the current trump and Eichel swap names there.
"""

from __future__ import annotations

import random
from typing import Any

from app.bots import choose_action
from app.bots import schafkopf as heuristic
from app.bots.search import tricks
from app.bots.search.core import World
from app.bots.search.history import History
from app.games import Match, new_match
from app.games.cards import SCHAFKOPF_DECK, suit_of
from app.games.schafkopf import TEAMS, card_points, card_strength, sort_hand

FIRST_TRUMP = "E"  # the trump of deal number 1
SUITS = sorted({c[0] for c in SCHAFKOPF_DECK})
POINTS = {c: card_points(c) for c in SCHAFKOPF_DECK}
# per trump suit: the engine's hand order and every card's strength per led suit
ORDER = {t: {c: i for i, c in enumerate(sort_hand(SCHAFKOPF_DECK, t))} for t in SUITS}
STRENGTH = {t: {(c, led): card_strength(c, led + "7", t) for c in SCHAFKOPF_DECK
                for led in SUITS} for t in SUITS}
# card points count beside units: all 120 points are worth POINTS_WEIGHT units
POINTS_WEIGHT = 0.5
# opponent model: a world survives each play the heuristic would not have made in
# it with this probability; at most TRIES draws per world
KEEP = 0.4
TRIES = 8


class Deal:
    """The rest of one Schafkopf deal, play only: hands, the open trick, who is on
    turn, the card points each team has taken."""

    __slots__ = ("trump", "hands", "trick", "turn", "taken", "done")

    def __init__(self, trump: str, hands: list[list[str]], trick: list[tuple[int, str]],
                 turn: int, taken: list[int], done: int) -> None:
        self.trump = trump
        self.hands = hands
        self.trick = trick
        self.turn = turn
        self.taken = taken
        self.done = done  # finished tricks

    def copy(self) -> Deal:
        return Deal(self.trump, [list(h) for h in self.hands], list(self.trick), self.turn,
                    list(self.taken), self.done)

    def legal(self) -> list[str]:
        hand = self.hands[self.turn]
        if self.trick:
            led = self.trick[0][1][0]
            same = [c for c in hand if c[0] == led]
            hand = same or hand
        return ["play:" + c for c in sorted(hand, key=ORDER[self.trump].__getitem__)]

    def view(self, seat: int) -> dict[str, Any]:
        """What the heuristic reads of a view (the same keys the engine's view has)."""
        return {"game": "schafkopf", "seat": seat, "players": 4, "phase": "play",
                "trump": self.trump, "teams": TEAMS, "team": seat % 2, "turn": self.turn,
                "trick": [{"seat": s, "card": c} for s, c in self.trick],
                "hand": sorted(self.hands[seat], key=ORDER[self.trump].__getitem__),
                "hand_counts": [len(h) for h in self.hands]}

    def play(self, card: str) -> None:
        seat = self.turn
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        if len(self.trick) < 4:
            self.turn = (seat + 1) % 4
            return
        led = self.trick[0][1][0]
        strength = STRENGTH[self.trump]
        best = 0
        for i in range(1, 4):
            if strength[self.trick[i][1], led] > strength[self.trick[best][1], led]:
                best = i
        winner = self.trick[best][0]
        self.taken[winner % 2] += sum(POINTS[c] for _, c in self.trick)
        self.trick = []
        self.turn = winner
        self.done += 1

    @property
    def over(self) -> bool:
        return self.done == 8

    def units(self) -> list[int]:
        """Units each team wins with the points taken (the deal must be over)."""
        a, b = self.taken
        if a == b:
            return [0, 0]
        win = 0 if a > b else 1
        out = [0, 0]
        out[win] = 2 if self.taken[win] >= 91 else 1
        return out


def deal_from_view(view: dict[str, Any], history: History, world: World) -> Deal:
    hands = [list(view["hand"]) if s == view["seat"] else list(world.hidden[f"hand:{s}"])
             for s in range(4)]
    taken = [0, 0]
    plays = tricks.deal_plays(view, history)
    trump = view["trump"]
    for trick in plays[:-1]:
        led = trick[0][1]
        winner = max(trick, key=lambda p: card_strength(p[1], led, trump))[0]
        taken[winner % 2] += sum(card_points(c) for _, c in trick)
    return Deal(trump, hands, list(plays[-1]), int(view["turn"]), taken, len(plays) - 1)


def _swap(trump: str) -> dict[str, str]:
    return {trump: FIRST_TRUMP, FIRST_TRUMP: trump}


def to_engine(card: str, trump: str) -> str:
    """The card's name in a rebuilt match (deal 1, Eichel trumps)."""
    swap = _swap(trump)
    return swap.get(card[0], card[0]) + card[1:]


def build_engine(view: dict[str, Any], history: History, world: World, seed: int) -> Match:
    """The world as a real match (suits renamed by :func:`to_engine`)."""
    trump = view["trump"]
    hands = [[to_engine(c, trump) for c in hand]
             for hand in tricks.dealt_hands(view, history, world.hidden)]
    match = new_match("schafkopf", 4, {"dealer": int(view["dealer"]), "target": 99},
                      seed=seed, deals=[{"hands": hands}])
    tricks.replay(match, tricks.deal_plays(view, history), lambda c: to_engine(c, trump))
    return match


def play_out(deal: Deal, rng: random.Random) -> None:
    while not deal.over:
        legal = deal.legal()
        action = legal[0] if len(legal) == 1 else heuristic.choose(
            deal.view(deal.turn), legal, rng)
        deal.play(action.split(":", 1)[1])


def value(deal: Deal, seat: int, units_before: list[int] | None = None) -> float:
    """The deal's result for ``seat``'s team: units won minus units lost, plus the
    card point margin at ``POINTS_WEIGHT`` units per 120."""
    units = deal.units()
    mine, theirs = seat % 2, 1 - seat % 2
    margin = (deal.taken[mine] - deal.taken[theirs]) / 120.0
    return units[mine] - units[theirs] + POINTS_WEIGHT * margin


def disagreements(view: dict[str, Any], history: History, world: World) -> int:
    """How many plays of the other seats this deal the heuristic, holding the
    world's hands, would have made differently."""
    seat = int(view["seat"])
    hands = tricks.dealt_hands(view, history, world.hidden)
    d = Deal(view["trump"], hands, [], (int(view["dealer"]) + 1) % 4, [0, 0], 0)
    rng = random.Random(0)
    count = 0
    for trick in tricks.deal_plays(view, history):
        for s, card in trick:
            if s != seat and d.turn == s:
                legal = d.legal()
                if len(legal) > 1 and heuristic.choose(d.view(s), legal, rng) != "play:" + card:
                    count += 1
            d.play(card)
    return count


class Schafkopf:
    name = "schafkopf"

    def sample(self, view: dict[str, Any], history: History, rng: random.Random) -> World:
        def draw() -> World:
            return World(tricks.sample_hands(view, history, SCHAFKOPF_DECK, suit_of, rng))

        return tricks.pick_world(draw, lambda w: disagreements(view, history, w), rng,
                                 KEEP, TRIES)

    def build(self, view: dict[str, Any], history: History, world: World,
              seed: int) -> Deal:
        return deal_from_view(view, history, world)

    def rollout(self, deal: Deal, view: dict[str, Any], action: str,
                rng: random.Random) -> float:
        deal.play(action.split(":", 1)[1])
        play_out(deal, rng)
        return value(deal, int(view["seat"]))

    def prior(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        return choose_action(self.name, view, legal, rng)


SEARCH = Schafkopf()  # this game's search, found by name (app.bots.search)
