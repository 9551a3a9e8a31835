"""A consistent copy of the database while the server runs.

    python -m app.backup OUT          (or: make backup [OUT=...])

SQLite: SQLite's online backup API (``sqlite3.Connection.backup``) copies the
database page by page into ``OUT`` as one consistent snapshot, including what is
still in the write-ahead log; the server keeps playing meanwhile. Restore: stop
the server, put the copy where ``DATABASE_URL`` points (or point it at the copy),
start the server; open tables come back where the copy was taken.

PostgreSQL: ``pg_dump --format=custom`` (one consistent snapshot by itself) into
``OUT``; restore into an empty database with
``pg_restore --no-owner --dbname=postgresql://... OUT``.

Either way the copy holds everything: open tables with their snapshots and seat
tokens (keep backups as private as the database), the history and chip ledgers.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from sqlalchemy.engine import make_url

from app.config import get_settings
from app.db.session import normalize_url

PAGES_PER_STEP = 256  # the server may write between two steps of the copy


def backup(database_url: str, out: Path) -> Path:
    """Write a consistent copy of ``database_url`` to ``out``; returns ``out``."""
    url = make_url(normalize_url(database_url))
    out.parent.mkdir(parents=True, exist_ok=True)
    if url.get_backend_name() == "sqlite":
        if not url.database or url.database == ":memory:":
            raise SystemExit("There is no database file to back up.")
        source_path = Path(url.database)
        if not source_path.exists():
            raise SystemExit(f"No database at {source_path}.")
        tmp = out.with_name(out.name + ".part")
        tmp.unlink(missing_ok=True)
        source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True, timeout=30)
        target = sqlite3.connect(tmp)
        try:
            source.backup(target, pages=PAGES_PER_STEP)
            target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
        finally:
            target.close()
            source.close()
        os.replace(tmp, out)
        return out
    if url.get_backend_name() == "postgresql":
        pg_dump = shutil.which("pg_dump")
        if pg_dump is None:
            raise SystemExit("pg_dump is needed to back up PostgreSQL "
                             "(apt-get install postgresql-client).")
        libpq = url.set(drivername="postgresql").render_as_string(hide_password=False)
        subprocess.run([pg_dump, "--format=custom", "--no-owner", f"--file={out}",
                        f"--dbname={libpq}"], check=True)
        return out
    raise SystemExit(f"Cannot back up a {url.get_backend_name()} database.")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m app.backup",
        description="Write a consistent copy of the Stammtisch database (DATABASE_URL) "
                    "while the server runs.")
    parser.add_argument("out", type=Path, help="the file to write")
    parser.add_argument("--database-url", default=None,
                        help="default: DATABASE_URL (the server's setting)")
    args = parser.parse_args(argv)
    out = backup(args.database_url or get_settings().database_url, args.out)
    print(f"backup written: {out} ({out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
