"""Chromium under the site's Content-Security-Policy: the lobby, a Mauscheln table
played by a person with two bots, and /docs work with no CSP violation in the
console; while another program holds the database lock past the busy timeout every
seat's page says it is reconnecting to the database, and the table resumes by
itself when the lock is gone."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.table import clickable_actions, join, version, wait_until

CSP_WORDS = ("Content Security Policy", "Refused to", "violates")


def _watch(page: Any) -> list[str]:
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type == "error" or any(w in m.text for w in CSP_WORDS) else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    return problems


def test_the_table_and_docs_work_under_the_csp(browser: Any, sqlite_server: Server,
                                               shots: Path) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    problems = _watch(page)
    page.goto(sqlite_server.base + "/")
    # the lobby shows the chosen game's options only (lobby.js, not an inline style)
    page.check("#game-mauscheln")
    assert page.is_visible(".opts-mauscheln") and not page.is_visible(".opts-schafkopf")
    page.select_option('select[name="mauscheln.players"]', "3")
    assert page.is_visible('input[name="table.away_seconds"]')
    page.screenshot(path=str(shots / "lobby.png"), full_page=True)
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/r/*")
    url = page.url
    join(page, url, "Anna")
    for _ in range(2):
        before = version(page)
        page.click('[data-cmd="add_bot"]')
        wait_until(page, f"document.getElementById('version').dataset.version > {before}")
    before = version(page)
    page.click('[data-cmd="start"]:not([disabled])')
    wait_until(page, f"document.getElementById('version').dataset.version > {before}")
    page.click("#room-link")  # table.js selects the link (was an inline onclick)
    assert page.evaluate("window.getSelection().toString() || "
                         "document.activeElement.selectionEnd") not in ("", 0)
    deadline = time.monotonic() + 30
    while not clickable_actions(page):
        assert time.monotonic() < deadline, "Anna never got a move"
        page.wait_for_timeout(50)
    action = clickable_actions(page)[0]
    before = version(page)
    page.click(f'[data-action="{action}"]')
    wait_until(page, f"document.getElementById('version').dataset.version > {before}")
    page.screenshot(path=str(shots / "table.png"), full_page=True)

    # another program holds the database's write lock for longer than the retries
    other = sqlite3.connect(sqlite_server.db_url.removeprefix("sqlite:///"),
                            timeout=0, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        deadline = time.monotonic() + 40
        while "Reconnecting to the database" not in page.inner_text("#notice"):
            assert time.monotonic() < deadline, "no reconnecting notice"
            if clickable_actions(page):  # Anna's move meets the lock itself
                page.click(f'[data-action="{clickable_actions(page)[0]}"]')
            page.wait_for_timeout(200)
        assert page.is_visible("#notice")
        page.screenshot(path=str(shots / "waiting-for-database.png"), full_page=True)
    finally:
        other.execute("ROLLBACK")
        other.close()
    wait_until(page, "document.getElementById('notice').hidden", timeout=40_000)
    assert "Reconnecting" not in page.inner_text("#notice")
    page.screenshot(path=str(shots / "resumed.png"), full_page=True)

    docs = context.new_page()
    doc_problems = _watch(docs)
    docs.goto(sqlite_server.base + "/docs")
    docs.wait_for_selector(".swagger-ui .opblock", timeout=20_000)
    assert "Stammtisch" in docs.inner_text(".swagger-ui .info")
    docs.screenshot(path=str(shots / "docs.png"))
    assert not doc_problems, doc_problems
    assert not problems, problems
    context.close()
