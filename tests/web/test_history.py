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


def _board(html: str) -> str:
    """The step a replay page shows (the other steps of its deal are hidden)."""
    shown = re.findall(r'<section class="board replay-board" data-step="\d+" '
                       r'data-deal="\d+">(.*?)</section>', html, re.S)
    assert len(shown) == 1, "one step is shown"
    return str(shown[0])


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
        board = _board(html)
        shown = TITLE_RE.findall(board)
        for line in re.findall(r"<li>(.*?) plays (.*?)\.</li>", board):
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
    pages += _deal_fragments(server.base, table.room, pages[0])
    for html in pages:
        for title in titles:
            assert title not in html


def _deal_fragments(base: str, room: str, page: str) -> list[str]:
    """Every deal's steps as the replay page fetches them: each holds exactly the
    steps of its deal (all hidden), in order, and together every step once."""
    deals = [int(n) for n in re.findall(r'<a href="\?step=\d+" data-to="\d+" data-deal="(\d+)"',
                                        page)]
    total = int(re.search(r"step 1 of (\d+)", page).group(1))  # type: ignore[union-attr]
    assert deals == list(range(1, len(deals) + 1))
    out, steps = [], []
    for no in deals:
        r = httpx.get(f"{base}/history/{room}/replay/deal/{no}")
        assert r.status_code == 200
        found = re.findall(r'data-step="(\d+)" data-deal="(\d+)" hidden>', r.text)
        assert found and {int(d) for _, d in found} == {no}
        steps += [int(n) for n, _ in found]
        out.append(r.text)
    assert steps == list(range(total))
    assert httpx.get(f"{base}/history/{room}/replay/deal/{len(deals) + 1}").status_code == 404
    return out


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
        board = _board(html)
        assert not TITLE_RE.findall(board), "no face of a Lügenbeutel card is drawn"
        revealed_lines += re.findall(r"Turned over: ([^<]*)</p>", board)
        challenges += board.count("calls “Lügenbeutel!”")
    assert len(revealed_lines) == challenges, "a card is shown only when a challenge turns it"


def test_a_replay_step_belongs_to_its_deal_and_the_deals_end_shows_its_last_trick() -> None:
    """The step that ends a deal (and deals the next in the same action) belongs to
    the deal it ends and still shows that deal's last trick; the next deal starts
    with an empty board."""
    from app.db.repo import LoggedAction
    from app.web import replay

    def play(seat: int, card: str) -> dict:  # type: ignore[type-arg]
        return {"type": "play", "seat": seat, "card": card}

    log = [
        LoggedAction(1, None, "start", []),
        LoggedAction(2, 0, "play:EO", [play(0, "EO")]),
        LoggedAction(3, 1, "play:GO", [
            play(1, "GO"), {"type": "trick", "winner": 0},
            {"type": "deal_end", "deal_no": 1, "scores": [1, 0], "points": [70, 50],
             "total_units": [1, 0], "teams": [[0], [1]]},
            {"type": "deal", "deal_no": 2, "dealer": 1}]),
        LoggedAction(4, 1, "play:HO", [play(1, "HO")]),
        LoggedAction(5, 0, "next_deal", [{"type": "deal", "deal_no": 3, "dealer": 0}]),
    ]
    steps = replay.build("schafkopf", log, ["Anna", "Bert"])
    assert [(s.index, s.deal_no) for s in steps] == [(0, 1), (1, 1), (2, 1), (3, 2), (4, 3)]
    assert [name for name, _, _ in steps[2].trick] == ["Anna", "Bert"]
    assert [name for name, _, _ in steps[3].trick] == ["Bert"]
    assert steps[4].trick == []
    assert replay.deals(steps) == [replay.DealSpan(1, 0, 3), replay.DealSpan(2, 3, 1),
                                   replay.DealSpan(3, 4, 1)]
    assert [s.index for s in replay.deal_steps(steps, 2)] == [3]
