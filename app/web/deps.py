"""Request-level helpers: the room service, tokens from headers and cookies, Origin."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from app.config import get_settings
from app.rooms.errors import Unauthorized
from app.rooms.service import RoomService

SEAT_COOKIE = "stammtisch_seat"
HOST_COOKIE = "stammtisch_host"


def get_service(request: Request) -> RoomService:
    service: RoomService = request.app.state.rooms
    return service


Service = Annotated[RoomService, Depends(get_service)]


def bearer_token(conn: HTTPConnection) -> str | None:
    """The token of ``Authorization: Bearer <token>``, None when there is none."""
    header = conn.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("Use 'Authorization: Bearer <token>'.")
    return token.strip()


def origin_allowed(conn: HTTPConnection) -> bool:
    """A browser's Origin must be this server (or a configured extra origin).
    Clients that send no Origin (scripts, bots) are judged by their token alone."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    host = conn.headers.get("host", "")
    parts = urlsplit(origin)
    if parts.netloc and parts.netloc == host:
        return True
    extra = {o.strip().rstrip("/") for o in get_settings().allowed_origins.split(",") if o.strip()}
    return origin.rstrip("/") in extra
