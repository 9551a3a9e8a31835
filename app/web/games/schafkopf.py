"""Schafkopf at the table: Bavarian suits, rotating trump suit, two fixed teams."""

from __future__ import annotations

from app.games.cards import SCHAFKOPF_DECK
from app.i18n import N_, _
from app.web.presentation import (
    Event,
    Face,
    Presentation,
    Reads,
    View,
    deal_begun,
    facts,
    together,
    trick_parts,
)

SUITS = {"E": ("eichel", N_("Eichel")), "G": ("gras", N_("Gras")),
         "H": ("herz", N_("Herz")), "S": ("schellen", N_("Schellen"))}
# A card's name keeps the Bavarian words players know from the cards (the suits,
# Ober, Unter, Sau) in every language; in English the other ranks are English and
# the name says what its suit means: "Eichel Ober (acorns)", "Gras Ten (leaves)".
# German names it "Eichel-Ober", "Gras-Zehner". A suit on its own is its name alone.
NAMES = {"E": N_("Eichel {rank} (acorns)"), "G": N_("Gras {rank} (leaves)"),
         "H": N_("Herz {rank} (hearts)"), "S": N_("Schellen {rank} (bells)")}
RANKS = {"A": N_("Sau"), "10": N_("Ten"), "K": N_("King"), "O": N_("Ober"),
         "U": N_("Unter"), "9": N_("Nine"), "8": N_("Eight"), "7": N_("Seven")}
# partners sit opposite each other (the engine's view says so as ``teams``)
TEAMS = ((0, 2), (1, 3))


def face(code: str) -> Face:
    suit, rank = code[0], code[1:]
    symbol, _suit_name = SUITS[suit]
    title = _(NAMES[suit]).format(rank=_(RANKS[rank]))
    return Face(code, rank, symbol, f"sk-{symbol}", title, art=f"schafkopf.svg#{code}")


def trump(code: str, view: View) -> bool:
    return bool(view.get("trump")) and code[0] == view["trump"]


def sentence(event: Event, names: list[str]) -> str | None:
    if event.get("type") == "deal_end":
        teams = event.get("teams") or TEAMS
        points, units = event["points"], event["total_units"]
        return _("Deal {no} ends {p0}:{p1} ({team0} against {team1}); units {u0}:{u1}.").format(
            no=event.get("deal_no"), p0=points[0], p1=points[1],
            team0=together(names, teams[0]), team1=together(names, teams[1]),
            u0=units[0], u1=units[1])
    return None


PRESENTATION = Presentation(
    game="schafkopf",
    face=face,
    deck=frozenset(SCHAFKOPF_DECK),
    suit_names={code: name for code, (_symbol, name) in SUITS.items()},
    trump=trump,
    sentence=sentence,
    score_measure=N_("units"),
    extras={"teams": TEAMS},
    reads={
        "board": Reads(view=("last_deal", "teams", "tricks_won"),
                       parts=trick_parts("trump")),
        "status": Reads(view=("phase", "trick", "turn"),
                        parts=facts("schafkopf", "deal_no", "target", "teams", "trump", "units")),
        "actions": Reads(),
        "hand": Reads(view=("hand", "trump")),
        "result": Reads(view=("last_deal", "phase", "results", "teams",
                              "units", "winners"), derived=deal_begun),
    },
)
