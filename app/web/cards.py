"""How a card code looks on the table: rank text, suit symbol and colour class.

Only codes the viewer may see ever reach these functions; a face-down card is
rendered as a back without any code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Face:
    code: str
    rank: str  # big text in the corner
    suit: str  # a symbol id in static/img/suits.svg, or "" for none
    colour: str  # css class
    title: str  # readable name (tooltip and screen readers)
    center: str = ""  # big text in the middle when there is no suit picture


SK_SUITS = {"E": ("eichel", "Eichel"), "G": ("gras", "Gras"), "H": ("herz", "Herz"),
            "S": ("schellen", "Schellen")}
SK_RANKS = {"A": "Sau", "10": "Zehn", "K": "König", "O": "Ober", "U": "Unter",
            "9": "Neun", "8": "Acht", "7": "Sieben"}

BS_SUITS = {"g": ("green", "green"), "y": ("yellow", "yellow"), "r": ("red", "red"),
            "b": ("blue", "blue")}
BS_NAMES = {"rX": "Beutelschneider", "bG": "Guard", "bM": "Assassin",
            "bA": "Adventurer", "bC": "Countess", "bF": "Sovereign",
            "B": "B", "S": "S", "W": "W", "K": "K"}

FR_SUITS = {"S": ("spade", "♠", "spades"), "H": ("heart", "♥", "hearts"),
            "D": ("diamond", "♦", "diamonds"), "C": ("club", "♣", "clubs")}
FR_RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}

LB_NAMES = {"J": "Joker", "L": "Lügenbeutel", "A": "Aussetzen"}


def schafkopf_face(code: str) -> Face:
    suit, rank = code[0], code[1:]
    symbol, suit_name = SK_SUITS[suit]
    return Face(code, rank, symbol, f"sk-{symbol}", f"{suit_name}-{SK_RANKS[rank]}")


def beutelschneider_face(code: str) -> Face:
    suit, rank = code[0], code[1:]
    colour, suit_name = BS_SUITS[suit]
    if code in BS_NAMES:
        title = BS_NAMES[code]
        label = {"rX": "✂", "bG": "G", "bM": "M", "bA": "A", "bC": "C", "bF": "F"}[code]
        return Face(code, label, "", f"bs-{colour} bs-power", title)
    return Face(code, rank, "", f"bs-{colour}", f"{suit_name} {BS_NAMES.get(rank, rank)}",
                center="●")


def french_face(code: str) -> Face:
    suit, rank = code[0], code[1:]
    symbol, glyph, suit_name = FR_SUITS[suit]
    return Face(code, rank, "", f"fr-{symbol}", f"{FR_RANKS.get(rank, rank)} of {suit_name}",
                center=glyph)


def luegenbeutel_face(code: str) -> Face:
    return Face(code, code, "", f"lb-{code.lower()}", LB_NAMES.get(code, f"number {code}"))


FACES = {
    "schafkopf": schafkopf_face,
    "beutelschneider": beutelschneider_face,
    "mauscheln": french_face,
    "luegenbeutel": luegenbeutel_face,
}


def face(game: str, code: str) -> Face:
    return FACES[game](code)


def suit_label(game: str, suit: str) -> str:
    if game == "schafkopf":
        return SK_SUITS[suit][1]
    if game == "mauscheln":
        return FR_SUITS[suit][1]
    return suit


def is_trump(game: str, code: str, view: dict[str, Any]) -> bool:
    """Whether a card in the viewer's hand is a trump now (for a marker on it)."""
    if game == "schafkopf":
        return bool(view.get("trump")) and code[0] == view["trump"]
    if game == "beutelschneider":
        return code[0] == "b"
    if game == "mauscheln":
        trumps = view.get("trumps")
        if isinstance(trumps, list):
            return code in trumps
        card = view.get("trump_card") or view.get("trump")
        return isinstance(card, str) and bool(card) and code[0] == card[0]
    return False
