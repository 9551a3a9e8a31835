"""One move per version of the table: a double tap on a card plays it once and
shows no error (the second tap would only come back refused as stale), and after a
refusal another move can be tried at the same version."""

from __future__ import annotations

from typing import Any

from tests.conftest import Server
from tests.e2e.look import table_with_bots
from tests.e2e.table import clickable_actions, version, wait_until, wait_version

PLAYABLE = "document.querySelector('#hand button.card.playable')"
ERROR = "document.querySelector('#flash.error span')"


def test_a_double_tap_plays_one_card_and_shows_no_error(
        browser: Any, sqlite_server: Server) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    table_with_bots(page, sqlite_server.base, "schafkopf", fields=None)
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on(
        "framesent", lambda payload: sent.append(str(payload))))
    page.reload()  # the socket opened after the listener: its frames are seen
    for _ in range(2):  # two of Anna's turns
        wait_until(page, PLAYABLE, timeout=20_000)
        held = page.locator("#hand .card").count()
        card = page.locator("#hand button.card.playable").first
        action = card.get_attribute("data-action")
        before = version(page)
        card.dblclick()
        wait_version([page], before)
        page.wait_for_timeout(600)  # what a second send would have brought back
        assert page.evaluate(ERROR) is None, page.inner_text("#flash")
        assert page.locator("#hand .card").count() == held - 1
        assert sum(f'"action": "{action}"' in f or f'"action":"{action}"' in f
                   for f in sent) == 1, sent
    context.close()


def test_after_a_refusal_another_move_can_be_tried_at_the_same_version(
        browser: Any, sqlite_server: Server) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    page = context.new_page()
    table_with_bots(page, sqlite_server.base, "schafkopf", fields=None)
    wait_until(page, PLAYABLE, timeout=20_000)
    before = version(page)
    # a move the engine refuses, sent over the page's own socket as a click would
    page.evaluate("""() => {
        const b = document.querySelector('#hand button.card.playable');
        const fake = b.cloneNode(true);
        fake.setAttribute('hx-vals', JSON.stringify({action: 'play:XX'}));
        fake.dataset.action = 'play:XX';
        b.parentNode.appendChild(fake);
        htmx.process(fake);
        fake.click();
    }""")
    wait_until(page, ERROR, timeout=10_000)
    assert version(page) == before
    actions = clickable_actions(page)
    assert actions
    page.click(f'#hand button[data-action="{actions[0]}"]')
    wait_version([page], before, timeout=3)  # sent at once, not after the 5 s
    context.close()
