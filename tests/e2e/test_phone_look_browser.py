"""The table on a phone (360 × 740) and on a desktop, in German and in English, in
light and in dark mode: screenshots of all four games are saved under
test-results/ for people to look at (Lügenbeutel with a 20-card hand), and on the
phone every hand card lies within the screen's width with at least 40 px of it to
tap."""

from __future__ import annotations

import json
import math
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


@pytest.mark.parametrize(("game", "players"), [("mauscheln", 3), ("luegenbeutel", 5),
                                               ("luegenbeutel", 7), ("luegenbeutel", 8)])
def test_on_a_phone_the_plates_keep_apart_and_out_of_the_middle(
        browser: Any, sqlite_server: Server, shots: Path, game: str, players: int) -> None:
    """Round a phone's felt no two plates overlap, and a plate at or near the side
    lies in the felt's side column, clear of the words and cards in the middle."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    table_with_bots(page, sqlite_server.base, game, players=players)
    page.wait_for_selector("#seats .plate.side")
    page.wait_for_timeout(300)
    page.screenshot(path=str(shots / f"phone-plates-{game}-{players}.png"))
    found = page.evaluate("""() => {
      const felt = document.querySelector('.felt-wrap').getBoundingClientRect();
      // the felt's side column (a grid: side | middle | side)
      const side = parseFloat(getComputedStyle(document.querySelector('.felt-wrap'))
        .gridTemplateColumns.split(' ')[0]);
      const plates = [...document.querySelectorAll('#seats .plate')].map(p => {
        const r = p.getBoundingClientRect();
        return {seat: p.dataset.seat, side: p.classList.contains('side'),
                left: r.left - felt.left, right: felt.right - r.right,
                top: r.top, bottom: r.bottom, l: r.left, r: r.right};
      });
      return {side, plates};
    }""")
    plates = found["plates"]
    assert len(plates) == players
    for p in plates:  # Anna sits in seat 0, at the bottom
        x = 0.5 + 0.5 * math.cos(math.radians(90 + 360 * int(p["seat"]) / players))
        if abs(x - round(x)) < 0.12:  # a seat at or near the side: in the side margin
            assert p["side"] and min(p["left"], p["right"]) < 8, p
            assert p["r"] - p["l"] <= found["side"], p
    for i, a in enumerate(plates):
        for b in plates[i + 1:]:
            apart = (a["r"] <= b["l"] or b["r"] <= a["l"]
                     or a["bottom"] <= b["top"] or b["bottom"] <= a["top"])
            assert apart, (a, b)
    context.close()
