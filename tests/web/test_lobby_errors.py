"""A refused lobby form (a plain form post, as without JavaScript) comes back exactly
as it was entered (the game, the players, every game option of every game, every
table option) and says what to change next to the field it is about, in the page's
language, with aria-invalid and aria-describedby for screen readers; an error about
nothing in the form is said above it and changes nothing either."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.games import GAMES
from app.main import create_app
from app.rooms.table_options import TABLE_OPTIONS
from app.web.limits import ClientLimits
from tests.conftest import migrate


class Form(HTMLParser):
    """The lobby page as a browser would submit it again, and its error texts."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.fields: dict[str, dict[str, Any]] = {}  # name -> attributes (a radio: checked one)
        self.selected: dict[str, str] = {}
        self.texts: dict[str, str] = {}  # element id -> its text
        self.notice = ""
        self._select: str | None = None
        self._open: list[tuple[str, str | None]] = []
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "input" and a.get("type") == "radio":
            if "checked" in a:
                self.fields[a["name"]] = a
            self.fields.setdefault("radio:" + a["name"] + ":" + a["value"], a)
        elif tag == "input":
            self.fields[a["name"]] = a
        elif tag == "select":
            self.fields[a["name"]] = a
            self._select = a["name"]
        elif tag == "option" and self._select is not None and "selected" in a:
            self.selected[self._select] = a["value"]
        if tag in ("p", "fieldset", "small"):
            self._open.append((tag, a.get("id") or ("notice" if "notice" in a.get("class", "")
                                                    else None)))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        if tag in ("p", "fieldset", "small") and self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for _, ident in self._open[-1:]:
            if ident == "notice":
                self.notice += data
            elif ident is not None:
                self.texts[ident] = self.texts.get(ident, "") + data

    def value(self, name: str) -> Any:
        """The field's value as the form would send it again."""
        a = self.fields[name]
        if a.get("type") == "checkbox":
            return "checked" in a
        if a.get("type") == "radio":
            return a["value"] if "checked" in a else None
        if name in self.selected:
            return self.selected[name]
        return a.get("value")

    def invalid(self) -> set[str]:
        return {n for n, a in self.fields.items()
                if a.get("aria-invalid") == "true" and not n.startswith("radio:")}

    def described(self, name: str) -> str:
        """The text of what describes the field (its error first, then its help)."""
        ids = self.fields[name].get("aria-describedby", "").split()
        return " ".join(" ".join(self.texts.get(i, "").split()) for i in ids)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'lobby.db'}"
    migrate(url)
    with TestClient(create_app(url), headers={"Origin": "http://testserver"}) as c:
        yield c


def entered(game: str, **changes: str | None) -> dict[str, str]:
    """A whole lobby form as a browser sends it, with some fields set off their
    defaults (every game's fieldset is sent; an unticked box is left out)."""
    form = {"game": game}
    for name, info in GAMES.items():
        if info.min_players != info.max_players:
            form[f"{name}.players"] = str(info.min_players)
        for o in info.options:
            if o.kind != "bool":
                form[f"{name}.{o.name}"] = str(o.default)
            elif o.default:
                form[f"{name}.{o.name}"] = "1"
    for o in TABLE_OPTIONS:
        if o.kind != "bool":
            form[f"table.{o.name}"] = str(o.default)
        elif o.default:
            form[f"table.{o.name}"] = "1"
    form.update(changes)
    return {k: v for k, v in form.items() if v is not None}


# Off-default values kept by every case: another game's options and the table's
KEPT = {"luegenbeutel.target": "300", "luegenbeutel.reveal_all": "1",
        "schafkopf.target": "7", "table.turn_clock": "60", "table.away_seconds": "90",
        "table.spectator_chat": None}

# (game, fields changed, fields the error is about, a piece of the English message,
#  of the German message)
CASES = [
    ("mauscheln", {"mauscheln.players": "5", "mauscheln.belli": "1", "mauscheln.weli": "1",
                   "mauscheln.chips": "33"},
     {"mauscheln.belli", "mauscheln.weli"}, "Belli and Weli cannot be played together",
     "Belli und Weli"),
    ("mauscheln", {"mauscheln.players": "6", "mauscheln.weli": "1", "mauscheln.knock": "1"},
     {"mauscheln.players", "mauscheln.weli"}, "32-card pack", "32er-Blatt"),
    ("mauscheln", {"mauscheln.players": "9"}, {"mauscheln.players"}, "3 to 7 players",
     "3 bis 7"),
    ("mauscheln", {"mauscheln.players": "many"}, {"mauscheln.players"},
     "Players must be a number", "Zahl der Spieler"),
    ("mauscheln", {"mauscheln.chips": "0", "mauscheln.quartets": "1"}, {"mauscheln.chips"},
     "at least 1", "mindestens 1"),
    ("mauscheln", {"mauscheln.stake": "6"}, {"mauscheln.stake"}, "multiple of 4",
     "durch 4 teilbar"),
    ("luegenbeutel", {"luegenbeutel.challenge_ms": "soon", "luegenbeutel.players": "5"},
     {"luegenbeutel.challenge_ms"}, "must be a whole number", "ganze Zahl"),
    ("luegenbeutel", {"luegenbeutel.challenge_ms": "90000"}, {"luegenbeutel.challenge_ms"},
     "at most 30000", "höchstens 30000"),
    # the lobby reads options as the rematch form does (app/web/option_form.py): ASCII
    # digits only, a checkbox's value or nothing
    ("luegenbeutel", {"luegenbeutel.challenge_ms": "\u0663\u0660\u0660\u0660"},
     {"luegenbeutel.challenge_ms"}, "must be a whole number", "ganze Zahl"),
    ("mauscheln", {"mauscheln.players": "\u0665"}, {"mauscheln.players"},
     "Players must be a number", "Zahl der Spieler"),
    ("mauscheln", {"mauscheln.knock": "maybe"}, {"mauscheln.knock"}, "is either on or off",
     "entweder an oder aus"),
    ("beutelschneider", {"table.away_seconds": "3", "beutelschneider.players": "4"},
     {"table.away_seconds"}, "at least 10", "mindestens 10"),
    ("schafkopf", {"table.turn_clock": "45"}, {"table.turn_clock"}, "one of 0, 30, 60, 120",
     "0, 30, 60, 120"),
    ("", {}, {"game"}, "Please choose a game", "Spiel aus"),
]


def _check_kept(page: Form, form: dict[str, str], game: str) -> None:
    """Every field of the page holds what was sent (the game included)."""
    if game:
        assert page.value("game") == game
    for name, a in page.fields.items():
        if name == "game" or name.startswith("radio:") or "." not in name:
            continue
        if a.get("type") == "checkbox":
            assert page.value(name) == (name in form), name
        else:
            assert page.value(name) == form[name], name


@pytest.mark.parametrize(("game", "changes", "about", "english", "german"), CASES,
                         ids=[f"{c[0] or 'no-game'}-{'-'.join(sorted(c[2]))}" for c in CASES])
@pytest.mark.parametrize("language", ["en", "de"])
def test_a_refused_lobby_form_keeps_everything_and_says_what_to_change_at_the_field(
        client: TestClient, game: str, changes: dict[str, str], about: set[str],
        english: str, german: str, language: str) -> None:
    form = entered(game or "schafkopf", **{**KEPT, **changes})
    if not game:
        del form["game"]  # nothing chosen (a form a browser cannot send, but a script may)
    r = client.post(f"/rooms?lang={language}", data=form)
    assert r.status_code == 400
    page = Form(r.text)
    words = english if language == "en" else german
    assert words in page.notice
    _check_kept(page, form, game)
    if about == {"game"}:  # the radio group: every choice marked, the fieldset described
        radios = [a for n, a in page.fields.items() if n.startswith("radio:game:")]
        assert radios and all(a.get("aria-invalid") == "true" for a in radios)
        assert words in page.texts["err-game"]
        assert 'id="f-game" aria-describedby="err-game"' in r.text
        return
    assert page.invalid() == about
    for name in about:  # each field it is about is described by the message
        assert words in page.described(name), name
    shown = [i for i in page.texts if i.startswith("err-") and words in page.texts[i]]
    assert len(shown) == 1, "the message is shown once, after the last field it is about"
    # the message above the form leads to the first field it is about
    first = min(about, key=lambda n: r.text.index(f'name="{n}"'))
    assert f'href="#f-{first.replace(".", "-")}"' in r.text


def test_a_field_keeps_its_help_in_its_description_and_a_fresh_lobby_has_no_error(
        client: TestClient) -> None:
    page = Form(client.get("/").text)
    assert page.invalid() == set() and page.notice == ""
    assert "aria-invalid" not in client.get("/").text
    assert "reach this many points" in page.described("luegenbeutel.target")
    r = client.post("/rooms", data=entered("mauscheln", **{"mauscheln.belli": "1",
                                                          "mauscheln.weli": "1"}))
    page = Form(r.text)
    described = page.described("mauscheln.weli")
    assert described.startswith("Belli and Weli cannot be played together")
    assert "6 of diamonds" in described  # the field's own help stays


@pytest.mark.parametrize("kind", ["rate", "full", "mine"])
def test_a_limit_is_said_at_the_open_button_and_above_the_form_which_stays_as_entered(
        client: TestClient, kind: str) -> None:
    """A limit refuses opening the table at all: it is said next to the "Open the
    table" button (which it describes) and above the form, with a link to the button;
    no field is marked."""
    app: Any = client.app
    if kind == "rate":
        app.state.limits = ClientLimits(rooms="1/minute", joins="10/minute",
                                        sockets_per_client=10, sockets_per_room=10)
        words = "please wait a little"
    elif kind == "full":
        app.state.rooms.quota.max_open_rooms = 1
        words = "as many open tables as it can keep"
    else:
        app.state.rooms.quota.max_rooms_per_client = 1
        words = "1 table opened from your address is still open"
    opened = client.post("/rooms", data=entered("schafkopf"), follow_redirects=False)
    assert opened.status_code == 303
    form = entered("luegenbeutel", **{**KEPT, "luegenbeutel.players": "6",
                                      "luegenbeutel.lb_card": "1"})
    r = client.post("/rooms", data=form)
    assert r.status_code == 429
    page = Form(r.text)
    assert words in page.notice
    assert page.invalid() == set()
    assert re.search(r'<p class="notice error" role="alert"><a href="#f-open">', r.text)
    assert words in page.texts["err-open"]
    assert re.search(r'<button [^>]*id="f-open" aria-describedby="err-open"', r.text)
    _check_kept(page, form, "luegenbeutel")


def test_the_cap_on_open_tables_per_address_is_said_in_german(client: TestClient) -> None:
    app: Any = client.app
    app.state.rooms.quota.max_rooms_per_client = 2
    for _ in range(2):
        opened = client.post("/rooms", data=entered("schafkopf"), follow_redirects=False)
        assert opened.status_code == 303
    r = client.post("/rooms", data=entered("mauscheln"), headers={"Accept-Language": "de"})
    assert r.status_code == 429 and r.headers["retry-after"] == "60"
    said = " ".join(Form(r.text).texts["err-open"].split())
    assert said.startswith("Von deiner Adresse aus sind noch 2 Tische offen")
    assert "table" not in said


def test_the_form_is_sent_again_as_kept_and_then_opens_the_table(client: TestClient) -> None:
    form = entered("mauscheln", **{**KEPT, "mauscheln.players": "5", "mauscheln.belli": "1",
                                   "mauscheln.weli": "1", "mauscheln.chips": "33"})
    page = Form(client.post("/rooms", data=form).text)
    again = {n: page.value(n) for n in page.fields if not n.startswith("radio:")}
    again = {n: ("1" if v is True else v) for n, v in again.items() if v not in (False, None)}
    assert again == form
    del again["mauscheln.belli"]  # what the message asked for
    r = client.post("/rooms", data=again, follow_redirects=False)
    assert r.status_code == 303
    app: Any = client.app
    room = app.state.rooms.rooms[r.headers["location"].rsplit("/", 1)[1]]
    assert (room.game, room.players) == ("mauscheln", 5)
    assert room.options["chips"] == 33 and room.options["weli"] and not room.options["belli"]
    assert room.table["turn_clock"] == 60 and room.table["away_seconds"] == 90
    assert room.table["spectator_chat"] is False


def test_an_offered_choice_keeps_a_value_it_does_not_offer() -> None:
    """A room opened over the API with another target (say 60) shows it selected in
    the rematch form's choice, beside the offered ones."""
    from app.i18n import language
    from app.web.presentation import presentation
    from app.web.render import env

    target = next(o for o in GAMES["luegenbeutel"].options if o.name == "target")
    offered = presentation("luegenbeutel").option_choices["target"]
    field = env.get_template("table/option_field.html").module.option_field  # type: ignore[attr-defined]
    with language("de"):
        page = Form(str(field(target, 60, "opt.", offered=offered)))
        assert page.selected["opt.target"] == "60"
        html = str(field(target, 1000, "opt.", offered=offered))
    assert [v for v, _ in offered] == [200, 300, 500, 1000]
    assert '<option value="1000" selected>1.000 (etwa eineinviertel Stunden)</option>' in html
    assert 'value="60"' not in html
