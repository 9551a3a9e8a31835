"""Four friends in four browsers join by the link and play one deal by clicking."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.table import (
    clickable_actions,
    join,
    next_deal,
    table_contexts,
    version,
    wait_version,
)


def test_four_browsers_join_by_link_and_play_a_full_deal(
        browser: Any, sqlite_server: Server, shots: Path) -> None:
    contexts = table_contexts(browser, 3, width=1100)
    pages = [c.new_page() for c in contexts]
    host = pages[0]
    host.goto(sqlite_server.base + "/")
    host.check("#game-schafkopf")
    host.click("form.create button[type=submit]")
    host.wait_for_url("**/r/*")
    url = host.url
    assert host.input_value("#room-link") == url
    for page, name in zip(pages, ["Anna", "Bert", "Cilli", "Done"], strict=True):
        join(page, url, name)
    host.screenshot(path=str(shots / "lobby-seated.png"), full_page=True)
    start = host.locator('[data-cmd="start"]')
    start.wait_for()
    v0 = version(host)
    start.click()
    wait_version(pages, v0)
    assert all(p.locator(".hand .card").count() == 8 for p in pages)
    # a reload returns the player to the seat with the current table
    pages[1].reload()
    pages[1].wait_for_selector(".plate.me")
    assert "Bert" in pages[1].inner_text(".plate.me")
    assert pages[1].locator(".hand .card").count() == 8

    rng = random.Random(3)
    for played in range(32):
        actors = [p for p in pages if clickable_actions(p)]
        assert len(actors) == 1, "exactly one browser has clickable cards"
        page = actors[0]
        others = [p for p in pages if p is not page]
        assert all(not clickable_actions(p) for p in others)
        actions = clickable_actions(page)
        choice = rng.choice(actions)
        before = version(page)
        page.click(f'button[data-action="{choice}"]')
        wait_version(pages, before)
        if played == 6:  # a push redrew the table; the opened last trick stays open
            assert pages[2].locator("details.last-trick").get_attribute("open") is not None
        if played == 5:  # the second trick has two cards: the first is on demand
            pages[2].click("details.last-trick summary")
            assert pages[2].locator("details.last-trick .card").count() == 4
            for i, p in enumerate(pages):
                p.screenshot(path=str(shots / f"table-seat{i}.png"), full_page=True)
    # the deal is over: everyone sees its result with the last trick, then, once
    # everybody pressed "Next deal", the next deal's fresh hand
    for p in pages:
        p.wait_for_selector(".deal-result")
        text = p.inner_text(".deal-result")
        assert "Deal 1" in text
        assert p.locator(".trick.final .card").count() == 4
    pages[0].screenshot(path=str(shots / "deal-result.png"), full_page=True)
    pages[3].screenshot(path=str(shots / "deal-result-phone.png"), full_page=True)
    next_deal(pages)
    assert all(p.locator(".hand .card").count() == 8 for p in pages)
    for c in contexts:
        c.close()
