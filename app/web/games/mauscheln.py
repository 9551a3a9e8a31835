"""Mauscheln at the table: French cards, a pot of chips, Belli and Weli."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games import NOBODY_PLAYS_ON
from app.games.actions import Exchange
from app.games.mauscheln import BELLI, WELI
from app.games.mauscheln import RANKS as DECK_RANKS
from app.games.mauscheln import SUITS as DECK_SUITS
from app.i18n import N_, _, ngettext, pgettext
from app.web.presentation import (
    Event,
    Face,
    FormError,
    Presentation,
    Reads,
    View,
    deal_begun,
    facts,
    seat_name,
    trick_parts,
)

SUITS = {"S": ("spade", "♠", N_("spades")), "H": ("heart", "♥", N_("hearts")),
         "D": ("diamond", "♦", N_("diamonds")), "C": ("club", "♣", N_("clubs"))}
RANKS = {"A": N_("ace"), "K": N_("king"), "Q": N_("queen"), "J": N_("jack")}
DECK = frozenset({s + r for s in DECK_SUITS for r in DECK_RANKS} | {BELLI, WELI})
# the house rules' cards that are always trump, with their names
BADGES = {"D7": N_("Belli"), "D6": N_("Weli")}
DEAL_KINDS = {
    "played": N_("played out"), "thrown_in": N_("thrown in (nobody played)"),
    "all_folded": N_("everybody folded: the sneaker takes the pot"),
    "cancelled": N_("called off by the host"),
    NOBODY_PLAYS_ON: N_("called off: only bots were left to play on"),
}
CHIP_REASONS = {"stake": N_("stake into the pot"), "trick": N_("tricks won"),
                "bete": N_("bête"), "pot": N_("takes the pot"),
                "quartet": N_("quartet into the pot")}
ACTIONS = {"mauschel": N_("Mauschel!"), "pass": N_("Pass"), "join": N_("Join in"),
           "fold": N_("Fold"), "knock": N_("Knock"), "no_knock": N_("Don't knock")}


def face(code: str) -> Face:
    suit, rank = code[0], code[1:]
    symbol, glyph, suit_name = SUITS[suit]
    rank_name = _(RANKS[rank]) if rank in RANKS else rank
    title = _("{rank} of {suit}").format(rank=rank_name, suit=_(suit_name))
    return Face(code, corner(rank), "", f"fr-{symbol}", title, center=glyph,
                art=f"french.svg#{code}")


def corner(rank: str) -> str:
    """The rank as the corner of a French card shows it (German: B, D, K for Bube,
    Dame, König)."""
    letters = {"A": pgettext("French card rank: ace", "A"),
               "K": pgettext("French card rank: king", "K"),
               "Q": pgettext("French card rank: queen", "Q"),
               "J": pgettext("French card rank: jack", "J")}
    return letters.get(rank, rank)


def trump(code: str, view: View) -> bool:
    trumps = view.get("trumps")
    if isinstance(trumps, list):
        return code in trumps
    card = view.get("trump_card") or view.get("trump")
    return isinstance(card, str) and bool(card) and code[0] == card[0]


def badge(code: str, view: View) -> str:
    if code in BADGES and code in (view.get("permanent_trumps") or []):
        return _(BADGES[code])
    return ""


def sentence(event: Event, names: list[str]) -> str | None:
    kind = event.get("type")
    who = seat_name(event, names)
    if kind == "bid":
        if event["bid"] == "mauschel":
            return _("{who}: Mauschel!").format(who=who)
        return _("{who}: pass.").format(who=who)
    if kind == "answer":
        if event["answer"] == "join":
            return _("{who} joins.").format(who=who)
        return _("{who} folds.").format(who=who)
    if kind == "knock":
        if event["decision"] == "knock":
            return _("{who} knocks.").format(who=who)
        return _("{who} does not knock.").format(who=who)
    if kind == "quartet":
        return _("{who} shows a quartet and pays {paid} into the pot.").format(
            who=who, paid=event.get("paid", 0))
    if kind == "exchange":
        n = event["discarded"]
        return ngettext("{who} exchanges {n} card.", "{who} exchanges {n} cards.", n).format(
            who=who, n=n)
    if kind == "deal_end":
        raw = str(event.get("kind", ""))
        if raw == "cancelled" and event.get("called_off") == NOBODY_PLAYS_ON:
            raw = NOBODY_PLAYS_ON
        how = _(DEAL_KINDS[raw]) if raw in DEAL_KINDS else raw
        text = _("Deal {no} {kind}.").format(no=event.get("deal_no"), kind=how)
        moves = _(", ").join(
            _("{who} {amount:+d} ({reason})").format(who=names[t["seat"]], amount=t["amount"],
                                                      reason=PRESENTATION.chip_reason(
                                                          t["reason"]))
            for t in event.get("transfers", []))
        return text + (" " + _("Chips: {moves}.").format(moves=moves) if moves else "")
    return None


def exchange_action(form: Mapping[str, Any], view: View) -> str:
    """The exchange form sends the ticked cards; the engine's action lists them in
    the order of the sorted hand (``exchange:`` alone keeps every card)."""
    picked = form.get("discard")
    if picked is None:
        picked = []
    if isinstance(picked, str):
        picked = [picked]
    if not isinstance(picked, list) or not all(isinstance(c, str) for c in picked):
        raise FormError(_("That exchange was not understood."))
    hand = view.get("hand", [])
    if any(c not in hand for c in picked):
        raise FormError(_("You can only swap cards from your own hand."))
    return Exchange.spell([c for c in hand if c in picked])


def shows_trick(view: View) -> dict[str, bool]:
    """``shows_trick``: the board shows the trick (tricks are being played, or a card
    or the last trick lies)."""
    return {"shows_trick": (view.get("phase") in ("play", "over") or bool(view.get("trick"))
                            or bool(view.get("last_trick")))}


def knocked_hand(view: View) -> dict[str, bool]:
    """``knocked_hand``: the seat holds more than four cards (the sneaker who knocked
    took the turned-up Ace and discards one to five), whatever those cards are."""
    return {"knocked_hand": len(view.get("hand") or ()) > 4}


PRESENTATION = Presentation(
    game="mauscheln",
    face=face,
    deck=DECK,
    suit_names={code: glyph for code, (_symbol, glyph, _name) in SUITS.items()},
    trump=trump,
    badge=badge,
    action_labels=ACTIONS,
    sentence=sentence,
    score_measure=N_("chips"),
    host_end_note=N_("The deal in progress is called off and the most chips win."),
    out_note=N_("You have no chips left."),
    forms={"exchange": exchange_action},
    chip_reasons=CHIP_REASONS,
    reads={
        "board": Reads(view=("folded", "joined", "last_deal", "out", "passed", "phase",
                             "players", "playing", "quartets", "sneaker", "tricks_won"),
                       derived=shows_trick, parts=trick_parts()),
        "status": Reads(view=("duty", "knock", "phase", "sneaker", "stock_count", "trick",
                              "trump", "turn"), derived=knocked_hand,
                        parts=facts("mauscheln", "deal_no", "options", "pot", "stock_count",
                                    "trick_value", "trump_card")),
        "actions": Reads(),
        "hand": Reads(view=("discarded", "hand", "hand_counts", "hand_hidden",
                            "permanent_trumps", "trumps"), context=("legal",)),
        "result": Reads(view=("last_deal", "phase", "players", "pot", "scores",
                              "winners"), derived=deal_begun),
    },
)
