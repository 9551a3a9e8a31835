"""Beutelschneider at the table: four coloured suits, the blue trump court."""

from __future__ import annotations

from app.i18n import N_, _
from app.web.presentation import Event, Face, Presentation, View

SUITS = {"g": ("green", N_("green")), "y": ("yellow", N_("yellow")),
         "r": ("red", N_("red")), "b": ("blue", N_("blue"))}
# the court and the Beutelschneider: (corner label, name)
POWERS = {"rX": ("✂", N_("Beutelschneider")), "bG": ("G", N_("Guard")),
          "bM": ("M", N_("Assassin")), "bA": ("A", N_("Adventurer")),
          "bC": ("C", N_("Countess")), "bF": ("F", N_("Sovereign"))}
RANKS = {"B": N_("B"), "S": N_("S"), "W": N_("W"), "K": N_("K")}


def face(code: str) -> Face:
    suit, rank = code[0], code[1:]
    colour, suit_name = SUITS[suit]
    if code in POWERS:
        label, name = POWERS[code]
        return Face(code, label, "", f"bs-{colour} bs-power", _(name))
    rank_name = _(RANKS[rank]) if rank in RANKS else rank
    title = _("{suit} {rank}").format(suit=_(suit_name), rank=rank_name)
    return Face(code, rank, "", f"bs-{colour}", title, center="●")


def trump(code: str, view: View) -> bool:
    return code[0] == "b"


def sentence(event: Event, names: list[str]) -> str | None:
    kind = event.get("type")
    if kind == "power":
        return str(event.get("text", "")).capitalize() + "."
    if kind == "tie":
        return _("A tie for the highest total: another hand is played.")
    if kind == "deal_end":
        totals = _(", ").join(_("{who} {total:+d}").format(who=names[s], total=t)
                              for s, t in enumerate(event["hand_totals"]))
        return _("Hand {no} ends: {totals}.").format(no=event.get("deal_no"), totals=totals)
    return None


PRESENTATION = Presentation(
    game="beutelschneider",
    face=face,
    suit_names={code: name for code, (_colour, name) in SUITS.items()},
    trump=trump,
    sentence=sentence,
    score_measure=N_("points"),
)
