"""A finished match, step by step, told from the public events only.

The action log stores the events each action caused; by the engine contract
events are public (no face-down card, no hand). The replay is built from nothing
else, so it cannot show what the table did not see: no hands, no card that was set
aside or laid face down and never turned over.

The sentences come from the game's presentation (:mod:`app.web.games`). Each step
knows its deal, so the replay page can hold one deal's steps at a time and step
through them in the browser (``static/js/replay.js``), fetching another deal's steps
(:func:`deal_steps`) only when the viewer moves there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.db.repo import DealInfo, LoggedAction
from app.i18n import _
from app.rooms.quotas import NOBODY_PLAYS_ON_ACTION
from app.web.presentation import presentation
from app.web.settlement import SettledDeal, from_event, in_money


@dataclass
class Step:
    seq: int
    lines: list[str]
    trick: list[tuple[str, str, str]] = field(default_factory=list)  # name, code, title
    revealed: list[str] = field(default_factory=list)
    scores: list[int] | None = None
    deal_no: int = 1  # the deal it belongs to (a deal's end belongs to that deal)
    index: int = 0  # its place in the match, from 0 (the URL's ?step=)
    # a game paid in cents: the settlement of the deal this step ends
    settled: SettledDeal | None = None


@dataclass(frozen=True)
class DealSpan:
    """One deal's steps: ``steps[first:first + count]``."""

    deal_no: int
    first: int
    count: int


def deals(steps: list[Step]) -> list[DealSpan]:
    """The deals of a replay, in order, with where their steps are."""
    spans: list[DealSpan] = []
    for step in steps:
        if spans and spans[-1].deal_no == step.deal_no:
            last = spans[-1]
            spans[-1] = DealSpan(last.deal_no, last.first, last.count + 1)
        else:
            spans.append(DealSpan(step.deal_no, step.index, 1))
    return spans


def hints_used(deals: list[DealInfo], names: list[str]) -> dict[int, str]:
    """The deals where somebody was shown a hint (a practice table): deal number ->
    their names, from each deal's stored result (``"hints"``)."""
    out: dict[int, str] = {}
    for deal in deals:
        seats = [s for s in deal.result.get("hints") or [] if isinstance(s, int)
                 and 0 <= s < len(names)]
        if seats:
            out[deal.deal_no] = ", ".join(names[s] for s in seats)
    return out


def deal_steps(steps: list[Step], deal_no: int) -> list[Step]:
    return [s for s in steps if s.deal_no == deal_no]


def describe(game: str, event: dict[str, Any], names: list[str]) -> str | None:
    """One public event as a sentence (None for bookkeeping events)."""
    return presentation(game).describe(event, names)


def build(game: str, log: list[LoggedAction], names: list[str]) -> list[Step]:
    p = presentation(game)
    money = in_money(game)
    steps: list[Step] = []
    trick: list[tuple[str, str, str]] = []
    complete = False
    deal_no = 1
    for entry in log:
        lines: list[str] = []
        revealed: list[str] = []
        scores: list[int] | None = None
        settled: SettledDeal | None = None
        # a step that ends a deal belongs to it; one that only deals the next, to that
        ended = [e.get("deal_no") for e in entry.events if e.get("type") == "deal_end"]
        dealt = [e.get("deal_no") for e in entry.events if e.get("type") == "deal"]
        mine = int(ended[0]) if ended and ended[0] else (
            int(dealt[0]) if dealt and dealt[0] else deal_no)
        if entry.action == "start":
            lines.append(_("The match starts."))
        elif entry.action == "end_game":
            lines.append(_("The host ends the game."))
        elif entry.action == NOBODY_PLAYS_ON_ACTION:
            lines.append(_("Only bots could play on, so the game ends."))
        for event in entry.events:
            kind = event.get("type")
            if kind == "play":
                if complete:
                    trick, complete = [], False
                trick = [*trick, (names[event["seat"]], event["card"],
                                  p.card_title(event["card"]))]
            elif kind == "trick":
                complete = True
            elif kind == "deal_end":
                scores = list(event.get("scores") or [])
                if money:
                    settled = from_event(event, len(names))
            if "revealed" in event:  # cards a challenge turned over
                revealed = [p.card_title(c) for c in event.get("revealed", [])]
            text = p.describe(event, names)
            if text:
                lines.append(text)
        # the step that ends a deal shows its last trick; one that only deals, none
        shown = [] if dealt and not ended else list(trick)
        steps.append(Step(seq=entry.seq, lines=lines, trick=shown, revealed=revealed,
                          scores=scores, deal_no=mine, index=len(steps), settled=settled))
        deal_no = int(dealt[-1]) if dealt and dealt[-1] else mine
        if dealt:  # the next deal starts with an empty board
            trick, complete = [], False
    return steps
