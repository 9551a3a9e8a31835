"""The Hint panel of a practice table (issue 28): what the strong bot would do in the
asking person's seat now, drawn for that socket alone (``#hint`` of the table's
actions, ``hx-swap-oob``) in the game's words and the socket's language.

The panel names the bot's choice and the three options with the best estimates
(the choice always among them), each estimate in the game's measure
(:meth:`app.web.presentation.Presentation.measure`); where the bot answered without
weighing the options it says so and shows no number.
"""

from __future__ import annotations

from typing import Any

from app.bots.hint import HOUSE_RULES, top
from app.rooms.hints import Hint
from app.web.presentation import find
from app.web.render import env
from app.web.review import option_label

SHOWN = 3  # options shown with their estimates


def panel_context(hint: Hint) -> dict[str, Any]:
    """What the panel of ``hint`` is drawn from: labels in the game's words."""
    p = find(hint.game)
    shown = top(hint.options, hint.action, SHOWN)
    best = hint.options[0]["action"] if hint.options else hint.action
    return {
        "version": hint.version, "action": hint.action,
        "choice": option_label(hint.game, hint.action),
        "searched": hint.searched, "house": hint.why == HOUSE_RULES,
        "samples": hint.samples, "measure": p.measure() if p is not None else "",
        "kept_own": hint.searched and best != hint.action,
        "options": [{"label": option_label(hint.game, o["action"]),
                     "estimate": float(o["estimate"]), "chosen": o["action"] == hint.action}
                    for o in shown],
    }


def render_hint(hint: Hint) -> str:
    return env.get_template("table/hint.html").render(hint=panel_context(hint),
                                                       oob=True).strip()


def render_thinking(version: int) -> str:
    """The panel while the strong bot thinks."""
    return env.get_template("table/hint.html").render(hint=None, thinking=True,
                                                       version=version, oob=True).strip()


def render_cleared() -> str:
    """The panel emptied (a hint that is not shown)."""
    return env.get_template("table/hint.html").render(hint=None, thinking=False,
                                                       oob=True).strip()
