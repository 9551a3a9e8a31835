"""A room's parts are built whole: whatever a part calls when its work is done (the
pipeline, the room's events) it is given in its constructor. Nothing in app/rooms
wires a part after it was built: no function, method or lambda is assigned to an
attribute of another object, and no method but ``__init__`` keeps a callable it
was handed (an ``attach(apply, after)``). Before, the room service set
``pipeline.on_unavailable``, ``pipeline.watch_write`` and ``pipeline.after_commit``
and called ``attach`` on the challenge windows, the pacing and the turns."""

from __future__ import annotations

import ast
import collections.abc
import importlib
import types
import typing
from pathlib import Path

import pytest

ROOMS = Path(__file__).resolve().parents[2] / "app" / "rooms"
MODULES = sorted(p.stem for p in ROOMS.glob("*.py") if p.stem != "__init__")


def _defined_functions() -> set[str]:
    """Names of every function and method defined in app (what a callback would be)."""
    app = ROOMS.parent
    return {node.name for path in app.rglob("*.py")
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)}


def _pairs(node: ast.Assign | ast.AnnAssign) -> list[tuple[ast.expr, ast.expr | None]]:
    """(target, value) of an assignment, ``a.x, b.y = f, g`` taken apart."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    pairs: list[tuple[ast.expr, ast.expr | None]] = []
    for target in targets:
        if (isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple)
                and len(target.elts) == len(node.value.elts)):
            pairs.extend(zip(target.elts, node.value.elts, strict=True))
        else:
            pairs.append((target, node.value))
    return pairs


def _local_names(function: ast.AST) -> set[str]:
    """Names a function binds itself (its parameters and variables)."""
    names = {a.arg for a in ast.walk(function) if isinstance(a, ast.arg)}
    names.update(n.id for n in ast.walk(function)
                 if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return names


def _refers_to_function(value: ast.expr | None, functions: set[str], local: set[str]) -> bool:
    """``value`` is a lambda, a method taken from an object (``self._committed``) or
    a function by its name (not a variable of the same name)."""
    if isinstance(value, ast.Lambda):
        return True
    if isinstance(value, ast.Attribute):
        return value.attr in functions
    return isinstance(value, ast.Name) and value.id in functions and value.id not in local


def wired_afterwards(source: str, functions: set[str], filename: str = "<source>"
                     ) -> list[str]:
    """Assignments of a function, method or lambda to another object's attribute."""
    tree = ast.parse(source, filename)
    local: dict[ast.AST, set[str]] = {}  # each assignment's function's own names
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            names = _local_names(function)
            for node in ast.walk(function):  # inner functions come later: theirs win
                local[node] = names
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign | ast.AnnAssign):
            continue
        for target, value in _pairs(node):
            if not isinstance(target, ast.Attribute) or value is None:
                continue
            owner = target.value
            if isinstance(owner, ast.Name) and owner.id == "self":
                continue  # its own attribute (kept callables: see the next check)
            if _refers_to_function(value, functions, local.get(node, set())):
                found.append((node.lineno, f"{filename}:{node.lineno}: "
                              f"{ast.unparse(target)} = {ast.unparse(value)}"))
    return [text for _line, text in sorted(found)]


def test_no_part_of_a_room_is_wired_after_it_was_built() -> None:
    functions = _defined_functions()
    found = [hit for name in MODULES
             for hit in wired_afterwards((ROOMS / f"{name}.py").read_text(encoding="utf-8"),
                                         functions, f"app/rooms/{name}.py")]
    assert found == [], "\n".join(found)


def test_the_wiring_check_finds_the_old_services_hooks() -> None:
    old = '''
class RoomService:
    def __init__(self, db):
        self.pipeline = ActionPipeline(db, self.windows, self.pacing)
        self.pipeline.on_unavailable = self.recovery.wait_for_database
        self.pipeline.after_commit = self._committed
        self.pipeline.db, other.hook = db, (lambda room: None)
        self.turns = Turns(db, self._spawn, self)
        room.match = restore(saved)
'''
    assert wired_afterwards(old, {"wait_for_database", "_committed"}) == [
        "<source>:5: self.pipeline.on_unavailable = self.recovery.wait_for_database",
        "<source>:6: self.pipeline.after_commit = self._committed",
        "<source>:7: other.hook = lambda room: None",
    ]


def _is_callable_hint(hint: object) -> bool:
    if typing.get_origin(hint) is collections.abc.Callable or hint is collections.abc.Callable:
        return True
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return any(_is_callable_hint(arg) for arg in typing.get_args(hint))
    return False


def _function(cls: object, name: str) -> object:
    """The function behind ``cls.name`` (a method, property, static or class method)."""
    member = vars(cls)[name]
    if isinstance(member, property):
        return member.fget
    return getattr(member, "__func__", member)


def callbacks_kept_late(source: str, namespace: dict[str, object]) -> list[str]:
    """``Class.method: self.attr = param`` for every method but ``__init__`` of the
    classes in ``source`` (found in ``namespace``, its module's) that keeps a
    parameter typed as a callable, or a lambda, on its object."""
    found = []
    for cls in (n for n in ast.parse(source).body if isinstance(n, ast.ClassDef)):
        for method in cls.body:
            if (not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef)
                    or method.name == "__init__"):
                continue
            hints = typing.get_type_hints(_function(namespace[cls.name], method.name),
                                          globalns=namespace)
            handed = {name for name, hint in hints.items() if _is_callable_hint(hint)}
            for node in ast.walk(method):
                if not isinstance(node, ast.Assign):
                    continue
                for target, value in _pairs(node):
                    if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                            and target.value.id == "self"
                            and (isinstance(value, ast.Lambda)
                                 or (isinstance(value, ast.Name) and value.id in handed))):
                        found.append(f"{cls.name}.{method.name}: self.{target.attr} = "
                                     f"{ast.unparse(value)}")
    return found


@pytest.mark.parametrize("name", MODULES)
def test_no_part_keeps_a_callback_handed_to_it_after_construction(name: str) -> None:
    module = importlib.import_module(f"app.rooms.{name}")
    source = (ROOMS / f"{name}.py").read_text(encoding="utf-8")
    assert callbacks_kept_late(source, vars(module)) == []


def test_the_late_callback_check_finds_an_attach_method() -> None:
    source = '''
from collections.abc import Callable

Apply = Callable[[int, str], None]


class Pacing:
    def __init__(self, after: Callable[[int], None]) -> None:
        self._after = after

    def attach(self, apply: Apply | None, after: Callable[[int], None],
               seconds: float) -> None:
        self._apply, self._after = apply, after
        self._seconds = seconds

    def reset(self) -> None:
        self._after = lambda room: None
'''
    namespace: dict[str, object] = {}
    exec(compile(source, "<attached>", "exec"), namespace)
    assert callbacks_kept_late(source, namespace) == [
        "Pacing.attach: self._apply = apply", "Pacing.attach: self._after = after",
        "Pacing.reset: self._after = lambda room: None"]
