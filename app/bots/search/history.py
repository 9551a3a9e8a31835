"""What a seat has seen of the current deal, kept across its own turns.

A view shows the open trick and the last finished one, not every trick of the
deal. A seat that plays every trick sees each finished trick as ``last_trick`` at
its next turn, so remembering them from view to view rebuilds the whole deal's
play from public information only. If a view ever carries the finished tricks of
the deal itself (``tricks``), they are taken from there.

Lügenbeutel needs a different memory: the cards this seat laid face down in the
turn it is taking (views show only how many); the bot notes its own ``lay:`` actions.
"""

from __future__ import annotations

from typing import Any

from app.games import GAMES
from app.games.actions import Lay

Play = tuple[int, str]


def _plays(raw: Any) -> list[Play] | None:
    """``[{"seat", "card"}, ...]`` or ``[[seat, card], ...]`` as ``[(seat, card)]``."""
    if isinstance(raw, dict):
        raw = raw.get("plays")
    if not isinstance(raw, list):
        return None
    out: list[Play] = []
    for p in raw:
        if isinstance(p, dict) and "seat" in p and "card" in p:
            out.append((int(p["seat"]), str(p["card"])))
        elif isinstance(p, (list, tuple)) and len(p) == 2:
            out.append((int(p[0]), str(p[1])))
        else:
            return None
    return out


def finished_tricks(view: dict[str, Any]) -> int:
    """How many tricks of the current deal are finished (from public counts)."""
    won = view.get("tricks_won")
    return int(sum(won)) if isinstance(won, list) else 0


class History:
    """Public memory of one seat for the deal in progress."""

    def __init__(self) -> None:
        self.key: Any = None
        self.tricks: dict[int, list[Play]] = {}
        self.laid: list[str] = []  # Lügenbeutel: own cards of the turn in progress

    def _deal_key(self, view: dict[str, Any], seat: int | None = None) -> Any:
        return (view.get("game"), view.get("seat") if seat is None else seat,
                view.get("deal_no", view.get("round")))

    def observe(self, view: dict[str, Any], seat: int | None = None) -> None:
        """Remember what ``view`` shows; ``seat``: whose memory this is, when the view
        is the spectator's (everything remembered is public)."""
        key = self._deal_key(view, seat)
        if key != self.key:
            self.key = key
            self.tricks = {}
            self.laid = []
        listed = view.get("tricks")
        if isinstance(listed, list):
            for i, trick in enumerate(listed):
                plays = _plays(trick)
                if plays is not None:
                    self.tricks[i] = plays
        done = finished_tricks(view)
        last = _plays(view.get("last_trick"))
        if done > 0 and last:
            self.tricks[done - 1] = last
        if view.get("laid") == 0:
            self.laid = []

    def note_action(self, view: dict[str, Any], action: str) -> None:
        """Remember this seat's own face-down card (Lügenbeutel's Lay), from the
        action string it answered (read by its game)."""
        info = GAMES.get(str(view.get("game")))
        typed = info.match_class.parser.read(action) if info is not None else None
        if isinstance(typed, Lay) and len(self.laid) == int(view.get("laid") or 0):
            self.laid.append(typed.card)

    def deal_tricks(self, view: dict[str, Any]) -> list[list[Play]] | None:
        """Every finished trick of the deal in order, or None if one was missed."""
        if self._deal_key(view) != self.key:
            return None if finished_tricks(view) else []
        done = finished_tricks(view)
        if any(i not in self.tricks for i in range(done)):
            return None
        return [self.tricks[i] for i in range(done)]

    def own_laid(self, view: dict[str, Any]) -> list[str] | None:
        """The cards this seat laid in its turn in progress, if all are known."""
        if self._deal_key(view) != self.key:
            return None
        laid = int(view.get("laid") or 0)
        return list(self.laid) if len(self.laid) == laid else None

    def state(self) -> dict[str, Any]:
        """Plain data, to hand to another process."""
        return {"key": self.key, "tricks": {str(k): v for k, v in self.tricks.items()},
                "laid": list(self.laid)}

    @classmethod
    def from_state(cls, state: dict[str, Any] | None) -> History:
        h = cls()
        if state:
            key = state.get("key")
            h.key = tuple(key) if isinstance(key, list) else key
            h.tricks = {int(k): [(int(s), str(c)) for s, c in v]
                        for k, v in (state.get("tricks") or {}).items()}
            h.laid = list(state.get("laid") or [])
        return h
