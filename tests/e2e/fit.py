"""Helpers for the first-screen and overlap checks (issue 24): tables set up and
played over the JSON API, looked at in the browser from a seat (its cookie), and
the boxes of what the page shows."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

from tests.web.apiclient import Table

SEAT_COOKIE, HOST_COOKIE = "stammtisch_seat", "stammtisch_host"
SIZES = {"1280x800": (1280, 800), "390x844": (390, 844), "360x740": (360, 740)}

State = dict[str, Any]


def with_bots(base: str, game: str, players: int | None = None, seed: int | None = None,
              **options: Any) -> tuple[Table, str]:
    """A table of ``game``: Anna over the API in seat 0, easy bots in the others,
    started. Returns the table and Anna's token."""
    table = Table(base, game, players=players, options=options, seed=seed)
    table.http.timeout = httpx.Timeout(60)  # a move may wait out a challenge window
    _, token = table.join("Anna")
    while None in table.view()["seats"]:
        r = table.http.post(f"/api/rooms/{table.room}/bots", json={"level": "easy"},
                            headers={"Authorization": f"Bearer {table.host_token}"})
        assert r.status_code == 200, r.text
    assert table.start().status_code == 200
    return table, token


def play_until(table: Table, token: str, done: Callable[[State], bool],
               choose: Callable[[list[str]], str] = lambda legal: legal[0],
               timeout: float = 90) -> State:
    """Anna plays ``choose(legal)`` whenever she may, until ``done(state)``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = table.view(token)
        if done(state):
            return state
        if state["legal"] and not state.get("queued"):
            table.act(token, choose(state["legal"]), state["version"])
        else:
            time.sleep(0.05)
    raise AssertionError("the table never reached the state")


def seat_page(browser: Any, table: Table, token: str | None, size: str,
              lang: str = "en", scheme: str = "light") -> tuple[Any, Any]:
    """A browser (a phone below 600 px) at ``table`` in the seat of ``token`` (the
    host's cookie too), or watching without one. Returns (context, page)."""
    width, height = SIZES[size]
    phone = width < 600
    context = browser.new_context(viewport={"width": width, "height": height},
                                  is_mobile=phone, has_touch=phone, color_scheme=scheme,
                                  reduced_motion="reduce")
    host = table.http.base_url.host
    cookies = [(SEAT_COOKIE, token), (HOST_COOKIE, table.host_token)] if token else []
    context.add_cookies([{"name": n, "value": v, "domain": host, "path": f"/r/{table.room}"}
                         for n, v in cookies])
    page = context.new_page()
    page.goto(f"{table.http.base_url}/r/{table.room}?lang={lang}")
    page.wait_for_selector("#conn[data-state=open]")
    page.wait_for_timeout(300)
    return context, page


#: the box of each element a selector finds, with its text (shown ones only)
BOXES = """(sel) => [...document.querySelectorAll(sel)].filter(e => {
    const s = getComputedStyle(e), r = e.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && !e.closest('details:not([open]) > :not(summary)')
      && s.visibility !== 'hidden' && s.opacity !== '0';
  }).map(e => { const r = e.getBoundingClientRect();
    return {what: (e.id ? '#' + e.id : '') + '.' + [...e.classList].join('.') + ' '
                  + (e.innerText || e.getAttribute('aria-label') || '').slice(0, 40),
            left: r.left, top: r.top, right: r.right, bottom: r.bottom}; })"""


def boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    return list(page.evaluate(BOXES, selector))


def overlap(a: dict[str, Any], b: dict[str, Any], slack: float = 0.5) -> bool:
    return (a["left"] < b["right"] - slack and b["left"] < a["right"] - slack
            and a["top"] < b["bottom"] - slack and b["top"] < a["bottom"] - slack)


def on_screen(page: Any, box: dict[str, Any]) -> bool:
    """Wholly within the first screen (the page not scrolled)."""
    size = page.viewport_size
    return (box["top"] >= 0 and box["left"] >= 0 and box["bottom"] <= size["height"]
            and box["right"] <= size["width"])
