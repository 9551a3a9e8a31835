"""Trick-taking shared by the trick games: one follow-suit rule, one winner rule, and
:class:`TrickGame`, the one place that runs the turns of trick play."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from app.games.actions import PLAY_WIRES, PLAYS, Action, Play
from app.games.base import FLAT, N_, NESTED, Match, Parser, Reason, Trick, Unseen
from app.games.cards import suit_of

CARD_SHOWN_MAX = 20  # a card code that is not held is quoted back at most this long
PARSER = Parser(Play)  # play:<card>, the one action of trick play


def follow_suit(
    hand: Sequence[str], led_suit: str | None, suit_of: Callable[[str], str]
) -> list[str]:
    """The cards of ``hand`` that may be played when ``led_suit`` was led.

    With nothing led yet (``led_suit`` None) every card may be played; a player who
    holds the led suit must play it; one who does not may play anything.
    """
    if led_suit is None:
        return list(hand)
    same = [c for c in hand if suit_of(c) == led_suit]
    return same if same else list(hand)


def winning_index(plays: Sequence[str], strength: Callable[[str, str], int]) -> int:
    """Index of the play that wins a trick.

    ``strength(card, led_suit)`` returns a comparable number; cards that cannot win
    (discards of another suit) return a negative number. The first card led is
    ``plays[0]``; the highest strength wins, the earlier play on a tie.
    """
    if not plays:
        raise ValueError("an empty trick has no winner")
    led = plays[0]
    best = 0
    best_strength = strength(led, led)
    for i, card in enumerate(plays[1:], start=1):
        s = strength(card, led)
        if s > best_strength:
            best, best_strength = i, s
    return best


class TrickGame(Match):
    """Trick play, shared by every trick game: who leads, whose turn it is, playing a
    card, when a trick is complete, and that its winner leads the next one.

    State (plain JSON, as every match): ``hands`` per seat, the open ``trick`` (one
    entry per play, in the layout of :meth:`play_entry`), ``leader``, ``turn`` (None
    when nobody plays a card) and the finished ``tricks`` of the deal.

    A game supplies the card order (:meth:`sort_hand`, :meth:`finish_trick`), the
    number of tricks a deal has, and what happens when the deal ends
    (:meth:`end_deal`); it may narrow :meth:`playable` (duties beyond following suit),
    the seats that play a trick (:meth:`trick_size`, :meth:`next_in_trick`) and the
    phases in which cards are played at all.
    """

    suit_names: ClassVar[dict[str, str]] = {}  # suit letter -> name in a message
    # why a card cannot be played by a seat that may do something else now (an
    # auction, a decision before the cards are played): a game says it its own way
    early_play: ClassVar[str] = N_("no card is played now")
    play_phase: ClassVar[str] = "play"
    parser: ClassVar[Parser] = PARSER
    spells: ClassVar[bool] = True  # the plays (_spelled)
    copy_plan: ClassVar[dict[str, str]] = {
        **Match.copy_plan,
        "hands": NESTED,
        "trick": FLAT,  # play_card appends new entries and never changes one
    }

    hands: list[list[str]]
    trick: list[Any]
    leader: int | None
    turn: int | None
    tricks: list[dict[str, Any]]

    # ----- the trick entry layout (the games' snapshots differ; kept as they are) ----
    @staticmethod
    def play_entry(seat: int, card: str) -> Any:
        """One play as it is stored in ``trick``: ``[seat, card]`` by default."""
        return [seat, card]

    @staticmethod
    def played_seat(entry: Any) -> int:
        return int(entry[0])

    @staticmethod
    def played_card(entry: Any) -> str:
        return str(entry[1])

    def trick_cards(self) -> list[str]:
        """The cards of the open trick in play order."""
        return [self.played_card(e) for e in self.trick]

    def trick_plays(self) -> list[dict[str, Any]]:
        """The open trick as public ``{"seat", "card"}`` records."""
        return [{"seat": self.played_seat(e), "card": self.played_card(e)} for e in self.trick]

    def last_trick_view(self) -> dict[str, Any] | None:
        """The deal's last finished trick as a view shows it (``leader``, ``plays`` as
        public ``{"seat", "card"}`` records, ``winner``); None before the first. The
        match's last trick stays once it is over."""
        if not self.tricks:
            return None
        last = self.tricks[-1]
        return {"leader": last["leader"],
                "plays": [{"seat": self.played_seat(e), "card": self.played_card(e)}
                          for e in last["plays"]],
                "winner": last["winner"]}

    # ----- hooks ---------------------------------------------------------------------
    def suit(self, card: str) -> str:
        """The suit a card counts as for following suit."""
        return suit_of(card)

    def sort_hand(self, hand: Sequence[str]) -> list[str]:
        raise NotImplementedError

    def tricks_per_deal(self) -> int:
        raise NotImplementedError

    def trick_size(self) -> int:
        """How many cards make a trick complete."""
        return self.players

    def next_in_trick(self, seat: int) -> int:
        """Who plays after ``seat`` in the open trick (clockwise)."""
        return (seat + 1) % self.players

    def finish_trick(self) -> tuple[int, list[dict[str, Any]]]:
        """Decide the complete open trick and record it in ``tricks``; return the
        winner and the events to announce (the ``trick`` event among them)."""
        raise NotImplementedError

    def end_deal(self) -> list[dict[str, Any]]:
        """The last trick of the deal is done: score it, then deal on or end."""
        raise NotImplementedError

    def card_played(self, seat: int, card: str) -> list[dict[str, Any]]:
        """``seat`` has just put ``card`` on the open trick, which is not decided yet:
        what the game learns from the card (a called Sau shows its holder), as the
        events that follow the ``play`` event. Nothing by default."""
        return []

    # ----- turns and legality ------------------------------------------------------
    def start_trick_play(self, leader: int) -> None:
        """``leader`` leads the first trick of the deal."""
        self.phase = self.play_phase
        self.leader = leader
        self.turn = leader
        self.trick = []
        self.tricks = []

    def led_suit(self) -> str | None:
        return self.suit(self.played_card(self.trick[0])) if self.trick else None

    def allowed(self, hand: Sequence[str], trick: Sequence[str]) -> list[str]:
        """The cards of ``hand`` that may be played to an open trick of the cards
        ``trick`` (in play order): follow suit if able. The one rule behind
        :meth:`playable` and behind what play reveals (:meth:`unseen`)."""
        if not trick:
            return list(hand)
        if type(self).suit is TrickGame.suit:
            # the suit is the code's first letter: no call per card (the hot path of
            # every playout)
            led = trick[0][0]
            same = [c for c in hand if c[0] == led]
            return same if same else list(hand)
        return follow_suit(hand, self.suit(trick[0]), self.suit)

    def playable(self, seat: int) -> list[str]:
        """The cards ``seat`` may play now: follow suit if able."""
        hand = self.hands[seat]
        if not self.trick:
            return list(hand)
        return self.allowed(hand, [self.played_card(self.trick[0])])

    def on_play_turn(self, seat: int) -> bool:
        return self.phase == self.play_phase and seat == self.turn

    def play_cards(self, seat: int) -> list[str]:
        """The cards ``seat`` may play now, in hand order; [] off turn."""
        if self.phase != self.play_phase or seat != self.turn:
            return []
        return self.sort_hand(self.playable(seat))

    def play_actions(self, seat: int) -> list[Action]:
        """The plays of ``seat``, in hand order; [] off turn."""
        # map: no comprehension's frame (the legal list of every turn)
        return list(map(PLAYS.__getitem__, self.play_cards(seat)))

    def play_wires(self, seat: int) -> list[str]:
        """The strings of :meth:`play_actions`, without the list of them."""
        return list(map(PLAY_WIRES.__getitem__, self.play_cards(seat)))

    def allows_play(self, seat: int, action: Action) -> bool:
        """``action in play_actions(seat)``, without building the list."""
        return (isinstance(action, Play) and self.on_play_turn(seat)
                and action.card in self.playable(seat))

    def explain_play(self, seat: int, action: Action | None) -> str | None:
        """Why a refused play of the seat on turn fails, or None (not a play)."""
        if not isinstance(action, Play):
            return None
        card = action.card
        if card not in self.hands[seat]:
            shown = card if len(card) <= CARD_SHOWN_MAX else card[:CARD_SHOWN_MAX] + "…"
            return Reason(N_("you do not hold {card!r}"), card=shown)
        led = self.led_suit()
        if led is not None:
            return Reason(N_("you must follow suit: {suit} was led"), suit=led,
                          shown={"suit": self.suit_names.get(led, led)})
        return None

    def _to_act(self) -> set[int]:
        return {self.turn} if self.turn is not None else set()

    def _actions(self, seat: int) -> list[Action]:
        return self.play_actions(seat)

    def _spelled(self, seat: int) -> list[str] | None:
        return list(map(PLAY_WIRES.__getitem__, self.play_cards(seat)))  # play_wires

    def _permits(self, seat: int, action: Action) -> bool:
        return self.allows_play(seat, action)

    def _perform(self, seat: int, action: Action) -> list[dict[str, Any]]:
        if isinstance(action, Play):
            return self.play_card(seat, action.card)
        raise AssertionError(f"not an action of trick play: {action!r}")

    def explain_illegal(self, seat: int, action: str) -> str:
        if self.phase == self.play_phase and seat != self.turn:
            return Reason(N_("it is not your turn"))
        if self.phase == self.play_phase:
            reason = self.explain_play(seat, self.parser.read(action))
            if reason is not None:
                return reason
        elif isinstance(self.parser.read(action), Play) and seat in self._to_act():
            return Reason(self.early_play)
        return super().explain_illegal(seat, action)

    # ----- worlds (search bots; see Match.unseen and Match.from_view) -------------------
    @staticmethod
    def deal_plays(view: dict[str, Any], tricks: list[Trick] | None) -> list[Trick]:
        """The deal's finished ``tricks`` and the open trick of ``view``, each as
        (seat, card) in play order; ValueError unless ``tricks`` are as many as the
        view counts finished (``tricks_won``)."""
        done = sum(view.get("tricks_won") or [])
        tricks = tricks or []
        if len(tricks) != done:
            raise ValueError(f"{done} tricks of this deal are finished, {len(tricks)} given")
        open_trick = [(int(p["seat"]), str(p["card"])) for p in view.get("trick") or []]
        return [*([(int(s), str(c)) for s, c in t] for t in tricks), open_trick]

    def absent_by_play(self, plays: list[Trick], cards: Sequence[str]) -> dict[int, set[str]]:
        """Of ``cards``, those each seat cannot hold: held beside a card the seat
        played, it would have made that play illegal (:meth:`allowed`)."""
        out: dict[int, set[str]] = {}
        for trick in plays:
            for i in range(1, len(trick)):
                seat, card = trick[i]
                before = [c for _, c in trick[:i]]
                absent = {c for c in set(cards) if card not in self.allowed([card, c], before)}
                if absent:
                    out.setdefault(seat, set()).update(absent)
        return out

    @staticmethod
    def dealt_hands(view: dict[str, Any], hidden: dict[str, list[str]],
                    plays: list[Trick]) -> list[list[str]]:
        """Each hand as it was dealt: the viewing seat's from ``view``, the others'
        from ``hidden``, each with the cards it played this deal."""
        seat = int(view["seat"])
        hands = [list(view["hand"]) if s == seat else list(hidden[f"hand:{s}"])
                 for s in range(int(view["players"]))]
        for trick in plays:
            for s, card in trick:
                hands[s].append(card)
        return hands

    def unseen_in(self, view: dict[str, Any], plays: list[Trick], deck: Sequence[str],
                  extra: dict[str, int] | None = None) -> Unseen:
        """:meth:`Match.unseen` of a trick game: the cards of ``deck`` neither in the
        seat's hand nor played this deal, in the other hands (and the ``extra``
        places), with what play revealed."""
        seat = int(view["seat"])
        seen = list(view["hand"]) + [c for trick in plays for _, c in trick]
        cards = list(deck)
        for card in seen:
            cards.remove(card)
        places = {f"hand:{s}": int(n) for s, n in enumerate(view["hand_counts"]) if s != seat}
        places.update(extra or {})
        excluded = {f"hand:{s}": absent
                    for s, absent in self.absent_by_play(plays, cards).items() if s != seat}
        return Unseen(cards, places, excluded)

    @classmethod
    def at_deal_start(cls, view: dict[str, Any], hidden: dict[str, list[str]],
                      tricks: list[Trick] | None = None, seed: int | str | None = None
                      ) -> TrickGame:
        """The deal ``view`` shows as it was dealt, before its first card: the
        hands from ``view``, ``hidden`` (the places of :meth:`unseen`) and the
        plays (``tricks`` and the open trick) put back. :meth:`from_view` replays
        the plays on it; a search can replay them itself and watch each one."""
        raise NotImplementedError(f"{cls.name} cannot rebuild a deal's start")

    @classmethod
    def from_view(cls, view: dict[str, Any], hidden: dict[str, list[str]],
                  tricks: list[Trick] | None = None, seed: int | str | None = None
                  ) -> TrickGame:
        match = cls.at_deal_start(view, hidden, tricks, seed)
        match.replay(cls.deal_plays(view, tricks))
        return match

    def replay(self, plays: list[Trick]) -> None:
        """Play the public ``plays`` (seat, card) in order, each checked as
        :meth:`verify` checks it (ValueError: the world does not fit them)."""
        for trick in plays:
            for seat, card in trick:
                self.check(seat, PLAYS[card])
                self.play_card(seat, card)

    # ----- playing -------------------------------------------------------------------
    def play_card(self, seat: int, card: str) -> list[dict[str, Any]]:
        """``seat`` plays ``card`` (known to be legal). A complete trick is decided,
        its winner leads the next, and after the last trick the deal ends."""
        self.hands[seat].remove(card)
        self.trick.append(self.play_entry(seat, card))
        events: list[dict[str, Any]] = [{"type": "play", "seat": seat, "card": card}]
        events += self.card_played(seat, card)
        if len(self.trick) < self.trick_size():
            self.turn = self.next_in_trick(seat)
            return events
        winner, trick_events = self.finish_trick()
        events += trick_events
        self.trick = []
        self.leader = winner
        self.turn = winner
        if len(self.tricks) == self.tricks_per_deal():
            events += self.end_deal()
        return events
