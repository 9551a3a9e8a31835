"""A finished match, step by step, told from the public events only.

The action log stores the events each action caused; by the engine contract
events are public (no face-down card, no hand). The replay is built from nothing
else, so it cannot show what the table did not see: no hands, no card that was set
aside or laid face down and never turned over.

The sentences come from the game's presentation (:mod:`app.web.games`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.db.repo import LoggedAction
from app.i18n import _
from app.web.presentation import presentation


@dataclass
class Step:
    seq: int
    lines: list[str]
    trick: list[tuple[str, str, str]] = field(default_factory=list)  # name, code, title
    revealed: list[str] = field(default_factory=list)
    scores: list[int] | None = None


def describe(game: str, event: dict[str, Any], names: list[str]) -> str | None:
    """One public event as a sentence (None for bookkeeping events)."""
    return presentation(game).describe(event, names)


def build(game: str, log: list[LoggedAction], names: list[str]) -> list[Step]:
    p = presentation(game)
    steps: list[Step] = []
    trick: list[tuple[str, str, str]] = []
    complete = False
    for entry in log:
        lines: list[str] = []
        revealed: list[str] = []
        scores: list[int] | None = None
        if entry.action == "start":
            lines.append(_("The match starts."))
        elif entry.action == "end_game":
            lines.append(_("The host ends the game."))
        for event in entry.events:
            kind = event.get("type")
            if kind == "play":
                if complete:
                    trick, complete = [], False
                trick = [*trick, (names[event["seat"]], event["card"],
                                  p.card_title(event["card"]))]
            elif kind == "trick":
                complete = True
            elif kind == "deal":
                trick, complete = [], False
            elif kind == "deal_end":
                scores = list(event.get("scores") or [])
            if "revealed" in event:  # cards a challenge turned over
                revealed = [p.card_title(c) for c in event.get("revealed", [])]
            text = p.describe(event, names)
            if text:
                lines.append(text)
        steps.append(Step(seq=entry.seq, lines=lines, trick=list(trick), revealed=revealed,
                          scores=scores))
    return steps
