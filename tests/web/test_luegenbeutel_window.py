"""The fair challenge window of Lügenbeutel, enforced by the room on a real server:
the next player's move waits ``challenge_ms``, a challenge can still come first,
and the end of a round waits for everybody (or the timeout)."""

from __future__ import annotations

import threading
import time
from typing import Any

from tests.conftest import Server
from tests.web.apiclient import Table

WINDOW_MS = 800


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


def test_a_challenge_during_the_window_comes_before_the_held_move(
        sqlite_server: Server) -> None:
    table, tokens = _table(sqlite_server)
    _lay_and_end(table, tokens[1])
    st = table.view(tokens[2])
    lay = next(a for a in st["legal"] if a.startswith("lay:"))
    result: dict[str, Any] = {}

    def next_player() -> None:
        result["response"] = table.act(tokens[2], lay, st["version"])

    waiting = threading.Thread(target=next_player)
    waiting.start()
    time.sleep(WINDOW_MS / 1000 / 4)
    challenger = Table.attach(sqlite_server.base, table.room)
    r = challenger.act(tokens[0], "challenge:1", st["version"])
    assert r.status_code == 200, r.text
    waiting.join(10)
    held = result["response"]
    assert held.status_code == 409
    assert "challenge came first" in held.json()["error"]
    last = table.view()["view"]["last_challenge"]
    assert last["challenger"] == 0 and last["accused"] == 1


def test_the_round_end_waits_for_everybody_then_accepts_for_the_silent(
        sqlite_server: Server) -> None:
    table, tokens = _table(sqlite_server, players=2)
    st = table.view(tokens[1])
    cards = len(st["view"]["hand"])
    _lay_and_end(table, tokens[1], cards)  # lays the whole hand in one turn
    st = table.view(tokens[0])
    assert st["view"]["phase"] == "challenge"
    assert "accept" in st["legal"]
    t0 = time.monotonic()
    deadline = t0 + 10
    while table.view()["view"]["phase"] == "challenge":
        assert time.monotonic() < deadline, "the room never closed the round"
        time.sleep(0.05)
    assert time.monotonic() - t0 >= WINDOW_MS / 1000 * 0.5
    view = table.view(tokens[0])["view"]
    assert view["last_deal"]["winner"] == 1
    assert view["scores"][1] > 0
