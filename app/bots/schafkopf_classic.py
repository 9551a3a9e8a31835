"""The house bot of the classic Schafkopf: a sensible club player who goes by rules
of thumb.

It bids by the strength of its hand in each game it may name (trumps, Obers and
Unters, Sauen, cards that would lose a trick), calls the Sau of its shortest
callable suit, says Kontra with a hand that is strong against the declared game
and Retour when its party stands comfortably, and plays its cards as a club player
does: the declaring party draws trumps, the opponents of a Rufspiel look for the
partner by playing the called suit, a trick worth having is taken as cheaply as it
can be, points go to a partner who is sure to win the trick, and nothing of value
is thrown away on a lost trick. In a Ramsch it keeps its points to itself.

Every rule it plays by is the engine's (:mod:`app.games.schafkopf_classic`): the
trumps of each game, the strength of a card in a trick, which suits may be called;
it sees only its own view: the partner of a Rufspiel is unknown to it until the
called Sau shows, unless it holds that Sau.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from app.games import actions as kinds
from app.games.actions import PLAYS, Action, Play
from app.games.cards import SCHAFKOPF_DECK, SCHAFKOPF_SUITS
from app.games.schafkopf import card_points
from app.games.schafkopf_classic import (
    CHOSEN_TRUMP,
    CLASSES,
    GEIERS,
    ONLY_OBERS,
    ONLY_UNTERS,
    PARSER,
    RAMSCH,
    RUF_TRUMP,
    RUFSPIEL,
    STRENGTH,
    SUIT_AS,
    TOUTS,
    TRUMP_SUIT,
    TRUMPS,
    callable_suits,
    layout_of,
)
from app.games.tricks import winning_index

OBERS = frozenset(TRUMPS[ONLY_OBERS])
UNTERS = frozenset(TRUMPS[ONLY_UNTERS])

# ----- what a hand is worth (rules of thumb, not rules) -----------------------------------
# A trump's weight in a hand by its place among the trumps of the game: the top ones
# take tricks for sure, the low ones only draw the others' trumps.
TOP_WEIGHTS = (3.5, 3.0, 2.75, 2.5, 2.25, 2.0, 1.75, 1.5)  # the 1st, 2nd, ... trump
LOW_TRUMP_WEIGHT = 1.25  # any trump below those
SAU_WEIGHT = 1.5  # a side suit's top card
FREE_SUIT_WEIGHT = 0.75  # a side suit the hand has no card of (it can trump it)

# Rufspiel: at least four trumps and this much worth (a Herz Ober, a Herz Unter, two
# Herz and a Sau make about 9; two Obers, an Unter, a Herz and a Sau about 12)
RUF_MIN_TRUMPS = 4
RUF_WORTH = 9.0
# the solo games: with trumps only the Unters (Obers), a Wenz (Geier) wants at least
# two of them, the top one or three, and few cards that lose
WENZ_MIN_TRUMPS = 2
WENZ_MAX_LOSERS = 2
WENZ_MAX_LOSERS_WITH_THREE = 3
# a Farbsolo wants many trumps with the top ones among them, and few losers
SOLO_MIN_TRUMPS = 6
SOLO_WORTH = 15.0
SOLO_MAX_LOSERS = 2

# Kontra: an opponent with a hand well above what a Rufspiel asks, or against a solo
# with this many trumps (the top of them high) and Sauen
KONTRA_RUF_WORTH = 12.0
KONTRA_SOLO_TRUMPS = 4
KONTRA_SOLO_HIGH = 2
KONTRA_SOLO_TOP = 2  # trumps among the top ones (the Obers of a Farbsolo)
KONTRA_WENZ_TRUMPS = 2
KONTRA_SOLO_SAUEN = 1
# Retour: the declarer, or the partner of a Rufspiel, with this much above what the
# game asks
RETOUR_MARGIN = 3.0

FAT_TRICK = 10  # card points on the table worth taking at once
WORTH_A_TRUMP = 3  # card points worth spending a trump on when the trick is safe
SAFE_TRUMPS = 4  # a partner's trump among the top ones of the game wins the trick


# ----- reading the hand -------------------------------------------------------------------
@dataclass(frozen=True)
class Hand:
    """A hand seen under the trumps of one game (``layout``); a reading is shared
    (:func:`read_hand` keeps it) and never changed."""

    layout: str
    trumps: list[str]  # strongest first
    top_run: int  # the trumps held from the very top without a gap
    high: int  # Obers and Unters among the trumps
    sides: dict[str, list[str]]  # side suit -> cards held of it, strongest first
    losers: int  # side cards that are not at the top of their suit
    sauen: int  # side cards that are the top of their suit
    free: int  # side suits without a card

    @property
    def worth(self) -> float:
        order = TRUMPS[self.layout]
        worth = sum(TOP_WEIGHTS[order.index(c)] if order.index(c) < len(TOP_WEIGHTS)
                    else LOW_TRUMP_WEIGHT for c in self.trumps)
        return worth + SAU_WEIGHT * self.sauen + FREE_SUIT_WEIGHT * self.free


def _side_order(layout: str, suit: str) -> list[str]:
    strength = STRENGTH[layout][suit]
    return sorted((c for c in SCHAFKOPF_DECK if SUIT_AS[layout][c] == suit),
                  key=lambda c: -strength[c])


# SIDE_ORDERS[layout][suit]: the cards of a side suit under a layout, strongest first
# (sorted by the engine's strength of a card when that suit is led; [] for the suit
# whose cards are all trumps)
SIDE_ORDERS = {layout: {suit: _side_order(layout, suit) for suit in SCHAFKOPF_SUITS}
               for layout in SUIT_AS}


def side_order(layout: str, suit: str) -> list[str]:
    """The cards of a side ``suit`` under ``layout``, strongest first."""
    return SIDE_ORDERS[layout][suit]


def read_hand(hand: Sequence[str], layout: str) -> Hand:
    """The hand under the trumps of ``layout`` (the auction asks the same hand under
    every layout for every class, so a reading is kept a while)."""
    return _read_hand(tuple(hand), layout)


@lru_cache(maxsize=4096)
def _read_hand(hand: tuple[str, ...], layout: str) -> Hand:
    order = TRUMPS[layout]
    trumps = [c for c in order if c in hand]
    top_run = 0
    while top_run < len(order) and order[top_run] in hand:
        top_run += 1
    sides: dict[str, list[str]] = {}
    losers = sauen = free = 0
    for suit in SCHAFKOPF_SUITS:
        ranked = side_order(layout, suit)
        if not ranked:  # the trump suit of a Rufspiel or a Farbsolo
            continue
        held = [c for c in ranked if c in hand]
        sides[suit] = held
        run = 0
        while run < len(held) and held[run] == ranked[run]:
            run += 1
        losers += len(held) - run
        sauen += min(run, 1)
        free += not held
    high = sum(1 for c in trumps if c in OBERS or c in UNTERS)
    return Hand(layout, trumps, top_run, high, sides, losers, sauen, free)


def tout_sure(hand: Hand) -> bool:
    """Every trick the hand's: no card that loses, and its top trumps draw every
    trump the others hold even if one of them holds them all."""
    return hand.losers == 0 and hand.top_run >= len(TRUMPS[hand.layout]) - len(hand.trumps)


def rufspiel_fits(hand: Sequence[str]) -> bool:
    seen = read_hand(hand, RUF_TRUMP)
    return (bool(callable_suits(hand)) and len(seen.trumps) >= RUF_MIN_TRUMPS
            and seen.worth >= RUF_WORTH)


def few_trumps_fit(seen: Hand) -> bool:
    """A Wenz or a Geier: two of its four trumps with the top one, or three."""
    many = len(seen.trumps)
    return (many >= WENZ_MIN_TRUMPS + 1 and seen.losers <= WENZ_MAX_LOSERS_WITH_THREE) or (
        many >= WENZ_MIN_TRUMPS and seen.top_run >= 1 and seen.losers <= WENZ_MAX_LOSERS)


def solo_fits(seen: Hand) -> bool:
    return (len(seen.trumps) >= SOLO_MIN_TRUMPS and seen.worth >= SOLO_WORTH
            and seen.losers <= SOLO_MAX_LOSERS)


def best_trump_suit(hand: Sequence[str]) -> str:
    """The suit a Farbsolo of this hand is best played in: most trumps, then worth."""
    def key(suit: str) -> tuple[int, float]:
        seen = read_hand(hand, suit)
        return len(seen.trumps), seen.worth
    return max(SCHAFKOPF_SUITS, key=key)


def fits(game: str, hand: Sequence[str]) -> bool:
    """Whether the bot would play ``game`` (a class of the auction) with ``hand``."""
    if game == RUFSPIEL:
        return rufspiel_fits(hand)
    layout = layout_of(game, best_trump_suit(hand) if game in CHOSEN_TRUMP else None)
    seen = read_hand(hand, layout)
    if game in TOUTS:
        return tout_sure(seen)
    if game in CHOSEN_TRUMP:
        return solo_fits(seen)
    return few_trumps_fit(seen)


def wanted(hand: Sequence[str], offered: Iterable[str]) -> str | None:
    """The highest class among ``offered`` that the hand is good for, or None."""
    good = [g for g in offered if fits(g, hand)]
    return max(good, key=lambda g: (CLASSES[g], g not in GEIERS), default=None)


def call_suit(hand: Sequence[str], suits: Iterable[str]) -> str:
    """The Sau to call: of the suit the hand is shortest in (a short suit soon lets
    it trump; the partner's Sau takes the first round), the fewest points of it at
    risk on a tie."""
    seen = read_hand(hand, RUF_TRUMP)
    return min(suits, key=lambda s: (len(seen.sides[s]),
                                     sum(card_points(c) for c in seen.sides[s]), s))


# ----- Kontra and Retour ------------------------------------------------------------------
def _layout(view: dict[str, Any]) -> str:
    return layout_of(view["declared"], view["trump"])


def kontra_fits(view: dict[str, Any]) -> bool:
    """An opponent's hand that is strong against the declared game."""
    hand, game = view["hand"], view["declared"]
    seen = read_hand(hand, _layout(view))
    if game == RUFSPIEL:
        return len(seen.trumps) >= RUF_MIN_TRUMPS and seen.worth >= KONTRA_RUF_WORTH
    if seen.layout in (ONLY_UNTERS, ONLY_OBERS):
        return len(seen.trumps) >= KONTRA_WENZ_TRUMPS and seen.sauen >= KONTRA_SOLO_SAUEN
    top = sum(1 for c in seen.trumps if TRUMPS[seen.layout].index(c) < SAFE_TRUMPS)
    return (len(seen.trumps) >= KONTRA_SOLO_TRUMPS and seen.high >= KONTRA_SOLO_HIGH
            and top >= KONTRA_SOLO_TOP and seen.sauen >= KONTRA_SOLO_SAUEN)


def retour_fits(view: dict[str, Any]) -> bool:
    """The declaring party is comfortable: the hand of the declarer (or the partner)
    is well above what its game asks."""
    hand, game = view["hand"], view["declared"]
    seen = read_hand(hand, _layout(view))
    if view["seat"] != view["declarer"]:  # the partner: as strong as the declarer
        return len(seen.trumps) >= RUF_MIN_TRUMPS and seen.worth >= RUF_WORTH + RETOUR_MARGIN
    if game in TOUTS:
        return tout_sure(seen)
    if game == RUFSPIEL:
        return seen.worth >= RUF_WORTH + RETOUR_MARGIN
    if game in CHOSEN_TRUMP:
        return solo_fits(seen) and seen.losers == 0
    return few_trumps_fit(seen) and seen.losers == 0 and len(seen.trumps) >= 3


def double(view: dict[str, Any], legal: Sequence[Action]) -> Action | None:
    """Kontra or Retour from ``legal`` if the hand asks for it."""
    for action in legal:
        if isinstance(action, kinds.Kontra) and kontra_fits(view):
            return action
        if isinstance(action, kinds.Retour) and retour_fits(view):
            return action
    return None


# ----- the auction ------------------------------------------------------------------------
def bid(view: dict[str, Any], legal: Sequence[Action]) -> Action:
    hand = view["hand"]
    speak = {a.yes: a for a in legal if isinstance(a, kinds.Speak)}
    names = [a for a in legal if isinstance(a, kinds.NameGame)]
    calls = [a for a in legal if isinstance(a, kinds.CallSau)]
    trumps = [a for a in legal if isinstance(a, kinds.ChooseTrump)]
    if calls:
        suit = call_suit(hand, [a.name for a in calls])
        return next(a for a in calls if a.name == suit)
    if trumps:
        suit = best_trump_suit(hand)
        return next((a for a in trumps if a.name == suit), trumps[0])
    if names:
        game = wanted(hand, [a.name for a in names])
        chosen = next((a for a in names if a.name == game), None)
        return chosen or speak[False]
    if True not in speak:  # naming, with no class left to overtake
        return speak[False]
    # the first round: would it play anything at all?
    return speak[wanted(hand, CLASSES) is not None]


# ----- card play --------------------------------------------------------------------------
@dataclass(frozen=True)
class Table:
    """What the bot knows of the deal in progress, from its view."""

    me: int
    players: int
    layout: str
    ramsch: bool
    friends: frozenset[int]  # seats known to play with it
    foes: frozenset[int]  # seats known to play against it
    called: str | None  # the called suit while the partner is unknown to it
    declaring: bool  # it belongs to the declaring party

    def suit(self, card: str) -> str:
        return SUIT_AS[self.layout][card]

    def is_trump(self, card: str) -> bool:
        return SUIT_AS[self.layout][card] == TRUMP_SUIT

    def high(self, card: str) -> bool:
        """A trump among the top ones of the game (the Obers of a Rufspiel, the
        top two Unters of a Wenz): a partner's trick with it is safe."""
        order = TRUMPS[self.layout]
        return card in order and order.index(card) < min(SAFE_TRUMPS, len(order) // 2)

    def rank(self, card: str) -> int:
        """The card's place among the trumps (0 the highest); past them for a side
        card."""
        order = TRUMPS[self.layout]
        return order.index(card) if card in order else len(order)


def table_of(view: dict[str, Any]) -> Table:
    me, players, game = view["seat"], view["players"], view["declared"]
    everyone = frozenset(range(players)) - {me}
    declarer, partner = view["declarer"], view["partner"]
    if game == RAMSCH:
        return Table(me, players, _layout(view), True, frozenset(), everyone, None, False)
    called = view["called"] if partner is None else None
    if game != RUFSPIEL or partner is not None:
        party = frozenset({declarer} if game != RUFSPIEL else {declarer, partner})
        declaring = me in party
        friends = (party if declaring else everyone - party) - {me}
        return Table(me, players, _layout(view), False, friends, everyone - friends,
                     called, declaring)
    # a Rufspiel whose partner it does not know yet: only the declarer is sure
    declaring = me == declarer
    foes = frozenset() if declaring else frozenset({declarer})
    return Table(me, players, _layout(view), False, frozenset(), foes, called, declaring)


def cheapest(t: Table, cards: Sequence[str]) -> str:
    """The card that costs least to give away: fewest points, no trump if possible,
    the weakest."""
    return min(cards, key=lambda c: (card_points(c), t.is_trump(c), -t.rank(c),
                                     -len(c), c))


def smear(t: Table, cards: Sequence[str]) -> str:
    """The most points for a partner's sure trick, keeping the high trumps."""
    spare = [c for c in cards if not t.high(c)] or list(cards)
    return max(spare, key=lambda c: (card_points(c), -t.is_trump(c), t.rank(c), c))


def lead(t: Table, hand: Sequence[str], cards: Sequence[str]) -> str:
    trumps = [c for c in cards if t.is_trump(c)]
    side = [c for c in cards if not t.is_trump(c)]
    if t.ramsch:  # the weakest card: let the others take the tricks
        return min(cards, key=lambda c: (STRENGTH[t.layout][t.suit(c)][c], card_points(c)))
    if t.declaring and len(trumps) >= 2:
        # the declaring party draws trumps: its best one while it is among the top
        best = min(trumps, key=t.rank)
        if t.high(best) or len(trumps) >= len(hand) - 1:
            return best
        return max(trumps, key=t.rank)  # a low one, to draw the others' trumps
    if t.called is not None and not t.declaring:
        # an opponent looks for the partner: the called suit, its lowest card
        called = [c for c in side if t.suit(c) == t.called]
        if called:
            return cheapest(t, called)
    by_suit: dict[str, list[str]] = {}
    for card in side:
        by_suit.setdefault(t.suit(card), []).append(card)
    tops = [c for c in side if side_order(t.layout, t.suit(c))[0] == c]
    if tops:  # a Sau, from the shortest suit (the others less likely void)
        return min(tops, key=lambda c: (len(by_suit[t.suit(c)]), c))
    if side:  # a low card of the shortest side suit, so it can trump that suit soon
        short = min(by_suit, key=lambda s: (len(by_suit[s]), s))
        return cheapest(t, by_suit[short])
    return max(trumps, key=t.rank) if not t.declaring else min(trumps, key=t.rank)


def follow(t: Table, plays: list[dict[str, Any]], cards: Sequence[str]) -> str:
    led = t.suit(plays[0]["card"])
    strength = STRENGTH[t.layout][led]
    best = plays[winning_index([p["card"] for p in plays], lambda c, _led: strength[c])]
    win_seat, win_card = best["seat"], best["card"]
    points = sum(card_points(p["card"]) for p in plays)
    later = [(t.me + i) % t.players for i in range(1, t.players - len(plays))]
    winners = [c for c in cards if strength[c] > strength[win_card]]
    losers = [c for c in cards if strength[c] <= strength[win_card]]
    if t.ramsch:
        if losers:  # stay under it, giving away the most points
            return max(losers, key=lambda c: (card_points(c), strength[c]))
        if not later:  # taken anyway: with the card of most points
            return max(cards, key=lambda c: (card_points(c), strength[c]))
        return max(cards, key=lambda c: (strength[c], -card_points(c)))  # shed power
    friend_wins = win_seat in t.friends
    foes_after = [s for s in later if s not in t.friends]
    if friend_wins and (not foes_after or t.high(win_card)):
        return smear(t, cards)
    if friend_wins:
        return cheapest(t, cards)
    if not winners:
        return cheapest(t, cards)

    def cost(c: str) -> tuple[int, int]:
        return strength[c], card_points(c)

    if not foes_after:  # the last foe has played: take it as cheaply as it can
        take = min(winners, key=cost)
        if not t.is_trump(take) or points + card_points(take) >= WORTH_A_TRUMP:
            return take
        return cheapest(t, cards)
    # foes still to play: take a fat trick with a card that holds, else a side
    # card of the led suit that beats it (the others may have to follow)
    sure = [c for c in winners if t.high(c)]
    if points >= FAT_TRICK:
        return min(sure, key=cost) if sure else max(winners, key=cost)
    following = [c for c in winners if not t.is_trump(c)]
    if following:
        return max(following, key=cost)
    if len(plays) == t.players - 2 and points >= WORTH_A_TRUMP:
        return min(sure, key=cost) if sure else max(winners, key=cost)
    return cheapest(t, cards)


def play_card(view: dict[str, Any], cards: list[str]) -> str:
    t = table_of(view)
    if not view["trick"]:
        return lead(t, view["hand"], cards)
    return follow(t, view["trick"], cards)


# ----- the interface of a house bot (app.bots) --------------------------------------------
def decide(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The bot's action among ``legal`` (the engine's typed actions)."""
    said = double(view, legal)
    if said is not None:
        return said
    cards = [a.card for a in legal if isinstance(a, Play)]
    if cards:
        return PLAYS[play_card(view, cards)]
    if any(isinstance(a, kinds.Speak | kinds.NameGame | kinds.CallSau | kinds.ChooseTrump)
           for a in legal):
        return bid(view, legal)
    return rng.choice(legal)  # only a Kontra or Retour it would not say


def choose(view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
    """:func:`decide` asked with the room's strings, answering one of them."""
    return decide(view, PARSER.each(legal), rng).wire


def decide_optional(view: dict[str, Any], legal: list[Action],
                    rng: random.Random) -> Action | None:
    """Kontra or Retour off turn when the hand asks for it; None to stay silent."""
    return double(view, legal)


def optional(view: dict[str, Any], legal: list[str], rng: random.Random) -> str | None:
    """:func:`decide_optional` with the room's strings."""
    said = decide_optional(view, PARSER.each(legal), rng)
    return None if said is None else said.wire
