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
    table = patient(Table(base, game, players=players, options=options, seed=seed))
    _, token = table.join("Anna")
    while None in table.view()["seats"]:
        r = table.http.post(f"/api/rooms/{table.room}/bots", json={"level": "easy"},
                            headers={"Authorization": f"Bearer {table.host_token}"})
        assert r.status_code == 200, r.text
    assert table.start().status_code == 200
    return table, token


def patient(table: Table) -> Table:
    """``table`` with a client that waits a minute for an answer (a move may wait out
    a challenge window) and drops a connection idle for two seconds itself: a test
    looking at its pages for longer would else send on one the server is closing
    (uvicorn keeps an idle connection five seconds)."""
    table.http = httpx.Client(base_url=table.http.base_url, timeout=httpx.Timeout(60),
                              limits=httpx.Limits(keepalive_expiry=2))
    return table


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


#: the tables the layout tests look at: every game at its fewest and most seats, and
#: five seats (two plates a side) where a game has that many (each test takes 15-25 s
#: here; all 16 tables of every game and number of seats in each took the suite over
#: CI's 30 minutes)
LAYOUTS = [("schafkopf", 4), ("beutelschneider", 3), ("beutelschneider", 4),
           ("mauscheln", 3), ("mauscheln", 5), ("mauscheln", 7),
           ("luegenbeutel", 2), ("luegenbeutel", 5), ("luegenbeutel", 8)]
#: where a player looks: a desktop and two phones, in both languages, light and dark
VIEWS = [("1280x800", "de", "light"), ("390x844", "en", "dark"), ("360x740", "de", "dark"),
         ("360x740", "en", "light")]


def to_look(state: State) -> str:
    """Anna's move on her way to a state worth looking at: in Lügenbeutel she calls the
    liar until a challenge's result is on the board, then passes (draws) or ends her
    turn, so her hand grows; she takes part in a Mauscheln deal; else the first thing
    she may do."""
    legal = state["legal"]
    calls = [a for a in legal if a.startswith("challenge:")]
    if calls and not state["view"].get("last_challenge"):
        return calls[0]
    for action in ("join", "mauschel", "pass", "end"):
        if action in legal:
            return action
    return legal[0]


def to_finish(state: State) -> str:
    """Anna's move on her way to a deal's end: she lays her cards in Lügenbeutel (and
    calls nobody a liar), takes part in Mauscheln; else the first thing she may do."""
    legal = state["legal"]
    for action in legal:
        if action.startswith("lay:"):
            return action
    for action in ("end", "join", "mauschel", "accept"):
        if action in legal:
            return action
    return next((a for a in legal if not a.startswith("challenge:")), legal[0])


def fullest(game: str, players: int) -> Callable[[State], bool]:
    """Anna's turn with the most on the board: the last card of a trick to play (every
    other card of it lies on the felt); in Lügenbeutel a claim and a challenge's result
    on the board and a hand of nine stacks or more (two rows on a phone)."""
    def done(state: State) -> bool:
        view, legal = state["view"], state["legal"]
        if game == "luegenbeutel":
            return (any(a.startswith("lay:") for a in legal) and bool(view.get("stack"))
                    and bool(view["stack"].get("count")) and bool(view.get("last_challenge"))
                    and len(set(view["hand"])) >= 9)
        if not any(a.startswith("play:") for a in legal):
            return False
        others = len(view["playing"]) if game == "mauscheln" else players
        return len(view["trick"] or []) == others - 1
    return done


def gathered(state: State) -> bool:
    """A trick just won, shown for the table's trick pause, gathered at its winner."""
    return bool(state["pause"]) and state["pause"]["kind"] == "trick"


def on_screen_problems(page: Any, selector: str, what: str, needed: bool = True) -> list[str]:
    """What ``selector`` finds that is not wholly on the first screen (or, if
    ``needed``, that it finds nothing)."""
    found = boxes(page, selector)
    if not found and needed:
        return [f"{what}: nothing shown for {selector}"]
    size = page.viewport_size
    return [f"{what}: {b['what']!r} at {b['left']:.0f},{b['top']:.0f}-{b['right']:.0f},"
            f"{b['bottom']:.0f} is not on the {size['width']}x{size['height']} screen"
            for b in found if not on_screen(page, b)]


#: every pair of things shown on the table that lie over each other (one inside the
#: other is no overlap): the plates, the board's cards, words and buttons, and the
#: table's parts round the felt; a phone's hand may overlap its own cards
OVERLAPS = """() => {
  const sel = '#seats .plate, #board .card, #board p, #board li, #board h3, #board figcaption,'
            + ' #board .trick-info, #board button:not(.card), #board summary, .room-bar > *,'
            + ' .chat-toggle, #status, #actions, #hand .hand, #hand > :not(.hand), #result > *,'
            + ' details.qr, .host-panel';
  const shown = [...document.querySelectorAll(sel)].filter(e => {
    const s = getComputedStyle(e), r = e.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && !e.closest('details:not([open]) > :not(summary)')
      && s.visibility !== 'hidden' && s.opacity !== '0' && !e.closest('.sr, [hidden]');
  });
  const out = [];
  shown.forEach((a, i) => shown.slice(i + 1).forEach(b => {
    if (a.contains(b) || b.contains(a)) return;
    const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    if (p.left < q.right - .5 && q.left < p.right - .5
        && p.top < q.bottom - .5 && q.top < p.bottom - .5)
      out.push([a, b].map(e => (e.id ? '#' + e.id : e.className) + ' '
                          + (e.innerText || '').slice(0, 30)).join(' / '));
  }));
  return out;
}"""


def overlap_problems(page: Any, what: str) -> list[str]:
    return [f"{what}: overlap {pair!r}" for pair in page.evaluate(OVERLAPS)]
