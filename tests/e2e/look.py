"""Helpers for the look of the table in the browser: a table with bots opened from
the lobby, a few moves, a Lügenbeutel hand grown to a given size, and where each
hand card can be tapped."""

from __future__ import annotations

import json
import signal
import sqlite3
from typing import Any

from tests.conftest import Server
from tests.e2e.table import (
    clickable_actions,
    join,
    seat_bots_and_start,
    version,
    wait_until,
    wait_version,
)

#: each game's lobby fields for a quick table (Lügenbeutel: a short challenge window,
#: and a target no round can reach, so a round a bot wins against a hand grown to
#: 20 cards (see ``grow_hand``) never ends the match: a finished room is not brought
#: back by a restart, and its link would show the closed table)
GAMES: dict[str, dict[str, str]] = {
    "schafkopf": {},
    "beutelschneider": {},
    "mauscheln": {},
    "luegenbeutel": {"challenge_ms": "300", "target": "10000"},
}
OPEN = "document.getElementById('conn').dataset.state === 'open'"


def table_with_bots(page: Any, base: str, game: str, fields: dict[str, str] | None = None,
                    players: int | None = None) -> str:
    """Open a table of ``game`` from the lobby without pauses, sit down as Anna, fill
    the other seats with bots and start. Returns the room link."""
    page.goto(base + "/")
    page.check(f"#game-{game}")
    if players is not None:
        page.select_option(f'select[name="{game}.players"]', str(players))
    for name, value in {**GAMES[game], **(fields or {})}.items():
        field = f'[name="{game}.{name}"]'
        if page.eval_on_selector(field, "f => f.tagName") == "SELECT":
            # a value the lobby does not offer (a target no round reaches), sent as a
            # script may send it
            page.eval_on_selector(field, "(s, v) => s.add(new Option(v, v, true, true))", value)
        else:
            page.fill(field, value)
    page.fill('[name="table.next_deal_s"]', "0")
    page.fill('[name="table.trick_pause_ms"]', "0")
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/r/*")
    url = str(page.url)
    join(page, url, "Anna")
    seat_bots_and_start(page)
    return url


def act(page: Any, action: str, how_many: int = 1) -> None:
    """Click the element for ``action``; a Lügenbeutel stack asks how many to lay,
    and gets ``how_many``. Waits until the table moved on."""
    before = version(page)
    page.click(f'[data-action="{action}"]')
    chooser = page.locator(".lay-pick:not([hidden])")
    if chooser.count():
        chooser.locator(f'[data-lay-n="{how_many}"]').click()
    wait_version([page], before)


def play_a_few(page: Any, moves: int = 3) -> None:
    """A few moves of ours, so the board has cards on it."""
    for _ in range(moves):
        wait_until(page, "document.querySelector('[data-action]:not([disabled])')",
                   timeout=15_000)
        actions = [a for a in clickable_actions(page)
                   if a.startswith(("play:", "lay:")) or a in ("mauschel", "join", "end")]
        if not actions:
            return
        act(page, actions[0])


HELD = ("[...document.querySelectorAll('#hand .hand .card')]"
        ".reduce((n, c) => n + parseInt(c.dataset.count || '1', 10), 0)")


def grow_hand(server: Server, page: Any, name: str, size: int, tries: int = 4) -> None:
    """Give ``name``'s seat ``size`` cards: stop the server, move cards from the
    stock into that hand in the saved snapshot (the deck stays the same cards), start
    the server again; the page reconnects by itself. A round that ends as the room
    comes back (its last challenge window closes) deals new hands: then again."""
    for _ in range(tries):
        _grow_once(server, page, name, size)
        page.wait_for_timeout(500)
        if page.evaluate(HELD) == size:
            return
    raise AssertionError(f"the hand never held {size} cards")


def _grow_once(server: Server, page: Any, name: str, size: int) -> None:
    room = page.url.split("?")[0].rstrip("/").rsplit("/", 1)[-1]
    server.kill(signal.SIGTERM)
    db = sqlite3.connect(server.db_url.removeprefix("sqlite:///"))
    try:
        (seat,) = db.execute("SELECT seat FROM seats WHERE match_id = ? AND name = ?",
                             (room, name)).fetchone()
        (raw,) = db.execute("SELECT snapshot FROM matches WHERE id = ?", (room,)).fetchone()
        snap = json.loads(raw)
        state = snap["state"]
        hand, stock = state["hands"][seat], state["stock"]
        more = size - len(hand)
        assert 0 <= more <= len(stock), "the stock holds the cards to add"
        order = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "A", "J", "L"]
        state["hands"][seat] = sorted(hand + stock[:more], key=order.index)
        state["stock"] = stock[more:]
        db.execute("UPDATE matches SET snapshot = ? WHERE id = ?", (json.dumps(snap), room))
        db.commit()
    finally:
        db.close()
    server.start()  # answers /healthz when it returns
    # a fresh page at once: the socket's own reconnect backs off further with each
    # try while the server was down (tests/e2e/test_restart_browser.py checks that)
    page.reload()
    wait_until(page, OPEN, timeout=30_000)


#: every hand card's box and the part of it a finger can hit (cards may overlap)
TARGETS = """() => {
  const cards = [...document.querySelectorAll('#hand .hand .card')];
  return cards.map((c) => {
    const r = c.getBoundingClientRect();
    let right = r.right;
    for (const o of cards) {  // a card lying over this one (a later one, same row)
      const q = o.getBoundingClientRect();
      if (o !== c && q.left > r.left && q.left < right && q.top < r.bottom && q.bottom > r.top
          && cards.indexOf(o) > cards.indexOf(c)) { right = q.left; }
    }
    const x = (r.left + right) / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {left: r.left, right: r.right, width: r.width, hit_width: right - r.left,
            top: r.top, bottom: r.bottom, hits: !!hit && c.contains(hit),
            count: parseInt(c.dataset.count || '1', 10)};
  });
}"""


def hand_targets(page: Any) -> list[dict[str, Any]]:
    page.evaluate("document.getElementById('hand').scrollIntoView({block: 'center'})")
    return list(page.evaluate(TARGETS))
