"""The rules pages speak to players, in the table's words (issue 24).

- Every rules page, in both languages: seats are counted from 1 to the number of
  players as the table counts them (and teams 1 and 2), options are named by the
  label the lobby shows them with, and no code shows: no option key, no action
  string, no card code other than the card faces drawn, no formula (``k mod 4``,
  ``seat + 1``, ``P ÷ 4``, a letter standing for a number).
- Schafkopf in English keeps the Bavarian card names and says what a suit means:
  "Eichel Ober (acorns)"; German says "Eichel-Ober".
- Beutelschneider in German calls a deal "Spiel", as the table does, everywhere:
  its rules, its words at the table and in the replay, its option's help. "Hand"
  is only the cards one holds ("auf der Hand"). English says "deal" likewise.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app import i18n
from app.games import GAMES, new_match
from app.main import create_app
from app.rooms.room import Room, Seat
from app.rooms.table_options import TABLE_OPTIONS
from app.web.fragments import render_frame
from app.web.presentation import presentation
from tests.conftest import migrate

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("en", "de")
SEAT_WORDS = r"(?:seats?|Platz|Plätzen?)"
TEAM_WORDS = r"(?:teams?|Team|Partei(?:en)?)"
NUMBERS = r"\s+(\d+(?:\s*(?:,|and|und|or|oder|&|\+)\s*\d+)*)"
#: a formula where a player expects words
FORMULAS = {
    "modulo": re.compile(r"\bmod\b"),
    "a letter for a number": re.compile(r"\b[A-Za-z]\s*[=<>≤≥]\s*\d|\b\d\s*[×÷*/]\s*[A-Za-z]\b"
                                        r"|\b[A-Za-z]\s*[×÷]\s*\d"),
    "arithmetic on a seat": re.compile(r"\b(?:seat|dealer|forehand|Platz|Geber|Vorhand|stock"
                                       r"|Stapel)\s*[+−-]\s*\d", re.IGNORECASE),
    "a variable in italics": re.compile(r"<em>[A-Za-z]</em>"),
    "a range of codes": re.compile(r"\.\."),
}
#: an action string of the engine (``lay:7``, ``challenge:2``, ``no_knock``)
ACTION = re.compile(r"\b[a-z]+:[a-z0-9<]|\b[a-z]+_[a-z]+\b")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('words') / 'test.db'}"
    migrate(url)
    with TestClient(create_app(url)) as c:
        yield c


def article(client: TestClient, game: str, language: str) -> str:
    r = client.get(f"/rules/{game}?lang={language}")
    assert r.status_code == 200
    return r.text.split('<article class="rules"', 1)[1].split("</article>", 1)[0]


def words(part: str) -> str:
    """The text of ``part`` as a screen reader reads it: what is hidden from it gone
    (a drawn card's letters and picture; its name stays), a bar between cells and
    paragraphs, tags gone, entities read."""
    part = re.sub(r'<(\w+)[^>]*aria-hidden="true"[^>]*>.*?</\1>', "", part, flags=re.S)
    part = re.sub(r"</(?:td|th|p|li|h\d)>", " | ", part)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", part)))


def numbers(run: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", run)]


def column(page: str, header: re.Pattern[str]) -> list[str]:
    """The cells under every table header that matches ``header``."""
    cells = []
    for table in re.findall(r"<table>.*?</table>", page, re.S):
        heads = [words(h).strip() for h in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]
        for i, head in enumerate(heads):
            if header.fullmatch(head):
                for row in re.findall(r"<tr>(.*?)</tr>", table.split("</thead>", 1)[-1], re.S):
                    tds = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
                    if i < len(tds):
                        cells.append(words(tds[i]).strip())
    return cells


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", list(GAMES))
def test_the_rules_speak_to_players(client: TestClient, game: str, language: str) -> None:
    page = article(client, game, language)
    text = words(page)
    seats = range(1, GAMES[game].max_players + 1)

    assert "<code>" not in page, re.findall(r"<code>[^<]*</code>", page)
    for run in re.findall(SEAT_WORDS + NUMBERS, text):
        assert all(n in seats for n in numbers(run)), f"seat numbers {run!r}"
    for run in re.findall(TEAM_WORDS + NUMBERS, text):
        assert all(n in (1, 2) for n in numbers(run)), f"team numbers {run!r}"
    for cell in column(page, re.compile(r"seat|Platz", re.IGNORECASE)):
        assert int(cell) in seats, f"a seat column holds {cell!r}"
    for name, pattern in FORMULAS.items():
        assert not pattern.search(page if name.startswith("a variable") else text), (
            name, pattern.search(page if name.startswith("a variable") else text))
    assert not ACTION.search(text), ACTION.search(text)
    with i18n.language(language):
        for option in (*GAMES[game].options, *TABLE_OPTIONS):
            assert option.name not in text.split() or "_" not in option.name
        for option in GAMES[game].options:  # each as the lobby shows it
            assert i18n._(option.label) in text, (game, language, option.name)


def test_schafkopf_keeps_its_bavarian_names_and_says_what_they_mean_in_english() -> None:
    p = presentation("schafkopf")
    with i18n.language("en"):
        assert p.card_title("EO") == "Eichel Ober (acorns)"
        assert p.card_title("GA") == "Gras Sau (leaves)"
        assert p.card_title("H10") == "Herz Ten (hearts)"
        assert p.card_title("S7") == "Schellen Seven (bells)"
        assert p.suit_label("E") == "Eichel"
    with i18n.language("de"):
        assert p.card_title("EO") == "Eichel-Ober"
        assert p.card_title("GA") == "Gras-Sau"
        assert p.card_title("H10") == "Herz-Zehner"
        assert p.card_title("S7") == "Schellen-Siebener"


def test_the_english_schafkopf_rules_say_what_the_bavarian_names_mean(
        client: TestClient) -> None:
    text = words(article(client, "schafkopf", "en"))
    for suit, meaning in (("Eichel", "acorns"), ("Gras", "leaves"), ("Herz", "hearts"),
                          ("Schellen", "bells")):
        assert f"{suit} | {meaning}" in text, suit  # the table of suits
    assert "Sau (the ace)" in text and "Ober (the upper knave)" in text
    assert "Zehner" not in text and "König" not in text  # English ranks in English


#: the words a player of Beutelschneider reads that are its own: its templates,
#: its presentation and its option
BEUTELSCHNEIDER = [ROOT / "templates/games/beutelschneider",
                   ROOT / "app/web/games/beutelschneider.py"]
MARKED = re.compile(r"\bN?_\(\s*\"((?:[^\"\\]|\\.)+)\"")


def beutelschneider_words(language: str) -> list[str]:
    ids: list[str] = []
    for place in BEUTELSCHNEIDER:
        for path in sorted(place.glob("*.html")) if place.is_dir() else [place]:
            ids += MARKED.findall(path.read_text(encoding="utf-8"))
    with i18n.language(language):
        found = [i18n._(m) for m in ids]
        for option in GAMES["beutelschneider"].options:
            found += [i18n._(option.label), i18n._(option.help)]
    return found


def a_finished_deal() -> Room:
    """A Beutelschneider room whose first deal has just ended (the table shows its
    score sheet)."""
    room = Room(id="r", game="beutelschneider", players=4, options={}, host_token_hash="h")
    room.seats = [Seat(index=i, name=f"P{i + 1}", token_hash=str(i)) for i in range(4)]
    room.match = new_match("beutelschneider", 4, {"dealer": 3}, seed=3)
    while room.match.view(None)["deal_no"] == 1:
        seat = next(iter(room.match.to_act()))
        room.match.apply(seat, room.match.legal_actions(seat)[0])
    return room


HAND_AS_DEAL = {
    "de": re.compile(r"\bH(?:a|ä)nd\w*"),
    "en": re.compile(r"\b(?:Hand|hand) \d|\b(?:a|another|each|every|this|the) hand\b(?! of)"
                     r"|\bhands \(|\bhand (?:total|ends)", re.IGNORECASE),
}
HELD = {"de": re.compile(r"\bauf der Hand\b"), "en": re.compile(r"\b(?:in|your|their) hand\b")}


@pytest.mark.parametrize("language", LANGUAGES)
def test_beutelschneider_calls_a_deal_by_one_word(client: TestClient, language: str) -> None:
    deal, room = {"de": "Spiel", "en": "Deal"}[language], a_finished_deal()
    with i18n.language(language):
        frame = words(render_frame(room, 0, False))
    texts = {"rules": words(article(client, "beutelschneider", language)),
             "the table after a deal": frame,
             **{f"{m!r}": m for m in beutelschneider_words(language)}}
    for where, text in texts.items():
        unheld = HELD[language].sub("", text)
        assert not HAND_AS_DEAL[language].search(unheld), (where, text)
    assert re.search(rf"\b{deal} 1\b", frame) and re.search(rf"\b{deal} 2\b", frame), frame
    with i18n.language(language):
        ended = presentation("beutelschneider").sentence(
            {"type": "deal_end", "deal_no": 1, "hand_totals": [1, 2, 3, 4]}, ["A", "B", "C", "D"])
    assert ended is not None and ended.startswith(f"{deal} 1 ")
