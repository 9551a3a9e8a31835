"""Mauscheln house rules at the table: offered with an explanation, bad mixes
refused at room creation, a knock decision keeps the dealer's hand face down, and
Belli/Weli are marked among the trumps."""

from __future__ import annotations

import httpx

from app.games import new_match
from app.web.cards import face
from tests.conftest import Server
from tests.web.apiclient import Table
from tests.web.frames import open_socket


def _seed_where(players: int, options: dict, pred) -> int:  # noqa: ANN001
    for seed in range(5000):
        if pred(new_match("mauscheln", players, dict(options, dealer=0), seed=seed)):
            return seed
    raise AssertionError("no such seed")


def test_the_lobby_explains_each_house_rule_and_refuses_bad_mixes(
        sqlite_server: Server) -> None:
    http = httpx.Client(base_url=sqlite_server.base)
    lobby = http.get("/").text
    for words in ("Knocking", "Quartets", "Belli", "Weli", "7 of diamonds", "6 of diamonds"):
        assert words in lobby
    r = http.post("/rooms", data={"game": "mauscheln", "mauscheln.players": "4",
                                  "mauscheln.belli": "1", "mauscheln.weli": "1"})
    assert r.status_code == 400 and "Belli" in r.text
    r = http.post("/rooms", data={"game": "mauscheln", "mauscheln.players": "6",
                                  "mauscheln.weli": "1"})
    assert r.status_code == 400 and ("52" in r.text or "32" in r.text)
    r = http.post("/api/rooms", json={"game": "mauscheln", "players": 4,
                                      "options": {"belli": True, "weli": True}})
    assert r.status_code == 400 and r.json()["error"]


def test_the_knocking_dealer_sees_no_card_until_deciding(sqlite_server: Server) -> None:
    seed = _seed_where(3, {"knock": True}, lambda m: m.view(0).get("hand_hidden"))
    table = Table(sqlite_server.base, "mauscheln", players=3,
                  options={"knock": True, "dealer": 0}, seed=seed)
    tokens = [table.join(n)[1] for n in ("Anna", "Bert", "Cilli")]
    assert table.start().status_code == 200
    st = table.view(tokens[0])
    assert st["legal"] == ["knock", "no_knock"] and st["view"]["hand"] == []
    ws = open_socket(sqlite_server.ws_base, table.room, tokens[0])
    frame = str(ws.recv(timeout=5))
    hand_html = frame.split('id="hand"', 1)[1].split("</section>", 1)[0]
    assert "card back" in hand_html and "data-action" not in hand_html
    assert 'data-action="knock"' in frame and "An Ace is turned up" in frame
    ws.close()
    r = table.act(tokens[0], "knock", st["version"])
    assert r.status_code == 200
    assert len(r.json()["view"]["hand"]) == 5


def test_belli_is_marked_among_the_trumps(sqlite_server: Server) -> None:
    seed = _seed_where(3, {"belli": True}, lambda m: "D7" in m.view(1)["hand"])
    table = Table(sqlite_server.base, "mauscheln", players=3,
                  options={"belli": True, "dealer": 0}, seed=seed)
    tokens = [table.join(n)[1] for n in ("Anna", "Bert", "Cilli")]
    assert table.start().status_code == 200
    ws = open_socket(sqlite_server.ws_base, table.room, tokens[1])
    frame = str(ws.recv(timeout=5))
    title = face("mauscheln", "D7").title
    card = frame.split(f'title="{title}"', 1)[0].rsplit("<", 1)[1]
    assert "trump" in card and 'data-badge="Belli"' in card
    assert "Belli: 7♦ is always trump" in frame
    ws.close()
