"""The application: ``create_app()`` wires settings, database, rooms and routes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from app.config import get_settings
from app.db import Database
from app.rooms.errors import RoomError
from app.rooms.service import RoomService
from app.web import api, pages, share, table_api, ws

ROOT = Path(__file__).resolve().parents[1]
MAX_BODY = 64 * 1024  # forms and JSON bodies are tiny; anything bigger is refused

DESCRIPTION = """
Stammtisch serves card tables for friends. Everything the browser does is also
possible through this API: open a room, join it (keep the seat token), start it
(with the host token), read your view and play your legal actions.

Every action names the `version` of the view it was made from; a stale version
gets **409**, an illegal action **422** with `{"error": "..."}`, a missing token
**401**, a token of another table **403**.
"""


def create_app(database_url: str | None = None) -> FastAPI:
    settings = get_settings()
    logging.basicConfig(level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = Database(database_url or settings.database_url)
        rooms = RoomService(db)
        app.state.db = db
        app.state.rooms = rooms
        await rooms.restore_open_rooms()
        sweeper = asyncio.create_task(rooms.run_sweeper())
        try:
            yield
        finally:
            sweeper.cancel()
            await rooms.close()
            db.close()

    app = FastAPI(title="Stammtisch", version="0.1.0", description=DESCRIPTION,
                  lifespan=lifespan)

    @app.exception_handler(RoomError)
    async def room_error(request: Request, exc: RoomError) -> Response:
        return JSONResponse({"error": exc.message}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_body(request: Request, exc: RequestValidationError) -> Response:
        parts = []
        for err in exc.errors()[:3]:
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
        return JSONResponse({"error": "; ".join(parts) or "malformed request"},
                            status_code=422)

    @app.middleware("http")
    async def guard(request: Request, call_next: Any) -> Response:
        """Refuse oversized bodies before reading them; never cache a seat's table."""
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
            return JSONResponse({"error": f"The request is too large (at most {MAX_BODY} "
                                          "bytes)."}, status_code=413)
        response: Response = await call_next(request)
        if request.url.path.startswith(("/r/", "/api/")):
            response.headers["Cache-Control"] = "no-store"
        return response

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    app.include_router(api.router)
    app.include_router(table_api.router)
    app.include_router(pages.router)
    app.include_router(share.router)
    app.include_router(ws.router)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    return app


app = create_app()
