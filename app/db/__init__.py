"""Database access: engine set-up, one writer thread, repository functions."""

from app.db.session import Database, normalize_url

__all__ = ["Database", "normalize_url"]
