"""The import structure is a contract (pyproject.toml, ``[tool.importlinter]``),
checked by import-linter in ``make test`` (``make imports``) and here: the layers
main -> web -> rooms -> bots -> games with the database, settings and words below,
the rules importing nothing else of the server, the bots nothing but the rules, and
no import cycle inside app.rooms (a function-level import counts: the rematch's
import of the service was one)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")
CONTRACTS = ("Layers: main -> web -> rooms -> bots -> games",
             "The rules import nothing else of the server",
             "The bots import the rules and nothing below them",
             "No import cycles inside app.rooms")


def lint_imports(tree: Path) -> tuple[int, str]:
    done = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=tree, capture_output=True,
                          text=True, timeout=120, check=False)
    return done.returncode, done.stdout + done.stderr


def verdicts(output: str) -> dict[str, str]:
    """Each contract's name (its start) and KEPT or BROKEN, from the report."""
    found = {}
    for line in output.splitlines():
        for name in CONTRACTS:
            if line.startswith(name) and line.rstrip().endswith(("KEPT", "BROKEN")):
                found[name] = line.rsplit(" ", 1)[1]
    return found


def test_the_import_contracts_hold() -> None:
    code, output = lint_imports(ROOT)
    assert code == 0, output
    assert verdicts(output) == dict.fromkeys(CONTRACTS, "KEPT"), output


def _append(path: Path, line: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + line + "\n", encoding="utf-8")


def test_each_contract_finds_what_it_forbids(tmp_path: Path) -> None:
    """A copy of app with one forbidden import for each contract breaks all four."""
    shutil.copytree(ROOT / "app", tmp_path / "app",
                    ignore=shutil.ignore_patterns("__pycache__", "locale"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    app = tmp_path / "app"
    _append(app / "rooms" / "chat.py", "import app.web.pages")  # rooms -> web
    _append(app / "games" / "cards.py", "import app.i18n")  # the rules -> words
    _append(app / "bots" / "pool.py", "import app.config")  # the bots -> settings
    # the cycle there was: the rematch imported the service inside a function
    _append(app / "rooms" / "rematch.py",
            "\n\ndef _service() -> object:\n    from app.rooms.service import RoomService\n"
            "    return RoomService")
    code, output = lint_imports(tmp_path)
    assert code != 0
    assert verdicts(output) == dict.fromkeys(CONTRACTS, "BROKEN"), output
    assert "app.rooms.chat -> app.web.pages" in output
    assert "app.games.cards -> app.i18n" in output
    assert "app.bots.pool -> app.config" in output
    assert ".service -> .rematch" in output or ".rematch -> .service" in output
