"""Schafkopf, the no-auction variant with a trump suit that rotates deal by deal.

Rules: seed 001 and the Schafkopf section of RULINGS.md. Four players, partners
opposite (seats 0+2 against 1+3); deal k has trump E, G, H, S for k mod 4 = 1, 2, 3, 0;
only that suit is trump, ranked O > U > A > 10 > K > 9 > 8 > 7; side suits rank
A > 10 > K > O > U > 9 > 8 > 7. 61 card points win a unit, 91 two (Schneider),
60:60 is a draw; the first team to ``target`` units (default 11) wins.
"""

from __future__ import annotations

from typing import Any, ClassVar

from app.games.base import Match, Option
from app.games.cards import (
    SCHAFKOPF_DECK,
    SCHAFKOPF_SUITS,
    SUIT_NAMES_DE,
    check_permutation,
    rank_of,
    suit_of,
)
from app.games.tricks import follow_suit, winning_index

TRUMP_ORDER = ["O", "U", "A", "10", "K", "9", "8", "7"]  # strongest first
SIDE_ORDER = ["A", "10", "K", "O", "U", "9", "8", "7"]
POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}
TEAMS = [[0, 2], [1, 3]]


def trump_for_deal(deal_no: int) -> str:
    """Trump suit of deal number ``deal_no`` (1-based): E, G, H, S, E, ..."""
    return SCHAFKOPF_SUITS[(deal_no - 1) % 4]


def card_points(card: str) -> int:
    return POINTS[rank_of(card)]


def team_of(seat: int) -> int:
    return seat % 2


def card_strength(card: str, led: str, trump: str) -> int:
    """Strength of ``card`` in a trick led by ``led``: trumps above the led suit,
    other suits cannot win (-1)."""
    suit, rank = suit_of(card), rank_of(card)
    if suit == trump:
        return 100 + (len(TRUMP_ORDER) - TRUMP_ORDER.index(rank))
    if suit == suit_of(led):
        return 10 + (len(SIDE_ORDER) - SIDE_ORDER.index(rank))
    return -1


def sort_hand(hand: list[str], trump: str) -> list[str]:
    """Trumps first (strongest first), then the side suits in E G H S order."""

    def key(card: str) -> tuple[int, int]:
        suit, rank = suit_of(card), rank_of(card)
        if suit == trump:
            return (0, TRUMP_ORDER.index(rank))
        return (1 + SCHAFKOPF_SUITS.index(suit), SIDE_ORDER.index(rank))

    return sorted(hand, key=key)


class SchafkopfMatch(Match):
    name: ClassVar[str] = "schafkopf"
    min_players: ClassVar[int] = 4
    max_players: ClassVar[int] = 4
    options_spec: ClassVar[tuple[Option, ...]] = (
        Option(
            "target", "Units to win", "int", 11, minimum=1, maximum=99,
            help="The first team to reach this many units wins the match.",
        ),
    )

    dealer: int
    trump: str
    hands: list[list[str]]
    trick: list[list[Any]]  # [[seat, card], ...] in play order
    leader: int
    turn: int | None
    tricks: list[dict[str, Any]]  # finished tricks of the current deal
    taken: list[int]  # card points per team in the current deal
    units: list[int]
    results: list[dict[str, Any]]  # one per finished deal
    last_deal: dict[str, Any] | None

    def setup(self) -> None:
        for entry in self.stacked_deals:
            self._check_deal(entry)
        self.units = [0, 0]
        self.results = []
        self.last_deal = None
        self._start_deal()

    # ----- dealing -----------------------------------------------------------
    @staticmethod
    def _check_deal(entry: Any) -> None:
        if not isinstance(entry, dict) or not isinstance(entry.get("hands"), list):
            raise ValueError("a Schafkopf deal is {'hands': [[8 cards] x 4]}")
        hands = entry["hands"]
        if len(hands) != 4 or any(not isinstance(h, list) or len(h) != 8 for h in hands):
            raise ValueError("a Schafkopf deal has four hands of eight cards")
        if any(not isinstance(c, str) for h in hands for c in h):
            raise ValueError("a card is a code string such as 'EO'")
        check_permutation([c for h in hands for c in h], SCHAFKOPF_DECK)

    def _start_deal(self) -> None:
        self.deal_no += 1
        if self.deal_no > 1:
            self.dealer = (self.dealer + 1) % 4
        self.trump = trump_for_deal(self.deal_no)
        stacked = self.next_stacked_deal()
        if stacked is not None:
            self.hands = [list(h) for h in stacked["hands"]]
        else:
            deck = self.shuffled(SCHAFKOPF_DECK)
            self.hands = [deck[i * 8:(i + 1) * 8] for i in range(4)]
        self.leader = (self.dealer + 1) % 4
        self.turn = self.leader
        self.trick = []
        self.tricks = []
        self.taken = [0, 0]
        self.phase = "play"

    # ----- rules ---------------------------------------------------------------
    def _led_suit(self) -> str | None:
        return suit_of(self.trick[0][1]) if self.trick else None

    def playable(self, seat: int) -> list[str]:
        return follow_suit(self.hands[seat], self._led_suit(), suit_of)

    def _to_act(self) -> set[int]:
        return {self.turn} if self.turn is not None else set()

    def _legal(self, seat: int) -> list[str]:
        if self.phase != "play" or seat != self.turn:
            return []
        return ["play:" + c for c in sort_hand(self.playable(seat), self.trump)]

    def explain_illegal(self, seat: int, action: str, legal: list[str]) -> str:
        if self.phase == "play" and seat != self.turn:
            return "it is not your turn"
        if action.startswith("play:"):
            card = action[5:]
            if len(card) > 8:
                return "there is no such card"
            if card not in self.hands[seat]:
                return f"you do not hold {card!r}"
            led = self._led_suit()
            if led is not None:
                return f"you must follow suit: {SUIT_NAMES_DE[led]} was led"
        return super().explain_illegal(seat, action, legal)

    def _apply(self, seat: int, action: str) -> list[dict[str, Any]]:
        card = action.split(":", 1)[1]
        self.hands[seat].remove(card)
        self.trick.append([seat, card])
        events: list[dict[str, Any]] = [{"type": "play", "seat": seat, "card": card}]
        if len(self.trick) < 4:
            self.turn = (seat + 1) % 4
            return events
        plays = [c for _, c in self.trick]
        win_at = winning_index(plays, lambda c, led: card_strength(c, led, self.trump))
        winner = self.trick[win_at][0]
        points = sum(card_points(c) for c in plays)
        self.taken[team_of(winner)] += points
        self.tricks.append({"leader": self.leader, "plays": self.trick, "winner": winner})
        events.append({"type": "trick", "winner": winner, "cards": plays, "points": points})
        self.trick = []
        self.leader = winner
        self.turn = winner
        if len(self.tricks) == 8:
            events.extend(self._end_deal())
        return events

    def _end_deal(self) -> list[dict[str, Any]]:
        points = list(self.taken)
        if points[0] == points[1]:
            won_units, winner_team = [0, 0], None
        else:
            winner_team = 0 if points[0] > points[1] else 1
            units = 2 if points[winner_team] >= 91 else 1
            won_units = [0, 0]
            won_units[winner_team] = units
        for t in (0, 1):
            self.units[t] += won_units[t]
        self.scores = [self.units[team_of(s)] for s in range(4)]
        result = {
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "trump": self.trump,
            "points": points,
            "units": won_units,
            "winner_team": winner_team,
            "schneider": winner_team is not None and points[winner_team] >= 91,
            "draw": winner_team is None,
            "total_units": list(self.units),
        }
        self.results.append(result)
        self.last_deal = dict(result, tricks=self.tricks)
        events: list[dict[str, Any]] = [dict(result, type="deal_end")]
        target = self.options["target"]
        if winner_team is not None and self.units[winner_team] >= target:
            self.phase = "over"
            self.turn = None
            self.winners = list(TEAMS[winner_team])
            events.append({"type": "match_end", "winners": self.winners, "units": self.units})
        else:
            self._start_deal()
            events.append({
                "type": "deal", "deal_no": self.deal_no, "dealer": self.dealer,
                "trump": self.trump,
            })
        return events

    # ----- views ---------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {
            "game": self.name,
            "seat": seat,
            "players": 4,
            "phase": self.phase,
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "forehand": (self.dealer + 1) % 4,
            "trump": self.trump,
            "teams": TEAMS,
            "units": list(self.units),
            "scores": list(self.scores),
            "target": self.options["target"],
            "turn": self.turn,
            "leader": self.leader,
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "last_trick": None,
            "tricks_won": [
                sum(1 for t in self.tricks if team_of(t["winner"]) == team) for team in (0, 1)
            ],
            "hand_counts": [len(h) for h in self.hands],
            "winners": list(self.winners),
            "results": list(self.results),
        }
        if self.tricks and not self.is_over:
            last = self.tricks[-1]
            view["last_trick"] = {
                "leader": last["leader"],
                "plays": [{"seat": s, "card": c} for s, c in last["plays"]],
                "winner": last["winner"],
            }
        if seat is not None:
            view["hand"] = sort_hand(self.hands[seat], self.trump)
            view["team"] = team_of(seat)
        if self.last_deal is not None:
            view["last_deal"] = self.last_deal
        return view
