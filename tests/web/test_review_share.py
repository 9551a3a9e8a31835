"""Sharing one's reviews with the table at the end of a match (issue 28): refused
while the match is on, shared and withdrawn with the button of the person's reviews
page (or the JSON API), kept in the database; the others at the match (a seat's token
or cookie, the host's) then read that person's summary and each deal's review, the
JSON of the same shape as the person's own; a spectator never, nobody a review not
shared, and nothing of an unshared review reaches another seat's pages or frames. The
table's result area names who shared, with links, and the public history too, also
after a restart (the room left memory: the pages read the database)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import Server
from tests.web.apiclient import Table, sit_in_order
from tests.web.frames import element_span, open_socket, recv_until
from tests.web.test_review_api import _ask, _play_deal_one, _ready

SEED = 41
NAMES = ("Anna", "Bert", "Cilli", "Dora")


@pytest.fixture
def review_server(db_url: str, tmp_path: Path) -> Iterator[Server]:
    srv = Server(db_url, tmp_path / "server.log", env={"REVIEW_BUDGET_MS": "150"}).start()
    yield srv
    srv.stop()


def _share_api(http: httpx.Client, room: str, token: str | None, shared: bool
               ) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return http.post(f"/api/rooms/{room}/review/share", json={"shared": shared},
                     headers=headers)


def _browser(server: Server, room: str, token: str, cookie: str = "stammtisch_seat",
             language: str = "en") -> httpx.Client:
    """A browser holding ``token`` in its room cookie."""
    client = httpx.Client(base_url=server.base, headers={"Accept-Language": language,
                                                         "Origin": server.base})
    client.cookies.set(cookie, token, path=f"/r/{room}")
    return client


def _rematch_area(html: str) -> str:
    span = element_span(html, "rematch")
    assert span is not None
    return html[span[0]:span[1]]


def test_a_person_shares_their_reviews_with_the_table_and_withdraws_them(
        review_server: Server) -> None:
    table = Table(review_server.base, "schafkopf", options={"dealer": 3, "target": 1},
                  seed=SEED)  # one deal is the whole match
    tokens = [t for _, t in sit_in_order(table, NAMES)]
    http, room = table.http, table.room
    assert _share_api(http, room, tokens[0], True).status_code == 409, "not started"
    assert table.start().status_code == 200

    # while the match is on: sharing refused with a sentence, nobody reads another's
    early = _share_api(http, room, tokens[0], True)
    assert early.status_code == 409 and "once the match is over" in early.json()["error"]
    with _browser(review_server, room, tokens[0]) as anna:
        page = anna.post(f"/r/{room}/reviews/share", data={"shared": "1"})
        assert page.status_code == 409 and "once the match is over" in page.text
    during = _ask(http, room, tokens[1], 1, seat=0)
    assert during.status_code in (403, 404)

    _play_deal_one(table, tokens, random.Random(3))
    assert table.view(tokens[0])["status"] == "finished"
    own = {s: _ready(http, room, tokens[s], 1) for s in (0, 3)}  # Dora's stays unshared

    # not shared: refused with a sentence naming the person, also for the host
    for token in (tokens[1], table.host_token):
        refused = _ask(http, room, token, 1, seat=0)
        assert refused.status_code == 403
        assert refused.json()["error"] == "Anna has not shared their reviews with the table."
    with _browser(review_server, room, tokens[1]) as bert:
        page = bert.get(f"/r/{room}/reviews", params={"seat": 0})
        assert page.status_code == 403 and "Anna has not shared" in page.text
        assert "You chose" not in page.text and "Anna chose" not in page.text

    # Anna shares with her page's button; Cilli over the JSON API
    with _browser(review_server, room, tokens[0]) as anna:
        mine = anna.get(f"/r/{room}/reviews")
        assert "Share my reviews with the table" in mine.text
        shared = anna.post(f"/r/{room}/reviews/share", data={"shared": "1"})
        assert shared.status_code == 303
        mine = anna.get(f"/r/{room}/reviews")
        assert "You share your reviews with the table" in mine.text
        assert "Withdraw my reviews" in mine.text
    got = _share_api(http, room, tokens[2], True)
    assert got.status_code == 200 and got.json() == {"seat": 2, "shared": True,
                                                      "seats": [0, 2]}

    # Bert, the host: Anna's deal, the same JSON as her own (the seat: hers)
    for token in (tokens[1], table.host_token):
        theirs = _ready(http, room, token, 1, seat=0)
        assert theirs == own[0]
        assert theirs["seat"] == 0
    german = _ask(http, room, tokens[1], 1, "de", seat=0)
    assert german.status_code == 200 and german.json()["decisions"] == _ask(
        http, room, tokens[0], 1, "de").json()["decisions"]
    # a review still pending for the viewer is started by the viewer (Cilli's)
    first = _ask(http, room, tokens[1], 1, seat=2)
    assert first.status_code in (200, 202)
    assert _ready(http, room, tokens[1], 1, seat=2)["seat"] == 2

    # a spectator (a token of no seat here), no token, a seat that is not there
    other = Table(review_server.base, "schafkopf", seed=SEED)
    stranger = other.join("Egon")[1]
    spectator = _ask(http, room, stranger, 1, seat=0)
    assert spectator.status_code == 403 and "a review names the cards" in spectator.text
    assert _ask(http, room, None, 1, seat=0).status_code == 401
    assert _ask(http, room, tokens[1], 1, seat=7).status_code == 404
    assert _share_api(http, room, table.host_token, True).status_code == 403, "no seat"
    with _browser(review_server, room, stranger) as egon:
        page = egon.get(f"/r/{room}/reviews", params={"seat": 0})
        assert page.status_code == 403 and "a review names the cards" in page.text
        assert "Anna chose" not in page.text
        panel = egon.get(f"/r/{room}/review", params={"deal": 1, "seat": 0})
        assert "review-panel" not in panel.text and "a review names the cards" in panel.text

    # Bert's pages: Anna's summary and deal read-only, his own lists who shared
    with _browser(review_server, room, tokens[1]) as bert:
        page = bert.get(f"/r/{room}/reviews", params={"seat": 0})
        assert page.status_code == 200
        assert "Anna's deals, reviewed" in page.text and "Anna shared these reviews" in page.text
        assert "Share my reviews" not in page.text and "/reviews/share" not in page.text
        labels = {o["label"] for d in own[0]["decisions"] for o in d["options"]}
        assert all(label in page.text for label in labels)
        assert f"of {len(own[0]['decisions'])}) were close to the best" in page.text
        panel = bert.get(f"/r/{room}/review", params={"deal": 1, "seat": 0,
                                                      "slot": "review-1"})
        assert "Anna&#39;s deal, reviewed" in panel.text or "Anna's deal, reviewed" in panel.text
        assert panel.text.count('class="review-choice"') == len(own[0]["decisions"])
        mine = bert.get(f"/r/{room}/reviews").text
        assert f'/r/{room}/reviews?seat=0"' in mine and f'/r/{room}/reviews?seat=2"' in mine
        assert "?seat=3" not in mine, "Dora did not share"
        assert "review-choice" not in mine, "no other person's review on his own page"
        area = _rematch_area(bert.get(f"/r/{room}").text)
        assert re.search(rf'href="/r/{room}/reviews\?seat=0">Anna</a>', area)
        assert re.search(rf'href="/r/{room}/reviews\?seat=2">Cilli</a>', area)
        assert "?seat=3" not in area and "?seat=1" not in area
        german = bert.get(f"/r/{room}", headers={"Accept-Language": "de"}).text
        assert "Mit dem Tisch geteilt:" in _rematch_area(german)
    with _browser(review_server, room, table.host_token, "stammtisch_host") as host:
        assert f"/r/{room}/reviews?seat=0" in _rematch_area(host.get(f"/r/{room}").text)
        assert host.get(f"/r/{room}/reviews", params={"seat": 0}).status_code == 200
    watcher = _rematch_area(httpx.get(f"{review_server.base}/r/{room}").text)
    assert "?seat=" not in watcher, "a spectator's table names no shared review"

    # a seat's frames: the table follows a withdrawal, and never names Dora's
    with open_socket(review_server.ws_base, room, tokens[1]) as ws:
        first = ws.recv(timeout=5)
        assert f"/r/{room}/reviews?seat=0" in first and "?seat=3" not in first
        assert "review-choice" not in first and "Dora" not in _rematch_area(first)
        with _browser(review_server, room, tokens[0]) as anna:
            gone = anna.post(f"/r/{room}/reviews/share", data={"shared": "0"})
            assert gone.status_code == 303
            assert "Share my reviews with the table" in anna.get(f"/r/{room}/reviews").text
        after = recv_until(ws, lambda f: f"/r/{room}/reviews?seat=0" not in f)
        assert f"/r/{room}/reviews?seat=2" in after and "?seat=3" not in after
        assert "Dora" not in _rematch_area(after) and "review-choice" not in after
    withdrawn = _ask(http, room, tokens[1], 1, seat=0)
    assert withdrawn.status_code == 403 and "Anna has not shared" in withdrawn.text

    # the public history: a player's way to their reviews, and who shared
    history = http.get(f"/history/{room}").text
    assert f'href="/r/{room}/reviews"' in history
    assert f'href="/r/{room}/reviews?seat=2">Cilli</a>' in history
    assert "?seat=0" not in history and "?seat=3" not in history
    nobody = http.get(f"/r/{room}/reviews")
    assert nobody.status_code == 401 and "This browser has no seat at this match" in nobody.text
    nobody_de = http.get(f"/r/{room}/reviews", headers={"Accept-Language": "de"})
    assert nobody_de.status_code == 401 and "Dieser Browser" in nobody_de.text

    # after a restart the room is not in memory: the pages read the database
    review_server.stop()
    review_server.start()
    assert _ready(http, room, tokens[3], 1, seat=2)["seat"] == 2
    assert _ask(http, room, tokens[3], 1, seat=0).status_code == 403
    with _browser(review_server, room, tokens[0]) as anna:
        assert anna.get(f"/r/{room}/reviews").status_code == 200
        page = anna.get(f"/r/{room}/reviews", params={"seat": 2})
        assert page.status_code == 200 and "Cilli's deals, reviewed" in page.text
        assert anna.post(f"/r/{room}/reviews/share", data={"shared": "1"}).status_code == 303
    assert _ready(http, room, tokens[1], 1, seat=0) == own[0]
    assert f'href="/r/{room}/reviews?seat=0">Anna</a>' in http.get(f"/history/{room}").text
    other.close()
    table.close()
