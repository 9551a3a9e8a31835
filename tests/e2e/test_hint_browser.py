"""A practice table on a German phone (issue 28): the lobby's "Übungstisch" seats
strong bots in every other seat, the newcomer takes the last one and starts, and at
their turn "Tipp" shows the strong bot's choice with the top options and their
estimates, within the screen, to that page alone; nothing is played. The deal is
the server's own, so a turn with a single card to play (the hint says there is
nothing to weigh) is played and the next turn asked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.table import join, version, wait_until, wait_version
from tests.e2e.test_axe_browser import axe_problems
from tests.e2e.test_why_card_browser import PHONE_DE
from tests.web.test_hints import hint_server  # noqa: F401  (the fixture: a quick strong bot)

HINT = "document.querySelector('[data-hint]')"
PANEL = "document.querySelector('#hint .hint-choice')"


def open_practice(page: Any, base: str, game: str, name: str) -> str:
    """Open a practice table of ``game`` from the lobby, take the free seat as
    ``name`` and start; returns the room link."""
    page.goto(base + "/")
    page.check(f"#game-{game}")
    page.fill('[name="table.next_deal_s"]', "0")
    page.fill('[name="table.trick_pause_ms"]', "0")
    page.click("#f-practice")
    page.wait_for_url("**/r/*")
    url = str(page.url)
    join(page, url, name)
    before = version(page)
    page.click('[data-cmd="start"]')
    wait_version([page], before)
    return url


def test_tipp_on_a_german_phone_shows_the_bot_s_choice(
        browser: Any, hint_server: Server, shots: Path) -> None:  # noqa: F811 (a fixture)
    context = browser.new_context(**PHONE_DE)
    page = context.new_page()
    page.goto(hint_server.base + "/")
    assert page.inner_text("#f-practice") == "Übungstisch"
    open_practice(page, hint_server.base, "schafkopf", "Anna")
    assert page.locator(".plate .tag", has_text="Bot · stark").count() == 3
    playable = page.locator("#hand button.card.playable")
    one_choice_seen = False
    for _turn in range(8):  # the deal is the server's own: play on to a real choice
        wait_until(page, HINT, timeout=30_000)  # the bots played up to our turn
        button = page.locator("[data-hint]")
        assert button.inner_text() == "Tipp"
        before = version(page)
        button.tap()
        wait_until(page, PANEL, timeout=20_000)
        if playable.count() > 1:
            break
        # one card may be played (a suit to follow held once): no numbers to give
        assert "nur diese eine Möglichkeit" in page.inner_text("#hint .hint-note")
        assert page.locator("#hint .hint-options li").count() == 0
        one_choice_seen = True
        playable.first.tap()
        wait_version([page], before)
    else:
        raise AssertionError("eight turns in a row with one card to play")
    choice = page.inner_text("#hint .hint-choice")
    assert choice.startswith("Tipp: "), choice
    options = page.locator("#hint .hint-options li")
    assert 1 <= options.count() <= 3, (one_choice_seen, page.inner_html("#hint"))
    assert page.locator("#hint .hint-options li.chosen").count() == 1
    assert "Wahl des Bots" in page.inner_text("#hint .hint-options li.chosen")
    assert "(Einheiten)" in page.inner_text("#hint .hint-note")
    # the card of the bot's choice is marked in the hand
    marked = page.get_attribute("#hint", "data-hinted")
    assert page.locator(f'#hand button.hinted[data-action="{marked}"]').count() == 1
    page.screenshot(path=str(shots / "hint-phone-de.png"), full_page=False)
    assert axe_problems(page) == [], "the panel and the marked card are accessible"
    # the panel lies within the screen's width and the page did not move on
    box = page.locator("#hint").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert version(page) == before
    # its Close button empties it, and the hand is still ours to play
    page.locator("[data-hint-close]").tap()
    wait_until(page, "!document.querySelector('#hint.open')", timeout=5_000)
    assert page.locator(".hinted").count() == 0
    assert page.locator("#hand button.card.playable").count() >= 1
    context.close()
