"""The table on a phone (360 × 740) and on a desktop, in German and in English, in
light and in dark mode: screenshots of all four games are saved under
test-results/ for people to look at (Lügenbeutel with a 20-card hand), and on the
phone every hand card lies within the screen's width with at least 40 px of it to
tap."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Server
from tests.e2e.look import GAMES, grow_hand, hand_targets, play_a_few, table_with_bots

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}
MIN_TARGET = 40  # px a finger needs


def _shoot(page: Any, shots: Path, name: str) -> None:
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.wait_for_timeout(400)  # colours change with a transition
        page.screenshot(path=str(shots / f"{name}-{scheme}.png"), full_page=True)
    page.emulate_media(color_scheme="light")


def _fits(targets: list[dict[str, Any]]) -> None:
    """Every hand card lies within the phone's width, with 40 px of it to tap."""
    assert targets, "a hand is shown"
    for t in targets:
        assert t["left"] >= 0 and t["right"] <= PHONE["width"], t
        assert t["hit_width"] >= MIN_TARGET, t
        assert t["hits"], t


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_on_a_phone_in_both_languages(
        browser: Any, sqlite_server: Server, shots: Path, game: str, language: str) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True, locale="de-DE" if language == "de" else "en-GB")
    page = context.new_page()
    url = table_with_bots(page, sqlite_server.base, game)
    page.goto(f"{url}?lang={language}")
    page.wait_for_selector("#hand .card")
    _fits(hand_targets(page))  # the whole first hand (Beutelschneider for 3: ten cards)
    play_a_few(page)
    if game == "luegenbeutel":
        grow_hand(sqlite_server, page, "Anna", 20)
        counts = page.evaluate("[...document.querySelectorAll('#hand .hand .card')]"
                               ".map(c => parseInt(c.dataset.count || '1', 10))")
        assert sum(counts) == 20
        assert len(counts) < 20, "equal cards lie in one stack"
    page.wait_for_timeout(300)
    assert page.get_attribute("html", "lang") == language
    targets = hand_targets(page)
    _fits(targets)
    (shots / "hand-targets.json").write_text(json.dumps(targets, indent=1))  # for review
    _shoot(page, shots, f"{game}-{language}-phone")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(200)
    _shoot(page, shots, f"{game}-{language}-desktop")
    context.close()
