"""A finished match, step by step, told from the public events only.

The action log stores the events each action caused; by the engine contract
events are public (no face-down card, no hand). The replay is built from nothing
else, so it cannot show what the table did not see: not the hands, not the cards
set aside in Beutelschneider, not a Lügenbeutel card that was never turned over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.db.repo import LoggedAction
from app.web.cards import face

MAUSCHELN_DEAL_KINDS = {
    "played": "played out", "thrown_in": "thrown in (nobody played)",
    "all_folded": "everybody folded: the sneaker takes the pot",
    "cancelled": "called off by the host",
}


@dataclass
class Step:
    seq: int
    lines: list[str]
    trick: list[tuple[str, str, str]] = field(default_factory=list)  # name, code, title
    revealed: list[str] = field(default_factory=list)
    scores: list[int] | None = None


def _card(game: str, code: str) -> str:
    return face(game, code).title


def _names(names: list[str], seats: list[int]) -> str:
    return " & ".join(names[s] for s in seats)


def describe(game: str, event: dict[str, Any], names: list[str]) -> str | None:
    """One public event as a sentence (None for bookkeeping events)."""
    kind = event.get("type")
    who = names[event["seat"]] if isinstance(event.get("seat"), int) else ""
    if kind == "play":
        return f"{who} plays {_card(game, event['card'])}."
    if kind == "trick":
        points = f" ({event['points']} points)" if "points" in event else ""
        return f"{names[event['winner']]} takes the trick{points}."
    if kind == "power":
        return str(event.get("text", "")).capitalize() + "."
    if kind == "deal":
        trump = f", trump {event['trump']}" if "trump" in event else ""
        return f"Deal {event['deal_no']}: {names[event['dealer']]} deals{trump}."
    if kind == "round":
        return f"Round {event['round']}: {names[event['dealer']]} deals."
    if kind == "deal_end":
        return _deal_end(game, event, names)
    if kind == "round_end":
        return (f"{names[event['winner']]} wins round {event['round']} and scores "
                f"{event['points'][event['winner']]}.")
    if kind == "match_end":
        verb = "wins" if len(event["winners"]) == 1 else "win"
        return f"{_names(names, event['winners'])} {verb} the match."
    if kind == "tie":
        return "A tie for the highest total: another hand is played."
    if kind == "bid":
        return f"{who}: {'Mauschel!' if event['bid'] == 'mauschel' else 'pass'}."
    if kind == "answer":
        return f"{who} {'joins' if event['answer'] == 'join' else 'folds'}."
    if kind == "knock":
        return f"{who} {'knocks' if event['decision'] == 'knock' else 'does not knock'}."
    if kind == "quartet":
        return f"{who} shows a quartet and pays {event.get('paid', 0)} into the pot."
    if kind == "exchange":
        return f"{who} exchanges {event['discarded']} card{'s' if event['discarded'] != 1 else ''}."
    if kind == "lay":
        return f"{who} lays a card face down as {event['number']}."
    if kind == "skip":
        return f"{who} skips with a face-down Aussetzen."
    if kind == "pass":
        return f"{who} passes and draws a card."
    if kind == "end":
        return f"{who} ends the turn ({event.get('count', 0)} face down)."
    if kind == "last_card":
        return f"{who} has no cards left."
    if kind == "accept":
        return f"{who} lets it stand."
    if kind == "challenge":
        caught = "a lie" if event["caught"] else "true"
        return (f"{names[event['challenger']]} calls “Lügenbeutel!” on "
                f"{names[event['accused']]}: {caught}.")
    if kind == "die":
        return f"{who} rolls a {event['die']}."
    if kind == "draw":
        return f"{who} draws {event['count']}."
    if kind == "reshuffle":
        return "After the 10 the pile is shuffled into a new stock."
    return None


def _deal_end(game: str, event: dict[str, Any], names: list[str]) -> str:
    no = event.get("deal_no")
    if game == "schafkopf":
        p = event["points"]
        return (f"Deal {no} ends {p[0]}:{p[1]} ({_names(names, [0, 2])} against "
                f"{_names(names, [1, 3])}); units {event['total_units'][0]}:"
                f"{event['total_units'][1]}.")
    if game == "beutelschneider":
        totals = ", ".join(f"{names[s]} {t:+d}" for s, t in enumerate(event["hand_totals"]))
        return f"Hand {no} ends: {totals}."
    if game == "mauscheln":
        moves = ", ".join(f"{names[t['seat']]} {t['amount']:+d} ({t['reason']})"
                          for t in event.get("transfers", []))
        kind = MAUSCHELN_DEAL_KINDS.get(event.get("kind", ""), event.get("kind", ""))
        return f"Deal {no} {kind}." + (f" Chips: {moves}." if moves else "")
    return f"Deal {no} ends."


def build(game: str, log: list[LoggedAction], names: list[str]) -> list[Step]:
    steps: list[Step] = []
    trick: list[tuple[str, str, str]] = []
    complete = False
    for entry in log:
        lines: list[str] = []
        revealed: list[str] = []
        scores: list[int] | None = None
        if entry.action == "start":
            lines.append("The match starts.")
        elif entry.action == "end_game":
            lines.append("The host ends the game.")
        for event in entry.events:
            kind = event.get("type")
            if kind == "play":
                if complete:
                    trick, complete = [], False
                trick = [*trick, (names[event["seat"]], event["card"],
                                  _card(game, event["card"]))]
            elif kind == "trick":
                complete = True
            elif kind in ("deal", "round"):
                trick, complete = [], False
            elif kind == "challenge":
                revealed = [_card(game, c) for c in event.get("revealed", [])]
            if kind in ("deal_end", "round_end"):
                scores = list(event.get("chips") or event.get("totals")
                              or event.get("scores") or event.get("total_units") or [])
            text = describe(game, event, names)
            if text:
                lines.append(text)
        steps.append(Step(seq=entry.seq, lines=lines, trick=list(trick), revealed=revealed,
                          scores=scores))
    return steps
