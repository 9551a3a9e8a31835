"""The table's flow through the real app: seat choice, swapping and removing bots,
the host releasing a seat and a new person taking it over (API and WebSocket), moves
queued during the trick pause, the held result of a deal with "Next deal", and the
turn marker each seat's frame carries."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx

from tests.conftest import Server
from tests.web.apiclient import Table, sit_in_order
from tests.web.frames import frame_flash, frame_version, hidden_titles, open_socket, recv_until

NAMES = ("Anna", "Bert", "Cilli", "Done")
NO_PAUSES = {"trick_pause_ms": 0, "next_deal_s": 0}
MY_TURN_RE = re.compile(r'id="turn-signal"[^>]*data-my-turn="(\d)"')
TITLE_RE = re.compile(r'id="turn-signal"[^>]*data-title="([^"]*)"')


def host(table: Table) -> dict[str, str]:
    return {"Authorization": f"Bearer {table.host_token}"}


def seated(server: Server, options: dict[str, Any], seed: int = 4) -> Table:
    table = Table(server.base, "schafkopf", options={"dealer": 3, **options}, seed=seed)
    sit_in_order(table, NAMES)
    assert table.start().status_code == 200
    return table


def play_first(table: Table, tokens: list[str]) -> httpx.Response:
    """The seat whose move is awaited plays its first legal action."""
    for token in tokens:
        state = table.view(token)
        if state["legal"]:
            return table.act(token, state["legal"][0], state["version"])
    raise AssertionError("nobody may act")


def test_the_api_lists_the_table_options_of_every_game(sqlite_server: Server) -> None:
    games = httpx.get(sqlite_server.base + "/api/games").json()
    for game in games:
        table = {o["name"]: o for o in game["table_options"]}
        assert {"turn_clock", "away_seconds", "trick_pause_ms", "next_deal_s"} <= set(table)
        assert table["turn_clock"]["choices"] == [0, 30, 60, 120]
        assert table["away_seconds"]["default"] == 45 and table["away_seconds"]["help"]
    lobby = httpx.get(sqlite_server.base + "/").text
    assert 'name="table.turn_clock"' in lobby and "<legend>Table</legend>" in lobby


def test_a_player_picks_a_free_seat_and_a_taken_one_is_409(sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf")
    r = table.http.post(f"/api/rooms/{table.room}/join", json={"name": "Anna", "seat": 2})
    assert r.status_code == 200 and r.json()["seat"] == 2
    taken = table.http.post(f"/api/rooms/{table.room}/join", json={"name": "Bert", "seat": 2})
    assert taken.status_code == 409 and "taken" in taken.json()["error"]
    bad = table.http.post(f"/api/rooms/{table.room}/join", json={"name": "Bert", "seat": 7})
    assert bad.status_code == 400
    assert table.join("Bert")[0] == 0, "without a seat: Anna's partner's, as she came first"
    assert table.view()["seats"] == ["Bert", None, "Anna", None]
    page = httpx.get(table.url).text
    assert 'id="seat-pick-1"' in page and 'for="seat-pick-1"' in page, "free seats to click"
    assert 'id="seat-pick-2"' not in page
    assert "Team 1: Bert &amp; Anna" in page, "partners of a team game, shown before the start"


def test_the_host_swaps_seats_and_removes_a_bot(sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf")
    sit_in_order(table, ("Anna", "Bert"))
    bot = table.http.post(f"/api/rooms/{table.room}/bots", headers=host(table)).json()["seat"]
    assert bot == 3
    refused = table.http.delete(f"/api/rooms/{table.room}/bots/{bot}",
                                headers={"Authorization": f"Bearer {table.tokens[0]}"})
    assert refused.status_code == 403
    r = table.http.delete(f"/api/rooms/{table.room}/bots/{bot}", headers=host(table))
    assert r.status_code == 200 and r.json()["seats"] == ["Anna", "Bert", None, None]
    assert table.http.delete(f"/api/rooms/{table.room}/bots/1",
                             headers=host(table)).status_code == 400, "Bert is no bot"
    r = table.http.post(f"/api/rooms/{table.room}/swap", json={"a": 1, "b": 2},
                        headers=host(table))
    assert r.status_code == 200 and r.json()["seats"] == ["Anna", None, "Bert", None]
    assert table.view(table.tokens[1])["view"]["seat"] == 2, "Bert's token follows him"
    assert table.http.post(f"/api/rooms/{table.room}/swap", json={"a": 1, "b": 3},
                           headers=host(table)).status_code == 400
    for _ in range(2):
        table.http.post(f"/api/rooms/{table.room}/bots", headers=host(table))
    assert table.start().status_code == 200
    late = table.http.post(f"/api/rooms/{table.room}/swap", json={"a": 0, "b": 2},
                           headers=host(table))
    assert late.status_code == 400


def test_a_released_seat_is_played_by_a_bot_until_somebody_takes_it_over(
        sqlite_server: Server) -> None:
    table = seated(sqlite_server, NO_PAUSES)
    bert = table.tokens[1]
    ws = open_socket(sqlite_server.ws_base, table.room, bert)
    first = str(ws.recv(timeout=5))
    hand = table.view(bert)["view"]["hand"]
    assert all(t in first for t in hidden_titles("schafkopf", hand))
    assert table.http.post(f"/api/rooms/{table.room}/kick", json={"seat": 1},
                           headers={"Authorization": f"Bearer {bert}"}).status_code == 403
    # Bert in a new browser is a watcher, told how to get his seat back
    watcher = httpx.get(table.url).text
    assert "You are watching this table." in watcher and "The host can release it" in watcher
    r = table.http.post(f"/api/rooms/{table.room}/kick", json={"seat": 1}, headers=host(table))
    assert r.status_code == 200 and r.json()["stand_ins"] == {"1": "released"}
    # Bert's socket is a spectator's now: a flash, and never his cards again
    frame = recv_until(ws, lambda f: frame_flash(f) is not None)
    assert "released your seat" in (frame_flash(frame) or "")
    hand_html = frame.split('id="hand"', 1)[1].split('id="result"', 1)[0]
    assert not any(t in hand_html for t in hidden_titles("schafkopf", hand))
    # ...and, with the page still open, it is told a seat is free to take over
    assert "A seat at this table is free: take it over" in frame
    assert table.http.get(f"/api/rooms/{table.room}/view",
                          headers={"Authorization": f"Bearer {bert}"}).status_code == 403
    # Anna leads; the bot plays the released seat (marked for everybody)
    play_first(table, [table.tokens[0]])
    deadline = time.monotonic() + 5
    while table.view()["view"]["to_act"] == [1] and time.monotonic() < deadline:
        time.sleep(0.05)
    spectator = table.view()
    assert spectator["view"]["to_act"] == [2] and spectator["stand_ins"] == {"1": "released"}
    page = httpx.get(table.url).text
    assert 'data-take="1"' in page and "seat free · a bot plays" in page
    # somebody new opens the link and takes the seat over, with that seat's view
    r = table.http.post(f"/api/rooms/{table.room}/join", json={"name": "Vroni", "seat": 1})
    assert r.status_code == 200 and r.json()["seat"] == 1
    vroni = r.json()["token"]
    state = table.view(vroni)
    assert state["view"]["seat"] == 1 and len(state["view"]["hand"]) == 7
    assert state["seats"][1] == "Vroni" and state["stand_ins"] == {}
    again = table.http.post(f"/api/rooms/{table.room}/join", json={"name": "Xaver", "seat": 1})
    assert again.status_code in (403, 409)
    ws.close()


def test_a_move_during_the_trick_pause_is_queued_and_applied_after_it(
        sqlite_server: Server) -> None:
    table = seated(sqlite_server, {"trick_pause_ms": 1500, "next_deal_s": 0})
    for _ in range(4):
        assert play_first(table, table.tokens).status_code == 200
    spectator = table.view()
    assert spectator["pause"]["kind"] == "trick" and spectator["pause"]["seconds_left"] > 0.5
    leader = spectator["view"]["turn"]
    token = table.tokens[leader]
    mine = table.view(token)
    r = table.act(token, mine["legal"][0], mine["version"])
    assert r.status_code == 202 and r.json()["queued"] == mine["legal"][0]
    assert r.json()["version"] == mine["version"], "nothing applied yet"
    stale = table.act(token, mine["legal"][0], mine["version"] - 1)
    assert stale.status_code == 409
    deadline = time.monotonic() + 5
    while table.view()["version"] == mine["version"] and time.monotonic() < deadline:
        time.sleep(0.05)
    after = table.view()
    assert after["version"] == mine["version"] + 1 and after["pause"] is None
    assert after["view"]["trick"] == [{"seat": leader, "card": mine["legal"][0][5:]}]


def test_the_result_of_a_deal_waits_for_next_deal_from_everyone_at_the_table(
        sqlite_server: Server) -> None:
    table = seated(sqlite_server, {"trick_pause_ms": 0, "next_deal_s": 60})
    sockets = [open_socket(sqlite_server.ws_base, table.room, t) for t in table.tokens[:2]]
    for ws in sockets:
        ws.recv(timeout=5)
    for _ in range(32):  # Anna and Bert have the table open; Cilli and Done use the API
        play_first(table, table.tokens)
    spectator = table.view()
    assert spectator["view"]["deal_no"] == 2
    assert spectator["pause"]["kind"] == "deal" and spectator["pause"]["waiting_for"] == [0, 1]
    frames = [recv_until(ws, lambda f: 'data-cmd="next_deal"' in f) for ws in sockets]
    last = spectator["view"]["last_deal"]["tricks"][-1]
    for i, frame in enumerate(frames):
        assert "The last trick of deal 1:" in frame and "Deal 1 is over." in frame
        assert MY_TURN_RE.search(frame).group(1) == "0", "nobody's turn while the result shows"
        hand_html = frame.split('id="hand"', 1)[1].split("</section>", 1)[0]
        assert 'class="card' not in hand_html, "the next deal's cards wait for the result"
        board = frame.split('id="board"', 1)[1].split("</section>", 1)[0]
        for _seat, card in last["plays"]:
            assert hidden_titles("schafkopf", [card])[0] in board, "the last trick is shown"
        shown = {card for _seat, card in last["plays"]}
        others = [c for j, t in enumerate(table.tokens) if j != i
                  for c in table.view(t)["view"]["hand"] if c not in shown]
        assert not any(f'title="{t}"' in frame for t in hidden_titles("schafkopf", others))
    # a move made meanwhile is queued, not refused
    mover = spectator["view"]["turn"]
    token = table.tokens[mover]
    mine = table.view(token)
    assert table.act(token, mine["legal"][0], mine["version"]).status_code == 202
    waiting = [s for s in (0, 1) if s != mover]  # moving counts as "Next deal"
    assert table.view()["pause"]["waiting_for"] == waiting
    for i, seat in enumerate(waiting):
        sockets[seat].send('{"cmd": "next_deal"}')
        if i < len(waiting) - 1:
            time.sleep(0.2)
            assert table.view()["pause"]["waiting_for"] == waiting[i + 1:]
    deadline = time.monotonic() + 5
    while table.view()["version"] == mine["version"] and time.monotonic() < deadline:
        time.sleep(0.05)
    after = table.view()
    assert after["pause"] is None and after["version"] == mine["version"] + 1
    # the turn marker is in exactly the frame of the seat whose turn it is
    turn = after["view"]["turn"]
    for i, ws in enumerate(sockets):
        frame = recv_until(ws, lambda f: frame_version(f) == after["version"])
        mine_now = MY_TURN_RE.search(frame).group(1) == "1"
        assert mine_now == (i == turn)
        assert TITLE_RE.search(frame).group(1).startswith("▶ ") == (i == turn)
    for ws in sockets:
        ws.close()


def host_socket(server: Server, table: Table) -> Any:
    from websockets.sync.client import connect

    return connect(f"{server.ws_base}/r/{table.room}/ws", open_timeout=5, max_size=2**22,
                   legacy=True,
                   additional_headers={"Cookie": f"stammtisch_host={table.host_token}"})


def test_host_commands_over_the_socket_swap_remove_a_bot_and_kick(
        sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf", options={"dealer": 3}, seed=4)
    table.join("Anna")
    ws = host_socket(sqlite_server, table)
    ws.recv(timeout=5)
    ws.send('{"cmd": "add_bot"}')
    recv_until(ws, lambda f: "Remove this bot" in f)
    ws.send('{"cmd": "swap", "a": "0", "b": "2"}')  # htmx sends form values as text
    recv_until(ws, lambda f: frame_version(f) >= 3)
    assert table.view()["seats"][2] == "Anna"
    ws.send('{"cmd": "remove_bot", "seat": 3}')  # the bot took the far seat of team 2
    recv_until(ws, lambda f: frame_version(f) >= 4)
    assert table.view()["seats"] == [None, None, "Anna", None]
    ws.send('{"cmd": "remove_bot", "seat": 2}')  # Anna is no bot: refused, to the host only
    assert "no bot" in (frame_flash(recv_until(ws, lambda f: frame_flash(f) is not None)) or "")
    for name in ("Bert", "Cilli", "Done"):
        table.join(name)
    assert table.start().status_code == 200
    anna = table.tokens[0]
    ws.send('{"cmd": "kick", "seat": 2}')
    recv_until(ws, lambda f: "seat free · a bot plays" in f)
    assert table.http.get(f"/api/rooms/{table.room}/view",
                          headers={"Authorization": f"Bearer {anna}"}).status_code == 403
    spectator = open_socket(sqlite_server.ws_base, table.room)
    ws.send('{"cmd": "kick", "seat": 9}')
    assert "seat" in (frame_flash(recv_until(ws, lambda f: frame_flash(f) is not None)) or "")
    taker = table.http.post(f"/api/rooms/{table.room}/join", json={"name": "Vroni"})
    assert taker.status_code == 200 and taker.json()["seat"] == 2
    hand = table.view(taker.json()["token"])["view"]["hand"]
    frame = recv_until(spectator, lambda f: "Vroni" in f)
    assert not any(f'title="{t}"' in frame for t in hidden_titles("schafkopf", hand))
    for sock in (ws, spectator):
        sock.close()


def test_the_replay_says_who_a_bot_played_for() -> None:
    from app.db.repo import LoggedAction
    from app.web import replay
    from app.web.presentation import presentation

    names = list(NAMES)
    for game in ("schafkopf", "mauscheln"):
        line = presentation(game).describe(
            {"type": "stand_in", "seat": 1, "reason": "clock"}, names)
        assert line == "A bot plays for Bert (out of time)."
    log = [LoggedAction(6, 1, "play:EO", [{"type": "stand_in", "seat": 1, "reason": "away"},
                                         {"type": "play", "seat": 1, "card": "EO"}])]
    step = replay.build("schafkopf", log, names)[0]
    assert step.lines[0] == "A bot plays for Bert (away from the table)."
    assert step.trick and step.trick[0][0] == "Bert"
