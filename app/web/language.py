"""The language of each request and each table socket.

:class:`LanguageMiddleware` (plain ASGI, so it covers HTTP and WebSocket alike)
picks the language of a request from ``?lang=de|en``, then the ``stammtisch_lang``
cookie, then the browser's ``Accept-Language`` (Babel's ``negotiate_locale``), and
makes it current (:func:`app.i18n.set_language`) for everything that request does.
A WebSocket keeps the language of its handshake for its whole life: the handler
and the sender task it starts inherit the context, so each seat is pushed its own
language. ``?lang=`` also stores the choice in the cookie; ``GET /lang/{code}``
(the switch in the page header) stores it and goes back to the page.
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from urllib.parse import parse_qs, urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import i18n
from app.web.deps import cookie_header, set_cookie

COOKIE = "stammtisch_lang"
COOKIE_AGE = 60 * 60 * 24 * 365

router = APIRouter(include_in_schema=False)


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1")
            for k, v in scope.get("headers", [])}


def _cookie(headers: dict[str, str]) -> str | None:
    raw = headers.get("cookie")
    if not raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:  # a malformed cookie header chooses nothing
        return None
    morsel = jar.get(COOKIE)
    return morsel.value if morsel is not None else None


def choose(scope: Scope) -> tuple[str, str | None]:
    """The language of a request or a socket's handshake, and the one its ``?lang=``
    asked for (None: it asked for none)."""
    headers = _headers(scope)
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("lang", [None])
    asked = query[-1] if query[-1] in i18n.LANGUAGES else None
    return i18n.choose(query=asked, cookie=_cookie(headers),
                       accept_language=headers.get("accept-language")), asked


class LanguageMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] not in ("http", "websocket")
                or scope.get("path", "").startswith("/static/")):
            # static files are the same in every language: no Vary, so caches share them
            await self.app(scope, receive, send)
            return
        language, asked = choose(scope)
        token = i18n.set_language(language)
        try:
            if scope["type"] == "http":
                await self.app(scope, receive, self._sender(scope, send, language, asked))
            else:
                await self.app(scope, receive, send)
        finally:
            i18n.reset_language(token)

    @staticmethod
    def _sender(scope: Scope, send: Send, language: str, asked: str | None) -> Send:
        async def wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = [(b"content-language", language.encode()),
                         (b"vary", b"Accept-Language, Cookie")]
                if asked is not None:
                    extra.append((b"set-cookie", cookie_header(
                        HTTPConnection(scope), COOKIE, asked, path="/", max_age=COOKIE_AGE)))
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)
        return wrapped


def safe_next(target: str | None) -> str:
    """A path on this server to go back to (never another site)."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if (parts.scheme or parts.netloc or not target.startswith("/")
            or target.startswith("//") or "\\" in target):
        return "/"
    return target


@router.get("/lang/{code}")
async def switch_language(code: str, request: Request, next: str | None = None
                          ) -> RedirectResponse:
    """The language switch: keep ``code`` in the cookie and go back to ``next``."""
    response = RedirectResponse(safe_next(next), status_code=303)
    if code in i18n.LANGUAGES:
        set_cookie(request, response, COOKIE, code, path="/", max_age=COOKIE_AGE)
    return response
