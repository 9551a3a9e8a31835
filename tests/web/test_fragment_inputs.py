"""Each fragment of the table is drawn from the context it declares
(app.web.fragments), and nothing a seat is given holds a card it may not see.

* What a fragment declares is enough: drawn from its declared context, every fragment
  of every game, in every state of random matches, for every seat, the host and a
  spectator, in both languages, is the HTML drawn from the seat's whole table context.
  A template that read something its fragment (or its game) does not declare would be
  drawn without it, and differ.
* No seat's HTML holds a card of another hand: every card face drawn in any fragment
  of a seat is a card of that seat's own view.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from app import i18n
from app.rooms.room import Room
from app.web.cards import face
from app.web.fragments import (
    FRAGMENTS,
    PLATE_TEMPLATE,
    SEATS,
    Drawn,
    Fragment,
    context_of,
    draw,
    plate_contexts,
    render_fragments,
    shared,
)
from app.web.presentation import Reads, presentation
from app.web.render import table_context
from tests.web.test_push_diffs import _room
from tests.web.test_render_states import VARIANTS

IDS = [f"{g}-{n}-{'-'.join(o) or 'plain'}" for g, n, o in VARIANTS]
FACE_TITLE = re.compile(r'class="card (?!back)[^"]*"[^>]*title="([^"]+)"')


def _states(game: str, players: int, options: dict[str, Any], seed: int,
            steps: int = 160) -> Iterator[Room]:
    """A room after each action of a random match (the first deals and, for short
    games, the end)."""
    room = _room(game, players, options, seed)
    for s in range(0, players, 2):
        room.arrive(s)  # some seats at the table, some away
    match = room.match
    assert match is not None
    rng = random.Random(seed)
    for step in range(steps):
        room.version = step
        room.changed()
        yield room
        if match.is_over:
            return
        seat = rng.choice(sorted(match.to_act()))
        match.apply(seat, rng.choice(match.legal_actions(seat)))


def _whole(fragment: Fragment, ctx: dict[str, Any]) -> str:
    """A fragment drawn from the whole table context of its seat (and the values its
    game works out from the view for it), its parts too."""
    p = ctx["P"]
    language = i18n.get_language()

    def whole(reads: Reads | None) -> dict[str, Any]:
        if reads is None or reads.derived is None:
            return ctx
        return {**ctx, **reads.derived(ctx["view"])}

    reads = p.reads.get(fragment.id) if fragment.game else None
    if fragment.id == SEATS:
        parts = tuple(Drawn(language, PLATE_TEMPLATE, {**ctx, "p": c["p"]},
                            id=f"plate-{c['p'].seat}")
                      for c in plate_contexts(ctx))
    else:  # each drawn when the fragment shows it
        parts = tuple(Drawn(language, part.template, whole(part.reads), id=part.id)
                      for part in (reads.parts if reads is not None else ()))
    return draw(fragment.template, whole(reads), parts)


@pytest.mark.parametrize(("game", "players", "options"), VARIANTS, ids=IDS)
def test_each_fragment_is_drawn_from_what_it_declares(
        game: str, players: int, options: dict[str, Any]) -> None:
    p = presentation(game)
    assert {"board", "status", "actions", "hand", "result"} <= set(p.reads), \
        "the game declares what its templates read"
    compared = 0
    for step, room in enumerate(_states(game, players, options, seed=players)):
        for language in ("en", "de") if step % 5 == 0 else ("en",):
            with i18n.language(language):
                for seat in [None, *range(players)]:
                    ctx = table_context(room, seat, is_host=seat == 0, fresh=True)
                    declared = render_fragments(room, seat, is_host=seat == 0)
                    for fragment in FRAGMENTS:
                        assert declared[fragment.id] == _whole(fragment, ctx), (
                            step, seat, fragment.id)
                        compared += 1
    assert compared > 1000


def test_a_game_that_declares_nothing_is_drawn_from_the_whole_view() -> None:
    """A fragment whose game says nothing of what its template reads (a game
    registered at run time, say) gets the seat's whole context: always right."""
    room = _room("schafkopf", 4, {}, seed=1)
    ctx = table_context(room, 1, False, fresh=True)
    board = next(f for f in FRAGMENTS if f.id == "board")
    bare = presentation("schafkopf").__class__(game="schafkopf", face=face)  # no reads
    assert context_of(board, ctx, bare) == ctx
    declared = context_of(board, ctx, presentation("schafkopf"))
    assert "hand" not in declared["view"] and "legal" not in declared
    assert set(declared["view"]) <= set(ctx["view"])


def _codes(value: Any, deck: frozenset[str]) -> set[str]:
    """Every card code anywhere in a view."""
    return {s for s in re.findall(r'"([^"]+)"', json.dumps(value)) if s in deck}


def _names_one_of(title: str, cards: set[str]) -> bool:
    """Whether a face's title names one of the cards (titled so, or a button's title
    with the card's in brackets: "lay face down as 1 (number 7)")."""
    return title in cards or any(f"({card})" in title for card in cards)


@pytest.mark.parametrize(("game", "players", "options"), VARIANTS, ids=IDS)
def test_no_seat_is_given_a_card_of_another_hand(
        game: str, players: int, options: dict[str, Any]) -> None:
    """Through the room's shared drawings (a fragment drawn for one seat given to
    another whose context is equal), in both languages."""
    deck = presentation(game).deck
    assert deck, "the game's deck is known"
    seen_hidden = 0
    memos: dict[tuple[int | None, str], dict[str, Drawn]] = {}
    for step, room in enumerate(_states(game, players, options, seed=players + 3)):
        match = room.match
        assert match is not None
        cache = shared(room)
        hands = {s: set(match.view(s).get("hand") or ()) for s in range(players)}
        for language in ("en", "de") if step % 4 == 0 else ("en",):
            with i18n.language(language):
                for seat in [*range(players), None]:
                    mine = _codes(match.view(seat), deck)
                    allowed = {face(game, c).title for c in mine}
                    hidden = {face(game, c).title for s, cards in hands.items() if s != seat
                              for c in cards - mine}
                    seen_hidden += len(hidden)
                    parts = cache.parts(room, seat, seat == 0, memos.get((seat, language)))
                    memos[(seat, language)] = parts
                    for fid, drawn in parts.items():
                        for title in set(FACE_TITLE.findall(drawn.html)):
                            assert _names_one_of(title, allowed), (step, seat, fid, title)
                            assert not _names_one_of(title, hidden), (step, seat, fid, title)
    assert seen_hidden > 0, "other hands held cards the seat may not see"
