"""Four friends play the classic Schafkopf in the browser, two in English and two in
German (one on a phone): the auction by its buttons (Ich spiel / Weiter, a class, a
Sau or a trump suit), the game on every board, Kontra offered to the opponents
alone, and the first card of the first trick."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.table import clickable_actions, open_table, seat_everyone, version, wait_version

GAME = "schafkopf_classic"
NAMES = ["Anna", "Bert", "Cilli", "Done"]


def _contexts(browser: Any) -> list[Any]:
    """Anna and Cilli in English at a desktop, Bert in German at a desktop, Done in
    German on a phone."""
    desktop = {"viewport": {"width": 1280, "height": 800}}
    phone = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
             "is_mobile": True, "has_touch": True}
    return [browser.new_context(locale="en-GB", **desktop),
            browser.new_context(locale="de-DE", **desktop),
            browser.new_context(locale="en-GB", **desktop),
            browser.new_context(locale="de-DE", **phone)]


def _turn(pages: list[Any]) -> Any:
    """The one page whose turn it is (its turn line is its own)."""
    mine = [p for p in pages if p.locator("#status .turn-line.mine").count()]
    assert len(mine) == 1, f"{len(mine)} pages are on turn"
    return mine[0]


def _click(pages: list[Any], page: Any, action: str) -> None:
    before = version(page)
    page.click(f'button[data-action="{action}"]')
    wait_version(pages, before)


def test_four_browsers_bid_call_and_play_the_first_card(
        browser: Any, sqlite_server: Server, shots: Path) -> None:
    contexts = _contexts(browser)
    pages = [c.new_page() for c in contexts]
    pages[1].goto(sqlite_server.base + "/")  # a German visitor finds the game first
    assert pages[1].locator("input[name=game]").first.get_attribute("value") == GAME
    assert pages[1].is_checked(f"#game-{GAME}")
    url = open_table(pages[0], sqlite_server.base, GAME)
    seat_everyone(pages, url, NAMES)
    assert all(p.locator(".hand .card").count() == 8 for p in pages)
    # forehand speaks first: only its page has buttons, "Ich spiel" and "Weiter"
    first = _turn(pages)
    assert sorted(clickable_actions(first)) == ["bid", "pass"]
    assert all(not clickable_actions(p) for p in pages if p is not first)
    buttons = first.inner_text(".action-buttons")
    assert "Ich spiel" in buttons and "Weiter" in buttons
    for p in pages:
        p.screenshot(path=str(shots / f"auction-{pages.index(p)}.png"), full_page=True)
    _click(pages, first, "bid")
    for _ in range(3):  # the three others say "Weiter"
        page = _turn(pages)
        assert sorted(clickable_actions(page)) == ["bid", "pass"]
        _click(pages, page, "pass")
    # everybody sees what each seat said
    assert all(p.locator(".sk-auction li.bid").count() == 1 for p in pages)
    assert all(p.locator(".sk-auction li.pass").count() == 3 for p in pages)
    # the bidder names a class: only the classes there are, and "Weiter"
    assert _turn(pages) is first
    offered = clickable_actions(first)
    classes = [a for a in offered if a.startswith("class:")]
    assert classes and offered[-1] == "pass"
    first.screenshot(path=str(shots / "name-a-game.png"), full_page=True)
    _click(pages, first, classes[0])
    asked = clickable_actions(first)  # a Sau to call or the trump suit, if any
    if asked and _turn(pages) is first and all(not a.startswith("play:") for a in asked):
        _click(pages, first, asked[0])
    # the game stands: it is on every board, in each page's language
    declarer = NAMES[pages.index(first)]
    for p in pages:
        assert declarer in p.inner_text(".sk-game")
    assert "spielt auf die" in pages[1].inner_text(".sk-game") or \
        ":" in pages[1].inner_text(".sk-game")
    # Kontra: a button for opponents only (the declarer never has one)
    assert "kontra" not in clickable_actions(first)
    for i, p in enumerate(pages):
        p.screenshot(path=str(shots / f"game-stands-{i}.png"), full_page=True)
    # forehand leads a card; it lies on every board
    leader = _turn(pages)
    cards = [a for a in clickable_actions(leader) if a.startswith("play:")]
    assert cards
    _click(pages, leader, cards[0])
    for p in pages:
        p.wait_for_selector("#trick .card")
        assert p.locator(".hand .card").count() == (7 if p is leader else 8)
    for i, p in enumerate(pages):
        p.screenshot(path=str(shots / f"first-card-{i}.png"), full_page=True)
    for c in contexts:
        c.close()
