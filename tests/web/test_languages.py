"""Every page in English and in German.

One real server; for each game a waiting table, a table in play (seen from a seat),
and a finished match with its table, history entry, replay, standings, chip ledger
and rules. Each page is fetched in both languages. The German page must be German:
no sentence of the catalogue that the English page shows may appear in the German
page (except where the German words are the same), and no common English words.
The language follows Accept-Language, ``?lang=`` (kept in a cookie) and the switch.
"""

from __future__ import annotations

import html
import json
import random
import re
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
from babel.messages.pofile import read_po

from tests.conftest import Server, migrate
from tests.web.apiclient import Table, sit_in_order

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Anna", "Bert", "Cilli", "Done"]
GAMES: dict[str, tuple[int, dict[str, Any]]] = {
    "schafkopf": (4, {"target": 1}),
    "beutelschneider": (3, {"target": 1}),
    "mauscheln": (4, {}),
    "luegenbeutel": (3, {"target": 1, "challenge_ms": 0}),
}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|\{\w*(?:![rsa])?(?::[^}]*)?\}")
# English words that no German sentence of ours contains
ENGLISH = re.compile(r"\b(the|your|you|and|with|is|are|of|to|for|this|that|turn|"
                     r"trick|deal|player|players|wins|cards)\b", re.I)


class _Visible(HTMLParser):
    """The words a person sees or hears: text and readable attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("style", "script", "code"):
            self.hidden += 1
        for key, value in attrs:
            if key in ("title", "aria-label", "placeholder", "alt") and value:
                self.parts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script", "code"):
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible(page: str) -> str:
    parser = _Visible()
    parser.feed(page)
    return html.unescape(" ".join(" ".join(parser.parts).split()))


def _catalogue() -> list[tuple[str, str]]:
    """(English fragment, German) for every msgid whose German words differ: the
    longest literal piece between placeholders, if it is a few words long."""
    with (ROOT / "app/locale/de/LC_MESSAGES/messages.po").open("rb") as fh:
        po = read_po(fh, locale="de")
    pairs = []
    for m in po:
        if not m.id:
            continue
        english = m.id if isinstance(m.id, str) else m.id[0]
        german = m.string if isinstance(m.string, str) else m.string[0]
        if english == german:
            continue
        piece = max(PLACEHOLDER.split(english), key=len).strip(" .,:;()")
        if len(piece) >= 10 and " " in piece:
            pairs.append((piece, german))
    return pairs


def _play(table: Table, tokens: list[str], rng: random.Random, limit: int) -> int:
    """Random legal moves until the match is over or ``limit`` moves were made."""
    moves = 0
    while moves < limit:
        states = [(t, table.view(t)) for t in tokens]
        if states[0][1]["status"] == "finished":
            break
        acting = [(t, s) for t, s in states if s["legal"]]
        if not acting:  # a challenge window's timer is about to accept for everyone
            time.sleep(0.02)
            continue
        token, state = rng.choice(acting)
        legal = [a for a in state["legal"] if a != "accept"] or state["legal"]
        r = table.act(token, rng.choice(legal), state["version"])
        assert r.status_code in (200, 409), r.text
        moves += 1
    return moves


class Tables:
    def __init__(self, server: Server) -> None:
        self.server = server
        self.waiting: dict[str, str] = {}
        self.playing: dict[str, tuple[str, str]] = {}  # room, a seat's token
        self.finished: dict[str, str] = {}

    def build(self) -> None:
        rng = random.Random(5)
        for game, (players, options) in GAMES.items():
            waiting = Table(self.server.base, game, players=players, options=options, seed=1)
            waiting.join(NAMES[0])
            self.waiting[game] = waiting.room
            for kind in ("playing", "finished"):
                table = Table(self.server.base, game, players=players,
                              options=dict(options, dealer=0), seed=3)
                tokens = [table.join(n)[1] for n in NAMES[:players]]
                assert table.start().status_code == 200
                if kind == "playing":
                    _play(table, tokens, rng, 3)
                    self.playing[game] = (table.room, tokens[0])
                    continue
                _play(table, tokens, rng, 5000 if game != "mauscheln" else 40)
                if table.view(tokens[0])["status"] != "finished":
                    r = table.http.post(f"/api/rooms/{table.room}/end",
                                        headers={"Authorization": f"Bearer {table.host_token}"})
                    assert r.status_code == 200, r.text
                assert table.view(tokens[0])["status"] == "finished"
                self.finished[game] = table.room

    def pages(self) -> Iterator[tuple[str, dict[str, str]]]:
        """(path, extra headers) of every page."""
        yield "/", {}
        yield "/history", {}
        for game in GAMES:
            yield f"/r/{self.waiting[game]}", {}
            room, token = self.playing[game]
            yield f"/r/{room}", {"Cookie": f"stammtisch_seat={token}"}
            yield f"/r/{room}", {}
            done = self.finished[game]
            yield f"/r/{done}", {}
            yield f"/history/{done}", {}
            yield f"/history/{done}/replay", {}
            yield f"/history/{done}/replay?step=12", {}
            yield f"/history/{done}/replay?step=9999", {}
            yield f"/history?game={game}", {}
            yield f"/standings?game={game}", {}
            # a browser that has played: "(you)" and the box to link another browser
            yield f"/standings?game={game}", {"Cookie": "stammtisch_player=" + "p" * 32}
            yield f"/rules/{game}", {}
        yield f"/r/{self.finished['mauscheln']}/ledger", {}


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tables]:
    tmp = tmp_path_factory.mktemp("languages")
    url = f"sqlite:///{tmp / 'test.db'}"
    migrate(url)
    server = Server(url, tmp / "server.log").start()
    try:
        built = Tables(server)
        built.build()
        yield built
    finally:
        server.stop()


def _get(tables: Tables, path: str, headers: dict[str, str], language: str) -> str:
    r = httpx.get(tables.server.base + path, timeout=10,
                  headers={**headers, "Accept-Language": language})
    assert r.status_code == 200, (path, r.status_code)
    want = language[:2]
    assert r.headers["content-language"] == want
    assert f'<html lang="{want}">' in r.text
    return r.text


def test_every_page_is_german_in_german_and_english_in_english(tables: Tables) -> None:
    catalogue = _catalogue()
    failures: dict[str, list[str]] = {}
    checked = 0
    for path, headers in tables.pages():
        english = visible(_get(tables, path, headers, "en"))
        german = visible(_get(tables, path, headers, "de-DE,de;q=0.9,en;q=0.5"))
        shown = [(piece, de) for piece, de in catalogue if piece in english]
        checked += len(shown)
        leaks = [piece for piece, de in shown if piece in german and piece not in de]
        rules = path.startswith("/rules/")  # the German rules quote code and options
        stray = [] if rules else sorted({m.group(0) for m in ENGLISH.finditer(
            german.replace("Stammtisch", ""))})
        if leaks or stray:
            failures[path] = leaks + stray
        assert english != german, path
    assert failures == {}
    assert checked > 200  # the pages really showed the catalogue's sentences


def test_the_language_follows_the_query_the_cookie_and_the_switch(tables: Tables) -> None:
    base = tables.server.base
    with httpx.Client(base_url=base, timeout=10) as client:
        r = client.get("/?lang=de", headers={"Accept-Language": "en"})
        assert '<html lang="de">' in r.text and "Tisch öffnen" in r.text
        assert "stammtisch_lang=de" in r.headers["set-cookie"]
        # the cookie now wins over the browser's languages
        r = client.get("/history", headers={"Accept-Language": "en"})
        assert '<html lang="de">' in r.text and "Verlauf" in r.text
        # the switch in the header: back to the page, in English
        assert 'href="/lang/en?next=/history"' in r.text
        r = client.get("/lang/en?next=/history", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/history"
        r = client.get("/history", headers={"Accept-Language": "de"})
        assert '<html lang="en">' in r.text and "Finished matches" in r.text
        # never a redirect to another site; an unknown language changes nothing
        for bad in ("//evil.example/", "https://evil.example/", "/\\evil.example"):
            r = client.get("/lang/de", params={"next": bad}, follow_redirects=False)
            assert r.headers["location"] == "/"
        r = client.get("/lang/xx?next=/", follow_redirects=False)
        assert "set-cookie" not in r.headers
    r = httpx.get(base + "/", headers={"Accept-Language": "fr-CH, de;q=0.8, en;q=0.1"})
    assert '<html lang="de">' in r.text
    r = httpx.get(base + "/", headers={"Accept-Language": "fr, ja"})
    assert '<html lang="en">' in r.text


def test_errors_are_in_the_language_of_the_client_that_caused_them(tables: Tables) -> None:
    base = tables.server.base
    r = httpx.post(base + "/rooms", data={"game": "mauscheln", "mauscheln.players": "6",
                                          "mauscheln.weli": "1"},
                   headers={"Accept-Language": "de"})
    assert r.status_code == 400
    assert "Weli gibt es nur mit dem 32er-Blatt" in r.text
    # the JSON API answers English unless the client names a language
    room, _token = tables.playing["schafkopf"]
    r = httpx.post(base + f"/api/rooms/{room}/start",
                   headers={"Authorization": "Bearer nope"})
    assert r.json()["error"] == "Only the host can start the match."
    r = httpx.post(base + f"/api/rooms/{room}/start",
                   headers={"Authorization": "Bearer nope", "Accept-Language": "de"})
    assert r.json()["error"] == "Nur der Gastgeber kann die Partie starten."
    r = httpx.get(base + "/api/games", headers={"Accept-Language": "de"})
    labels = {o["label"] for g in r.json() for o in g["options"]}
    assert "Einheiten zum Sieg" in labels


def test_the_lobby_links_every_game_to_its_rules(tables: Tables) -> None:
    page = _get(tables, "/", {}, "de")
    for game in GAMES:
        assert f'href="/rules/{game}" target="_blank"' in page
    room, token = tables.playing["schafkopf"]
    table = _get(tables, f"/r/{room}", {"Cookie": f"stammtisch_seat={token}"}, "de")
    assert 'class="rules-link" href="/rules/schafkopf" target="_blank"' in table


def test_two_players_at_one_table_each_read_their_own_language(tables: Tables) -> None:
    from websockets.sync.client import connect

    from tests.web.frames import frame_flash, frame_version, recv_until

    table = Table(tables.server.base, "schafkopf", options={"dealer": 3}, seed=4)
    tokens = [token for _, token in sit_in_order(table, NAMES)]
    assert table.start().status_code == 200

    def socket(token: str, language: str):  # noqa: ANN202 - a websocket
        return connect(f"{tables.server.ws_base}/r/{table.room}/ws", open_timeout=5, legacy=True,
                       additional_headers={"Authorization": f"Bearer {token}",
                                           "Accept-Language": language})

    anna, bert = socket(tokens[0], "de"), socket(tokens[1], "en")
    try:
        first_de, first_en = str(anna.recv(timeout=5)), str(bert.recv(timeout=5))
        assert "Du bist dran: Spiel eine beliebige Karte aus." in first_de  # seat 0 leads
        assert "Tricks:" not in first_de and "Stiche:" in first_de
        assert "Anna to play." in first_en and "Stiche:" not in first_en
        # a push after a move keeps each socket's language
        version = frame_version(first_de)
        card = table.view(tokens[0])["legal"][0]
        r = table.act(tokens[0], card, version)
        assert r.status_code == 200
        pushed_de = recv_until(anna, lambda f: frame_version(f) > version)
        pushed_en = recv_until(bert, lambda f: frame_version(f) > version)
        assert "Bert ist am Zug." in pushed_de and "Your turn: follow" in pushed_en
        # an illegal move is refused to that client only, in its language
        anna.send(json.dumps({"action": "play:EO", "version": version + 1}))
        refused = recv_until(anna, lambda f: frame_flash(f) is not None)
        assert frame_flash(refused) == "Du bist nicht an der Reihe."
        bert.send(json.dumps({"action": "play:XX", "version": version + 1}))
        refused = recv_until(bert, lambda f: frame_flash(f) is not None)
        assert html.unescape(frame_flash(refused) or "") == "you do not hold 'XX'"
    finally:
        anna.close()
        bert.close()


def test_template_words_follow_the_language_and_escape_what_they_are_given() -> None:
    """``_`` and ``ngettext`` in templates: the current language at each call (one
    compiled template serves both), placeholders filled with escaped values, ``%%``
    shown as one ``%``, also inside a loop."""
    from app import i18n
    from app.web.render import env

    t = env.from_string(
        '{% for n in names %}[{{ _("Remove %(name)s", name=n) }}]{% endfor %}'
        '{{ _("100%% sure") }}|{{ ngettext("%(num)s seat", "%(num)s seats", k) }}')
    args = {"names": ["Anna", "<b>Bert</b>"], "k": 2}
    with i18n.language("de"):
        german = t.render(**args)
    english = t.render(**args)
    assert german.startswith("[Anna entfernen][&lt;b&gt;Bert&lt;/b&gt; entfernen]")
    assert english.startswith("[Remove Anna][Remove &lt;b&gt;Bert&lt;/b&gt;]")
    assert english.endswith("100% sure|2 seats")
    with i18n.language("de"):  # asked again: the kept translation is the German one
        assert t.render(**args) == german
