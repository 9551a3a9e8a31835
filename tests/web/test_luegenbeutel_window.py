"""The fair challenge window on a real server and the real clock: the next player's
move waits ``challenge_ms``. Every other window rule is tested on a clock moved by
hand in ``tests/rooms/test_challenge_windows.py``."""

from __future__ import annotations

import time
from typing import Any

from tests.conftest import Server
from tests.web.apiclient import Table

WINDOW_MS = 400


def _table(server: Server, players: int = 3) -> tuple[Table, list[str]]:
    table = Table(server.base, "luegenbeutel", players=players,
                  options={"challenge_ms": WINDOW_MS, "dealer": 0}, seed=21)
    tokens = [table.join(n)[1] for n in ("Anna", "Bert", "Cilli")[:players]]
    assert table.start().status_code == 200
    return table, tokens


def _lay_and_end(table: Table, token: str, cards: int = 1) -> dict[str, Any]:
    for _ in range(cards):
        st = table.view(token)
        lay = next(a for a in st["legal"] if a.startswith("lay:"))
        assert table.act(token, lay, st["version"]).status_code == 200
    st = table.view(token)
    r = table.act(token, "end", st["version"])
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_the_next_players_move_is_held_back_until_the_window_closes(
        sqlite_server: Server) -> None:
    table, tokens = _table(sqlite_server)
    ended = _lay_and_end(table, tokens[1])  # forehand of dealer 0
    t_end = time.monotonic()
    st = table.view(tokens[2])
    assert "challenge:1" in st["legal"]
    lay = next(a for a in st["legal"] if a.startswith("lay:"))
    r = table.act(tokens[2], lay, st["version"])
    waited = time.monotonic() - t_end
    assert r.status_code == 200, r.text
    assert waited >= WINDOW_MS / 1000 * 0.9, f"accepted after {waited:.3f} s"
    assert ended["version"] + 1 == r.json()["version"]
