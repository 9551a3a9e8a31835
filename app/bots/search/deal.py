"""Dealing unseen cards into hidden places (other hands, a stock, set-aside cards)
so that every place gets exactly its count and no place gets a card it is known not
to hold (a void shown in play, a duty not met).

The result is a uniform random permutation when there are no exclusions (every
place then receives a uniform random subset), and close to uniform over the
consistent deals otherwise: the most constrained cards go first, each into a
place drawn with probability proportional to its free room; a dead end restarts,
and after a few restarts an exact method checks Hall's condition before every
step, so a consistent deal is always found when one exists.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations

Place = str  # a hidden place: 'hand:2', 'stock', 'removed', ...

GREEDY_TRIES = 30


class Inconsistent(ValueError):
    """No deal satisfies the counts and exclusions (the view and the history do not
    fit together, e.g. a trick the history missed)."""


def _eligible(card: str, places: Sequence[Place],
              excluded: Mapping[Place, set[str]]) -> tuple[Place, ...]:
    return tuple(p for p in places if card not in excluded.get(p, ()))


def feasible(cards: Sequence[str], room: Mapping[Place, int],
             excluded: Mapping[Place, set[str]]) -> bool:
    """Whether ``cards`` can fill every place exactly (Hall's condition for a
    transportation problem: every set of places must be able to take every card
    that may go nowhere else)."""
    places = [p for p in room if room[p] > 0]
    if sum(room[p] for p in places) != len(cards):
        return False
    classes = Counter(_eligible(c, places, excluded) for c in cards)
    if () in classes:
        return False
    index = {p: i for i, p in enumerate(places)}
    masks: Counter[int] = Counter()
    for elig, n in classes.items():
        mask = 0
        for p in elig:
            mask |= 1 << index[p]
        masks[mask] += n
    full = (1 << len(places)) - 1
    if len(masks) == 1 and full in masks:
        return True
    caps = [room[p] for p in places]
    for size in range(1, len(places)):
        for subset in combinations(range(len(places)), size):
            sub = 0
            for i in subset:
                sub |= 1 << i
            need = sum(n for mask, n in masks.items() if mask & ~sub == 0)
            if need > sum(caps[i] for i in subset):
                return False
    return True


def deal(cards: Sequence[str], room: Mapping[Place, int],
         excluded: Mapping[Place, set[str]] | None,
         rng: random.Random) -> dict[Place, list[str]]:
    """Distribute ``cards`` (a multiset) so that place ``p`` gets ``room[p]`` of them
    and none of ``excluded[p]``. Raises :class:`Inconsistent` if impossible."""
    excluded = excluded or {}
    places = list(room)
    if sum(room.values()) != len(cards) or any(n < 0 for n in room.values()):
        raise Inconsistent(f"{len(cards)} cards for {sum(room.values())} places")
    constrained = any(excluded.get(p) for p in places)
    if not constrained:
        pile = list(cards)
        rng.shuffle(pile)
        out: dict[Place, list[str]] = {}
        at = 0
        for p in places:
            out[p] = pile[at:at + room[p]]
            at += room[p]
        return out
    eligible = {c: _eligible(c, places, excluded) for c in set(cards)}
    for _ in range(GREEDY_TRIES):
        got = _greedy(cards, room, eligible, rng)
        if got is not None:
            return got
    return _exact(cards, room, excluded, eligible, rng)


def _order(cards: Sequence[str], eligible: Mapping[str, tuple[Place, ...]],
           rng: random.Random) -> list[str]:
    pile = list(cards)
    rng.shuffle(pile)
    pile.sort(key=lambda c: len(eligible[c]))  # stable: random among equals
    return pile


def _pick(options: Sequence[Place], free: Mapping[Place, int],
          rng: random.Random) -> Place | None:
    total = sum(free[p] for p in options)
    if total <= 0:
        return None
    x = rng.randrange(total)
    for p in options:
        x -= free[p]
        if x < 0:
            return p
    return None  # pragma: no cover - unreachable


def _greedy(cards: Sequence[str], room: Mapping[Place, int],
            eligible: Mapping[str, tuple[Place, ...]],
            rng: random.Random) -> dict[Place, list[str]] | None:
    free = dict(room)
    out: dict[Place, list[str]] = {p: [] for p in room}
    for card in _order(cards, eligible, rng):
        place = _pick(eligible[card], free, rng)
        if place is None:
            return None
        out[place].append(card)
        free[place] -= 1
    for p in out:
        rng.shuffle(out[p])
    return out


def _exact(cards: Sequence[str], room: Mapping[Place, int],
           excluded: Mapping[Place, set[str]],
           eligible: Mapping[str, tuple[Place, ...]],
           rng: random.Random) -> dict[Place, list[str]]:
    if not feasible(cards, room, excluded):
        raise Inconsistent("no deal fits what this seat has seen")
    free = dict(room)
    out: dict[Place, list[str]] = {p: [] for p in room}
    rest = _order(cards, eligible, rng)
    while rest:
        card = rest.pop(0)
        options = [p for p in eligible[card] if free[p] > 0]
        rng.shuffle(options)
        options.sort(key=lambda p: -free[p])
        for place in options:
            free[place] -= 1
            if feasible(rest, free, excluded):
                out[place].append(card)
                break
            free[place] += 1
        else:  # pragma: no cover - feasibility was checked before every step
            raise Inconsistent("no deal fits what this seat has seen")
    for p in out:
        rng.shuffle(out[p])
    return out
