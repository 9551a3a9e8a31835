"""Three friends play a whole hand of Beutelschneider by clicking cards."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.table import click_one, next_deal, open_table, seat_everyone, table_contexts


def test_three_browsers_play_a_full_hand(browser: Any, sqlite_server: Server,
                                         shots: Path) -> None:
    contexts = table_contexts(browser, 2)
    pages = [c.new_page() for c in contexts]
    url = open_table(pages[0], sqlite_server.base, "beutelschneider", players=3)
    seat_everyone(pages, url, ["Anna", "Bert", "Cilli"])
    assert all(p.locator(".hand .card").count() == 10 for p in pages)
    assert "2 cards set aside unseen" in pages[0].inner_text("#status")
    rng = random.Random(7)
    for played in range(30):
        click_one(pages, rng.choice)
        if played == 10:
            pages[0].screenshot(path=str(shots / "bs-table.png"), full_page=True)
    for p in pages:
        p.wait_for_selector(".deal-result table.sheet")
        sheet = p.inner_text(".deal-result")
        assert "Card points" in sheet and "Running total" in sheet
        assert p.locator(".trick.final .card").count() == 3, "the hand's last trick"
    pages[0].screenshot(path=str(shots / "bs-sheet.png"), full_page=True)
    pages[2].screenshot(path=str(shots / "bs-sheet-phone.png"), full_page=True)
    next_deal(pages)  # the result stays until everybody pressed "Next deal"
    assert all(p.locator(".hand .card").count() == 10 for p in pages)
    for c in contexts:
        c.close()
