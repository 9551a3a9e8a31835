"""Three friends play Mauscheln in the browser: bidding, joining, the exchange and
four tricks, with the duty shown and only allowed cards clickable."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.table import (
    click_one,
    clickable_actions,
    open_table,
    seat_everyone,
    table_contexts,
    version,
    wait_version,
)


def test_three_browsers_bid_exchange_and_play_four_tricks(
        browser: Any, sqlite_server: Server, shots: Path) -> None:
    contexts = table_contexts(browser, 2)
    pages = [c.new_page() for c in contexts]
    url = open_table(pages[0], sqlite_server.base, "mauscheln", players=3)
    seat_everyone(pages, url, ["Anna", "Bert", "Cilli"])
    assert all(p.locator(".hand .card").count() == 4 for p in pages)
    assert all("Pot" in p.inner_text("#status") for p in pages)
    # bidding: the first to speak says mauschel, the others join
    page, action = click_one(pages, lambda acts: "mauschel")
    assert action == "mauschel"
    assert "sneaker" in page.inner_text("#board")
    for _ in range(2):
        click_one(pages, lambda acts: "join")
    pages[0].screenshot(path=str(shots / "mauscheln-exchange.png"), full_page=True)
    # the exchange: each player ticks their first card and confirms
    for _ in range(3):
        actors = [p for p in pages if p.locator("form.exchange").count()]
        assert len(actors) == 1
        page = actors[0]
        page.locator("form.exchange label.card").first.click()
        button = page.locator("[data-exchange]")
        assert button.get_attribute("data-action").count(",") == 0
        assert button.get_attribute("data-action") != "exchange:"
        before = version(page)
        button.click()
        wait_version(pages, before)  # every browser shows the table after the exchange
    assert all(p.locator(".hand .card").count() == 4 for p in pages)
    rng = random.Random(5)
    for played in range(12):
        actors = [p for p in pages if clickable_actions(p)]
        status = actors[0].inner_text("#status")
        assert "Your turn" in status
        if played == 1:
            actors[0].screenshot(path=str(shots / "mauscheln-duty.png"), full_page=True)
        click_one(pages, rng.choice)
    # the deal is settled: everyone sees the transfers
    for p in pages:
        p.wait_for_selector(".deal-result")
        assert "Deal 1" in p.inner_text(".deal-result")
    pages[2].screenshot(path=str(shots / "mauscheln-settled-phone.png"), full_page=True)
    ledger = pages[0].goto(url + "/ledger")
    assert ledger is not None and ledger.status == 200
    assert "start" in pages[0].inner_text("main")
    for c in contexts:
        c.close()
