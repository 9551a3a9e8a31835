"""The chat as HTML: the whole panel on page load, and over the socket either one
new line appended to ``#chat-log`` (``hx-swap-oob="beforeend"``: nothing else is
drawn again) or the log and the controls replaced (on connecting, and when the host
flips the spectators' switch)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.rooms.chat import CHAT_MAX, REACTIONS, ChatMessage, TableChat
from app.rooms.room import Room
from app.web.render import env


def chat_context(room: Room, seat: int | None, is_host: bool,
                 messages: Sequence[ChatMessage]) -> dict[str, Any]:
    player = room.seats[seat] if seat is not None else None
    may_write = (player is not None and not player.is_bot) if seat is not None else (
        TableChat.spectators_may_write(room))
    return {"room": room, "seat": seat, "my_name": player.name if player is not None else None,
            "is_host": is_host, "chat_messages": list(messages),
            "may_write": may_write and not room.closed, "reactions": REACTIONS,
            "chat_max": CHAT_MAX, "spectators_write": TableChat.spectators_may_write(room)}


def render_chat_line(message: ChatMessage, my_name: str | None) -> str:
    """One new line for a viewer called ``my_name`` (None: a spectator): a seat's
    lines are the viewer's own ("mine") by the name they were written under, so they
    stay theirs when the host swaps seats."""
    return env.get_template("table/chat_push.html").render(message=message,
                                                           my_name=my_name).strip()


def render_chat_state(room: Room, seat: int | None, is_host: bool,
                      messages: Sequence[ChatMessage]) -> str:
    ctx = chat_context(room, seat, is_host, messages)
    log = env.get_template("table/chat_push.html").render(ctx, message=None)
    controls = env.get_template("table/chat_controls.html").render(ctx, oob=True)
    return log + controls
