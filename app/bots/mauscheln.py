"""A Mauscheln bot that only plays hands worth the risk of a bête.

From its own view (hand, turned-up trump, its discards, shown quartets, the open and
the last trick, who is in the deal) it estimates for every card how likely it takes
a trick, and from those the chances of winning no, one, two ... tricks. It says
``mauschel`` when two tricks are likely enough to pay for the (double) bête, joins
when a trick is likely enough to pay for the bête, folds otherwise, and exchanges
the cards a fresh card from the stock would beat. In play it leads a card that
probably holds (else its least useful one), beats as cheaply as holds, and
otherwise throws its least useful card; the engine enforces the three duties, the
bot only chooses among what they allow.

House rules: a permanent trump (Belli ``D7``, Weli ``D6``) counts as a trump just
below the Ace; after a knock the turned-up Ace is in the dealer's hand; the dealer
decides on knocking without seeing the hand, from the average prospects of hands
drawn from the unseen cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from app.games.actions import (
    FOLD,
    JOIN,
    KNOCK,
    MAUSCHEL,
    NO_KNOCK,
    PASS_BID,
    PLAYS,
    Action,
    Answer,
    Bid,
    Exchange,
    Knock,
    Play,
)
from app.games.mauscheln import (
    HAND_SIZE,
    PACK_32,
    PARSER,
    TRICK_SHARE,
    bete_due,
    card_strength,
    pack_of_size,
    rank_value,
    suit_as,
)

# Expected value (in pots) an action has to clear before the bot takes it.
MAUSCHEL_MARGIN = 0.15
JOIN_MARGIN = 0.05
KNOCK_MARGIN = 0.1
KNOCK_SAMPLES = 40  # hands imagined for a knock decision made blind
# A side card wins only if it is also played in a trick of its own suit: a lead of
# another suit may force it out.
SIDE_DISCOUNT = 0.85
HOLD_ENOUGH = 0.8  # a beating card this safe is good enough, no need for a higher one
LEAD_ENOUGH = 0.5  # a lead this likely to hold is worth leading


class Table:
    """What this seat knows: the trump rules, the unseen cards and how many of them
    the opponents hold. Each card's and suit's estimate is worked out once (a search
    asks this bot thousands of times per move)."""

    def __init__(self, view: dict[str, Any], opponents: float,
                 hand: Sequence[str] | None = None) -> None:
        self._suits: dict[str, str] = {}
        self._ranks: dict[str, int] = {}
        self._voids: dict[str, float] = {}
        self._chances: dict[str, float] = {}
        self._suit_ranks: dict[str, list[int]] | None = None  # unseen ranks per suit
        self.trump: str = view["trump"]
        permanent = view.get("permanent_trumps") or []
        self.permanent: str | None = permanent[0] if permanent else None
        self.hand: list[str] = list(view["hand"] if hand is None else hand)
        pack = pack_of_size(view.get("pack_size", len(PACK_32)))
        seen = set(self.hand) | set(view.get("discarded", []))
        knock = view.get("knock") or {}
        if knock.get("decision") != "knock":
            seen.add(view["trump_card"])  # beside the stock, never drawn
        for quartet in view.get("quartets") or []:
            seen |= set(quartet["cards"])
        seen |= {p["card"] for p in view.get("trick", [])}
        last = view.get("last_trick")
        if last:
            seen |= {p["card"] for p in last["plays"]}
        self.unseen = [c for c in pack if c not in seen]
        self.pool = max(len(self.unseen), 1)
        self.opponents = max(opponents, 0.0)
        # chance that a given unseen card is in some opponent's hand
        self.held = min(1.0, self.opponents * HAND_SIZE / self.pool)

    # ----- card order: the engine's own, permanent trump included ----------------
    def suit(self, card: str) -> str:
        got = self._suits.get(card)
        if got is None:
            got = self._suits[card] = suit_as(card, self.trump, self.permanent)
        return got

    def rank(self, card: str) -> int:
        got = self._ranks.get(card)
        if got is None:
            got = self._ranks[card] = rank_value(card, self.permanent)
        return got

    def strength(self, card: str, led: str) -> int:
        return card_strength(card, led, self.trump, self.permanent)

    # ----- estimates -------------------------------------------------------------
    def void_and_trumps(self, suit: str) -> float:
        """Chance that one opponent has no card of ``suit`` but a trump."""
        got = self._voids.get(suit)
        if got is None:
            in_suit = sum(1 for c in self.unseen if self.suit(c) == suit) / self.pool
            trumps = sum(1 for c in self.unseen if self.suit(c) == self.trump) / self.pool
            void = (1.0 - in_suit) ** HAND_SIZE
            got = self._voids[suit] = void * (1.0 - (1.0 - trumps) ** HAND_SIZE)
        return got

    def trick_chance(self, card: str) -> float:
        """Rough chance that ``card`` takes a trick in this deal."""
        got = self._chances.get(card)
        if got is None:
            if self._suit_ranks is None:
                self._suit_ranks = {}
                for c in self.unseen:
                    self._suit_ranks.setdefault(self.suit(c), []).append(self.rank(c))
            suit, rank = self.suit(card), self.rank(card)
            higher = sum(1 for r in self._suit_ranks.get(suit, ()) if r > rank)
            got = (1.0 - self.held) ** higher
            if suit != self.trump:
                ruff = self.void_and_trumps(suit)
                got = SIDE_DISCOUNT * got * (1.0 - ruff) ** self.opponents
            self._chances[card] = got
        return got

    def draw_chance(self) -> float:
        """What a fresh card from the stock is worth, on average."""
        if not self.unseen:
            return 0.0
        return sum(self.trick_chance(c) for c in self.unseen) / len(self.unseen)

    def hold_chance(self, trick: list[str], card: str, later_cards: int) -> float:
        """Chance that ``card``, winning ``trick`` so far (or leading it), is not
        beaten by the seats still to play, who hold ``later_cards`` cards."""
        if later_cards <= 0:
            return 1.0
        led = trick[0] if trick else card
        mine = self.strength(card, led)
        share = min(1.0, later_cards / self.pool)
        ruff = self.void_and_trumps(self.suit(led))
        hold = 1.0
        for other in self.unseen:
            if self.strength(other, led) > mine:
                playable = 1.0 if self.suit(other) == self.suit(led) else ruff
                hold *= 1.0 - share * playable
        return hold


def _trick_distribution(chances: Sequence[float]) -> list[float]:
    """Probabilities of winning 0, 1, ... tricks (cards taken as independent)."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1.0 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


def prospects(table: Table) -> list[float]:
    """Trick chances of the best four cards after an exchange: each card counts at
    least as much as a fresh card from the stock would."""
    draw = table.draw_chance()
    chances = sorted((max(table.trick_chance(c), draw) for c in table.hand), reverse=True)
    return chances[:HAND_SIZE]


def expected_value(view: dict[str, Any], chances: Sequence[float], sneaker: bool) -> float:
    """Expected chips of playing, in pots: a quarter per trick, minus the bêtes
    (as far as the seat's chips reach)."""
    pot = max(int(view["pot"]), 1)
    chips = int(view["scores"][view["seat"]])
    dist = _trick_distribution(chances)
    value = sum(k * q for k, q in enumerate(dist)) / TRICK_SHARE
    value -= sum(q * min(bete_due(pot, k, sneaker), chips) for k, q in enumerate(dist)) / pot
    return value


def expected_opponents(view: dict[str, Any]) -> float:
    """Before anyone has joined: about half of the others play along."""
    return max(1.0, (len(view["in_deal"]) - 1) / 2)


def _knock(view: dict[str, Any], rng: random.Random) -> Knock:
    """The dealer's blind decision with an Ace turned up: imagine hands from the
    unseen cards, each with the Ace taken in, and knock if they pay on average."""
    table = Table(view, expected_opponents(view), hand=[])
    cards = [c for c in table.unseen if c != view["trump_card"]]
    size = min(HAND_SIZE, len(cards))
    total = 0.0
    for _ in range(KNOCK_SAMPLES):
        hand = [*rng.sample(cards, size), view["trump_card"]]
        imagined = Table(view, expected_opponents(view), hand=hand)
        total += expected_value(view, prospects(imagined), sneaker=True)
    return KNOCK if total / KNOCK_SAMPLES > KNOCK_MARGIN else NO_KNOCK


def _bid(view: dict[str, Any]) -> Bid:
    table = Table(view, expected_opponents(view))
    value = expected_value(view, prospects(table), sneaker=True)
    return MAUSCHEL if value > MAUSCHEL_MARGIN else PASS_BID


def _answer(view: dict[str, Any]) -> Answer:
    seat = view["seat"]
    answers = view["answers"]
    undecided = [s for s in view["in_deal"]
                 if s not in (seat, view["sneaker"]) and answers[s] is None]
    opponents = 1 + len(view["joined"]) + len(undecided) / 2
    table = Table(view, opponents)
    value = expected_value(view, prospects(table), sneaker=False)
    return JOIN if value > JOIN_MARGIN else FOLD


def _exchange(view: dict[str, Any], legal: list[Exchange]) -> Exchange:
    """The legal exchange that leaves the best four cards: the kept cards' chances
    plus a fresh card's chance for every card drawn (fewer discards on a tie)."""
    # a knocking dealer exchanges before anyone has joined
    opponents = len(view["playing"]) - 1 if view["playing"] else expected_opponents(view)
    table = Table(view, opponents)
    chance = {c: table.trick_chance(c) for c in table.hand}
    draw = table.draw_chance()
    surplus = len(table.hand) - HAND_SIZE

    def value(action: Exchange) -> tuple[float, int]:
        discards = action.discards
        kept = sum(p for c, p in chance.items() if c not in discards)
        return kept + (len(discards) - surplus) * draw, -len(discards)

    return max(legal, key=value)


def _play(view: dict[str, Any], cards: list[str]) -> str:
    seat, players = view["seat"], view["players"]
    trick = [p["card"] for p in view["trick"]]
    after_me = sorted((s for s in view["playing"] if s != seat),
                      key=lambda s: (s - seat) % players)
    later = after_me[:len(view["playing"]) - len(trick) - 1]
    later_cards = sum(view["hand_counts"][s] for s in later)
    table = Table(view, len(after_me))  # the cards' worth over the rest of the deal
    cheapest = min(cards, key=lambda c: (table.trick_chance(c), table.rank(c)))
    if not trick:
        holds = {c: table.hold_chance([], c, later_cards) for c in cards}
        best = max(cards, key=lambda c: (holds[c], -table.rank(c)))
        return best if holds[best] >= LEAD_ENOUGH else cheapest
    led = trick[0]
    top = max(table.strength(c, led) for c in trick)
    beaters = sorted((c for c in cards if table.strength(c, led) > top),
                     key=lambda c: table.strength(c, led))
    if not beaters:
        return cheapest
    for card in beaters:
        if table.hold_chance(trick, card, later_cards) >= HOLD_ENOUGH:
            return card
    return beaters[-1]


def decide(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The bot's answer for the phase its seat is asked in (one of ``legal``)."""
    phase = view.get("phase")
    if "hand" not in view:
        return rng.choice(legal)
    if phase == "knock" and KNOCK in legal:
        return _knock(view, rng)
    if phase == "bidding" and MAUSCHEL in legal:
        return _bid(view)
    if phase == "joining" and JOIN in legal:
        return _answer(view)
    exchanges = [a for a in legal if isinstance(a, Exchange)]
    if phase == "exchange" and exchanges:
        return _exchange(view, exchanges)
    cards = [a.card for a in legal if isinstance(a, Play)]
    if phase == "play" and cards:
        return PLAYS[_play(view, cards)]
    return rng.choice(legal)


def choose(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """:func:`decide` asked with the room's strings, answering one of them."""
    return decide(view, PARSER.each(legal), rng).wire
