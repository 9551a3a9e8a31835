"""Rendering: one path from (room, seat) to the HTML that seat may see.

Every fragment carries a stable id and ``hx-swap-oob`` so the htmx WebSocket
extension swaps each into place; the first page load renders the very same
fragments, so a reload and a push can never disagree.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.templating import Jinja2Templates
from markupsafe import Markup

from app.games import GAMES
from app.rooms.room import Room
from app.web.cards import face, is_trump, suit_label

ROOT = Path(__file__).resolve().parents[2]
templates = Jinja2Templates(directory=str(ROOT / "templates"))
env = templates.env
env.globals.update(GAMES=GAMES, face=face, suit_label=suit_label, is_trump=is_trump)


def _vals(**values: Any) -> Markup:
    """hx-vals JSON, escaped for an attribute."""
    return Markup.escape(json.dumps(values, separators=(",", ":")))


env.globals["vals"] = _vals


def table_context(room: Room, seat: int | None, is_host: bool) -> dict[str, Any]:
    state = room.state(seat)
    view = state["view"]
    legal = state["legal"]
    playable = {a[5:]: a for a in legal if a.startswith("play:")}
    order = list(range(room.players))
    if seat is not None:  # opponents clockwise from my left, me last
        order = [(seat + i) % room.players for i in range(1, room.players)] + [seat]
    return {
        "room": room, "seat": seat, "is_host": is_host, "view": view, "legal": legal,
        "playable": playable, "version": state["version"], "names": room.names(),
        "info": GAMES[room.game], "order": order, "status": room.status,
        "game": room.game, "window_ms": int(room.window_left() * 1000),
    }


def render_frame(room: Room, seat: int | None, is_host: bool) -> str:
    ctx = table_context(room, seat, is_host)
    return env.get_template("table/frame.html").render(ctx, oob=True)


def render_flash(message: str, kind: str = "error") -> str:
    return env.get_template("table/flash.html").render(message=message, kind=kind, oob=True)


ACTION_LABELS: dict[str, str] = {
    "mauschel": "Mauschel!", "pass": "Pass", "join": "Join in", "fold": "Fold",
    "knock": "Knock", "no_knock": "Don't knock", "end": "End my turn", "accept": "No challenge",
}


def action_label(game: str, action: str) -> str:
    if game == "luegenbeutel" and action == "pass":
        return "Pass (draw a card)"
    return ACTION_LABELS.get(action, action)


def _startingwith(value: str, prefix: str) -> bool:
    return value.startswith(prefix)


env.globals["action_label"] = action_label
env.tests["startingwith"] = _startingwith
