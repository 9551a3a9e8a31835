"""Several browsers at one table: a closed tab no longer stalls it (a bot plays for
the absent player, marked for everybody), the tab title marks exactly your turn,
free seats are picked by clicking them and partners sit opposite, and the result
of a deal waits for "Next deal". Screenshots, desktop and phone, in test-results/."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.table import clickable_actions, table_contexts, version, wait_until

MARK = "▶ "


def join_at(page: Any, url: str, name: str, seat: int | None = None) -> None:
    """Join by the link, clicking the free seat ``seat`` on the table first."""
    page.goto(url)
    if seat is not None:
        page.click(f'label.plate.pick[data-seat="{seat}"]')
        assert page.is_checked(f"#seat-pick-{seat}")
    page.fill('input[name="name"]', name)
    page.click("form.join button[type=submit]")
    page.wait_for_selector(".plate.me")
    wait_until(page, "document.getElementById('conn').dataset.state === 'open'")


def assert_ring_seen_from(page: Any, seat: int) -> None:
    """At a table of four the page sees its own plate at the bottom, marked as its own
    ("(you)", .me), its partner (seat + 2) at the top, the seat after it at the left
    and the one before at the right, both narrow plates at the side: the ring's HTML
    is the same for every seat, and CSS and table.js place and mark it."""
    # the four plates measured in one turn of the page, once all four are drawn (a
    # push may swap the ring between two separate measurements)
    shown = ("[0, 1, 2, 3].every(s => {const p = document.querySelector("
             "`.plate[data-seat=\"${s}\"]`); return p && p.getBoundingClientRect().width > 0;})")
    page.wait_for_function(shown)
    found = page.evaluate("[0, 1, 2, 3].map(s => {const r = document.querySelector("
                          "`.plate[data-seat=\"${s}\"]`).getBoundingClientRect(); "
                          "return [r.x + r.width / 2, r.y + r.height / 2];})")
    mid = {s: (float(x), float(y)) for s, (x, y) in enumerate(found)}
    partner, left, right = (seat + 2) % 4, (seat + 1) % 4, (seat + 3) % 4
    assert max(mid, key=lambda s: mid[s][1]) == seat, (seat, mid)
    assert min(mid, key=lambda s: mid[s][1]) == partner, (seat, mid)
    assert mid[left][0] < mid[seat][0] < mid[right][0], (seat, mid)
    for s in range(4):
        plate = page.locator(f'.plate[data-seat="{s}"]')
        assert ("(you)" in plate.inner_text()) == (s == seat), (seat, s)
        classes = (plate.get_attribute("class") or "").split()
        assert ("me" in classes) == (s == seat) and ("side" in classes) == (s in (left, right))


def start(host: Any) -> None:
    button = host.locator('[data-cmd="start"]:not([disabled])')
    button.wait_for()
    button.click()
    host.wait_for_selector(".hand .card", timeout=10_000)


def test_a_closed_tab_no_longer_stalls_the_table(browser: Any, sqlite_server: Server,
                                                shots: Path) -> None:
    contexts = table_contexts(browser, 2)  # Anna and Bert on desktops, Cilli on a phone
    anna, bert, cilli = (c.new_page() for c in contexts)
    # the table options come from the lobby's "Table" fieldset
    anna.goto(sqlite_server.base + "/")
    anna.check("#game-schafkopf")
    anna.fill('[name="table.away_seconds"]', "10")
    anna.fill('[name="table.trick_pause_ms"]', "300")
    anna.fill('[name="table.next_deal_s"]', "0")
    anna.click("form.create button[type=submit]")
    anna.wait_for_url("**/r/*")
    url = anna.url
    join_at(anna, url, "Anna", 0)
    join_at(bert, url, "Bert", 1)
    join_at(cilli, url, "Cilli", 2)
    anna.click('[data-cmd="add_bot"]')
    anna.wait_for_selector('.plate[data-seat="3"] .tag')
    start(anna)
    bert.wait_for_selector(".hand .card")
    contexts[1].close()  # Bert closes his tab and goes home
    closed_at = time.monotonic()
    pages = [anna, cilli]
    waited_for_bert = False
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        if anna.locator('.plate[data-seat="1"] .tag.stand-in').count():
            break
        turn_is_berts = anna.locator('.plate.turn[data-seat="1"]').count() > 0
        if turn_is_berts:
            waited_for_bert = True
            anna.wait_for_timeout(200)
            continue
        for page in pages:
            actions = [a for a in clickable_actions(page) if a.startswith("play:")]
            if actions:
                before = version(page)
                page.click(f'[data-action="{actions[0]}"]')
                wait_until(page,
                    f"parseInt(document.getElementById('version').dataset.version) > {before}",
                    timeout=10_000)
                break
        else:
            anna.wait_for_timeout(100)
    plate = anna.locator('.plate[data-seat="1"]')
    assert "played for Bert" in plate.inner_text(), "marked on Bert's plate for everybody"
    assert time.monotonic() - closed_at >= 10 or not waited_for_bert
    cilli.wait_for_selector('.plate[data-seat="1"] .tag.stand-in')
    anna.screenshot(path=str(shots / "played-for-bert-desktop.png"), full_page=True)
    cilli.screenshot(path=str(shots / "played-for-bert-phone.png"), full_page=True)
    # the table goes on: it is no longer Bert's turn
    wait_until(anna,
        "!document.querySelector('.plate.turn[data-seat=\"1\"]')", timeout=10_000)
    for c in contexts:
        c.close()


def title_and_plays(page: Any) -> tuple[str, list[str]]:
    """The tab title and the playable cards, read in one go in the page: a push
    arriving between two separate reads would make them disagree."""
    title, plays = page.evaluate(
        "[document.title, Array.from(document.querySelectorAll("
        "'button[data-action]:not([disabled])'), b => b.dataset.action)"
        ".filter(a => a.startsWith('play:'))]")
    return title, plays


def test_the_title_marks_exactly_your_turn(browser: Any, sqlite_server: Server,
                                          shots: Path) -> None:
    contexts = table_contexts(browser, 1)  # Anna on a desktop, Bert on a phone
    anna, bert = (c.new_page() for c in contexts)
    anna.goto(sqlite_server.base + "/")
    anna.check("#game-schafkopf")
    anna.select_option('[name="table.turn_clock"]', "60")
    anna.fill('[name="table.trick_pause_ms"]', "200")
    anna.fill('[name="table.next_deal_s"]', "30")
    anna.click("form.create button[type=submit]")
    anna.wait_for_url("**/r/*")
    url = anna.url
    join_at(anna, url, "Anna", 0)
    bert.goto(url)
    # the waiting table: partners sit opposite, the teams are named
    assert "Team 1: Anna & free seat" in bert.inner_text(".teams-note")
    bert.screenshot(path=str(shots / "pick-a-seat-phone.png"), full_page=True)
    join_at(bert, url, "Bert", 2)  # Bert sits opposite Anna: they are partners
    assert "Team 1: Anna & Bert" in anna.inner_text(".teams-note")
    anna.click('[data-cmd="add_bot"]')  # bots sit in the other team, from its far end
    anna.wait_for_selector('.plate[data-seat="3"] .tag')
    anna.click('[data-cmd="add_bot"]')
    anna.wait_for_selector('.plate[data-seat="1"] .tag')
    anna.screenshot(path=str(shots / "waiting-table-desktop.png"), full_page=True)
    # each sees the partner across the table and the others at the sides
    assert_ring_seen_from(bert, 2)
    assert_ring_seen_from(anna, 0)
    start(anna)
    bert.wait_for_selector(".hand .card")
    assert_ring_seen_from(bert, 2)
    assert_ring_seen_from(anna, 0)
    checked = 0
    shot = {"anna": False, "bert": False}
    deadline = time.monotonic() + 60
    while checked < 12 and time.monotonic() < deadline:
        for name, page in (("anna", anna), ("bert", bert)):
            page.wait_for_timeout(150)  # the title follows the newest frame
            title, actions = title_and_plays(page)
            assert title.startswith(MARK) == bool(actions), (name, title, actions)
            if actions:
                assert page.locator(".plate.me .clock").count() == 1, "my turn clock runs"
                if not shot[name]:
                    page.screenshot(path=str(shots / f"your-turn-{name}.png"), full_page=True)
                    shot[name] = True
                before = version(page)
                page.click(f'[data-action="{actions[0]}"]')
                wait_until(page,
                    f"parseInt(document.getElementById('version').dataset.version) > {before}",
                    timeout=10_000)
                title, actions = title_and_plays(page)
                assert title.startswith(MARK) == bool(actions), (name, title, actions)
                checked += 1
    assert checked >= 12 and all(shot.values())
    live = anna.locator("#turn-live")
    assert live.get_attribute("aria-live") == "polite"
    for c in contexts:
        c.close()


def test_the_result_waits_for_next_deal_and_shows_the_last_trick(
        browser: Any, sqlite_server: Server, shots: Path) -> None:
    contexts = table_contexts(browser, 1)
    anna, bert = (c.new_page() for c in contexts)
    anna.goto(sqlite_server.base + "/")
    anna.check("#game-schafkopf")
    anna.fill('[name="table.trick_pause_ms"]', "0")
    anna.fill('[name="table.next_deal_s"]', "60")
    anna.click("form.create button[type=submit]")
    anna.wait_for_url("**/r/*")
    url = anna.url
    join_at(anna, url, "Anna", 0)
    join_at(bert, url, "Bert", 1)
    for _ in range(2):
        anna.click('[data-cmd="add_bot"]')
        anna.wait_for_timeout(300)
    start(anna)
    deadline = time.monotonic() + 60
    while not anna.locator('[data-cmd="next_deal"]').count() and time.monotonic() < deadline:
        for page in (anna, bert):
            actions = [a for a in clickable_actions(page) if a.startswith("play:")]
            if actions:
                before = version(page)
                page.click(f'[data-action="{actions[0]}"]')
                wait_until(page,
                    f"parseInt(document.getElementById('version').dataset.version) > {before}"
                    " || document.querySelector('[data-cmd=\"next_deal\"]')", timeout=10_000)
        anna.wait_for_timeout(50)
    bert.wait_for_selector('[data-cmd="next_deal"]')
    for page in (anna, bert):
        assert page.locator(".trick.final .card").count() == 4, "the deal's last trick"
        assert page.locator(".deal-result").count() == 1
        assert page.locator(".hand .card").count() == 0
    anna.screenshot(path=str(shots / "deal-result-desktop.png"), full_page=True)
    bert.screenshot(path=str(shots / "deal-result-phone.png"), full_page=True)
    anna.click('[data-cmd="next_deal"]')
    anna.wait_for_selector(".waiting-note", timeout=5_000)
    assert "Waiting for: Bert" in anna.inner_text(".waiting-note")
    assert bert.locator('[data-cmd="next_deal"]').count() == 1
    anna.screenshot(path=str(shots / "waiting-for-bert-desktop.png"), full_page=True)
    bert.click('[data-cmd="next_deal"]')
    for page in (anna, bert):
        page.wait_for_selector(".hand .card", timeout=10_000)
        assert page.locator(".trick.final").count() == 0
    for c in contexts:
        c.close()


def test_the_host_kicks_a_seat_and_somebody_takes_it_over(
        browser: Any, sqlite_server: Server, shots: Path) -> None:
    contexts = table_contexts(browser, 1)  # Anna (host) on a desktop, Bert on a phone
    anna, bert = (c.new_page() for c in contexts)
    anna.goto(sqlite_server.base + "/")
    anna.check("#game-schafkopf")
    anna.fill('[name="table.trick_pause_ms"]', "0")
    anna.click("form.create button[type=submit]")
    anna.wait_for_url("**/r/*")
    url = anna.url
    join_at(anna, url, "Anna", 0)
    join_at(bert, url, "Bert", 1)
    for seat in (3, 2):  # bots fill from the far end
        anna.click('[data-cmd="add_bot"]')
        anna.wait_for_selector(f'.plate[data-seat="{seat}"] .tag')
    start(anna)
    bert.wait_for_selector(".hand .card")
    anna.click("summary >> text=Host: seats…")
    kick = anna.locator('[data-cmd="kick"][data-seat="1"]')
    anna.once("dialog", lambda d: d.dismiss())  # on second thought: no
    kick.click()
    anna.wait_for_timeout(300)
    assert bert.locator(".hand .card").count() == 8, "a dismissed confirm changes nothing"
    anna.once("dialog", lambda d: d.accept())
    kick.click()
    bert.wait_for_selector("#flash >> text=released your seat")
    assert bert.locator(".hand .card").count() == 0, "Bert's old page sees no cards"
    # nor a plate of his own: it sees the table from seat 0, as a spectator does
    wait_until(bert, "!document.querySelector('.plate.me')")
    assert "(you)" not in bert.inner_text("#seats")
    assert bert.evaluate("getComputedStyle(document.querySelector('.felt-wrap'))"
                         ".getPropertyValue('--me').trim()") == "0"
    for s in range(4):  # the ring drawn again for a spectator has settled
        bert.locator(f'.plate[data-seat="{s}"]').wait_for(state="visible")
    box = {s: bert.locator(f'.plate[data-seat="{s}"]').bounding_box() for s in range(4)}
    assert all(box.values()), box
    assert max(box, key=lambda s: box[s]["y"]) == 0, "seat 0 at the bottom"
    anna.wait_for_selector('.plate[data-seat="1"] .tag.stand-in')
    anna.screenshot(path=str(shots / "seat-released-desktop.png"), full_page=True)
    bert.reload()  # his cookie no longer holds the seat: anybody may take it over
    take = bert.locator('[data-take="1"]')
    take.wait_for()
    bert.screenshot(path=str(shots / "take-this-seat-phone.png"), full_page=True)
    bert.fill('input[name="name"]', "Vroni")
    take.click()
    bert.wait_for_selector(".plate.me")
    assert "Vroni" in bert.inner_text(".plate.me")
    assert bert.locator(".hand .card").count() >= 7, "the seat's own view"
    wait_until(anna,
        "document.querySelector('.plate[data-seat=\"1\"]').innerText.includes('Vroni')")
    for c in contexts:
        c.close()
