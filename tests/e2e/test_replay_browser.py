"""The replay steps through a finished match in place (issue 24 item 13): the
buttons, the arrow keys and the deals show another step without loading a page (a
deal's steps are fetched once), the address follows the step, a step's address
opens that step, the focus stays where it was and a polite live region reads the
step out. Screenshots at phone and desktop size, in English and German."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Server
from tests.e2e.table import wait_until
from tests.web.apiclient import Table

SHOWN = "document.querySelector('#replay-steps section[data-step]:not([hidden])')"


def _finished_schafkopf(base: str) -> str:
    """A seeded Schafkopf match of several deals, played through the API by people
    who pick at random among their legal moves. Returns its room."""
    table = Table(base, "schafkopf", options={"target": 3, "dealer": 0}, seed=11)
    for name in ("Anna", "Bert", "Cilli", "Done"):
        table.join(name)
    assert table.start().status_code == 200
    rng = random.Random(3)
    for _ in range(5000):
        states = [table.view(t) for t in table.tokens]
        if states[0]["status"] == "finished":
            table.close()
            return table.room
        acting = [(t, st) for t, st in zip(table.tokens, states, strict=True) if st["legal"]]
        if acting:
            token, st = acting[0]
            table.act(token, rng.choice(st["legal"]), st["version"])
    raise AssertionError("the match did not end")


@pytest.fixture(scope="module")
def replay(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    from tests.conftest import migrate

    tmp = tmp_path_factory.mktemp("replay")
    url = f"sqlite:///{tmp / 'test.db'}"
    migrate(url)
    server = Server(url, tmp / "server.log").start()
    try:
        yield server, _finished_schafkopf(server.base)
    finally:
        server.stop()


def _shown(page: Any) -> int:
    return int(page.evaluate(f"{SHOWN}.dataset.step"))


def _at(page: Any, step: int) -> None:
    wait_until(page, f"{SHOWN} && {SHOWN}.dataset.step === '{step}'", timeout=10_000)
    assert page.evaluate(
        "document.querySelectorAll('#replay-steps section[data-step]:not([hidden])').length"
    ) == 1
    assert page.url.endswith(f"?step={step}")


def test_stepping_through_a_replay_loads_no_page(browser: Any, replay: tuple[Server, str],
                                                 shots: Path) -> None:
    server, room = replay
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = context.new_page()
    documents: list[str] = []
    fetched: list[str] = []
    page.on("request", lambda r: (documents if r.resource_type == "document" else fetched)
            .append(r.url))
    page.goto(f"{server.base}/history/{room}/replay?step=2")
    _at(page, 2)  # a step's address opens that step
    total = int(page.get_attribute("#replay", "data-total"))
    deals = page.eval_on_selector_all(".replay-deals a[data-deal]",
                                      "els => els.map(a => +a.dataset.to)")
    assert len(deals) >= 2 and total > 40
    page.evaluate("window.stillTheSamePage = true")
    assert page.get_attribute("#replay-live", "aria-live") == "polite"

    page.keyboard.press("ArrowRight")
    _at(page, 3)
    assert page.text_content("#step-count") == f"step 4 of {total}"
    assert f"step 4 of {total}" in page.text_content("#replay-live")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    _at(page, 1)
    page.click("[data-go=next]")
    _at(page, 2)
    assert page.evaluate("document.activeElement.dataset.go") == "next", "the focus stays"
    page.click("[data-go=prev]")
    _at(page, 1)
    page.keyboard.press("Home")
    _at(page, 0)
    assert page.get_attribute("[data-go=prev]", "aria-disabled") == "true"
    page.keyboard.press("Enter")  # the focus is still on "back": nothing happens at 0
    _at(page, 0)

    page.keyboard.press("End")  # the last deal's steps are fetched, once
    _at(page, total - 1)
    assert page.get_attribute("[data-go=next]", "aria-disabled") == "true"
    assert page.get_attribute(".replay-deals a[aria-current]", "data-to") == str(deals[-1])
    page.keyboard.press("PageUp")  # the deal before the last one, its first step
    _at(page, deals[-2])
    page.click(f".replay-deals a[data-to='{deals[1]}']")
    _at(page, deals[1])
    page.keyboard.press("ArrowLeft")  # back into the first deal
    _at(page, deals[1] - 1)
    assert page.get_attribute(".replay-deals a[aria-current]", "data-to") == str(deals[0])
    page.screenshot(path=str(shots / "replay-desktop-en.png"), full_page=True)

    # with the keyboard alone: Tab to "next" and press Enter
    page.focus("[data-go=prev]")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.go") == "next"
    page.keyboard.press("Enter")
    _at(page, deals[1])
    page.keyboard.press("Space")
    _at(page, deals[1] + 1)

    assert page.evaluate("window.stillTheSamePage === true"), "no page was loaded"
    assert documents == [f"{server.base}/history/{room}/replay?step=2"]
    deal_fetches = [u for u in fetched if "/replay/deal/" in u]
    assert len(deal_fetches) == len(set(deal_fetches)) <= len(deals) - 1
    sections = page.eval_on_selector_all("#replay-steps section[data-step]",
                                         "els => els.map(s => +s.dataset.step)")
    assert len(sections) == len(set(sections)), "no step twice"
    context.close()


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("size", [(390, 844), (360, 740), (1280, 800)])
def test_the_replay_on_phones_and_desktops(browser: Any, replay: tuple[Server, str],
                                           shots: Path, language: str,
                                           size: tuple[int, int]) -> None:
    server, room = replay
    width, height = size
    # German in the dark colour scheme, English in the light one
    context = browser.new_context(viewport={"width": width, "height": height},
                                  locale="de-DE" if language == "de" else "en-GB",
                                  color_scheme="dark" if language == "de" else "light",
                                  has_touch=width < 600, is_mobile=width < 600)
    page = context.new_page()
    page.goto(f"{server.base}/history/{room}/replay?step=5&lang={language}")
    _at_query(page, 5)
    page.click("[data-go=next]")
    wait_until(page, f"{SHOWN}.dataset.step === '6'")
    words = "Schritt 7 von" if language == "de" else "step 7 of"
    assert words in page.text_content("#replay-live")
    # nothing wider than the screen, and every button big enough to tap
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for box in page.eval_on_selector_all(
            ".stepper button, .replay-deals a",
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return [r.width, r.height]; })"):
        assert box[0] >= 40 and box[1] >= 40, box
    page.screenshot(path=str(shots / f"replay-{width}x{height}-{language}.png"))
    context.close()


def _at_query(page: Any, step: int) -> None:
    wait_until(page, f"{SHOWN} && {SHOWN}.dataset.step === '{step}'", timeout=10_000)
    assert re.search(rf"[?&]step={step}\b", page.url)
