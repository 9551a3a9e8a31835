"""Response headers every page and answer carries.

The Content-Security-Policy allows scripts and style sheets from this server only:
no inline ``<script>``, no ``on*=`` handlers, no ``eval`` (htmx is configured with
``allowEval: false`` and ``includeIndicatorStyles: false`` in ``base.html``), no
framing. Only ``style`` *attributes* may be inline (``style-src-attr``): the
templates set a CSS variable or two there, and an attribute cannot run code.
"""

from __future__ import annotations

from app.web.limits import ASGIApp, Message, Receive, Scope, Send

CSP = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))

HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]
HSTS = (b"strict-transport-security", b"max-age=31536000")
NO_STORE = (b"cache-control", b"no-store")
PRIVATE_PATHS = ("/r/", "/api/")  # a seat's table and tokens are never cached


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = list(HEADERS)
        if scope.get("scheme") == "https":
            extra.append(HSTS)
        if str(scope.get("path", "")).startswith(PRIVATE_PATHS):
            extra.append(NO_STORE)
        names = {name for name, _ in extra}

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])
                           if k.lower() not in names]
                message["headers"] = headers + extra
            await send(message)

        await self.app(scope, receive, with_headers)
