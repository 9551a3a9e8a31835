"""Checks every engine must pass, shared by the per-game test modules.

Each helper drives a match only through the docs/engine.md surface, the way the server,
the bots and the benchmarks do.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.games import IllegalAction, Match, restore

MALFORMED_ACTIONS: list[Any] = [
    None, 7, b"play:x", "", " ", "play:", "play: ", "PLAY", "nonsense", "x" * 10_000,
    ["play:x"], {"action": "x"},
]


def card_codes(obj: Any, codes: set[str] | frozenset[str]) -> set[str]:
    """Every card code (a string in ``codes``) anywhere in a JSON-like value."""
    if isinstance(obj, str):
        return {obj} if obj in codes else set()
    if isinstance(obj, dict):
        return set().union(*(card_codes(k, codes) | card_codes(v, codes)
                             for k, v in obj.items()))
    if isinstance(obj, list):
        return set().union(*(card_codes(v, codes) for v in obj))
    return set()


def random_step(m: Match, rng: random.Random) -> tuple[int, str]:
    """One random legal action of one seat that may act now."""
    seat = rng.choice(sorted(m.to_act()))
    action = rng.choice(m.legal_actions(seat))
    return seat, action


def act(m: Match, moves: str) -> list[dict[str, Any]]:
    """Apply moves written as ``seat:action`` separated by spaces."""
    events: list[dict[str, Any]] = []
    for move in moves.split():
        seat, action = move.split(":", 1)
        events += m.apply(int(seat), action)
    return events


def advance(m: Match, rng: random.Random, steps: int) -> None:
    """Play up to ``steps`` random legal actions (fewer if the match ends)."""
    for _ in range(steps):
        if m.is_over:
            return
        m.apply(*random_step(m, rng))


def play_random(m: Match, rng: random.Random, max_steps: int = 20_000,
                until: Any = None) -> list[tuple[int, str]]:
    """Play random legal actions until the match is over (or ``until(m)`` is true)."""
    done: list[tuple[int, str]] = []
    for _ in range(max_steps):
        if m.is_over or (until is not None and until(m)):
            return done
        assert m.to_act(), "a running match always has someone to act"
        seat, action = random_step(m, rng)
        m.apply(seat, action)
        done.append((seat, action))
    raise AssertionError("the match did not end")


def state_of(m: Match) -> str:
    return json.dumps(m.snapshot(), sort_keys=True)


def assert_refused_unchanged(m: Match, seat: Any, action: Any) -> None:
    """``action`` raises IllegalAction and leaves the match exactly as it was."""
    before = state_of(m)
    with pytest.raises(IllegalAction) as info:
        m.apply(seat, action)
    assert str(info.value), "the refusal carries a readable message"
    assert state_of(m) == before


def check_illegal_and_malformed(m: Match, rng: random.Random) -> None:
    """Malformed actions, foreign seats and other seats' actions all change nothing."""
    for bad in MALFORMED_ACTIONS:
        for seat in sorted(m.to_act()) or [0]:
            assert_refused_unchanged(m, seat, bad)
    for bad_seat in (None, -1, m.players, True, "0", 1.0):
        assert_refused_unchanged(m, bad_seat, "pass")
    acting = m.to_act()
    for seat in range(m.players):
        legal = set(m.legal_actions(seat))
        if seat not in acting:
            assert not legal, "a seat that may not act has no legal actions"
        for other in range(m.players):
            for action in m.legal_actions(other):
                if action not in legal:
                    assert_refused_unchanged(m, seat, action)


def check_snapshot_roundtrip(m: Match, rng_seed: int, steps: int) -> None:
    """snapshot -> JSON -> restore continues exactly like the original; the JSON
    text the server stores (``snapshot_json``) is the snapshot's."""
    assert json.loads(m.snapshot_json()) == json.loads(json.dumps(m.snapshot()))
    copy = restore(json.loads(m.snapshot_json()))
    assert state_of(copy) == state_of(m)
    a, b = random.Random(rng_seed), random.Random(rng_seed)
    for _ in range(steps):
        if m.is_over:
            break
        seat_a, action_a = random_step(m, a)
        seat_b, action_b = random_step(copy, b)
        assert (seat_a, action_a) == (seat_b, action_b)
        assert m.apply(seat_a, action_a) == copy.apply(seat_b, action_b)
        for seat in [None, *range(m.players)]:
            assert m.view(seat) == copy.view(seat)
    assert state_of(copy) == state_of(m)
