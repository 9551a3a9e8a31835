"""The write path alone: how many steps per second ``Database.write`` commits.

``--rooms`` rooms each write ``--steps`` steps one after another (each waits for its
own commit, as a room does), all rooms at once, through the real
``repo.record_step`` with a real Schafkopf snapshot. Run once with every step
committed alone (``group_max`` 1) and once with grouped commits (``group_max``
``WRITE_GROUP_MAX``, default 64), on a temporary SQLite file or a throwaway schema
of ``--database-url`` PostgreSQL. It prints steps/s, steps per commit and the
ratio: the ceiling the database puts on a server's actions/s (the load bench shows
how far below it rendering keeps one process).

``--fenced`` (PostgreSQL): every room's lease is held and every step written fenced,
as with ``ROOM_LEASES`` (``app.rooms.leases``: the match's UPDATE runs on its own,
before the pipeline, and its row count is checked).

Usage: python bench/write.py [--rooms 20] [--steps 100] [--database-url postgresql://...]
                             [--fenced]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.db import Database, repo  # noqa: E402
from app.db.session import GROUP_MAX  # noqa: E402
from app.games import new_match  # noqa: E402
from bench.load import database, load_average  # noqa: E402


async def play(db: Database, rooms: list[str], steps: int, owner: str | None) -> float:
    snapshot = new_match("schafkopf", 4, {}).snapshot()

    async def room(match_id: str) -> None:
        for seq in range(1, steps + 1):
            await db.write(repo.record_step, match_id=match_id, seq=seq, seat=seq % 4,
                           action="play:EO", events=[{"type": "played", "seq": seq}],
                           snapshot=snapshot, deals=[], owner=owner)

    t0 = time.perf_counter()
    await asyncio.gather(*(room(r) for r in rooms))
    return time.perf_counter() - t0


def measure(url: str, group_max: int, rooms: int, steps: int,
            owner: str | None) -> tuple[float, float]:
    """(steps/s, steps per commit) with ``group_max``; ``owner``: fenced steps of the
    process that holds every room's lease."""
    db = Database(url, group_max=group_max)
    try:
        ids = [f"w{group_max}-{i}" for i in range(rooms)]
        for match_id in ids:
            db.run_sync(repo.create_match, match_id=match_id, game="schafkopf", players=4,
                        options={}, host_token="bench")
            if owner is not None:
                db.run_sync(repo.take_lease, match_id=match_id, owner=owner, seconds=600)
        wall = asyncio.run(play(db, ids, steps, owner))
        return rooms * steps / wall, db.written_steps / max(1, db.write_commits)
    finally:
        db.close()


def main() -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--rooms", type=int, default=20)
    p.add_argument("--steps", type=int, default=100, help="steps per room")
    p.add_argument("--group-max", type=int, default=GROUP_MAX)
    p.add_argument("--database-url", default=None,
                   help="a PostgreSQL URL; a throwaway schema is created and dropped")
    p.add_argument("--fenced", action="store_true",
                   help="steps written fenced, as with ROOM_LEASES (PostgreSQL)")
    args = p.parse_args()
    if not 1 <= args.rooms <= 1000 or not 1 <= args.steps <= 10_000:
        raise SystemExit("--rooms is 1..1000 and --steps 1..10000")
    kind = "PostgreSQL" if args.database_url else "SQLite"
    if args.fenced and not args.database_url:
        raise SystemExit("--fenced needs --database-url (room leases are PostgreSQL's)")
    owner = "bench-process" if args.fenced else None
    with tempfile.TemporaryDirectory(prefix="stammtisch-write-") as tmp, \
            database(args.database_url, Path(tmp)) as url:
        alone, _ = measure(url, 1, args.rooms, args.steps, owner)
        grouped, per_commit = measure(url, args.group_max, args.rooms, args.steps, owner)
    print(f"write bench: {kind}{' fenced' if owner else ''}, "
          f"{args.rooms} rooms x {args.steps} steps, "
          f"load average {load_average()}")
    print(f"  every step its own commit        {alone:8.0f} steps/s")
    print(f"  grouped (at most {args.group_max:3d} per commit) {grouped:8.0f} steps/s, "
          f"{per_commit:.1f} steps per commit")
    print(f"  ratio grouped / alone            {grouped / alone:8.2f}")


if __name__ == "__main__":
    main()
