"""The end of a Schafkopf match on a phone: the last trick stays on the felt, each
card in front of the seat that played it, with who took it, under the result.
Screenshots in test-results/."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from app.web.cards import face
from tests.conftest import Server
from tests.e2e.table import clickable_actions, join, version, wait_until
from tests.web.apiclient import Table


def test_the_last_trick_stays_on_the_felt_when_the_match_ends(
        browser: Any, sqlite_server: Server, shots: Path) -> None:
    table = Table(sqlite_server.base, "schafkopf", options={"dealer": 3, "target": 1},
                  seed=7)
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    join(page, table.url, "Anna")
    for _ in range(3):
        table.http.post(f"/api/rooms/{table.room}/bots", json={"level": "easy"},
                        headers={"Authorization": f"Bearer {table.host_token}"})
    assert table.start().status_code == 200
    page.wait_for_selector(".hand .card")
    deadline = time.monotonic() + 90
    while page.get_attribute("#version", "data-status") != "finished":
        assert time.monotonic() < deadline, "the match did not end"
        actions = [a for a in clickable_actions(page) if a.startswith("play:")]
        if actions:
            before = version(page)
            page.click(f'[data-action="{actions[0]}"]')
            wait_until(page, f"parseInt(document.getElementById('version')"
                             f".dataset.version) > {before}", timeout=10_000)
        else:
            page.wait_for_timeout(50)
    final = table.view()["view"]
    last = final["last_deal"]["tricks"][-1]
    names = table.view()["seats"]
    page.wait_for_timeout(2000)  # longer than a finished trick's slide to its winner
    cards = page.locator("#trick.final .played")
    assert cards.count() == 4, "the four cards of the last trick"
    felt = page.locator(".felt-wrap").bounding_box()
    for i, (seat, card) in enumerate(last["plays"]):
        figure = cards.nth(i)
        assert figure.get_attribute("style").startswith(f"--s: {seat};")
        assert figure.locator(".card").get_attribute("title") == face("schafkopf", card).title
        assert (figure.locator("figcaption").text_content() or "").endswith(names[seat])
        box = figure.bounding_box()
        assert box and felt and felt["y"] <= box["y"] and box["y"] + box["height"] <= (
            felt["y"] + felt["height"]), "on the felt"
        opacity = figure.evaluate("e => getComputedStyle(e).opacity")
        assert float(opacity) == 1.0, "not faded out"
    # Anna (seat 0) sees her own card at the bottom of the felt
    mine = next(i for i, (seat, _card) in enumerate(last["plays"]) if seat == 0)
    ys = [cards.nth(i).bounding_box()["y"] for i in range(4)]
    assert ys[mine] == max(ys)
    took = page.locator(".trick.final .took figcaption").text_content() or ""
    assert took.endswith(names[last["winner"]])
    assert (f"The last trick of the match: {names[last['winner']]} took it."
            in page.inner_text("#board"))
    page.screenshot(path=str(shots / "match-over-phone.png"), full_page=True)
    context.close()
