"""All settings in one place, read from environment variables (see README)."""

from __future__ import annotations

from functools import lru_cache

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False, extra="ignore")

    # SQLite file by default; PostgreSQL as postgresql://user:pass@host:5432/db
    database_url: str = "sqlite:///./data/stammtisch.db"
    # Send cookies only over HTTPS (turn on behind a TLS proxy).
    secure_cookies: bool = False
    # Largest WebSocket frame or JSON body a client may send, in bytes.
    max_message_bytes: int = 4096
    # Extra origins allowed to open table WebSockets (comma separated); the
    # server's own origin is always allowed.
    allowed_origins: str = ""
    # Pause between two bot moves, in milliseconds (so people can follow them).
    bot_delay_ms: int = 700
    # Let POST /api/rooms take a "seed" (deterministic decks: tests and replays only;
    # a seeded room's deck is known to whoever chose the seed).
    allow_seeded_rooms: bool = False
    # A room nobody has touched for this long leaves memory (finished results stay;
    # an unfinished match there is closed).
    room_idle_minutes: float = 180.0
    log_level: str = "info"


@lru_cache
def get_settings() -> Settings:
    return Settings()
