"""The public history leads nobody to a table still being played, and spectators
write in a table's chat only when its host lets them (issue 25 item 5: /history/{id}
linked the rematch's /r/{next} while it was played, and spectator chat was on by
default)."""

from __future__ import annotations

import json
import re

import httpx

from app.rooms.table_options import TABLE_DEFAULTS
from tests.conftest import Server
from tests.web.apiclient import Table
from tests.web.frames import frame_flash, open_socket, recv_until


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _ended(table: Table) -> None:
    r = table.http.post(f"/api/rooms/{table.room}/end", headers=_auth(table.host_token))
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text


def test_the_history_links_a_rematch_only_once_it_is_finished(sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "mauscheln", players=3, options={"chips": 20}, seed=3)
    for name in ("Anna", "Bert", "Cilli"):
        table.join(name)
    assert table.start().status_code == 200
    _ended(table)
    r = table.http.post(f"/api/rooms/{table.room}/rematch", headers=_auth(table.host_token))
    assert r.status_code == 201, r.text
    live = r.json()["room"]
    with httpx.Client(base_url=sqlite_server.base, timeout=10) as stranger:
        pages = {}
        for path in ("/history", f"/history/{table.room}", f"/history/{table.room}/replay",
                     f"/r/{table.room}/ledger"):
            r = stranger.get(path)
            assert r.status_code == 200, path
            pages[path] = r.text
        assert "Chips at this table" in pages[f"/r/{table.room}/ledger"]
        for path, page in pages.items():
            assert live not in page, f"{path} names the table being played"
            assert not re.search(r'href="/r/[^"/]+"', page), f"{path} links a table"
        assert "Rematch: the next match" not in pages[f"/history/{table.room}"]
        assert "Back to the table" not in pages[f"/r/{table.room}/ledger"]
        # once the rematch is over, both matches link each other in the history
        rematch = Table.attach(sqlite_server.base, live)
        rematch.host_token = table.host_token
        _ended(rematch)
        page = stranger.get(f"/history/{table.room}").text
        assert f'<a href="/history/{live}" rel="next">' in page
        assert f'<a href="/history/{table.room}" rel="prev">' in stranger.get(
            f"/history/{live}").text


def test_spectators_may_not_write_unless_the_host_lets_them(sqlite_server: Server) -> None:
    assert TABLE_DEFAULTS["spectator_chat"] is False
    games = httpx.get(sqlite_server.base + "/api/games").json()
    option = next(o for o in games[0]["table_options"] if o["name"] == "spectator_chat")
    assert option["default"] is False
    lobby = httpx.get(sqlite_server.base + "/").text
    box = re.search(r'<input[^>]*name="table.spectator_chat"[^>]*>', lobby)
    assert box is not None and "checked" not in box[0], "unticked in the lobby"
    table = Table(sqlite_server.base, "schafkopf")  # no options: the defaults
    for name in ("Anna", "Bert", "Cilli", "Done"):
        table.join(name)
    assert table.start().status_code == 200
    spectator = open_socket(sqlite_server.ws_base, table.room)
    first = recv_until(spectator, lambda f: 'id="chat-controls"' in f)
    assert 'name="chat"' not in first.split('id="chat-controls"', 1)[1]
    spectator.send(json.dumps({"chat": "Hallo", "name": "Fremder", "HEADERS": {}}))
    refused = frame_flash(recv_until(spectator, lambda f: bool(frame_flash(f))))
    assert "closed the chat for spectators" in str(refused)
    assert httpx.get(f"{sqlite_server.base}/api/rooms/{table.room}/chat").json() == {
        "messages": []}
    # the host opens it: now they write
    r = table.http.post(f"/api/rooms/{table.room}/spectator-chat", json={"on": True},
                        headers=_auth(table.host_token))
    assert r.status_code == 200 and r.json() == {"spectator_chat": True}
    recv_until(spectator, lambda f: 'name="chat"' in f)
    spectator.send(json.dumps({"chat": "Hallo", "name": "Fremder", "HEADERS": {}}))
    recv_until(spectator, lambda f: "Hallo" in f)
    spectator.close()
