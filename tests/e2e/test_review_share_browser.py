"""Sharing one's reviews with the table (issue 28) in the browser, on a German phone
and an English desktop: at the end of a one-deal match Anna's reviews page offers
the button, she shares; Bert's table names her under its result, with a link to her
reviews, which he reads (her deal drawn into his page on request); the public
history links a player's own reviews and the shared ones. Screenshots of each."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Server, migrate
from tests.e2e.table import wait_until
from tests.e2e.test_why_card_browser import PHONE_DE
from tests.web.apiclient import Table, sit_in_order
from tests.web.test_review_api import _play_deal_one, _ready

DESKTOP_EN: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}, "locale": "en-GB"}
WORDS = {
    "de": {"share": "Meine Auswertung mit dem Tisch teilen",
           "withdraw": "Meine Auswertung zurückziehen", "shared": "Mit dem Tisch geteilt:",
           "title": "Die Spiele von Anna, besprochen", "review": "Dieses Spiel besprechen",
           "deal": "Das Spiel von Anna, besprochen · Spiel 1", "chose": "Anna hat gewählt: "},
    "en": {"share": "Share my reviews with the table", "withdraw": "Withdraw my reviews",
           "shared": "Shared with the table:", "title": "Anna's deals, reviewed",
           "review": "Review this deal", "deal": "Anna's deal, reviewed · Deal 1",
           "chose": "Anna chose: "},
}


@pytest.fixture
def review_server(tmp_path: Path) -> Iterator[Server]:
    url = f"sqlite:///{tmp_path / 'test.db'}"
    migrate(url)
    srv = Server(url, tmp_path / "server.log", env={"REVIEW_BUDGET_MS": "150"}).start()
    yield srv
    srv.stop()


def _person(browser: Any, server: Server, room: str, token: str, device: dict[str, Any],
            cookie: str = "stammtisch_seat") -> Any:
    context = browser.new_context(**device)
    context.add_cookies([{"name": cookie, "value": token, "domain": "127.0.0.1",
                          "path": f"/r/{room}"}])
    return context.new_page()


def _fits(page: Any) -> None:
    """Nothing sticks out sideways (the page scrolls only down)."""
    wide = page.evaluate("document.documentElement.scrollWidth")
    assert wide <= page.viewport_size["width"], wide


@pytest.mark.parametrize(("device", "language"), [(PHONE_DE, "de"), (DESKTOP_EN, "en")],
                         ids=["phone-de", "desktop-en"])
def test_anna_shares_her_reviews_and_bert_reads_them(browser: Any, review_server: Server,
                                                     shots: Path, device: dict[str, Any],
                                                     language: str) -> None:
    words = WORDS[language]
    table = Table(review_server.base, "schafkopf", options={"dealer": 3, "target": 1},
                  seed=41)
    tokens = [t for _, t in sit_in_order(table, ("Anna", "Bert", "Cilli", "Dora"))]
    assert table.start().status_code == 200
    _play_deal_one(table, tokens, random.Random(3))
    room = table.room
    own = _ready(table.http, room, tokens[0], 1)

    anna = _person(browser, review_server, room, tokens[0], device)
    anna.goto(f"{review_server.base}/r/{room}/reviews")
    button = anna.get_by_role("button", name=words["share"])
    assert button.is_visible()
    _fits(anna)
    anna.screenshot(path=str(shots / f"reviews-own-{language}.png"), full_page=True)
    button.click()
    anna.wait_for_url(f"**/r/{room}/reviews#share")
    assert anna.get_by_role("button", name=words["withdraw"]).is_visible()
    anna.screenshot(path=str(shots / f"reviews-shared-{language}.png"), full_page=True)

    bert = _person(browser, review_server, room, tokens[1], device)
    bert.goto(f"{review_server.base}/r/{room}")
    wait_until(bert, "document.querySelector('#rematch .review-shares a')")
    shares = bert.inner_text("#rematch .review-shares")
    assert shares.startswith(words["shared"] + " Anna"), shares
    bert.locator("#rematch").scroll_into_view_if_needed()
    _fits(bert)
    bert.screenshot(path=str(shots / f"table-shares-{language}.png"))
    bert.locator("#rematch .review-shares a", has_text="Anna").click()
    bert.wait_for_url(f"**/r/{room}/reviews?seat=0")
    assert bert.inner_text("h1").startswith(words["title"])
    assert bert.get_by_role("button", name=words["share"]).count() == 0, "read-only"
    assert bert.locator(".review-panel").count() == 1, "her reviewed deal is drawn"
    panel = bert.inner_text("#review-1")
    assert panel.startswith(words["deal"]), panel
    assert bert.locator("#review-1 .review-choice").count() == len(own["decisions"])
    assert bert.locator("#review-1 .review-choice").first.inner_text().startswith(words["chose"])
    _fits(bert)
    bert.screenshot(path=str(shots / f"reviews-of-anna-{language}.png"), full_page=True)

    # the public history: the player's own reviews, and Anna's shared ones
    history = browser.new_context(**device).new_page()
    history.goto(f"{review_server.base}/history/{room}")
    assert history.locator(f"a[href='/r/{room}/reviews']").count() == 1
    assert history.locator(f"a[href='/r/{room}/reviews?seat=0']").inner_text() == "Anna"
    _fits(history)
    history.screenshot(path=str(shots / f"history-{language}.png"), full_page=True)
    history.locator(f"a[href='/r/{room}/reviews?seat=0']").click()
    wait_until(history, "document.querySelector('.notice.error')")
    assert history.locator(".review-panel").count() == 0, "no cookie: refused"
    history.screenshot(path=str(shots / f"reviews-refused-{language}.png"), full_page=True)
    table.close()
