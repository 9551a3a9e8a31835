"""A planned restart (SIGTERM, close code 1012) and a crash (SIGKILL): the browser
reconnects by itself and finds its table as it was, without joining again."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Server
from tests.e2e.table import click_one, join, version, wait_until
from tests.web.apiclient import Table, sit_in_order


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_the_browser_reconnects_after_a_restart_and_plays_on(
        browser: Any, sqlite_server: Server, shots: Path, sig: int) -> None:
    table = Table(sqlite_server.base, "schafkopf", options={"dealer": 3}, seed=12)
    context = browser.new_context()
    page = context.new_page()
    join(page, table.url, "Anna")  # seat 0: forehand of dealer 3
    sit_in_order(table, ("Bert", "Cilli", "Done"), first=1)  # Bert plays after her
    assert table.start().status_code == 200
    page.wait_for_selector("button[data-action]")  # Anna leads (dealer 3)
    click_one([page], lambda actions: actions[0])
    seen = version(page)
    hand = page.inner_text("#hand")
    sqlite_server.kill(sig)
    wait_until(page, "document.getElementById('conn').dataset.state === 'closed'")
    sqlite_server.start()
    wait_until(page, "document.getElementById('conn').dataset.state === 'open'",
                           timeout=30_000)
    assert version(page) == seen
    assert page.inner_text("#hand") == hand
    assert "Anna (you)" in page.inner_text(".plate.me")
    page.screenshot(path=str(shots / "after-restart.png"), full_page=True)
    # the others play on through the API and the page follows live
    st = table.view(table.tokens[0])
    assert st["legal"]
    r = table.act(table.tokens[0], st["legal"][0], st["version"])
    assert r.status_code == 200
    wait_until(page, f"document.getElementById('version').dataset.version > {seen}")
    context.close()
