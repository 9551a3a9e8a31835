"""Classic Schafkopf search: the seat's cents of the deal, the auction included.

A world deals the cards the seat cannot see to the three other hands, with what
the engine says the deal's course rules out
(:meth:`~app.games.schafkopf_classic.SchafkopfClassicMatch.unseen`: a seat that did
not follow suit holds none of it; the declarer of a Rufspiel does not hold the
called Sau, nor does a seat that played another card when its suit was first led; a
partner shown by his Retour holds it). The partner stays unknown to a seat that
does not hold the Sau until it shows: a world puts the Sau into one of the hands
that may hold it, and the engine makes that hand the partner. The world is the
engine's own match, rebuilt at the deal's start and replayed
(``at_deal_start``, ``told``, the plays): a world the course does not fit (the
declarer held no card of the suit he called, a lead of the called suit without the
Sau from fewer than four cards of it) fails the engine's check and is drawn again.
While it is replayed, the house bot (:mod:`app.bots.schafkopf_classic`) says for
every word and card of another seat whether it would have said or played it with
the world's hand: a world survives each disagreement with probability ``keep``
(the model of the others: a seat that bid a Solo is likely to hold one).

Rollouts play the deal to its end on the engine with the house bot for every seat;
the seats that may say Kontra or Retour off turn are asked first, clockwise from
the seat on turn, as the room asks them. The result is the seat's cents from the
deal's ``deal_end`` (a deal nobody plays: 0).

In the auction the search weighs *plans*, not single words: to bid (``bid``) is
worth what the best game it could name is worth, so each game the seat may name
(a Rufspiel with each Sau it may call, the Wenz, the Geier, a Farbsolo in each
suit, the Touts, as the table offers them) is a plan of the words it will say
(``bid>class:solo>trump:E``: bid, name the Solo when its turn comes, choose Eichel),
played out on the same worlds as passing. The best plan by mean cents is said
unless the house bot's own plan is within noise of it (:mod:`.core`); only its
first word is answered now, and the next decision is searched afresh.
"""

from __future__ import annotations

import random
from typing import Any

from app.bots import schafkopf_classic as house
from app.bots.search.core import DEAL_END
from app.bots.search.deal import deal
from app.bots.search.playout import HOUSE, Policy
from app.bots.search.tricks import Position, TrickSearch
from app.games import Match
from app.games.actions import (
    BID,
    PASS_SPEAK,
    PLAYS,
    Action,
    CallSau,
    ChooseTrump,
    Kontra,
    NameGame,
    Retour,
    Speak,
)
from app.games.schafkopf_classic import (
    CALLS,
    CHOICES,
    CHOSEN_TRUMP,
    NAMES,
    PARSER,
    RUFSPIEL,
    TOUTS,
    SchafkopfClassicMatch,
    callable_suits,
    layout_of,
)

STEP = ">"  # joins the words of a plan
SILENT = "silent"  # off turn: say neither Kontra nor Retour now
MAX_STEPS = 200  # actions of a deal at most (32 cards, the auction, the doublings)
NAME = SchafkopfClassicMatch.name


def plan_of(words: list[Action]) -> str:
    """A plan as one option of the search: its words' wires joined."""
    return STEP.join(word.wire for word in words)


def words_of(plan: str) -> list[Action]:
    """The typed words of a plan (one legal action is a plan of one word)."""
    return [PARSER.read(wire) or PASS_SPEAK for wire in plan.split(STEP)]


def _doubling(action: Action) -> bool:
    return isinstance(action, Kontra | Retour)


def _auction_word(action: Action) -> bool:
    return isinstance(action, Speak | NameGame | CallSau | ChooseTrump)


def _follow_plan(legal: list[Action], plan: list[Action]) -> Action | None:
    """The word of ``plan`` that fits the auction step ``legal`` offers: the class
    it names (or ``pass`` once that class is no longer open), the Sau or trump it
    chose; None when the plan says nothing of this step."""
    if not plan or not any(_auction_word(a) for a in legal):
        return None
    if any(isinstance(a, CallSau | ChooseTrump) for a in legal):
        return next((w for w in plan if w in legal and isinstance(w, CallSau | ChooseTrump)),
                    None)
    if any(isinstance(a, NameGame) for a in legal) or PASS_SPEAK in legal and BID not in legal:
        named = next((w for w in plan if isinstance(w, NameGame)), None)
        if named is None:
            return PASS_SPEAK if PASS_SPEAK in legal else None
        return named if named in legal else PASS_SPEAK
    return None


def _worth_weighing(hand: list[str], game: str, trump: str | None) -> bool:
    """Whether a plan of ``game`` is worth its worlds: a Tout only with no side card
    below a gap in its suit (as the house bot reads the hand; such a card loses a
    trick to the card above it, and a lost Tout costs twice its value)."""
    if game not in TOUTS:
        return True
    return house.read_hand(hand, layout_of(game, trump)).losers == 0


def play_out(match: SchafkopfClassicMatch, seat: int, plan: list[Action], silent: bool,
             rng: random.Random, policy: Policy = HOUSE) -> dict[str, Any]:
    """``seat`` says the first word of ``plan`` (none if ``silent``: it lets the
    moment pass and doubles no more this deal), then ``policy`` (the house bot unless
    given) plays every seat
    (``seat`` follows the rest of its plan in the auction) to the deal's end;
    returns the ``deal_end`` event."""
    events = [] if silent else match.simulate(seat, plan[0])
    rest = plan[1:]
    for _ in range(MAX_STEPS):
        for event in events:
            if event["type"] == DEAL_END:
                return event
        turn = match.turn
        assert turn is not None
        said: tuple[int, Action] | None = None
        actors = match.to_act()
        if len(actors) > 1:  # seats that may double off turn: clockwise from the turn
            for other in sorted(actors - {turn}, key=lambda s: (s - turn) % match.players):
                if other == seat and silent:
                    continue
                word = policy.decide_optional(NAME, match, other, match.legal(other), rng)
                if word is not None:
                    said = (other, word)
                    break
        if said is None:
            legal = match.legal(turn)
            if turn == seat and silent:
                legal = [a for a in legal if not _doubling(a)]
            word = _follow_plan(legal, rest) if turn == seat else None
            if word is None:
                word = legal[0] if len(legal) == 1 else policy.decide(NAME, match, turn, legal,
                                                                      rng)
            said = (turn, word)
        events = match.simulate(*said)
    raise RuntimeError("a deal did not end")


class SchafkopfClassic(TrickSearch):
    """The search of the classic Schafkopf (see the module's text); its worlds are
    drawn as :class:`~app.bots.search.tricks.TrickSearch` draws them, with the words
    of the deal replayed before the cards."""

    name = SchafkopfClassicMatch.name
    engine = SchafkopfClassicMatch
    keep = 0.3  # a world survives each word or card the house bot would not have chosen
    tries = 12  # draws per world at most (then the most agreeable one)

    # ----- the options of a decision ------------------------------------------------
    def _plans(self, view: dict[str, Any], legal: list[Action]) -> list[str]:
        """Every plan of the auction step ``legal`` offers: a class to name with each
        Sau it may call or each trump suit it may choose; ``bid`` with each class
        the seat may name when its turn to name comes (before anyone named one)."""
        names = [a for a in legal if isinstance(a, NameGame)]
        if BID in legal:
            names = [NAMES[g] for g in self._classes(view)]
        plans: list[str] = []
        hand = view["hand"]
        for named in names:
            start: list[Action] = [BID, named] if BID in legal else [named]
            if named.name == RUFSPIEL:
                plans += [plan_of([*start, CALLS[s]]) for s in callable_suits(hand)]
            elif named.name in CHOSEN_TRUMP:
                plans += [plan_of([*start, choice]) for choice in CHOICES.values()
                          if _worth_weighing(hand, named.name, choice.name)]
            elif _worth_weighing(hand, named.name, None):
                plans.append(plan_of(start))
        return plans

    def _classes(self, view: dict[str, Any]) -> list[str]:
        """The classes the seat could name were it the first to (the engine asks
        the table's options and the seat's hand)."""
        unseen = self.engine.unseen(view, [])
        hidden = deal(unseen.cards, unseen.places, None, random.Random(0))
        probe = self.engine.at_deal_start(view, hidden)
        return probe.classes_open(int(view["seat"]))

    def candidates(self, view: dict[str, Any], legal: list[str]) -> list[str]:
        typed = PARSER.each(a for a in legal if a != SILENT)
        if view.get("phase") == "auction" and any(
                isinstance(a, Speak | NameGame) for a in typed):
            return [PASS_SPEAK.wire, *self._plans(view, typed)]
        return legal

    def answer(self, option: str) -> str:
        """The word to say now for the option the search chose."""
        return option.split(STEP)[0]

    def prior(self, view: dict[str, Any], legal: list[str], rng: random.Random) -> str:
        """The house bot's choice, as the plan it follows in the auction."""
        typed = PARSER.each(a for a in legal if a != SILENT)
        if SILENT in legal:  # off turn
            said = house.decide_optional(view, [a for a in typed if _doubling(a)], rng)
            return SILENT if said is None else said.wire
        choice = house.decide(view, typed, rng)
        if choice == BID:
            game = house.wanted(view["hand"], self._classes(view))
            return self._plan_for(view, [BID, NAMES[game]]) if game else BID.wire
        if isinstance(choice, NameGame):
            return self._plan_for(view, [choice])
        return choice.wire

    def _plan_for(self, view: dict[str, Any], start: list[Action]) -> str:
        """The house bot's plan that begins with ``start``: its Sau or trump suit."""
        named = start[-1]
        assert isinstance(named, NameGame)
        hand = view["hand"]
        if named.name == RUFSPIEL:
            return plan_of([*start, CALLS[house.call_suit(hand, callable_suits(hand))]])
        if named.name in CHOSEN_TRUMP:
            return plan_of([*start, CHOICES[house.best_trump_suit(hand)]])
        return plan_of(start)

    # ----- worlds -------------------------------------------------------------------
    def _replay(self, position: Position, hidden: dict[str, list[str]], seed: int,
                limit: float) -> tuple[Match | None, int]:
        """The world's deal replayed from its start (what was said, then the cards),
        and how many words and cards of the other seats the house bot would not have
        chosen in it; past ``limit`` of them, or where the engine refuses one (the
        world does not fit the course), no match."""
        view, me = position.view, position.seat
        match = self.engine.at_deal_start(view, hidden, position.tricks, seed)
        assert isinstance(match, SchafkopfClassicMatch)
        rng = random.Random(0)
        disagreed = 0
        steps: list[tuple[int, Action]] = []
        while (said := match.told(view)) is not None:
            steps.append(said)
            seat, word = said
            if seat != me:
                legal = match.legal(seat)
                if _doubling(word):
                    chosen = house.decide_optional(match.view(seat),
                                                   [a for a in legal if _doubling(a)], rng)
                else:
                    chosen = house.decide(match.view(seat), legal, rng)
                disagreed += chosen != word
                if disagreed > limit:
                    return None, disagreed
            try:
                match.simulate(seat, word)
            except ValueError:
                return None, -1
        for trick in position.plays:
            for seat, card in trick:
                action = PLAYS[card]
                try:
                    legal = match.legal(seat)
                    if action not in legal:
                        return None, -1
                    if seat != me and len(legal) > 1:
                        plays = [a for a in legal if not _doubling(a)]
                        if len(plays) > 1 and house.decide(match.view(seat), plays,
                                                           rng) != action:
                            disagreed += 1
                            if disagreed > limit:
                                return None, disagreed
                    match.simulate(seat, action)
                except ValueError:
                    return None, -1
        return match, disagreed

    # ----- playing out ---------------------------------------------------------------
    def rollout(self, match: Match, position: Position, action: str,
                rng: random.Random) -> float:
        seat = position.seat
        assert isinstance(match, SchafkopfClassicMatch)
        if action == SILENT:
            end = play_out(match, seat, [], True, rng, self.policy)
        else:
            end = play_out(match, seat, words_of(action), False, rng, self.policy)
        return float(end["cents"][seat])


SEARCH = SchafkopfClassic()  # this game's search, found by name (app.bots.search)
