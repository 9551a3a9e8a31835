"""Sharing a table and following it to the next match.

- ``GET /r/{room}/qr.svg``: a QR code of the room link (segno), for friends at the
  same real table to scan from the host's screen.
- ``GET /r/{room}/next``: where an old table's pages go after the host started a
  rematch. The seat cookie (and the host cookie) are kept per room path, so the
  browser sends the old room's cookies here; when they belong to a seat (or the
  host) of the next room (a rematch keeps every token hash) the answer sets the same
  tokens as cookies of the next room's path, then redirects there.
- :func:`rematch_changes`: the host's "Play again" form as option changes.
"""

from __future__ import annotations

import io
from typing import Any

import segno
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from app.db import repo
from app.games import GAMES, Option
from app.i18n import _
from app.rooms.errors import BadRequest
from app.rooms.room import Room
from app.rooms.table_options import TABLE_OPTIONS
from app.web.deps import HOST_COOKIE, SEAT_COOKIE, Service, set_room_cookie

router = APIRouter(include_in_schema=False)

FIELD = "opt."  # the rematch form's option fields: opt.<option name>


def room_url(request: Request, room_id: str) -> str:
    return str(request.url_for("room_page", room_id=room_id))


def qr_svg(text: str, title: str) -> str:
    qr = segno.make(text, error="m")
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=6, border=3, dark="#1d1d1b", light="#ffffff",
            title=title, xmldecl=False, nl=False)
    return out.getvalue().decode()


@router.get("/r/{room_id}/qr.svg", name="room_qr")
async def room_qr(room_id: str, request: Request, service: Service) -> Response:
    room = service.get(room_id)  # 404 for a table that is not open
    svg = qr_svg(room_url(request, room.id), _("QR code of the room link"))
    return Response(svg, media_type="image/svg+xml")


@router.get("/r/{room_id}/next", name="next_table")
async def follow_rematch(room_id: str, request: Request, service: Service) -> Response:
    """Move a browser from an old table to its rematch, seat and host cookies with it."""
    room = service.rooms.get(room_id)
    next_id = room.next_id if room is not None else await service.db.read(
        repo.next_match_id, match_id=room_id)
    nxt = service.rooms.get(next_id) if next_id else None
    if nxt is None:  # no rematch (any more): the table's own page says what there is
        return RedirectResponse(f"/r/{room_id}", status_code=303)
    response = RedirectResponse(f"/r/{nxt.id}", status_code=303)
    carry_cookies(request, response, nxt)
    return response


def carry_cookies(request: Request, response: Response, nxt: Room) -> None:
    seat_token = request.cookies.get(SEAT_COOKIE)
    if seat_token and nxt.seat_of(seat_token) is not None:
        set_room_cookie(request, response, SEAT_COOKIE, seat_token, nxt.id)
    host_token = request.cookies.get(HOST_COOKIE)
    if host_token and nxt.is_host(host_token):
        set_room_cookie(request, response, HOST_COOKIE, host_token, nxt.id)


def rematch_fields(game: str) -> list[Option]:
    """The options the host may change for a rematch: the game's, then the table's."""
    return [*GAMES[game].options, *TABLE_OPTIONS]


def rematch_changes(game: str, data: dict[str, Any]) -> dict[str, Any]:
    """The "Play again" form (``opt.<name>`` fields, as htmx sends them) as options.
    Without any option field the room's options stay as they are."""
    if not any(k.startswith(FIELD) for k in data):
        return {}
    changes: dict[str, Any] = {}
    for opt in rematch_fields(game):
        raw = data.get(FIELD + opt.name)
        if opt.kind == "bool":
            changes[opt.name] = raw not in (None, "", False, "0", "false")
            continue
        if raw in (None, ""):
            continue
        try:
            changes[opt.name] = int(str(raw))
        except ValueError:
            raise BadRequest(_("{option} must be a whole number.").format(
                option=_(opt.label))) from None
    return changes

