"""Operational routes: ``/healthz`` (the process answers), ``/readyz`` (the
database answers, takes writes and its schema is at the newest migration) and
``/docs`` (the API documentation, served from ``static/vendor`` under the site's
CSP)."""

from __future__ import annotations

import asyncio
import logging
from functools import lru_cache
from pathlib import Path
from typing import Any

from alembic.config import Config
from alembic.script import ScriptDirectory
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse

from app.db import Database, repo
from app.db.session import Session
from app.web.render import templates

router = APIRouter(include_in_schema=False)
log = logging.getLogger("stammtisch.health")

ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT_S = 3.0


@lru_cache
def head_revision() -> str | None:
    """The newest migration of this code (from ``migrations/``)."""
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    return ScriptDirectory.from_config(cfg).get_current_head()


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, Any]:
    """The process is alive and serving (what a container's HEALTHCHECK asks), and
    how long its event loop was held up at most (app.loop_watch), in milliseconds:
    in the last one to two minutes, since start, and the most of a stall the loop's
    own thread worked (the rest, the process waited for a core)."""
    watch = request.app.state.loop_watch
    return {"status": "ok", "loop_stall_ms": {"recent": round(watch.recent_ms),
                                              "since_start": round(watch.since_start_ms),
                                              "busiest": round(watch.busiest_ms)}}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """Ready to play: the database answers within a few seconds, its schema is at
    the newest migration and it takes writes (a step's write locks are free within
    ``WRITE_CHECK_S``, nothing written); 503 with the reason otherwise."""
    db = request.app.state.db
    loop = asyncio.get_running_loop()
    try:
        revision = await asyncio.wait_for(
            loop.run_in_executor(None, _revision, db), READY_TIMEOUT_S)
    except Exception as exc:  # unreachable, timed out, refused: not ready
        log.debug("not ready: %s", exc)
        return JSONResponse({"status": "unavailable",
                             "reason": "the database is not answering"}, status_code=503)
    head = head_revision()
    if revision != head:
        return JSONResponse({"status": "unavailable", "reason": "the database schema is "
                             f"at {revision or 'nothing'}, not at {head}: run the "
                             "migrations (alembic upgrade head)"}, status_code=503)
    try:  # reads may work while every write waits (a lock held elsewhere)
        await asyncio.wait_for(loop.run_in_executor(None, db.can_write_now), READY_TIMEOUT_S)
    except Exception as exc:
        log.info("not ready: the database takes no writes: %s",
                 str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__)
        return JSONResponse({"status": "unavailable", "reason": "the database answers but "
                             "takes no writes (locked?)"}, status_code=503)
    waiting = len(request.app.state.rooms.recovery.waiting)
    return JSONResponse({"status": "ready", "revision": revision,
                         "rooms": len(request.app.state.rooms.rooms),
                         "rooms_waiting_for_database": waiting})


def _revision(db: Database) -> str | None:
    """Without the retries of ``Database.run``: a probe must answer now."""
    with Session(db.engine) as session:
        return repo.schema_revision(session)


@router.get("/docs", response_class=HTMLResponse)
async def docs(request: Request) -> HTMLResponse:
    """Swagger UI from static/vendor, started by static/js/docs.js."""
    return templates.TemplateResponse(request, "docs.html", {
        "title": f"{request.app.title} · API", "openapi_url": request.app.openapi_url})
