"""Every table state of every game draws for every seat and a spectator: random
matches with each variant, rendered after every action (no server needed)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.games import new_match
from app.rooms.room import Room, Seat
from app.web.render import render_frame

VARIANTS: list[tuple[str, int, dict[str, Any]]] = [
    ("schafkopf", 4, {}),
    ("beutelschneider", 3, {}),
    ("beutelschneider", 4, {}),
    ("mauscheln", 3, {}),
    ("mauscheln", 4, {"knock": True, "quartets": True, "belli": True}),
    ("mauscheln", 5, {"knock": True, "weli": True}),
    ("mauscheln", 7, {"quartets": True}),
    ("luegenbeutel", 2, {}),
    ("luegenbeutel", 3, {"reveal_all": True}),
    ("luegenbeutel", 5, {"lb_card": True}),
]


@pytest.mark.parametrize(("game", "players", "options"), VARIANTS,
                         ids=[f"{g}-{n}-{'-'.join(o) or 'plain'}" for g, n, o in VARIANTS])
def test_every_state_draws_for_every_seat(game: str, players: int,
                                          options: dict[str, Any]) -> None:
    room = Room(id="r", game=game, players=players, options=options, host_token_hash="h")
    room.seats = [Seat(index=i, name=f"P<{i}>", token_hash=str(i)) for i in range(players)]
    room.match = new_match(game, players, dict(options, dealer=0), seed=players)
    rng = random.Random(players)
    for step in range(400):
        match = room.match
        for seat in [None, *range(players)]:
            html = render_frame(room, seat, is_host=seat == 0)
            assert 'id="version"' in html and "<P<" not in html
        if match.is_over:
            break
        seat = rng.choice(sorted(match.to_act()))
        match.apply(seat, rng.choice(match.legal_actions(seat)))
        room.version = step + 1
