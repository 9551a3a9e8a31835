"""Issue 24: what matters now fits the first screen, and nothing on the table lies
over anything else, at 1280 × 800 and on phones (390 × 844, 360 × 740), in every
game at its fewest and most seats and at five (``fit.LAYOUTS``), in German and
English, light and dark:

- the waiting table: the felt and its seats, the host's buttons, with the QR code
  of the room link open;
- during play: the felt, the hand and the buttons, with the most on the board (the
  last card of a trick to play, a gathered trick; in Lügenbeutel a claim, a
  challenge's result and a hand of two rows on a phone);
- after a deal: its result and the "Next deal" button.
- Lügenbeutel: the claim and the face-down cards one may call the liar on, readable.
- Round the felt: a plate with its stand-in tag over nothing; the phone's Chat
  button over no card or button.

Tables are played over the JSON API and looked at from Anna's seat (its cookie).
Screenshots for review are saved under test-results/."""

from __future__ import annotations

import time
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Server
from tests.e2e.fit import (
    LAYOUTS,
    OVERLAPS,
    VIEWS,
    State,
    boxes,
    fullest,
    gathered,
    on_screen,
    on_screen_problems,
    overlap,
    overlap_problems,
    patient,
    play_until,
    seat_page,
    to_finish,
    to_look,
    with_bots,
)
from tests.e2e.table import wait_until
from tests.web.apiclient import Table

pytestmark = pytest.mark.browser

TRICK_GAMES = ("schafkopf", "beutelschneider", "mauscheln")


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


@pytest.mark.parametrize(("size", "lang", "scheme"), [("390x844", "en", "light"),
                                                    ("360x740", "de", "dark")])
def test_the_chat_opens_on_a_phones_first_screen_over_no_card_of_the_hand(
        browser: Any, sqlite_server: Server, shots: Path, size: str, lang: str,
        scheme: str) -> None:
    """The Chat button opens the chat where the player sees it, a sheet over the top of
    the screen: the hand, the buttons and the status stay in sight; the focus goes
    into it, and Close or Escape folds it away and gives the focus back."""
    table, anna = with_bots(sqlite_server.base, "mauscheln", 5, seed=2, trick_pause_ms=0)
    play_until(table, anna, lambda s: "mauschel" in s["legal"] or "join" in s["legal"])
    context, page = seat_page(browser, table, anna, size, lang=lang, scheme=scheme)
    page.click(".chat-toggle")
    page.wait_for_selector("#chat.open")
    assert page.evaluate("document.activeElement.closest('#chat') !== null")
    page.fill("#chat-text", "Servus beinand!")
    page.press("#chat-text", "Enter")
    page.wait_for_selector("#chat-log li:has-text('Servus beinand!')")
    page.wait_for_timeout(200)
    page.screenshot(path=str(shots / f"chat-open-{size}-{lang}-{scheme}.png"))
    (panel,) = boxes(page, "#chat")
    assert on_screen(page, panel), panel
    for what in boxes(page, "#hand .card, #actions button, #status"):
        assert on_screen(page, what), what
        assert not overlap(panel, what), what
    page.keyboard.press("Escape")
    wait_until(page, "!document.getElementById('chat').classList.contains('open')")
    assert page.evaluate("document.activeElement.classList.contains('chat-toggle')")
    page.click(".chat-toggle")
    page.click(".chat-close")
    assert not page.locator("#chat").is_visible()
    context.close()


def _reach(table: Table, anna: str, done: Any, pages: list[Any],
           choose: Any = to_look, timeout: float = 120) -> State:
    """Play on (Anna over the API, ``choose(state)`` for her; the others are bots) until
    ``done(state)``, and wait until every page shows it. A deal's result on the way
    waits for Anna: she goes on."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = table.view(anna)
        if done(state):
            break
        if state["pause"] and state["pause"]["kind"] == "deal":
            pages[0].click('[data-cmd="next_deal"]')
            wait_until(pages[0], "!document.querySelector('[data-cmd=\"next_deal\"]')")
        elif state["legal"] and not state.get("queued"):
            table.act(anna, choose(state), state["version"])
        else:
            time.sleep(0.05)
    else:
        raise AssertionError("the table never reached the state")
    shown = f"+document.getElementById('version').dataset.version >= {state['version']}"
    for page in pages:
        wait_until(page, shown)
        page.wait_for_timeout(150)
    return state


def _look(pages: list[Any], shots: Path, name: str, checks: Any) -> list[str]:
    """Screenshots of ``pages`` (one per view) and what ``checks(page, phone, where)``
    finds wrong there, with what overlaps."""
    problems = []
    for page, (size, lang, scheme) in zip(pages, VIEWS, strict=True):
        where = f"{name} {size} {lang} {scheme}"
        page.screenshot(path=str(shots / f"{name}-{size}-{lang}-{scheme}.png"))
        problems += checks(page, page.viewport_size["width"] < 600, where)
        problems += overlap_problems(page, where)
    return problems


def _pages(browser: Any, table: Table, token: str) -> list[Any]:
    """A page for each view, at the seat of ``token`` (Anna, the host)."""
    return [seat_page(browser, table, token, size, lang=lang, scheme=scheme)[1]
            for size, lang, scheme in VIEWS]


def _playing(page: Any, phone: bool, where: str, hand: bool = True,
             buttons: bool = False) -> list[str]:
    """During play: the felt, every card of the hand and every button to play with
    (``hand``, ``buttons``: they must be there)."""
    found = on_screen_problems(page, ".felt-wrap", where)
    found += on_screen_problems(page, "#hand .hand .card", where, needed=hand)
    return found + on_screen_problems(
        page, "#actions button, #board button, #hand button:not(.card), #hand summary",
        where, needed=buttons)


def _waiting(page: Any, phone: bool, where: str) -> list[str]:
    """The waiting table: the QR code open, the felt, its seats and the host's buttons."""
    found = [] if page.locator("details.qr[open] img").count() else [f"{where}: QR closed"]
    for selector in (".felt-wrap", "#seats .plate", '[data-cmd="add_bot"]', '[data-cmd="start"]'):
        found += on_screen_problems(page, selector, where)
    return found


def _result(page: Any, phone: bool, where: str) -> list[str]:
    """A deal's result: on a phone it may be compact, its details further down, but
    its outcome (its heading) is seen; on a desktop all of it. And "Next deal"."""
    found = []
    for selector in (".felt-wrap", '[data-cmd="next_deal"]',
                     ".deal-result > :first-child" if phone else ".deal-result"):
        found += on_screen_problems(page, selector, where)
    return found


@pytest.mark.parametrize(("game", "players"), LAYOUTS)
def test_what_matters_fits_the_first_screen_and_nothing_overlaps(
        browser: Any, sqlite_server: Server, shots: Path, game: str, players: int) -> None:
    """The waiting table (one seat free, the QR code open), a deal's result, and Anna's
    turn with the most on the board, in each view."""
    options: dict[str, Any] = {"trick_pause_ms": 0, "next_deal_s": 120}
    if game == "luegenbeutel":  # no challenge window; no round ends the match
        options |= {"challenge_ms": 0, "target": 10_000}
    table = patient(Table(sqlite_server.base, game, players=players, options=options, seed=5))
    _, anna = table.join("Anna")
    for _ in range(players - 2):  # one seat stays free for now
        _seat_a_bot(table)
    pages = _pages(browser, table, anna)  # open all along: a deal's result waits for her
    for page in pages:
        page.wait_for_selector("#seats .plate.free")
    problems = _look(pages, shots, "waiting", _waiting)

    _seat_a_bot(table)
    assert table.start().status_code == 200
    # the first deal's end (Anna plays it out), then Anna's turn in a later deal
    _reach(table, anna, lambda s: bool(s["pause"]) and s["pause"]["kind"] == "deal", pages,
           choose=to_finish)
    for page in pages:
        page.wait_for_selector('[data-cmd="next_deal"]')
    problems += _look(pages, shots, "result", _result)

    _reach(table, anna, fullest(game, players), pages)
    # Lügenbeutel's turn has buttons (pass, skip); a trick game's turn is a card
    problems += _look(pages, shots, "play",
                      partial(_playing, buttons=game == "luegenbeutel"))
    for page in pages:
        page.context.close()
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("game", "players"),
                         [(g, n) for g, n in LAYOUTS if g != "luegenbeutel"])
def test_a_gathered_trick_lies_over_nothing(
        browser: Any, sqlite_server: Server, shots: Path, game: str, players: int) -> None:
    """A trick just won, gathered in a row at its winner's side for the trick pause:
    no card of it over a plate or a word, and the hand still on the first screen."""
    table, anna = with_bots(sqlite_server.base, game, players, seed=5, trick_pause_ms=5000)
    pages = _pages(browser, table, anna)
    for _ in range(6):  # a pause may end before every page was looked at: the next one
        _reach(table, anna, gathered, pages, choose=to_finish)
        problems = _look(pages, shots, "gathered", partial(_playing, hand=False))
        if all(page.locator(".trick.around.done").count() for page in pages):
            break
        _reach(table, anna, lambda s: not gathered(s), pages, choose=to_finish)
    else:
        raise AssertionError("no page showed a gathered trick")
    for page in pages:
        page.context.close()
    assert not problems, "\n".join(problems)


def _seat_a_bot(table: Table) -> None:
    r = table.http.post(f"/api/rooms/{table.room}/bots", json={"level": "easy"},
                        headers={"Authorization": f"Bearer {table.host_token}"})
    assert r.status_code == 200, r.text
