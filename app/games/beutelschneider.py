"""Beutelschneider ("Cutpurse"), a trick game whose trump suit is a court of characters.

Rules: seed 000 and docs/rules/beutelschneider.md (the rulings win).

- Deck (32): green ``g`` and yellow ``y`` 1 2 3 4 B S W 10 K, red ``r`` 1 2 3 4 B S W 10
  and the Beutelschneider ``rX`` on top; blue ``b`` G M A C F (Guard, Assassin,
  Adventurer, Countess, Sovereign), the permanent trump suit. All orders ascending.
- 4 players get 8 cards each. 3 players: the top two cards of the shuffled deck are
  set aside unseen and the other 30 are dealt, 10 each. The set-aside cards live only
  in the internal state (``self.removed``, hence the snapshot); no view, event,
  score sheet or ``last_deal`` ever names them. A view says only how many there are.
- Forehand (dealer + 1) leads the first trick, each trick's winner the next one;
  play goes clockwise (seat + 1).
- Following: blue is a suit like the other three. Whoever holds a card of the led
  suit must play one, so when a blue card is led a player holding blue must play
  blue; a player void in the led suit may play anything, trumps included. (The seed
  says "follow the led suit if able" for every suit and names blue a suit; nothing
  exempts it.)
- Trick winner: the highest trump, else the highest card of the led suit, after the
  trick-local powers, resolved when the trick is complete:
  * Assassin: ``bM`` played after ``bF`` kills it; a dead Sovereign cannot win.
  * Seduction: with both ``bA`` and ``bC`` in a trick, the one played second ranks
    directly above the one played first (still below a living ``bF``). The power fires
    (and is reported) in both orders, since the ruling words it symmetrically.
  * Guard: ``bG`` played after ``rX`` cancels the -20 for whoever wins the trick.
- Hand score: face value of captured 1 2 3 4 10 of green, yellow, red (60 in the
  deck; with 3 players the set-aside cards' points are simply out of the hand);
  -20 for capturing ``rX`` unless cancelled; +10 bonuses, all that apply added up,
  to the player of the card: Guard cancelled ``rX`` and won that trick; Guard won
  the last trick; Assassin killed the Sovereign and won the trick; the second-played
  of Adventurer/Countess won the trick. Scores may be negative.
- Match: totals accumulate; when at the end of a hand one or more players have
  reached ``options["target"]`` (default 100), the single highest total wins; a tie
  for the highest total plays another hand (and so on until the tie is broken).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from app.games.base import FLAT, N_, GameInfo, Option, Trick, Unseen, _clone
from app.games.cards import check_permutation, rank_of, suit_of
from app.games.tricks import TrickGame, winning_index

SUITS = ["g", "y", "r", "b"]
TRUMP = "b"
SUIT_RANKS: dict[str, list[str]] = {  # ascending
    "g": ["1", "2", "3", "4", "B", "S", "W", "10", "K"],
    "y": ["1", "2", "3", "4", "B", "S", "W", "10", "K"],
    "r": ["1", "2", "3", "4", "B", "S", "W", "10", "X"],
    "b": ["G", "M", "A", "C", "F"],
}
DECK = [suit + rank for suit in SUITS for rank in SUIT_RANKS[suit]]
SUIT_NAMES = {"g": "green", "y": "yellow", "r": "red", "b": "blue (trump)"}

BEUTELSCHNEIDER = "rX"
GUARD = "bG"
ASSASSIN = "bM"
ADVENTURER = "bA"
COUNTESS = "bC"
SOVEREIGN = "bF"
CARD_NAMES = {
    BEUTELSCHNEIDER: "Beutelschneider",
    GUARD: "Guard",
    ASSASSIN: "Assassin",
    ADVENTURER: "Adventurer",
    COUNTESS: "Countess",
    SOVEREIGN: "Sovereign",
}

POINTS = {"1": 1, "2": 2, "3": 3, "4": 4, "10": 10}
PENALTY = -20
BONUS = 10
HAND_SIZE = {3: 10, 4: 8}
SET_ASIDE = {3: 2, 4: 0}
# strength bands of a trick: trumps (steps of TRUMP_STEP, room for the Seduction
# between two ranks) above the led suit; a discard of another suit never wins
TRUMP_BAND = 100
TRUMP_STEP = 10
LED_BAND = 10
NO_WIN = -1

# Bonus lines of the score sheet: name -> label shown to the table.
BONUS_LABELS = {
    "guard_cancels_beutelschneider": N_("Guard cancelled the Beutelschneider and won the "
                                        "trick"),
    "guard_wins_last_trick": N_("Guard won the last trick"),
    "assassin_kills_sovereign": N_("Assassin killed the Sovereign and won the trick"),
    "seduction": N_("the seducing card (played second) won the trick"),
}
# The cards a bonus line shows were in the trick it was won with (what the public
# score sheet tells of the cards played; TrickState.bonuses awards them).
BONUS_CARDS: dict[str, tuple[str, ...]] = {
    "guard_cancels_beutelschneider": (GUARD, BEUTELSCHNEIDER),
    "guard_wins_last_trick": (GUARD,),
    "assassin_kills_sovereign": (ASSASSIN, SOVEREIGN),
    "seduction": (ADVENTURER, COUNTESS),
}


def card_points(card: str) -> int:
    """Face value of a numbered card of green, yellow or red; 0 for every other card."""
    if suit_of(card) == TRUMP:
        return 0
    return POINTS.get(rank_of(card), 0)


# Worked out once, looked up in play: a card's place in a sorted hand (trumps first,
# then green, yellow, red, each strongest first) and its rank index in its suit.
HAND_ORDER = [TRUMP, "g", "y", "r"]
SORT_KEY: dict[str, int] = {
    card: HAND_ORDER.index(suit_of(card)) * 100 - SUIT_RANKS[suit_of(card)].index(rank_of(card))
    for card in DECK
}
RANK_INDEX: dict[str, int] = {card: SUIT_RANKS[suit_of(card)].index(rank_of(card))
                              for card in DECK}
POINTS_OF: dict[str, int] = {
    card: 0 if suit_of(card) == TRUMP else POINTS.get(rank_of(card), 0) for card in DECK
}


def sort_hand(hand: Sequence[str]) -> list[str]:
    """Trumps first (strongest first), then green, yellow, red, each strongest first."""
    return sorted(hand, key=SORT_KEY.__getitem__)


def _power(power: str, card: str, seat: int, target: str, target_seat: int,
           text: str) -> dict[str, Any]:
    return {"power": power, "card": card, "seat": seat, "target": target,
            "target_seat": target_seat, "text": text}


# the card a trump's power works on when that card is in the trick already (the
# Guard's only cancels the -20: it changes no winner)
POWER_PARTNER = {ASSASSIN: SOVEREIGN, ADVENTURER: COUNTESS, COUNTESS: ADVENTURER}


class TrickState:
    """A trick as it stands after the cards played to it so far: each card's
    strength with the powers of those cards applied (Assassin, Seduction), whether
    the Guard cancels the Beutelschneider, and which card wins. The trick rules live
    here once: :func:`resolve_trick` decides a complete trick with one, and a bot
    asks one what another card would do (:meth:`plus`, :meth:`takes`).

    Powers, resolved as each card comes: the Assassin ``bM`` played after the
    Sovereign ``bF`` kills it (a dead Sovereign cannot win); of Adventurer ``bA`` and
    Countess ``bC`` the one played second ranks directly above the other; the Guard
    ``bG`` played after the Beutelschneider ``rX`` cancels its -20. The highest
    strength wins, the earlier card on a tie."""

    __slots__ = ("cards", "strength", "best", "killed", "seducer", "guarded")

    def __init__(self, cards: Sequence[str] = ()) -> None:
        self.cards: list[str] = []
        self.strength: list[int] = []
        self.best = 0  # index of the winning card
        self.killed = False  # the Assassin killed the Sovereign
        self.seducer: str | None = None  # the second of Adventurer and Countess
        self.guarded = False  # the Guard came after the Beutelschneider
        for card in cards:
            self.add(card)

    def copy(self) -> TrickState:
        twin = TrickState.__new__(TrickState)
        twin.cards = list(self.cards)
        twin.strength = list(self.strength)
        twin.best, twin.killed = self.best, self.killed
        twin.seducer, twin.guarded = self.seducer, self.guarded
        return twin

    def _plain(self, card: str) -> int:
        """The card's strength before any power: trumps above the led suit, another
        suit never wins."""
        if card[0] == TRUMP:
            return TRUMP_BAND + TRUMP_STEP * RANK_INDEX[card]
        if not self.cards or card[0] == self.cards[0][0]:
            return LED_BAND + RANK_INDEX[card]
        return NO_WIN

    def add(self, card: str) -> None:
        """The next card is played to the trick."""
        strength = self._plain(card)
        cards = self.cards
        index = len(cards)
        recount = False
        if card == ASSASSIN and SOVEREIGN in cards:
            self.strength[cards.index(SOVEREIGN)] = NO_WIN
            self.killed = recount = True
        elif card in (ADVENTURER, COUNTESS):
            first = COUNTESS if card == ADVENTURER else ADVENTURER
            if first in cards:
                # directly above the first: between it and the next trump rank
                self.seducer = card
                strength = max(strength, self.strength[cards.index(first)] + TRUMP_STEP // 2)
        elif card == GUARD and BEUTELSCHNEIDER in cards:
            self.guarded = True
        cards.append(card)
        self.strength.append(strength)
        if recount:
            self.best = winning_index(cards, lambda c, _led: self.strength[cards.index(c)])
        elif strength > self.strength[self.best]:
            self.best = index

    def plus(self, card: str) -> TrickState:
        """The trick as it would stand with ``card`` played next."""
        twin = self.copy()
        twin.add(card)
        return twin

    def takes(self, card: str) -> bool:
        """Whether ``card``, played next, would change the trick's winner."""
        if card[0] != TRUMP:  # no power: it wins by strength, in the led suit only
            return (card[0] == self.cards[0][0]
                    and LED_BAND + RANK_INDEX[card] > self.strength[self.best])
        partner = POWER_PARTNER.get(card)
        if partner is None or partner not in self.cards:  # no power works
            return TRUMP_BAND + TRUMP_STEP * RANK_INDEX[card] > self.strength[self.best]
        return self.plus(card).best != self.best

    @property
    def winning_card(self) -> str:
        return self.cards[self.best]

    @property
    def points(self) -> int:
        """The face value of the cards in the trick."""
        return sum(POINTS_OF[c] for c in self.cards)

    @property
    def penalty(self) -> int | None:
        """The Beutelschneider's -20 for the winner (0 when the Guard cancelled it);
        None without the Beutelschneider in the trick."""
        if BEUTELSCHNEIDER not in self.cards:
            return None
        return 0 if self.guarded else PENALTY

    def bonuses(self, last: bool) -> list[str]:
        """The +10 bonuses the winning card earns (``last``: the hand's last trick)."""
        card = self.winning_card
        names: list[str] = []
        if card == GUARD and self.guarded:
            names.append("guard_cancels_beutelschneider")
        if card == GUARD and last:
            names.append("guard_wins_last_trick")
        if card == ASSASSIN and self.killed:
            names.append("assassin_kills_sovereign")
        if self.seducer is not None and card == self.seducer:
            names.append("seduction")
        return names

    def gain(self, last: bool) -> int:
        """What the trick brings its winner: card points, the -20, the bonuses."""
        return self.points + (self.penalty or 0) + BONUS * len(self.bonuses(last))


def resolve_trick(plays: list[dict[str, Any]], last: bool) -> dict[str, Any]:
    """Decide a complete trick: winner, card points, powers, the -20 and bonuses.

    ``plays`` is the trick in play order as ``[{"seat": s, "card": c}, ...]``;
    ``last`` says whether it is the last trick of the hand.
    """
    cards = [p["card"] for p in plays]
    seat_of = {p["card"]: p["seat"] for p in plays}
    state = TrickState(cards)
    powers: list[dict[str, Any]] = []
    if state.killed:
        powers.append(_power("assassin", ASSASSIN, seat_of[ASSASSIN], SOVEREIGN,
                             seat_of[SOVEREIGN], "Assassin kills the Sovereign"))
    if state.seducer is not None:
        seducer = state.seducer
        first = COUNTESS if seducer == ADVENTURER else ADVENTURER
        powers.append(_power(
            "seduction", seducer, seat_of[seducer], first, seat_of[first],
            f"{CARD_NAMES[seducer]} seduces the {CARD_NAMES[first]}"))
    if state.guarded:
        powers.append(_power("guard", GUARD, seat_of[GUARD], BEUTELSCHNEIDER,
                             seat_of[BEUTELSCHNEIDER], "Guard cancels the Beutelschneider"))
    winning_card = state.winning_card
    winner = plays[state.best]["seat"]
    penalty = state.penalty
    if penalty == PENALTY:
        powers.append(_power(
            "beutelschneider", BEUTELSCHNEIDER, seat_of[BEUTELSCHNEIDER],
            BEUTELSCHNEIDER, winner, "the Beutelschneider costs the trick's winner 20 points"))
    bonuses = [
        {"name": name, "label": BONUS_LABELS[name], "points": BONUS, "seat": winner,
         "card": winning_card}
        for name in state.bonuses(last)
    ]
    return {
        "winner": winner,
        "winning_card": winning_card,
        "points": state.points,
        "powers": powers,
        "beutelschneider": penalty,
        "bonuses": bonuses,
    }


def blank_sheet(seat: int, total: int) -> dict[str, Any]:
    """A seat's score sheet at the start of a hand (``total``: its match total)."""
    return {
        "seat": seat,
        "card_points": 0,
        "beutelschneider": 0,
        "beutelschneider_cancelled": False,
        "bonuses": [],
        "hand_total": 0,
        "total": total,
    }


class BeutelschneiderMatch(TrickGame):
    name: ClassVar[str] = "beutelschneider"
    min_players: ClassVar[int] = min(HAND_SIZE)
    max_players: ClassVar[int] = max(HAND_SIZE)
    options_spec: ClassVar[tuple[Option, ...]] = (
        Option(
            "target", N_("Points to win"), "int", 100, minimum=1, maximum=1000,
            help=N_("When a deal ends with someone at or above this total, the highest "
                    "total wins; a tie for the highest plays another deal."),
        ),
    )
    suit_names: ClassVar[dict[str, str]] = SUIT_NAMES
    fresh_views: ClassVar[bool] = True
    copy_plan: ClassVar[dict[str, str]] = {
        **TrickGame.copy_plan,
        "removed": FLAT,
        "tricks": FLAT,  # a finished trick's record is never changed
        "results": FLAT,  # a finished hand's line is never changed
        # "sheets" (changed in place trick by trick) is deep-copied
    }

    removed: list[str]  # set aside face down (3 players); never shown to anyone
    trick: list[dict[str, Any]]  # [{"seat": s, "card": c}, ...] in play order
    sheets: list[dict[str, Any]]  # running score sheet of the current hand, per seat
    results: list[dict[str, Any]]  # one summary per finished hand
    last_deal: dict[str, Any] | None

    def setup(self) -> None:
        for entry in self.stacked_deals:
            self._check_deal(entry, self.players)
        self.results = []
        self.last_deal = None
        self._start_deal()

    # ----- dealing -----------------------------------------------------------
    @staticmethod
    def _check_deal(entry: Any, players: int) -> None:
        size, aside = HAND_SIZE[players], SET_ASIDE[players]
        shape = (f"a {players}-player Beutelschneider deal is {{'hands': [[{size} cards] x "
                 f"{players}]" + (", 'removed': [2 cards]}" if aside else "}"))
        if not isinstance(entry, dict) or not isinstance(entry.get("hands"), list):
            raise ValueError(shape)
        hands = entry["hands"]
        if len(hands) != players or any(
            not isinstance(h, list) or len(h) != size for h in hands
        ):
            raise ValueError(shape)
        removed = entry.get("removed", [])
        if aside and "removed" not in entry:
            raise ValueError(shape + "; 'removed' is missing")
        if not isinstance(removed, list) or len(removed) != aside:
            raise ValueError(shape)
        cards = [c for h in hands for c in h] + removed
        if any(not isinstance(c, str) for c in cards):
            raise ValueError("cards are code strings such as 'rX' or 'g10'")
        check_permutation(cards, DECK)

    def _start_deal(self) -> None:
        self.deal_no += 1
        if self.deal_no > 1:
            self.dealer = (self.dealer + 1) % self.players
        n, size, aside = self.players, HAND_SIZE[self.players], SET_ASIDE[self.players]
        forehand = (self.dealer + 1) % n
        stacked = self.next_stacked_deal()
        if stacked is not None:
            self.hands = [list(h) for h in stacked["hands"]]
            self.removed = list(stacked.get("removed", []))
        else:
            deck = self.shuffled(DECK)
            self.removed = deck[:aside]  # the top cards, face down
            rest = deck[aside:]
            self.hands = [[] for _ in range(n)]
            for i in range(n):  # dealt from forehand on
                self.hands[(forehand + i) % n] = rest[i * size:(i + 1) * size]
        self.sheets = [blank_sheet(s, self.scores[s]) for s in range(n)]
        self.start_trick_play(forehand)

    @classmethod
    def upgrade_state(cls, state: dict[str, Any]) -> dict[str, Any]:
        """Snapshots before the rename list a hand's match totals as ``totals``."""
        for result in state.get("results", []):
            if "totals" in result:
                result["scores"] = result.pop("totals")
        return state

    # ----- worlds (search bots; see Match.unseen and Match.from_view) -------------
    @classmethod
    def unseen(cls, view: dict[str, Any], tricks: list[Trick] | None = None) -> Unseen:
        """The other hands and, with three players, the two cards set aside (any
        unseen card may be one of them); a seat that did not follow suit holds none
        of it."""
        probe = cls._from_state({}, None)  # follow suit needs nothing of a state
        assert isinstance(probe, BeutelschneiderMatch)
        aside = int(view.get("set_aside") or 0)
        return probe.unseen_in(view, cls.deal_plays(view, tricks), DECK,
                               {"removed": aside} if aside else None)

    @classmethod
    def at_deal_start(cls, view: dict[str, Any], hidden: dict[str, list[str]],
                      tricks: list[Trick] | None = None, seed: int | str | None = None
                      ) -> BeutelschneiderMatch:
        """The hand as dealt, with its number, dealer and the totals so far."""
        players = int(view["players"])
        hands = cls.dealt_hands(view, hidden, cls.deal_plays(view, tricks))
        scores = list(view["scores"])
        forehand = (int(view["dealer"]) + 1) % players
        state: dict[str, Any] = {
            "players": players, "options": {"target": int(view["target"])},
            "stacked_deals": [], "phase": "play", "scores": scores, "winners": [],
            "deal_no": int(view["deal_no"]), "last_deal": None,
            "dealer": int(view["dealer"]), "results": [], "hands": hands,
            "removed": list(hidden.get("removed", [])),
            "sheets": [blank_sheet(s, scores[s]) for s in range(players)],
            "leader": forehand, "turn": forehand, "trick": [], "tricks": [],
        }
        match = cls._from_state(state, seed)
        assert isinstance(match, BeutelschneiderMatch)
        return match

    # ----- rules ---------------------------------------------------------------
    @staticmethod
    def play_entry(seat: int, card: str) -> Any:
        return {"seat": seat, "card": card}

    @staticmethod
    def played_seat(entry: Any) -> int:
        return int(entry["seat"])

    @staticmethod
    def played_card(entry: Any) -> str:
        return str(entry["card"])

    def sort_hand(self, hand: Sequence[str]) -> list[str]:
        return sorted(hand, key=SORT_KEY.__getitem__)

    def tricks_per_deal(self) -> int:
        return HAND_SIZE[self.players]

    def finish_trick(self) -> tuple[int, list[dict[str, Any]]]:
        last = len(self.tricks) + 1 == HAND_SIZE[self.players]
        outcome = resolve_trick(self.trick, last)
        winner = outcome["winner"]
        record = {"no": len(self.tricks) + 1, "leader": self.leader, "plays": self.trick,
                  **outcome}
        self.tricks.append(record)

        sheet = self.sheets[winner]
        sheet["card_points"] += outcome["points"]
        if outcome["beutelschneider"] is not None:
            sheet["beutelschneider"] += outcome["beutelschneider"]
            sheet["beutelschneider_cancelled"] = outcome["beutelschneider"] == 0
        for bonus in outcome["bonuses"]:
            sheet["bonuses"].append({k: bonus[k] for k in ("name", "label", "points")}
                                    | {"trick": record["no"]})
        sheet["hand_total"] = (sheet["card_points"] + sheet["beutelschneider"]
                               + sum(b["points"] for b in sheet["bonuses"]))
        sheet["total"] = self.scores[winner] + sheet["hand_total"]

        events: list[dict[str, Any]] = [dict(p, type="power") for p in outcome["powers"]]
        events.append({"type": "trick", **record})
        return winner, events

    def end_deal(self) -> list[dict[str, Any]]:
        hand_totals = [sheet["hand_total"] for sheet in self.sheets]
        self.scores = [self.scores[s] + hand_totals[s] for s in range(self.players)]
        for s, sheet in enumerate(self.sheets):
            sheet["total"] = self.scores[s]
        result = {
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "hand_totals": hand_totals,
            "scores": list(self.scores),
        }
        self.results.append(result)
        self.last_deal = {
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "forehand": (self.dealer + 1) % self.players,
            "set_aside": SET_ASIDE[self.players],  # how many, never which
            "tricks": self.tricks,
            "sheets": self.sheets,
            "hand_totals": hand_totals,
            "scores": list(self.scores),
        }
        events: list[dict[str, Any]] = [self.deal_end_event(
            sheets=self.sheets, hand_totals=hand_totals)]
        target = self.options["target"]
        if max(self.scores) >= target:
            best = max(self.scores)
            top = [s for s in range(self.players) if self.scores[s] == best]
            if len(top) == 1:
                self.phase = "over"
                self.turn = None
                self.winners = top
                events.append(self.match_end_event())
                return events
            events.append({"type": "tie", "seats": top, "total": best,
                           "text": "a tie for the highest total: another hand is played"})
        self._start_deal()
        events.append(self.deal_start_event(
            dealer=self.dealer, forehand=self.leader, hand_counts=[len(h) for h in self.hands],
            set_aside=SET_ASIDE[self.players],
        ))
        return events

    # ----- views ---------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        # every container below is new or a copy (fresh_views)
        view = self.view_header(seat)
        view.update({
            "forehand": (self.dealer + 1) % self.players,
            "trump": TRUMP,
            "target": self.options["target"],
            "turn": self.turn,
            "leader": self.leader,
            "trick": self.trick_plays(),
            "led_suit": self.led_suit(),
            "last_trick": None,
            "tricks_won": [sum(1 for t in self.tricks if t["winner"] == s)
                           for s in range(self.players)],
            "hand_counts": [len(h) for h in self.hands],
            "set_aside": SET_ASIDE[self.players],
            "sheets": _clone(self.sheets),
            "results": self.record_copy("results", self.results),
        })
        if self.tricks:
            view["last_trick"] = self.record_copy("last_trick", self.tricks[-1])
        if seat is not None:
            view["hand"] = self.sort_hand(self.hands[seat])
        return view


INFO = GameInfo.of(
    BeutelschneiderMatch,
    title=N_("Beutelschneider"),
    blurb=N_("Tricks for points with a blue trump court: the Assassin kills a Sovereign "
             "played before it, of Adventurer and Countess the one played second rises "
             "above the other, and a Guard played after the Beutelschneider stops its −20."),
    position=20,
)
