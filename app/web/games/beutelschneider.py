"""Beutelschneider at the table: four coloured suits, the blue trump court."""

from __future__ import annotations

from typing import Any

from app.games.beutelschneider import DECK
from app.i18n import N_, _
from app.web.presentation import (
    Event,
    Face,
    Presentation,
    Reads,
    View,
    deal_begun,
    facts,
    seat_name,
    trick_parts,
)

SUITS = {"g": ("green", N_("green")), "y": ("yellow", N_("yellow")),
         "r": ("red", N_("red")), "b": ("blue", N_("blue"))}
# the court and the Beutelschneider: (corner label, name)
POWERS = {"rX": ("✂", N_("Beutelschneider")), "bG": ("G", N_("Guard")),
          "bM": ("M", N_("Assassin")), "bA": ("A", N_("Adventurer")),
          "bC": ("C", N_("Countess")), "bF": ("F", N_("Sovereign"))}
# the letter cards of the coloured suits (the letters are the German names' initials)
RANKS = {"B": N_("Beggar"), "S": N_("Barmaid"), "W": N_("Landlord"), "K": N_("Merchant")}


def face(code: str) -> Face:
    suit, rank = code[0], code[1:]
    colour, suit_name = SUITS[suit]
    art = f"beutelschneider.svg#{code}"
    if code in POWERS:
        label, name = POWERS[code]
        return Face(code, label, "", f"bs-{colour} bs-power", _(name), art=art, name=_(name))
    if rank in RANKS:
        name = _(RANKS[rank])
        title = _("{suit} {rank}").format(suit=_(suit_name), rank=name)
        return Face(code, rank, "", f"bs-{colour}", title, center="●", art=art, name=name)
    title = _("{suit} {rank}").format(suit=_(suit_name), rank=rank)
    return Face(code, rank, "", f"bs-{colour}", title, center="●", art=art)


def trump(code: str, view: View) -> bool:
    return code[0] == "b"


def power_sentence(event: Event, names: list[str]) -> str:
    """A power that fired in a trick, from its kind and cards (not the engine's text)."""
    power = event.get("power")
    who = seat_name(event, names)
    if power == "assassin":
        return _("{who}'s Assassin kills the Sovereign.").format(who=who)
    if power == "guard":
        return _("{who}'s Guard cancels the Beutelschneider.").format(who=who)
    if power == "seduction":
        if event.get("card") == "bC":
            return _("{who}'s Countess seduces the Adventurer.").format(who=who)
        return _("{who}'s Adventurer seduces the Countess.").format(who=who)
    if power == "beutelschneider":
        return _("The Beutelschneider costs {who} 20 points.").format(
            who=seat_name(event, names, "target_seat"))
    return ""


def sentence(event: Event, names: list[str]) -> str | None:
    kind = event.get("type")
    if kind == "power":
        return power_sentence(event, names)
    if kind == "tie":
        return _("A tie for the highest total: another deal is played.")
    if kind == "deal_end":
        totals = _(", ").join(_("{who} {total:+d}").format(who=names[s], total=t)
                              for s, t in enumerate(event["hand_totals"]))
        return _("Deal {no} ends: {totals}.").format(no=event.get("deal_no"), totals=totals)
    return None


def finished_trick(view: View) -> dict[str, Any]:
    """``finished_trick``: the trick just won, while no card of the next lies (its
    powers and bonuses are said under the trick)."""
    return {"finished_trick": view.get("last_trick") if not view.get("trick") else None}


PRESENTATION = Presentation(
    game="beutelschneider",
    face=face,
    deck=frozenset(DECK),
    suit_names={code: name for code, (_colour, name) in SUITS.items()},
    trump=trump,
    sentence=sentence,
    score_measure=N_("points"),
    reads={
        "board": Reads(view=("last_deal", "players", "tricks_won"), derived=finished_trick,
                       parts=trick_parts()),
        "status": Reads(view=("led_suit", "phase", "trick", "turn"),
                        parts=facts("beutelschneider", "deal_no", "set_aside", "target")),
        "actions": Reads(),
        "hand": Reads(view=("hand",)),
        "result": Reads(view=("last_deal", "phase", "players", "results", "scores",
                              "winners"), derived=deal_begun),
    },
)
