"""axe-core in Chromium: no serious or critical accessibility violation, and none of
the moderate rules named below, on every page a player sees: the lobby, every
game's table (a visitor at a waiting table, its seated host, a player at a table in
play with a hand, the host of a finished table), the chip ledger, the history and
its list per game, a match, its replay, the standings, every rules page and the
error pages (a closed table, a match that is not in the history, rules of no game,
a refused request, a page that does not exist), in English and in German, in the
light and the dark colour scheme, at phone (390×844) and desktop (1280×800) size:
each page once, in one combination of the three (``combinations``).

Every page is checked in a fresh browser context opened with its colour scheme
(``color_scheme`` of the context, not switched on a page that is already open), its
viewport and, for a seat, that seat's cookies; folded parts (``<details>``) are
opened first, so the deals' tables, the score chart and the rematch options are
checked too.

axe is the npm package (node_modules/axe-core); the site's CSP refuses inline
scripts, so the test runs the library through ``page.evaluate`` (not subject to
the page's CSP) instead of adding a script tag."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import Server, migrate
from tests.e2e.table import wait_until
from tests.web.apiclient import Table

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
BAD = ("serious", "critical")
#: rules of moderate impact the pages must pass as well (issue 24)
ALSO = ("heading-order", "landmark-unique", "empty-table-header")
FINISH_STEPS = 4000
GAMES = ("schafkopf", "beutelschneider", "mauscheln", "luegenbeutel")
PLAYERS = {"schafkopf": 4, "beutelschneider": 4, "mauscheln": 3, "luegenbeutel": 3}
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
SCHEMES = ("light", "dark")
SEAT_COOKIE, HOST_COOKIE = "stammtisch_seat", "stammtisch_host"
OPEN = "document.getElementById('conn') && document.getElementById('conn').dataset.state === 'open'"
#: the pages whose screenshots are kept for people to look at
KEEP = ("playing", "shown", "host", "match", "rules", "lobby")
#: a long away time: nobody is played for while the test goes from page to page
SEATED = {"away_seconds": 600}


@dataclass
class Visit:
    """One page to check: its path (without the language), the cookies of the seat
    and host it is seen by, and what must be true in the page before axe runs."""

    name: str
    path: str
    room: str | None = None
    seat_token: str | None = None
    host_token: str | None = None
    ready: list[str] = field(default_factory=list)
    #: made again for every check, just before it (a state that passes)
    make: Callable[[], Visit] | None = None
    #: what happens at the table, the page open, before it is checked
    then: Callable[[Any], None] | None = None

    def cookies(self, base: str) -> list[dict[str, Any]]:
        out = []
        for name, value in ((SEAT_COOKIE, self.seat_token), (HOST_COOKIE, self.host_token)):
            if value:
                out.append({"name": name, "value": value, "url": f"{base}/r/{self.room}"})
        return out


def axe_problems(page: Any) -> list[str]:
    """The serious and critical violations axe finds on the page, and those of the
    rules in ``ALSO``, one line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    found = page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ['violations']});
      return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}));
    }""")
    return [f"{v['impact']} {v['id']}: {v['help']} {v['nodes']}"
            for v in found if v["impact"] in BAD or v["id"] in ALSO]


def seat_bots(table: Table, n: int) -> None:
    """The host seats ``n`` easy bots (they move at once)."""
    auth = {"Authorization": f"Bearer {table.host_token}"}
    for _ in range(n):
        r = table.http.post(f"/api/rooms/{table.room}/bots", headers=auth, json={"level": "easy"})
        assert r.status_code == 200, r.text


def finish_by_api(base: str, game: str) -> Table:
    """A match of ``game`` played to its end through the JSON API by two people who
    choose at random among their legal moves and easy bots in the other seats (a
    short match: the standings list bots too). Returns its table."""
    rng = random.Random(7)
    options: dict[str, Any] = {"target": 1} if game != "mauscheln" else {}
    if game == "luegenbeutel":
        options["challenge_ms"] = 0
    table = Table(base, game, players=PLAYERS[game], options={**options, **SEATED})
    for i in range(2):
        table.join(f"P{i + 1}")
    seat_bots(table, PLAYERS[game] - 2)
    assert table.start().status_code == 200
    if game == "mauscheln":  # no natural end: the host ends it
        r = table.http.post(f"/api/rooms/{table.room}/end",
                            headers={"Authorization": f"Bearer {table.host_token}"})
        assert r.status_code == 200, r.text
    for _ in range(FINISH_STEPS):
        moved = False
        for token in table.tokens:
            st = table.view(token)
            if st["status"] == "finished":
                return table
            legal = [a for a in st["legal"] if not a.startswith("challenge")] or st["legal"]
            if not legal:
                continue
            action = "accept" if "accept" in legal else rng.choice(legal)
            table.act(token, action, st["version"])
            moved = True
        if not moved:  # a pause or a challenge window: the server moves on by itself
            time.sleep(0.05)
    raise AssertionError(f"{game} did not finish in {FINISH_STEPS} rounds of moves")


def moves(st: dict[str, Any]) -> list[str]:
    """The seat's legal moves other than calling the liar."""
    return [a for a in st["legal"] if not a.startswith("challenge")]


def my_move(table: Table, token: str, timeout: float = 60) -> dict[str, Any]:
    """Wait until the bots have moved and the seat of ``token`` has a move to make.
    Asking for the view wakes the bots."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        st = table.view(token)
        if moves(st):
            return st
        time.sleep(0.1)
    raise AssertionError(f"{table.room}: no move of ours within {timeout} s")


def our_move(st: dict[str, Any]) -> str:
    """A card to play or lay if there is one, else the first other move."""
    return ([a for a in st["legal"] if a.startswith(("play:", "lay:"))] or moves(st))[0]


def seated_with_bots(base: str, game: str, start: bool, options: dict[str, Any] | None = None
                     ) -> Table:
    """A table of ``game`` with Anna (the host) and an easy bot in every other seat;
    when ``start``, started and played until Anna has made a move and has the next
    one."""
    own = {"challenge_ms": 300, "target": 10000} if game == "luegenbeutel" else {}
    table = Table(base, game, players=PLAYERS[game],
                  options={**own, **SEATED, **(options or {})})
    table.join("Anna")
    seat_bots(table, PLAYERS[game] - 1)
    if start:
        assert table.start().status_code == 200
        st = my_move(table, table.tokens[0])
        assert table.act(table.tokens[0], our_move(st), st["version"]).status_code in (200, 202)
        my_move(table, table.tokens[0])
    return table


def holding(base: str, game: str) -> Visit:
    """A table of ``game`` in play, seen by Anna (the host); once her page is open,
    she plays the first deal out over the API, and the page shows its result (held
    for two minutes, or until she presses "Next deal": a result is held only while
    somebody who could press it has the table open)."""
    table = seated_with_bots(base, game, start=True, options={"next_deal_s": 120})
    token = table.tokens[0]

    def play_out(page: Any) -> None:
        deadline = time.monotonic() + 120
        try:
            while time.monotonic() < deadline:
                st = table.view(token)
                if st["pause"] and st["pause"]["kind"] == "deal":
                    wait_until(page, "document.querySelector('[data-cmd=next_deal]')")
                    return
                if moves(st):
                    table.act(token, our_move(st), st["version"])
                else:
                    time.sleep(0.05)
            raise AssertionError(f"{game}: the first deal did not end")
        finally:
            table.close()

    return Visit(f"{game} result shown", f"/r/{table.room}", room=table.room,
                 seat_token=token, host_token=table.host_token,
                 ready=[OPEN, "document.querySelector('#hand .card')"], then=play_out)


@dataclass
class Site:
    base: str
    visits: list[Visit]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """One server with a finished match of every game, every game's table waiting
    (empty, and with its host seated) and in play, and the pages to visit."""
    tmp = tmp_path_factory.mktemp("axe")
    url = f"sqlite:///{tmp / 'test.db'}"
    migrate(url)
    server = Server(url, tmp / "server.log").start()
    base = server.base
    tables: list[Table] = []
    try:
        visits = [Visit("lobby", "/"), Visit("history", "/history"),
                  Visit("standings", "/standings")]
        for game in GAMES:
            done = finish_by_api(base, game)
            waiting, seated = Table(base, game), seated_with_bots(base, game, start=False)
            playing = seated_with_bots(base, game, start=True)
            tables += [done, waiting, seated, playing]
            room = done.room
            table_ready = [OPEN]
            visits += [
                Visit(f"{game} rules", f"/rules/{game}"),
                Visit(f"{game} history list", f"/history?game={game}"),
                Visit(f"{game} standings", f"/standings?game={game}"),
                Visit(f"{game} waiting, a visitor", f"/r/{waiting.room}",
                      ready=[*table_ready, "document.querySelector('form.join')"]),
                Visit(f"{game} waiting, the host seated", f"/r/{seated.room}",
                      room=seated.room, seat_token=seated.tokens[0],
                      host_token=seated.host_token,
                      ready=[*table_ready, "document.querySelector('[data-cmd=start]')"]),
                Visit(f"{game} playing", f"/r/{playing.room}", room=playing.room,
                      seat_token=playing.tokens[0], host_token=playing.host_token,
                      ready=[*table_ready, "document.querySelector('#hand .card')",
                             "document.querySelector('#turn-signal').dataset.myTurn === '1'"]),
                Visit(f"{game} finished, the host", f"/r/{room}", room=room,
                      seat_token=done.tokens[0], host_token=done.host_token,
                      ready=[*table_ready, "document.querySelector('[data-cmd=rematch]')"]),
                Visit(f"{game} match", f"/history/{room}"),
                Visit(f"{game} replay", f"/history/{room}/replay"),
                Visit(f"{game} replay, step 3", f"/history/{room}/replay?step=3"),
            ]
            visits.append(Visit(f"{game} result shown", "", make=lambda g=game: holding(base, g)))
            if game == "mauscheln":
                visits.append(Visit("mauscheln chip ledger", f"/r/{room}/ledger"))
        visits += [
            Visit("closed table", "/r/gone123"),
            Visit("no such match", "/history/gone123"),
            Visit("no such replay", "/history/gone123/replay"),
            Visit("no such rules", "/rules/skat"),
            Visit("refused", "/r/gone123/qr.svg"),
            Visit("no such page", "/nowhere"),
        ]
        yield Site(base, visits)
    finally:
        for t in tables:
            t.close()
        server.stop()


def check(browser: Any, base: str, visit: Visit, language: str, viewport: dict[str, int],
          scheme: str, shots: Path | None = None) -> list[str]:
    """axe's findings on one page, seen in a fresh context."""
    context = browser.new_context(viewport=viewport, color_scheme=scheme,
                                  locale="de-DE" if language == "de" else "en-GB",
                                  reduced_motion="reduce")
    try:
        context.add_cookies(visit.cookies(base))
        page = context.new_page()
        sep = "&" if "?" in visit.path else "?"
        page.goto(f"{base}{visit.path}{sep}lang={language}")
        for expression in visit.ready:
            wait_until(page, expression, timeout=20_000)
        if visit.then is not None:
            visit.then(page)
        page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
        page.wait_for_timeout(50)
        found = axe_problems(page)
        # nothing wider than the screen: a table too wide scrolls in its own box
        wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if wide > 0:
            found.append(f"the page is {wide} px wider than the screen")
        if shots is not None:
            name = visit.name.replace(" ", "-").replace(",", "")
            page.screenshot(path=str(shots / f"{name}-{language}-{scheme}-{viewport['width']}.png"),
                            full_page=True)
        return [f"{visit.name} [{language}, {scheme}] {visit.path}: {p}" for p in found]
    finally:
        context.close()


LANGUAGES = ("en", "de")


def combinations(names: list[str]) -> list[tuple[str, str, str]]:
    """The screen, scheme and language each page (named as in ``Site.visits``) is
    checked in. Every page once: every page in all eight combinations took over 20
    minutes here, which took the suite over CI's limit. A kind of page (a game's
    rules, its table in play, ...; the name without the game) comes once per game, and
    its four games go light and dark, English and German alike; the screen alternates
    from page to page, and a page of its own kind (the lobby, an error page) takes
    its turn by its place in the list."""
    first: dict[str, int] = {}
    seen: dict[str, int] = {}
    out = []
    for page_no, name in enumerate(names):
        kind = name.split(" ", 1)[-1] if name.split(" ", 1)[0] in GAMES else name
        base = first.setdefault(kind, page_no)
        nth = seen[kind] = seen.get(kind, -1) + 1
        out.append((list(VIEWPORTS)[page_no % 2], SCHEMES[(nth + base) % 2],
                    LANGUAGES[(nth // 2 + base // 2) % 2]))
    return out


@pytest.mark.timeout(900)
def test_no_accessibility_problems_on_any_page(browser: Any, site: Site, shots: Path) -> None:
    names = [v.name for v in site.visits]
    ways = combinations(names)
    kinds: dict[str, set[tuple[str, str, str]]] = {}
    for name, way in zip(names, ways, strict=True):
        if name.split(" ", 1)[0] in GAMES:
            kinds.setdefault(name.split(" ", 1)[1], set()).add(way)
    for kind, seen in kinds.items():  # a kind of every game: both schemes and languages
        if len(seen) == len(GAMES):
            assert {w[1] for w in seen} == set(SCHEMES), kind
            assert {w[2] for w in seen} == set(LANGUAGES), kind
    assert {w[1] for w in ways} == set(SCHEMES) and {w[0] for w in ways} == set(VIEWPORTS)
    problems: list[str] = []
    for planned, (size, scheme, language) in zip(site.visits, ways, strict=True):
        visit = planned.make() if planned.make else planned
        keep = shots if visit.name.endswith(KEEP) else None
        problems += check(browser, site.base, visit, language, VIEWPORTS[size], scheme, keep)
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def test_a_page_that_does_not_exist_is_a_page(site: Site) -> None:
    """A browser that asks for a page the site does not have gets a page (in its
    language, with the header and a way back), not a line of JSON."""
    for language, words in (("en", "There is no page"), ("de", "Diese Seite gibt es")):
        r = httpx.get(f"{site.base}/nowhere?lang={language}",
                      headers={"Accept": "text/html"})
        assert r.status_code == 404
        assert r.headers["content-type"].startswith("text/html")
        assert words in r.text and 'href="/"' in r.text
    api = httpx.get(f"{site.base}/api/nowhere", headers={"Accept": "application/json"})
    assert api.status_code == 404 and api.json()
