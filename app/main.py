"""The application: ``create_app()`` wires settings, database, rooms and routes."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager, nullcontext
from types import FrameType
from typing import NoReturn

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send

from app import cycles, logs
from app.bots.pool import BotPool
from app.config import get_settings
from app.db import Database, one_server
from app.db.retry import DatabaseUnavailable
from app.i18n import _
from app.loop_watch import LoopWatch
from app.rooms import leases
from app.rooms.errors import RoomError
from app.rooms.service import RoomService
from app.web import (
    api,
    assets,
    fragments,
    health,
    language,
    pages,
    players,
    review,
    rules,
    share,
    table_api,
    ws,
)
from app.web.compress import Compress
from app.web.deps import room_served_here
from app.web.limits import BodyLimit, ClientLimits, InFlight
from app.web.messages import error_text
from app.web.render import templates
from app.web.security import SecurityHeaders

DESCRIPTION = """
Stammtisch serves card tables for friends. Everything the browser does is also
possible through this API: open a room, join it (keep the seat token), start it
(with the host token), read your view and play your legal actions.

Every action names the `version` of the view it was made from; a stale version
gets **409**, an illegal action **422** with `{"error": "..."}`, a missing token
**401**, a token of another table **403**.
"""


class Stammtisch(FastAPI):
    """The application. A table socket (``/r/{room}/ws``) goes straight to
    :func:`app.web.ws.serve`; everything else through FastAPI's routes and the
    middlewares."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        room_id = ws.socket_room(scope)
        if room_id is None:
            await super().__call__(scope, receive, send)
            return
        scope["app"] = self
        await ws.serve(scope, receive, send, room_id)


def create_app(database_url: str | None = None) -> FastAPI:
    settings = get_settings()
    logs.configure(settings.log_level)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        url = database_url or settings.database_url
        try:  # a SQLite file is served by one process (app.db.one_server)
            one_server.claim(url)
        except one_server.AlreadyServed as exc:
            _refuse_to_start(str(exc))
        if settings.room_leases is True and (why := leases.refusal(url)) is not None:
            _refuse_to_start(why)
        db = Database(url, group_max=settings.write_group_max)
        # strong bots think in other processes (app.bots.pool), off the event loop
        pool = BotPool(size=settings.bot_pool_size or None, budget_ms=settings.bot_budget_ms)
        warming = asyncio.create_task(_warm(pool))
        analysing = asyncio.create_task(asyncio.to_thread(fragments.warm))
        rooms = RoomService(db, pool=pool)
        app.state.db = db
        app.state.rooms = rooms
        app.state.bot_pool = pool
        await rooms.restore_open_rooms()
        with cycles.serving():
            sweeper = asyncio.create_task(rooms.run_sweeper())
            # the collector passes only while nobody is at the server (app.cycles)
            collector = asyncio.create_task(cycles.run(idle=lambda: (
                app.state.requests.total == 0 and app.state.limits.sockets_open() == 0)))
            watching = asyncio.create_task(app.state.loop_watch.run())
            # with room leases: renew them (app.rooms.leases)
            renewing = asyncio.create_task(rooms.leases.run()) if rooms.leases else None
            try:
                # with room leases every room is handed over the moment SIGTERM comes
                with _first_on_sigterm(rooms.hand_over_all) if rooms.leases else nullcontext():
                    yield
            finally:
                if renewing is not None:
                    renewing.cancel()
                watching.cancel()
                collector.cancel()
                sweeper.cancel()
                warming.cancel()
                analysing.cancel()
                await rooms.close()
                await asyncio.to_thread(pool.close)
                db.close()
                one_server.release(url)

    # /docs is served from static/vendor by app.web.health (no CDN, no inline script)
    app = Stammtisch(title="Stammtisch", version="0.1.0", description=DESCRIPTION,
                  lifespan=lifespan, docs_url=None, redoc_url=None,
                  swagger_ui_oauth2_redirect_url=None,
                  dependencies=[Depends(room_served_here)])
    app.state.limits = ClientLimits(
        rooms=settings.rate_rooms, joins=settings.rate_joins,
        sockets_per_client=settings.max_sockets_per_client,
        sockets_per_room=settings.max_sockets_per_room, qr=settings.rate_qr)

    @app.exception_handler(RoomError)
    async def room_error(request: Request, exc: RoomError) -> Response:
        headers = {}
        retry_after = getattr(exc, "retry_after", None)
        if retry_after:
            headers["Retry-After"] = str(retry_after)
        if _wants_page(request):  # a browser's form: a readable page
            return templates.TemplateResponse(
                request, "refused.html", {"message": error_text(exc)},
                status_code=exc.status, headers=headers)
        # in the language the client asked for (Accept-Language, ?lang=, the cookie);
        # English for a client that names none
        return JSONResponse({"error": error_text(exc)}, status_code=exc.status,
                            headers=headers)

    @app.exception_handler(DatabaseUnavailable)
    async def database_away(request: Request, exc: DatabaseUnavailable) -> Response:
        message = _("The database is not answering just now; please try again in a "
                    "moment.")
        if not _wants_page(request):
            return JSONResponse({"error": message}, status_code=503,
                                headers={"Retry-After": "5"})
        return templates.TemplateResponse(request, "refused.html", {"message": message},
                                          status_code=503, headers={"Retry-After": "5"})

    @app.exception_handler(StarletteHTTPException)
    async def no_such_page(request: Request, exc: StarletteHTTPException) -> Response:
        """A browser asking for an address the site does not have gets a page, in its
        language, with the way back; the API and scripts get FastAPI's JSON."""
        if exc.status_code == 404 and _wants_page(request):
            return templates.TemplateResponse(request, "missing.html", {}, status_code=404)
        return http_error(exc)

    for status in (400, 405):  # before any handler by class: the API's {"error": ...}
        app.add_exception_handler(status, lambda request, exc: http_error(exc))

    @app.exception_handler(RequestValidationError)
    async def bad_body(request: Request, exc: RequestValidationError) -> Response:
        parts = []
        for err in exc.errors()[:3]:
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
        return JSONResponse({"error": "; ".join(parts) or _("malformed request")},
                            status_code=422)

    # outermost last: every answer (a 413 too) gets the security headers
    app.state.requests = InFlight(per_client=settings.max_requests_per_client)
    app.state.loop_watch = LoopWatch()
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes,
                       timeout=settings.body_timeout_s, in_flight=app.state.requests)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(Compress)

    app.include_router(health.router)
    app.include_router(api.router)
    app.include_router(language.router)
    app.include_router(rules.router)
    app.include_router(table_api.router)
    app.include_router(review.router)
    app.include_router(pages.router)
    app.include_router(share.router)
    app.include_router(players.router)
    assets.assets()  # every static file read and hashed now, not on the first page
    app.include_router(assets.router)
    app.add_middleware(language.LanguageMiddleware)
    return app


HANDOVER_LIMIT_S = 2.0  # how long a graceful stop waits for the rooms' handover


@contextmanager
def _first_on_sigterm(first: Callable[[], Awaitable[None]]) -> Iterator[None]:
    """While serving, a SIGTERM runs ``first()`` on the event loop before the server's
    own handler (uvicorn's graceful stop) hears of it, for at most HANDOVER_LIMIT_S.

    uvicorn's stop closes every connection first and runs the lifespan's end only
    once they are gone. With room leases that order would keep a stopping process
    holding its rooms while their pages already reconnect to the next process, which
    has to ask for each room and wait (app.rooms.leases). With every lease given up
    first (RoomService.hand_over_all), the pages find their rooms free.

    Signal handlers belong to the main thread: elsewhere (a test's TestClient) and
    under a server that installed no handler of its own, nothing changes."""
    previous = signal.getsignal(signal.SIGTERM)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield
        return
    loop = asyncio.get_running_loop()
    heard: list[int] = []  # the SIGTERMs so far
    stopping: set[asyncio.Task[None]] = set()  # the handover under way, kept referenced

    async def then_the_server(signum: int, frame: FrameType | None) -> None:
        try:
            await asyncio.wait_for(first(), HANDOVER_LIMIT_S)
        except Exception:  # the server stops all the same; leases run out by themselves
            logging.getLogger("stammtisch").exception("the handover at SIGTERM failed")
        finally:
            previous(signum, frame)

    def handler(signum: int, frame: FrameType | None) -> None:
        heard.append(signum)
        if len(heard) > 1:  # a second SIGTERM: the server's own handler at once
            previous(signum, frame)
            return
        loop.call_soon_threadsafe(
            lambda: stopping.add(loop.create_task(then_the_server(signum, frame))))

    signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        if signal.getsignal(signal.SIGTERM) is handler:
            signal.signal(signal.SIGTERM, previous)


def _refuse_to_start(line: str) -> NoReturn:
    """Say why the server cannot start in one line and end the process: raised in the
    lifespan it would be a traceback from the server."""
    logging.getLogger("stammtisch").critical("%s", line)
    logging.shutdown()
    os._exit(one_server.EXIT_CODE)


async def _warm(pool: BotPool) -> None:
    """Start the bot workers in the background: the server answers meanwhile, and a
    first strong bot would only wait for what is still starting."""
    try:
        await pool.warm()
    except Exception:  # the bots fall back to the house rules; the tables play on
        logging.getLogger("stammtisch").exception("the bot workers did not start")


def http_error(exc: StarletteHTTPException) -> Response:
    """An HTTP error as the API documents its errors, ``{"error": ...}``, with the
    exception's headers (405's ``Allow``), in the client's language."""
    messages = {404: _("There is nothing at this address."),
                405: _("This address does not take that method.")}
    message = messages.get(exc.status_code) or str(exc.detail)
    return JSONResponse({"error": message}, status_code=exc.status_code,
                        headers=exc.headers)


def _wants_page(request: Request) -> bool:
    """A browser navigating or posting a form (not the JSON API, not a script)."""
    return (not request.url.path.startswith("/api/")
            and "text/html" in request.headers.get("accept", ""))


app = create_app()
