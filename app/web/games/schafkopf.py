"""Schafkopf at the table: Bavarian suits, rotating trump suit, two fixed teams."""

from __future__ import annotations

from app.games.cards import SCHAFKOPF_DECK
from app.i18n import N_, _
from app.web.presentation import Event, Face, Presentation, View, together

SUITS = {"E": ("eichel", N_("Eichel")), "G": ("gras", N_("Gras")),
         "H": ("herz", N_("Herz")), "S": ("schellen", N_("Schellen"))}
RANKS = {"A": N_("Sau"), "10": N_("Zehn"), "K": N_("König"), "O": N_("Ober"),
         "U": N_("Unter"), "9": N_("Neun"), "8": N_("Acht"), "7": N_("Sieben")}
# partners sit opposite each other (the engine's view says so as ``teams``)
TEAMS = ((0, 2), (1, 3))


def face(code: str) -> Face:
    suit, rank = code[0], code[1:]
    symbol, suit_name = SUITS[suit]
    title = _("{suit}-{rank}").format(suit=_(suit_name), rank=_(RANKS[rank]))
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
)
