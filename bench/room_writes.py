"""What the room leases' fence costs the writes of a room besides its steps.

With ``ROOM_LEASES`` every such write (a seat, ``room_state``, a chat line, ...) first
locks the match's row with ``owner = <this process>`` in its transaction
(``app.rooms.writes``, ``repo.fence``): one statement more. This times two of them
through the room service, as a request makes them, in alternating rounds with leases
and without, on a throwaway schema of a PostgreSQL database: the host adding and
removing a bot (a seat written each time) and a chat line posted. It prints the
median time per write of each and the ratio fenced/unfenced of each round.

Usage: python bench/room_writes.py --database-url postgresql://... [--writes 200]
                                   [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.db import Database  # noqa: E402
from app.rooms.chat import TableChat  # noqa: E402
from app.rooms.service import RoomService  # noqa: E402
from bench.load import database, load_average  # noqa: E402


async def one_round(url: str, leases: bool, writes: int) -> tuple[float, float]:
    """Seconds per seat write and per chat line, with or without leases."""
    service = RoomService(Database(url), bot_delay_ms=0, room_leases=leases)
    # no rate limit in the way: the writes are what is measured
    service.chat = TableChat(service.db, rate="1000000/second",
                             spectators_rate="1000000/second", writes=service.writes)
    try:
        room, host = await service.create(game="schafkopf")
        await service.join(room.id, "Anna")
        started = time.perf_counter()
        for _ in range(writes):
            seat = await service.add_bot(room.id, host)
            await service.remove_bot(room.id, host, seat)
        seat_s = (time.perf_counter() - started) / (2 * writes)
        started = time.perf_counter()
        for i in range(writes):
            await service.chat.post(room, 0, text=f"line {i}")
        return seat_s, (time.perf_counter() - started) / writes
    finally:
        await service.close()
        service.db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True, help="postgresql://...")
    parser.add_argument("--writes", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory() as tmp, database(args.database_url, Path(tmp)) as url:
        rounds: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
        for n in range(args.rounds):
            for leases in (False, True) if n % 2 == 0 else (True, False):
                rounds[leases].append(asyncio.run(one_round(url, leases, args.writes)))
    for leases in (False, True):
        seat = statistics.median(r[0] for r in rounds[leases]) * 1000
        chat = statistics.median(r[1] for r in rounds[leases]) * 1000
        print(f"{'fenced' if leases else 'unfenced'}: a seat written {seat:.2f} ms, "
              f"a chat line {chat:.2f} ms (median of {args.rounds} rounds of "
              f"{args.writes})")
    pairs = list(zip(rounds[True], rounds[False], strict=True))
    print("fenced / unfenced, each round: seats",
          [round(f[0] / u[0], 2) for f, u in pairs], "chat",
          [round(f[1] / u[1], 2) for f, u in pairs])
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
