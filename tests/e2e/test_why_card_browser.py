"""Why not this card? (issue 28) on a German phone: a card of the hand that must not
be played now is tapped, and one line says why (the engine's reason, "Du musst
bedienen: ..."), above the hand without covering its cards; nothing is played."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.look import table_with_bots
from tests.e2e.table import version, wait_until

MY_TURN = "document.querySelector('#hand button.card.playable')"
REFUSED = "#hand button.card.blocked"
FLASH = "document.querySelector('#flash span')"
#: a German phone (the size the issue looks at)
PHONE_DE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
                            "is_mobile": True, "has_touch": True, "locale": "de-DE"}


def test_tapping_a_refused_card_says_why(browser: Any, sqlite_server: Server,
                                         shots: Path) -> None:
    context = browser.new_context(**PHONE_DE)
    page = context.new_page()
    table_with_bots(page, sqlite_server.base, "schafkopf")
    for _ in range(8):  # our cards of the deal, until one must not be played
        wait_until(page, MY_TURN, timeout=15_000)
        if page.locator(REFUSED).count():
            break
        before = version(page)
        page.locator("#hand button.card.playable").first.tap()
        wait_until(page, f"parseInt(document.getElementById('version').dataset.version)"
                         f" > {before}", timeout=10_000)
    else:
        raise AssertionError("no card of ours was refused in a whole deal")
    card = page.locator(REFUSED).first
    hint = page.locator("#" + (card.get_attribute("aria-describedby") or "none"))
    assert hint.text_content() == "Jetzt nicht spielbar: drücken, um den Grund zu hören"
    before = version(page)
    card.tap()
    wait_until(page, FLASH, timeout=5_000)
    said = page.inner_text("#flash")
    assert said.startswith("Du musst bedienen: ") and said.endswith(" ist ausgespielt."), said
    Path("/tmp/whynot").mkdir(exist_ok=True)
    page.screenshot(path="/tmp/whynot/phone-de.png", full_page=False)
    page.screenshot(path=str(shots / "why-not-phone-de.png"), full_page=False)
    # the line covers no card of the hand, and nothing was played
    overlap = page.evaluate("""() => {
      const f = document.getElementById('flash').getBoundingClientRect();
      return [...document.querySelectorAll('#hand .card')].some(c => {
        const r = c.getBoundingClientRect();
        return r.left < f.right && f.left < r.right && r.top < f.bottom && f.top < r.bottom;
      });
    }""")
    assert not overlap, "the line covers the hand"
    assert version(page) == before
    assert not page.locator("#hand button.sent").count()
    # with the keyboard: a refused card is focusable and Enter asks as well
    page.evaluate("document.getElementById('flash').replaceChildren()")
    card = page.locator(REFUSED).first
    card.focus()
    page.keyboard.press("Enter")
    wait_until(page, FLASH, timeout=5_000)
    assert page.inner_text("#flash").startswith("Du musst bedienen: ")
    assert version(page) == before
    context.close()
