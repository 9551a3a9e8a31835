"""Helpers for driving table pages like a player: join by the link, click cards."""

from __future__ import annotations

import time
from typing import Any


def wait_until(page: Any, expression: str, timeout: float = 30_000) -> None:
    """Wait until ``expression`` is true in the page. Playwright's wait_for_function
    polls by ``eval`` inside the page, which the site's CSP forbids; this asks
    from outside (page.evaluate is not subject to the page's CSP)."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(f"!!({expression})"):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        page.wait_for_timeout(30)


def version(page: Any) -> int:
    return int(page.get_attribute("#version", "data-version"))


def wait_version(pages: list[Any], above: int, timeout: float = 10) -> None:
    """Wait until every page shows a table newer than version ``above``."""
    deadline = time.monotonic() + timeout
    for page in pages:
        while version(page) <= above:
            if time.monotonic() > deadline:
                raise AssertionError(f"page stuck at version {version(page)}")
            page.wait_for_timeout(30)


def join(page: Any, url: str, name: str) -> None:
    page.goto(url)
    page.fill('input[name="name"]', name)
    page.click("form.join button[type=submit]")
    page.wait_for_selector(".plate.me")
    wait_until(page, "document.getElementById('conn').dataset.state === 'open'")


def clickable_actions(page: Any) -> list[str]:
    return [el.get_attribute("data-action")
            for el in page.query_selector_all("button[data-action]:not([disabled])")]


def open_table(page: Any, base: str, game: str, players: int | None = None,
               fields: dict[str, str] | None = None) -> str:
    """Open a table from the lobby form like a host; returns the room link."""
    page.goto(base + "/")
    page.check(f"#game-{game}")
    if players is not None:
        page.select_option(f'select[name="{game}.players"]', str(players))
    for name, value in (fields or {}).items():
        page.fill(f'[name="{game}.{name}"]', value)
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/r/*")
    return str(page.url)


def seat_everyone(pages: list[Any], url: str, names: list[str]) -> None:
    """Everyone joins by the link, then the host (the first page) starts."""
    for page, name in zip(pages, names, strict=True):
        join(page, url, name)
    start = pages[0].locator('[data-cmd="start"]:not([disabled])')
    start.wait_for()
    before = version(pages[0])
    start.click()
    wait_version(pages, before)


def click_one(pages: list[Any], choose: Any) -> tuple[Any, str]:
    """The one page with clickable actions clicks ``choose(actions)``; waits until
    every page shows the new table. Returns (page, action)."""
    actors = [p for p in pages if clickable_actions(p)]
    assert len(actors) == 1, f"{len(actors)} pages have clickable actions"
    page = actors[0]
    action = choose(clickable_actions(page))
    before = version(page)
    page.click(f'[data-action="{action}"]')
    wait_version(pages, before)
    return page, action


def table_contexts(browser: Any, desktops: int, width: int = 1000) -> list[Any]:
    """Browser contexts for the friends at a table: ``desktops`` desktops and, last,
    one phone (390 px, touch), so every browser test also plays on a phone."""
    contexts = [browser.new_context(viewport={"width": width, "height": 800})
                for _ in range(desktops)]
    contexts.append(browser.new_context(viewport={"width": 390, "height": 844},
                                        device_scale_factor=2, is_mobile=True, has_touch=True))
    return contexts



def next_deal(pages: list[Any]) -> None:
    """Everybody at the table has seen the deal's result: each presses "Next deal";
    then the next deal's cards are dealt."""
    for page in pages:
        button = page.locator('[data-cmd="next_deal"]')
        if button.count():
            button.click()
    for page in pages:
        page.wait_for_selector(".hand .card", timeout=10_000)


def seat_bots_and_start(page: Any) -> None:
    """The host seats a bot in every free seat and starts the match."""
    while page.locator('[data-cmd="add_bot"]').count():
        before = version(page)
        page.click('[data-cmd="add_bot"]')
        wait_version([page], before)
    before = version(page)
    page.click('[data-cmd="start"]')
    wait_version([page], before)
