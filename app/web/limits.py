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

import asyncio
import ipaddress
import json
import logging
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson
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
MAX_JSON_DEPTH = 16  # the API's bodies nest two or three levels


class InFlight:
    """HTTP requests in progress, per client: from their headers until they are
    answered, a body that is slow to arrive included."""

    def __init__(self, per_client: int) -> None:
        self.per_client = per_client
        self._by_client: Counter[str] = Counter()
        self.total = 0

    def enter(self, client: str) -> bool:
        """Count a request of ``client``; False (not counted) past its cap."""
        if self._by_client[client] >= self.per_client:
            return False
        self._by_client[client] += 1
        self.total += 1
        return True

    def leave(self, client: str) -> None:
        self.total -= 1
        self._by_client[client] -= 1
        if self._by_client[client] <= 0:
            del self._by_client[client]


class BodyLimit:
    """Every HTTP request's body is read here, whole, before the app sees the
    request, so the app is handed a complete body it can parse:

    * counted as it arrives (``Content-Length``, chunked or anything else, every
      route, forms included): past ``max_bytes`` the answer is 413 at once, and a
      refused body is never buffered, spooled or parsed;
    * within ``timeout`` seconds of the request's headers: a body that has not
      arrived by then (a client that sends slowly, or stops) gets 408 and the
      connection is closed, so it cannot hold a connection open;
    * a JSON body (``application/json``, ``…+json``, or no content type at all,
      which FastAPI reads as JSON) is parsed once here: one that is not UTF-8 JSON,
      or nests deeper than :data:`MAX_JSON_DEPTH`, gets 422 ``{"error": …}`` and
      never reaches FastAPI, whose way of refusing it raises exceptions that keep
      their tracebacks in reference cycles (86 objects, about 13 KB, a request:
      memory that only a pass of the cycle collector frees; see app/cycles.py);
    * ``in_flight`` caps the requests one client may have in progress at once:
      the next one gets 429 at once.

    A refusal of a body that was not read closes the connection (``Connection:
    close``)."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout: float = 10.0,
                 in_flight: InFlight | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout
        self.in_flight = in_flight or InFlight(per_client=1_000_000)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = client_key(HTTPConnection(scope))
        if not self.in_flight.enter(client):
            await _refuse(scope, send, 429, _(
                "Too many requests from your address are under way at once; please "
                "try again in a moment."), retry_after=1)
            return
        try:
            body = await self._read(scope, receive)
            if isinstance(body, Refusal):
                await _refuse(scope, send, body.status, body.message)
                return
            if body is None:  # the client went away before its body arrived
                return
            refusal = _json_refusal(scope, body)
            if refusal is not None:
                await _refuse(scope, send, refusal.status, refusal.message, json_answer=True,
                              close=False)  # the body was read: the connection may go on
                return
            await self.app(scope, _replay(body, receive), send)
        finally:
            self.in_flight.leave(client)

    async def _read(self, scope: Scope, receive: Receive) -> bytes | Refusal | None:
        """The whole body; a refusal (too large, too slow); None if the client left."""
        too_large = Refusal(413, _("The request is too large (at most {limit} bytes).")
                            .format(limit=self.max_bytes))
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_bytes):
            return too_large
        chunks: list[bytes] = []
        received = 0
        try:
            async with asyncio.timeout(self.timeout):
                while True:
                    message = await receive()
                    if message["type"] != "http.request":  # http.disconnect
                        return None
                    chunk = message.get("body", b"")
                    received += len(chunk)
                    if received > self.max_bytes:
                        return too_large
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            log.info("a request body did not arrive within %g s", self.timeout)
            return Refusal(408, _("The request took too long to arrive (more than "
                                  "{seconds} seconds).").format(seconds=f"{self.timeout:g}"))


class Refusal:
    def __init__(self, status: int, message: str) -> None:
        self.status = status
        self.message = message


def _replay(body: bytes, receive: Receive) -> Receive:
    """The app's ``receive``: the body in one message, then the server's own (which
    says when the client disconnects)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def _is_json(scope: Scope, body: bytes) -> bool:
    """Whether FastAPI would read ``body`` as JSON (its own test of the type)."""
    kind = _header(scope, b"content-type")
    if kind is None:
        return bool(body)
    main, _sep, rest = kind.partition(";")[0].strip().lower().partition("/")
    return main == "application" and (rest == "json" or rest.endswith("+json"))


def _json_refusal(scope: Scope, body: bytes) -> Refusal | None:
    """Why a JSON body cannot be read, or None (also for a body that is not JSON)."""
    if not body or not _is_json(scope, body):
        return None
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return Refusal(422, _("The request body is not valid JSON: it is not UTF-8 "
                              "text."))
    if json_too_deep(text, MAX_JSON_DEPTH):  # before json.loads, whose recursion it would try
        return Refusal(422, _("The request body nests too deeply."))
    try:
        # orjson, not json: json's parser leaves its failure in a reference cycle (a
        # StopIteration kept by the frame it passed through). What orjson reads, json
        # (FastAPI's) reads too; orjson is the stricter (no NaN, integers of 64 bits).
        orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        return Refusal(422, _("The request body is not valid JSON (at character "
                              "{position}).").format(position=exc.pos))
    return None


async def _refuse(scope: Scope, send: Send, status: int, message: str, *,
                  json_answer: bool = False, retry_after: int | None = None,
                  close: bool = True) -> None:
    """Answer ``status`` with ``message`` (JSON for the API and clients that ask for
    it, else a plain page); ``close``: and close the connection."""
    path = scope.get("path", "")
    if (json_answer or path.startswith("/api/")
            or b"json" in (_header(scope, b"accept") or "").encode()):
        body = json.dumps({"error": message}).encode()
        kind = b"application/json"
    else:
        body = _page(_("Too large") if status == 413 else _("Refused"), message).encode()
        kind = b"text/html; charset=utf-8"
    headers = [(b"content-type", kind), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
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

    def sockets_open(self) -> int:
        """Table sockets open on the whole server."""
        return sum(self._room_sockets.values())


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
