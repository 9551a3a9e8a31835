"""Schafkopf, the no-auction variant with a trump suit that rotates deal by deal.

Rules: seed 001 and docs/rules/schafkopf.md. Four players, partners
opposite (seats 0+2 against 1+3); deal k has trump E, G, H, S for k mod 4 = 1, 2, 3, 0;
only that suit is trump, ranked O > U > A > 10 > K > 9 > 8 > 7; side suits rank
A > 10 > K > O > U > 9 > 8 > 7. 61 card points win a unit, 91 two (Schneider),
60:60 is a draw; the first team to ``target`` units (default 11) wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from app.games.base import FLAT, N_, GameInfo, Option, Trick, Unseen
from app.games.cards import (
    SCHAFKOPF_DECK,
    SCHAFKOPF_SUITS,
    SUIT_NAMES_DE,
    check_permutation,
    rank_of,
    suit_of,
)
from app.games.tricks import TrickGame, winning_index

PLAYERS = 4
HAND_SIZE = 8
TRUMP_ORDER = ["O", "U", "A", "10", "K", "9", "8", "7"]  # strongest first
SIDE_ORDER = ["A", "10", "K", "O", "U", "9", "8", "7"]
POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0, "8": 0, "7": 0}
TEAMS = [[0, 2], [1, 3]]  # partners sit opposite
WIN_POINTS = 61  # card points (of 120) that win a deal's unit
SCHNEIDER_POINTS = 91  # card points that win two units
SCHNEIDER_UNITS = 2
# strength bands: any trump beats any card of the led suit; other suits cannot win
TRUMP_BAND = 100
LED_BAND = 10
NO_WIN = -1


def trump_for_deal(deal_no: int) -> str:
    """Trump suit of deal number ``deal_no`` (1-based): E, G, H, S, E, ..."""
    return SCHAFKOPF_SUITS[(deal_no - 1) % len(SCHAFKOPF_SUITS)]


def card_points(card: str) -> int:
    return POINTS[rank_of(card)]


def team_of(seat: int) -> int:
    return seat % len(TEAMS)


def partner_of(seat: int) -> int:
    """The seat opposite, the partner."""
    return next(s for s in TEAMS[team_of(seat)] if s != seat)


def _strength(card: str, led_suit: str, trump: str) -> int:
    suit, rank = suit_of(card), rank_of(card)
    if suit == trump:
        return TRUMP_BAND + (len(TRUMP_ORDER) - TRUMP_ORDER.index(rank))
    if suit == led_suit:
        return LED_BAND + (len(SIDE_ORDER) - SIDE_ORDER.index(rank))
    return NO_WIN


def _sort_key(card: str, trump: str) -> int:
    suit, rank = suit_of(card), rank_of(card)
    if suit == trump:
        return TRUMP_ORDER.index(rank)
    return (1 + SCHAFKOPF_SUITS.index(suit)) * len(SIDE_ORDER) + SIDE_ORDER.index(rank)


# The trump suit changes deal by deal, so the card order is worked out once per trump
# suit here and looked up in play: STRENGTH[trump][led suit][card], SORT_KEY[trump][card]
# (trumps strongest first, then E G H S strongest first), POINTS_OF[card].
STRENGTH: dict[str, dict[str, dict[str, int]]] = {
    trump: {led: {c: _strength(c, led, trump) for c in SCHAFKOPF_DECK} for led in SCHAFKOPF_SUITS}
    for trump in SCHAFKOPF_SUITS
}
SORT_KEY: dict[str, dict[str, int]] = {
    trump: {c: _sort_key(c, trump) for c in SCHAFKOPF_DECK} for trump in SCHAFKOPF_SUITS
}
POINTS_OF: dict[str, int] = {c: POINTS[rank_of(c)] for c in SCHAFKOPF_DECK}


def card_strength(card: str, led: str, trump: str) -> int:
    """Strength of ``card`` in a trick led by ``led``: trumps above the led suit,
    other suits cannot win (-1)."""
    return STRENGTH[trump][suit_of(led)][card]


def trick_winner(plays: Sequence[str], trump: str) -> int:
    """Index of the play that wins a trick of ``plays`` (in play order; the open
    trick so far, or a complete one)."""
    strength = STRENGTH[trump][plays[0][0]]
    return winning_index(plays, lambda card, _led: strength[card])


def deal_units(points: Sequence[int]) -> list[int]:
    """The units each team wins with its card points of a deal (team order): 61
    win one, 91 two (Schneider); 60:60 wins none."""
    units = [0] * len(TEAMS)
    if points[0] != points[1]:
        winner = 0 if points[0] > points[1] else 1
        units[winner] = SCHNEIDER_UNITS if points[winner] >= SCHNEIDER_POINTS else 1
    return units


def sort_hand(hand: Sequence[str], trump: str) -> list[str]:
    """Trumps first (strongest first), then the side suits in E G H S order."""
    return sorted(hand, key=SORT_KEY[trump].__getitem__)


def check_deal(entry: Any) -> None:
    """Raise ValueError unless ``entry`` is a stacked Schafkopf deal: ``{"hands":
    [[8 cards] x 4]}``, the 32 cards once each (both Schafkopf games deal so)."""
    if not isinstance(entry, dict) or not isinstance(entry.get("hands"), list):
        raise ValueError("a Schafkopf deal is {'hands': [[8 cards] x 4]}")
    hands = entry["hands"]
    if len(hands) != PLAYERS or any(
        not isinstance(h, list) or len(h) != HAND_SIZE for h in hands
    ):
        raise ValueError("a Schafkopf deal has four hands of eight cards")
    if any(not isinstance(c, str) for h in hands for c in h):
        raise ValueError("a card is a code string such as 'EO'")
    check_permutation([c for h in hands for c in h], SCHAFKOPF_DECK)


class SchafkopfMatch(TrickGame):
    name: ClassVar[str] = "schafkopf"
    min_players: ClassVar[int] = PLAYERS
    max_players: ClassVar[int] = PLAYERS
    options_spec: ClassVar[tuple[Option, ...]] = (
        Option(
            "target", N_("Units to win"), "int", 11, minimum=1, maximum=99,
            help=N_("The first team to reach this many units wins the match."),
        ),
    )
    suit_names: ClassVar[dict[str, str]] = SUIT_NAMES_DE
    fresh_views: ClassVar[bool] = True
    copy_plan: ClassVar[dict[str, str]] = {
        **TrickGame.copy_plan,
        "tricks": FLAT,  # a finished trick's record is never changed
        "taken": FLAT,
        "units": FLAT,
        "results": FLAT,  # a finished deal's line is never changed
    }

    trump: str
    trick: list[list[Any]]  # [[seat, card], ...] in play order
    taken: list[int]  # card points per team in the current deal
    units: list[int]
    results: list[dict[str, Any]]  # one per finished deal
    last_deal: dict[str, Any] | None

    def setup(self) -> None:
        for entry in self.stacked_deals:
            check_deal(entry)
        self.units = [0] * len(TEAMS)
        self.results = []
        self.last_deal = None
        self._start_deal()

    # ----- dealing -----------------------------------------------------------
    def _start_deal(self) -> None:
        self.deal_no += 1
        if self.deal_no > 1:
            self.dealer = (self.dealer + 1) % PLAYERS
        self.trump = trump_for_deal(self.deal_no)
        stacked = self.next_stacked_deal()
        if stacked is not None:
            self.hands = [list(h) for h in stacked["hands"]]
        else:
            deck = self.shuffled(SCHAFKOPF_DECK)
            self.hands = [deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(PLAYERS)]
        self.taken = [0] * len(TEAMS)
        self.start_trick_play((self.dealer + 1) % PLAYERS)

    # ----- worlds (search bots; see Match.unseen and Match.from_view) -------------
    @classmethod
    def unseen(cls, view: dict[str, Any], tricks: list[Trick] | None = None) -> Unseen:
        """The other three hands; a seat that did not follow suit holds none of it."""
        probe = cls._from_state({}, None)  # follow suit needs nothing of a state
        assert isinstance(probe, SchafkopfMatch)
        return probe.unseen_in(view, cls.deal_plays(view, tricks), SCHAFKOPF_DECK)

    @classmethod
    def at_deal_start(cls, view: dict[str, Any], hidden: dict[str, list[str]],
                      tricks: list[Trick] | None = None, seed: int | str | None = None
                      ) -> SchafkopfMatch:
        """The deal as dealt, with its number, trump, dealer and the units so far."""
        hands = cls.dealt_hands(view, hidden, cls.deal_plays(view, tricks))
        forehand = (int(view["dealer"]) + 1) % PLAYERS
        state: dict[str, Any] = {
            "players": PLAYERS, "options": {"target": int(view["target"])},
            "stacked_deals": [], "phase": "play", "scores": list(view["scores"]),
            "winners": [], "deal_no": int(view["deal_no"]), "last_deal": None,
            "dealer": int(view["dealer"]), "units": list(view["units"]), "results": [],
            "trump": trump_for_deal(int(view["deal_no"])), "hands": hands,
            "taken": [0] * len(TEAMS), "leader": forehand, "turn": forehand,
            "trick": [], "tricks": [],
        }
        match = cls._from_state(state, seed)
        assert isinstance(match, SchafkopfMatch)
        return match

    # ----- rules ---------------------------------------------------------------
    def sort_hand(self, hand: Sequence[str]) -> list[str]:
        return sorted(hand, key=SORT_KEY[self.trump].__getitem__)

    def tricks_per_deal(self) -> int:
        return HAND_SIZE

    def finish_trick(self) -> tuple[int, list[dict[str, Any]]]:
        plays = [card for _, card in self.trick]
        winner = self.trick[trick_winner(plays, self.trump)][0]
        points = sum(POINTS_OF[c] for c in plays)
        self.taken[team_of(winner)] += points
        self.tricks.append({"leader": self.leader, "plays": self.trick, "winner": winner})
        return winner, [{"type": "trick", "winner": winner, "cards": plays, "points": points}]

    def end_deal(self) -> list[dict[str, Any]]:
        points = list(self.taken)
        won_units = deal_units(points)
        winner_team = next((t for t, won in enumerate(won_units) if won), None)  # None: 60:60
        for t in range(len(TEAMS)):
            self.units[t] += won_units[t]
        self.scores = [self.units[team_of(s)] for s in range(PLAYERS)]
        result = {
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "trump": self.trump,
            "points": points,
            "units": won_units,
            "winner_team": winner_team,
            "schneider": winner_team is not None and points[winner_team] >= SCHNEIDER_POINTS,
            "draw": winner_team is None,
            "total_units": list(self.units),
        }
        self.results.append(result)
        self.last_deal = dict(result, tricks=self.tricks, scores=list(self.scores))
        events: list[dict[str, Any]] = [self.deal_end_event(**result)]
        target = self.options["target"]
        if winner_team is not None and self.units[winner_team] >= target:
            self.phase = "over"
            self.turn = None
            self.winners = list(TEAMS[winner_team])
            events.append(self.match_end_event(units=list(self.units)))
        else:
            self._start_deal()
            events.append(self.deal_start_event(dealer=self.dealer, trump=self.trump))
        return events

    # ----- views ---------------------------------------------------------------
    def _tricks_won(self) -> list[int]:
        won = [0] * len(TEAMS)
        for trick in self.tricks:
            won[team_of(trick["winner"])] += 1
        return won

    def _view(self, seat: int | None) -> dict[str, Any]:
        # every container below is new or a copy (fresh_views)
        view = self.view_header(seat)
        view.update({
            "forehand": (self.dealer + 1) % PLAYERS,
            "trump": self.trump,
            "teams": [list(team) for team in TEAMS],
            "units": list(self.units),
            "target": self.options["target"],
            "turn": self.turn,
            "leader": self.leader,
            "trick": [{"seat": s, "card": c} for s, c in self.trick],
            "last_trick": self.last_trick_view(),  # the match's last too, once over
            "tricks_won": self._tricks_won(),
            "hand_counts": [len(h) for h in self.hands],
            "results": self.record_copy("results", self.results),
        })
        if seat is not None:
            view["hand"] = self.sort_hand(self.hands[seat])
            view["team"] = team_of(seat)
        return view


INFO = GameInfo.of(
    SchafkopfMatch,
    title=N_("Schafkopf (rotating trump)"),
    blurb=N_("Two teams of two, no auction: the trump suit rotates deal by deal (Eichel, "
             "Gras, Herz, Schellen). The first team to reach the target wins."),
    position=10,
)
