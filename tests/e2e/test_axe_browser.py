"""axe-core in Chromium: no serious or critical accessibility violation on the
lobby, every game's table (waiting, playing with a hand, finished), the history,
a match, its replay, the standings and every rules page, in English and in
German, and on a playing table in dark mode.

axe is the npm package (node_modules/axe-core); the site's CSP refuses inline
scripts, so the test runs the library through ``page.evaluate`` (not subject to
the page's CSP) instead of adding a script tag."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.look import GAMES, play_a_few, table_with_bots
from tests.e2e.table import wait_until
from tests.web.apiclient import Table

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
BAD = ("serious", "critical")
FINISH_STEPS = 4000


def axe_problems(page: Any) -> list[str]:
    """The serious and critical violations axe finds on the page, one line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    found = page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ['violations']});
      return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' + n.failureSummary)}));
    }""")
    return [f"{page.url} {v['impact']} {v['id']}: {v['help']} {v['nodes']}"
            for v in found if v["impact"] in BAD]


def finish_by_api(base: str, game: str) -> str:
    """A match of ``game`` played to its end through the JSON API by people who
    choose at random among their legal moves (a short match). Returns its room."""
    rng = random.Random(7)
    players = {"schafkopf": 4, "beutelschneider": 4, "mauscheln": 3, "luegenbeutel": 3}[game]
    options = {"target": 1} if game != "mauscheln" else {}
    if game == "luegenbeutel":
        options["challenge_ms"] = 0
    table = Table(base, game, players=players, options=options)
    for i in range(players):
        table.join(f"P{i + 1}")
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
                table.close()
                return table.room
            legal = [a for a in st["legal"] if not a.startswith("challenge")] or st["legal"]
            if not legal:
                continue
            action = "accept" if "accept" in legal else rng.choice(legal)
            table.act(token, action, st["version"])
            moved = True
        if not moved:  # a pause or a challenge window: the server moves on by itself
            time.sleep(0.05)
    raise AssertionError(f"{game} did not finish in {FINISH_STEPS} rounds of moves")


def test_no_serious_accessibility_problems(browser: Any, sqlite_server: Server,
                                           shots: Path) -> None:
    base = sqlite_server.base
    problems: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    finished = {game: finish_by_api(base, game) for game in GAMES}
    for language in ("en", "de"):
        for path in ["/", "/history", "/standings", *(f"/rules/{g}" for g in GAMES)]:
            page.goto(f"{base}{path}?lang={language}")
            problems += axe_problems(page)
        for game, room in finished.items():
            for path in (f"/r/{room}", f"/history/{room}", f"/history/{room}/replay",
                         f"/history/{room}/replay?step=3", f"/standings?game={game}"):
                page.goto(f"{base}{path}{'&' if '?' in path else '?'}lang={language}")
                problems += axe_problems(page)
    # a waiting table (the join form), then the same table playing, with a hand
    for game in GAMES:
        waiting = Table(base, game)
        page.goto(f"{waiting.url}?lang=de")
        problems += axe_problems(page)
        waiting.close()
        table_with_bots(page, base, game)
        play_a_few(page, 2)
        wait_until(page, "document.querySelector('#hand .card')", timeout=15_000)
        problems += axe_problems(page)
        page.emulate_media(color_scheme="dark")
        page.wait_for_timeout(500)  # the plates' colours change with a transition
        problems += [f"(dark) {p}" for p in axe_problems(page)]
        page.emulate_media(color_scheme="light")
        page.screenshot(path=str(shots / f"{game}-axe.png"), full_page=True)
    context.close()
    assert not problems, "\n".join(problems)
