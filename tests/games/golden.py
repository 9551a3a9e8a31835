"""Golden playthroughs (after OpenSpiel): a recorded seeded match, step by step,
with every seat's view and legal actions. Replaying it catches any change of rules
or any leak into a view. Regenerate a file on purpose with
``python -m tests.games.golden <name>`` after a deliberate rules change, then read
the diff before committing it.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from app.games import new_match

GOLDEN_DIR = Path(__file__).parent / "golden"

# name -> how the recorded match is set up; the actions are picked by a seeded RNG
# at record time and then stored, so replay does not depend on that picking.
CASES: dict[str, dict[str, Any]] = {}


def register(name: str, *, game: str, players: int, options: dict[str, Any], seed: int,
             pick_seed: int, steps: int, deals: list[Any] | None = None) -> None:
    CASES[name] = dict(game=game, players=players, options=options, seed=seed,
                       pick_seed=pick_seed, steps=steps, deals=deals)


def _frame(m: Any) -> dict[str, Any]:
    return {
        "to_act": sorted(m.to_act()),
        "views": [m.view(None)] + [m.view(s) for s in range(m.players)],
        "legal": [m.legal_actions(s) for s in range(m.players)],
    }


def record(name: str) -> dict[str, Any]:
    case = CASES[name]
    m = new_match(case["game"], case["players"], case["options"], seed=case["seed"],
                  deals=case["deals"])
    pick = random.Random(case["pick_seed"])
    steps: list[dict[str, Any]] = []
    frame = _frame(m)
    for _ in range(case["steps"]):
        if m.is_over:
            break
        seat = pick.choice(frame["to_act"])
        action = pick.choice(frame["legal"][seat])
        events = m.apply(seat, action)
        frame = _frame(m)
        steps.append({"seat": seat, "action": action, "events": events, **frame})
    setup = {k: case[k] for k in ("game", "players", "options", "seed", "deals")}
    return {"setup": setup, "start": _frame(new_match(
        case["game"], case["players"], case["options"], seed=case["seed"], deals=case["deals"])),
        "steps": steps}


def path_of(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.json"


def write(name: str) -> None:
    data = record(name)
    path_of(name).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")


def replay(name: str) -> None:
    """Replay a golden file and assert every frame is identical."""
    data = json.loads(path_of(name).read_text())
    setup = data["setup"]
    m = new_match(setup["game"], setup["players"], setup["options"], seed=setup["seed"],
                  deals=setup["deals"])
    assert json.loads(json.dumps(_frame(m))) == data["start"]
    for i, step in enumerate(data["steps"]):
        events = m.apply(step["seat"], step["action"])
        got = json.loads(json.dumps({"events": events, **_frame(m)}))
        want = {k: step[k] for k in ("events", "to_act", "views", "legal")}
        assert got == want, f"step {i} ({step['seat']} {step['action']}) differs"


if __name__ == "__main__":
    # import the module under its real name so the registrations land in its CASES
    import tests.games.goldens  # noqa: F401
    from tests.games import golden

    for arg in sys.argv[1:]:
        golden.write(arg)
        print("wrote", golden.path_of(arg))
