"""One place per game: shared web code, shared templates, the shared scripts and
stylesheets and the bots' registries never name a game, every game is presented by
its own module, and a game registered at run time (with its
templates in any folder) is drawn without touching ``app/``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.db import Database, repo
from app.games import GAMES
from app.rooms.service import RoomService
from app.web import replay
from app.web.fragments import render_frame
from app.web.presentation import (
    TEMPLATES,
    Face,
    Presentation,
    presentation,
    presentations,
    register,
    unregister,
)
from app.web.render import env
from tests.conftest import migrate
from tests.games import toy_game
from tests.loops import run

ROOT = Path(__file__).resolve().parents[2]
GAME_WORDS = {"schafkopf", "beutelschneider", "mauscheln", "luegenbeutel", "lügenbeutel"}
GAME_WORDS |= {name.lower() for name in GAMES} | {info.title.lower() for info in GAMES.values()}
PATTERN = re.compile("|".join(sorted(map(re.escape, GAME_WORDS))), re.IGNORECASE)
TOY_TEMPLATES = Path(__file__).resolve().parent / "toy_templates"


def _offences(files: list[Path], base: Path = ROOT) -> list[str]:
    found = []
    for path in files:
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if PATTERN.search(line):
                found.append(f"{path.relative_to(base)}:{no}: {line.strip()}")
    return found


def _shared_web_modules() -> list[Path]:
    return sorted((ROOT / "app" / "web").glob("*.py"))


def _shared_templates() -> list[Path]:
    games = TEMPLATES / "games"
    return sorted(p for p in TEMPLATES.rglob("*") if p.is_file() and games not in p.parents)


SHARED = {
    "app/web": _shared_web_modules,
    "templates": _shared_templates,
    "app/rooms": lambda: sorted((ROOT / "app" / "rooms").rglob("*.py")),
    "app/db": lambda: sorted((ROOT / "app" / "db").rglob("*.py")),
    # the shared scripts and stylesheets (a game's own are static/games/<game>.*,
    # found by name: tests/web/test_game_static.py)
    "static": lambda: sorted(p for folder in ("js", "css")
                             for p in (ROOT / "static" / folder).iterdir() if p.is_file()),
    # the bot registries find each game's bot module and search module by its name
    "app/bots": lambda: [ROOT / "app" / "bots" / "__init__.py", ROOT / "app" / "bots" / "api.py",
                         ROOT / "app" / "bots" / "search" / "__init__.py"],
}


@pytest.mark.parametrize("area", list(SHARED))
def test_shared_code_and_templates_name_no_game(area: str) -> None:
    files = SHARED[area]()
    assert files, f"nothing found under {area}"
    offences = _offences(files)
    assert not offences, "shared code names a game:\n" + "\n".join(offences)


def test_every_games_search_is_found_by_its_module_name() -> None:
    """app/bots/search/<game>.py is the game's search (its ``SEARCH``, and ``SILENT``
    where a seat may let a moment pass); the registry lists none by hand."""
    import importlib

    import app.bots.search as searches

    folder = ROOT / "app" / "bots" / "search"
    modules = {p.stem for p in folder.glob("*.py")} & set(GAMES)
    assert modules, "no search module named after a game"
    assert list(searches.GAMES) == [g for g in GAMES if g in modules]
    for game in modules:
        module = importlib.import_module(f"app.bots.search.{game}")
        assert searches.GAMES[game] is module.SEARCH
        assert searches.SILENCE.get(game) == getattr(module, "SILENT", None)
    assert set(searches.SILENCE) < set(searches.GAMES)


def test_the_check_itself_catches_a_game_name(tmp_path: Path) -> None:
    bad = tmp_path / "x.html"
    bad.write_text('<p>\n{% if game == "Mauscheln" %}chips{% endif %}\n')
    good = tmp_path / "y.html"
    good.write_text("{% if info.keeps_chip_ledger %}chips{% endif %}\n")
    assert _offences([bad, good], tmp_path) == [
        'x.html:2: {% if game == "Mauscheln" %}chips{% endif %}']


def test_every_game_has_its_presentation_and_template_folder() -> None:
    found = presentations()
    assert set(GAMES) <= set(found)
    for game in GAMES:
        p = presentation(game)
        assert p.game == game
        assert p.template_dir == TEMPLATES / "games" / game
        for name in ("status.html", "board.html", "result.html", "history.html"):
            assert (p.template_dir / name).is_file(), f"{game} has no {name}"
            assert env.get_template(p.template(name)).filename == str(p.template_dir / name)
        assert p.measure() in ("points", "units", "chips", "cents")
    assert not (TEMPLATES / "history").exists(), "history rows live in each game's folder"


def test_a_presentation_cannot_silently_replace_another() -> None:
    game = next(iter(GAMES))
    twin = Presentation(game=game, face=presentation(game).face)
    with pytest.raises(ValueError):
        register(twin)
    assert presentation(game) is not twin


# ----- a fifth game registered at run time: engine, presentation, templates -------
# The engine is the toy trick game of tests/games/toy_game.py; its presentation is
# below and its templates are in tests/web/toy_templates/. Nothing in app/ knows it.

def toy_face(code: str) -> Face:
    suit, rank = code[0], code[1:]
    return Face(code, rank, "", f"toy-{suit.lower()}", f"{toy_game.SUIT_NAMES[suit]} {rank}")


@pytest.fixture
def toy() -> Iterator[Presentation]:
    with toy_game.registered():
        p = register(Presentation(
            game=toy_game.NAME, face=toy_face, templates=TOY_TEMPLATES,
            sentence=lambda e, names: ("Hand over." if e.get("type") == "deal_end" else None),
        ))
        try:
            yield p
        finally:
            unregister(toy_game.NAME)


def test_a_fifth_game_plays_through_the_room_service_and_renders_with_its_templates(
        toy: Presentation, tmp_path: Path) -> None:
    """Lobby entry, seats, start, every move through the pipeline and the database,
    each seat's frame, the finished match in the history and its replay."""
    url = f"sqlite:///{tmp_path / 'toy.db'}"
    migrate(url)

    async def scenario() -> None:
        service = RoomService(Database(url), bot_delay_ms=0)
        room, host = await service.create(game=toy_game.NAME, players=2,  # no pauses
                                          options={"dealer": 1, "trick_pause_ms": 0,
                                                   "next_deal_s": 0})
        tokens = [(await service.join(room.id, n))[1] for n in ("Ann", "Bob")]
        waiting = render_frame(room, 0, is_host=True)
        assert "Stich for 2: 2 seated." in waiting
        await service.start(room.id, host)
        assert room.seat_of(tokens[0]) == 0 and room.match is not None
        html = render_frame(room, 0, is_host=True)
        assert "Your turn: play any card." in html
        mine, theirs = room.state(0)["view"]["hand"], room.state(1)["view"]["hand"]
        assert len(mine) == len(theirs) == 6
        for code in mine:
            assert f'title="{toy_face(code).title}"' in html
        for code in theirs:
            assert f'title="{toy_face(code).title}"' not in html, "only its own cards"
        while not room.match.is_over:
            seat = min(room.match.to_act())
            action = room.match.legal_actions(seat)[0]
            await service.act(room.id, seat, action, room.version)
        spectator = render_frame(room, None, is_host=False)
        assert "The match is over." in spectator
        assert '<h2 class="toy-result">' in spectator
        saved = await service.db.read(repo.get_match, match_id=room.id)
        assert saved is not None and saved.status == "finished"
        assert [d.deal_no for d in saved.deals] == [1]
        logged = await service.db.read(repo.action_log, match_id=room.id)
        steps = replay.build(toy_game.NAME, logged, ["Ann", "Bob"])
        assert "Hand over." in steps[-1].lines
        assert steps[-1].lines[-1].endswith("the match.")
        await service.close()
        service.db.close()

    run(scenario())


def test_the_fifth_game_touched_no_file_in_app() -> None:
    for path in (ROOT / "app").rglob("*"):
        if path.is_file() and path.suffix in (".py", ".html"):
            text = path.read_text(encoding="utf-8")
            assert "toy_game" not in text and "Stich" not in text.replace("Stiche", ""), path
    for path in TEMPLATES.rglob("*.html"):
        assert "toy-" not in path.read_text(encoding="utf-8"), path


def test_replay_sentences_come_from_the_game_and_the_shared_contract() -> None:
    names = ["Anna", "Bert", "Cilli", "Done"]
    for game in GAMES:
        p = presentation(game)
        assert p.describe({"type": "match_end", "winners": [1], "scores": [0] * 4},
                          names) == "Bert wins the match."
        assert p.describe({"type": "match_end", "winners": [0, 2], "scores": [0] * 4},
                          names) == "Anna & Cilli win the match."
        assert p.describe({"type": "no_such_event"}, names) is None


def test_a_template_a_game_lacks_is_looked_for_once_until_a_game_is_registered(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game without its own ``actions.html`` falls back to the shared one on every
    push; the loader remembers that the game's file is missing instead of asking the
    disk each time, and forgets it when presentations change (a game registered again
    may bring the file)."""
    from jinja2 import TemplateNotFound

    from app.web.render import loader

    asked: list[str] = []
    real = loader._source

    def counting(environment: Any, name: str) -> Any:
        asked.append(name)
        return real(environment, name)

    monkeypatch.setattr(loader, "_source", counting)
    name = "games/schafkopf/no-such-template.html"
    for _ in range(3):
        with pytest.raises(TemplateNotFound):
            env.get_template(name)
    assert asked.count(name) == 1
    register(presentation("schafkopf"), replace=True)  # presentations changed
    with pytest.raises(TemplateNotFound):
        env.get_template(name)
    assert asked.count(name) == 2
