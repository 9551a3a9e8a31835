"""How many rooms one client can open, and what keeps a room alive.

Issue 25 item 4: a room with ``away_seconds`` 600 and one join counted as active for
40 minutes, a ``/view`` every 10 minutes kept it for ever, and IPv6 clients were
counted per /64 (24 rooms from one /56). This starts the app as ``make run``
serves it (``tests.conftest.Server``'s uvicorn flags, the default ``RATE_ROOMS``
and ``MAX_ROOMS_PER_CLIENT``) on a fresh SQLite database with the idle limits
scaled down (``UNSTARTED_ROOM_IDLE_MINUTES`` 0.25, ``ROOM_IDLE_MINUTES`` 0.5: 15 and
30 s instead of minutes), the server trusting 127.0.0.1 as its proxy, and then:

1. 24 clients, each a different /64 of one IPv6 /56 (``X-Forwarded-For``), open a
   room each: how many get one;
2. from addresses of their own, rooms that somebody tries to keep: a waiting room
   with one join whose seat reads ``/view`` every 5 s; a waiting room whose host
   seats and removes a bot every 5 s; a started match (one person, three bots)
   whose person reads ``/view`` every 5 s and never moves; a started match whose
   person has the table open (a socket) and never moves;

and prints, for each kept room, after how many seconds it was gone (its view 404),
or that it was still open at the end (``--seconds``, 75). ``--app-dir DIR`` serves
the app from another checkout (``git archive <commit> | tar -x -C DIR``, its
``static/vendor`` copied in) to measure the code before a change.

Usage: python bench/room_hold.py [--seconds S] [--app-dir DIR]
Only 127.0.0.1 is contacted.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from tests.conftest import Server, migrate  # noqa: E402
from tests.web.frames import TableSocket, open_socket  # noqa: E402

EVERY_S = 5.0
ENV = {"MAX_ROOMS_PER_CLIENT": "5", "RATE_ROOMS": "10/minute;60/hour",
       "RATE_JOINS": "30/minute;300/hour", "UNSTARTED_ROOM_IDLE_MINUTES": "0.25",
       "ROOM_IDLE_MINUTES": "0.5", "FORWARDED_ALLOW_IPS": "127.0.0.1"}


def as_client(http: httpx.Client, address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def one_56(http: httpx.Client) -> Counter[int]:
    """24 /64s of 2001:db8:0:1200::/56 open a room each."""
    answers: Counter[int] = Counter()
    for i in range(24):
        r = http.post("/api/rooms", json={"game": "schafkopf", "options": {"away_seconds": 600}},
                      headers=as_client(http, f"2001:db8:0:12{i:02x}::1"))
        answers[r.status_code] += 1
    return answers


class Kept:
    """A room and what is done every EVERY_S to keep it."""

    def __init__(self, name: str, room: str, keep: Callable[[], object]) -> None:
        self.name, self.room, self.keep = name, room, keep
        self.gone_at: float | None = None


def rooms(http: httpx.Client, ws_base: str, sockets: list[TableSocket]) -> list[Kept]:
    out = []

    def auth(token: str, address: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}", **as_client(http, address)}

    def opened(address: str) -> tuple[str, str]:
        made = http.post("/api/rooms", json={"game": "schafkopf",
                                             "options": {"away_seconds": 600}},
                         headers=as_client(http, address)).json()
        return made["room"], made["host_token"]

    room, _host = opened("198.51.100.1")
    token = http.post(f"/api/rooms/{room}/join", json={"name": "Anna"},
                      headers=as_client(http, "198.51.100.1")).json()["token"]
    out.append(Kept("waiting, its seat reads /view every 5 s", room, partial(
        http.get, f"/api/rooms/{room}/view", headers=auth(token, "198.51.100.1"))))

    room, host = opened("198.51.100.2")
    http.post(f"/api/rooms/{room}/join", json={"name": "Anna"},
              headers=as_client(http, "198.51.100.2"))

    def bot_in_and_out(r: str = room, h: str = host) -> None:
        seat = http.post(f"/api/rooms/{r}/bots", headers=auth(h, "198.51.100.2")).json()
        if "seat" in seat:
            http.delete(f"/api/rooms/{r}/bots/{seat['seat']}", headers=auth(h, "198.51.100.2"))

    out.append(Kept("waiting, its host seats and removes a bot every 5 s", room,
                    bot_in_and_out))

    for address, socket in (("198.51.100.3", False), ("198.51.100.4", True)):
        room, host = opened(address)
        token = http.post(f"/api/rooms/{room}/join", json={"name": "Anna"},
                          headers=as_client(http, address)).json()["token"]
        for _ in range(3):
            http.post(f"/api/rooms/{room}/bots", headers=auth(host, address))
        http.post(f"/api/rooms/{room}/start", headers=auth(host, address))
        if socket:
            sockets.append(open_socket(ws_base, room, token))
            out.append(Kept("started, its person's table open, no move", room,
                            sockets[-1].ping))
        else:
            out.append(Kept("started, its person reads /view every 5 s, no move", room,
                            partial(http.get, f"/api/rooms/{room}/view",
                                    headers=auth(token, address))))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=75.0)
    ap.add_argument("--app-dir", type=Path, default=ROOT)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'hold.db'}"
        migrate(url)
        srv = Server(url, Path(tmp) / "server.log", env=ENV)
        srv.cwd = args.app_dir.resolve()
        srv.start()
        sockets: list[TableSocket] = []
        try:
            http = httpx.Client(base_url=srv.base, timeout=30)
            print(f"app from {srv.cwd}")
            answers = one_56(http)
            print(f"24 /64s of one /56 open a room each: {dict(answers)} (status: answers)")
            kept = rooms(http, srv.ws_base, sockets)
            start = time.monotonic()
            while time.monotonic() - start < args.seconds:
                for k in kept:
                    if k.gone_at is None:
                        if http.get(f"/api/rooms/{k.room}/view").status_code == 404:
                            k.gone_at = time.monotonic() - start
                        else:
                            k.keep()
                time.sleep(EVERY_S)
            for k in kept:
                when = (f"gone after {k.gone_at:.0f} s" if k.gone_at is not None
                        else f"still open after {args.seconds:.0f} s")
                print(f"  {k.name}: {when}")
            http.close()
        finally:
            for s in sockets:
                s.close()
            srv.stop()


if __name__ == "__main__":
    main()
