"""Issue 24: what matters now fits the first screen, and nothing on the table lies
over anything else, at 1280 × 800 and on phones (390 × 844, 360 × 740).

- After a deal: its result and the "Next deal" button (Beutelschneider for four).
- Lügenbeutel: the claim and the face-down cards one may call the liar on, readable.
- Round the felt: a plate with its stand-in tag over nothing; the phone's Chat
  button over no card or button.

Tables are played over the JSON API and looked at from Anna's seat (its cookie).
Screenshots for review are saved under test-results/."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Server
from tests.e2e.fit import boxes, on_screen, overlap, play_until, seat_page, with_bots
from tests.e2e.table import wait_until
from tests.web.apiclient import Table

pytestmark = pytest.mark.browser


def _fits(page: Any, selector: str) -> None:
    found = boxes(page, selector)
    assert found, f"{selector} is shown"
    for box in found:
        assert on_screen(page, box), (selector, box, page.viewport_size)


@pytest.mark.parametrize("size", ["1280x800", "390x844"])
@pytest.mark.parametrize(("game", "players"), [("beutelschneider", 4)])
def test_a_deal_result_and_next_deal_fit_the_first_screen(
        browser: Any, sqlite_server: Server, shots: Path, game: str, players: int,
        size: str) -> None:
    table, anna = with_bots(sqlite_server.base, game, players, trick_pause_ms=0,
                            next_deal_s=120)
    context, page = seat_page(browser, table, anna, size)  # open: the result waits for her
    play_until(table, anna, lambda s: bool(s["pause"]) and s["pause"]["kind"] == "deal")
    page.wait_for_selector('[data-cmd="next_deal"]')
    page.wait_for_timeout(300)
    page.screenshot(path=str(shots / f"{game}-{size}.png"))
    _fits(page, '[data-cmd="next_deal"]')
    _fits(page, ".deal-result")
    _fits(page, ".felt-wrap")
    context.close()


def _lb_turn(state: dict[str, Any]) -> bool:
    return any(a.startswith("lay:") for a in state["legal"])


def _challenge_table(base: str) -> tuple[Table, str]:
    """Lügenbeutel for three people over the API: Anna passes when it is her turn; the
    next one lays three cards and ends, so Anna may call the liar on one of them."""
    table = Table(base, "luegenbeutel", players=3, seed=3,
                  options={"trick_pause_ms": 0, "challenge_ms": 30_000})
    tokens = [table.join(name)[1] for name in ("Anna", "Bert", "Cilli")]
    assert table.start().status_code == 200
    for _ in range(10):
        turn = table.view()["view"]["turn"]
        state = table.view(tokens[turn])
        if turn == 0:
            table.act(tokens[0], "pass" if "pass" in state["legal"] else "end", state["version"])
            continue
        for action in [a for a in state["legal"] if a.startswith("lay:")][:3]:
            state = table.view(tokens[turn])
            if action in state["legal"]:
                table.act(tokens[turn], action, state["version"])
        table.act(tokens[turn], "end", table.view(tokens[turn])["version"])
        if "challenge:3" in table.view(tokens[0])["legal"]:
            return table, tokens[0]
    raise AssertionError("nobody laid three cards")


@pytest.mark.parametrize("size", ["390x844", "1280x800"])
@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_cards_to_call_the_liar_on_are_readable(
        browser: Any, sqlite_server: Server, shots: Path, size: str, lang: str) -> None:
    table, anna = _challenge_table(sqlite_server.base)
    context, page = seat_page(browser, table, anna, size, lang=lang)
    page.wait_for_selector('[data-action="challenge:3"]')
    page.screenshot(path=str(shots / f"challenge-{size}-{lang}.png"))
    title = page.inner_text(".stack-title")
    assert ("3 ×" in title) and ("Bert" in title or "Cilli" in title), title
    found = page.evaluate("""() => {
      const px = e => parseFloat(getComputedStyle(e).fontSize);
      const title = document.querySelector('.stack-title');
      const backs = [...document.querySelectorAll('[data-action^="challenge:"].card')];
      return {title: px(title), cards: backs.map(b => {
        const r = b.getBoundingClientRect();
        const texts = [...b.querySelectorAll('*')]
          .filter(e => e.children.length === 0 && e.textContent.trim());
        return {action: b.dataset.action, name: b.getAttribute('aria-label') || '',
                texts: texts.map(e => { const q = e.getBoundingClientRect();
                  return {text: e.textContent.trim(), px: px(e),
                          inside: q.left >= r.left && q.right <= r.right
                                  && q.top >= r.top && q.bottom <= r.bottom,
                          fits: e.scrollWidth <= e.clientWidth + 1}; })};
      })};
    }""")
    assert found["title"] >= 14, found
    assert [c["action"] for c in found["cards"]] == ["challenge:1", "challenge:2", "challenge:3"]
    for n, card in enumerate(found["cards"], start=1):
        assert "Lügenbeutel" in card["name"], card  # its whole call, for screen readers
        assert [t["text"] for t in card["texts"]] == [str(n)], card  # its number, alone
        assert all(t["px"] >= 14 and t["inside"] and t["fits"] for t in card["texts"]), card
    plates = boxes(page, "#seats .plate")
    for what in boxes(page, ".stack-title, .stack-hint, .stack .card"):
        assert on_screen(page, what), what
        assert not any(overlap(what, p) for p in plates), what
    context.close()


#: every pair of things shown on the felt that lie over each other: plates, and the
#: board's cards, words and buttons (one inside the other is no overlap)
OVERLAPS = """() => {
  const sel = '#seats .plate, #board .card, #board p, #board li, #board h3, #board figcaption,'
            + ' #board .trick-info, #board button:not(.card), #board summary';
  const shown = [...document.querySelectorAll(sel)].filter(e => {
    const s = getComputedStyle(e), r = e.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && !e.closest('details:not([open]) > :not(summary)')
      && s.visibility !== 'hidden' && s.opacity !== '0';
  });
  const out = [];
  shown.forEach((a, i) => shown.slice(i + 1).forEach(b => {
    if (a.contains(b) || b.contains(a)) return;
    const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    if (p.left < q.right - .5 && q.left < p.right - .5
        && p.top < q.bottom - .5 && q.top < p.bottom - .5)
      out.push([a.className + ' ' + a.innerText.slice(0, 30),
                b.className + ' ' + b.innerText.slice(0, 30)]);
  }));
  return out;
}"""


def _no_overlaps(page: Any, shots: Path, name: str) -> None:
    page.screenshot(path=str(shots / f"{name}.png"))
    assert page.evaluate(OVERLAPS) == [], name


def test_a_stand_in_tag_lies_over_nothing(browser: Any, sqlite_server: Server,
                                          shots: Path) -> None:
    """Anna is away: "played for Anna" on her plate; Bert keeps the table going."""
    table = Table(sqlite_server.base, "beutelschneider", players=4,
                  options={"trick_pause_ms": 0, "next_deal_s": 0, "away_seconds": 10})
    table.join("Anna")
    _, bert = table.join("Bert")
    for _ in range(2):
        table.http.post(f"/api/rooms/{table.room}/bots", json={"level": "easy"},
                        headers={"Authorization": f"Bearer {table.host_token}"})
    assert table.start().status_code == 200
    play_until(table, bert, lambda s: bool(s["stand_ins"]) and bool(s["view"].get("trick")),
               timeout=60)
    for size in ("1280x800", "390x844", "360x740"):
        context, page = seat_page(browser, table, None, size, lang="de")  # watching
        page.wait_for_selector(".tag.stand-in")
        _no_overlaps(page, shots, f"stand-in-{size}")
        context.close()


def test_the_chat_button_lies_over_no_card_or_button_on_a_phone(
        browser: Any, sqlite_server: Server, shots: Path) -> None:
    """Lügenbeutel with seven stacks in the hand, the hand at the bottom of the screen."""
    for seed in range(1, 40):
        table, anna = with_bots(sqlite_server.base, "luegenbeutel", 6, seed=seed,
                                trick_pause_ms=0, challenge_ms=0)
        state = play_until(table, anna, _lb_turn)
        if len(set(state["view"]["hand"])) == 7:
            break
    else:
        raise AssertionError("no hand of seven stacks")
    context, page = seat_page(browser, table, anna, "390x844")
    wait_until(page, "document.querySelectorAll('#hand .hand .card').length === 7")
    for where in ("top", "hand at the bottom"):
        if where != "top":
            page.evaluate("window.scrollTo(0, document.querySelector('#hand .hand')"
                          ".getBoundingClientRect().bottom + scrollY - innerHeight + 8)")
            page.wait_for_timeout(100)
        page.screenshot(path=str(shots / f"chat-button-{where.replace(' ', '-')}.png"))
        chat = boxes(page, ".chat-toggle")
        assert chat, "the Chat button is there"
        for what in boxes(page, "#hand .card, button:not(.chat-toggle), summary"):
            assert not overlap(chat[0], what), (where, what)
    context.close()
