"""Mauscheln players who go bust: their page says they are out and what they can do
(not "your cards for the next deal are dealt…"), the others play on, and when no
person at the table has chips left the match ends instead of the bots playing on
alone. Real sockets against the real app."""

from __future__ import annotations

import time

from tests.conftest import Server
from tests.web.apiclient import Table
from tests.web.frames import open_socket, recv_until

# five seats, 4 chips each, a stake of 4, Anna deals first: Anna and Bert only pass
# or fold, so Anna is out from deal 2 on (she staked her last chips) and Bert, who
# deals it, from deal 3 on; with seed 3 the easy bots keep chips meanwhile whatever
# their dice
OPTIONS = {"chips": 4, "stake": 4, "dealer": 0}


def cautious(legal: list[str]) -> str:
    return next((a for a in ("no_knock", "pass", "fold") if a in legal), legal[0])


def hand_of(frame: str) -> str:
    return frame.split('id="hand"', 1)[1].split('id="host-end"', 1)[0]


def play_until(table: Table, tokens: list[str], done: object) -> dict[str, object]:
    """Anna and Bert play cautiously whenever it is their turn until ``done(view)``."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = table.view()
        if done(state):  # type: ignore[operator]
            return state
        for token in tokens:
            mine = table.view(token)
            if mine["legal"]:
                table.act(token, cautious(mine["legal"]), mine["version"])
                break
        else:
            time.sleep(0.02)
    raise AssertionError("the table did not get there")


def test_a_bust_player_is_told_so_and_the_match_ends_when_nobody_can_play_on(
        sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "mauscheln", players=5, options=OPTIONS, seed=3)
    tokens = [table.join("Anna", seat=0)[1], table.join("Bert", seat=1)[1]]
    for _ in range(3):
        r = table.http.post(f"/api/rooms/{table.room}/bots", json={"level": "easy"},
                            headers={"Authorization": f"Bearer {table.host_token}"})
        assert r.status_code == 200
    assert table.start().status_code == 200
    with (open_socket(sqlite_server.ws_base, table.room, tokens[0]) as anna,
          open_socket(sqlite_server.ws_base, table.room, tokens[1]) as bert):
        state = play_until(table, tokens, lambda s: 0 in s["view"]["out"])
        assert state["status"] == "playing" and 1 not in state["view"]["out"]
        frame = recv_until(anna, lambda f: "You are out of this game." in f)
        hand = hand_of(frame)
        assert "You have no chips left." in hand
        assert "You can watch the others play on" in hand
        assert "The host can end the game for everybody" in hand
        assert "Your cards for the next deal" not in hand
        assert "You are out of this game." not in hand_of(
            recv_until(bert, lambda f: 'id="hand"' in f))

        # Bert deals deal 3 with his last chips: nobody at the table can play on
        state = play_until(table, tokens, lambda s: s["status"] == "finished")
        view = state["view"]
        assert view["deal_no"] == 3 and view["last_deal"]["called_off"] == "nobody_plays_on"
        assert sum(1 for c in view["scores"] if c > 0) >= 2, "the bots could have played on"
        for ws in (anna, bert):
            frame = recv_until(ws, lambda f: 'data-status="finished"' in f)
            assert "called off: only bots were left to play on." in frame
            assert "You are out of this game." not in frame, "the game is over instead"
