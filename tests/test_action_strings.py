"""An action string is taken apart in one place (issue 26, actions typed at the edge):
the kinds of ``app/games/actions.py`` read and spell their own strings and a game's
``Parser`` (``app/games/base.py``) reads with them. Nothing else in ``app`` or in the
templates spells an action's prefix (``"play:"``, ``"lay:"`` ...) or splits a string
at a colon: engines, bots, rooms and pages work on typed actions, and strings stay
the wire and log format."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from app.games.actions import Action

ROOT = Path(__file__).resolve().parents[1]
ACTIONS = ROOT / "app" / "games" / "actions.py"
PARSER = ("app/games/base.py", "meant")  # the kind a string that spells none seems meant as
# an example of the API's documentation (app/web/api.py), not an action taken apart
EXAMPLES = {("app/web/api.py", "play:EO")}


def kinds(cls: type[Action] = Action) -> list[type[Action]]:
    out: list[type[Action]] = []
    for sub in cls.__subclasses__():
        out += [sub, *kinds(sub)]
    return out


PREFIXES = sorted({getattr(k, "prefix", "") for k in kinds()} - {""})


def _function_of(tree: ast.AST, node: ast.AST) -> str | None:
    for func in ast.walk(tree):
        if isinstance(func, ast.FunctionDef) and any(n is node for n in ast.walk(func)):
            return func.name
    return None


def findings(path: Path, source: str) -> list[str]:
    """Action prefixes spelled and colon splits in one module's source."""
    where = str(path.relative_to(ROOT)) if path.is_absolute() else str(path)
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            spelled = [p for p in PREFIXES if node.value.startswith(p)]
            if spelled and (where, node.value) not in EXAMPLES:
                found.append(f"{where}:{node.lineno} spells {node.value!r}")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("split", "rsplit", "partition", "rpartition")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and node.args[0].value == ":"
            and (where, _function_of(tree, node)) != PARSER
        ):
            found.append(f"{where}:{node.lineno} splits at a colon")
    return found


def template_findings(path: Path, text: str) -> list[str]:
    """Action prefixes written in a template (outside its comments)."""
    text = re.sub(r"\{#.*?#\}", "", text, flags=re.S)
    where = str(path.relative_to(ROOT))
    return [f"{where} spells {p!r}" for p in PREFIXES if re.search(r"[\"']" + re.escape(p), text)]


def test_the_kinds_are_found() -> None:
    assert {"play:", "lay:", "skip:", "exchange:", "challenge:"} <= set(PREFIXES)


def test_nothing_but_the_kinds_and_the_parser_takes_an_action_string_apart() -> None:
    found = []
    for path in sorted((ROOT / "app").rglob("*.py")):
        if path != ACTIONS:
            found += findings(path, path.read_text(encoding="utf-8"))
    for path in sorted((ROOT / "templates").rglob("*.html")):
        found += template_findings(path, path.read_text(encoding="utf-8"))
    assert not found, "\n".join(found)


def test_the_checks_find_a_string_taken_apart() -> None:
    """Each check finds what it is for (the test above does not pass idly)."""
    samples = {
        'cards = [a[5:] for a in legal if a.startswith("play:")]': "spells 'play:'",
        'return "lay:" + card': "spells 'lay:'",
        "kind, _, arg = action.partition(':')": "splits at a colon",
        "body = action.split(':', 1)[1]": "splits at a colon",
    }
    for source, finding in samples.items():
        found = findings(Path("app/bots/sample.py"), source)
        assert any(finding in f for f in found), (source, found)
    assert findings(Path("app/bots/sample.py"), "name = host.split('.')") == []
    page = ROOT / "templates" / "sample.html"
    assert template_findings(page, '{% set a = "lay:" ~ code %}') == [
        "templates/sample.html spells 'lay:'"
    ]
    assert template_findings(page, '{# sends one "lay:<card>" per card #}') == []
