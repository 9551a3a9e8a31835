"""The strong Lügenbeutel bot learns each other seat's ways from what its own seat
sees (app.bots.luegenbeutel.Habits, kept in the search's History): a seat seen
dumping its hand is believed to lie more often, a seat whose dumps turned over true
cards early and lies late is believed to lay true cards first, the worlds of the
search deal that seat's open turn accordingly, what was learned survives the trip
through plain data (the bot pool's memory), and nothing hidden from the seat goes
into it: the spectator's views of the same play teach the same."""

from __future__ import annotations

import json
import random
from typing import Any

from app.bots import luegenbeutel
from app.bots.luegenbeutel import DUMPERS, DUMPERS_IN_ORDER, Habits, SeatHabits
from app.bots.search import History, sample_worlds
from app.games import Match, new_match
from app.games.luegenbeutel import is_true

GAME = "luegenbeutel"
DUMPER = 1  # the seat that lays its whole hand every turn


def _dump_turn(m: Match, seat: int) -> str:
    """Lay every card, true ones first; then end the turn."""
    view, legal = m.view(seat), m.legal_actions(seat)
    if view["passed"]:
        return "end"
    lays = [a for a in legal if a.startswith("lay:")]
    true = [a for a in lays if is_true(a[4:], str(view["number"]))]
    return (true or lays or ["end"])[0]


def _play(seed: int, steps: int) -> list[Match]:
    """A table of four: seat 1 dumps, the others play the house bot; the match after
    every step (copies), as seat 0 and the spectator would have seen it."""
    m = new_match(GAME, 4, {"target": 10_000, "dealer": 0}, seed=seed)
    rng = random.Random(seed)
    seen = [m.copy()]
    for _ in range(steps):
        view = m.view(None)
        accused = view["challenge"]["accused"]
        acted = False
        if accused is not None:
            for seat in sorted(m.to_act(), key=lambda s: (s - accused) % 4):
                if seat == view["turn"] and view["phase"] == "play":
                    continue
                answer = (None if seat == DUMPER else
                          luegenbeutel.optional(m.view(seat), m.legal_actions(seat), rng))
                if answer is None and view["phase"] == "challenge":
                    answer = "accept"
                if answer is not None:
                    m.apply(seat, answer)
                    acted = True
                    break
        if not acted:
            seat = view["turn"]
            action = (_dump_turn(m, seat) if seat == DUMPER else
                      luegenbeutel.choose(m.view(seat), m.legal_actions(seat), rng))
            m.apply(seat, action)
        seen.append(m.copy())
    return seen


def _learned(views: list[dict[str, Any]], seat: int | None = None) -> History:
    history = History()
    for view in views:
        history.observe(view, seat)
    return history


def _open_claim(seed: int, count: int) -> dict[str, Any]:
    """Seat 0's view of seat 1 (forehand) laying ``count`` cards in one claim."""
    m = new_match(GAME, 4, {"dealer": 0}, seed=seed)
    for card in m.view(1)["hand"][:count]:
        m.apply(1, "lay:" + card)
    m.apply(1, "end")
    return m.view(0)


def test_a_seat_seen_dumping_is_believed_to_lie_more_often() -> None:
    matches = _play(seed=3, steps=300)
    history = _learned([m.view(0) for m in matches])
    dumper = history.habits.of(DUMPER)
    assert dumper is not None and dumper.claims >= 3
    assert dumper.dumpers() > 2 * DUMPERS
    others = [history.habits.of(s) for s in (2, 3)]
    assert all(h is None or h.dumpers() < dumper.dumpers() for h in others)
    # a claim of three cards from ten: plausible from anybody, likelier a lie from it
    view = _open_claim(seed=5, count=3)
    believed, learned = luegenbeutel.lie_chances(view), luegenbeutel.lie_chances(view, dumper)
    assert learned["all"] > believed["all"]
    assert learned[1] > believed[1]


def test_true_cards_turned_over_early_and_lies_late_say_true_cards_come_first() -> None:
    orderly, shuffled = SeatHabits(), SeatHabits()
    for _ in range(3):
        orderly.claim(10, 10, "4")
        orderly.turned_over(10, 10, "4", 2, lie=False)  # a true card early
        orderly.turned_over(10, 10, "4", 9, lie=True)  # a lie late
        shuffled.claim(10, 10, "4")
        shuffled.turned_over(10, 10, "4", 10, lie=False)  # a true card last
    assert orderly.in_order() > DUMPERS_IN_ORDER > shuffled.in_order()
    # the round-end call aims later into an orderly dumper's claim
    m = new_match(GAME, 4, {"dealer": 0}, seed=11)
    for card in m.view(1)["hand"]:
        m.apply(1, "lay:" + card)
    m.apply(1, "end")
    view = m.view(2)
    assert view["phase"] == "challenge"
    legal = m.legal(2)
    chances = luegenbeutel.lie_chances(view, orderly)
    assert chances[10] > chances[1]
    assert chances[10] > luegenbeutel.lie_chances(view)[10]
    plain = luegenbeutel._round_end(view, legal)
    aware = luegenbeutel._round_end(view, legal, orderly)
    assert getattr(aware, "position", 0) >= getattr(plain, "position", 0)


def test_the_worlds_deal_a_dumper_more_lies() -> None:
    matches = _play(seed=3, steps=300)
    history = _learned([m.view(0) for m in matches])
    view = _open_claim(seed=5, count=3)
    fresh = History()
    fresh.observe(view)
    history.observe(view)

    def lies(h: History) -> int:
        worlds = sample_worlds(GAME, view, 300, seed=9, history=h)
        return sum(any(not is_true(c, "1") for c in w.hidden["open"]) for w in worlds)

    assert lies(history) > lies(fresh)


def test_what_was_learned_survives_plain_data_and_counts_once() -> None:
    matches = _play(seed=3, steps=200)
    views = [m.view(0) for m in matches]
    history = _learned(views)
    assert history.habits.seats
    again = History.from_state(json.loads(json.dumps(history.state())))
    assert again.habits.state() == history.habits.state()
    for seat, habits in history.habits.seats.items():
        kept = again.habits.of(seat)
        assert kept is not None
        assert (kept.dumpers(), kept.in_order()) == (habits.dumpers(), habits.in_order())
    # the same views seen again (a second process, the same memory) teach nothing new
    for view in views[-20:]:
        again.observe(view)
    assert again.habits.state()["seats"] == history.habits.state()["seats"]
    # kept into the next round, forgotten for another seat
    assert Habits.from_state(None).seats == {}
    other = History.from_state(history.state())
    other.observe(matches[-1].view(2))
    assert other.habits.state() == _learned([matches[-1].view(2)]).habits.state()
    assert other.habits.state() != history.habits.state()


def test_nothing_hidden_is_learned() -> None:
    """The seat's own views, its views with its hand swapped for other cards, and
    the spectator's views of the same play (no hand at all) teach the same."""
    matches = _play(seed=4, steps=250)
    own = _learned([m.view(0) for m in matches]).habits.state()
    rng = random.Random(1)
    swapped = []
    for m in matches:
        view = m.view(0)
        view["hand"] = sorted(rng.sample(view["hand"] + m.view(2)["hand"], len(view["hand"])))
        swapped.append(view)
    assert _learned(swapped).habits.state() == own
    spectator = _learned([m.view(None) for m in matches], seat=0).habits.state()
    assert spectator == own
    assert own["seats"], "something was learned"
