"""Lügenbeutel in the browser: one player lies, another calls the liar in time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.look import act
from tests.e2e.table import clickable_actions, open_table, seat_everyone, version, wait_version


def test_a_lie_is_caught_by_clicking_the_face_down_card(
        browser: Any, sqlite_server: Server, shots: Path) -> None:
    contexts = [browser.new_context(viewport={"width": 1000, "height": 800}),
                browser.new_context(viewport={"width": 390, "height": 844},
                                    device_scale_factor=2, is_mobile=True, has_touch=True),
                browser.new_context(viewport={"width": 1000, "height": 800})]
    pages = [c.new_page() for c in contexts]
    url = open_table(pages[0], sqlite_server.base, "luegenbeutel", players=3,
                     fields={"challenge_ms": "4000"})
    seat_everyone(pages, url, ["Anna", "Bert", "Cilli"])
    liar = next(p for p in pages if clickable_actions(p))
    others = [p for p in pages if p is not liar]
    number = liar.inner_text(".big-number").strip()
    lies = [a for a in clickable_actions(liar)
            if a.startswith("lay:") and a[4:] not in (number, "J")]
    assert lies, "a ten-card hand holds a card that is not the number or a Joker"
    before = version(liar)
    act(liar, lies[0])  # one card of the stack
    wait_version(pages, before)
    before = version(liar)
    liar.click('[data-action="end"]')
    wait_version(pages, before)
    # the others see one face-down card they may challenge, and a countdown
    catcher = others[1]
    catcher_name = catcher.inner_text(".plate.me .pname").replace(" (you)", "")
    catcher.wait_for_selector('[data-action="challenge:1"]')
    assert catcher.locator(".countdown").count() == 1
    assert lies[0][4:] not in catcher.inner_text("#board")
    catcher.screenshot(path=str(shots / "lb-open-stack.png"), full_page=True)
    before = version(catcher)
    catcher.click('[data-action="challenge:1"]')
    wait_version(pages, before)
    for p in pages:
        result = p.inner_text(".challenge-result")
        assert "A lie!" in result and catcher_name in result
    others[0].screenshot(path=str(shots / "lb-caught-phone.png"), full_page=True)
    for c in contexts:
        c.close()
