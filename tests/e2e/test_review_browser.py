"""Your deal, reviewed (issue 28) in the browser: a German phone plays a one-deal
Schafkopf match against bots, and at its end the button "Dein Spiel, besprochen"
draws the review into the page (a spinner while it is worked out): each of the
person's decisions with the card chosen, the best and the options in German card
names; a push of the table leaves it where it is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.look import table_with_bots
from tests.e2e.table import version, wait_until
from tests.e2e.test_why_card_browser import PHONE_DE

PLAYABLE = "document.querySelector('#hand button.card.playable')"
FINISHED = "document.querySelector('[data-review]')"


def test_the_review_of_the_match_s_deal_on_a_german_phone(browser: Any, sqlite_server: Server,
                                                          shots: Path) -> None:
    page = browser.new_context(**PHONE_DE).new_page()
    table_with_bots(page, sqlite_server.base, "schafkopf", fields={"target": "1"})
    played = []
    while not page.evaluate(f"!!({FINISHED})"):
        wait_until(page, f"{PLAYABLE} || {FINISHED}", timeout=30_000)
        if page.evaluate(f"!!({FINISHED})"):
            break
        card = page.locator("#hand button.card.playable").first
        played.append(card.get_attribute("title") or "")
        before = version(page)
        card.tap()
        wait_until(page, f"parseInt(document.getElementById('version').dataset.version)"
                         f" > {before} || {FINISHED}", timeout=10_000)
    button = page.locator("[data-review]")
    assert button.inner_text() == "Dein Spiel, besprochen"
    button.tap()
    wait_until(page, "document.querySelector('#review .review-panel')", timeout=60_000)
    panel = page.inner_text("#review")
    assert panel.startswith("Dein Spiel, besprochen · Spiel 1"), panel
    chosen = page.locator("#review .review-choice")
    assert chosen.count() == len(played) == 8
    first = chosen.first.inner_text()
    assert first.startswith("Du hast gewählt: ") and "play:" not in panel, first
    assert "nah am besten Zug" in panel
    page.screenshot(path=str(shots / "review-phone-de.png"), full_page=True)
