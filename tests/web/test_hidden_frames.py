"""No WebSocket frame holds a card its seat may not see: Beutelschneider's two
set-aside cards never, a face-down Lügenbeutel card only once a challenge turns it
over, and another seat's hand never."""

from __future__ import annotations

import random
import re
import threading
from typing import Any

from app.db import Database
from app.db.models import MatchRow
from app.web.cards import face
from tests.conftest import Server
from tests.web.apiclient import Table
from tests.web.frames import open_socket

TITLE_RE = re.compile(r'class="card (?!back)[^"]*"[^>]*title="([^"]+)"')  # faces, not backs


class Collector:
    """Keeps every frame a socket receives, on a thread of its own."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[str] = []
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while True:
                self.frames.append(str(self.ws.recv(timeout=30)))
        except Exception:
            return

    def close(self) -> None:
        self.ws.close()
        self.thread.join(5)


def _play(table: Table, tokens: list[str], rng: random.Random, until: Any) -> None:
    for _ in range(5000):
        states = [table.view(t) for t in tokens]
        if until(states[0]):
            return
        acting = [i for i, st in enumerate(states) if st["legal"]]
        if not acting:
            continue
        seat = rng.choice(acting)
        st = states[seat]
        table.act(tokens[seat], rng.choice(st["legal"]), st["version"])
    raise AssertionError("did not get there")


def test_set_aside_beutelschneider_cards_are_in_no_frame(sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "beutelschneider", players=3,
                  options={"dealer": 0}, seed=31)
    tokens = [table.join(n)[1] for n in ("Anna", "Bert", "Cilli")]
    assert table.start().status_code == 200
    db = Database(sqlite_server.db_url)
    try:
        removed = db.run_sync(lambda s: s.get_one(MatchRow, table.room).snapshot)["state"][
            "removed"]
    finally:
        db.close()
    collectors = [Collector(open_socket(sqlite_server.ws_base, table.room, t)) for t in tokens]
    collectors.append(Collector(open_socket(sqlite_server.ws_base, table.room)))
    _play(table, tokens, random.Random(4), lambda st: st["view"]["deal_no"] > 1)
    for c in collectors:
        c.close()
    titles = {face("beutelschneider", c).title for c in removed}
    checked = 0
    for c in collectors:
        for frame in c.frames:
            if "Deal <strong>1</strong>" not in frame:
                continue  # the next deal has other set-aside cards
            checked += 1
            assert not titles & set(TITLE_RE.findall(frame))
    assert checked >= 4 * 30, "every seat and the spectator saw the whole hand"
    log = sqlite_server.log_path.read_text()
    assert "room started" in log
    for code in removed:  # the server's own log names no card at all
        assert face("beutelschneider", code).title not in log
        assert f"play:{code}" not in log


def test_luegenbeutel_frames_show_own_hand_and_turned_over_cards_only(
        sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "luegenbeutel", players=3,
                  options={"dealer": 0, "challenge_ms": 0}, seed=8)
    tokens = [table.join(n)[1] for n in ("Anna", "Bert", "Cilli")]
    assert table.start().status_code == 200
    collectors = [Collector(open_socket(sqlite_server.ws_base, table.room, t)) for t in tokens]
    spectator = Collector(open_socket(sqlite_server.ws_base, table.room))
    _play(table, tokens, random.Random(6), lambda st: st["view"]["deal_no"] > 1
          or st["status"] == "finished")
    for c in [*collectors, spectator]:
        c.close()
    challenges = 0
    for seat, c in enumerate([*collectors, spectator]):
        for frame in c.frames:
            hand = frame.split('id="hand"', 1)[1].split("</section>", 1)[0]
            rest = frame.replace(hand, "")
            revealed = re.findall(r'<div class="revealed">(.*?)</div>', rest, re.S)
            for block in revealed:
                rest = rest.replace(block, "")
            challenges += len(revealed)
            assert not TITLE_RE.findall(rest), "a card face outside the hand and the reveal"
            if seat == 3:
                assert not TITLE_RE.findall(hand), "a spectator sees no hand"
    assert challenges, "the random game had at least one challenge to look at"
