"""The classic Schafkopf's settlement in cents through a real server (issue 27): every
deal's cents go to the ledger in the database, add up to zero, may leave a balance
below zero, survive a restart, and are read back by the history's Abrechnung, the
replay, the standings and the charts, in euros and cents of the page's language."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from pathlib import Path

import httpx
import pytest

from app.db import Database, repo
from app.i18n import format_money, language
from tests.conftest import Server
from tests.web.apiclient import Table

GAME = "schafkopf_classic"
NAMES = ("Anna", "Bert", "Cilli", "Done")


class CentsServer(Server):
    """A real server process whose classic Schafkopf is paid in cents (see
    tests/web/cents_app.py)."""

    def uvicorn_args(self, app: str = "tests.web.cents_app:app") -> list[str]:
        return super().uvicorn_args(app)


def _play(table: Table, tokens: list[str], rng: random.Random, until_deal: int) -> None:
    """Random legal play (a bid more often than a pass, Kontra now and then) until
    the match is over or deal ``until_deal`` has begun."""
    for _ in range(5000):
        states = [table.view(t) for t in tokens]
        view = states[0]["view"]
        if states[0]["status"] != "playing" or view["deal_no"] >= until_deal:
            return
        turn = view["turn"]
        seat = turn if turn is not None and states[turn]["legal"] else next(
            i for i, st in enumerate(states) if st["legal"])
        legal = states[seat]["legal"]
        doubling = [a for a in legal if a in ("kontra", "retour")]
        plain = [a for a in legal if a not in doubling] or legal
        if "bid" in plain and rng.random() < 0.6:
            action = "bid"
        elif doubling and rng.random() < 0.2:
            action = doubling[0]
        else:
            action = rng.choice(plain)
        r = table.act(tokens[seat], action, states[seat]["version"])
        assert r.status_code in (200, 409), r.text
    raise AssertionError("the match did not end")


@pytest.fixture
def cents_server(db_url: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    srv = CentsServer(db_url, tmp_path / "server.log").start()
    yield srv
    srv.stop()


def _cells(html: str, attr: str) -> list[int]:
    return [int(v) for v in re.findall(rf'{attr}="(-?\d+)"', html)]


def test_a_played_match_is_settled_in_cents_kept_through_a_restart_and_shown(
        cents_server: CentsServer) -> None:
    table = Table(cents_server.base, GAME, options={"deals": 3, "dealer": 3}, seed=7)
    tokens = [table.join(name)[1] for name in NAMES]
    assert table.start().status_code == 200
    rng = random.Random(5)
    _play(table, tokens, rng, until_deal=2)
    before = table.view()["view"]["scores"]
    # a restart: the ledger is in the database, the table goes on from it
    cents_server.stop()
    cents_server.start()
    assert table.view()["view"]["scores"] == before
    _play(table, tokens, rng, until_deal=10_000)
    final = table.view()
    assert final["status"] == "finished"
    scores = final["view"]["scores"]
    assert sum(scores) == 0 and any(s < 0 for s in scores), scores

    db = Database(cents_server.db_url)
    try:
        rows = db.run_sync(repo.ledger, match_id=table.room)
        match = db.run_sync(repo.get_match, match_id=table.room)
        assert db.run_sync(repo.balances, match_id=table.room, players=4) == scores
    finally:
        db.close()
    assert match is not None and match.final_scores == scores
    assert [(r.deal_no, r.amount, r.reason) for r in rows[:4]] == [(0, 0, "start")] * 4
    per_deal: dict[int, int] = defaultdict(int)
    for row in rows:
        per_deal[row.deal_no] += row.amount
    assert per_deal and all(total == 0 for total in per_deal.values()), per_deal
    played = [d for d in match.deals if d.result["kind"] == "played"]
    assert len(played) == 3 and match.deals[-1].scores_after == scores
    for deal in match.deals:  # every deal's cents are in the ledger, seat by seat
        got = [sum(r.amount for r in rows if r.deal_no == deal.deal_no and r.seat == s)
               for s in range(4)]
        assert got == deal.result["cents"] and sum(got) == 0

    http = httpx.Client(base_url=cents_server.base, timeout=10)
    # the history's Abrechnung, in German and in English
    for lang in ("de", "en"):
        page = http.get(f"/history/{table.room}?lang={lang}").text
        sheet = page.split('id="settlement"', 1)[1].split("</table>", 1)[0]
        amounts = _cells(sheet, "data-cents")
        assert len(amounts) == 4 * len(match.deals)
        for i in range(0, len(amounts), 4):
            assert sum(amounts[i:i + 4]) == 0
        assert _cells(sheet, "data-balance") == scores
        with language(lang):
            for s in scores:
                assert format_money(s, signed=True) in sheet
            chart = page.split('id="match-chart"', 1)[1].split("</figure>", 1)[0]
            for s in scores:
                assert f"<strong>{format_money(s)}</strong>" in chart
        assert ("Abrechnung" in page) and ("€" in page)
    # the table's own chart of the balances, in euros and cents too
    page = http.get(f"/r/{table.room}?lang=de").text
    chart = page.split('id="table-chart"', 1)[1].split("</figure>", 1)[0]
    with language("de"):
        assert all(f"<strong>{format_money(s)}</strong>" in chart for s in scores)
    # the ledger page says the same, without a pot
    page = http.get(f"/r/{table.room}/ledger?lang=en").text
    assert _cells(page, "data-balance") == scores and "Pot" not in page
    # the replay: every deal's end with its settlement and the balances after it
    page = http.get(f"/history/{table.room}/replay?lang=en&step=100000").text
    assert "Abrechnung after deal 3" in page
    assert _cells(page.split("Abrechnung after deal 3", 1)[1], "data-balance")[:4] == scores
    # the standings: each person's net in cents, summed in SQL, adding up to zero
    page = http.get(f"/standings?game={GAME}&lang=en").text
    nets = _cells(page, "data-cents")
    assert sorted(nets) == sorted(scores) and sum(nets) == 0
    http.close()
    table.close()

