"""gzip for the pages: HTML and the other text answers, when the client accepts it.

The JSON API is left alone: its answers carry seat and host tokens next to text a
client chose (a name), which is what a compression side channel (BREACH) needs.
Static files come compressed already (``app.web.assets``); WebSockets pass through.
"""

from __future__ import annotations

from starlette.middleware.gzip import GZipMiddleware

from app.web.limits import ASGIApp, Receive, Scope, Send

UNCOMPRESSED = ("/api/", "/static/")


class Compress:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=500, compresslevel=6)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or str(scope.get("path", "")).startswith(UNCOMPRESSED):
            await self.app(scope, receive, send)
            return
        await self.gzip(scope, receive, send)
