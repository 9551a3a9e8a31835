"""When a match ends its last trick stays on the felt: the page that played it gets
a board holding the four cards of the final trick, not an empty one."""

from __future__ import annotations

import re

from tests.conftest import Server
from tests.web.apiclient import Table
from tests.web.frames import (
    frame_actions,
    frame_version,
    hidden_titles,
    open_socket,
    recv_until,
    send_action,
)


def board_of(frame: str) -> str:
    return frame.split('id="board"', 1)[1].split('id="status"', 1)[0]


def test_the_last_trick_of_a_schafkopf_match_stays_on_the_board(
        sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf", options={"dealer": 3, "target": 1},
                  seed=4)
    _, anna = table.join("Anna")
    headers = {"Authorization": f"Bearer {table.host_token}"}
    for _ in range(3):
        table.http.post(f"/api/rooms/{table.room}/bots", headers=headers, json={"level": "easy"})
    assert table.start().status_code == 200
    with open_socket(sqlite_server.ws_base, table.room, anna) as ws:
        frame = ws.recv(timeout=5)
        for _ in range(200):  # Anna plays whenever it is her turn, easy bots the rest
            if 'data-status="finished"' in frame:
                break
            if frame_actions(frame):
                version = frame_version(frame)
                send_action(ws, frame_actions(frame)[0], version)
                frame = recv_until(ws, lambda f, v=version: frame_version(f) > v, timeout=10)
            else:
                frame = ws.recv(timeout=10)
        assert 'data-status="finished"' in frame, "the match ended (a deal to one unit)"
        final = table.view()["view"]
        assert final["phase"] == "over" and final["trick"] == []
        last = final["last_deal"]["tricks"][-1]
        board = board_of(frame)
        trick = re.search(r'<div id="trick" class="([^"]*)"', board)
        assert trick and "final" in trick[1].split(), "it stays where it was played"
        cards = [card for _seat, card in last["plays"]]
        assert board.count('<figure class="played') == 4
        assert all(t in board for t in hidden_titles("schafkopf", cards))
        name = table.view()["seats"][last["winner"]]
        assert f"The last trick of the match: {name} took it." in board
