"""History, replays and standings: what finished matches leave behind, and that a
replay shows only what was public at the table."""

from __future__ import annotations

import random
import re

import httpx

from app.db import Database
from app.db.models import MatchRow
from app.web.cards import face
from tests.conftest import Server
from tests.web.apiclient import Table

TITLE_RE = re.compile(r'class="card [^"]*" title="([^"]+)"')


def _play_to_the_end(table: Table, tokens: list[str], seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(20_000):
        states = [table.view(t) for t in tokens]
        if states[0]["status"] == "finished":
            return
        acting = [i for i, st in enumerate(states) if st["legal"]]
        if not acting:  # the room's own timer is moving (views read mid-change)
            continue
        seat = rng.choice(acting)
        st = states[seat]
        r = table.act(tokens[seat], rng.choice(st["legal"]), st["version"])
        assert r.status_code in (200, 409), r.text
    raise AssertionError("the match did not end")


def _replay_pages(base: str, room: str) -> list[str]:
    first = httpx.get(f"{base}/history/{room}/replay")
    assert first.status_code == 200
    total = int(re.search(r"step 1 of (\d+)", first.text).group(1))  # type: ignore[union-attr]
    return [httpx.get(f"{base}/history/{room}/replay", params={"step": i}).text
            for i in range(total)]


def _snapshot(db_url: str, room: str) -> dict:  # type: ignore[type-arg]
    db = Database(db_url)
    try:
        return db.run_sync(lambda s: s.get_one(MatchRow, room).snapshot)  # type: ignore[no-any-return]
    finally:
        db.close()


def test_history_lists_the_match_and_the_replay_shows_only_played_cards(
        server: Server) -> None:
    table = Table(server.base, "schafkopf", options={"target": 1, "dealer": 0}, seed=5)
    tokens = [table.join(n)[1] for n in ("Anna", "Bert", "Cilli", "Done")]
    assert table.start().status_code == 200
    _play_to_the_end(table, tokens, 1)
    page = httpx.get(f"{server.base}/history?game=schafkopf").text
    assert all(n in page for n in ("Anna", "Bert", "Cilli", "Done"))
    detail = httpx.get(f"{server.base}/history/{table.room}").text
    assert "Deals" in detail and "replay" in detail
    played: list[str] = []
    log = httpx.get(f"{server.base}/history/{table.room}/replay").text
    assert "The match starts." in log
    for html in _replay_pages(server.base, table.room):
        shown = TITLE_RE.findall(html.split('class="board replay-board"', 1)[1]
                                 .split("</section>", 1)[0])
        for line in re.findall(r"<li>(.*?) plays (.*?)\.</li>", html):
            played.append(line[1])
        assert set(shown) <= set(played), "a replay step shows only cards already played"
    standings = httpx.get(f"{server.base}/standings?game=schafkopf").text
    assert "Anna" in standings and "Played" in standings


def test_beutelschneider_set_aside_cards_never_appear_in_history_or_replay(
        server: Server) -> None:
    table = Table(server.base, "beutelschneider", players=3,
                  options={"target": 1, "dealer": 0}, seed=9)
    tokens = [table.join(n)[1] for n in ("Anna", "Bert", "Cilli")]
    assert table.start().status_code == 200
    _play_to_the_end(table, tokens, 2)
    removed = _snapshot(server.db_url, table.room)["state"]["removed"]
    assert len(removed) == 2
    titles = [face("beutelschneider", c).title for c in removed]
    pages = _replay_pages(server.base, table.room)
    pages.append(httpx.get(f"{server.base}/history/{table.room}").text)
    for html in pages:
        for title in titles:
            assert title not in html


def test_luegenbeutel_replay_turns_over_only_challenged_cards(server: Server) -> None:
    table = Table(server.base, "luegenbeutel", players=3,
                  options={"target": 1, "challenge_ms": 0, "dealer": 0}, seed=4)
    tokens = [table.join(n)[1] for n in ("Anna", "Bert", "Cilli")]
    assert table.start().status_code == 200
    _play_to_the_end(table, tokens, 3)
    pages = _replay_pages(server.base, table.room)
    revealed_lines = []
    challenges = 0
    for html in pages:
        board = html.split('class="board replay-board"', 1)[1].split("</section>", 1)[0]
        assert not TITLE_RE.findall(board), "no face of a Lügenbeutel card is drawn"
        revealed_lines += re.findall(r"Turned over: ([^<]*)</p>", board)
        challenges += board.count("calls “Lügenbeutel!”")
    assert len(revealed_lines) == challenges, "a card is shown only when a challenge turns it"
