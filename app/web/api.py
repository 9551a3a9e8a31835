"""The JSON API: everything the browser can do, for scripts and home-made bots.

It goes through the same room service as the table WebSocket. Authenticate a
seat with ``Authorization: Bearer <seat token>`` (from ``join``) and the host
with the ``host_token`` from room creation.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from app.config import get_settings
from app.games import GAMES, Option
from app.i18n import _
from app.rooms import presence
from app.rooms.errors import BadRequest, Unauthorized
from app.rooms.table_options import TABLE_OPTIONS
from app.web.deps import Service, bearer_token
from app.web.limits import client_key

router = APIRouter(prefix="/api", tags=["api"])


class CreateRoom(BaseModel):
    game: str = Field(examples=list(GAMES)[:1])
    players: int | None = Field(None, description="number of seats; default: the game's minimum")
    options: dict[str, Any] = Field(
        default_factory=dict, examples=[{"target": 11, "away_seconds": 45}],
        description="the game's options and the table's own (``table_options`` of "
                    "GET /api/games), such as ``away_seconds``")
    seed: int | None = Field(
        None, ge=0, lt=2**63,
        description="deterministic deck (only when the server allows seeded rooms)")


class Created(BaseModel):
    room: str
    url: str
    host_token: str


class Join(BaseModel):
    name: str = Field(max_length=200, examples=["Vroni"])


class Joined(BaseModel):
    seat: int
    token: str


class Action(BaseModel):
    action: str = Field(max_length=200, examples=["play:EO"])
    version: int


class TableState(BaseModel):
    version: int
    view: dict[str, Any]
    legal: list[str]
    seats: list[str | None]
    status: str


class GameOption(BaseModel):
    name: str
    label: str
    kind: str
    default: Any
    minimum: int | None
    maximum: int | None


class GameEntry(BaseModel):
    name: str
    title: str
    min_players: int
    max_players: int
    default_options: dict[str, Any]
    options: list[GameOption]
    table_options: list[GameOption] = Field(
        default_factory=list,
        description="options of the table itself, the same for every game (clock, "
                    "away_seconds, pacing), given in the same ``options`` of POST /api/rooms")


class ErrorBody(BaseModel):
    error: str


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 413, 422, 429, 503)
}


def _option(o: Option) -> GameOption:
    return GameOption(name=o.name, label=o.label, kind=o.kind, default=o.default,
                      minimum=o.minimum, maximum=o.maximum)


@router.get("/games", response_model=list[GameEntry])
async def list_games() -> list[GameEntry]:
    """The games this server offers, with their player counts and options (titles and
    labels in the language of ``Accept-Language``; English without one)."""
    return [
        GameEntry(
            name=g.name, title=_(g.title), min_players=g.min_players, max_players=g.max_players,
            default_options=g.default_options,
            options=[_option(o) for o in g.options],
            table_options=[_option(o) for o in TABLE_OPTIONS],
        )
        for g in GAMES.values()
    ]


@router.post("/rooms", response_model=Created, status_code=201, responses=ERRORS)
async def create_room(body: CreateRoom, request: Request, service: Service) -> Created:
    """Open a room. Keep ``host_token``: it starts the match."""
    if body.seed is not None and not get_settings().allow_seeded_rooms:
        raise BadRequest("This server does not allow seeded rooms.")
    request.app.state.limits.room_created(client_key(request))
    room, host_token = await service.create(game=body.game, players=body.players,
                                            options=body.options, seed=body.seed)
    return Created(room=room.id, url=str(request.url_for("room_page", room_id=room.id)),
                   host_token=host_token)


@router.post("/rooms/{room_id}/join", response_model=Joined, responses=ERRORS)
async def join_room(room_id: str, body: Join, request: Request, service: Service) -> Joined:
    """Take the next free seat. Keep ``token``: it is this seat's secret."""
    service.get(room_id)  # an unknown room is a 404, not a use of the join rate
    request.app.state.limits.joined(client_key(request))
    seat, token = await service.join(room_id, body.name)
    presence.seen(service.get(room_id), seat)
    return Joined(seat=seat, token=token)


@router.post("/rooms/{room_id}/start", response_model=TableState, responses=ERRORS)
async def start_room(room_id: str, request: Request, service: Service) -> TableState:
    """Start the match (host only, every seat taken). Returns the spectator view."""
    await service.start(room_id, bearer_token(request))
    return TableState(**service.get(room_id).state(None))


class BotSeated(BaseModel):
    seat: int


@router.post("/rooms/{room_id}/bots", response_model=BotSeated, responses=ERRORS)
async def add_bot(room_id: str, request: Request, service: Service) -> BotSeated:
    """Seat a bot in the next free seat (host only)."""
    return BotSeated(seat=await service.add_bot(room_id, bearer_token(request)))


@router.post("/rooms/{room_id}/end", response_model=TableState, responses=ERRORS)
async def end_room(room_id: str, request: Request, service: Service) -> TableState:
    """End a game that has no natural end (host only; games whose ``host_can_end``):
    the deal in progress is called off and the match is scored as it stands."""
    await service.end_match(room_id, bearer_token(request))
    return TableState(**service.get(room_id).state(None))


@router.get("/rooms/{room_id}/view", response_model=TableState, responses=ERRORS)
async def room_view(room_id: str, request: Request, service: Service) -> TableState:
    """The view of the seat whose token is given, or the spectator view without one."""
    room = service.get(room_id)
    seat = service.seat_for(room, bearer_token(request))
    if seat is not None:  # a person reading their table over the API is at the table
        presence.seen(room, seat)
        service.bots.wake(room)
    return TableState(**room.state(seat))


@router.post("/rooms/{room_id}/actions", response_model=TableState, responses=ERRORS)
async def room_action(room_id: str, body: Action, request: Request,
                      service: Service) -> TableState:
    """Play one of your ``legal`` actions, naming the ``version`` of the view it was
    made from: 409 when the table has moved on, 422 when the action is not legal."""
    room = service.get(room_id)
    token = bearer_token(request)
    if token is None:
        raise Unauthorized("Acting needs your seat token: 'Authorization: Bearer <token>'.")
    seat = service.seat_for(room, token)
    assert seat is not None
    presence.seen(room, seat)
    await service.act(room_id, seat, body.action, body.version)
    return TableState(**room.state(seat))
