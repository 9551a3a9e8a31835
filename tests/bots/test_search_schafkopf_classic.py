"""The classic Schafkopf's search bot (issue 27): legal answers through whole seeded
matches under every option, worlds that fit what the seat's view says (and only
that), the auction weighed by plans, and the engine's world hooks it stands on."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from app.bots import schafkopf_classic as house
from app.bots.api import SearchBot
from app.bots.search import History, search
from app.bots.search.deal import deal
from app.bots.search.schafkopf_classic import SEARCH, SILENT, STEP
from app.games.cards import SCHAFKOPF_DECK
from app.games.schafkopf_classic import SchafkopfClassicMatch

GAME = SchafkopfClassicMatch.name
PLAYERS = 4
PACKAGE = SimpleNamespace(GAMES={GAME: SEARCH}, SILENCE={GAME: SILENT}, History=History,
                          search=search)
OPTION_SETS = [
    {},
    {"geier": True, "all_pass": "ramsch"},
    {"tout": False, "kontra": False},
    {"geier": True, "rufspiel_cents": 20, "solo_cents": 100, "extra_cents": 0},
]


def search_bot(seed: int, samples: int = 3) -> SearchBot:
    """The search as a room asks it (strict: a failing search fails the test), with
    a fixed number of worlds instead of a time budget (the same answer every run)."""
    return SearchBot(GAME, seed, None, max_samples=samples, strict=True, package=PACKAGE)


class House:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        return house.choose(view, legal, self.rng)

    def choose_optional(self, view: dict[str, Any], legal: list[str]) -> str | None:
        return house.optional(view, legal, self.rng)


def step(m: SchafkopfClassicMatch, bots: list[Any]) -> list[dict[str, Any]]:
    """As the room asks: the seats that may double off turn (clockwise from the
    turn), then the seat on turn; every answer must be legal."""
    turn = m.view(None)["turn"]
    for seat in sorted(m.to_act() - {turn}, key=lambda s: (s - turn) % PLAYERS):
        legal = m.legal_actions(seat)
        answer = bots[seat].choose_optional(m.view(seat), legal)
        assert answer is None or answer in legal, (answer, legal)
        if answer is not None:
            return m.apply(seat, answer)
    legal = m.legal_actions(turn)
    answer = bots[turn].choose(m.view(turn), legal)
    assert answer in legal, (answer, legal)
    return m.apply(turn, answer)


def tricks_of(m: SchafkopfClassicMatch) -> list[list[tuple[int, str]]]:
    return [[(s, c) for s, c in t["plays"]] for t in m.tricks] if m.phase == "play" else []


def house_positions(seed: int, options: dict[str, Any], deals: int = 2):
    """Every (match, seat) of a seeded house-bot match, seat by seat and step by step."""
    m = SchafkopfClassicMatch(PLAYERS, dict(options, deals=deals), seed=seed)
    bots = [House(seed * 4 + s) for s in range(PLAYERS)]
    while not m.is_over:
        for seat in range(PLAYERS):
            yield m, seat
        step(m, bots)


def public(view: dict[str, Any]) -> dict[str, Any]:
    """A view without the earlier deals' records (a world leaves them out)."""
    return {k: v for k, v in view.items() if k not in ("results", "last_deal")}


# ----- the engine's world hooks ----------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS)
def test_the_true_hands_fit_what_the_view_hides(options: dict[str, Any]) -> None:
    """The true hands are one of the worlds ``unseen`` allows, and ``from_view`` with
    them rebuilds the match: every seat's view the same."""
    checked = 0
    for seed in range(6):
        for m, seat in house_positions(seed, options):
            view = m.view(seat)
            tricks = tricks_of(m)
            unseen = SchafkopfClassicMatch.unseen(view, tricks)
            for place, count in unseen.places.items():
                s = int(place.split(":")[1])
                held = [c for c in m.hands[s] if c not in unseen.known.get(place, [])]
                assert len(held) == count
                assert not set(held) & unseen.excluded.get(place, set()), (place, held)
            full = {f"hand:{s}": list(m.hands[s]) for s in range(PLAYERS) if s != seat}
            world = SchafkopfClassicMatch.from_view(view, full, tricks, 1)
            for other in range(PLAYERS):
                assert public(world.view(other)) == public(m.view(other))
            checked += 1
    assert checked > 1000


def test_the_called_sau_is_ruled_out_where_the_course_says_so() -> None:
    """The declarer never holds the Sau he called; a seat that did not play the Sau
    when its suit was first led holds it in no world; a partner shown by his Retour
    holds it in every world (when one happens)."""
    seen = {"declarer": 0, "followed": 0, "retour": 0}
    for seed in range(8):
        for m, seat in house_positions(seed, {"deals": 1}, deals=1):
            if m.called is None or m.phase != "play" or seat == m.partner:
                continue
            view = m.view(seat)
            sau = f"{m.called}A"
            if sau not in SchafkopfClassicMatch.unseen(view, tricks_of(m)).cards and \
                    view["partner"] is None:
                continue
            position = SEARCH.prepare(view, history_of(m, seat))
            worlds = [SEARCH.sample(position, random.Random(k)) for k in range(2)]
            for world in worlds:
                holder = next((s for s, h in enumerate(world.match.hands) if sau in h), None)
                if holder is None:
                    continue  # played already
                assert holder != m.declarer
                seen["declarer"] += 1
                if view["partner"] is not None and view["partner"] != seat:
                    assert holder == view["partner"]
                    seen["retour"] += 1
                for trick in [*tricks_of(m), [(p["seat"], p["card"]) for p in view["trick"]]]:
                    if trick and m.suit(trick[0][1]) == m.called:
                        assert holder not in [s for s, c in trick[1:] if c != sau]
                        seen["followed"] += 1
                        break
    assert seen["declarer"] and seen["followed"], seen  # a Retour before the Sau is rare


def history_of(m: SchafkopfClassicMatch, seat: int) -> History:
    history = History()
    history.observe(m.view(seat))
    for i, trick in enumerate(tricks_of(m)):
        history.tricks[i] = trick
    return history


# ----- worlds ------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(3))
def test_worlds_fit_the_view_and_only_the_view(seed: int) -> None:
    """Every world the search draws shows the seat exactly its view (its hand, what
    was said, the cards played, the partner only once shown); its hidden hands hold
    only unseen cards, none a play ruled out; and no world depends on the true
    hands: the same view and seed give the same worlds."""
    worlds = 0
    for m, seat in house_positions(seed, {"geier": True}, deals=2):
        if m.turn != seat or m.is_over:
            continue
        view = m.view(seat)
        history = history_of(m, seat)
        position = SEARCH.prepare(view, history)
        unseen = position.unseen
        for k in range(3):
            world = SEARCH.sample(position, random.Random(k))
            assert world.match is not None
            assert public(world.match.view(seat)) == public(view)
            for s in range(PLAYERS):
                if s == seat:
                    continue
                hand = world.match.hands[s]
                assert set(hand) <= set(unseen.cards) | set(unseen.known.get(f"hand:{s}", []))
                assert not set(hand) & unseen.excluded.get(f"hand:{s}", set())
            # the same view, other true hands: the same world
            again = SEARCH.sample(SEARCH.prepare(view, history), random.Random(k))
            assert again.hidden == world.hidden
            worlds += 1
    assert worlds > 50


def test_a_void_shown_in_play_is_kept_in_every_world() -> None:
    voids = 0
    for m, seat in house_positions(7, {}, deals=1):
        if m.turn != seat or m.phase != "play" or not m.tricks:
            continue
        view = m.view(seat)
        position = SEARCH.prepare(view, history_of(m, seat))
        for trick in tricks_of(m):
            led = m.suit(trick[0][1])
            for s, card in trick[1:]:
                if s == seat or m.suit(card) == led:
                    continue
                voids += 1
                for k in range(3):
                    world = SEARCH.sample(position, random.Random(k))
                    assert not [c for c in world.match.hands[s] if m.suit(c) == led]
    assert voids > 0


def test_the_same_view_gets_the_same_answer_whatever_is_hidden() -> None:
    """Two deals in which the seat holds the same cards and the others' differ: the
    same seed answers the same, with the same estimates, in the auction and later in
    the play (a world of the first match is the second)."""
    rng = random.Random(3)
    mine = ["EO", "GO", "HU", "HA", "H9", "EA", "GK", "S7"]
    rest = [c for c in SCHAFKOPF_DECK if c not in mine]
    answers = []
    for _ in range(2):
        rng.shuffle(rest)
        hands = [mine, rest[:8], rest[8:16], rest[16:]]
        m = SchafkopfClassicMatch(PLAYERS, {"dealer": 3, "deals": 1}, seed=1,
                                  deals=[{"hands": hands}])
        bot = search_bot(11, samples=6)
        answers.append((bot.choose(m.view(0), m.legal_actions(0)), bot.last_report.means))
    assert answers[0] == answers[1]

    m = SchafkopfClassicMatch(PLAYERS, {"deals": 1}, seed=4)
    bots = [House(s) for s in range(PLAYERS)]
    while m.phase != "play" or len(m.tricks) < 2 or m.turn != 1 or len(m.legal(1)) < 2:
        step(m, bots)
        assert not m.is_over
    view = m.view(1)
    position = SEARCH.prepare(view, history_of(m, 1))
    twin = SEARCH.sample(position, random.Random(5)).match
    assert twin is not None and twin.hands != m.hands
    results = []
    for match in (m, twin):
        bot = search_bot(2, samples=6)
        bot.history = history_of(match, 1)
        results.append((bot.choose(match.view(1), match.legal_actions(1)),
                        bot.last_report.means))
    assert results[0] == results[1]


# ----- decisions -----------------------------------------------------------------------------
@pytest.mark.parametrize("options", OPTION_SETS)
def test_legal_answers_through_whole_matches(options: dict[str, Any]) -> None:
    """The search at two seats (three worlds a decision), the house bot at the
    others: every answer legal, every deal to its end, the cents summing to zero."""
    for seed in range(2):
        m = SchafkopfClassicMatch(PLAYERS, dict(options, deals=3), seed=seed)
        bots: list[Any] = [search_bot(seed * 4 + s) if s % 2 == seed % 2 else House(s)
                           for s in range(PLAYERS)]
        ends = []
        for _ in range(2000):
            if m.is_over:
                break
            ends += [e for e in step(m, bots) if e["type"] == "deal_end"]
        assert m.is_over
        assert all(sum(e["cents"]) == 0 for e in ends)
        assert sum(m.scores) == 0


def deal_with(hand: list[str], seed: int = 0) -> SchafkopfClassicMatch:
    """A deal in which seat 0 is forehand (the first to speak) and holds ``hand``."""
    rest = [c for c in SCHAFKOPF_DECK if c not in hand]
    random.Random(seed).shuffle(rest)
    hands = [hand, rest[:8], rest[8:16], rest[16:]]
    return SchafkopfClassicMatch(PLAYERS, {"dealer": 3, "deals": 1}, seed=seed,
                                 deals=[{"hands": hands}])


def test_a_clearly_winning_solo_hand_is_bid() -> None:
    m = deal_with(["EO", "GO", "HO", "SO", "EU", "GU", "EA", "E10"])
    bot = search_bot(1, samples=12)
    assert bot.choose(m.view(0), m.legal_actions(0)) == "bid"
    means = bot.last_report.means
    best = max(means, key=means.__getitem__)
    assert best.split(STEP)[1] in ("class:solo", "class:solo_tout"), means
    assert means[best] > means["pass"]


def test_a_hopeless_hand_passes() -> None:
    m = deal_with(["E7", "E8", "G7", "G8", "G9", "S7", "S8", "S9"])
    bot = search_bot(1, samples=12)
    assert bot.choose(m.view(0), m.legal_actions(0)) == "pass"
    means = bot.last_report.means
    assert max(means.values()) == means["pass"], means  # (a plan may tie: overbid)
    assert all(means[plan] < means["pass"] for plan in means if "solo" in plan), means


def test_the_auction_weighs_every_game_the_seat_may_name() -> None:
    """The plans of the first word: a Rufspiel with each Sau it may call, the Wenz,
    the Geier when the table plays it, a Farbsolo in each suit."""
    hand = ["EO", "GU", "HA", "H9", "EK", "E7", "G9", "SK"]
    for geier in (False, True):
        rest = [c for c in SCHAFKOPF_DECK if c not in hand]
        m = SchafkopfClassicMatch(PLAYERS, {"dealer": 3, "deals": 1, "geier": geier},
                                  seed=0, deals=[{"hands": [hand, rest[:8],
                                                                    rest[8:16], rest[16:]]}])
        options = SEARCH.candidates(m.view(0), m.legal_actions(0))
        assert {"bid>class:rufspiel>call:E", "bid>class:rufspiel>call:G",
                "bid>class:rufspiel>call:S", "bid>class:wenz", "pass"} <= set(options)
        assert {f"bid>class:solo>trump:{s}" for s in "EGHS"} <= set(options)
        assert ("bid>class:geier" in options) == geier
        assert not [o for o in options if "tout" in o]  # a card below a gap in every suit


def test_off_turn_the_search_weighs_silence() -> None:
    """A seat that may say Kontra off turn is searched with staying silent."""
    for seed in range(30):
        m = SchafkopfClassicMatch(PLAYERS, {"deals": 1}, seed=seed)
        bots = [House(s) for s in range(PLAYERS)]
        while m.phase == "auction":
            step(m, bots)
        if m.is_over or m.game is None:
            continue
        others = sorted(m.to_act() - {m.turn})
        if not others:
            continue
        seat = others[0]
        bot = search_bot(seed, samples=4)
        answer = bot.choose_optional(m.view(seat), m.legal_actions(seat))
        assert answer in (None, "kontra")
        assert set(bot.last_report.means) == {"kontra", SILENT}
        return
    pytest.fail("no seat could say Kontra off turn")


def test_deal_respects_what_unseen_rules_out() -> None:
    """The sampler never puts a card where the engine says it cannot be."""
    m = SchafkopfClassicMatch(PLAYERS, {"deals": 1}, seed=9)
    bots = [House(s) for s in range(PLAYERS)]
    while m.phase != "play" or len(m.tricks) < 3:
        step(m, bots)
    unseen = SchafkopfClassicMatch.unseen(m.view(0), tricks_of(m))
    for k in range(50):
        hidden = deal(unseen.cards, unseen.places, unseen.excluded, random.Random(k))
        for place, cards in hidden.items():
            assert not set(cards) & unseen.excluded.get(place, set())
