"""Hints on a practice table over the table socket (issue 28): ``{"hint": N}`` is
answered to the asking socket alone, first with a panel saying the bot thinks, then
with the strong bot's choice in the game's words and the top three options with
their estimates, in the socket's language; refusals come in one line and change
nothing; a deal where hints were used is marked in the history and the replay; the
lobby's "Practice table" opens a room with hints on and strong bots."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app import i18n
from app.web.deps import HOST_COOKIE
from app.web.presentation import presentation
from tests.conftest import Server, migrate
from tests.web.apiclient import Table, sit_in_order
from tests.web.frames import TableSocket
from tests.web.test_why_card import drain, silent, socket

HINT_PANEL = re.compile(r'<div id="hint" class="hint open" hx-swap-oob="true"[^>]*'
                        r'data-version="(\d+)" data-hinted="([^"]*)">(.*?)</div>\s*$', re.S)
CHOICE = re.compile(r'<p class="hint-choice">([^<]*)</p>')
OPTION = re.compile(r'<li( class="chosen")?><span class="hint-rank" aria-hidden="true">\d\.</span> '
                    r'<span class="hint-label">([^<]*)</span> '
                    r'<span class="hint-estimate">([^<]*)</span>')
NAMES = ("Anna", "Bert", "Cilli", "Done")


@pytest.fixture
def hint_server(tmp_path: Path) -> Iterator[Server]:
    url = f"sqlite:///{tmp_path / 'test.db'}"
    migrate(url)
    srv = Server(url, tmp_path / "server.log",
                 env={"BOT_BUDGET_MS": "150", "BOT_POOL_SIZE": "1"}).start()
    yield srv
    srv.stop()


def ask(ws: TableSocket, version: Any) -> None:
    ws.send(json.dumps({"hint": version, "HEADERS": {}}))


def answer(ws: TableSocket) -> str:
    """The hint panel this socket is sent, after the one that says the bot thinks."""
    raw = str(ws.ws.recv(timeout=10))
    assert raw.startswith('<div id="hint"') and "hint-thinking" in raw, raw[:300]
    raw = str(ws.ws.recv(timeout=30))
    assert raw.startswith('<div id="hint"'), raw[:300]
    assert 'id="hand"' not in raw and 'id="actions"' not in raw, "nothing else is drawn"
    return raw


def refusal(ws: TableSocket) -> str:
    """The one line a refused hint gets (nothing of the table changed)."""
    while True:
        raw = str(ws.ws.recv(timeout=10))
        found = re.search(r'id="flash"[^>]*><span>([^<]*)</span>', raw)
        if found:
            return found[1].replace("&#39;", "'")


def _number(text: str, language: str) -> float:
    text = text.replace("\u2212", "-")
    return float(text.replace(".", "").replace(",", ".") if language == "de"
                 else text.replace(",", ""))


def _panel(raw: str, language: str) -> tuple[int, str, list[tuple[bool, str, float]], str]:
    """The panel's version, its line naming the choice, the options shown (chosen,
    label, estimate) and the action it marks."""
    found = HINT_PANEL.search(raw)
    assert found, raw
    choice = CHOICE.search(found[3])
    assert choice, raw
    options = [(bool(c), label, _number(est, language))
               for c, label, est in OPTION.findall(found[3])]
    return int(found[1]), choice[1], options, found[2]


def _on_turn(table: Table, seats: list[tuple[int, str]]) -> tuple[int, str]:
    for seat, token in seats:
        if table.view(token)["legal"]:
            return seat, token
    raise AssertionError("nobody may act")


def test_a_hint_answers_the_asking_socket_alone_and_marks_the_deal(
        hint_server: Server) -> None:
    table = Table(hint_server.base, "schafkopf",
                  options={"dealer": 3, "target": 1, "hints": True}, seed=41)
    seats = sit_in_order(table, NAMES)
    assert table.start().status_code == 200
    seat, token = _on_turn(table, seats)
    other = next(tok for s, tok in seats if s != seat)
    mine = socket(hint_server, table.room, token)
    german = socket(hint_server, table.room, token, lang="de")
    theirs = socket(hint_server, table.room, other)
    spectator = socket(hint_server, table.room)
    drain(mine, german, theirs, spectator)
    assert 'data-hint' in mine.table["actions"] and ">Hint</button>" in mine.table["actions"]
    assert ">Tipp</button>" in german.table["actions"]
    assert "data-hint" not in theirs.table["actions"], "only a seat that may act"
    assert "data-hint" not in spectator.table["actions"]
    before = table.view()

    ask(mine, before["version"])
    version, choice, options, marked = _panel(answer(mine), "en")
    assert version == before["version"]
    assert marked in table.view(token)["legal"], "the card it marks is one the seat may play"
    hand = table.view(token)["view"]["hand"]
    with i18n.language("en"):
        titles = {presentation("schafkopf").card_title(c) for c in hand}
    assert choice.startswith("Hint: ") and choice.removeprefix("Hint: ") in titles, choice
    assert 1 <= len(options) <= 3 and {label for _, label, _ in options} <= titles
    assert [e for _, _, e in options] == sorted((e for _, _, e in options), reverse=True)
    assert [label for chosen, label, _ in options if chosen] == [choice.removeprefix("Hint: ")]
    silent(theirs, spectator, german)

    ask(german, before["version"])
    raw = answer(german)
    _, choice_de, options_de, marked_de = _panel(raw, "de")
    assert marked_de == marked
    assert choice_de.startswith("Tipp: ") and "(Einheiten)" in raw
    assert len(options_de) == len(options)
    silent(theirs, spectator, mine)
    assert table.view() == before, "a hint changes nothing"

    # the seat plays; everybody plays the deal (the whole match) out
    rng = random.Random(5)
    tokens = [tok for _, tok in seats]
    while (state := table.view())["status"] == "playing":
        for tok in tokens:
            legal = table.view(tok)["legal"]
            if legal:
                assert table.act(tok, rng.choice(legal), state["version"]).status_code == 200
                break
    name = NAMES[seat]
    page = httpx.get(f"{hint_server.base}/history/{table.room}?lang=en").text
    assert f'<p class="hints-used">Hints used: {name}</p>' in page
    page = httpx.get(f"{hint_server.base}/history/{table.room}?lang=de").text
    assert f'<p class="hints-used">Tipps genutzt: {name}</p>' in page
    replay = httpx.get(f"{hint_server.base}/history/{table.room}/replay?lang=en").text
    assert f"{name} was shown a hint for this move." in replay
    assert 'class="hinted"' in replay and f"Hints used: {name}" in replay
    for ws in (mine, german, theirs, spectator):
        ws.close()


def test_refused_hints_say_why_in_one_line_and_change_nothing(hint_server: Server) -> None:
    off = Table(hint_server.base, "schafkopf", options={"dealer": 3}, seed=4)
    off_seats = sit_in_order(off, NAMES)
    assert off.start().status_code == 200
    _, token = _on_turn(off, off_seats)
    ws = socket(hint_server, off.room, token)
    drain(ws)
    assert "data-hint" not in ws.table["actions"], "no Hint button: hints are off"
    ask(ws, off.view()["version"])
    assert refusal(ws) == "Hints are off at this table."
    ws.close()

    table = Table(hint_server.base, "schafkopf", options={"dealer": 3, "hints": True}, seed=4)
    seats = sit_in_order(table, NAMES)
    assert table.start().status_code == 200
    seat, token = _on_turn(table, seats)
    other = next(tok for s, tok in seats if s != seat)
    before = table.view()
    version = before["version"]
    mine = socket(hint_server, table.room, token)
    theirs = socket(hint_server, table.room, other)
    spectator = socket(hint_server, table.room)
    german = socket(hint_server, table.room, other, lang="de")
    drain(mine, theirs, spectator, german)
    ask(spectator, version)
    assert refusal(spectator) == "You are watching; take a seat to play."
    ask(theirs, version)
    assert refusal(theirs) == "There is nothing for you to decide now, so there is no hint."
    ask(german, version)
    assert refusal(german) == ("Du hast gerade nichts zu entscheiden, also gibt es keinen "
                               "Tipp.")
    ask(mine, version - 1)
    assert refusal(mine) == "The table changed before you asked; here is the current table."
    ask(mine, "soon")
    assert refusal(mine) == "A hint needs the version of the table it is for."
    ask(mine, version)
    ask(mine, version)  # pressed twice: the second is refused, the first answered
    frames = [str(mine.ws.recv(timeout=30))]
    while "hint-choice" not in frames[-1]:
        frames.append(str(mine.ws.recv(timeout=30)))
    assert any("Your hint is being worked out already." in f for f in frames), frames
    assert any("hint-choice" in f for f in frames), frames
    silent(theirs, spectator, german)
    assert table.view() == before
    for ws in (mine, theirs, spectator, german):
        ws.close()


def test_the_lobby_s_practice_table_seats_strong_bots_and_offers_hints(
        hint_server: Server) -> None:
    http = httpx.Client(base_url=hint_server.base, headers={"Origin": hint_server.base},
                        timeout=10)
    r = http.post("/rooms", data={"game": "schafkopf", "practice": "1",
                                  "table.trick_pause_ms": "0", "table.next_deal_s": "0",
                                  "table.turn_clock": "0", "table.away_seconds": "45"})
    assert r.status_code == 303, r.text
    room = r.headers["location"].removeprefix("/r/")
    host = r.cookies.get(HOST_COOKIE)
    assert host
    page = http.get(f"/r/{room}?lang=en").text
    assert page.count("bot · strong") == 3, "three strong bots seated"
    table = Table.attach(hint_server.base, room)
    table.host_token = host
    seat, token = table.join("Anna")
    assert table.start().status_code == 200, "a newcomer starts at once"
    state = table.view(token)
    assert all(state["seats"]) and state["status"] == "playing"
    ws = socket(hint_server, room, token)
    for _ in range(200):  # the bots play up to Anna's turn
        if "data-hint" in ws.table.get("actions", ""):
            break
        ws.recv(timeout=20)
    else:
        raise AssertionError("no Hint button at Anna's turn")
    ask(ws, table.view(token)["version"])
    _, choice, _options, _marked = _panel(answer(ws), "en")
    assert choice.startswith("Hint: ")
    ws.close()
    http.close()
