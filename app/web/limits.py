"""Limits for a server on the open internet: the size of a request body, how often
one client may open rooms and take seats, and how many table sockets one client and
one room may hold.

* :class:`BodyLimit` is a pure ASGI middleware. It counts the bytes that actually
  arrive (``Content-Length``, chunked or anything else, every route, forms
  included) and answers 413 as soon as the limit is passed, so a refused body is
  never buffered, spooled or parsed.
* :class:`ClientLimits` keeps the per-client rules. Rates use the ``limits``
  package (the library slowapi is built on; moving windows in memory, which is
  right for one process that keeps its rooms in memory too). A client is its
  address as uvicorn reports it (behind a trusted proxy: ``X-Forwarded-For``);
  IPv6 addresses count per /56, the block one household may be given (so a
  household is one client, whichever of its 256 /64 networks it sends from).
"""

from __future__ import annotations

import ipaddress
import json
import logging
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection

from app.i18n import _
from app.rooms.errors import TooMany

log = logging.getLogger("stammtisch.limits")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# ----- request bodies --------------------------------------------------------------
class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuse any HTTP request whose body passes ``max_bytes`` with 413, counting
    the bytes as they are received."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            await self._refuse(scope, send)
            return
        received = 0
        too_large = False
        started = False

        async def counted() -> Message:
            nonlocal received, too_large
            if too_large:  # the app asks again after being refused once
                raise _TooLarge
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    too_large = True
                    raise _TooLarge
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if too_large:
                return  # whatever the app answers, the client gets the 413 below
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, guarded_send)
        except _TooLarge:
            pass
        except Exception:
            if not too_large:
                raise
        if too_large:
            if started:  # the app had answered already; nothing more can be said
                return
            await self._refuse(scope, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        message = _("The request is too large (at most {limit} bytes).").format(
            limit=self.max_bytes)
        path = scope.get("path", "")
        if path.startswith("/api/") or b"json" in (_header(scope, b"accept") or "").encode():
            body = json.dumps({"error": message}).encode()
            kind = b"application/json"
        else:
            body = _page(_("Too large"), message).encode()
            kind = b"text/html; charset=utf-8"
        await send({"type": "http.response.start", "status": 413, "headers": [
            (b"content-type", kind), (b"content-length", str(len(body)).encode()),
            (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1").strip()
    return None


def _page(title: str, message: str) -> str:
    """A plain page for refusals that happen before any template could run."""
    from markupsafe import escape
    return ("<!doctype html><html><head><meta charset=\"utf-8\"><title>"
            f"{escape(title)}</title><link rel=\"stylesheet\" href=\"/static/css/app.css\">"
            f"</head><body><main class=\"page\"><h1>{escape(title)}</h1>"
            f"<p class=\"notice error\" role=\"alert\">{escape(message)}</p>"
            "<p><a href=\"/\">Stammtisch</a></p></main></body></html>")


# ----- per-client rules ----------------------------------------------------------------
# an IPv6 client is its /56: providers give a household a /56 or a /64, so counting
# /64s let one household be 256 clients
IPV6_PREFIX = 56


def client_key(conn: HTTPConnection) -> str:
    """Who a request comes from: its address, an IPv6 address by its /56."""
    host = conn.client.host if conn.client else ""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host or "unknown"
    if ip.version == 6:
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/{IPV6_PREFIX}", strict=False))
    return str(ip)


class ClientLimits:
    """Rates of room creation and joins, and open sockets, per client and room."""

    def __init__(self, *, rooms: str, joins: str, sockets_per_client: int,
                 sockets_per_room: int, qr: str = "") -> None:
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._rules: dict[str, list[RateLimitItem]] = {
            "rooms": parse_many(rooms) if rooms.strip() else [],
            "joins": parse_many(joins) if joins.strip() else [],
            "qr": parse_many(qr) if qr.strip() else [],
        }
        self.sockets_per_client = sockets_per_client
        self.sockets_per_room = sockets_per_room
        self._client_sockets: Counter[str] = Counter()
        self._room_sockets: Counter[str] = Counter()

    def _hit(self, kind: str, client: str, message: str) -> None:
        rules = self._rules[kind]
        # test every rule first, so a refused request does not use up the others
        full = [rule for rule in rules if not self._limiter.test(rule, kind, client)]
        if full:
            log.info("rate limit: %s refused for a client", kind)
            reset = max(self._limiter.get_window_stats(r, kind, client).reset_time
                        for r in full)
            raise TooMany(message, retry_after=max(1, math.ceil(reset - time.time())))
        for rule in rules:
            self._limiter.hit(rule, kind, client)

    def room_created(self, client: str) -> None:
        """Count one room opened by ``client`` (429 past its rate)."""
        self._hit("rooms", client, _("You have opened many tables in a short time; "
                                     "please wait a little before opening another."))

    def joined(self, client: str) -> None:
        """Count one seat taken by ``client`` (429 past its rate)."""
        self._hit("joins", client, _("Too many seats taken from your address in a short "
                                     "time; please wait a little and try again."))

    def qr_drawn(self, client: str) -> None:
        """Count one QR code drawn for ``client`` (429 past its rate)."""
        self._hit("qr", client, _("Too many QR codes were drawn for your address in a "
                                  "short time; please wait a little and try again."))

    def open_socket(self, client: str, room_id: str) -> None:
        """Count a table socket; refuse (429) past the per-client or per-room cap.
        Every accepted one must be given back with :meth:`close_socket`."""
        if self._client_sockets[client] >= self.sockets_per_client:
            raise TooMany(_("Too many tables are open from your address; close a few "
                            "tabs and reload."))
        if self._room_sockets[room_id] >= self.sockets_per_room:
            raise TooMany(_("This table has as many visitors as it can take; "
                            "try again later."))
        self._client_sockets[client] += 1
        self._room_sockets[room_id] += 1

    def close_socket(self, client: str, room_id: str) -> None:
        for counter, key in ((self._client_sockets, client), (self._room_sockets, room_id)):
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]

    def sockets(self, client: str) -> int:
        return self._client_sockets[client]


# ----- JSON nesting ------------------------------------------------------------------
def json_too_deep(raw: str, max_depth: int) -> bool:
    """Whether ``raw`` nests arrays/objects deeper than ``max_depth``: one linear
    scan (strings skipped), so a frame of 2,000 ``[`` is refused without ever
    reaching a recursive parser."""
    depth = 0
    in_string = escaped = False
    for ch in raw:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > max_depth:
                return True
        elif ch in "]}":
            depth -= 1
    return False
