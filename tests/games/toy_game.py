"""Stich, a toy fifth game: proof that a game is one module and nothing in ``app/``.

A tiny trick game on the shared :class:`app.games.tricks.TrickGame`, registered at
run time with :func:`app.games.register` (see :func:`registered`); ``app/`` knows
nothing of it. Tests use it to show that the engine contract holds for a game added
from outside, and a web test may give it a presentation of its own.

Rules:

- 2 or 3 players; a 12-card deck of two suits, red ``R`` and blue ``B``, ranks
  ``1`` (low) to ``6`` (high): card codes ``R1`` .. ``R6``, ``B1`` .. ``B6``.
- Every card is dealt: 6 each with 2 players, 4 each with 3. Forehand (dealer + 1)
  leads the first trick; play goes clockwise; the trick's winner leads the next.
- Follow suit if able, else any card. No trumps: the highest card of the led suit
  wins the trick.
- Each trick won is a point. After ``options["hands"]`` hands (default 1) the most
  points win; a tie for the most: all tied seats win. The deal passes clockwise.
- Actions: ``play:<card>`` only. Stacked deals: ``{"hands": [[...] per seat]}``.

Usage::

    from tests.games.toy_game import registered

    with registered():
        m = new_match("toy", 2, {"dealer": 0}, seed=1)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any, ClassVar

from app.games import GameInfo, Option, register, unregister
from app.games.cards import check_permutation, rank_of, suit_of
from app.games.tricks import TrickGame, winning_index

NAME = "toy"
SUITS = ["R", "B"]
SUIT_NAMES = {"R": "red", "B": "blue"}
RANKS = ["1", "2", "3", "4", "5", "6"]  # ascending
DECK = [suit + rank for suit in SUITS for rank in RANKS]
HAND_SIZE = {2: 6, 3: 4}
NO_WIN = -1  # a card of another suit than the led one never wins


def sort_hand(hand: Sequence[str]) -> list[str]:
    """Red first, then blue, each highest first."""
    return sorted(hand, key=lambda c: (SUITS.index(suit_of(c)), -RANKS.index(rank_of(c))))


def strength(card: str, led: str) -> int:
    """Rank of ``card`` in a trick led with ``led``; another suit cannot win."""
    return RANKS.index(rank_of(card)) if suit_of(card) == suit_of(led) else NO_WIN


class ToyMatch(TrickGame):
    """A match of Stich. ``scores`` are the tricks won so far, per seat."""

    name: ClassVar[str] = NAME
    min_players: ClassVar[int] = min(HAND_SIZE)
    max_players: ClassVar[int] = max(HAND_SIZE)
    options_spec: ClassVar[tuple[Option, ...]] = (
        Option("hands", "Hands to play", "int", 1, minimum=1, maximum=5,
               help="After this many hands the most tricks win."),
    )
    suit_names: ClassVar[dict[str, str]] = SUIT_NAMES

    trick: list[list[Any]]  # [[seat, card], ...] in play order
    tricks_won: list[int]  # in the current hand
    last_deal: dict[str, Any] | None

    def setup(self) -> None:
        for entry in self.stacked_deals:
            self._check_deal(entry)
        self.last_deal = None
        self._start_deal()

    def _check_deal(self, entry: Any) -> None:
        size = HAND_SIZE[self.players]
        if not isinstance(entry, dict) or set(entry) != {"hands"} \
                or not isinstance(entry["hands"], list):
            raise ValueError("a Stich deal is {'hands': [[cards] per seat]}")
        hands = entry["hands"]
        if len(hands) != self.players or any(
            not isinstance(h, list) or len(h) != size for h in hands
        ):
            raise ValueError(f"a Stich deal has {self.players} hands of {size} cards")
        if any(not isinstance(c, str) for h in hands for c in h):
            raise ValueError("a card is a code string such as 'R6'")
        check_permutation([c for h in hands for c in h], DECK)

    def _start_deal(self) -> None:
        self.deal_no += 1
        if self.deal_no > 1:
            self.dealer = (self.dealer + 1) % self.players
        stacked = self.next_stacked_deal()
        size = HAND_SIZE[self.players]
        if stacked is not None:
            self.hands = [list(h) for h in stacked["hands"]]
        else:
            deck = self.shuffled(DECK)
            self.hands = [deck[i * size:(i + 1) * size] for i in range(self.players)]
        self.tricks_won = [0] * self.players
        self.start_trick_play((self.dealer + 1) % self.players)

    # ----- TrickGame hooks ---------------------------------------------------------
    def sort_hand(self, hand: Sequence[str]) -> list[str]:
        return sort_hand(hand)

    def tricks_per_deal(self) -> int:
        return HAND_SIZE[self.players]

    def finish_trick(self) -> tuple[int, list[dict[str, Any]]]:
        cards = self.trick_cards()
        winner = self.played_seat(self.trick[winning_index(cards, strength)])
        self.tricks_won[winner] += 1
        self.tricks.append({"leader": self.leader, "plays": self.trick_plays(),
                            "winner": winner})
        return winner, [{"type": "trick", "winner": winner, "plays": self.trick_plays()}]

    def end_deal(self) -> list[dict[str, Any]]:
        self.scores = [self.scores[s] + self.tricks_won[s] for s in range(self.players)]
        self.last_deal = {"deal_no": self.deal_no, "dealer": self.dealer,
                          "tricks": self.tricks, "tricks_won": list(self.tricks_won),
                          "scores": list(self.scores)}
        events = [self.deal_end_event(tricks_won=list(self.tricks_won))]
        if self.deal_no >= self.options["hands"]:
            best = max(self.scores)
            self.winners = [s for s in range(self.players) if self.scores[s] == best]
            self.phase = "over"
            self.turn = None
            events.append(self.match_end_event())
        else:
            self._start_deal()
            events.append(self.deal_start_event(dealer=self.dealer))
        return events

    # ----- views -------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        view = self.view_header(seat)
        view.update({
            "forehand": (self.dealer + 1) % self.players,
            "hands_to_play": self.options["hands"],
            "turn": self.turn,
            "leader": self.leader,
            "trick": self.trick_plays(),
            "last_trick": self.tricks[-1] if self.tricks else None,
            "tricks_won": list(self.tricks_won),
            "hand_counts": [len(h) for h in self.hands],
        })
        if seat is not None:
            view["hand"] = sort_hand(self.hands[seat])
        return view


INFO = GameInfo.of(
    ToyMatch,
    title="Stich",
    blurb="A toy trick game for tests: two suits, twelve cards, follow suit, most tricks win.",
    position=1000,
)


@contextmanager
def registered() -> Iterator[GameInfo]:
    """``GAMES["toy"]`` for the duration of the block, and gone afterwards."""
    register(INFO)
    try:
        yield INFO
    finally:
        unregister(INFO.name)
