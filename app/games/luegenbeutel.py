"""Lügenbeutel, the bluffing game: lay cards face down, claim the required number,
and call the liar.

Rules: seed 003 and docs/rules/luegenbeutel.md (the rulings win).
112 cards: ``1``..``10`` seven of each, 26 Jokers ``J``, 8 Lügenbeutel ``L``,
8 Aussetzen ``A``; ten cards each, the rest is the stock (``stock[0]`` is its top).

How the rules map onto this pure engine (no clock, several seats may act at once):

- Phases: ``"play"`` while a turn is due or in progress; ``"challenge"`` when a
  player has emptied their hand and the others may only ``challenge`` or
  ``accept``; ``"over"`` when the match is won.
- A turn, taken by ``turn`` with the required ``number``: ``lay:<card>`` one or more
  times and then ``end``; or ``skip:<card>`` (the whole turn, never the last card);
  or ``pass`` (draw one), then optionally ``lay:<that card>``, then ``end``.
- Challenge window: when a turn with at least one face-down card ends, it stays
  *open* (``open_turn``) and ``to_act()`` holds the next player *and* every seat
  other than the one who laid it. Any of them may ``challenge:<i>``
  (``challenge:all`` with ``reveal_all``); one challenge settles the turn. The next
  player's first own action (``lay``/``skip``/``pass``) closes the window instead:
  the turn stands. In the ``"play"`` phase there is no ``accept``: silence is
  acceptance. While the window is open, ``number`` and ``turn`` already show the
  next turn as if the open one stands; a caught first card (or caught skip, or any
  false card with ``reveal_all``) voids the turn and puts the seat left of the liar
  up with the same number.
- A turn that stands raises the number by one; after a standing 10 the discard
  pile and the stock are shuffled into a new stock when its window closes (after
  any challenge on it is settled, penalty draw included) and the next player is up
  with 1.
- Round end: a player whose hand is empty after their turn puts the table into
  ``"challenge"``: each other seat once ``challenge:<i>`` (one challenge in all) or
  ``accept``, and need not (``must_act`` is false for them). All accept, or the
  challenge finds a true claim (the challenger draws first), and the empty hand
  wins the round; a caught lie gives the cards back and
  play goes on. The server applies ``accept`` for seats that stay silent.
- Challenge windows: ``challenge_window()`` is the id of the window open now (the
  ended turn open to challenge, at a round's end too), a new id for every window,
  None when none is open. ``must_act(seat)`` is true only for the seat whose turn
  is due: a challenger may call the liar but need not.
- A round is a deal: events ``deal`` / ``deal_end`` and the view's ``deal_no``
  count rounds.
- Scoring: the round winner scores the cards left in the other hands (numbers face
  value, ``A`` 20, ``J`` 30, ``L`` 40); the first to ``target`` wins the match.

Everything public goes into events and views as counts; the only card identities
that ever become public are the ones a challenge turns over.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Generic, TypeVar

from app.games.actions import Accept, Action, Challenge, End, Lay, Pass, Skip
from app.games.base import (
    FLAT,
    N_,
    NESTED,
    SAME,
    GameInfo,
    Match,
    Option,
    Parser,
    Reason,
    Trick,
    Unseen,
    _clone,
)
from app.games.cards import check_permutation

A = TypeVar("A")  # an action as a list holds it: typed, or its string
NUMBERS = [str(n) for n in range(1, 11)]
JOKER = "J"
LUEGENBEUTEL = "L"
AUSSETZEN = "A"
COPIES = {**{n: 7 for n in NUMBERS}, JOKER: 26, LUEGENBEUTEL: 8, AUSSETZEN: 8}  # 112 cards
DECK = [card for card, copies in COPIES.items() for _ in range(copies)]
HAND_SIZE = 10
FIRST_NUMBER = 1
LAST_NUMBER = 10  # after a standing 10 the pile is reshuffled and the number is 1 again
SKIP_STEP = 2  # a standing skip passes over the next seat
MIN_HAND_TO_SKIP = 2  # Aussetzen is never the last card
CARD_ORDER = [*NUMBERS, AUSSETZEN, JOKER, LUEGENBEUTEL]
AUSSETZEN_POINTS = 20
JOKER_POINTS = 30
LUEGENBEUTEL_POINTS = 40
CARD_POINTS: dict[str, int] = {
    **{n: int(n) for n in NUMBERS}, AUSSETZEN: AUSSETZEN_POINTS, JOKER: JOKER_POINTS,
    LUEGENBEUTEL: LUEGENBEUTEL_POINTS,
}
CARD_NAMES = {AUSSETZEN: "Aussetzen", JOKER: "Joker", LUEGENBEUTEL: "Lügenbeutel"}


# Looked up in play rather than worked out per call: a card's place in a sorted hand,
# and the actions (each made once).
CARD_RANK: dict[str, int] = {card: i for i, card in enumerate(CARD_ORDER)}
LAY: dict[str, Action] = {card: Lay(card) for card in CARD_ORDER}
SKIP: dict[str, Action] = {card: Skip(card) for card in CARD_ORDER}
PASS, END, ACCEPT = Pass(), End(), Accept()
PARSER = Parser(Lay, Skip, Pass, End, Challenge, Accept)


@dataclass(frozen=True)
class Spelling(Generic[A]):
    """The turn's actions as a legal list holds them: typed (:data:`TYPED`) or their
    strings (:data:`WIRES`, ``legal_actions`` without making a list of each)."""

    lay: Mapping[str, A]
    skip: Mapping[str, A]
    end: A
    pass_: A


TYPED: Spelling[Action] = Spelling(LAY, SKIP, END, PASS)
WIRES: Spelling[str] = Spelling({c: a.wire for c, a in LAY.items()},
                                {c: a.wire for c, a in SKIP.items()}, END.wire, PASS.wire)


def sort_hand(hand: list[str]) -> list[str]:
    """Numbers ascending, then Aussetzen, Joker, Lügenbeutel."""
    return sorted(hand, key=CARD_RANK.__getitem__)


def is_true(card: str, claim: str) -> bool:
    """A claim (a number, or ``A`` for a skip) is true for that card or a Joker;
    a Lügenbeutel card is never true."""
    return card in (JOKER, claim)


def turn_actions(hand: list[str], laid: int, passed: bool, drawn: str | None,
                 spelling: Spelling[A]) -> list[A]:
    """The actions of the seat on turn, holding ``hand``, after laying ``laid`` cards
    this turn (``passed``: it drew ``drawn`` by passing), as ``spelling`` has them."""
    if passed:
        if not laid and drawn is not None and drawn in hand:
            return [spelling.lay[drawn], spelling.end]
        return [spelling.end]
    distinct = sorted(set(hand), key=CARD_RANK.__getitem__)
    lay = spelling.lay
    if laid:
        return [lay[c] for c in distinct] + [spelling.end]
    actions = [lay[c] for c in distinct]
    if len(hand) >= MIN_HAND_TO_SKIP:
        skip = spelling.skip
        actions += [skip[c] for c in distinct]
    actions.append(spelling.pass_)
    return actions


def challenge_actions(count: int, reveal_all: bool) -> list[Action]:
    """The challenges of an open turn of ``count`` cards: one card each, or the whole
    turn with ``reveal_all``."""
    return list(_challenges(count, reveal_all))


@lru_cache(maxsize=256)
def _challenges(count: int, reveal_all: bool) -> tuple[Action, ...]:
    if reveal_all:
        return (Challenge("all"),)
    return tuple(Challenge(i) for i in range(1, count + 1))


@lru_cache(maxsize=256)
def _challenge_wires(count: int, reveal_all: bool) -> tuple[str, ...]:
    return tuple(a.wire for a in _challenges(count, reveal_all))


def next_number(number: int) -> int:
    """The number required after a turn with ``number`` stood: one more, and 1 again
    after a 10."""
    return FIRST_NUMBER if number == LAST_NUMBER else number + 1


def seat_after(seat: int, kind: str, players: int) -> int:
    """Who is up after ``seat``'s turn of ``kind`` stands: the next seat, or after a
    skip the one after it."""
    return (seat + (SKIP_STEP if kind == "skip" else 1)) % players


def hand_points(hand: list[str]) -> int:
    return sum(CARD_POINTS[c] for c in hand)


def card_name(card: str) -> str:
    return CARD_NAMES.get(card, card)


def shuffled_deal(players: int, shuffle: Callable[[list[str]], list[str]],
                  lb_card: bool = False) -> dict[str, Any]:
    """Deal ten cards each from a deck put in order by ``shuffle``; with ``lb_card``
    nine shuffled cards plus one Lügenbeutel each. The rest is the stock, top first."""
    if lb_card:
        rest = list(DECK)
        for _ in range(players):
            rest.remove(LUEGENBEUTEL)
        deck = shuffle(rest)
        size = HAND_SIZE - 1
        hands = [deck[i * size:(i + 1) * size] + [LUEGENBEUTEL] for i in range(players)]
        return {"hands": hands, "stock": deck[players * size:]}
    deck = shuffle(list(DECK))
    hands = [deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(players)]
    return {"hands": hands, "stock": deck[players * HAND_SIZE:]}


class LuegenbeutelMatch(Match):
    name: ClassVar[str] = "luegenbeutel"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    parser: ClassVar[Parser] = PARSER
    spells: ClassVar[bool] = True  # (_spelled: the same list, as strings)
    options_spec: ClassVar[tuple[Option, ...]] = (
        Option(
            "target", N_("Points to win"), "int", 500, minimum=1, maximum=10_000,
            help=N_("The first player to reach this many points at the end of a round "
                    "wins. The times are usual for four seats with bots; people alone "
                    "take longer."),
        ),
        Option(
            "lb_card", N_("Everyone holds a Lügenbeutel"), "bool", False,
            help=N_("Nine cards plus one Lügenbeutel card each: everybody will have to "
                    "lie."),
        ),
        Option(
            "reveal_all", N_("Challenge turns over the whole turn"), "bool", False,
            help=N_("A challenge reveals every card of the turn; one false card catches "
                    "it."),
        ),
        Option(
            "challenge_ms", N_("Challenge time (ms)"), "int", 2500, minimum=0,
            maximum=30_000,
            help=N_("How long everyone may call 'Lügenbeutel' before the next move "
                    "counts."),
        ),
    )

    dealer: int
    hands: list[list[str]]
    stock: list[str]  # top first
    discard: list[str]  # cards of turns that stood and are no longer open to challenge
    number: int  # required number of the turn due or in progress
    turn: int | None  # seat whose turn is due or in progress; None in "challenge"
    laid: list[str]  # cards laid so far in the turn in progress
    passed: bool  # the turn in progress began with a pass
    drawn: str | None  # the card drawn by that pass (None: nothing to draw)
    open_turn: dict[str, Any] | None  # the ended turn still open to challenge
    accepted: list[int]  # seats that accepted the emptied hand ("challenge" phase)
    last_turn: dict[str, Any] | None  # public summary of the latest ended turn
    last_challenge: dict[str, Any] | None  # public result of the latest challenge
    dice: list[int]  # stacked die results still to come this round
    results: list[dict[str, Any]]  # one score sheet per finished round
    last_deal: dict[str, Any] | None
    windows_opened: int  # challenge windows opened in this match (the latest's id)

    fresh_views: ClassVar[bool] = True
    copy_plan: ClassVar[dict[str, str]] = {
        **Match.copy_plan,
        "hands": NESTED,
        "stock": FLAT,
        "discard": FLAT,
        "laid": FLAT,
        "accepted": FLAT,
        "dice": FLAT,
        "results": FLAT,  # a finished round's sheet is never changed
        "open_turn": SAME,  # replaced by a new record when a turn ends, never edited
        "last_challenge": SAME,  # replaced by a new record at each challenge
        # last_turn (changed in place) is deep-copied
    }

    # ----- setup and dealing -------------------------------------------------
    def setup(self) -> None:
        for entry in self.stacked_deals:
            self._check_deal(entry)
        self.results = []
        self.last_deal = None
        self.windows_opened = 0
        self._start_round()

    @classmethod
    def upgrade_state(cls, state: dict[str, Any]) -> dict[str, Any]:
        """Snapshots before the rename number the rounds of ``results`` as ``round``;
        ``last_deal`` keeps ``round`` and gains ``deal_no``."""
        for result in state.get("results", []):
            if "round" in result:
                result["deal_no"] = result.pop("round")
        last = state.get("last_deal")
        if last is not None and "deal_no" not in last:
            last["deal_no"] = last["round"]
        state.setdefault("windows_opened", 0)
        return state

    def _check_deal(self, entry: Any) -> None:
        shape = ("a Lügenbeutel deal is "
                 "{'hands': [[10 cards] per seat], 'stock': [...], 'dice': [...]}")
        if not isinstance(entry, dict) or not isinstance(entry.get("hands"), list):
            raise ValueError(shape)
        unknown = set(entry) - {"hands", "stock", "dice"}
        if unknown:
            raise ValueError(f"unknown keys in a Lügenbeutel deal: {sorted(unknown)}")
        hands, stock = entry["hands"], entry.get("stock")
        if not isinstance(stock, list):
            raise ValueError(shape)
        if len(hands) != self.players:
            raise ValueError(f"a Lügenbeutel deal has one hand per seat ({self.players})")
        for hand in hands:
            if not isinstance(hand, list) or len(hand) != HAND_SIZE:
                raise ValueError(f"every hand of a Lügenbeutel deal has {HAND_SIZE} cards")
            if self.options["lb_card"] and LUEGENBEUTEL not in hand:
                raise ValueError("with the Lügenbeutel variant every hand holds an 'L'")
        cards = [c for h in hands for c in h] + list(stock)
        if any(not isinstance(c, str) for c in cards):
            raise ValueError("cards are code strings such as '7', 'J', 'L', 'A'")
        check_permutation(cards, DECK)
        dice = entry.get("dice", [])
        if not isinstance(dice, list) or any(
            isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6 for d in dice
        ):
            raise ValueError("the dice of a deal are whole numbers 1 to 6")

    def _start_round(self) -> None:
        self.deal_no += 1
        if self.deal_no > 1:
            self.dealer = (self.dealer + 1) % self.players
        stacked = self.next_stacked_deal()
        if stacked is not None:
            self.hands = [list(h) for h in stacked["hands"]]
            self.stock = list(stacked["stock"])
            self.dice = list(stacked.get("dice", []))
        else:
            self._deal_shuffled()
            self.dice = []
        self.discard = []
        self.open_turn = None
        self.accepted = []
        self.last_turn = None
        self.last_challenge = None
        self.phase = "play"
        self._start_turn((self.dealer + 1) % self.players, FIRST_NUMBER)

    def _deal_shuffled(self) -> None:
        deal = shuffled_deal(self.players, self.shuffled, self.options["lb_card"])
        self.hands, self.stock = deal["hands"], deal["stock"]

    def _start_turn(self, seat: int, number: int) -> None:
        self.turn = seat
        self.number = number
        self.laid = []
        self.passed = False
        self.drawn = None

    # ----- chance ----------------------------------------------------------------
    def _roll(self) -> int:
        """The revenge die: the stacked results of this round first, then the RNG."""
        if self.dice:
            return self.dice.pop(0)
        return self.roll_die()

    def _draw(self, seat: int, count: int) -> tuple[list[str], list[dict[str, Any]]]:
        """Draw up to ``count`` cards into ``seat``'s hand, refilling an empty stock
        from the discard pile (the open turn is never in it)."""
        drawn: list[str] = []
        events: list[dict[str, Any]] = []
        for _ in range(count):
            if not self.stock and self.discard:
                self.stock = self.shuffled(self.discard)
                self.discard = []
                events.append({"type": "refill", "stock": len(self.stock)})
            if not self.stock:
                break
            drawn.append(self.stock.pop(0))
        self.hands[seat].extend(drawn)
        return drawn, events

    def _reshuffle(self) -> dict[str, Any]:
        self.stock = self.shuffled(self.stock + self.discard)
        self.discard = []
        return {"type": "reshuffle", "stock": len(self.stock)}

    # ----- who may do what -----------------------------------------------------
    def _others(self, seat: int) -> list[int]:
        return [s for s in range(self.players) if s != seat]

    def _challengers(self) -> list[int]:
        """Seats that may challenge the open turn now."""
        if self.open_turn is None:
            return []
        others = self._others(self.open_turn["seat"])
        if self.phase == "challenge":
            return [s for s in others if s not in self.accepted]
        return others

    def _may_challenge(self, seat: int) -> bool:
        """Whether ``seat`` is one of :meth:`_challengers` (without listing them)."""
        ot = self.open_turn
        return (ot is not None and seat != ot["seat"]
                and (self.phase != "challenge" or seat not in self.accepted))

    def _listed(self, seat: int, spelling: Spelling[A],
                challenges: Callable[[int, bool], tuple[A, ...]], accept: A) -> list[A]:
        """The legal actions of ``seat`` as ``spelling`` (and ``challenges``,
        ``accept``) have them: typed or spelled."""
        actions: list[A] = []
        if self.phase == "play" and seat == self.turn:
            actions = turn_actions(self.hands[seat], len(self.laid), self.passed,
                                   self.drawn, spelling)
        if self._may_challenge(seat):
            assert self.open_turn is not None
            actions += challenges(len(self.open_turn["cards"]), self.options["reveal_all"])
            if self.phase == "challenge":
                actions.append(accept)
        return actions

    def _to_act(self) -> set[int]:
        seats = set(self._challengers())
        if self.phase == "play" and self.turn is not None:
            seats.add(self.turn)
        return seats

    def _actions(self, seat: int) -> list[Action]:
        return self._listed(seat, TYPED, _challenges, ACCEPT)

    def _spelled(self, seat: int) -> list[str] | None:
        return self._listed(seat, WIRES, _challenge_wires, ACCEPT.wire)

    def must_act(self, seat: int) -> bool:
        """Only the seat whose turn is due: in a challenge window (and at a round's
        end) the others may challenge or accept but need not."""
        return self.phase == "play" and seat == self.turn

    def challenge_window(self) -> int | None:
        return self.windows_opened if self.open_turn is not None else None

    def explain_illegal(self, seat: int, action: str) -> str:
        typed = self.parser.read(action)
        # a string that spells no action: what it seems meant as (challenge:x, lay)
        kind = type(typed) if typed is not None else self.parser.meant(action)
        if kind is Challenge:
            if self.open_turn is None:
                return Reason(N_("there is no turn open to challenge"))
            if seat == self.open_turn["seat"]:
                return Reason(N_("you cannot challenge your own turn"))
            if seat not in self._challengers():
                return Reason(N_("you already accepted"))
            if self.options["reveal_all"]:
                return Reason(N_("in this room a challenge turns over the whole turn: "
                                 "'challenge:all'"))
            return Reason(N_("choose a card from 1 to {count}"),
                          count=len(self.open_turn["cards"]))
        if kind is Accept:
            if self.phase != "challenge":
                return Reason(N_("there is nothing to accept: just play on"))
            return Reason(N_("you cannot accept now"))
        if kind in (Lay, Skip) or typed is not None and kind in (Pass, End):
            if self.phase == "challenge":  # a round's last card, open to challenge
                return Reason(N_("wait: the round's last turn may still be challenged"))
            if self.phase != "play" or seat != self.turn:
                return Reason(N_("it is not your turn"))
            if kind in (Lay, Skip):
                card = typed.card if isinstance(typed, (Lay, Skip)) else ""  # lay, skip
                if card not in self.hands[seat]:
                    return Reason(N_("you do not hold {card!r}"), card=card)
            if self.passed and kind is Lay:
                return Reason(N_("after passing you may lay only the card you drew, and "
                                 "only once"))
            if self.passed and kind in (Skip, Pass):
                return Reason(N_("you have passed already: lay the drawn card or end"))
            if kind is Skip and self.laid:
                return Reason(N_("Aussetzen must be the only card of a turn"))
            if kind is Skip:
                return Reason(N_("Aussetzen may not be your last card"))
            if kind is Pass and self.laid:
                return Reason(N_("you have laid cards already: lay more or end"))
            if kind is End:
                return Reason(N_("lay a card, skip or pass first"))
        return super().explain_illegal(seat, action)

    # ----- applying ----------------------------------------------------------------
    def _perform(self, seat: int, action: Action) -> list[dict[str, Any]]:
        if isinstance(action, Challenge):
            return self._challenge(seat, action.position)
        if isinstance(action, Accept):
            return self._accept(seat)
        events: list[dict[str, Any]] = []
        if self.open_turn is not None:
            # the next player acts: the window closes and the open turn stands
            events += self._close_window()
        if isinstance(action, Lay):
            self.hands[seat].remove(action.card)
            self.laid.append(action.card)
            events.append({"type": "lay", "seat": seat, "number": self.number,
                           "position": len(self.laid)})
        elif isinstance(action, Skip):
            self.hands[seat].remove(action.card)
            events.append({"type": "skip", "seat": seat, "number": self.number})
            events += self._end_turn("skip", [action.card])
        elif isinstance(action, Pass):
            self.passed = True
            drawn, draw_events = self._draw(seat, 1)
            self.drawn = drawn[0] if drawn else None
            events += draw_events
            events.append({"type": "pass", "seat": seat, "number": self.number,
                           "drew": len(drawn)})
        else:  # end
            events += self._end_turn("pass" if self.passed else "lay", self.laid)
        return events

    def _close_window(self, reshuffle: bool = True) -> list[dict[str, Any]]:
        """The open turn stands unchallenged: its cards join the discard pile (and a
        standing 10 brings the reshuffle, unless the round is over anyway)."""
        assert self.open_turn is not None
        ot, self.open_turn = self.open_turn, None
        self.discard.extend(ot["cards"])
        if self.last_turn is not None:
            self.last_turn["open"] = False
        events: list[dict[str, Any]] = [{"type": "stands", "seat": ot["seat"],
                                         "count": len(ot["cards"])}]
        if reshuffle and ot["number"] == LAST_NUMBER:
            events.append(self._reshuffle())
        return events

    def _end_turn(self, kind: str, cards: list[str]) -> list[dict[str, Any]]:
        seat, number = self.turn, self.number
        assert seat is not None
        nxt = seat_after(seat, kind, self.players)
        following = next_number(number)
        claim = AUSSETZEN if kind == "skip" else str(number)
        self.last_turn = {"seat": seat, "kind": kind, "number": number, "claim": claim,
                          "count": len(cards), "open": bool(cards), "void": False}
        events: list[dict[str, Any]] = [{"type": "end", "seat": seat, "kind": kind,
                                         "number": number, "count": len(cards),
                                         "cards_left": len(self.hands[seat])}]
        if not cards:  # a pass without a card: nothing to challenge, it stands
            if number == LAST_NUMBER:
                events.append(self._reshuffle())
            self._start_turn(nxt, following)
            return events
        self.open_turn = {"seat": seat, "kind": kind, "number": number, "claim": claim,
                          "cards": list(cards), "next": nxt}
        self.windows_opened += 1
        if not self.hands[seat]:
            self.phase = "challenge"
            self.accepted = []
            self.turn = None
            self.number = following
            self.laid, self.passed, self.drawn = [], False, None
            events.append({"type": "last_card", "seat": seat})
        else:
            self._start_turn(nxt, following)
        return events

    def _challenge(self, challenger: int, position: int | str) -> list[dict[str, Any]]:
        assert self.open_turn is not None
        ot, self.open_turn = self.open_turn, None
        liar, cards, claim = ot["seat"], ot["cards"], ot["claim"]
        if position == "all":
            revealed = list(cards)
            caught = any(not is_true(c, claim) for c in cards)
            first = 0
        else:
            assert isinstance(position, int)
            revealed = [cards[position - 1]]
            caught = not is_true(revealed[0], claim)
            first = position - 1
        void = caught and first == 0
        if caught:
            back, stays = cards[first:], cards[:first]
            self.hands[liar].extend(back)
            penalized = liar
        else:
            back, stays = [], cards
            penalized = challenger
        self.discard.extend(stays)
        die = self._roll()
        drawn, draw_events = self._draw(penalized, die)
        self.last_challenge = {
            "challenger": challenger, "accused": liar, "position": position,
            "claim": claim, "revealed": revealed, "caught": caught, "took_back": len(back),
            "die": die, "penalized": penalized, "drew": len(drawn), "void": void,
        }
        if self.last_turn is not None:
            self.last_turn.update(count=len(stays), open=False, void=void)
        events: list[dict[str, Any]] = [
            dict(self.last_challenge, type="challenge"),
            {"type": "die", "seat": penalized, "die": die},
            *draw_events,
            {"type": "draw", "seat": penalized, "count": len(drawn)},
        ]
        round_end = self.phase == "challenge"
        if round_end and not caught:
            return events + self._end_round(liar)
        if round_end:
            self.phase = "play"
            self.accepted = []
        if void:
            # the whole turn is void: the seat left of the liar, same number
            self._start_turn((liar + 1) % self.players, ot["number"])
            return events
        if ot["number"] == LAST_NUMBER:
            events.append(self._reshuffle())
        if round_end:
            self._start_turn(ot["next"], self.number)
        return events

    def _accept(self, seat: int) -> list[dict[str, Any]]:
        assert self.open_turn is not None
        self.accepted.append(seat)
        events: list[dict[str, Any]] = [{"type": "accept", "seat": seat}]
        if self._challengers():
            return events
        winner = self.open_turn["seat"]
        events += self._close_window(reshuffle=False)
        return events + self._end_round(winner)

    def _end_round(self, winner: int) -> list[dict[str, Any]]:
        left = [0 if s == winner else hand_points(self.hands[s]) for s in range(self.players)]
        won = sum(left)
        self.scores[winner] += won
        gained = [won if s == winner else 0 for s in range(self.players)]
        result = {
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "winner": winner,
            "cards_left": [len(h) for h in self.hands],
            "hand_points": left,
            "points": gained,
            "scores": list(self.scores),
        }
        self.results.append(result)
        # ``round`` stays in last_deal for the tables that read it (same as deal_no)
        self.last_deal = dict(result, round=self.deal_no, last_turn=self.last_turn,
                              last_challenge=self.last_challenge)
        events: list[dict[str, Any]] = [self.deal_end_event(**result)]
        self.open_turn = None
        self.accepted = []
        if self.scores[winner] >= self.options["target"]:
            self.phase = "over"
            self.turn = None
            self.winners = [winner]
            events.append(self.match_end_event())
        else:
            self._start_round()
            events.append(self.deal_start_event(dealer=self.dealer, turn=self.turn,
                                                number=self.number))
        return events

    # ----- views -------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        # every container below is new or a copy (fresh_views)
        challengers = self._challengers()
        stack = None
        if self.last_turn is not None:
            stack = dict(self.last_turn)
            stack["challengeable"] = (
                list(range(1, len(self.open_turn["cards"]) + 1))
                if self.open_turn is not None else []
            )
        view = self.view_header(seat)
        view.update({
            "forehand": (self.dealer + 1) % self.players,
            "number": self.number,
            "turn": self.turn,
            "laid": len(self.laid),
            "passed": self.passed,
            "stack": stack,
            "challenge": {
                "open": self.open_turn is not None,
                "by": challengers,
                "accused": self.open_turn["seat"] if self.open_turn is not None else None,
                "reveal_all": self.options["reveal_all"],
            },
            "accepted": list(self.accepted),
            "last_challenge": None if self.last_challenge is None else dict(
                self.last_challenge, revealed=list(self.last_challenge["revealed"])),
            "die": self.last_challenge["die"] if self.last_challenge is not None else None,
            "hand_counts": [len(h) for h in self.hands],
            "stock_count": len(self.stock),
            "discard_count": len(self.discard),
            "target": self.options["target"],
            "lb_card": self.options["lb_card"],
            "reveal_all": self.options["reveal_all"],
            "challenge_ms": self.options["challenge_ms"],
            "results": self.record_copy("results", self.results),
        })
        if seat is not None:
            view["hand"] = sort_hand(self.hands[seat])
            view["drawn"] = self.drawn if self.turn == seat and self.passed else None
        return view

    # ----- worlds (search bots) -----------------------------------------------------
    @classmethod
    def unseen(cls, view: dict[str, Any], tricks: list[Trick] | None = None) -> Unseen:
        """The other hands, the stock, the discard pile, the cards of the turn open
        to challenge (``open``) and the face-down cards of the turn in progress
        (``laid``, the own ones too: a view shows only how many). Known: the own
        hand, and a card a challenge caught while nothing can have moved it: it went
        back to the liar's hand, which keeps it until the liar's next turn (certain
        while the seat after the liar is up and has not acted yet, and the last turn
        shown is still the challenged one). ``tricks``: none in this game.

        ValueError for a view in which another seat has passed and laid nothing yet:
        whether it may still lay the card it drew, and which, it alone sees."""
        seat = int(view["seat"])
        turn = view.get("turn")
        if view.get("passed") and not view.get("laid") and turn != seat:
            raise ValueError("the card the seat on turn drew is hidden from this view")
        cards = list(DECK)
        for card in view["hand"]:
            cards.remove(card)
        places = {f"hand:{s}": int(n) for s, n in enumerate(view["hand_counts"])
                  if s != seat}
        places["stock"] = int(view["stock_count"])
        places["discard"] = int(view["discard_count"])
        if view.get("laid"):
            places["laid"] = int(view["laid"])
        if view["challenge"]["open"]:
            places["open"] = int(view["stack"]["count"])
        known: dict[str, list[str]] = {}
        caught = cls._caught_in_hand(view)
        if caught is not None:
            place, back = caught
            if place in places and len(back) <= places[place]:
                for card in back:
                    cards.remove(card)
                places[place] -= len(back)
                known[place] = back
        if sum(places.values()) != len(cards) or min(places.values(), default=0) < 0:
            raise ValueError("the counts of the view do not add up to the deck")
        return Unseen(cards, places, {}, known)

    @classmethod
    def _caught_in_hand(cls, view: dict[str, Any]) -> tuple[str, list[str]] | None:
        """(``hand:<liar>``, the cards turned over) of the last challenge while they
        are certainly in the liar's hand: it caught a lie, the caught card (with
        ``reveal_all`` the whole turn) went back, and nothing has moved since. The
        seat after the liar is up (a caught turn hands the turn on, a void one to
        that seat) and has not acted, and the last turn shown is still the
        challenged one, cut back to the cards before the caught one (void exactly
        when that was the first). One card turned over of several: only it is
        certain; the cards laid after it went back unseen."""
        lc, lt = view.get("last_challenge"), view.get("stack")
        if not lc or not lt or not lc["caught"]:
            return None
        liar, position = int(lc["accused"]), lc["position"]
        first = 1 if position == "all" else int(position)
        if (lt["seat"] != liar or lt["open"] or view["challenge"]["open"]
                or view.get("laid") or view.get("passed") or view.get("phase") != "play"
                or view.get("turn") != (liar + 1) % int(view["players"])
                or lt["count"] != first - 1 or bool(lt["void"]) != (first == 1)):
            return None
        revealed = [str(c) for c in lc["revealed"]]
        if position == "all":
            return f"hand:{liar}", revealed
        return f"hand:{liar}", revealed[:1]

    @classmethod
    def from_view(cls, view: dict[str, Any], hidden: dict[str, list[str]],
                  tricks: list[Trick] | None = None, seed: int | str | None = None
                  ) -> LuegenbeutelMatch:
        """The round ``view`` shows, with the places of :meth:`unseen` filled from
        ``hidden`` (``stock`` top first, ``open`` and ``laid`` in the order laid).
        The turn open to challenge is the one the view's ``stack`` describes, held
        by the accused; who is up after it stands is the engine's rule. Not in the
        view and not needed to play on: earlier rounds' sheets, the stacked dice of
        the round (the world rolls from ``seed``), how many windows opened before
        (the world counts its own from 0). ValueError for a view with nothing to
        decide (the match is over) or counts that do not fit."""
        if view["phase"] not in ("play", "challenge"):
            raise ValueError(f"nothing to decide in phase {view['phase']!r}")
        if view.get("passed") and not view.get("laid") and view.get("turn") != view["seat"]:
            raise ValueError("the card the seat on turn drew is hidden from this view")
        seat = int(view["seat"])
        players = int(view["players"])
        hands = [list(view["hand"]) if s == seat else list(hidden.get(f"hand:{s}", []))
                 for s in range(players)]
        if [len(h) for h in hands] != list(view["hand_counts"]):
            raise ValueError("the hands do not fit the view's counts")
        stock, discard = list(hidden.get("stock", [])), list(hidden.get("discard", []))
        laid = list(hidden.get("laid", []))
        if (len(stock), len(discard), len(laid)) != (
                view["stock_count"], view["discard_count"], view["laid"]):
            raise ValueError("the piles do not fit the view's counts")
        stack = view["stack"]
        last_turn = None if stack is None else {
            k: v for k, v in stack.items() if k != "challengeable"}
        open_turn = None
        if view["challenge"]["open"]:
            assert stack is not None
            cards = list(hidden.get("open", []))
            if len(cards) != stack["count"]:
                raise ValueError("the open turn does not fit the view's count")
            accused = int(view["challenge"]["accused"])
            open_turn = {"seat": accused, "kind": stack["kind"], "number": stack["number"],
                         "claim": stack["claim"], "cards": cards,
                         "next": seat_after(accused, stack["kind"], players)}
        state = {
            "players": players,
            "options": {"target": view["target"], "lb_card": view["lb_card"],
                        "reveal_all": view["reveal_all"],
                        "challenge_ms": view["challenge_ms"]},
            "stacked_deals": [], "phase": view["phase"], "scores": list(view["scores"]),
            "winners": [], "deal_no": int(view["deal_no"]), "last_deal": None,
            "dealer": int(view["dealer"]), "hands": hands, "stock": stock,
            "discard": discard, "number": int(view["number"]), "turn": view["turn"],
            "laid": laid, "passed": bool(view["passed"]),
            "drawn": view.get("drawn") if view["turn"] == seat else None,
            "open_turn": open_turn, "accepted": list(view["accepted"]),
            "last_turn": last_turn, "last_challenge": _clone(view["last_challenge"]),
            "dice": [], "results": [], "windows_opened": 0,
        }
        match = cls._from_state(state, seed)
        assert isinstance(match, LuegenbeutelMatch)
        return match


INFO = GameInfo.of(
    LuegenbeutelMatch,
    title=N_("Lügenbeutel"),
    blurb=N_("Lay cards face down, claim the required number and call the liar. "
             "Empty your hand first; the first to reach the target wins."),
    position=40,
    challenge_windows=True,
)
