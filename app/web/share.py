"""Sharing a table and following it to the next match.

- ``GET /r/{room}/qr.svg``: a QR code of the room link (segno), for friends at the
  same real table to scan from the host's screen. The link is made from
  ``PUBLIC_URL`` (or a valid ``Host``: :func:`app.web.deps.public_base`); each code
  is drawn once per link and language and kept (:data:`DRAWN`), and the codes one
  client has drawn are limited (``RATE_QR``), so the endpoint is no lever for making
  the server draw (a code of a 2,000-character Host took 120-160 ms of the event
  loop).
- ``GET /r/{room}/next``: where an old table's pages go after the host started a
  rematch. The seat cookie (and the host cookie) are kept per room path, so the
  browser sends the old room's cookies here; when they belong to a seat (or the
  host) of the next room (a rematch keeps every token hash) the answer sets the same
  tokens as cookies of the next room's path, then redirects there.
- :func:`rematch_changes`: the host's "Play again" form as option changes.
"""

from __future__ import annotations

import io
from collections import OrderedDict
from typing import Any

import segno
from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.requests import HTTPConnection

from app.db import repo
from app.games import GAMES, Option
from app.i18n import _
from app.rooms.errors import BadRequest
from app.rooms.room import Room
from app.rooms.table_options import TABLE_OPTIONS
from app.web.deps import HOST_COOKIE, SEAT_COOKIE, Service, absolute_url, set_room_cookie
from app.web.limits import client_key
from app.web.option_form import read_options

router = APIRouter(include_in_schema=False)

FIELD = "opt."  # the rematch form's option fields: opt.<option name>


def room_url(conn: HTTPConnection, room_id: str) -> str:
    """The room link people are given (on the table, in the QR code, by the API)."""
    return absolute_url(conn, "room_page", room_id=room_id)


def qr_svg(text: str, title: str) -> str:
    try:
        qr = segno.make(text, error="m")
    except segno.DataOverflowError:  # no link of a valid host is that long; never a 500
        raise BadRequest("This link is too long for a QR code.") from None
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=6, border=3, dark="#1d1d1b", light="#ffffff",
            title=title, xmldecl=False, nl=False)
    return out.getvalue().decode()


def count_drawing(conn: HTTPConnection) -> None:
    """One QR code is about to be drawn for this client: 429 past ``RATE_QR``."""
    conn.app.state.limits.qr_drawn(client_key(conn))


class DrawnCodes:
    """The room links' QR codes drawn so far, by (link, title): the most recently used
    ``size`` are kept. With ``PUBLIC_URL`` a room has one link, so one code per
    language; without it one per address the room was opened under."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._codes: OrderedDict[tuple[str, str], str] = OrderedDict()

    def get(self, conn: HTTPConnection, link: str, title: str) -> str:
        key = (link, title)
        svg = self._codes.get(key)
        if svg is None:
            count_drawing(conn)
            svg = qr_svg(link, title)
            self._codes[key] = svg
            while len(self._codes) > self.size:
                self._codes.popitem(last=False)
        else:
            self._codes.move_to_end(key)
        return svg


DRAWN = DrawnCodes(size=1024)  # at most a few MiB (2-8 KB a code)


@router.get("/r/{room_id}/qr.svg", name="room_qr")
async def room_qr(room_id: str, request: Request, service: Service) -> Response:
    room = service.get(room_id)  # 404 for a table that is not open
    svg = DRAWN.get(request, room_url(request, room.id), _("QR code of the room link"))
    return Response(svg, media_type="image/svg+xml")


@router.get("/r/{room_id}/next", name="next_table")
async def follow_rematch(room_id: str, request: Request, service: Service) -> Response:
    """Move a browser from an old table to its rematch, seat and host cookies with it."""
    room = service.rooms.get(room_id)
    next_id = room.next_id if room is not None else await service.db.read(
        repo.next_match_id, match_id=room_id)
    if next_id:  # with room leases the rematch may not be in memory yet
        await service.load(next_id)
    nxt = service.rooms.get(next_id) if next_id else None
    if nxt is None:  # no rematch (any more): the table's own page says what there is
        return RedirectResponse(f"/r/{room_id}", status_code=303)
    response = RedirectResponse(f"/r/{nxt.id}", status_code=303)
    if not carry_cookies(request, response, nxt):
        # a finished match's id is public (the history names it): it leads only its
        # own players and host on to the live rematch, anybody else to its record
        return RedirectResponse(request.url_for("history_match", match_id=room_id).path,
                                status_code=303)
    return response


def carry_cookies(request: Request, response: Response, nxt: Room) -> bool:
    """Set the old table's seat and host cookies for the rematch where they are a
    seat's or the host's of it; whether any was."""
    carried = False
    seat_token = request.cookies.get(SEAT_COOKIE)
    if seat_token and nxt.seat_of(seat_token) is not None:
        set_room_cookie(request, response, SEAT_COOKIE, seat_token, nxt.id)
        carried = True
    host_token = request.cookies.get(HOST_COOKIE)
    if host_token and nxt.is_host(host_token):
        set_room_cookie(request, response, HOST_COOKIE, host_token, nxt.id)
        carried = True
    return carried


def rematch_fields(game: str) -> list[Option]:
    """The options the host may change for a rematch: the game's, then the table's."""
    return [*GAMES[game].options, *TABLE_OPTIONS]


def rematch_changes(game: str, data: dict[str, Any]) -> dict[str, Any]:
    """The "Play again" form (``opt.<name>`` fields, as htmx sends them) as options,
    read by the lobby's rules (:mod:`app.web.option_form`). Without any option field
    the room's options stay as they are."""
    if not any(k.startswith(FIELD) for k in data):
        return {}
    return read_options(rematch_fields(game), data, FIELD)
