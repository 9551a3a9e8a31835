"""Request-level helpers: the room service, tokens from headers and cookies (and the
one way a cookie is set), the browser's player token, Origin, and the public address
every absolute link is made from."""

from __future__ import annotations

import secrets
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, Request
from starlette.requests import HTTPConnection
from starlette.responses import Response

from app.config import get_settings
from app.db.repo import token_hash
from app.hosts import valid_host
from app.rooms.errors import BadRequest, Unauthorized
from app.rooms.service import RoomService

SEAT_COOKIE = "stammtisch_seat"
HOST_COOKIE = "stammtisch_host"
# who a browser is across tables (the standings): a random secret of its own, for the
# whole site; only its hash (the player key) is stored with the seats it takes
PLAYER_COOKIE = "stammtisch_player"
ROOM_COOKIE_MAX_AGE = 60 * 60 * 24 * 30
PLAYER_COOKIE_MAX_AGE = 60 * 60 * 24 * 400  # the longest browsers keep a cookie
PLAYER_TOKEN_CHARS = (20, 64)  # the lengths a player token may have


def set_cookie(conn: HTTPConnection, response: Response, name: str, value: str, *,
               path: str, max_age: int = ROOM_COOKIE_MAX_AGE) -> None:
    """Every cookie the app sets (seat, host, player, language) is set here: HttpOnly
    (no script reads one), SameSite=Lax, and ``Secure`` when ``SECURE_COOKIES`` is set
    or the request came over HTTPS (directly, or from a proxy in ``FORWARDED_ALLOW_IPS``
    that said so with ``X-Forwarded-Proto``; uvicorn runs with ``--proxy-headers``)."""
    secure = get_settings().secure_cookies or conn.url.scheme in ("https", "wss")
    response.set_cookie(name, value, path=path, httponly=True, samesite="lax",
                        secure=secure, max_age=max_age)


def cookie_header(conn: HTTPConnection, name: str, value: str, *, path: str,
                  max_age: int) -> bytes:
    """The ``Set-Cookie`` value :func:`set_cookie` writes, for a middleware that adds
    it to an answer it did not make."""
    holder = Response()
    set_cookie(conn, holder, name, value, path=path, max_age=max_age)
    return holder.headers["set-cookie"].encode("latin-1")


def set_room_cookie(conn: HTTPConnection, response: Response, name: str, value: str,
                    room_id: str) -> None:
    """A seat's or host's token, sent back only to its room's paths."""
    set_cookie(conn, response, name, value, path=f"/r/{room_id}")


def valid_player_token(token: str | None) -> str | None:
    """``token`` if it can be a player token (URL-safe, of a sane length), else None."""
    low, high = PLAYER_TOKEN_CHARS
    if token and low <= len(token) <= high and all(c.isalnum() or c in "-_" for c in token):
        return token
    return None


def new_player_token() -> str:
    return secrets.token_urlsafe(24)


def player_token(conn: HTTPConnection) -> str:
    """This browser's player token: its player cookie's, or a new one (to be set with
    :func:`set_player_cookie` when the browser takes a seat)."""
    return valid_player_token(conn.cookies.get(PLAYER_COOKIE)) or new_player_token()


def set_player_cookie(conn: HTTPConnection, response: Response, token: str) -> None:
    """The player cookie, for the whole site, kept for 400 days from its last use."""
    set_cookie(conn, response, PLAYER_COOKIE, token, path="/", max_age=PLAYER_COOKIE_MAX_AGE)


def player_key(conn: HTTPConnection) -> str | None:
    """The player key of this browser, None when it has no player cookie."""
    token = valid_player_token(conn.cookies.get(PLAYER_COOKIE))
    return token_hash(token) if token else None


def get_service(request: Request) -> RoomService:
    service: RoomService = request.app.state.rooms
    return service


Service = Annotated[RoomService, Depends(get_service)]


async def room_served_here(request: Request) -> None:
    """Every route whose path names a room (``{room_id}``) finds it in this process's
    memory: with room leases it is taken and loaded on first use, or refused with 503
    and ``Retry-After`` while another server process serves it
    (:meth:`RoomService.load`). The app's one dependency for all routes."""
    room_id = request.path_params.get("room_id")
    if room_id is not None:
        await get_service(request).load(room_id)


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
    """A browser's Origin must be this server (its Host, ``PUBLIC_URL``, or a
    configured extra origin). Clients that send no Origin (scripts, bots) are judged
    by their token alone."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True
    host = conn.headers.get("host", "")
    parts = urlsplit(origin)
    if parts.netloc and parts.netloc == host:
        return True
    settings = get_settings()
    extra = {o.strip().rstrip("/") for o in settings.allowed_origins.split(",") if o.strip()}
    if settings.public_url:
        extra.add(settings.public_url)
    return origin.rstrip("/") in extra


def public_base(conn: HTTPConnection) -> str:
    """Where absolute links point: ``PUBLIC_URL``, else this request's scheme and
    ``Host`` when that is a valid host name (400 otherwise: a client's made-up Host
    is never turned into a link, nor into a QR code's worth of work)."""
    configured = get_settings().public_url
    if configured:
        return configured
    host = conn.headers.get("host")
    if not valid_host(host):
        raise BadRequest("The Host header of this request is not a valid host name.")
    scheme = "https" if conn.url.scheme in ("https", "wss") else "http"
    return f"{scheme}://{str(host).lower()}"


def absolute_url(conn: HTTPConnection, name: str, **params: str) -> str:
    """The absolute link of the route ``name`` (its path from the app's routes) on
    :func:`public_base`."""
    return public_base(conn) + str(conn.app.url_path_for(name, **params))
