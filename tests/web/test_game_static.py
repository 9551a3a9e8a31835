"""A game's own style and script (static/games/<game>.css and .js) are found by name,
like its templates, and each page of that game (its table, rules, match, replay,
standings) links them after the shared sheets and scripts; no other page does."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.games import GAMES
from app.main import create_app
from app.web.presentation import presentation
from tests.conftest import migrate

ROOT = Path(__file__).resolve().parents[2]
GAME_ASSET = re.compile(r'(?:href|src)="/static/games/([a-z_]+)\.[0-9a-f]{10}\.(css|js)"')


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path / 'static.db'}"
    migrate(url)
    with TestClient(create_app(url), headers={"Origin": "http://testserver"}) as c:
        yield c


def _linked(html: str) -> set[tuple[str, str]]:
    return set(GAME_ASSET.findall(html))


def test_each_games_static_files_are_found_by_name() -> None:
    for game in GAMES:
        p = presentation(game)
        css, js = (ROOT / "static" / "games" / f"{game}.{suffix}" for suffix in ("css", "js"))
        assert p.style == (f"games/{game}.css" if css.is_file() else None)
        assert p.script == (f"games/{game}.js" if js.is_file() else None)
    assert all(presentation(g).style for g in GAMES), "every game styles its own cards"
    names = {p.stem for p in (ROOT / "static" / "games").iterdir()}
    assert names <= set(GAMES), "a file under static/games/ is named after a game"


@pytest.mark.parametrize("game", list(GAMES))
def test_a_games_pages_link_its_own_files_and_no_others(client: TestClient, game: str) -> None:
    p = presentation(game)
    own = {(game, "css")} | ({(game, "js")} if p.script else set())
    r = client.post("/rooms", data={"game": game}, follow_redirects=False)
    assert r.status_code == 303, r.text
    table = client.get(r.headers["location"]).text
    assert _linked(table) == own
    # after the shared sheets and the table's script, which the game's may build on
    assert table.index("/static/css/social.") < table.index(f"/static/games/{game}.")
    if p.script:
        assert table.index("/static/js/table.") < table.index(f'src="/static/games/{game}.')
    rules = client.get(f"/rules/{game}").text
    assert _linked(rules) == {(game, "css")}
    standings = client.get(f"/standings?game={game}").text
    assert _linked(standings) == {(game, "css")}


def test_pages_of_no_one_game_link_no_games_files(client: TestClient) -> None:
    for path in ("/", "/history", "/rules/no-such-game"):
        assert _linked(client.get(path).text) == set(), path
