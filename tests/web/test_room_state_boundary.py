"""The web draws the table from what the room layer worked out
(app.rooms.table_state), and never asks the room's policy itself: no module of
app/web imports the modules that decide turns, clocks, pacing, presence, stand-ins
or the room's life."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
POLICY = {"app.rooms.pacing", "app.rooms.presence", "app.rooms.turns", "app.rooms.windows",
          "app.rooms.clock", "app.rooms.upkeep", "app.rooms.bot_driver",
          "app.rooms.pipeline", "app.rooms.recovery", "app.rooms.quotas"}
# names of the policy modules the web may use: the action a room logs when it ends a
# match nobody can play on (the replay tells it)
ALLOWED = {("app.rooms.quotas", "NOBODY_PLAYS_ON_ACTION")}


def _imports(path: Path) -> list[tuple[str, str | None]]:
    out: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            out += [(node.module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            out += [(alias.name, None) for alias in node.names]
    return out


def test_the_web_reads_the_room_state_the_room_layer_worked_out() -> None:
    found = {}
    for path in sorted((ROOT / "app" / "web").rglob("*.py")):
        bad = [(m, n) for m, n in _imports(path) if m in POLICY and (m, n) not in ALLOWED]
        if bad:
            found[str(path.relative_to(ROOT))] = bad
    assert found == {}
    render = {m for m, _ in _imports(ROOT / "app" / "web" / "render.py")}
    assert "app.rooms.table_state" in render
