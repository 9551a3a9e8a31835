"""All settings in one place, read from environment variables (see README)."""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.hosts import public_origin


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False, extra="ignore")

    # SQLite file by default; PostgreSQL as postgresql://user:pass@host:5432/db
    database_url: str = "sqlite:///./data/stammtisch.db"
    # Send cookies only over HTTPS (turn on behind a TLS proxy).
    secure_cookies: bool = False
    # Largest WebSocket message a client may send, in bytes.
    max_message_bytes: int = 4096
    # Compress the table sockets' pushes (permessage-deflate, which every browser
    # offers): about a seventh of the bytes for a fifth more CPU per action (README). Not
    # read by the app but by scripts/serve.sh: uvicorn negotiates it in the handshake.
    ws_compression: bool = True
    # Extra origins allowed to open table WebSockets (comma separated); the
    # server's own origin is always allowed.
    allowed_origins: str = ""
    # The address people reach the server at (https://cards.example.org): every
    # absolute link (the room link, the QR codes, the API's "url") is made from it,
    # whatever Host a request names, and it is an allowed origin. Empty: the
    # request's own scheme and Host, used only when the Host is a valid host name
    # (app.hosts); a request naming anything else gets 400 instead of a link.
    public_url: str = ""
    # The most moves (of any rooms) one database commit may carry: the moves that
    # arrive while the database is busy are written together; 1 writes each alone.
    write_group_max: int = 64
    # Several server processes on one PostgreSQL database (docs/scaling.md): a process
    # serves a room only while it holds the room's lease in the database, taken when
    # the room is first asked for and renewed every LEASE_SECONDS / 3; the writes of a
    # process that lost a room are refused. auto: on with PostgreSQL, off with SQLite
    # (one process per file, app/db/one_server.py); true is refused at start with
    # SQLite. Off: one process serves every room and restores them all at start.
    room_leases: Literal["auto"] | bool = "auto"
    # How long a room's lease lasts without renewal: a process that died gives its
    # rooms up to another after at most this long.
    lease_seconds: float = 8.0
    # Pause between two bot moves, in milliseconds (so people can follow them).
    bot_delay_ms: int = 700
    # Time a strong bot may think about one move, in milliseconds (app.bots.pool).
    bot_budget_ms: int = 1000
    # Worker processes the strong bots think in; 0: one per core but one, at least 1.
    bot_pool_size: int = 0
    # Time the review of a person's deal may think about each of their decisions, in
    # milliseconds: in the bot pool's review worker, only while no bot's move waits.
    review_budget_ms: int = 1000
    # Let POST /api/rooms take a "seed" (deterministic decks: tests and replays only;
    # a seeded room's deck is known to whoever chose the seed).
    allow_seeded_rooms: bool = False
    # A started room that nobody has open (no person's page) and where nothing was
    # played for this long leaves memory (finished results stay; an unfinished match
    # there is closed). API calls and chat lines do not keep it (app.rooms.quotas).
    room_idle_minutes: float = 180.0
    # A room whose match never started is deleted (not only closed) after this long
    # without a person's page open at it, counted from its opening or the last page
    # that closed; a finished room leaves memory after this long likewise.
    unstarted_room_idle_minutes: float = 15.0
    log_level: str = "info"
    # Development: templates are checked for changes on every render and static files
    # on every request (otherwise both are read once, at start).
    dev: bool = False

    # ----- limits (app/web/limits.py, app/rooms/quotas.py) ---------------------------
    # Largest HTTP request body (JSON or form), counted as it arrives, in bytes.
    max_body_bytes: int = 65536
    # Rooms one client (IP address; IPv6 by /56) may open, as "N/period" rules
    # separated by ";" (periods: second, minute, hour, day).
    rate_rooms: str = "10/minute;60/hour"
    # Seats one client may take (joins over the API or the form).
    rate_joins: str = "30/minute;300/hour"
    # QR codes drawn for one client: a room's code is drawn once per link and
    # language and then kept, a "link another browser" code is drawn for each link.
    rate_qr: str = "30/minute;300/hour"
    # Open table WebSockets (and so open table tabs) per client and per room.
    max_sockets_per_client: int = 30
    max_sockets_per_room: int = 60
    # Open rooms in memory on the whole server; creating more is refused.
    max_open_rooms: int = 300
    # Rooms one client may have open at once (waiting, played, or finished without a
    # rematch); opening more is refused. 0: no cap per client.
    max_rooms_per_client: int = 5
    # HTTP requests one client may have in progress at once (a body still arriving
    # counts); more get 429 at once (app/web/limits.py).
    max_requests_per_client: int = 20
    # Seconds a request's body may take to arrive, counted from its headers; a slower
    # one gets 408 and its connection is closed.
    body_timeout_s: float = 10.0
    # Seconds an idle HTTP connection is kept open for the browser's next request
    # (uvicorn --timeout-keep-alive; read by scripts/serve.sh).
    keepalive_s: int = 5

    # ----- behind a reverse proxy ------------------------------------------------------
    # Addresses whose X-Forwarded-For / X-Forwarded-Proto headers are trusted
    # (uvicorn --forwarded-allow-ips; comma separated, "*" for any). Behind a proxy
    # on the same host the default is right; in Docker Compose the proxy's address.
    forwarded_allow_ips: str = "127.0.0.1"

    @field_validator("public_url")
    @classmethod
    def _public_origin(cls, value: str) -> str:
        return public_origin(value) if value.strip() else ""


@lru_cache
def get_settings() -> Settings:
    return Settings()
