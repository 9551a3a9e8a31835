"""The host swaps seats while the friends' pages are open: Bert's phone follows him
to his new seat at once (no "you are watching"), he gets his cards there, plays his
turn from it and chats under his own name. Screenshots in test-results/."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.table import clickable_actions, open_table, table_contexts, version, wait_until
from tests.e2e.test_table_flow_browser import assert_ring_seen_from, join_at, start


def test_a_swapped_player_keeps_playing_from_the_same_page(
        browser: Any, sqlite_server: Server, shots: Path) -> None:
    contexts = table_contexts(browser, 2)  # Anna (the host) and Cilli on desktops, Bert on a phone
    anna, cilli, bert = (c.new_page() for c in contexts)
    url = open_table(anna, sqlite_server.base, "schafkopf")
    join_at(anna, url, "Anna", 0)
    join_at(bert, url, "Bert", 1)
    join_at(cilli, url, "Cilli", 2)
    anna.click('[data-cmd="add_bot"]')
    anna.wait_for_selector('.plate[data-seat="3"] .tag')
    # the host puts Bert opposite her: Anna and Bert become partners
    anna.select_option("#swap-a", "1")
    anna.select_option("#swap-b", "2")
    anna.click("form.swap button[type=submit]")
    # before the start the hand area is empty and hidden: attached, not visible
    bert.wait_for_selector('#hand[data-seat="2"]', state="attached")
    assert bert.text_content("#flash") == "The host moved you to another seat."
    assert_ring_seen_from(bert, 2)
    assert_ring_seen_from(cilli, 1)
    assert "Team 1: Anna & Bert" in bert.inner_text(".teams-note")
    bert.screenshot(path=str(shots / "swapped-phone.png"), full_page=True)

    start(anna)
    bert.wait_for_selector(".hand .card")
    assert_ring_seen_from(bert, 2)
    # everybody plays until Bert has played a card from his new seat
    pages = {"anna": anna, "bert": bert, "cilli": cilli}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if bert.locator('#board .played[style*="--s: 2"]').count():
            break
        for name, page in pages.items():
            actions = clickable_actions(page)
            if not actions:
                continue
            if name == "bert":
                assert bert.title().startswith("▶ "), "Bert's tab says it is his turn"
                bert.screenshot(path=str(shots / "his-turn-phone.png"), full_page=True)
            before = version(page)
            page.click(f'[data-action="{actions[0]}"]')
            wait_until(page, f"parseInt(document.getElementById('version')"
                             f".dataset.version) > {before}", timeout=10_000)
        anna.wait_for_timeout(100)
    caption = bert.locator('#board .played[style*="--s: 2"] figcaption').first.text_content()
    assert (caption or "").endswith("Bert"), "Bert's card lies in front of his new seat"

    # he writes in the chat (folded away on the phone) under his own name
    bert.click(".chat-toggle")
    bert.fill("#chat-text", "Servus Partnerin")
    bert.click(".chat-form button[type=submit]")
    line = anna.locator("#chat-log li", has_text="Servus Partnerin")
    line.wait_for()
    assert line.locator(".who").inner_text() == "Bert"
    assert line.locator(".tag").count() == 0, "not marked as a watcher"
    for c in contexts:
        c.close()
