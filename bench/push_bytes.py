"""Bytes per push: a seeded Schafkopf deal at four seats, before and after diff pushes.

The real app runs in this process (Starlette's TestClient, its lifespan, a migrated
SQLite database in a temporary folder). Four seats join over the JSON API, each opens
the table WebSocket with its seat token, and the deal is played by seeded random
legal actions sent over the API. After every action each socket reads its pushes up
to the one with the new version; their text is that seat's bytes for the action.

The deal is played twice, the same way (same seed, same choices):

* **full**: every push is the whole table rendered for each seat on its own
  (``app.web.ws.FULL_FRAMES``: how pushes were before), and
* **diff**: each socket sends only the fragments whose HTML changed for it, and a
  fragment that is the same for several seats is rendered once.

Printed: median, mean and total bytes per action per seat, the first frame on
connecting (the whole table in both), the ratio full/diff, fragment renders per
action, and the time the server spent drawing the pushes (each socket's sender:
rendering, and in the diff pass finding what changed; milliseconds per action for
all four seats together). Bytes are
WebSocket message payloads (UTF-8); "deflated" is what permessage-deflate (which
browsers and uvicorn agree on by default) would make
of them: one compressor per socket keeping its window from message to message, as the
``websockets`` server does (12-bit window, memLevel 5).

    .venv/bin/python bench/push_bytes.py              # both passes, seed 4, 3 rounds
    .venv/bin/python bench/push_bytes.py --seed 7 --deals 2
    .venv/bin/python bench/push_bytes.py --full       # the full-frame pass alone
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.web.fragments import FRAGMENTS, SharedFragments  # noqa: E402
from app.web.ws import Connection  # noqa: E402
from tests.web.frames import frame_version  # noqa: E402

SEATS = 4
ORIGINAL_PARTS = SharedFragments.parts
ORIGINAL_CHANGES = Connection.changes
NAMES = ("Anna", "Bert", "Cilli", "Done")


@dataclass
class Pass:
    mode: str
    first: list[int] = field(default_factory=list)  # bytes of the first frame per seat
    per_action: list[list[int]] = field(default_factory=list)  # [action][seat] bytes
    deflated: list[list[int]] = field(default_factory=list)  # the same, deflated
    pushes: int = 0
    renders: int = 0
    reused: int = 0
    render_s: float = 0.0  # time in the sockets' render calls

    def flat(self) -> list[int]:
        return [b for row in self.per_action for b in row]

    def flat_deflated(self) -> list[int]:
        return [b for row in self.deflated for b in row]


def play(mode: str, seed: int, deals: int) -> Pass:
    from fastapi.testclient import TestClient

    from app.main import create_app
    from app.web import ws
    from app.web.fragments import shared

    ws.FULL_FRAMES = mode == "full"
    result = Pass(mode)
    timed(ws, result)
    rng = random.Random(seed)
    with TestClient(create_app()) as client:
        r = client.post("/api/rooms", json={
            "game": "schafkopf", "seed": seed,
            "options": {"dealer": 3, "trick_pause_ms": 0, "next_deal_s": 0}})
        assert r.status_code == 201, r.text
        room, host = r.json()["room"], r.json()["host_token"]
        tokens = []
        for name in NAMES:
            joined = client.post(f"/api/rooms/{room}/join", json={"name": name})
            assert joined.status_code == 200, joined.text
            tokens.append(joined.json()["token"])
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        assert client.post(f"/api/rooms/{room}/start",
                           headers={"Authorization": f"Bearer {host}"}).status_code == 200
        sockets = [client.websocket_connect(f"/r/{room}/ws", headers=h).__enter__()
                   for h in auth]
        try:
            version = 0
            packers = [zlib.compressobj(6, zlib.DEFLATED, -12, 5) for _ in sockets]

            def deflated(seat: int, text: str) -> int:
                packer = packers[seat]
                return len(packer.compress(text.encode()) + packer.flush(zlib.Z_SYNC_FLUSH)) - 4

            for seat, sock in enumerate(sockets):  # the whole table (and the chat) on connecting
                text = sock.receive_text()
                version = frame_version(text)
                result.first.append(len(text.encode()))
                deflated(seat, text)
            the_room = client.app.state.rooms.get(room)  # type: ignore[attr-defined]
            cache = shared(the_room)
            cache.renders = cache.reused = 0
            result.render_s = 0.0
            while True:
                views = [client.get(f"/api/rooms/{room}/view", headers=h).json()
                         for h in auth]
                if views[0]["status"] != "playing" or views[0]["view"]["deal_no"] > deals:
                    break
                acting = [s for s, v in enumerate(views) if v["legal"]]
                seat = rng.choice(acting)
                action = rng.choice(views[seat]["legal"])
                done = client.post(f"/api/rooms/{room}/actions", headers=auth[seat],
                                   json={"action": action, "version": version})
                assert done.status_code == 200, done.text
                version += 1
                row, packed = [], []
                for seat, sock in enumerate(sockets):
                    got = small = 0
                    while True:
                        text = sock.receive_text()
                        got += len(text.encode())
                        small += deflated(seat, text)
                        result.pushes += 1
                        if 'id="version"' in text and frame_version(text) >= version:
                            break
                    row.append(got)
                    packed.append(small)
                result.per_action.append(row)
                result.deflated.append(packed)
            result.renders, result.reused = cache.renders, cache.reused
        finally:
            for sock in sockets:
                sock.__exit__(None, None, None)
    return result


def timed(ws: Any, result: Pass) -> None:
    """Count the time the sockets' senders spend rendering (both ways of pushing)."""
    from app.web import fragments

    def clock(fn: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                result.render_s += time.perf_counter() - started
        return run

    ws.render_frame = clock(fragments.render_frame)
    fragments.SharedFragments.parts = clock(ORIGINAL_PARTS)  # type: ignore[method-assign]
    ws.Connection.changes = clock(ORIGINAL_CHANGES)


def report(passes: list[Pass]) -> None:
    def kb(n: float) -> str:
        return f"{n / 1024:.1f} KiB" if n >= 1024 else f"{n:.0f} B"

    print(f"{'pass':<6} {'actions':>7} {'first frame':>12} {'median/act/seat':>16} "
          f"{'mean/act/seat':>14} {'total/seat':>11} {'deflated median':>16} "
          f"{'deflated total':>15} {'renders/act':>12} {'ms/act':>7}")
    for p in passes:
        flat, small = p.flat(), p.flat_deflated()
        actions = len(p.per_action)
        renders = (f"{p.renders / actions:.1f}+{p.reused / actions:.1f}"
                   if p.mode == "diff" else f"{len(FRAGMENTS) * SEATS}")
        print(f"{p.mode:<6} {actions:>7} {kb(statistics.median(p.first)):>12} "
              f"{kb(statistics.median(flat)):>16} {kb(statistics.mean(flat)):>14} "
              f"{kb(sum(flat) / SEATS):>11} {kb(statistics.median(small)):>16} "
              f"{kb(sum(small) / SEATS):>15} {renders:>12} {1000 * p.render_s / actions:>7.2f}")
    if len(passes) == 2:
        full, diff = passes
        f_flat, d_flat = full.flat(), diff.flat()
        f_small, d_small = full.flat_deflated(), diff.flat_deflated()
        print(f"\nfull/diff: median {statistics.median(f_flat) / statistics.median(d_flat):.1f}x,"
              f" total {sum(f_flat) / sum(d_flat):.1f}x; deflated: median"
              f" {statistics.median(f_small) / statistics.median(d_small):.1f}x,"
              f" total {sum(f_small) / sum(d_small):.1f}x;"
              f" render time {full.render_s / diff.render_s:.2f}x")
    print("renders/act (diff): fragments rendered + fragments given from the shared"
          f" rendering, for all four seats; the full pass renders {len(FRAGMENTS)} per seat")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=4)
    p.add_argument("--deals", type=int, default=1, help="deals to play (default 1)")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--full", action="store_true", help="only the full-frame pass")
    which.add_argument("--diff", action="store_true", help="only the diff pass")
    p.add_argument("--rounds", type=int, default=3,
                   help="deals per pass, the passes taking turns to go first; the render"
                        " time is the median of the rounds (default 3)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        from tests.conftest import migrate

        url = f"sqlite:///{tmp}/bench.db"
        migrate(url)
        os.environ.update(DATABASE_URL=url, ALLOW_SEEDED_ROOMS="true", LOG_LEVEL="warning")
        from app.config import get_settings

        get_settings.cache_clear()
        modes = ["full"] if args.full else ["diff"] if args.diff else ["full", "diff"]
        play("diff", args.seed + 1, 1)  # warm up: templates compiled, blocks analysed
        runs: dict[str, list[Pass]] = {m: [] for m in modes}
        for r in range(args.rounds):
            for mode in modes if r % 2 == 0 else modes[::-1]:
                runs[mode].append(play(mode, args.seed, args.deals))
    passes = []
    for mode in modes:  # the bytes are the same in every round; the time is not
        done = runs[mode][0]
        done.render_s = statistics.median(p.render_s for p in runs[mode])
        passes.append(done)
    print(f"Schafkopf, {SEATS} seats, seed {args.seed}, {args.deals} deal(s), median of"
          f" {args.rounds} round(s); bytes per action per seat = the pushes one socket got"
          " for one action")
    report(passes)


if __name__ == "__main__":
    main()
