"""The JSON API: everything the browser can do, for scripts and home-made bots.

It goes through the same room service as the table WebSocket. Authenticate a
seat with ``Authorization: Bearer <seat token>`` (from ``join``) and the host
with the ``host_token`` from room creation.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from app.bots import DEFAULT_LEVEL
from app.config import get_settings
from app.db import repo
from app.games import GAMES, Option
from app.i18n import _
from app.rooms.errors import BadRequest, Unauthorized
from app.rooms.room import Room, token_hash
from app.rooms.table_options import TABLE_OPTIONS
from app.rooms.table_state import seat_state
from app.rooms.table_state import table_state as rooms_table_state
from app.web.deps import (
    Service,
    bearer_token,
    new_player_token,
    public_base,
    valid_player_token,
)
from app.web.limits import client_key
from app.web.share import room_url

router = APIRouter(prefix="/api", tags=["api"])


class Body(BaseModel):
    """A request body, with strict types: ``{"seat": true}`` is not seat 1, ``"4"`` is
    not 4 and ``0`` is not false (422 with what was wrong; nothing is changed)."""

    model_config = ConfigDict(strict=True)


class CreateRoom(Body):
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


class Join(Body):
    name: str = Field(max_length=200, examples=["Vroni"])
    seat: int | None = Field(
        None, description="the seat to take (0-based); default: the next free one "
        "(in a game with teams, people who join one after the other become partners). "
        "409 if it is taken. In a running match: a seat the host released")
    player: str | None = Field(
        None, max_length=200,
        description="the ``player`` token of an earlier join: the standings count this "
        "seat for the same person. Without it: a new player")


class Joined(BaseModel):
    seat: int
    token: str
    player: str = Field(description="who you are across tables (the standings): send it "
                        "with your next joins; keep it secret like the seat token")


class Action(Body):
    action: str = Field(max_length=200, examples=["play:EO"])
    version: int


class Pause(BaseModel):
    kind: str = Field(description='"trick": a finished trick stays on show; "deal": '
                      "the result of deal `deal_no` is shown")
    seconds_left: float
    deal_no: int | None = None
    waiting_for: list[int] = Field(default_factory=list,
                                   description='seats whose "Next deal" is awaited')


class TableState(BaseModel):
    version: int
    view: dict[str, Any]
    legal: list[str]
    seats: list[str | None]
    status: str
    pause: Pause | None = Field(None, description="moves made now are queued (202) and "
                                "take effect when the pause ends")
    turn_clock_left: float | None = Field(
        None, description="seconds left on the turn clock of the move awaited now")
    stand_ins: dict[int, str] = Field(
        default_factory=dict, description='seats a bot plays for: "away", "clock" or '
        '"released" (a released seat can be taken over by joining)')
    queued: str | None = Field(None, description="your move waiting for the pause to end")


class GameOption(BaseModel):
    name: str
    label: str
    kind: str
    default: Any
    minimum: int | None
    maximum: int | None
    step: int | None = None
    choices: list[int | str] | None = None
    help: str = ""


class GameEntry(BaseModel):
    name: str
    title: str
    min_players: int
    max_players: int
    default_options: dict[str, Any]
    options: list[GameOption]
    table_options: list[GameOption] = Field(
        description="the table's own options, the same for every game; pass them in "
        "`options` too")


class SeatBody(Body):
    seat: int


class SwapBody(Body):
    a: int
    b: int


class ErrorBody(BaseModel):
    error: str


ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 413, 422, 429, 503)
}


def _option(o: Option) -> GameOption:
    return GameOption(name=o.name, label=_(o.label), kind=o.kind, default=o.default,
                      minimum=o.minimum, maximum=o.maximum, step=o.step,
                      choices=list(o.choices) or None, help=_(o.help) if o.help else "")


def table_state(room: Room, seat: int | None) -> TableState:
    """The seat's state as the API answers it: the room's ``state(seat)`` and how the
    table is paced (a pause, the turn clock, stand-ins, the seat's queued move)."""
    state = rooms_table_state(room)
    own = seat_state(room, seat, state.holding, state.status)
    pause = None
    left = state.pause_ms / 1000
    if left > 0 and state.hold is not None:
        pause = Pause(kind="deal", seconds_left=left, deal_no=state.hold.deal_no,
                      waiting_for=list(state.waiting_for))
    elif left > 0:
        pause = Pause(kind="trick", seconds_left=left)
    clock = state.clock_ms / 1000 if state.clock_ms is not None else None
    return TableState(**room.state(seat), pause=pause, turn_clock_left=clock,
                      stand_ins=state.stand_ins, queued=own.queued)


@router.get("/games", response_model=list[GameEntry])
async def list_games() -> list[GameEntry]:
    """The games this server offers, with their player counts and options, and the
    table's own options (turn clock, away rule, pacing) that every game takes (titles
    and labels in the language of ``Accept-Language``; English without one)."""
    table = [_option(o) for o in TABLE_OPTIONS]
    return [
        GameEntry(
            name=g.name, title=_(g.title), min_players=g.min_players, max_players=g.max_players,
            default_options=g.default_options, options=[_option(o) for o in g.options],
            table_options=table,
        )
        for g in GAMES.values()
    ]


@router.post("/rooms", response_model=Created, status_code=201, responses=ERRORS)
async def create_room(body: CreateRoom, request: Request, service: Service) -> Created:
    """Open a room. Keep ``host_token``: it starts the match."""
    if body.seed is not None and not get_settings().allow_seeded_rooms:
        raise BadRequest("This server does not allow seeded rooms.")
    public_base(request)  # a Host that no link can be made of: 400 before anything
    client = client_key(request)
    request.app.state.limits.room_created(client)
    room, host_token = await service.create(game=body.game, players=body.players,
                                            options=body.options, seed=body.seed,
                                            client=client)
    return Created(room=room.id, url=room_url(request, room.id), host_token=host_token)


@router.post("/rooms/{room_id}/join", response_model=Joined, responses=ERRORS)
async def join_room(room_id: str, body: Join, request: Request, service: Service) -> Joined:
    """Take the free seat ``seat`` (409 if taken) or the next free one (in a game
    with teams, people who join one after the other become partners). Once the
    match runs: take over a seat the host released. Keep ``token``: it is this
    seat's secret. Keep ``player`` too and send it with your next joins: the standings
    count your matches as one person's (without it, a new player each time)."""
    service.get(room_id)  # an unknown room is a 404, not a use of the join rate
    if body.player is not None and valid_player_token(body.player) is None:
        raise BadRequest("That is not a player token of this server.")
    # an API client is the player token it brings (never the browser's HttpOnly
    # player cookie, whose value this answer would hand to the page's scripts)
    player = body.player or new_player_token()
    request.app.state.limits.joined(client_key(request))
    seat, token = await service.join(room_id, body.name, seat=body.seat,
                                     player_key=repo.token_hash(player))
    service.seen(service.get(room_id), seat)
    return Joined(seat=seat, token=token, player=player)


@router.post("/rooms/{room_id}/start", response_model=TableState, responses=ERRORS)
async def start_room(room_id: str, request: Request, service: Service) -> TableState:
    """Start the match (host only, every seat taken). Returns the spectator view."""
    await service.start(room_id, bearer_token(request))
    return table_state(service.get(room_id), None)


@router.post("/rooms/{room_id}/swap", response_model=TableState, responses=ERRORS)
async def swap_seats(room_id: str, body: SwapBody, request: Request,
                     service: Service) -> TableState:
    """Let seats ``a`` and ``b`` change places before the start (host only; one of
    them may be free). Partners in a team game sit opposite: seat n and n+2."""
    await service.swap(room_id, bearer_token(request), body.a, body.b)
    return table_state(service.get(room_id), None)


@router.post("/rooms/{room_id}/kick", response_model=TableState, responses=ERRORS)
async def kick_seat(room_id: str, body: SeatBody, request: Request,
                    service: Service) -> TableState:
    """Release a person's seat in a running match (host only): a bot plays it until
    somebody joins and takes it over; the seat's token stops working."""
    await service.release(room_id, bearer_token(request), body.seat)
    return table_state(service.get(room_id), None)


class AddBot(Body):
    level: str | None = Field(None, examples=["strong"],
                              description='"easy" (house rules) or "strong" (searches); '
                              'default: "strong"')


class BotSeated(BaseModel):
    seat: int
    level: str


@router.post("/rooms/{room_id}/bots", response_model=BotSeated, responses=ERRORS)
async def add_bot(room_id: str, request: Request, service: Service,
                  body: AddBot | None = None) -> BotSeated:
    """Seat a bot in the next free seat (host only). The body is optional:
    ``{"level": "easy" | "strong"}`` (default strong; any other level: 422)."""
    level = body.level if body is not None and body.level is not None else DEFAULT_LEVEL
    seat = await service.add_bot(room_id, bearer_token(request), level)
    return BotSeated(seat=seat, level=level)


@router.delete("/rooms/{room_id}/bots/{seat}", response_model=TableState, responses=ERRORS)
async def remove_bot(room_id: str, seat: int, request: Request,
                     service: Service) -> TableState:
    """Free a bot's seat before the start (host only)."""
    await service.remove_bot(room_id, bearer_token(request), seat)
    return table_state(service.get(room_id), None)


@router.post("/rooms/{room_id}/end", response_model=TableState, responses=ERRORS)
async def end_room(room_id: str, request: Request, service: Service) -> TableState:
    """End a game that has no natural end (host only; games whose ``host_can_end``):
    the deal in progress is called off and the match is scored as it stands."""
    await service.end_match(room_id, bearer_token(request))
    return table_state(service.get(room_id), None)


@router.get("/rooms/{room_id}/view", response_model=TableState, responses=ERRORS)
async def room_view(room_id: str, request: Request, service: Service) -> TableState:
    """The view of the seat whose token is given, or the spectator view without one."""
    room = service.get(room_id)
    seat = service.seat_for(room, bearer_token(request))
    service.seen(room, seat)  # a person reading their table over the API is here
    if seat is not None:
        service.bots.wake(room)
    return table_state(room, seat)


@router.post("/rooms/{room_id}/actions", response_model=TableState, responses=ERRORS)
async def room_action(room_id: str, body: Action, request: Request, response: Response,
                      service: Service) -> TableState:
    """Play one of your ``legal`` actions, naming the ``version`` of the view it was
    made from: 409 when the table has moved on, 422 when the action is not legal.
    While a finished trick or a deal's result is on show (``pause``) a legal move is
    queued: **202** with ``queued`` set; it takes effect when the pause ends."""
    room = service.get(room_id)
    token = bearer_token(request)
    if token is None:
        raise Unauthorized("Acting needs your seat token: 'Authorization: Bearer <token>'.")
    seat = service.seat_for(room, token)
    assert seat is not None
    service.seen(room, seat)
    await service.act(room_id, seat, body.action, body.version, token_hash(token))
    state = table_state(room, seat)
    if state.queued is not None:
        response.status_code = 202
    return state
