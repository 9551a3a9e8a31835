"""Nothing under ``app/bots`` restates a rule (issue 26, one copy of every rule): the
engines of ``app/games`` are the only place a rule is written, and the bots import
what they need of it (the deck, the card order, which cards are true, the scoring)
and play out with the engines themselves (``Match.unseen``, ``from_view``,
``simulate``).

What the checks look for, read from the source of every module under ``app/bots``:

- a copy of the game: a class named ``Round``, ``Deal`` or ``...Match``, or a class
  with a method named like one of the engine's own (``apply``, ``legal_actions``,
  ``view``, ``copy``, the hooks ``_actions``/``_perform``/...), or a ``legal``/
  ``resolve`` of its own;
- a rule function written again: a function named like a public function of the
  engines (``resolve_trick``, ``follow_suit``, ``hand_points``, ...);
- rule data written again: a literal list, tuple, set or dict that equals an
  engine constant (or a run of one: ranks in the engine's order, its keys), a
  literal of two or more card codes of a game's deck, or a constant named and
  valued like an engine constant (a second ``HOUSE_RULES``).

They do not judge what a heuristic estimates (a chance that a seat can follow suit
is a model of play, not the rule); they catch the copies this codebase had: the
search's lean ``Deal``/``Round`` classes, the second ``HOUSE_RULES``, the
restated rank orders."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path
from types import ModuleType
from typing import Any

import app.bots
import app.games
from app.games import Match

BOTS = Path(app.bots.__file__).parent
COPY_CLASSES = ("Round", "Deal")  # the names the lean copies had
# the hooks a game implements
HOOKS = ("_to_act", "_view", "_actions", "_permits", "_perform", "_spelled")
OWN_RULES = ("legal", "resolve", "resolve_trick")  # what a copy of a game would define


def engine_modules() -> list[ModuleType]:
    return [importlib.import_module(f"app.games.{found.name}")
            for found in pkgutil.iter_modules(app.games.__path__)]


def engine_methods() -> set[str]:
    """The methods a match answers with: every public one of ``Match`` and the
    hooks a game implements."""
    public = {name for name, value in vars(Match).items() if not name.startswith("_")
              and (inspect.isfunction(value)
                   or isinstance(value, (classmethod, staticmethod, property)))}
    return public | set(HOOKS) | set(OWN_RULES)


def engine_functions(modules: list[ModuleType]) -> set[str]:
    """The public functions the engine modules define themselves."""
    return {name for module in modules for name, value in vars(module).items()
            if inspect.isfunction(value) and value.__module__ == module.__name__
            and not name.startswith("_")}


def engine_constants(modules: list[ModuleType]) -> dict[str, Any]:
    """``module.NAME -> value`` of the engines' UPPER_CASE data (not flags)."""
    out: dict[str, Any] = {}
    for module in modules:
        for name, value in vars(module).items():
            if name.isupper() and isinstance(value, (str, int, list, tuple, dict, set,
                                                     frozenset)) \
                    and not isinstance(value, bool):
                out[f"{module.__name__}.{name}"] = value
    return out


def _key(kind: str, items: Any) -> tuple[str, tuple[str, ...]]:
    return kind, tuple(repr(x) for x in items)


def _as_set(items: Any) -> tuple[str, tuple[str, ...]]:
    return "set", tuple(sorted({repr(x) for x in items}))


def _shape(value: Any) -> tuple[str, tuple[str, ...]]:
    """A literal's value, comparable with the engines' (order kept for sequences)."""
    if isinstance(value, dict):
        return "dict", tuple(sorted(repr(item) for item in value.items()))
    if isinstance(value, (set, frozenset)):
        return _as_set(value)
    return _key("seq", value)


def engine_shapes(constants: dict[str, Any]) -> dict[tuple[str, tuple[str, ...]], str]:
    """Every container of the engines' data, and every run of two or more entries of
    a sequence (the ranks of an order), its keys, and its entries as a set; each
    with the constant it comes from."""
    shapes: dict[tuple[str, tuple[str, ...]], str] = {}
    for name, value in constants.items():
        if not isinstance(value, (list, tuple, dict, set, frozenset)) or len(value) < 2:
            continue
        entries = list(value)
        if isinstance(value, (list, tuple)):
            for i in range(len(entries)):
                for j in range(i + 2, len(entries) + 1):
                    shapes.setdefault(_key("seq", entries[i:j]), name)
        elif isinstance(value, dict):
            shapes.setdefault(_shape(value), name)
            shapes.setdefault(_key("seq", entries), name)
        shapes.setdefault(_as_set(entries), name)
    return shapes


def deck_cards(constants: dict[str, Any]) -> set[str]:
    """Every card code of every game's deck or pack."""
    cards: set[str] = set()
    for name, value in constants.items():
        short = name.rsplit(".", 1)[1]
        if ("DECK" in short or "PACK" in short) and isinstance(value, (list, tuple)):
            cards |= {c for c in value if isinstance(c, str)}
    return cards


def restated(source: str, where: str, modules: list[ModuleType] | None = None) -> list[str]:
    """What ``source`` (a module of the bots) restates of the engines' rules."""
    modules = engine_modules() if modules is None else modules
    methods = engine_methods()
    functions = engine_functions(modules)
    constants = engine_constants(modules)
    shapes = engine_shapes(constants)
    cards = deck_cards(constants)
    found: list[str] = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            if node.name in COPY_CLASSES or node.name.endswith("Match"):
                found.append(f"{where}:{node.lineno} class {node.name}: a copy of the game")
            own = sorted(m.name for m in node.body
                         if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))
                         and m.name in methods)
            if own:
                found.append(f"{where}:{node.lineno} class {node.name} defines {own}, "
                             "as the engine's match does")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.name in functions:
                found.append(f"{where}:{node.lineno} def {node.name}: the engine has it")
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)):
            try:
                value = ast.literal_eval(node)
            except ValueError:
                continue
            if len(value) < 2:
                continue
            same = shapes.get(_shape(value))
            if same is None and not isinstance(value, dict):
                same = shapes.get(_as_set(value))
            if same is not None:
                found.append(f"{where}:{node.lineno} {value!r} is {same}'s")
            elif not isinstance(value, dict) and all(
                    isinstance(c, str) and c in cards for c in value):
                found.append(f"{where}:{node.lineno} {value!r}: cards written out")
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id.isupper():
            try:
                value = ast.literal_eval(node.value)
            except ValueError:
                continue
            name = node.targets[0].id
            for full, theirs in constants.items():
                if full.rsplit(".", 1)[1] == name and theirs == value:
                    found.append(f"{where}:{node.lineno} {name} = {full}")
    return found


def test_nothing_under_app_bots_restates_a_rule() -> None:
    modules = engine_modules()
    found = []
    for path in sorted(BOTS.rglob("*.py")):
        found += restated(path.read_text(encoding="utf-8"),
                          str(path.relative_to(BOTS.parent.parent)), modules)
    assert not found, "rules restated under app/bots (import them from app.games):\n" \
        + "\n".join(found)


def test_the_checks_find_a_copy_of_the_rules() -> None:
    """Each check finds what it is for (so the test above is not passing idly)."""
    copies = {
        "class Round:\n    pass": "a copy of the game",
        "class Table:\n    def apply(self, seat, action): ...": "as the engine's match does",
        "class Lean:\n    def legal_actions(self, seat): ...": "as the engine's match does",
        "class Lean:\n    def _actions(self, seat): ...": "as the engine's match does",
        "def resolve_trick(plays, last): ...": "the engine has it",
        "def follow_suit(hand, led, suit_of): ...": "the engine has it",
        "TOP = ('O', 'U')": "SCHAFKOPF_RANKS",  # a run of the engine's rank order
        "HOUSE_RULES = ('knock', 'quartets', 'belli', 'weli')": "HOUSE_RULES",
        "PACK = ['EO', 'GO', 'HO', 'SO']": "cards written out",
        "SIZE = {3: 10, 4: 8}": "HAND_SIZE",
    }
    modules = engine_modules()
    for source, finding in copies.items():
        found = restated(source, "copy.py", modules)
        assert any(finding in f for f in found), (source, found)
    plain = ("WEIGHT = 0.5\nNAMES = ['Alois', 'Burgl']\n"
             "class Search:\n    def rollout(self, match, action): ...")
    assert restated(plain, "plain.py", modules) == []
