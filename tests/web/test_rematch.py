"""Play again: the host of a finished match opens the next one with the same people,
seats, bots and options; every token and cookie of the old table works at the same
seat of the new one; open pages move; the history links both matches."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from websockets.sync.client import connect

from tests.conftest import Server
from tests.web.apiclient import Table
from tests.web.frames import frame_flash, open_socket, recv_until

GOTO_RE = re.compile(r'data-goto="([^"]+)"')


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _finished(server: Server, bots: int = 1) -> Table:
    """A Mauscheln table (Anna, Bert, bots) the host ended at once: finished."""
    table = Table(server.base, "mauscheln", players=2 + bots, options={"chips": 20}, seed=3)
    table.join("Anna")
    table.join("Bert")
    for _ in range(bots):
        assert table.http.post(f"/api/rooms/{table.room}/bots",
                               headers=_auth(table.host_token)).status_code == 200
    assert table.start().status_code == 200
    r = table.http.post(f"/api/rooms/{table.room}/end", headers=_auth(table.host_token))
    assert r.status_code == 200 and r.json()["status"] == "finished", r.text
    return table


def _rematch(table: Table, token: str | None, body: Any = None) -> httpx.Response:
    headers = _auth(token) if token else {}
    if body is None:
        return table.http.post(f"/api/rooms/{table.room}/rematch", headers=headers)
    return table.http.post(f"/api/rooms/{table.room}/rematch", headers=headers, json=body)


def test_rematch_over_the_api_keeps_people_seats_bots_and_tokens(server: Server) -> None:
    table = _finished(server)
    old = table.view()
    r = _rematch(table, table.host_token)
    assert r.status_code == 201, r.text
    assert set(r.json()) == {"room", "url"}
    new_id = r.json()["room"]
    assert new_id != table.room and r.json()["url"].endswith(f"/r/{new_id}")
    nxt = Table.attach(server.base, new_id)
    spectator = nxt.view()
    assert spectator["status"] == "playing"  # everybody is seated: it starts at once
    assert spectator["seats"] == old["seats"] == ["Anna", "Bert", spectator["seats"][2]]
    for seat, token in enumerate(table.tokens):  # the old seat tokens, the same seats
        assert nxt.view(token)["view"]["seat"] == seat
    # the bot came along and plays its seat; the host token is still the host's
    r = nxt.http.post(f"/api/rooms/{new_id}/end", headers=_auth(table.host_token))
    assert r.status_code == 200 and r.json()["status"] == "finished"
    # asking again gives the same new table
    again = _rematch(table, table.host_token)
    assert again.status_code == 200 and again.json()["room"] == new_id
    # and the finished rematch can have a rematch of its own, same tokens again
    third = nxt.http.post(f"/api/rooms/{new_id}/rematch", headers=_auth(table.host_token))
    assert third.status_code == 201
    assert Table.attach(server.base, third.json()["room"]).view(table.tokens[1])[
        "view"]["seat"] == 1


def test_rematch_options_change_and_bad_requests_change_nothing(sqlite_server: Server) -> None:
    table = _finished(sqlite_server)
    playing = Table(sqlite_server.base, "mauscheln", players=3)
    for n in ("X", "Y", "Z"):
        playing.join(n)
    assert playing.start().status_code == 200
    cases: list[tuple[Table, str | None, Any, int]] = [
        (table, None, None, 401),
        (table, table.tokens[0], None, 403),  # a seat token is not the host's
        (table, playing.host_token, None, 403),  # another table's host
        (playing, playing.host_token, None, 400),  # not over yet
        (table, table.host_token, {"options": {"chips": 0}}, 400),
        (table, table.host_token, {"options": {"nonsense": 1}}, 400),
        (table, table.host_token, {"options": {"turn_clock": 7}}, 400),
        (table, table.host_token, {"options": []}, 422),
        (table, table.host_token, {"options": {"knock": "yes"}}, 400),
    ]
    for t, token, body, status in cases:
        r = _rematch(t, token, body)
        assert r.status_code == status, (body, r.text)
        assert r.json()["error"]
    assert table.http.post("/api/rooms/nope/rematch",
                           headers=_auth(table.host_token)).status_code == 404
    page = table.http.get(f"/r/{table.room}", follow_redirects=False)
    assert page.status_code == 200, "no rematch was opened by the refused requests"
    r = _rematch(table, table.host_token, {"options": {"chips": 50, "knock": True,
                                                       "spectator_chat": False}})
    assert r.status_code == 201, r.text
    nxt = Table.attach(sqlite_server.base, r.json()["room"])
    view = nxt.view(table.tokens[0])["view"]
    assert sum(view["scores"]) + view["pot"] == 3 * 50
    page = nxt.http.get(f"/r/{nxt.room}").text
    assert "you can read along" in page  # the table option came along too


def test_open_pages_move_and_cookies_follow_to_the_same_seat(sqlite_server: Server) -> None:
    base = sqlite_server.base
    host = httpx.Client(base_url=base, follow_redirects=True)
    r = host.post("/rooms", data={"game": "mauscheln", "mauscheln.players": "3"})
    room = str(r.url).rsplit("/", 1)[1]
    host.post(f"/r/{room}/join", data={"name": "Anna"})
    bert = httpx.Client(base_url=base, follow_redirects=True)
    bert.post(f"/r/{room}/join", data={"name": "Bert"})
    stranger = httpx.Client(base_url=base)  # a spectator's browser
    host_cookie = host.cookies.get("stammtisch_host")
    assert host_cookie
    cookies = "; ".join(f"{c.name}={c.value}" for c in host.cookies.jar)
    host_ws = connect(f"{sqlite_server.ws_base}/r/{room}/ws",
                      additional_headers={"Cookie": cookies}, open_timeout=5, legacy=True)
    recv_until(host_ws, lambda f: "Seat a bot" in f)
    for cmd in ("add_bot", "start", "end_game"):
        host_ws.send(json.dumps({"cmd": cmd, "HEADERS": {}}))
        recv_until(host_ws, lambda f, c=cmd: (
            {"add_bot": "Start the match", "start": 'id="hand"',
             "end_game": "Play again"}[c] in f))
    bert_cookie = bert.cookies.get("stammtisch_seat")
    bert_ws = connect(f"{sqlite_server.ws_base}/r/{room}/ws", open_timeout=5, legacy=True,
                      additional_headers={"Cookie": f"stammtisch_seat={bert_cookie}"})
    watcher = open_socket(sqlite_server.ws_base, room)
    first = recv_until(bert_ws, lambda f: "rematch" in f)
    assert "Play again" not in first and "The host can start a rematch" in first
    recv_until(watcher, lambda f: "rematch" in f)

    bert_ws.send(json.dumps({"cmd": "rematch", "HEADERS": {}}))  # only the host
    assert "Only the host" in str(frame_flash(recv_until(bert_ws, lambda f: bool(
        frame_flash(f)))))
    host_ws.send(json.dumps({"cmd": "rematch", "opt.chips": "30", "opt.stake": "4",
                             "opt.knock": "1", "HEADERS": {}}))
    gotos = {GOTO_RE.search(recv_until(ws, lambda f: "data-goto" in f)).group(1)  # type: ignore[union-attr]
             for ws in (host_ws, bert_ws)}
    assert gotos == {f"/r/{room}/next"}
    # a watcher is not taken along: the old id is public once the match is history
    told = recv_until(watcher, lambda f: "started a rematch" in f)
    assert "data-goto" not in told and f'href="/history/{room}"' in told

    # each browser follows the link: its cookies of the old path come along
    moved = {}
    hop = stranger.get(f"/r/{room}/next", follow_redirects=False)
    assert hop.status_code == 303 and hop.headers["location"] == f"/history/{room}"
    assert hop.headers.get_list("set-cookie") == []
    for name, client in (("host", host), ("bert", bert)):
        hop = client.get(f"/r/{room}/next", follow_redirects=False)
        assert hop.status_code == 303
        moved[name] = hop
        new_room = hop.headers["location"].rsplit("/", 1)[1]
        assert new_room != room
        set_cookies = hop.headers.get_list("set-cookie")
        assert all(f"Path=/r/{new_room}" in c for c in set_cookies)
        assert any(c.startswith("stammtisch_seat=") for c in set_cookies)
        assert any(c.startswith("stammtisch_host=") for c in set_cookies) == (name == "host")
        page = client.get(f"/r/{new_room}").text
        me = {"host": "Anna", "bert": "Bert"}[name]
        seat = re.search(r'class="hand-area" data-seat="(\d)"', page)  # the viewer's
        assert seat is not None
        plate = page.split(f'id="plate-{seat[1]}"', 1)[1].split('id="plate-', 1)[0]
        assert f'{me}<span class="you">' in plate
    page = host.get(f"/r/{new_room}").text
    assert "Host: end the game" in page  # the host is the host of the new table
    # the old link itself sends people on: players to the rematch, others to the record
    old = stranger.get(f"/r/{room}", follow_redirects=False)
    assert old.status_code == 303 and old.headers["location"] == f"/r/{room}/next"
    record = stranger.get(f"/r/{room}", follow_redirects=True)
    assert record.url.path == f"/history/{room}" and new_room not in record.text
    assert bert.get(f"/r/{room}", follow_redirects=True).url.path == f"/r/{new_room}"
    # the options changed in the form came along
    view = Table.attach(base, new_room).view()["view"]
    assert sum(view["scores"]) + view["pot"] == 3 * 30
    for ws in (host_ws, bert_ws, watcher):
        ws.close()
    for c in (host, bert, stranger):
        c.close()


def test_the_history_links_the_matches_both_ways(sqlite_server: Server) -> None:
    table = _finished(sqlite_server)
    page = table.http.get(f"/history/{table.room}").text
    assert "Rematch:" not in page
    new_id = _rematch(table, table.host_token).json()["room"]
    page = table.http.get(f"/history/{table.room}").text
    assert new_id not in page  # still playing: not linked from the public history
    assert table.http.post(f"/api/rooms/{new_id}/end",
                           headers=_auth(table.host_token)).status_code == 200
    page = table.http.get(f"/history/{table.room}").text
    assert f'href="/history/{new_id}" rel="next"' in page
    back = table.http.get(f"/history/{new_id}").text
    assert f'href="/history/{table.room}" rel="prev"' in back
    assert "Rematch: the match before" in back
