"""Three friends in three browsers (two desktops and a phone): what one types in the
chat shows in the others, the phone folds the chat behind a button with an unread
count that never covers the hand, and "Play again" moves every browser to the new
table, each at its own seat."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.table import join, open_table, table_contexts, wait_until
from tests.web.apiclient import Table


def _boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def _say(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def test_chat_between_browsers_and_play_again_moves_everyone(
        browser: Any, sqlite_server: Server, shots: Path) -> None:
    contexts = table_contexts(browser, 2, width=1200)
    pages = [c.new_page() for c in contexts]
    host, bert, phone = pages
    url = open_table(host, sqlite_server.base, "mauscheln", players=3)
    for page, name in zip(pages, ["Anna", "Bert", "Cilli"], strict=True):
        join(page, url, name)
    host.wait_for_selector('[data-cmd="start"]:not([disabled])')
    assert host.locator("details.qr[open] img").is_visible()  # the waiting table shows it
    host.screenshot(path=str(shots / "waiting-desktop.png"), full_page=True)
    phone.screenshot(path=str(shots / "waiting-phone.png"), full_page=True)
    host.click('[data-cmd="start"]')
    for p in pages:
        p.wait_for_selector(".hand .card")
        p.wait_for_selector("details.qr:not([open])")  # folded away once the match runs

    # the copy button copies the room link (the fallback path also works without
    # clipboard permission) and says so
    host.click('[data-copy="room-link"]')
    host.wait_for_selector(".copy-note:not(:empty)")

    # the phone's chat is folded away; the desktops show it beside the table
    assert host.locator("#chat").is_visible() and not phone.locator("#chat").is_visible()
    _say(host, "Servus <b>beinand</b>!")
    for p in (host, bert):
        p.wait_for_selector("#chat-log li:has-text('Servus <b>beinand</b>!')")
    assert host.input_value("#chat-text") == ""  # the field is ready for the next one
    assert host.locator("#chat-log b").count() == 0  # typed HTML stays text
    phone.wait_for_selector(".chat-toggle .unread:not([hidden])")
    assert phone.inner_text(".chat-toggle .unread") == "1"
    bert.click('button.react[data-react="🍺"]')
    wait_until(phone,
        "document.querySelector('.chat-toggle .unread').textContent === '2'")
    host.wait_for_selector("#chat-log li.reaction:has-text('🍺')")
    host.screenshot(path=str(shots / "chat-desktop.png"), full_page=True)
    phone.screenshot(path=str(shots / "chat-phone-folded.png"))
    phone.click(".chat-toggle")
    phone.wait_for_selector("#chat.open #chat-log li:has-text('beinand')")
    assert phone.locator(".chat-toggle .unread").is_hidden()
    # open, the chat is a sheet over the top of the screen: it never covers a card of
    # the hand (tests/e2e/test_first_screen_browser.py looks at it on phones)
    hand = phone.locator(".hand").bounding_box()
    panel = phone.locator("#chat").bounding_box()
    assert hand and panel
    assert not _boxes_overlap(hand, panel)
    assert phone.locator(".chat-toggle").is_hidden()  # open, the panel has its own Close
    _say(phone, "Gleich geht's los")
    for p in pages:
        p.wait_for_selector("#chat-log li:has-text(\"Gleich geht's los\")")
    phone.screenshot(path=str(shots / "chat-phone-open.png"), full_page=True)
    phone.locator("#chat").screenshot(path=str(shots / "chat-phone-panel.png"))
    phone.click(".chat-close")
    assert not phone.locator("#chat").is_visible()
    assert phone.locator(".chat-toggle").is_visible()

    # the host ends the game; "Play again" with the chips changed
    host.click('details.host-end:has([data-cmd="end_game"]) summary')
    host.click('[data-cmd="end_game"]')
    host.wait_for_selector('[data-cmd="rematch"]')
    bert.wait_for_selector(".rematch-wait")
    host.click("details.rematch-options summary")
    host.fill('input[name="opt.chips"]', "60")
    host.screenshot(path=str(shots / "finished-desktop.png"), full_page=True)
    phone.screenshot(path=str(shots / "finished-phone.png"), full_page=True)
    old_url = host.url
    host.click('[data-cmd="rematch"]')
    for p, name in zip(pages, ["Anna", "Bert", "Cilli"], strict=True):
        p.wait_for_url(lambda u: u != old_url and "/next" not in u, timeout=10_000)
        p.wait_for_selector(".hand .card")
        assert name in p.inner_text(".plate.me")  # the same seat, by its carried cookie
        wait_until(p, "document.getElementById('conn').dataset.state === 'open'")
        # the conversation continues at the new table
        assert p.locator("#chat-log li:has-text('beinand')").count() == 1
    new_url = host.url
    assert all(p.url == new_url for p in pages)
    room = new_url.rsplit("/", 1)[1]
    view = Table.attach(sqlite_server.base, room).view()["view"]
    assert sum(view["scores"]) + view["pot"] == 3 * 60
    host.wait_for_selector("details.host-end")  # still the host
    _say(bert, "Revanche!")
    host.wait_for_selector("#chat-log li:has-text('Revanche!')")
    host.screenshot(path=str(shots / "rematch-desktop.png"), full_page=True)
    phone.screenshot(path=str(shots / "rematch-phone.png"), full_page=True)
    for c in contexts:
        c.close()


def test_history_chart_and_standings_pages(browser: Any, sqlite_server: Server,
                                           shots: Path) -> None:
    table = Table(sqlite_server.base, "schafkopf", options={"dealer": 3, "target": 3},
                  seed=21)
    for name in ("Anna", "Bert", "Cilli"):
        table.join(name)
    bot = table.http.post(f"/api/rooms/{table.room}/bots",
                          headers={"Authorization": f"Bearer {table.host_token}"})
    assert bot.status_code == 200
    assert table.start().status_code == 200
    rng = random.Random(4)
    while table.view()["status"] != "finished":
        states = [table.view(t) for t in table.tokens]
        acting = [(t, s) for t, s in zip(table.tokens, states, strict=True) if s["legal"]]
        if not acting:  # the bot's turn
            continue
        token, st = acting[0]
        table.act(token, rng.choice(st["legal"]), st["version"])
    contexts = table_contexts(browser, 1, width=1100)
    for ctx, kind in zip(contexts, ["desktop", "phone"], strict=True):
        page = ctx.new_page()
        page.goto(f"{sqlite_server.base}/history/{table.room}")
        chart = page.locator("#match-chart > svg")
        assert chart.is_visible()
        box = chart.bounding_box()
        assert box and box["width"] <= page.viewport_size["width"]
        page.screenshot(path=str(shots / f"match-chart-{kind}.png"), full_page=True)
        page.goto(f"{sqlite_server.base}/standings?game=schafkopf")
        assert page.locator("table.standings.bots .tag").count() == 1
        page.screenshot(path=str(shots / f"standings-{kind}.png"), full_page=True)
    for c in contexts:
        c.close()
