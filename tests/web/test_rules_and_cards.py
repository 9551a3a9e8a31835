"""The rules pages and the card faces.

Rules: every game in both languages answers 200 with its headings, draws at least
one card face from its deck (only codes of that deck: other codes stay code) and
the German page is the German document. Cards: every code of every deck has a
picture in its sprite, the names on the cards follow the language, trumps are
marked on the board too, and no card face names a card the seat may not see.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app import i18n
from app.games import new_match
from app.main import create_app
from app.rooms.room import Room, Seat
from app.web.fragments import render_frame
from app.web.presentation import presentation
from app.web.rules import _markdown as rules_markdown
from tests.conftest import migrate

ROOT = Path(__file__).resolve().parents[2]
GAMES = ["schafkopf", "beutelschneider", "mauscheln", "luegenbeutel"]
HEADINGS = {
    "en": {"schafkopf": "Worked example", "beutelschneider": "Worked examples",
           "mauscheln": "House rules", "luegenbeutel": "Variants and options"},
    "de": {"schafkopf": "Beispiel", "beutelschneider": "Beispiele",
           "mauscheln": "Hausregeln", "luegenbeutel": "Varianten und Optionen"},
}
CARD = re.compile(r'<span class="card [^"]*" title="([^"]*)" data-card="([^"]+)">')


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('rules') / 'test.db'}"
    migrate(url)
    with TestClient(create_app(url)) as c:
        yield c


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("game", GAMES)
def test_the_rules_of_every_game_in_both_languages(client: TestClient, game: str,
                                                   language: str) -> None:
    r = client.get(f"/rules/{game}", headers={"Accept-Language": language})
    assert r.status_code == 200
    page = r.text
    assert f'<html lang="{language}">' in page
    assert "<h1>" in page and page.count("<h2>") >= 5
    assert f"<h2>{HEADINGS[language][game]}</h2>" in page
    cards = CARD.findall(page)
    assert cards, "the worked examples draw real card faces"
    deck = presentation(game).deck
    assert all(code in deck for _title, code in cards)
    with i18n.language(language):
        assert all(title == presentation(game).card_title(code) for title, code in cards)
    assert "<table>" in page  # markdown tables are tables
    assert "<code>" not in page  # no code for players (tests/web/test_rules_words.py)
    source = (ROOT / "docs/rules" / (f"{game}.de.md" if language == "de" else f"{game}.md"))
    first_heading = source.read_text(encoding="utf-8").splitlines()[0].lstrip("# ").strip()
    assert f"<h1>{first_heading}</h1>".replace("(", "(") in page


def test_the_german_rules_are_the_german_document(client: TestClient) -> None:
    de = client.get("/rules/beutelschneider?lang=de").text
    en = client.get("/rules/beutelschneider?lang=en").text
    assert "Meuchelmörder" in de and "Assassin" not in de.split("<article", 1)[1]
    assert "Assassin" in en
    # the card faces carry their names in the page's language
    assert 'title="Gardist"' in de and 'title="Guard"' in en


def test_a_code_that_is_no_card_of_the_game_stays_code() -> None:
    with i18n.language("en"):
        out = rules_markdown("schafkopf").render("`EO` and `bM`")
    assert 'data-card="EO"' in out and "<code>bM</code>" in out


def test_unknown_rules_are_a_clear_404(client: TestClient) -> None:
    r = client.get("/rules/skat?lang=de")
    assert r.status_code == 404 and "Diese Regeln gibt es nicht" in r.text


def test_every_card_of_every_deck_has_a_picture() -> None:
    for game in GAMES:
        p = presentation(game)
        assert p.deck, game
        for code in p.deck:
            face = p.face(code)
            sprite, _hash, symbol = face.art.partition("#")
            text = (ROOT / "static" / "cards" / sprite).read_text(encoding="utf-8")
            assert f'<symbol id="{symbol}" ' in text, (game, code)
    assert (ROOT / "static/cards/back.svg").read_text().startswith("<svg")


def test_card_names_follow_the_language() -> None:
    p = presentation("beutelschneider")
    with i18n.language("de"):
        assert p.face("bM").name == "Meuchelmörder" and p.face("gW").title == "Grün Wirt"
        assert presentation("schafkopf").card_title("EO") == "Eichel-Ober"
        assert presentation("mauscheln").face("HQ").rank == "D"
        assert presentation("mauscheln").card_title("SA") == "Pik-Ass"
        assert presentation("luegenbeutel").face("A").name == "Aussetzen"
    with i18n.language("en"):
        assert p.face("bM").name == "Assassin"
        assert presentation("mauscheln").face("HQ").rank == "Q"
        assert presentation("mauscheln").card_title("SA") == "ace of spades"


def test_trumps_are_marked_in_the_hand_and_on_the_board() -> None:
    room = Room(id="r", game="beutelschneider", players=4, options={}, host_token_hash="h")
    room.seats = [Seat(index=i, name=f"P{i}", token_hash=str(i)) for i in range(4)]
    room.match = new_match("beutelschneider", 4, {"dealer": 3}, seed=2)
    # play blue cards until one lies on the board
    for _ in range(8):
        seat = next(iter(room.match.to_act()))
        legal = room.match.legal_actions(seat)
        blue = [a for a in legal if a.startswith("play:b")]
        room.match.apply(seat, (blue or legal)[0])
        if any(p["card"].startswith("b") for p in room.match.view(None)["trick"]):
            break
    html = render_frame(room, None, False)
    board = html.split('id="board"', 1)[1].split('id="actions"', 1)[0]
    assert re.search(r'class="card bs-blue bs-power trump"', board)
    seat = next(iter(room.match.to_act()))
    hand = render_frame(room, seat, False).split('id="hand"', 1)[1]
    trumps = [c for c in room.match.view(seat)["hand"] if c.startswith("b")]
    assert hand.count(" trump") >= len(trumps)


def test_a_card_face_shows_only_what_the_seat_may_see() -> None:
    room = Room(id="r", game="schafkopf", players=4, options={}, host_token_hash="h")
    room.seats = [Seat(index=i, name=f"P{i}", token_hash=str(i)) for i in range(4)]
    room.match = new_match("schafkopf", 4, {"dealer": 3}, seed=5)
    for seat in range(4):
        others = [c for s in range(4) if s != seat for c in room.match.view(s)["hand"]]
        for language in ("de", "en"):
            with i18n.language(language):
                html = render_frame(room, seat, False)
                pictures = set(re.findall(r"schafkopf\.[0-9a-f]{10}\.svg#(\w+)", html))
                titles = {presentation("schafkopf").card_title(c) for c in others}
            assert pictures == set(room.match.view(seat)["hand"])
            assert not any(f'title="{t}"' in html or f">{t}<" in html for t in titles)
