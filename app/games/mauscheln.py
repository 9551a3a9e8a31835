"""Mauscheln (Maus, Vierblatt, Frische Vier): four cards, four tricks, chips and a pot.

Rules: seed 002 and docs/rules/mauscheln.md (the rulings win).

A deal runs through these phases:

- the dealer (a seat with chips) puts the stake, or what they have, into the pot;
  every seat that had chips before the stake is in the deal and gets four cards,
  two at a time one by one from forehand, with the trump card turned up between;
- ``"bidding"``: from forehand each seat says ``mauschel`` or ``pass``; the first
  ``mauschel`` makes the sneaker. Nobody: the deal is thrown in, the pot stays;
- ``"joining"``: every other seat in the deal, from the sneaker's left, says
  ``join`` or ``fold``. Nobody joins: the sneaker takes the whole pot;
- ``"exchange"``: sneaker first, then clockwise over the joiners, each once
  ``exchange:`` + discards (listed in the order of the hand as the view shows it,
  i.e. exactly as in ``legal_actions``), drawing as many from the top of the stock;
- ``"play"``: the sneaker leads four tricks. Follow suit; else trump; and beat the
  trick's best card if a card allowed so far can;
- settling with P = the pot before payments: P // 4 per trick won, then the
  bêtes (joiner without a trick: P; sneaker with one trick: P, with none: 2P),
  each paid as far as the player's chips reach.

Between deals the engine deals on by itself. The match is over when fewer than two
seats have chips, or when the host calls :meth:`MauschelnMatch.end_by_host`.

Every chip movement of a deal is recorded as a transfer ``{"seat", "amount",
"reason"}`` (reason ``stake``, ``trick``, ``bete`` or ``pot``, and ``quartet`` under
that house rule; the pot's side is not listed) in the ``deal_end`` event and in
``view(...)["last_deal"]``, so the server can keep a ledger: per seat the transfers
of all deals add up to chips minus start chips.
The ``deal_end`` event carries ``scores``, the chips at the end of that deal (the
engine deals on inside the same ``apply``, so ``match.scores`` already show the next
dealer's stake, which is listed among the next deal's transfers), and ``pot``, the
pot then. ``last_deal`` has the same balances under ``scores`` and, for the tables
that read it, ``chips``. Chips left in the pot when the game ends belong to nobody.

House rules (docs/rules/mauscheln.md, "House rules"), each a bool room option, all off
by default. A house rule never removes a view key: the keys below are in every view
and every ``last_deal``, empty (``[]``, ``None``, ``False``) when the rule is off.

- ``quartets``: right after the deal (before a knock decision), from forehand in seat
  order, a seat holding four cards of one rank shows them (a public ``quartet`` event;
  they stay listed in every view under ``quartets`` for the rest of the deal and in
  ``last_deal``), pays the stake, or what it has, into the pot (a transfer with the
  reason ``quartet``) and draws four new cards from the top of the stock; again while
  the new hand is a quartet. With fewer than four cards in the stock the quartet is
  kept: nothing shown, nothing paid. A seat whose last chip goes this way still plays
  the deal. Ranks are the printed ones: with Belli the ``D7`` is a seven here.
- ``knock``: when the turned-up card is an Ace, phase ``"knock"`` comes before the
  bidding (after any quartets): the dealer says ``knock`` or ``no_knock`` without
  seeing their hand (their view shows ``"hand": []``, ``"hand_hidden": true``; the
  count is in ``hand_counts``).
  ``no_knock``: bidding as usual. ``knock``: the dealer is the sneaker without any
  bidding and takes the Ace into the hand; then, in the order of the ruling's text,
  (1) the dealer's ``exchange:`` of one to five of the five cards, drawing one fewer,
  at most stock + 1 discards, the Ace included; (2) joining, every other seat from
  the dealer's left, as usual (nobody joins: the dealer takes the pot); (3) the
  joiners' exchange, clockwise from the sneaker; (4) play, the sneaker leads.
- ``belli``: ``D7`` is always a trump, directly below the trump Ace (with diamonds
  trumps: A, D7, K, ...). It counts as a trump for every duty, also when led.
  No extra penalty.
- ``weli`` (32-card pack only, not with ``belli``): a 33rd card ``D6`` joins the pack
  (stacked deals must hold it); always a trump directly below the trump Ace; turned
  up, it makes diamonds trumps. Both are checked in :meth:`check_option_combination`.

Views carry ``options`` (the four flags), ``quartets``
(``[{"seat", "cards"}]``, public), ``knock`` (``None`` or ``{"dealer", "pending",
"decision"}``), ``permanent_trumps`` (``["D7"]``, ``["D6"]`` or ``[]``: a rule, not a
card's whereabouts), ``trumps`` (the viewer's own cards that are trumps now, hand
order; ``[]`` for a spectator and for a hidden hand) and ``hand_hidden``; ``last_deal``
carries ``quartets`` and ``knock`` (the dealer's decision, or ``None``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any, ClassVar

from app.games.actions import (
    FOLD,
    JOIN,
    KNOCK,
    MAUSCHEL,
    NO_KNOCK,
    PASS_BID,
    Action,
    Answer,
    Bid,
    Exchange,
    Knock,
    Play,
)
from app.games.base import (
    CHIPS,
    END_REASONS,
    FLAT,
    HOST_ENDS,
    N_,
    NESTED,
    GameInfo,
    Option,
    OptionError,
    Parser,
    Reason,
    Trick,
    Unseen,
    _clone,
)
from app.games.cards import check_permutation, rank_of, suit_of
from app.games.tricks import TrickGame, winning_index

SUITS = ["S", "H", "D", "C"]
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]  # strongest first
PACK_32 = [s + r for s in SUITS for r in RANKS[:8]]
PACK_52 = [s + r for s in SUITS for r in RANKS]
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

HAND_SIZE = 4
TRICKS_PER_DEAL = 4
TRICK_SHARE = 4  # each trick won takes pot // TRICK_SHARE
TRUMP_CARD_AFTER = 2  # the trump card is turned up after this many rounds of dealing
SEATS_FOR_52 = 6  # a game started with this many seats or more uses all 52 cards
# strength bands of a trick: trumps above the led suit; another suit cannot win
TRUMP_BAND = 100
LED_BAND = 10
NO_WIN = -1

# the words each phase of speaking asks for, and their strings
WORDS: dict[str, list[Action]] = {"knock": [KNOCK, NO_KNOCK], "bidding": [MAUSCHEL, PASS_BID],
                                  "joining": [JOIN, FOLD]}
WORD_WIRES: dict[str, list[str]] = {phase: [a.wire for a in words]
                                    for phase, words in WORDS.items()}
# the decision each phase asks for (the trick play's is a Play)
PHASE_OF: dict[type[Action], str] = {Knock: "knock", Bid: "bidding", Answer: "joining",
                                     Exchange: "exchange", Play: "play"}
PARSER = Parser(Knock, Bid, Answer, Exchange, Play)

HOUSE_RULES = ("knock", "quartets", "belli", "weli")
BELLI = "D7"  # the permanent trump of the Belli house rule
WELI = "D6"  # the 33rd card of the Weli house rule


def pack_for(seats: int, weli: bool = False) -> list[str]:
    """The pack of a game with ``seats`` seats at its start: 32 cards for 3 to 5,
    52 for 6 or 7; with ``weli`` the 32-card pack plus the ``D6`` (33 cards).
    It stays the same when players drop out later."""
    if weli:
        if seats >= SEATS_FOR_52:
            raise ValueError("Weli is played with the 32-card pack only (3 to 5 players)")
        return [*PACK_32, WELI]
    return list(PACK_52 if seats >= SEATS_FOR_52 else PACK_32)


def pack_of_size(size: int) -> list[str]:
    """The pack a view's ``pack_size`` stands for: 32, 33 (Weli) or 52 cards."""
    if size == len(PACK_52):
        return list(PACK_52)
    if size == len(PACK_32) + 1:
        return [*PACK_32, WELI]
    return list(PACK_32)


def permanent_trump_for(options: dict[str, Any]) -> str | None:
    """``D7`` with Belli, ``D6`` with Weli: always a trump, whatever the trump suit."""
    if options.get("belli"):
        return BELLI
    if options.get("weli"):
        return WELI
    return None


# ----- card order (the engine and the bot both use these) --------------------------
def suit_as(card: str, trump: str, permanent: str | None) -> str:
    """The suit a card counts as: the permanent trump (Belli/Weli) counts as the trump
    suit, for following suit too (led, it calls for trumps)."""
    return trump if card == permanent else suit_of(card)


def rank_value(card: str, permanent: str | None) -> int:
    """Higher is stronger inside the card's suit: Ace 26, King 24 ... 2 2 (steps of
    two); the permanent trump (Belli/Weli) 25, directly below the trump Ace."""
    if card == permanent:
        return 2 * len(RANKS) - 1
    return 2 * (len(RANKS) - RANKS.index(rank_of(card)))


def card_strength(card: str, led_card: str, trump: str, permanent: str | None) -> int:
    """Strength in a trick led with ``led_card``: trumps above the led suit; a card of
    another suit cannot win (``NO_WIN``)."""
    suit = suit_as(card, trump, permanent)
    if suit == trump:
        return TRUMP_BAND + rank_value(card, permanent)
    if suit == suit_as(led_card, trump, permanent):
        return LED_BAND + rank_value(card, permanent)
    return NO_WIN


class CardOrder:
    """The card order of one trump suit and permanent trump, worked out once for the
    whole 52-card pack (the Weli ``D6`` is in it) so that play looks cards up instead
    of calling :func:`suit_as` and :func:`card_strength` card by card. ``suit``: the
    suit a card counts as; ``trumps``: the trump cards; ``strength[led suit][card]``;
    ``sort_key``: trumps first, then S H D C, strongest first."""

    __slots__ = ("suit", "trumps", "strength", "sort_key")

    def __init__(self, trump: str, permanent: str | None) -> None:
        self.suit = {c: suit_as(c, trump, permanent) for c in PACK_52}
        self.trumps = frozenset(c for c in PACK_52 if self.suit[c] == trump)
        # a led card of suit s stands for every card that counts as s
        led_of = {suit: next(c for c in PACK_52 if self.suit[c] == suit) for suit in SUITS}
        self.strength = {
            suit: {c: card_strength(c, led_of[suit], trump, permanent) for c in PACK_52}
            for suit in SUITS
        }
        self.sort_key = {
            c: (0 if c in self.trumps else 1 + SUITS.index(self.suit[c])) * 100
            - rank_value(c, permanent)
            for c in PACK_52
        }


    def strength_in_trick(self, card: str, led_card: str) -> int:
        """The strength of ``card`` in a trick led with ``led_card`` (for
        :func:`~app.games.tricks.winning_index`)."""
        return self.strength[self.suit[led_card]][card]


_ORDERS: dict[tuple[str, str | None], CardOrder] = {}


def card_order(trump: str, permanent: str | None) -> CardOrder:
    """The (shared, read-only) :class:`CardOrder` of a trump suit and permanent trump."""
    order = _ORDERS.get((trump, permanent))
    if order is None:
        order = _ORDERS[(trump, permanent)] = CardOrder(trump, permanent)
    return order


def allowed_plays(hand: Sequence[str], trick: Sequence[str], order: CardOrder) -> list[str]:
    """The cards of ``hand`` that may be played to an open trick of the cards
    ``trick`` (in play order), the three duties applied: follow suit if able, else
    trump if able, and beat the trick's best card if a card allowed so far can."""
    if not trick:
        return list(hand)
    suit = order.suit
    led_suit = suit[trick[0]]
    allowed = [c for c in hand if suit[c] == led_suit]
    if not allowed:
        allowed = [c for c in hand if c in order.trumps] or list(hand)
    strength = order.strength[led_suit]
    best = max(strength[c] for c in trick)
    beaters = [c for c in allowed if strength[c] > best]
    return beaters or allowed


def is_quartet(hand: Sequence[str]) -> bool:
    """Four cards of one printed rank (with Belli the ``D7`` is still a seven)."""
    return len(hand) == HAND_SIZE and len({rank_of(c) for c in hand}) == 1


def card_label(card: str) -> str:
    """``HK`` -> ``K♥``: how a player reads a card in a message."""
    return rank_of(card) + SUIT_SYMBOLS[suit_of(card)]


def deal_from_deck(deck: Sequence[str], order: Sequence[int], players: int
                   ) -> tuple[list[list[str]], str, list[str]]:
    """Deal a shuffled ``deck`` the way the dealer does it.

    ``order`` lists the seats in the deal from forehand clockwise. Two rounds of one
    card each, then the trump card is turned up, then two more rounds; the rest is
    the stock, top first. Seats not in ``order`` get no cards.
    """
    k = len(order)
    hands: list[list[str]] = [[] for _ in range(players)]
    position = 0
    for round_no in range(HAND_SIZE):
        if round_no == TRUMP_CARD_AFTER:
            position += 1  # the trump card is turned up
        for seat in order:
            hands[seat].append(deck[position])
            position += 1
    trump = deck[TRUMP_CARD_AFTER * k]
    return hands, trump, list(deck[position:])


def bete_due(pot_before: int, tricks: int, is_sneaker: bool) -> int:
    """The bête a player in the deal owes after winning ``tricks`` tricks."""
    if is_sneaker:
        return 2 * pot_before if tricks == 0 else pot_before if tricks == 1 else 0
    return pot_before if tricks == 0 else 0


class MauschelnMatch(TrickGame):
    """A game of Mauscheln for 3 to 7 seats. ``scores`` are the chips per seat."""

    name: ClassVar[str] = "mauscheln"
    min_players: ClassVar[int] = 3
    max_players: ClassVar[int] = 7
    parser: ClassVar[Parser] = PARSER
    spells: ClassVar[bool] = True  # the plays and the exchange's choices (_spelled)
    early_play: ClassVar[str] = N_("no card is played before every player has decided and "
                                   "exchanged")
    options_spec: ClassVar[tuple[Option, ...]] = (
        Option(
            "chips", N_("Starting chips"), "int", 40, minimum=1, maximum=100_000,
            help=N_("Every player starts with this many chips."),
        ),
        Option(
            "stake", N_("Stake"), "int", 4, minimum=4, maximum=10_000, step=4,
            help=N_("What the dealer puts into the pot each deal (a multiple of 4)."),
        ),
        Option(
            "knock", N_("Knocking"), "bool", False,
            help=N_("When an Ace is turned up, the dealer may knock before looking at "
                    "their cards: they play as sneaker, take the Ace and discard one to "
                    "five cards."),
        ),
        Option(
            "quartets", N_("Quartets"), "bool", False,
            help=N_("Four cards of one rank are shown and discarded; their holder pays a "
                    "stake into the pot and draws four new cards."),
        ),
        Option(
            "belli", N_("Belli"), "bool", False,
            help=N_("The 7 of diamonds is always a trump, directly below the trump Ace."),
        ),
        Option(
            "weli", N_("Weli"), "bool", False,
            help=N_("The 6 of diamonds joins as a 33rd card and is always a trump, "
                    "directly below the trump Ace (3 to 5 players; not with Belli)."),
        ),
    )

    pack: list[str]
    start_chips: int
    pot: int
    in_deal: list[int]  # seats dealt in this deal (they had chips before the stake)
    hands: list[list[str]]
    trump_card: str
    stock: list[str]  # top first
    stake_paid: int
    bids: list[str | None]  # "mauschel" / "pass" per seat
    answers: list[str | None]  # "join" / "fold" per seat
    sneaker: int | None
    queue: list[int]  # who still has to speak in this phase; queue[0] is on turn
    discards: list[list[str]]  # face down, known only to the seat itself
    exchanged: list[int | None]  # how many cards each seat exchanged (public)
    playing: list[int]  # sneaker and joiners, seat order
    trick: list[list[Any]]  # [[seat, card], ...] in play order
    won: list[int]  # tricks won per seat in this deal
    transfers: list[dict[str, Any]]  # chip movements of this deal
    quartets: list[dict[str, Any]]  # shown quartets of this deal: {"seat", "cards"} (public)
    knock_state: str | None  # None (no decision this deal), "pending", "knock", "no_knock"
    last_deal: dict[str, Any] | None

    fresh_views: ClassVar[bool] = True
    copy_plan: ClassVar[dict[str, str]] = {
        **TrickGame.copy_plan,
        "pack": FLAT,
        "in_deal": FLAT,
        "stock": FLAT,
        "bids": FLAT,
        "answers": FLAT,
        "queue": FLAT,
        "discards": NESTED,
        "exchanged": FLAT,
        "playing": FLAT,
        "won": FLAT,
        "tricks": FLAT,  # a finished trick's record is never changed
        "transfers": FLAT,  # a chip movement's record is never changed
        "quartets": FLAT,  # a shown quartet's record is never changed
    }

    @classmethod
    def check_option_combination(cls, players: int, options: dict[str, Any]) -> None:
        """Weli needs the 32-card pack (3 to 5 players) and excludes Belli."""
        if options.get("weli"):
            if options.get("belli"):
                raise OptionError(Reason(N_("Belli and Weli cannot be played together: "
                                            "choose one permanent trump")),
                                  ("belli", "weli"))
            if players >= 6:
                raise OptionError(Reason(N_("Weli is played with the 32-card pack only (3 "
                                            "to 5 players); {players} players use all 52 "
                                            "cards"), players=players), ("weli", "players"))

    # ----- worlds (search bots; see Match.unseen and Match.from_view) -------------
    @staticmethod
    def _view_rules(view: dict[str, Any]) -> dict[str, Any]:
        """The options a view tells: the house rules, the stake, the chips."""
        rules = view.get("options") or {}
        return {"chips": int(view["start_chips"]), "stake": int(view["stake"]),
                **{name: bool(rules.get(name, False)) for name in HOUSE_RULES}}

    @classmethod
    def unseen(cls, view: dict[str, Any], tricks: list[Trick] | None = None) -> Unseen:
        """The other hands, their discards and the stock (its order matters: an
        exchange draws from the top); the own hand too while the dealer decides on a
        knock blind. Known: the own hand and discards, the turned-up card (beside the
        stock, never drawn; after a knock in the dealer's hand or among the dealer's
        discards), shown quartets and every card played. What play reveals: a card
        that would have made a seat's play break one of the three duties (follow
        suit, else trump, and beat the best card if able) is not in its hand."""
        seat = int(view["seat"])
        players = int(view["players"])
        plays = (cls.deal_plays(view, tricks) if view["phase"] == "play" else [])
        blind = bool(view.get("hand_hidden"))
        knocked = (view.get("knock") or {}).get("decision") == "knock"
        seen = list(view.get("discarded") or [])
        if not blind:
            seen += view["hand"]
        for quartet in view.get("quartets") or []:
            seen += quartet["cards"]
        seen += [c for trick in plays for _, c in trick]
        if not knocked:
            seen.append(view["trump_card"])
        cards = pack_of_size(int(view["pack_size"]))
        for card in seen:
            cards.remove(card)
        places = {"stock": int(view["stock_count"])}
        counts = view["hand_counts"]
        exchanged = view.get("exchanged") or [None] * players
        for s in range(players):
            if s == seat and not blind:
                continue
            if counts[s]:
                places[f"hand:{s}"] = int(counts[s])
            if s != seat and exchanged[s]:
                places[f"discards:{s}"] = int(exchanged[s])
        probe = cls._from_state({"trump_card": view["trump_card"],
                                 "options": cls._view_rules(view)}, None)
        assert isinstance(probe, MauschelnMatch)
        excluded = {f"hand:{s}": absent for s, absent in
                    probe.absent_by_play(plays, cards).items() if f"hand:{s}" in places}
        if knocked and view["trump_card"] in cards:
            # the knocking dealer took the Ace: in the hand, or discarded since
            dealer = int(view["dealer"])
            for place in places:
                if place not in (f"hand:{dealer}", f"discards:{dealer}"):
                    excluded.setdefault(place, set()).add(view["trump_card"])
        return Unseen(cards, places, excluded)

    @classmethod
    def _view_state(cls, view: dict[str, Any], hidden: dict[str, list[str]],
                    plays: list[Trick]) -> dict[str, Any]:
        """The state ``view`` shows with the places of :meth:`unseen` filled in. What
        the view tells by its phase and turn is put back as the engine keeps it: who
        still has to speak (``queue``) and the finished tricks ``plays`` (their
        winners decided by the card order). The transfers of the deal are what the
        view tells of them (the dealer's stake). ValueError if the turn does not fit."""
        seat = int(view["seat"])
        players = int(view["players"])
        blind = bool(view.get("hand_hidden"))
        hands = [list(view["hand"]) if s == seat and not blind
                 else list(hidden.get(f"hand:{s}", [])) for s in range(players)]
        knock = view.get("knock")
        dealer = int(view["dealer"])
        stake_paid = int(view["stake_paid"])
        rules = cls._view_rules(view)
        state = {
            "players": players, "options": rules, "stacked_deals": [],
            "phase": view["phase"], "scores": list(view["scores"]), "winners": [],
            "deal_no": int(view["deal_no"]), "last_deal": None, "dealer": dealer,
            "pack": pack_of_size(int(view["pack_size"])),
            "start_chips": int(view["start_chips"]), "pot": int(view["pot"]),
            "in_deal": list(view["in_deal"]), "hands": hands,
            "trump_card": view["trump_card"], "stock": list(hidden.get("stock", [])),
            "stake_paid": stake_paid, "bids": list(view["bids"]),
            "answers": list(view["answers"]), "sneaker": view["sneaker"], "queue": [],
            "discards": [list(view.get("discarded") or []) if s == seat
                         else list(hidden.get(f"discards:{s}", [])) for s in range(players)],
            "exchanged": list(view["exchanged"]), "playing": list(view["playing"]),
            "trick": [[int(p["seat"]), str(p["card"])] for p in view["trick"]],
            "tricks": [], "won": list(view["tricks_won"]), "leader": view["leader"],
            "turn": view["turn"],
            "transfers": ([{"seat": dealer, "amount": -stake_paid, "reason": "stake"}]
                          if stake_paid else []),
            "quartets": _clone(view.get("quartets") or []),
            "knock_state": None if not knock else
            "pending" if knock.get("pending") else knock.get("decision"),
        }

        def clockwise_from(start: int, seats: Sequence[int]) -> list[int]:
            return sorted(seats, key=lambda s: (s - start) % players)

        phase, turn, sneaker = state["phase"], state["turn"], state["sneaker"]
        queue: list[int] = []
        if phase == "knock":
            queue = [dealer]
        elif phase == "bidding":
            queue = clockwise_from((dealer + 1) % players, state["in_deal"])
        elif phase == "joining" and sneaker is not None:
            queue = clockwise_from((sneaker + 1) % players,
                                   [s for s in state["in_deal"] if s != sneaker])
        elif phase == "exchange" and sneaker is not None:
            pending = [s for s in state["playing"] if state["exchanged"][s] is None]
            queue = clockwise_from(sneaker, pending) if state["playing"] else [sneaker]
        elif phase == "play":
            order = card_order(suit_of(view["trump_card"]), permanent_trump_for(rules))
            for trick in plays[:-1]:
                cards = [c for _, c in trick]
                winner = trick[winning_index(cards, order.strength_in_trick)][0]
                state["tricks"].append({"leader": trick[0][0], "winner": winner,
                                        "plays": [[s, c] for s, c in trick]})
        else:
            raise ValueError(f"nothing to decide in phase {phase!r}")
        if phase in ("bidding", "joining") and turn in queue:
            queue = queue[queue.index(turn):]
        if phase != "play" and (not queue or queue[0] != turn):
            raise ValueError("the seat on turn is not the one due to speak")
        state["queue"] = queue
        return state

    @classmethod
    def from_view(cls, view: dict[str, Any], hidden: dict[str, list[str]],
                  tricks: list[Trick] | None = None, seed: int | str | None = None
                  ) -> MauschelnMatch:
        plays = cls.deal_plays(view, tricks) if view["phase"] == "play" else []
        match = cls._from_state(cls._view_state(view, hidden, plays), seed)
        assert isinstance(match, MauschelnMatch)
        return match

    @classmethod
    def at_deal_start(cls, view: dict[str, Any], hidden: dict[str, list[str]],
                      tricks: list[Trick] | None = None, seed: int | str | None = None
                      ) -> MauschelnMatch:
        """The deal ``view`` shows as it stood when its first word was due (the knock
        decision, or the bidding from forehand), after any shown quartets: the hands
        from ``view`` and ``hidden``. Only before anyone has exchanged (ValueError
        after; no trick has been played then): every hand is still the one dealt. A
        search replays the words said since on it and watches each one."""
        if any(n is not None for n in view["exchanged"]) or tricks:
            raise ValueError("a seat has exchanged: the dealt hands are gone")
        state = cls._view_state(view, hidden, [])
        players, dealer = state["players"], state["dealer"]
        state.update(bids=[None] * players, answers=[None] * players, sneaker=None)
        if state["knock_state"] is not None:
            state.update(phase="knock", knock_state="pending", queue=[dealer], turn=dealer)
        else:
            queue = sorted(state["in_deal"], key=lambda s: (s - dealer - 1) % players)
            state.update(phase="bidding", queue=queue, turn=queue[0])
        match = cls._from_state(state, seed)
        assert isinstance(match, MauschelnMatch)
        return match

    def rule(self, name: str) -> bool:
        """Whether the house rule ``name`` (one of ``HOUSE_RULES``) is on."""
        return bool(self.options.get(name, False))

    # ----- setup and dealing -----------------------------------------------
    def setup(self) -> None:
        self.pack = pack_for(self.players, weli=self.rule("weli"))
        for index, entry in enumerate(self.stacked_deals):
            self._check_deal(entry, range(self.players) if index == 0 else None)
        self.start_chips = int(self.options["chips"])
        self.scores = [self.start_chips] * self.players
        self.pot = 0
        self.last_deal = None
        self.turn = None
        self.leader = None
        self._start_deal()

    def _check_deal(self, entry: Any, seats_in: Any) -> None:
        """Raise ValueError unless ``entry`` is a deal of this pack; with ``seats_in``
        given, those seats must hold four cards and every other seat none."""
        shape = ("a Mauscheln deal is {'hands': [[4 cards] or [] per seat], 'trump': card, "
                 "'stock': [cards, top first]}")
        if not isinstance(entry, dict) or set(entry) != {"hands", "trump", "stock"}:
            raise ValueError(shape)
        hands, trump, stock = entry["hands"], entry["trump"], entry["stock"]
        if not isinstance(hands, list) or len(hands) != self.players:
            raise ValueError(f"a Mauscheln deal lists a hand for each of the {self.players} seats")
        if not isinstance(stock, list) or not isinstance(trump, str):
            raise ValueError(shape)
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list) or len(hand) not in (0, HAND_SIZE):
                raise ValueError(f"seat {seat} must get four cards, or [] when out")
        cards = [c for h in hands for c in h] + [trump] + stock
        if any(not isinstance(c, str) for c in cards):
            raise ValueError("cards are given as code strings such as 'HA'")
        if self.rule("weli") and WELI not in cards:
            raise ValueError("with Weli the pack has 33 cards: a deal must hold the D6")
        check_permutation(cards, self.pack)
        if seats_in is not None:
            wanted = set(seats_in)
            for seat, hand in enumerate(hands):
                if bool(hand) != (seat in wanted):
                    raise ValueError(
                        f"seat {seat} is {'in' if seat in wanted else 'out of'} this deal: "
                        f"it must get {'four cards' if seat in wanted else '[]'}"
                    )

    def clockwise_from(self, start: int, seats: Sequence[int]) -> list[int]:
        """``seats`` in clockwise order beginning at ``start`` (or the next after it)."""
        return sorted(seats, key=lambda s: (s - start) % self.players)

    def _next_dealer(self) -> int:
        for step in range(1, self.players + 1):
            seat = (self.dealer + step) % self.players
            if self.scores[seat] > 0:
                return seat
        raise AssertionError("a new deal needs a seat with chips")

    def _start_deal(self) -> list[dict[str, Any]]:
        """Stake, deal, then open the first phase. Returns the ``deal`` event and the
        events of what happens before anyone speaks (shown quartets)."""
        dealer = self.dealer if self.deal_no == 0 else self._next_dealer()
        # who plays is decided before the stake: a dealer's last chip still plays
        in_deal = [s for s in range(self.players) if self.scores[s] > 0]
        order = self.clockwise_from((dealer + 1) % self.players, in_deal)
        self.deal_no += 1
        stacked = self.next_stacked_deal()
        if stacked is not None:
            if self.deal_no > 1:  # setup checked the first deal against every seat
                self._check_deal(stacked, in_deal)
            hands = [list(h) for h in stacked["hands"]]
            trump, stock = stacked["trump"], list(stacked["stock"])
        else:
            hands, trump, stock = deal_from_deck(self.shuffled(self.pack), order, self.players)
        self.dealer = dealer
        self.in_deal = in_deal
        self.hands, self.trump_card, self.stock = hands, trump, stock
        self.bids = [None] * self.players
        self.answers = [None] * self.players
        self.sneaker = None
        self.discards = [[] for _ in range(self.players)]
        self.exchanged = [None] * self.players
        self.playing = []
        self.trick = []
        self.tricks = []
        self.won = [0] * self.players
        self.leader = None
        self.transfers = []
        self.quartets = []
        self.knock_state = None
        self.stake_paid = min(int(self.options["stake"]), self.scores[dealer])
        self._move(dealer, -self.stake_paid, "stake")
        deal_event: dict[str, Any] = {
            "type": "deal", "deal_no": self.deal_no, "dealer": dealer,
            "forehand": order[0], "in_deal": list(in_deal), "trump_card": trump,
            "stake": self.stake_paid, "pot": self.pot,
        }
        return [deal_event, *self._open_bidding(order)]

    def _open_bidding(self, order: list[int]) -> list[dict[str, Any]]:
        """After the deal: shown quartets (house rule), then the dealer's knock decision
        when an Ace is turned up (house rule), else bidding from forehand."""
        events = self._show_quartets(order) if self.rule("quartets") else []
        if self.rule("knock") and rank_of(self.trump_card) == "A":
            self.knock_state = "pending"
            self._set_queue("knock", [self.dealer])
        else:
            self._set_queue("bidding", order)
        return events

    def _show_quartets(self, order: list[int]) -> list[dict[str, Any]]:
        """From forehand in seat order: a quartet is shown and discarded, the stake (or
        what the seat has) goes into the pot, four new cards come from the stock top;
        again while the new hand is a quartet. A stock of fewer than four cards: the
        quartet is kept, nothing shown or paid."""
        events: list[dict[str, Any]] = []
        stake = int(self.options["stake"])
        for seat in order:
            while is_quartet(self.hands[seat]) and len(self.stock) >= HAND_SIZE:
                shown = sorted(self.hands[seat], key=lambda c: SUITS.index(suit_of(c)))
                paid = min(stake, self.scores[seat])
                self._move(seat, -paid, "quartet")
                self.quartets.append({"seat": seat, "cards": shown})
                self.hands[seat] = self.stock[:HAND_SIZE]
                del self.stock[:HAND_SIZE]
                events.append({
                    "type": "quartet", "seat": seat, "cards": list(shown), "paid": paid,
                    "drawn": HAND_SIZE, "pot": self.pot, "stock": len(self.stock),
                })
        return events

    def _set_queue(self, phase: str, seats: list[int]) -> None:
        self.phase = phase
        self.queue = list(seats)
        self.turn = self.queue[0] if self.queue else None

    def _pop_queue(self) -> None:
        self.queue.pop(0)
        self.turn = self.queue[0] if self.queue else None

    def _move(self, seat: int, amount: int, reason: str) -> None:
        """Move ``amount`` chips from the pot to ``seat`` (negative: into the pot)."""
        if amount == 0:
            return
        assert self.scores[seat] + amount >= 0 and self.pot - amount >= 0
        self.scores[seat] += amount
        self.pot -= amount
        self.transfers.append({"seat": seat, "amount": amount, "reason": reason})

    # ----- card order --------------------------------------------------------
    @property
    def trump(self) -> str:
        """The trump suit of this deal (a turned-up Weli ``D6`` makes diamonds trumps)."""
        return suit_of(self.trump_card)

    @property
    def permanent_trump(self) -> str | None:
        """``D7`` with Belli, ``D6`` with Weli: always a trump, whatever the trump suit."""
        return permanent_trump_for(self.options)

    # working memory (not state): the deal's card order and the trump card it is for
    _order: tuple[str, CardOrder] | None = None

    def order(self) -> CardOrder:
        """The card order of this deal (trump suit and permanent trump; the options
        never change in a match), looked up once a deal: play asks for it at every
        card."""
        memo = self._order
        if memo is None or memo[0] != self.trump_card:
            memo = self._order = (self.trump_card, card_order(
                suit_of(self.trump_card), permanent_trump_for(self.options)))
        return memo[1]

    def suit(self, card: str) -> str:
        """The suit a card counts as (see :func:`suit_as`)."""
        return self.order().suit[card]

    def rank_value(self, card: str) -> int:
        """See :func:`rank_value`."""
        return rank_value(card, self.permanent_trump)

    def is_trump(self, card: str) -> bool:
        return card in self.order().trumps

    def strength(self, card: str, led_card: str) -> int:
        """See :func:`card_strength`."""
        order = self.order()
        return order.strength[order.suit[led_card]][card]

    def sort_hand(self, hand: Sequence[str]) -> list[str]:
        """Trumps first, then spades, hearts, diamonds, clubs; strongest first."""
        return sorted(hand, key=self.order().sort_key.__getitem__)

    # ----- trick rules -------------------------------------------------------
    def _best_play(self, order: CardOrder | None = None) -> list[Any]:
        """The [seat, card] that currently wins the open trick."""
        order = order or self.order()
        strength = order.strength[order.suit[self.trick[0][1]]]
        return self.trick[winning_index([c for _, c in self.trick],
                                        lambda c, _led: strength[c])]

    def allowed(self, hand: Sequence[str], trick: Sequence[str]) -> list[str]:
        """See :func:`allowed_plays` (the three duties)."""
        return allowed_plays(hand, trick, self.order())

    def playable(self, seat: int) -> list[str]:
        """The cards ``seat`` may play now, the three duties applied."""
        return allowed_plays(self.hands[seat], [c for _, c in self.trick], self.order())

    def duty(self, seat: int) -> dict[str, Any]:
        """What the seat on turn must do: ``beat`` the trick's best ``card``, ``follow``
        the led ``suit``, play a ``trump``, or play anything (``free``)."""
        if not self.trick:
            return {"kind": "free", "card": None, "suit": None}
        hand = self.hands[seat]
        led_card = self.trick[0][1]
        led_suit = self.suit(led_card)
        best_card = self._best_play()[1]
        best = self.strength(best_card, led_card)
        can_beat = any(self.strength(c, led_card) > best for c in self.playable(seat))
        if any(self.suit(c) == led_suit for c in hand):
            kind = "beat" if can_beat else "follow"
            return {"kind": kind, "card": best_card, "suit": led_suit}
        if any(self.is_trump(c) for c in hand):
            kind = "beat" if can_beat and self.is_trump(best_card) else "trump"
            return {"kind": kind, "card": best_card, "suit": self.trump}
        return {"kind": "free", "card": best_card, "suit": led_suit}

    # ----- trick play (TrickGame hooks) ----------------------------------------
    def trick_size(self) -> int:
        return len(self.playing)

    def next_in_trick(self, seat: int) -> int:
        """The next of the sneaker and joiners, clockwise (``playing`` is in seat
        order: the first one after ``seat``, else the first one)."""
        for s in self.playing:
            if s > seat:
                return s
        return self.playing[0]

    def tricks_per_deal(self) -> int:
        return TRICKS_PER_DEAL

    def finish_trick(self) -> tuple[int, list[dict[str, Any]]]:
        winner = self._best_play()[0]
        self.won[winner] += 1
        self.tricks.append({"leader": self.leader, "plays": self.trick, "winner": winner})
        return winner, [{"type": "trick", "winner": winner, "plays": self.trick_plays()}]

    def end_deal(self) -> list[dict[str, Any]]:
        return self._end_deal("played")

    # ----- exchange ----------------------------------------------------------
    def exchange_choices(self, seat: int) -> list[tuple[str, ...]]:
        """The discards of every legal exchange, each in hand order: as many as keep
        the hand at four cards without drawing more than the stock holds."""
        hand = self.sort_hand(self.hands[seat])
        surplus = len(hand) - HAND_SIZE
        most = min(len(hand), len(self.stock) + surplus)  # no more drawn than the stock has
        return [chosen for count in range(max(surplus, 0), most + 1)
                for chosen in combinations(hand, count)]

    def exchange_options(self, seat: int) -> list[Action]:
        """Every legal exchange."""
        return [Exchange(chosen) for chosen in self.exchange_choices(seat)]

    def allows_exchange(self, seat: int, action: Exchange) -> bool:
        """``action in exchange_options(seat)``, without listing every combination."""
        cards = action.discards
        place = {card: i for i, card in enumerate(self.sort_hand(self.hands[seat]))}
        positions = [place.get(card, -1) for card in cards]
        if -1 in positions or positions != sorted(set(positions)):
            return False  # a card not held, named twice, or out of hand order
        surplus = len(place) - HAND_SIZE
        return max(surplus, 0) <= len(cards) and len(cards) - surplus <= len(self.stock)

    # ----- the Match hooks ---------------------------------------------------
    def _actions(self, seat: int) -> list[Action]:
        if seat != self.turn:
            return []
        if self.phase in WORDS:
            return list(WORDS[self.phase])
        if self.phase == "exchange":
            return self.exchange_options(seat)
        return self.play_actions(seat)

    def _spelled(self, seat: int) -> list[str] | None:
        """:meth:`_actions` spelled, without making an action of each (an exchange
        lists up to 32): the one taken is read back from its string."""
        if seat != self.turn:
            return []
        if self.phase == "play":
            return self.play_wires(seat)
        if self.phase in WORD_WIRES:
            return list(WORD_WIRES[self.phase])
        if self.phase == "exchange":
            return [Exchange.spell(chosen) for chosen in self.exchange_choices(seat)]
        return None

    def _permits(self, seat: int, action: Action) -> bool:
        if seat != self.turn or PHASE_OF.get(type(action)) != self.phase:
            return False
        if isinstance(action, Play):
            return self.allows_play(seat, action)
        if isinstance(action, Exchange):
            return self.allows_exchange(seat, action)
        return True  # the phase's word: either answer is legal

    def _perform(self, seat: int, action: Action) -> list[dict[str, Any]]:
        if isinstance(action, Play):
            return self.play_card(seat, action.card)
        if isinstance(action, Exchange):
            return self._exchange(seat, action.discards)
        if isinstance(action, Bid):
            return self._bid(seat, action)
        if isinstance(action, Answer):
            return self._answer(seat, action)
        if isinstance(action, Knock):
            return self._knock(seat, action)
        raise AssertionError(f"not an action of Mauscheln: {action!r}")

    def _knock(self, seat: int, decision: Knock) -> list[dict[str, Any]]:
        """The dealer's decision with an Ace turned up (knock house rule)."""
        self.knock_state = decision.wire
        events: list[dict[str, Any]] = [{"type": "knock", "seat": seat,
                                         "decision": decision.wire}]
        if not decision.yes:
            self._set_queue("bidding", self.clockwise_from((seat + 1) % self.players,
                                                           self.in_deal))
            return events
        # the sneaker without bidding: the Ace goes into the hand, then their exchange
        # (one to five of the five cards); the others join or fold after it
        self.sneaker = seat
        self.hands[seat].append(self.trump_card)
        self._set_queue("exchange", [seat])
        return events

    def _open_joining(self) -> None:
        """Every other seat in the deal, from the sneaker's left, says join or fold."""
        assert self.sneaker is not None
        others = [s for s in self.in_deal if s != self.sneaker]
        self._set_queue("joining",
                        self.clockwise_from((self.sneaker + 1) % self.players, others))

    def _bid(self, seat: int, bid: Bid) -> list[dict[str, Any]]:
        self.bids[seat] = bid.wire
        events: list[dict[str, Any]] = [{"type": "bid", "seat": seat, "bid": bid.wire}]
        if bid.yes:
            self.sneaker = seat
            self._open_joining()
            return events
        self._pop_queue()
        if not self.queue:
            events.extend(self._end_deal("thrown_in"))
        return events

    def _answer(self, seat: int, answer: Answer) -> list[dict[str, Any]]:
        self.answers[seat] = answer.wire
        events: list[dict[str, Any]] = [{"type": "answer", "seat": seat,
                                         "answer": answer.wire}]
        self._pop_queue()
        if self.queue:
            return events
        assert self.sneaker is not None
        joiners = [s for s in self.in_deal if self.answers[s] == "join"]
        if not joiners:
            events.extend(self._end_deal("all_folded"))
            return events
        self.playing = sorted([self.sneaker, *joiners])
        # a knocking dealer has exchanged already (before the joining); nobody twice
        pending = [s for s in self.playing if self.exchanged[s] is None]
        self._set_queue("exchange", self.clockwise_from(self.sneaker, pending))
        return events

    def _exchange(self, seat: int, discards: tuple[str, ...]) -> list[dict[str, Any]]:
        hand = self.hands[seat]
        for card in discards:
            hand.remove(card)
        drawn = HAND_SIZE - len(hand)
        hand.extend(self.stock[:drawn])
        del self.stock[:drawn]
        self.discards[seat].extend(discards)
        self.exchanged[seat] = len(discards)
        events: list[dict[str, Any]] = [{
            "type": "exchange", "seat": seat, "discarded": len(discards), "drawn": drawn,
            "stock": len(self.stock),
        }]
        self._pop_queue()
        if not self.queue and not self.playing:
            # the knocking dealer's exchange comes before the joining
            self._open_joining()
        elif not self.queue:
            assert self.sneaker is not None
            self.start_trick_play(self.sneaker)
        return events

    # ----- settling ------------------------------------------------------------
    def _end_deal(self, kind: str, called_off: str = HOST_ENDS) -> list[dict[str, Any]]:
        """Settle the deal (``played``, ``thrown_in``, ``all_folded`` or ``cancelled``:
        by whom, ``called_off``), record it, then deal on or end the game."""
        pot_before = self.pot
        trick_value = pot_before // TRICK_SHARE
        betes: list[dict[str, Any]] = []
        if kind == "played":
            assert self.sneaker is not None
            for seat in self.playing:
                self._move(seat, self.won[seat] * trick_value, "trick")
            for seat in self.playing:
                due = bete_due(pot_before, self.won[seat], seat == self.sneaker)
                if due:
                    paid = min(due, self.scores[seat])
                    self._move(seat, -paid, "bete")
                    betes.append({"seat": seat, "due": due, "paid": paid})
        elif kind == "all_folded":
            assert self.sneaker is not None
            self._move(self.sneaker, self.pot, "pot")
        elif kind == "cancelled":
            # the host ended the game mid-deal: nothing of it counts, every chip moved in
            # it goes back (the stake, and quartet payments under that house rule)
            for transfer in self.transfers:
                self.scores[transfer["seat"]] -= transfer["amount"]
                self.pot += transfer["amount"]
            self.transfers = []
        self.last_deal = {
            "deal_no": self.deal_no,
            "kind": kind,
            "dealer": self.dealer,
            "in_deal": list(self.in_deal),
            "trump_card": self.trump_card,
            "sneaker": self.sneaker,
            "bids": list(self.bids),
            "answers": list(self.answers),
            "playing": list(self.playing),
            "exchanged": list(self.exchanged),
            "tricks": [
                {"leader": t["leader"], "winner": t["winner"],
                 "plays": [{"seat": s, "card": c} for s, c in t["plays"]]}
                for t in self.tricks
            ],
            "tricks_won": list(self.won),
            "pot_before": pot_before,
            "trick_value": trick_value if kind == "played" else None,
            "betes": betes,
            "transfers": [dict(t) for t in self.transfers],
            "pot": self.pot,
            "scores": list(self.scores),
            "chips": list(self.scores),  # the same as scores; kept for the tables
            "quartets": _clone(self.quartets),
            "knock": self.knock_state,
        }
        if kind == "cancelled":
            self.last_deal["called_off"] = called_off
        self.phase = "settled"
        self.turn = None
        self.queue = []
        details = {k: v for k, v in self.last_deal.items() if k not in ("deal_no", "chips")}
        events: list[dict[str, Any]] = [self.deal_end_event(**details)]
        if kind == "cancelled" or sum(1 for c in self.scores if c > 0) < 2:
            events.append(self._finish())
        else:
            events.extend(self._start_deal())
        return events

    def _finish(self) -> dict[str, Any]:
        self.phase = "over"
        self.turn = None
        self.queue = []
        self.hands = [[] for _ in range(self.players)]
        self.trick = []
        best = max(self.scores)
        self.winners = [s for s in range(self.players) if self.scores[s] == best]
        return self.match_end_event(pot=self.pot)

    def chips_at_start(self) -> list[int]:
        return [self.start_chips] * self.players

    def seats_out(self) -> list[int]:
        """The seats without chips: dealt out of every deal from now on (a seat that
        staked its last chip still plays that deal)."""
        return [s for s in range(self.players) if s not in self.in_deal]

    def end_by_host(self, reason: str = HOST_ENDS) -> list[dict[str, Any]]:
        """The host ends the game now. The deal in progress is cancelled (its cards are
        thrown in unseen, every chip moved in it goes back: the dealer's stake and any
        quartet payments; nothing else is paid); the
        match is over and the most chips win. Returns the events (``deal_end`` of the
        cancelled deal, ``match_end``); [] if the match was already over. ``reason``
        (:data:`END_REASONS`) is kept with the cancelled deal as ``called_off``."""
        if reason not in END_REASONS:
            raise ValueError(f"unknown reason to end a match: {reason!r}")
        if self.is_over:
            return []
        self._legal_cache = None  # the state changes (see Match.legal_actions)
        # a copy, as from apply: events must not alias the match state
        events: list[dict[str, Any]] = _clone(self._end_deal("cancelled", reason))
        return events

    # ----- messages ------------------------------------------------------------
    def explain_illegal(self, seat: int, action: str) -> str:
        if seat != self.turn:
            return Reason(N_("it is not your turn"))
        typed = self.parser.read(action)
        if isinstance(typed, Play) and self.phase != "play":
            return Reason(self.early_play)
        if self.phase == "knock":
            return Reason(N_("an Ace is turned up: say 'knock' to take it and play as "
                             "sneaker without seeing your cards first, or 'no_knock'"))
        if self.phase == "bidding":
            return Reason(N_("say 'mauschel' to play or 'pass'"))
        if self.phase == "joining":
            return Reason(N_("say 'join' to play along or 'fold'"))
        if self.phase == "exchange":
            return self._explain_exchange(seat, typed)
        if self.phase == "play" and isinstance(typed, Play):
            card = typed.card
            if card not in self.hands[seat]:
                return Reason(N_("you do not hold {card!r}"), card=card)
            duty = self.duty(seat)
            if duty["kind"] == "beat":
                return Reason(N_("you must beat {card}"), card=duty["card"],
                              shown={"card": card_label(duty["card"])})
            if duty["kind"] == "follow":
                return Reason(N_("you must follow suit: {suit} were led"), suit=duty["suit"],
                              shown={"suit": SUIT_NAMES[duty["suit"]]})
            if duty["kind"] == "trump":
                return self._trump_duty()
        if self.phase == "play":
            return Reason(N_("play a card, e.g. {example}"),
                          example=self._actions(seat)[0].wire)
        return super().explain_illegal(seat, action)

    def _trump_duty(self) -> Reason:
        names = {"suit": SUIT_NAMES[self.trump]}
        if self.permanent_trump is not None:
            return Reason(N_("you must play a trump ({suit} or the {card})"),
                          suit=self.trump, card=self.permanent_trump,
                          shown={**names, "card": card_label(self.permanent_trump)})
        return Reason(N_("you must play a trump ({suit})"), suit=self.trump, shown=names)

    def _explain_exchange(self, seat: int, action: Action | None) -> str:
        hand = self.sort_hand(self.hands[seat])
        surplus = len(hand) - HAND_SIZE
        if surplus > 0:
            example = Reason(N_("you hold {count} cards: discard {surplus} to {count} and "
                                "draw {surplus} fewer, e.g. '{action}'"),
                             count=len(hand), surplus=surplus,
                             action=Exchange(tuple(hand[:surplus])).wire)
        else:
            example = Reason(N_("'exchange:' keeps all four cards; '{action}' discards two"),
                             action=Exchange(tuple(hand[:2])).wire)
        if not isinstance(action, Exchange):
            return Reason(N_("exchange now: {example}"), example=example)
        cards = action.discards
        for card in cards:
            if card not in self.hands[seat]:
                return Reason(N_("you do not hold {card!r}"), card=card)
        if len(set(cards)) != len(cards):
            return Reason(N_("name each card only once"))
        limit = len(self.stock) + surplus
        if len(cards) > limit:
            return Reason(N_("the stock holds only {count} cards: discard at most {limit}"),
                          count=len(self.stock), limit=limit)
        if len(cards) < surplus:
            return Reason(N_("discard at least {surplus}: {example}"), surplus=surplus,
                          example=example)
        return Reason(N_("list the discards in the order of your hand: {example}"),
                      example=example)

    # ----- views ---------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        # every container below is new or a copy (fresh_views)
        view = self.view_header(seat)
        view.update({
            "forehand": self.clockwise_from((self.dealer + 1) % self.players, self.in_deal)[0],
            "in_deal": list(self.in_deal),
            "out": self.seats_out(),
            "trump_card": self.trump_card,
            "trump": self.trump,
            "start_chips": self.start_chips,
            "stake": self.options["stake"],
            "stake_paid": self.stake_paid,
            "pot": self.pot,
            "trick_value": self.pot // TRICK_SHARE,
            "stock_count": len(self.stock),
            "pack_size": len(self.pack),
            "bids": list(self.bids),
            "sneaker": self.sneaker,
            "answers": list(self.answers),
            "passed": [s for s in range(self.players) if self.bids[s] == "pass"],
            "joined": [s for s in range(self.players) if self.answers[s] == "join"],
            "folded": [s for s in range(self.players) if self.answers[s] == "fold"],
            "playing": list(self.playing),
            "exchanged": list(self.exchanged),
            "turn": self.turn,
            "leader": self.leader,
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "last_trick": None,
            "tricks_won": list(self.won),
            "hand_counts": [len(h) for h in self.hands],
            "duty": None,
        })
        if self.tricks and (self.phase == "play" or self.is_over and self.last_deal
                            and self.last_deal["kind"] != "cancelled"):
            # the match's last trick too, once it is over (not of a called-off deal)
            last = self.tricks[-1]
            view["last_trick"] = {
                "leader": last["leader"], "winner": last["winner"],
                "plays": [{"seat": s, "card": c} for s, c in last["plays"]],
            }
        hidden = seat is not None and self.hand_hidden(seat)
        if seat is not None:
            view["hand"] = [] if hidden else self.sort_hand(self.hands[seat])
            view["discarded"] = list(self.discards[seat])
            if self.phase == "play" and seat == self.turn:
                view["duty"] = self.duty(seat)
        # the house-rule keys are always there (empty when the rule is off)
        view["options"] = {name: self.rule(name) for name in HOUSE_RULES}
        view["quartets"] = _clone(self.quartets)
        view["knock"] = None if self.knock_state is None else {
            "dealer": self.dealer,
            "pending": self.knock_state == "pending",
            "decision": None if self.knock_state == "pending" else self.knock_state,
        }
        view["permanent_trumps"] = [self.permanent_trump] if self.permanent_trump else []
        view["trumps"] = [c for c in view.get("hand", []) if self.is_trump(c)]
        view["hand_hidden"] = hidden
        return view

    def hand_hidden(self, seat: int) -> bool:
        """The dealer does not see their hand while the knock decision is pending."""
        return self.knock_state == "pending" and seat == self.dealer


INFO = GameInfo.of(
    MauschelnMatch,
    title=N_("Mauscheln"),
    blurb=N_("Four cards, four tricks, a pot of chips: say 'mauschel' to play, join in or "
             "fold. Each trick takes a quarter of the pot; whoever joins in and takes no "
             "trick pays a bête, and so does a sneaker who takes fewer than two."),
    position=30,
    ledger=CHIPS,
    host_can_end=True,
)
