"""Classic Schafkopf, as a Bavarian table plays it: an auction, a partner called by a
Sau who stays secret until that Sau shows, Wenz, Geier and Farbsolo, the Touts,
Kontra and Retour, Laufende, Schneider and Schwarz, paid in cents.

Rules: docs/rules/schafkopf_classic.md. Four players, no fixed teams. The cards,
their points and the stacked deals are the rotating-trump Schafkopf's
(:mod:`app.games.schafkopf`); trick play is :class:`~app.games.tricks.TrickGame`'s.

A deal: the auction (``phase == "auction"``: each seat from forehand says ``bid`` or
``pass``; the bidders name a class strictly higher than the best so far, or
``pass``, once each in seat order; the declarer calls a Sau or chooses the trump
suit), then eight tricks (``"play"``), while ``kontra``/``retour`` may come from any
seat allowed to say it, on turn or not. Nobody plays: the cards are thrown in (option
``all_pass`` ``redeal``) or a Ramsch is played (``ramsch``).

The partner is secret: the holder of the called Sau is state of the engine, never of
a view or an event, until the Sau is played or the partner says Retour. Whoever may
still say Kontra is in ``to_act()`` (the contract: a seat with a legal action is
there), but a view shows only the seat on turn and, to itself, the viewing seat:
the other seats that may double would tell who the partner is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from app.games.actions import (
    BID,
    KONTRA,
    PASS_SPEAK,
    RETOUR,
    Action,
    CallSau,
    ChooseTrump,
    Kontra,
    NameGame,
    Play,
    Retour,
    Speak,
)
from app.games.base import (
    CENTS,
    END_REASONS,
    FLAT,
    HOST_ENDS,
    N_,
    GameInfo,
    Option,
    Parser,
    Reason,
    Trick,
    Unseen,
    _clone,
)
from app.games.cards import SCHAFKOPF_DECK, SCHAFKOPF_SUITS, SUIT_NAMES_DE
from app.games.schafkopf import HAND_SIZE, PLAYERS, POINTS_OF, SIDE_ORDER, check_deal
from app.games.tricks import TrickGame, follow_suit, winning_index

# ----- the games -----------------------------------------------------------------------
RUFSPIEL, WENZ, GEIER, SOLO = "rufspiel", "wenz", "geier", "solo"
WENZ_TOUT, GEIER_TOUT, SOLO_TOUT, RAMSCH = "wenz_tout", "geier_tout", "solo_tout", "ramsch"
#: the classes a bidder may name, in the order they are offered, with their rank
CLASSES: dict[str, int] = {RUFSPIEL: 1, WENZ: 2, GEIER: 2, SOLO: 3, WENZ_TOUT: 4,
                           GEIER_TOUT: 4, SOLO_TOUT: 5}
TOUTS = frozenset({WENZ_TOUT, GEIER_TOUT, SOLO_TOUT})
GEIERS = frozenset({GEIER, GEIER_TOUT})
CHOSEN_TRUMP = frozenset({SOLO, SOLO_TOUT})  # the declarer names the trump suit
CALLABLE = ("E", "G", "S")  # Herz is trump in a Rufspiel: its Sau is never called
RUF_TRUMP = "H"  # the trump suit of a Rufspiel and a Ramsch

# ----- trumps and card order ------------------------------------------------------------
# A layout is the trumps of a game: a suit letter (the Obers, the Unters, then that
# suit: Rufspiel and Ramsch with Herz, a Farbsolo with its suit), "U" (only the
# Unters: Wenz) or "O" (only the Obers: Geier).
ONLY_UNTERS, ONLY_OBERS = "U", "O"
LAYOUTS = (*SCHAFKOPF_SUITS, ONLY_UNTERS, ONLY_OBERS)
TRUMP_SUIT = "T"  # what every trump counts as for following suit
LAUFENDE_FROM = {ONLY_UNTERS: 2, ONLY_OBERS: 2}  # other layouts: 3
LAUFENDE_USUAL = 3
WIN_POINTS = 61  # the declaring party's card points that win
SCHNEIDER_POINTS = 30  # a losing party with this many card points or fewer
TRUMP_BAND, LED_BAND, NO_WIN = 100, 10, -1


def layout_of(game: str, trump: str | None) -> str:
    """The trumps of ``game`` (a chosen ``trump`` suit for a Farbsolo)."""
    if game in (WENZ, WENZ_TOUT):
        return ONLY_UNTERS
    if game in GEIERS:
        return ONLY_OBERS
    return trump if game in CHOSEN_TRUMP and trump is not None else RUF_TRUMP


def _trump_ranks(layout: str) -> tuple[str, ...]:
    if layout in (ONLY_UNTERS, ONLY_OBERS):
        return (layout,)
    return ("O", "U")


def trumps_of(layout: str) -> list[str]:
    """The trumps of ``layout``, strongest first."""
    ranks = _trump_ranks(layout)
    trumps = [s + r for r in ranks for s in SCHAFKOPF_SUITS]
    if layout in SCHAFKOPF_SUITS:
        trumps += [layout + r for r in SIDE_ORDER if r not in ranks]
    return trumps


def _side_order(layout: str) -> list[str]:
    """The ranks of a suit that is not trump, strongest first."""
    return [r for r in SIDE_ORDER if r not in _trump_ranks(layout)]


def _tables(layout: str) -> tuple[dict[str, str], dict[str, dict[str, int]], dict[str, int]]:
    """What a card counts as for following suit, its strength in a trick by what was
    led, and its place in a sorted hand, under ``layout``."""
    trumps = trumps_of(layout)
    side = _side_order(layout)
    suit = {c: TRUMP_SUIT if c in trumps else c[0] for c in SCHAFKOPF_DECK}

    def strength(card: str, led: str) -> int:
        if suit[card] == TRUMP_SUIT:
            return TRUMP_BAND + len(trumps) - trumps.index(card)
        if suit[card] == led:
            return LED_BAND + len(side) - side.index(card[1:])
        return NO_WIN

    strengths = {led: {c: strength(c, led) for c in SCHAFKOPF_DECK}
                 for led in (TRUMP_SUIT, *SCHAFKOPF_SUITS)}
    order = {c: trumps.index(c) if c in trumps else
             len(trumps) + SCHAFKOPF_SUITS.index(c[0]) * len(side) + side.index(c[1:])
             for c in SCHAFKOPF_DECK}
    return suit, strengths, order


# Worked out once per layout and looked up in play: SUIT_AS[layout][card] (the suit
# it follows, "T" for a trump), STRENGTH[layout][led][card], SORT_KEY[layout][card]
# (trumps strongest first, then Eichel, Gras, Herz, Schellen, strongest first).
_BUILT = {layout: _tables(layout) for layout in LAYOUTS}
SUIT_AS: dict[str, dict[str, str]] = {k: v[0] for k, v in _BUILT.items()}
STRENGTH: dict[str, dict[str, dict[str, int]]] = {k: v[1] for k, v in _BUILT.items()}
SORT_KEY: dict[str, dict[str, int]] = {k: v[2] for k, v in _BUILT.items()}
TRUMPS: dict[str, list[str]] = {layout: trumps_of(layout) for layout in LAYOUTS}


def callable_suits(hand: Sequence[str]) -> list[str]:
    """The suits whose Sau the holder of ``hand`` may call in a Rufspiel: not Herz,
    not his own Sau, and at least one card of the suit that is no Ober or Unter."""
    return [s for s in CALLABLE if s + "A" not in hand
            and any(c[0] == s and c[1:] not in ("O", "U") for c in hand)]


def laufende(layout: str, party_holds: Sequence[bool]) -> int:
    """The Laufende of a deal: ``party_holds[i]`` says whether the declaring party
    held the i-th strongest trump at the start. The unbroken run from the top in one
    party's hands counts from 3 (from 2 in a Wenz or Geier); shorter runs are 0."""
    run = 1
    while run < len(party_holds) and party_holds[run] == party_holds[0]:
        run += 1
    return run if run >= LAUFENDE_FROM.get(layout, LAUFENDE_USUAL) else 0


# the actions of the auction (app.games.actions), each made once
NAMES = {game: NameGame(game) for game in CLASSES}
CALLS = {suit: CallSau(suit) for suit in CALLABLE}
CHOICES = {suit: ChooseTrump(suit) for suit in SCHAFKOPF_SUITS}
PARSER = Parser(Play, Speak, NameGame, CallSau, ChooseTrump, Kontra, Retour)

# auction steps: the first round, naming the game, calling a Sau or choosing the trump
SPEAK, NAME, CALL = "speak", "name", "call"
# how a deal ended (``kind`` of its record)
PLAYED, THROWN_IN, CALLED_OFF = "played", "thrown_in", "called_off"
REDEAL = "redeal"
RULES_SHOWN = ("geier", "tout", "kontra", "all_pass")  # options a view shows as ``rules``


class SchafkopfClassicMatch(TrickGame):
    name: ClassVar[str] = "schafkopf_classic"
    min_players: ClassVar[int] = PLAYERS
    max_players: ClassVar[int] = PLAYERS
    options_spec: ClassVar[tuple[Option, ...]] = (
        Option("rufspiel_cents", N_("Rufspiel tariff (cents)"), "int", 10, minimum=1,
               maximum=10_000,
               help=N_("What a Rufspiel is worth to each player, in cents; a Ramsch costs "
                       "the same.")),
        Option("solo_cents", N_("Solo tariff (cents)"), "int", 50, minimum=1, maximum=10_000,
               help=N_("What a Wenz, Geier or Farbsolo is worth, in cents, from each of "
                       "the three others.")),
        Option("extra_cents", N_("Extra per Schneider, Schwarz, Laufender (cents)"), "int",
               10, minimum=0, maximum=10_000,
               help=N_("Added to a deal's value once for Schneider, once more for "
                       "Schwarz and once for each Laufender.")),
        Option("geier", N_("Geier"), "bool", False,
               help=N_("Offer the Geier, in which only the Obers are trumps.")),
        Option("tout", N_("Tout"), "bool", True,
               help=N_("Offer the Touts: the declarer must take every trick, for "
                       "twice the value.")),
        Option("kontra", N_("Kontra"), "bool", True,
               help=N_("The opponents may say Kontra and the declaring party Retour, "
                       "each doubling the value.")),
        Option("all_pass", N_("When all pass"), "choice", REDEAL, choices=(REDEAL, RAMSCH),
               help=N_("When nobody plays: the cards are dealt again, or a Ramsch is "
                       "played.")),
        Option("deals", N_("Number of deals"), "int", 16, minimum=0, maximum=999,
               help=N_("0: until the host ends the match. A deal nobody plays does "
                       "not count.")),
    )
    parser: ClassVar[Parser] = PARSER
    suit_names: ClassVar[dict[str, str]] = SUIT_NAMES_DE
    early_play: ClassVar[str] = N_("no card is played before the game is settled")
    fresh_views: ClassVar[bool] = True
    copy_plan: ClassVar[dict[str, str]] = {
        **TrickGame.copy_plan,
        "tricks": FLAT,  # a finished trick's record is never changed
        "said": FLAT,
        "named": FLAT,
        "results": FLAT,  # a finished deal's line is never changed
        "taken": FLAT,
        "won": FLAT,
    }

    # the auction
    step: str | None  # SPEAK, NAME, CALL; None once the game is settled
    said: list[str | None]  # per seat in the first round: "bid", "pass" or None
    named: list[str | None]  # per seat when naming: a class, "pass" or None
    best: str | None  # the highest class named so far
    # the game
    game: str | None  # a class, RAMSCH, or None during the auction
    declarer: int | None
    called: str | None  # the suit of the called Sau (Rufspiel)
    trump: str | None  # the trump suit (Rufspiel and Ramsch: Herz; Wenz, Geier: None)
    layout: str  # the trumps (see LAYOUTS); Rufspiel's until the game is settled
    partner: int | None  # the holder of the called Sau: secret until ``revealed``
    revealed: bool
    called_led: bool  # the called suit has been led: the Sau is free
    kontra: int | None  # the seat that said it
    retour: int | None
    taken: list[int]  # card points per seat in the deal so far
    won: list[int]  # tricks per seat in the deal so far
    # the match
    played: int  # deals played (a thrown-in deal does not count)
    results: list[dict[str, Any]]

    def setup(self) -> None:
        for entry in self.stacked_deals:
            check_deal(entry)
        self.played = 0
        self.results = []
        self._start_deal()

    # ----- dealing and the auction -----------------------------------------------------
    @property
    def forehand(self) -> int:
        return (self.dealer + 1) % PLAYERS

    def _start_deal(self) -> None:
        self.deal_no += 1
        if self.deal_no > 1:
            self.dealer = (self.dealer + 1) % PLAYERS
        stacked = self.next_stacked_deal()
        if stacked is not None:
            self.hands = [list(h) for h in stacked["hands"]]
        else:
            deck = self.shuffled(SCHAFKOPF_DECK)
            self.hands = [deck[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(PLAYERS)]
        self.phase = "auction"
        self.step = SPEAK
        self.said = [None] * PLAYERS
        self.named = [None] * PLAYERS
        self.best = None
        self.game = self.declarer = self.called = self.partner = self.trump = None
        self.layout = RUF_TRUMP  # the hands are sorted as for a Rufspiel meanwhile
        self.revealed = self.called_led = False
        self.kontra = self.retour = None
        self.turn = self.leader = self.forehand
        self.trick = []
        self.tricks = []
        self.taken = [0] * PLAYERS
        self.won = [0] * PLAYERS

    def _after(self, seat: int, among: Sequence[int]) -> int | None:
        """The first seat of ``among`` after ``seat`` in seat order, before forehand
        comes round again; None when ``seat`` was the last."""
        order = [(self.forehand + i) % PLAYERS for i in range(PLAYERS)]
        later = order[order.index(seat) + 1:]
        return next((s for s in later if s in among), None)

    def bidders(self) -> list[int]:
        """The seats that said ``bid``, from forehand."""
        return [s for s in ((self.forehand + i) % PLAYERS for i in range(PLAYERS))
                if self.said[s] == "bid"]

    def classes_open(self, seat: int) -> list[str]:
        """The classes ``seat`` may name now: strictly above the best so far, allowed
        by the options, a Rufspiel only with a Sau to call."""
        floor = CLASSES[self.best] if self.best is not None else 0
        options = self.options
        return [game for game, rank in CLASSES.items() if rank > floor
                and (options["geier"] or game not in GEIERS)
                and (options["tout"] or game not in TOUTS)
                and (game != RUFSPIEL or callable_suits(self.hands[seat]))]

    def auction_actions(self, seat: int) -> list[Action]:
        if seat != self.turn:
            return []
        if self.step == SPEAK:
            return [BID, PASS_SPEAK]
        if self.step == NAME:
            return [*(NAMES[g] for g in self.classes_open(seat)), PASS_SPEAK]
        if self.game == RUFSPIEL:
            return [CALLS[s] for s in callable_suits(self.hands[seat])]
        return [CHOICES[s] for s in SCHAFKOPF_SUITS]

    def _say(self, seat: int, action: Action) -> list[dict[str, Any]]:
        """An action of the auction (known to be legal)."""
        if isinstance(action, Speak) and self.step == SPEAK:
            self.said[seat] = action.wire
            events: list[dict[str, Any]] = [{"type": action.wire, "seat": seat}]
            following = self._after(seat, range(PLAYERS))
            if following is not None:
                self.turn = following
                return events
            bidders = self.bidders()
            if not bidders:
                return events + self._nobody_plays()
            self.step, self.turn = NAME, bidders[0]
            return events
        if self.step == NAME:
            if isinstance(action, NameGame):
                self.named[seat] = action.name
                self.best, self.declarer = action.name, seat
                events = [{"type": "class", "seat": seat, "class": action.name}]
            else:
                self.named[seat] = "pass"
                events = [{"type": "pass", "seat": seat}]
            following = self._after(seat, self.bidders())
            if following is not None:
                self.turn = following
                return events
            if self.best is None:
                return events + self._nobody_plays()
            self.game = self.best
            if self.game in (RUFSPIEL, *CHOSEN_TRUMP):
                self.step, self.turn = CALL, self.declarer
                return events
            return events + self._settle_game(None)
        assert isinstance(action, CallSau | ChooseTrump)
        return self._settle_game(action.name)

    def _nobody_plays(self) -> list[dict[str, Any]]:
        if self.options["all_pass"] == RAMSCH:
            self.game = RAMSCH
            return self._settle_game(None)
        return self._end_deal(THROWN_IN)

    def _settle_game(self, suit: str | None) -> list[dict[str, Any]]:
        """The game stands (``suit``: the called suit or the chosen trump): play."""
        game = self.game
        assert game is not None
        self.step = None
        if game == RUFSPIEL:
            self.called, self.trump = suit, RUF_TRUMP
            sau = f"{suit}A"
            self.partner = next(s for s in range(PLAYERS) if sau in self.hands[s])
        elif game in CHOSEN_TRUMP:
            self.trump = suit
        elif game == RAMSCH:
            self.trump = RUF_TRUMP
        self.layout = layout_of(game, self.trump)
        self.start_trick_play(self.forehand)
        return [{"type": "game", "game": game, "seat": self.declarer,
                 "called": self.called, "trump": self.trump}]

    # ----- Kontra and Retour -----------------------------------------------------------
    def party(self) -> list[int]:
        """The declaring party (secret in a Rufspiel until the partner is shown)."""
        if self.declarer is None:
            return []
        if self.partner is None:
            return [self.declarer]
        return [self.declarer, self.partner]

    def double_action(self, seat: int) -> Action | None:
        """``kontra`` or ``retour`` if ``seat`` may say it now, else None."""
        if (self.tricks or self.phase != self.play_phase or self.game == RAMSCH
                or not self.options["kontra"] or self.retour is not None
                or len(self.hands[seat]) < HAND_SIZE):  # its first card is played
            return None
        ours = seat in self.party()
        if self.kontra is None:
            return None if ours else KONTRA
        return RETOUR if ours else None

    def _double(self, seat: int, action: Kontra | Retour) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = [{"type": action.wire, "seat": seat}]
        if isinstance(action, Retour):
            self.retour = seat
            if seat == self.partner:
                events += self._reveal()
        else:
            self.kontra = seat
        return events

    # ----- the called Sau ------------------------------------------------------------------
    def bound_sau(self, seat: int) -> str | None:
        """The called Sau if ``seat`` holds it and its suit has not been led yet (while
        it is bound by its three duties), else None."""
        if self.called is None or self.called_led:
            return None
        sau = f"{self.called}A"
        return sau if sau in self.hands[seat] else None

    def playable(self, seat: int) -> list[str]:
        """Follow suit; and the called Sau's duties while its suit has not been led:
        played when its suit is led, kept from any other trick but the eighth, led when
        its holder leads its suit with fewer than four cards of it."""
        cards = super().playable(seat)
        if self.called is None or self.called_led:  # the quick answer of bound_sau
            return cards
        sau = self.bound_sau(seat)
        if sau is None:
            return cards
        suit = SUIT_AS[self.layout]
        if self.trick:
            if suit[self.played_card(self.trick[0])] == self.called:
                return [sau]
            if len(self.tricks) == HAND_SIZE - 1:  # the eighth trick
                return cards
            return [c for c in cards if c != sau]
        hand = self.hands[seat]
        if sum(1 for c in hand if suit[c] == self.called) >= 4:
            return cards  # davonlaufen: any card of the suit may lead it
        return [c for c in cards if c == sau or suit[c] != self.called]

    def card_played(self, seat: int, card: str) -> list[dict[str, Any]]:
        if self.called is not None and not self.revealed and card == f"{self.called}A":
            return self._reveal()
        return []

    def _reveal(self) -> list[dict[str, Any]]:
        self.revealed = True
        return [{"type": "partner", "seat": self.partner}]

    # ----- the engine's hooks ----------------------------------------------------------------
    def suit(self, card: str) -> str:
        return SUIT_AS[self.layout][card]

    def allowed(self, hand: Sequence[str], trick: Sequence[str]) -> list[str]:
        suits = SUIT_AS[self.layout]  # looked up, not asked card by card (every turn)
        return follow_suit(hand, suits[trick[0]] if trick else None, suits.__getitem__)

    def sort_hand(self, hand: Sequence[str]) -> list[str]:
        return sorted(hand, key=SORT_KEY[self.layout].__getitem__)

    def tricks_per_deal(self) -> int:
        return HAND_SIZE

    def _to_act(self) -> set[int]:
        if self.turn is None:
            return set()
        if self.tricks or self.phase != self.play_phase:  # no Kontra after the first trick
            return {self.turn}
        return {self.turn, *(s for s in range(PLAYERS) if self.double_action(s) is not None)}

    def must_act(self, seat: int) -> bool:
        """Only the seat whose card or call is awaited: a seat that may double need
        not."""
        return not self.is_over and seat == self.turn

    def _actions(self, seat: int) -> list[Action]:
        if self.phase != self.play_phase:
            return self.auction_actions(seat)
        actions = self.play_actions(seat)
        double = self.double_action(seat)
        if double is not None:
            actions.append(double)
        return actions

    def _spelled(self, seat: int) -> list[str] | None:
        if self.phase != self.play_phase:
            return [a.wire for a in self.auction_actions(seat)]
        wires = super()._spelled(seat)  # the plays
        if self.tricks:  # no Kontra after the first trick: the plays alone
            return wires
        assert wires is not None
        double = self.double_action(seat)
        if double is not None:
            wires.append(double.wire)
        return wires

    def _permits(self, seat: int, action: Action) -> bool:
        if isinstance(action, Play):
            return self.allows_play(seat, action)
        if isinstance(action, Kontra | Retour):
            return self.double_action(seat) == action
        return self.phase != self.play_phase and action in self.auction_actions(seat)

    def _perform(self, seat: int, action: Action) -> list[dict[str, Any]]:
        if isinstance(action, Play):
            return self.play_card(seat, action.card)
        if isinstance(action, Kontra | Retour):
            return self._double(seat, action)
        return self._say(seat, action)

    def finish_trick(self) -> tuple[int, list[dict[str, Any]]]:
        plays = [card for _, card in self.trick]
        strength = STRENGTH[self.layout][SUIT_AS[self.layout][plays[0]]]
        winner = self.trick[winning_index(plays, lambda c, _led: strength[c])][0]
        points = sum(POINTS_OF[c] for c in plays)
        if self.called is not None and SUIT_AS[self.layout][plays[0]] == self.called:
            self.called_led = True  # from the next trick on, the called Sau is free
        self.taken[winner] += points
        self.won[winner] += 1
        self.tricks.append({"leader": self.leader, "plays": self.trick, "winner": winner})
        return winner, [{"type": "trick", "winner": winner, "cards": plays, "points": points}]

    def end_deal(self) -> list[dict[str, Any]]:
        return self._end_deal(PLAYED)

    # ----- settling a deal -------------------------------------------------------------
    def _settle(self) -> dict[str, Any]:
        """The result of the deal just played: its line and the cents of each seat."""
        points, tricks = list(self.taken), list(self.won)
        tariff = self.options["rufspiel_cents"]
        cents = [0] * PLAYERS
        if self.game == RAMSCH:
            marcher = next((s for s in range(PLAYERS) if tricks[s] == HAND_SIZE), None)
            most = max(points)
            losers = [marcher] if marcher is not None else [
                s for s in range(PLAYERS) if points[s] == most]
            for loser in losers:
                for other in range(PLAYERS):
                    if other != loser:
                        cents[loser] -= tariff
                        cents[other] += tariff
            if marcher is not None:  # Durchmarsch: the marcher receives instead
                cents = [-c for c in cents]
            return {"points": points, "tricks": tricks, "cents": cents,
                    "losers": [] if marcher is not None else losers,
                    "durchmarsch": marcher}
        party = self.party()
        party_points = sum(points[s] for s in party)
        party_tricks = sum(tricks[s] for s in party)
        tout = self.game in TOUTS
        if tout:
            won = party_tricks == HAND_SIZE
            schneider = schwarz = False
        else:
            won = party_points >= WIN_POINTS
            losing_points = sum(points) - party_points if won else party_points
            losing_tricks = HAND_SIZE - party_tricks if won else party_tricks
            schneider = losing_points <= SCHNEIDER_POINTS
            schwarz = losing_tricks == 0
        holds = self._held_by_party(party)
        running = laufende(self.layout, holds)
        extra = self.options["extra_cents"]
        base = tariff if self.game == RUFSPIEL else self.options["solo_cents"]
        if tout:
            value = 2 * (base + extra * running)
        else:
            value = base + extra * (int(schneider) + int(schwarz) + running)
        for said in (self.kontra, self.retour):
            if said is not None:
                value *= 2
        sign = 1 if won else -1
        each = sign * value
        for seat in range(PLAYERS):
            if seat not in party:
                cents[seat] = -each
        for seat in party:
            cents[seat] = each * (PLAYERS - len(party)) // len(party)
        return {"points": points, "tricks": tricks, "cents": cents,
                "party_points": party_points, "won": won, "schneider": schneider,
                "schwarz": schwarz, "laufende": running,
                "laufende_party": None if not running else ("declaring" if holds[0]
                                                            else "opponents"),
                "value": value}

    def _held_by_party(self, party: list[int]) -> list[bool]:
        """For each trump, strongest first: did the declaring party hold it at the
        start of the deal? (Every card has been played: who played it held it.)"""
        holder = {card: seat for trick in self.tricks for seat, card in trick["plays"]}
        return [holder[card] in party for card in TRUMPS[self.layout]]

    def _end_deal(self, kind: str, reason: str | None = None) -> list[dict[str, Any]]:
        """Record the deal that ends now (played, thrown in, or called off by the
        host for ``reason``), then deal on or end the match."""
        record: dict[str, Any] = {
            "deal_no": self.deal_no, "dealer": self.dealer, "kind": kind,
            "game": self.game if kind == PLAYED else None,
            "declarer": self.declarer if kind == PLAYED else None,
            "partner": self.partner if kind == PLAYED else None,
            "called": self.called if kind == PLAYED else None,
            "trump": self.trump if kind == PLAYED else None,
            "kontra": self.kontra if kind == PLAYED else None,
            "retour": self.retour if kind == PLAYED else None,
        }
        if kind == PLAYED:
            record.update(self._settle())
            self.played += 1
        else:
            record["cents"] = [0] * PLAYERS
            if reason is not None:
                record["called_off"] = reason
            self.tricks = []  # nothing of a deal not played out stays on the table
            self.trick = []
            self.taken = [0] * PLAYERS
            self.won = [0] * PLAYERS
        cents = record["cents"]
        self.scores = [self.scores[s] + cents[s] for s in range(PLAYERS)]
        record["balances"] = list(self.scores)
        self.results.append(record)
        self.last_deal = dict(record, tricks=self.tricks, scores=list(self.scores))
        transfers = [{"seat": s, "amount": cents[s], "reason": record["game"] or kind}
                     for s in range(PLAYERS) if cents[s]]
        events = [self.deal_end_event(**record, transfers=transfers, pot=0)]
        deals = self.options["deals"]
        if reason is not None or (deals and self.played >= deals):
            self.phase = "over"
            self.turn = None
            self.step = None
            top = max(self.scores)
            self.winners = [s for s in range(PLAYERS) if self.scores[s] == top]
            events.append(self.match_end_event())
        else:
            self._start_deal()
            events.append(self.deal_start_event(dealer=self.dealer, forehand=self.forehand))
        return events

    def chips_at_start(self) -> list[int]:
        """The balances before the first deal: every seat at 0 cents."""
        return [0] * PLAYERS

    def end_by_host(self, reason: str = HOST_ENDS) -> list[dict[str, Any]]:
        """The host ends the match now: the deal in progress is called off and pays
        nothing; the highest balances win. Returns the events (``deal_end`` of the
        called-off deal, ``match_end``); [] if the match was already over."""
        if reason not in END_REASONS:
            raise ValueError(f"unknown reason to end a match: {reason!r}")
        if self.is_over:
            return []
        self._legal_cache = None  # the state changes (see Match.legal_actions)
        events: list[dict[str, Any]] = _clone(self._end_deal(CALLED_OFF, reason))
        return events

    # ----- messages ---------------------------------------------------------------------
    def explain_illegal(self, seat: int, action: str) -> str:
        typed = self.parser.read(action)
        if isinstance(typed, Kontra | Retour):
            return self._explain_double(seat, typed)
        if seat != self.turn:
            return Reason(N_("it is not your turn"))
        if self.phase == self.play_phase:
            return self._explain_play(seat, typed) or super().explain_illegal(seat, action)
        if self.step == NAME and isinstance(typed, NameGame) and typed.name in CLASSES:
            if self.best is not None and CLASSES[typed.name] <= CLASSES[self.best]:
                return Reason(N_("only a game above the one named before may be named now"))
            if typed.name == RUFSPIEL:
                return Reason(N_("you have no Sau to call: name a higher game or pass"))
            return Reason(N_("this table does not play that game"))
        if self.step == CALL and isinstance(typed, CallSau):
            return Reason(N_("you may call the Sau of Eichel, Gras or Schellen if you hold "
                             "a card of its suit that is no Ober or Unter, and not the Sau"))
        return super().explain_illegal(seat, action)

    def _explain_double(self, seat: int, action: Kontra | Retour) -> str:
        if not self.options["kontra"]:
            return Reason(N_("this table plays without Kontra"))
        if self.phase != self.play_phase or self.game == RAMSCH:
            return Reason(N_("Kontra and Retour come once the game is settled, never in a "
                             "Ramsch"))
        if len(self.hands[seat]) < HAND_SIZE:
            return Reason(N_("Kontra and Retour only before your own first card"))
        if isinstance(action, Retour):
            return Reason(N_("Retour answers a Kontra, from the declaring party, once"))
        return Reason(N_("Kontra comes once, from a player outside the declaring party"))

    def _explain_play(self, seat: int, action: Action | None) -> str | None:
        if not isinstance(action, Play) or action.card not in self.hands[seat]:
            return self.explain_play(seat, action)
        led = self.suit(self.played_card(self.trick[0])) if self.trick else None
        if action.card not in super().playable(seat):  # it does not follow suit
            if led == TRUMP_SUIT:
                return Reason(N_("you must play a trump: a trump was led"))
            return self.explain_play(seat, action)
        # a duty of the called Sau; ``suit`` its suit (the web names it in its language)
        suit = str(self.called)
        shown = {"suit": self.suit_names.get(suit, suit)}
        if led == suit:
            return Reason(N_("{suit} was led: you must play the called Sau"), shown=shown,
                          suit=suit)
        if led is not None:
            return Reason(N_("the called Sau may not be discarded before {suit} was led"),
                          shown=shown, suit=suit)
        return Reason(N_("lead {suit} with the called Sau, unless you hold four cards of "
                         "{suit}"), shown=shown, suit=suit)

    # ----- worlds (search bots; see Match.unseen and Match.from_view) ---------------------
    @classmethod
    def unseen(cls, view: dict[str, Any], tricks: list[Trick] | None = None) -> Unseen:
        """The other three hands. A seat that did not follow suit holds none of it; in
        a Rufspiel the declarer does not hold the called Sau (he called it), a seat
        that played another card when the called suit was first led does not hold it
        either (it would have had to play it), and a partner shown by his Retour before
        the Sau is played holds it. What else the deal's course rules out (the
        declarer held a card of the called suit, a lead of the called suit without the
        Sau came from four cards of it) is checked when a world replays the course
        (:meth:`from_view`)."""
        declared = view.get("declared")
        layout = layout_of(declared, view.get("trump")) if declared else RUF_TRUMP
        probe = cls._from_state({"layout": layout}, None)
        assert isinstance(probe, SchafkopfClassicMatch)
        plays = cls.deal_plays(view, tricks)
        unseen = probe.unseen_in(view, plays, SCHAFKOPF_DECK)
        called = view.get("called")
        sau = f"{called}A"
        if called is None or sau not in unseen.cards:
            return unseen
        seat, holder = int(view["seat"]), view.get("partner")
        if holder is not None and holder != seat:  # shown by his Retour
            unseen.cards.remove(sau)
            unseen.places[f"hand:{holder}"] -= 1
            unseen.known[f"hand:{holder}"] = [sau]
            return unseen
        cannot = {int(view["declarer"])}
        first = next((t for t in plays if t and SUIT_AS[layout][t[0][1]] == called), [])
        cannot.update(s for s, card in first[1:] if card != sau)
        for s in cannot - {seat}:
            unseen.excluded.setdefault(f"hand:{s}", set()).add(sau)
        return unseen

    @classmethod
    def at_deal_start(cls, view: dict[str, Any], hidden: dict[str, list[str]],
                      tricks: list[Trick] | None = None, seed: int | str | None = None
                      ) -> SchafkopfClassicMatch:
        """The deal as dealt, before its auction: the hands, the dealer, the
        balances, the options the view shows (``rules``); earlier deals' records
        are left out. :meth:`told` says what was said in it, in order."""
        hands = cls.dealt_hands(view, hidden, cls.deal_plays(view, tricks))
        options = {o.name: o.default for o in cls.options_spec}
        options.update(view.get("rules") or {})
        tariff = view["tariff"]
        options.update(rufspiel_cents=tariff["rufspiel"], solo_cents=tariff["solo"],
                       extra_cents=tariff["extra"], deals=view["deals"])
        forehand = (int(view["dealer"]) + 1) % PLAYERS
        state: dict[str, Any] = {
            "players": PLAYERS, "options": options, "stacked_deals": [],
            "phase": "auction", "scores": list(view["scores"]), "winners": [],
            "deal_no": int(view["deal_no"]), "last_deal": None,
            "dealer": int(view["dealer"]), "played": int(view["played"]), "results": [],
            "hands": hands, "step": SPEAK, "said": [None] * PLAYERS,
            "named": [None] * PLAYERS, "best": None, "game": None, "declarer": None,
            "called": None, "partner": None, "trump": None, "layout": RUF_TRUMP,
            "revealed": False, "called_led": False, "kontra": None, "retour": None,
            "turn": forehand, "leader": forehand, "trick": [], "tricks": [],
            "taken": [0] * PLAYERS, "won": [0] * PLAYERS,
        }
        match = cls._from_state(state, seed)
        assert isinstance(match, SchafkopfClassicMatch)
        return match

    def told(self, view: dict[str, Any]) -> tuple[int, Action] | None:
        """The next thing ``view`` shows said in its deal, as it was said from this
        point on (a match at the deal's start, then after each of these): the word of
        the seat on turn in the auction, the Sau called or the trump chosen, then
        Kontra and Retour (said before any card counts: each seat says it before its
        first card). None when the view shows nothing more before the cards."""
        if self.phase == "auction" and self.turn is not None:
            seat = self.turn
            if self.step == SPEAK:
                said = view["said"][seat]
                return None if said is None else (seat, BID if said == BID.wire
                                                  else PASS_SPEAK)
            if self.step == NAME:
                named = view["named"][seat]
                if named is None:
                    return None
                return seat, NAMES.get(named, PASS_SPEAK)
            if self.game == RUFSPIEL:
                called = view.get("called")
                return None if called is None else (seat, CALLS[called])
            trump = view.get("trump")
            return None if trump is None else (seat, CHOICES[trump])
        if self.phase == self.play_phase:
            if view.get("kontra") is not None and self.kontra is None:
                return int(view["kontra"]), KONTRA
            if view.get("retour") is not None and self.retour is None:
                return int(view["retour"]), RETOUR
        return None

    @classmethod
    def from_view(cls, view: dict[str, Any], hidden: dict[str, list[str]],
                  tricks: list[Trick] | None = None, seed: int | str | None = None
                  ) -> SchafkopfClassicMatch:
        """The deal ``view`` shows, rebuilt with the hidden hands of ``hidden``: its
        start, what was said (:meth:`told`), then the cards, each checked (ValueError:
        the world does not fit the deal's course)."""
        match = cls.at_deal_start(view, hidden, tricks, seed)
        while (said := match.told(view)) is not None:
            match.simulate(*said)
        match.replay(cls.deal_plays(view, tricks))
        return match

    # ----- views ---------------------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        # every container below is new or a copy (fresh_views)
        view = self.view_header(seat)
        shown = {self.turn} if self.turn is not None else set()
        if seat is not None and self.double_action(seat) is not None:
            shown.add(seat)  # its own button; the others' would tell the partner
        partner = self.partner if self.revealed or (seat is not None and seat == self.partner
                                                    ) else None
        view.update({
            "to_act": sorted(shown),
            "forehand": self.forehand,
            "turn": self.turn,
            "step": self.step,
            "said": list(self.said),
            "named": list(self.named),
            "best": self.best,
            "declared": self.game,
            "declarer": self.declarer,
            "called": self.called,
            "trump": self.trump,
            "partner": partner,
            "kontra": self.kontra,
            "retour": self.retour,
            "leader": self.leader,
            "trick": self.trick_plays(),
            "last_trick": self.last_trick_view(),  # the match's last too, once over
            "tricks_won": list(self.won),
            "points_taken": list(self.taken),
            "hand_counts": [len(h) for h in self.hands],
            "tariff": {"rufspiel": self.options["rufspiel_cents"],
                       "solo": self.options["solo_cents"],
                       "extra": self.options["extra_cents"]},
            "deals": self.options["deals"],
            "played": self.played,
            "results": self.record_copy("results", self.results),
            # the table's choices the tariff does not show (public to every seat)
            "rules": {name: self.options[name] for name in RULES_SHOWN},
        })
        if seat is not None:
            view["hand"] = self.sort_hand(self.hands[seat])
        return view


#: the registry's entry (found by app.games)
INFO = GameInfo.of(
    SchafkopfClassicMatch,
    title=N_("Schafkopf"),
    blurb=N_("The Bavarian classic: an auction, a partner called by a Sau who stays "
             "secret until it shows, Wenz and Solo, Kontra and Retour, paid in cents."),
    position=15,  # next to the rotating Schafkopf; first for German visitors
    host_can_end=True,
    ledger=CENTS,  # the server keeps the settlement (Abrechnung) in the database
    first_for=("de",),
)

__all__ = ["INFO", "SchafkopfClassicMatch"]
