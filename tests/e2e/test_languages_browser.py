"""A table of each game in German and in English, on a desktop and on a phone.

The host opens the table from the lobby in a browser whose language is German or
English, seats bots, starts and plays a few cards. The page is in that language,
every card face is drawn from its sprite, and screenshots (desktop 1280 wide, phone
360 × 740) are saved under test-results/ for people to look at. The rules page of
the game is saved too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Server
from tests.e2e.look import act
from tests.e2e.table import (
    clickable_actions,
    join,
    seat_bots_and_start,
    wait_until,
)

GAMES: dict[str, dict[str, str]] = {
    "schafkopf": {},
    "beutelschneider": {},
    "mauscheln": {},
    "luegenbeutel": {"challenge_ms": "300"},
}
WORDS = {"de": ("Verlauf", "Link zum Tisch"), "en": ("History", "Room link")}
ENGLISH_ONLY = ("Room link", "Standings", "your hand")


def _cards_drawn(page: Any) -> int:
    """How many card pictures have a size on the page (sprites loaded and drawn)."""
    return int(page.evaluate("""() => [...document.querySelectorAll('.card svg.art')]
        .filter(s => s.getBoundingClientRect().width > 10).length"""))


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("game", list(GAMES))
def test_a_table_in_each_language_on_desktop_and_phone(
        browser: Any, sqlite_server: Server, shots: Path, game: str, language: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  locale="de-DE" if language == "de" else "en-GB")
    sprites: list[tuple[str, int]] = []
    page = context.new_page()
    page.on("response", lambda r: sprites.append((r.url, r.status))
            if "/static/cards/" in r.url else None)
    page.goto(sqlite_server.base + "/")
    assert page.get_attribute("html", "lang") == language
    page.check(f"#game-{game}")
    for name, value in GAMES[game].items():
        page.fill(f'[name="{game}.{name}"]', value)
    # no held result or trick pause: the screenshots show cards in play
    page.fill('[name="table.next_deal_s"]', "0")
    page.fill('[name="table.trick_pause_ms"]', "0")
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/r/*")
    join(page, page.url, "Anna")
    seat_bots_and_start(page)
    for _ in range(3):  # a few moves of ours, so the board has cards on it
        wait_until(page, "document.querySelector('[data-action]:not([disabled])')",
                               timeout=15_000)
        actions = [a for a in clickable_actions(page)
                   if a.startswith(("play:", "lay:")) or a in ("mauschel", "join", "end")]
        if not actions:
            break
        act(page, actions[0])  # a Lügenbeutel stack asks how many: one
    page.wait_for_timeout(400)
    assert page.get_attribute("html", "lang") == language
    text = page.inner_text("body")
    assert all(word in text for word in WORDS[language])
    if language == "de":
        assert not any(word in page.content() for word in ENGLISH_ONLY)
    assert _cards_drawn(page) >= 1
    assert sprites and all(status in (200, 304) for _url, status in sprites)
    page.screenshot(path=str(shots / f"{game}-{language}-desktop.png"), full_page=True)
    page.set_viewport_size({"width": 360, "height": 740})
    page.wait_for_timeout(200)
    assert _cards_drawn(page) >= 1
    page.screenshot(path=str(shots / f"{game}-{language}-phone.png"), full_page=False)
    # the "?" opens the rules of this game in a new tab
    with context.expect_page() as opened:
        page.click(".rules-link")
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith(f"/rules/{game}")
    assert rules.get_attribute("html", "lang") == language
    assert rules.locator(".rules .card svg.art").count() >= 1
    rules.set_viewport_size({"width": 1280, "height": 900})
    rules.screenshot(path=str(shots / f"rules-{game}-{language}.png"), full_page=False)
    context.close()
