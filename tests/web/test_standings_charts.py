"""Standings rank people (bots apart, marked) in the game's own measure, and the
score chart (SVG drawn by the server) tells each match's story on its history page
and in the table's "All deals" panel, with one point per deal and player."""

from __future__ import annotations

import random
import re

import pytest

from app.web.charts import score_chart
from tests.conftest import Server
from tests.web.apiclient import Table

POINT_RE = re.compile(r'<circle class="pt"')


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _chart(html: str, chart_id: str) -> str:
    start = html.index(f'id="{chart_id}"')
    return html[start:html.index("</figure>", start)]


def _play_deals(table: Table, deals: int, rng: random.Random) -> None:
    """Random legal play over the API until ``deals`` deals are over (or the end)."""
    while True:
        spectator = table.view()
        if spectator["status"] == "finished" or (
                spectator["view"].get("deal_no", 1) > deals):
            return
        states = [table.view(t) for t in table.tokens]
        token, st = next((t, s) for t, s in zip(table.tokens, states, strict=True)
                         if s["legal"])
        r = table.act(token, rng.choice(st["legal"]), st["version"])
        assert r.status_code == 200, r.text


def test_score_chart_svg_has_title_desc_and_one_point_per_deal_and_player() -> None:
    deals = [(1, [2, 0, -1]), (2, [3, 4, -6]), (3, [1, 9, -6])]
    svg = score_chart(["<b>Anna</b>", "Bert", None], deals, "points", chart_id="c1", table=True)
    assert svg.count("<svg") == 1 + 3  # the chart, and a swatch per player in its legend
    assert len(POINT_RE.findall(svg)) == 9
    assert svg.count("<polyline") == 3
    assert '<title id="c1-t">Points after each deal</title>' in svg
    desc = re.search(r'<desc id="c1-d">(.*?)</desc>', svg)
    assert desc and "&lt;b&gt;Anna&lt;/b&gt;: 2, 3, 1" in desc.group(1)
    assert "Seat 3: -1, -6, -6" in desc.group(1)
    assert 'aria-labelledby="c1-t c1-d"' in svg and 'role="img"' in svg
    assert "<b>Anna" not in svg
    assert "Bert after deal 2: 4 points" in svg
    assert svg.count("<tr>") == 1 + 3  # the numbers as a table for screen readers
    one = score_chart(["A", "B"], [(1, [5, 0])], "units")
    assert len(POINT_RE.findall(one)) == 2 and "<polyline" not in one
    assert score_chart(["A"], [], "units") == ""


@pytest.mark.parametrize("deals", [1, 40])
def test_chart_points_stay_inside_the_picture(deals: int) -> None:
    rows = [(n, [n * 7 - 100, -n, 3]) for n in range(1, deals + 1)]
    svg = score_chart(["A", "B", "C"], rows, "chips")
    for cx, cy in re.findall(r'<circle class="pt" cx="([\d.]+)" cy="([\d.]+)"', svg):
        assert 0 <= float(cx) <= 600 and 0 <= float(cy) <= 220
    assert len(POINT_RE.findall(svg)) == 3 * deals


def test_table_panel_and_history_page_chart_every_deal(sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf", options={"dealer": 3, "target": 2},
                  seed=11)
    for name in ("Anna", "Bert", "Cilli", "Done"):
        table.join(name)
    assert table.start().status_code == 200
    rng = random.Random(2)
    _play_deals(table, 1, rng)
    page = table.http.get(f"/r/{table.room}").text
    chart = _chart(page, "table-chart")
    assert len(POINT_RE.findall(chart)) == 4  # one deal, four seats
    assert "Units after each deal" in chart
    # the chart's numbers come back after a restart
    sqlite_server.stop()
    sqlite_server.start()
    assert len(POINT_RE.findall(_chart(table.http.get(f"/r/{table.room}").text,
                                       "table-chart"))) == 4
    _play_deals(table, 10_000, rng)
    assert table.view()["status"] == "finished"
    page = table.http.get(f"/history/{table.room}").text
    deals = len(re.findall(r"<tr><td>\d+</td>", page.split("<h2>Deals</h2>", 1)[1]))
    assert deals >= 2
    chart = _chart(page, "match-chart")
    assert len(POINT_RE.findall(chart)) == 4 * deals
    assert "<title" in chart and "<desc" in chart
    assert "Final units" in page


def test_standings_leave_bots_out_of_the_ranking_and_mark_them(sqlite_server: Server) -> None:
    players: dict[str, str | None] = {"Anna": None, "Bert": None}
    for _ in range(2):  # the same two API clients (their player tokens) twice
        table = Table(sqlite_server.base, "mauscheln", players=3, options={"chips": 20})
        for name, player in players.items():
            table.join(name, player)
        players = dict(zip(players, table.players, strict=True))
        assert table.http.post(f"/api/rooms/{table.room}/bots",
                               headers=_auth(table.host_token)).status_code == 200
        assert table.start().status_code == 200
        assert table.http.post(f"/api/rooms/{table.room}/end",
                               headers=_auth(table.host_token)).status_code == 200
    bot = table.view()["seats"][2]
    page = table.http.get("/standings?game=mauscheln").text
    ranked, _sep, rest = page.partition("<h2>Bots</h2>")
    assert "Anna" in ranked and "Bert" in ranked and bot not in ranked
    assert bot in rest and '<span class="tag">bot</span>' in rest
    assert "Average chips" in page and "Net chips" in page
    assert re.search(r"<tr><td>1</td><td>(Anna|Bert)</td><td>2</td>", ranked)
    units = table.http.get("/standings?game=schafkopf").text
    assert "No finished Schafkopf" in units or "Average units" in units


def test_a_tables_chart_is_drawn_once_per_language_and_scores() -> None:
    """Every push draws the result panel; its chart is drawn again only when the
    scores (a deal ended) or the language changed."""
    from app import i18n
    from app.rooms.room import Room
    from app.web.render import table_chart

    room = Room(id="r", game="schafkopf", players=4, options={}, host_token_hash="h")
    names: list[str | None] = ["Anna", "Bert", "Cilli", "Done"]
    room.deal_scores = [(1, [2, -2, 2, -2])]
    first = table_chart(room, names, "units", False)
    assert table_chart(room, names, "units", False) is first  # kept
    assert first == score_chart(names, room.deal_scores, "units", chart_id="table-chart")
    with i18n.language("de"):
        german = table_chart(room, names, "units", False)
        assert german is not first and german == score_chart(
            names, room.deal_scores, "units", chart_id="table-chart")
    room.deal_scores.append((2, [4, -4, 4, -4]))  # a deal ended
    second = table_chart(room, names, "units", False)
    assert second != first and second.count("<circle") == 2 * first.count("<circle")
