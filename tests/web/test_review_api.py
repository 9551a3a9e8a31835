"""GET /api/rooms/{room}/review?deal=N (issue 28): whose review the token decides,
pending while it is worked out and then ready, the JSON's shape, the reason in the
request's language, no card the seat did not hold, and the same after a restart;
the table page's panel from the seat cookie."""

from __future__ import annotations

import random
import re
import time
from typing import Any

import httpx
import pytest

from tests.conftest import Server
from tests.web.apiclient import Table, sit_in_order

SEED = 41


@pytest.fixture
def review_server(db_url: str, tmp_path: Any) -> Any:
    srv = Server(db_url, tmp_path / "server.log", env={"REVIEW_BUDGET_MS": "150"}).start()
    yield srv
    srv.stop()


def _play_deal_one(table: Table, tokens: list[str], rng: random.Random
                   ) -> dict[int, list[tuple[dict[str, Any], list[str], str]]]:
    """Everybody plays deal 1 at random over the API; each seat's (view, legal, chosen)."""
    made: dict[int, list[tuple[dict[str, Any], list[str], str]]] = {s: [] for s in range(4)}
    while True:
        states = [table.view(t) for t in tokens]
        if states[0]["view"]["deal_no"] != 1 or states[0]["status"] != "playing":
            assert states[0]["status"] == "finished"
            return made
        seat = next(i for i, st in enumerate(states) if st["legal"])
        st = states[seat]
        action = rng.choice(st["legal"])
        r = table.act(tokens[seat], action, st["version"])
        assert r.status_code == 200, r.text
        made[seat].append((st["view"], st["legal"], action))


def _ask(http: httpx.Client, room: str, token: str | None, deal: int,
         language: str = "en", seat: int | None = None) -> httpx.Response:
    """The review of deal ``deal`` for ``token`` (``seat``: the one that seat shared)."""
    headers = {"Accept-Language": language}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    params = {"deal": deal} if seat is None else {"deal": deal, "seat": seat}
    return http.get(f"/api/rooms/{room}/review", params=params, headers=headers)


def _ready(http: httpx.Client, room: str, token: str, deal: int,
           language: str = "en", seat: int | None = None) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        r = _ask(http, room, token, deal, language, seat)
        if r.status_code == 200:
            return dict(r.json())
        assert r.status_code == 202, r.text
        assert r.json()["status"] == "pending" and r.json()["decisions"] == []
        time.sleep(0.2)
    raise AssertionError("the review did not get ready")


def test_a_seat_s_review_of_a_finished_deal(review_server: Server) -> None:
    table = Table(review_server.base, "schafkopf", options={"dealer": 3, "target": 1},
                  seed=SEED)  # one deal is the whole match
    tokens = [t for _, t in sit_in_order(table, ("Anna", "Bert", "Cilli", "Done"))]
    assert table.start().status_code == 200
    made = _play_deal_one(table, tokens, random.Random(3))
    http, room = table.http, table.room

    assert _ask(http, room, None, 1).status_code == 401
    assert _ask(http, room, table.host_token, 1).status_code == 403, "the host has no seat"
    assert _ask(http, room, "not-a-token-of-this-table", 1).status_code == 403
    assert _ask(http, room, tokens[0], 2).status_code == 404, "there is no deal 2"
    assert _ask(http, room, tokens[0], 7).status_code == 404
    assert _ask(http, "no-such-room", tokens[0], 1).status_code == 404

    first = _ask(http, room, tokens[0], 1)
    assert first.status_code == 202 and first.json() == {
        "deal": 1, "seat": 0, "status": "pending", "decisions": [], "complete": True,
        "measure": "units"}
    reviews = {seat: _ready(http, room, tokens[seat], 1) for seat in range(4)}
    for seat, review in reviews.items():
        assert (review["deal"], review["seat"], review["status"]) == (1, seat, "ready")
        mine = made[seat]
        assert [d["chosen"] for d in review["decisions"]] == [c for _, _, c in mine]
        hand = set(mine[0][0]["hand"])  # the seat's cards before its first decision
        for d, (_, legal, chosen) in zip(review["decisions"], mine, strict=True):
            assert set(d) >= {"chosen", "best", "options", "mistake", "reason", "seq", "loss"}
            assert [o["action"] for o in d["options"]] == legal, "exactly the legal options"
            assert all(isinstance(o["estimate"], float) for o in d["options"])
            assert d["best"] in legal and isinstance(d["mistake"], bool)
            assert isinstance(d["reason"], str) and bool(d["reason"]) == d["mistake"]
            named = {a.split(":", 1)[1] for a in [chosen, d["best"], *legal]}
            assert named <= hand, "no card the seat did not hold"
        others = set().union(*(set(made[s][0][0]["hand"]) for s in range(4) if s != seat))
        text = str(review["decisions"])
        assert not any(f"play:{card}" in text for card in others - hand)
    again = _ask(http, room, tokens[0], 1)
    assert again.status_code == 200 and again.json() == reviews[0], "worked out once"

    # a mistake's reason in the request's language
    seat, index = next((s, i) for s, r in reviews.items()
                       for i, d in enumerate(r["decisions"]) if d["mistake"])
    english = reviews[seat]["decisions"][index]["reason"]
    german = _ask(http, room, tokens[seat], 1, "de").json()["decisions"][index]["reason"]
    assert "better" in english and "besser" in german

    # the table page's panel, for the seat cookie's seat only
    with httpx.Client(base_url=review_server.base, cookies={"stammtisch_seat": tokens[0]},
                      headers={"Accept-Language": "en"}) as browser:
        panel = browser.get(f"/r/{room}/review", params={"deal": 1})
    assert panel.status_code == 200 and "Your deal, reviewed" in panel.text
    assert reviews[0]["decisions"][0]["options"][0]["label"] in panel.text
    watcher = http.get(f"/r/{room}/review", params={"deal": 1})
    assert "Your deal, reviewed" not in watcher.text and "seat token" in watcher.text

    review_server.stop()
    review_server.start()
    after = _ask(http, room, tokens[0], 1)
    assert after.status_code == 200 and after.json() == reviews[0], "kept across a restart"

    # the match's summary for the seat (its cookie): the share of decisions close to
    # the best and the costliest ones, each linked to its step of the replay
    with httpx.Client(base_url=review_server.base, cookies={"stammtisch_seat": tokens[seat]},
                      headers={"Accept-Language": "en"}) as browser:
        page = browser.get(f"/r/{room}/reviews")
        assert page.status_code == 200
        count = len(reviews[seat]["decisions"])
        assert f"of {count}) were close to the best" in page.text
        # the deal's panel counts as the summary does (within the game's threshold)
        within = re.search(r"\((\d+) of (\d+)\) were close to the best", page.text)
        assert within is not None
        deal_panel = browser.get(f"/r/{room}/review", params={"deal": 1}).text
        assert f"{within.group(1)} of your {count} decisions were close to the best" in deal_panel
        links = re.findall(rf"/history/{room}/replay\?step=(\d+)", page.text)
        assert 1 <= len(links) <= 3
        assert browser.get(f"/history/{room}/replay", params={"step": links[0]}).status_code == 200
        german = browser.get(f"/r/{room}/reviews", headers={"Accept-Language": "de"})
        assert german.status_code == 200
    nobody = http.get(f"/r/{room}/reviews")
    assert nobody.status_code == 401 and "This browser has no seat at this match" in nobody.text
    table.close()
