"""No private call across modules: code in ``app`` calls a ``_private`` method or
function only on its own object (``self``, ``cls``, ``super()``), never on another
module's object or another module (``room._tell()`` from the room service, a bot
calling its heuristic's ``_expected_value``). What one part needs of another is a
public, named method that says what it does. A module from outside ``app`` (the
standard library's ``os._exit``) is that library's business."""

from __future__ import annotations

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"
OWN = ("self", "cls")


def _outside_names(tree: ast.Module) -> set[str]:
    """Names the module binds to modules or objects from outside ``app``."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "app":
                    names.add((alias.asname or alias.name).split(".")[0])
        elif (isinstance(node, ast.ImportFrom) and node.level == 0
              and (node.module or "").split(".")[0] != "app"):
            names.update(alias.asname or alias.name for alias in node.names)
    return names


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_calls(source: str, filename: str = "<source>") -> list[str]:
    """``file:line: call`` of every call of another object's ``_private`` member."""
    tree = ast.parse(source, filename)
    outside = _outside_names(tree)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and _is_private(node.func.attr)):
            continue
        owner = node.func.value
        if isinstance(owner, ast.Name) and (owner.id in OWN or owner.id in outside):
            continue
        if (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name)
                and owner.func.id == "super"):
            continue
        found.append((node.lineno, f"{filename}:{node.lineno}: {ast.unparse(node.func)}()"))
    return [text for _line, text in sorted(found)]


def test_nothing_in_app_calls_another_objects_private_members() -> None:
    found = [hit for path in sorted(APP.rglob("*.py"))
             for hit in private_calls(path.read_text(encoding="utf-8"),
                                      str(path.relative_to(APP.parent)))]
    assert found == [], "\n".join(found)


def test_the_check_tells_a_private_call_across_modules_from_an_own_one() -> None:
    source = '''
import os
from app.bots import mauscheln as h

class Part:
    def run(self, room):
        self._own()
        super()._hook()
        type(self).__init__(self)
        room.__repr__()
        os._exit(0)
        room._tell()
        h._expected_value(1)
        self.room._tell()
'''
    assert private_calls(source) == [
        "<source>:12: room._tell()",
        "<source>:13: h._expected_value()",
        "<source>:14: self.room._tell()",
    ]
