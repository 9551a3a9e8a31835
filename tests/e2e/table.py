"""Helpers for driving table pages like a player: join by the link, click cards."""

from __future__ import annotations

import time
from typing import Any


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
    page.wait_for_function("document.getElementById('conn').dataset.state === 'open'")


def clickable_actions(page: Any) -> list[str]:
    return [el.get_attribute("data-action")
            for el in page.query_selector_all("button[data-action]:not([disabled])")]
