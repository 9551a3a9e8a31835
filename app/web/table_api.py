"""The JSON API of the table's social side: chat, the spectators' switch, rematch.

Same conventions as :mod:`app.web.api`: ``Authorization: Bearer <token>``, errors
as ``{"error": ...}``; too many chat messages in a short time get 429.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from app.i18n import _
from app.rooms.chat import REACTIONS, ChatMessage
from app.rooms.errors import BadRequest, Unauthorized
from app.web.api import ERRORS, Body
from app.web.deps import Service, bearer_token, public_base
from app.web.share import room_url

router = APIRouter(prefix="/api", tags=["api"])

CHAT_ERRORS: dict[int | str, dict[str, Any]] = {**ERRORS, 429: ERRORS[400]}


class ChatOut(BaseModel):
    seat: int | None = Field(description="the writer's seat; null: a spectator")
    name: str
    text: str = Field(description="the message, or the emoji of a quick reaction")
    at: datetime


class ChatLog(BaseModel):
    messages: list[ChatOut]


class ChatIn(Body):
    text: str | None = Field(None, max_length=2000, examples=["Gut gespielt!"],
                             description="a message of at most 200 characters")
    react: str | None = Field(None, max_length=16, examples=list(REACTIONS[:1]),
                              description="instead of text: one of " + " ".join(REACTIONS))


class SpectatorChat(Body):
    on: bool


class SpectatorChatState(BaseModel):
    spectator_chat: bool


class RematchIn(Body):
    options: dict[str, Any] | None = Field(
        None, description="options to change (the game's and the table's); the rest stay")


class RematchOut(BaseModel):
    room: str
    url: str


def _out(m: ChatMessage) -> ChatOut:
    return ChatOut(seat=m.seat, name=m.name, text=m.text, at=m.at)


@router.get("/rooms/{room_id}/chat", response_model=ChatLog, responses=ERRORS)
async def read_chat(room_id: str, request: Request, service: Service) -> ChatLog:
    """The table's last 100 chat messages and reactions, oldest first. Everyone at the
    table reads them, spectators too (no token needed)."""
    room = service.get(room_id)
    service.seat_for(room, bearer_token(request))  # a token of another table: 403
    return ChatLog(messages=[_out(m) for m in await service.chat.messages(room)])


@router.post("/rooms/{room_id}/chat", response_model=ChatOut, status_code=201,
             responses=CHAT_ERRORS)
async def write_chat(room_id: str, body: ChatIn, request: Request,
                     service: Service) -> ChatOut:
    """Write in the table's chat as your seat (``text``), or react (``react``).
    At most 5 messages in 10 seconds per seat (429 beyond)."""
    room = service.get(room_id)
    token = bearer_token(request)
    if token is None:
        raise Unauthorized(_("Writing in the chat needs your seat token: "
                             "'Authorization: Bearer <token>'."))
    seat = service.seat_for(room, token)
    if (body.text is None) == (body.react is None):
        raise BadRequest(_("Send either a text or a reaction."))
    message = await service.chat.post(room, seat, text=body.text, reaction=body.react)
    return _out(message)


@router.post("/rooms/{room_id}/spectator-chat", response_model=SpectatorChatState,
             responses=ERRORS)
async def spectator_chat(room_id: str, body: SpectatorChat, request: Request,
                         service: Service) -> SpectatorChatState:
    """Let spectators write in the chat, or stop them (host only; they still read)."""
    room = service.get(room_id)
    await service.chat.set_spectator_chat(room, bearer_token(request), body.on)
    return SpectatorChatState(spectator_chat=bool(room.table["spectator_chat"]))


@router.post("/rooms/{room_id}/rematch", response_model=RematchOut, status_code=201,
             responses={**ERRORS, 200: {"model": RematchOut,
                                        "description": "the rematch opened before"}})
async def rematch(room_id: str, request: Request, service: Service,
                  body: RematchIn | None = None) -> Any:
    """Play again with the same people, seats, bots and options (host only, once the
    match is over); ``options`` changes some. Every seat token and the host token stay
    valid at the same seat of the new table, which starts at once. Asking again gives
    the table opened the first time (200)."""
    public_base(request)  # a Host that no link can be made of: 400 before anything
    new, opened = await service.rematch(room_id, bearer_token(request),
                                        body.options if body is not None else None)
    out = RematchOut(room=new.id, url=room_url(request, new.id))
    return out if opened else JSONResponse(out.model_dump(), status_code=200)
