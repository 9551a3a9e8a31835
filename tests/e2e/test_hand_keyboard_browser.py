"""The hand with a keyboard and with stacks: after every push the focus is back on
the hand (the next playable card when it is our turn), so a player can play a whole
deal with Tab and Enter; what happened is read out by a live region; a Lügenbeutel
stack of equal cards shows its count and lays as many cards as the player chooses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.conftest import Server
from tests.e2e.look import grow_hand, table_with_bots
from tests.e2e.table import version, wait_until, wait_version

MY_TURN = "document.querySelector('#hand button.card.playable')"
#: where the focus is, read in one go (a push between two reads would race)
FOCUS = """() => {
  const a = document.activeElement;
  return {in_hand: !!(a && a.closest && a.closest('#hand')),
          playable: !!(a && a.matches && a.matches('#hand button.card.playable')),
          playable_cards: document.querySelectorAll('#hand button.card.playable').length,
          tag: a ? a.tagName : null};
}"""


def test_focus_is_on_a_hand_card_after_every_push(browser: Any, sqlite_server: Server,
                                                    shots: Path) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 800}, locale="en-GB")
    page = context.new_page()
    table_with_bots(page, sqlite_server.base, "schafkopf")
    for _ in range(4):  # four of our cards, each played with the keyboard only
        wait_until(page, MY_TURN, timeout=15_000)
        focus = page.evaluate(FOCUS)
        if not focus["playable"]:  # the first time: Tab into the hand
            page.focus("#hand button.card.playable")
        before = version(page)
        page.keyboard.press("Enter")
        wait_version([page], before)
        # never the page: the hand (a card, or the hand itself while others play)
        wait_until(page, "document.activeElement && document.activeElement.closest('#hand')",
                   timeout=2_000)
        wait_until(page, MY_TURN, timeout=15_000)
        page.wait_for_timeout(100)  # the focus follows right after the push
        focus = page.evaluate(FOCUS)
        assert focus["playable"], focus
    said = page.inner_text("#table-live")
    assert "took the trick" in said
    # cards move with short transitions, almost none when the system asks for less
    wait_until(page, MY_TURN, timeout=15_000)
    duration = "getComputedStyle(document.querySelector('#hand button.card.playable'))" \
               ".transitionDuration"
    assert page.evaluate(duration).startswith("0.12s")
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate(duration).startswith("0.001s")
    page.screenshot(path=str(shots / "keyboard.png"), full_page=True)
    context.close()


def test_a_luegenbeutel_stack_lays_as_many_as_chosen(browser: Any, sqlite_server: Server,
                                                     shots: Path) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740},
                                  device_scale_factor=2, is_mobile=True, has_touch=True,
                                  locale="de-DE")
    page = context.new_page()
    table_with_bots(page, sqlite_server.base, "luegenbeutel", fields={"challenge_ms": "0"})
    grow_hand(sqlite_server, page, "Anna", 20)
    wait_until(page, "document.querySelector('#hand [data-stack]')", timeout=20_000)
    stack = page.evaluate("""() => {
      const s = document.querySelector('#hand [data-stack]');
      const all = [...document.querySelectorAll('#hand .hand .card')];
      return {action: s.dataset.action, count: parseInt(s.dataset.count, 10),
              text: s.querySelector('.stack-count').textContent.trim(),
              total: all.reduce((n, c) => n + parseInt(c.dataset.count, 10), 0)};
    }""")
    assert stack["total"] == 20 and stack["count"] >= 2
    assert stack["text"] == f"×{stack['count']}"
    before = version(page)
    page.click(f'#hand [data-action="{stack["action"]}"]')
    chooser = page.locator(".lay-pick:not([hidden])")
    chooser.wait_for()
    assert page.get_attribute(f'#hand [data-action="{stack["action"]}"]', "aria-expanded") == "true"
    assert version(page) == before, "opening the chooser sends nothing"
    buttons = chooser.locator("[data-lay-n]")
    assert buttons.count() == stack["count"]
    assert page.evaluate("document.activeElement.dataset.layN") == "1"
    page.screenshot(path=str(shots / "lb-how-many.png"), full_page=False)
    how_many = stack["count"]
    chooser.locator(f'[data-lay-n="{how_many}"]').click()
    wait_version([page], before + how_many - 1)
    wait_until(page, f"!document.querySelector('#hand [data-action=\"{stack['action']}\"]')"
                     " && document.querySelector('[data-action=\"end\"]')")
    left = page.evaluate("[...document.querySelectorAll('#hand .hand .card')]"
                         ".reduce((n, c) => n + parseInt(c.dataset.count, 10), 0)")
    assert left == 20 - how_many
    assert version(page) == before + how_many, "one lay per card, no more"
    assert f"({how_many} liegen schon)" in page.inner_text("#status")
    page.screenshot(path=str(shots / "lb-laid.png"), full_page=False)
    context.close()
