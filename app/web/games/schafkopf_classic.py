"""Classic Schafkopf at the table: the auction as buttons, the game on the board for
everybody, Kontra and Retour, the partner marked once shown, the sheet in cents.

The cards are the rotating Schafkopf's (:mod:`app.web.games.schafkopf`); which are
trumps is the engine's (``TRUMPS`` of the deal's layout). The game's words stay
German in every language (Rufspiel, Wenz, Solo, Kontra, Weiter), with an English
hint where a button would otherwise say nothing to an English player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.games.actions import BID, KONTRA, PASS_SPEAK, RETOUR, Action, Play
from app.games.cards import SCHAFKOPF_DECK
from app.games.schafkopf_classic import (
    CALLS,
    CHOICES,
    CHOSEN_TRUMP,
    NAMES,
    RAMSCH,
    RUFSPIEL,
    TRUMPS,
    layout_of,
)
from app.i18n import N_, _
from app.i18n import format_money as money
from app.web.games.schafkopf import SUITS, face
from app.web.presentation import (
    Buttons,
    Event,
    Presentation,
    Reads,
    View,
    deal_begun,
    facts,
    seat_name,
    trick_parts,
)

# the classes, as the table says them (German in every language)
CLASS_NAMES = {"rufspiel": N_("Rufspiel"), "wenz": N_("Wenz"), "geier": N_("Geier"),
               "solo": N_("Solo"), "wenz_tout": N_("Wenz Tout"), "geier_tout": N_("Geier Tout"),
               "solo_tout": N_("Solo Tout"), "ramsch": N_("Ramsch")}
# a Farbsolo with its suit ("Herz-Solo")
SOLOS = {"solo": N_("{suit} Solo"), "solo_tout": N_("{suit} Solo Tout")}
# the Sau called in a Rufspiel
SAUEN = {"E": N_("Eichel Sau"), "G": N_("Gras Sau"), "S": N_("Schellen Sau")}
ACTIONS = {
    BID.wire: N_("Ich spiel (I play)"), PASS_SPEAK.wire: N_("Weiter (pass)"),
    **{action.wire: CLASS_NAMES[game] for game, action in NAMES.items()},
    **{action.wire: SAUEN[suit] for suit, action in CALLS.items()},
    **{action.wire: SUITS[suit][1] for suit, action in CHOICES.items()},
    KONTRA.wire: N_("Kontra!"), RETOUR.wire: N_("Retour!"),
}
DEAL_KINDS = {"thrown_in": N_("Nobody played: the cards are dealt again."),
              "called_off": N_("The host ended the match: this deal pays nothing.")}


def game_name(game: str | None, trump: str | None) -> str:
    """The game in words: "Wenz", "Herz Solo" / "Herz-Solo"."""
    if game is None:
        return ""
    if game in CHOSEN_TRUMP and trump:
        return _(SOLOS[game]).format(suit=_(SUITS[trump][1]))
    return _(CLASS_NAMES[game]) if game in CLASS_NAMES else game


def game_line(record: Mapping[str, Any], names: Sequence[str]) -> str:
    """Who plays what, for everybody ("Anna spielt auf die Gras-Sau", "Bert: Wenz");
    ``record``: a view (``declared``), a deal's record (``game``, ``declarer``) or
    the ``game`` event (``game``, ``seat``)."""
    game = record.get("declared", record.get("game"))
    if game is None:
        return ""
    if game == RAMSCH:
        return _("Ramsch: nobody plays, the most card points lose.")
    seat = record["declarer"] if "declarer" in record else record.get("seat")  # the event's
    who = names[seat] if isinstance(seat, int) else ""
    if game == RUFSPIEL and record.get("called") in SAUEN:
        return _("{who} plays a Rufspiel on the {sau}").format(
            who=who, sau=_(SAUEN[record["called"]]))
    return _("{who}: {game}").format(who=who, game=game_name(game, record.get("trump")))


def trump(code: str, view: View) -> bool:
    """A trump of the deal (while the auction runs, of a Rufspiel: the hand is sorted so)."""
    return code in TRUMPS[layout_of(view.get("declared") or RUFSPIEL, view.get("trump"))]


def secret_partner(view: View) -> dict[str, bool]:
    """``secret_partner``: the viewing seat holds the called Sau and nobody else knows
    yet (the Sau is still in its hand and it has not said Retour); once the Sau is
    played every board says who the partners are, the holder's too. False for every
    other seat, so their boards stay the same whoever holds the Sau."""
    seat = view.get("seat")
    called = view.get("called")
    holds = (view.get("declared") == RUFSPIEL and seat is not None and called is not None
             and view.get("partner") == seat and seat != view.get("declarer")
             and view.get("retour") != seat and f"{called}A" in (view.get("hand") or ()))
    return {"secret_partner": holds}


def sentence(event: Event, names: list[str]) -> str | None:
    kind = event.get("type")
    who = seat_name(event, names)
    if kind == "bid":
        return _("{who}: Ich spiel.").format(who=who)
    if kind == "pass":
        return _("{who}: Weiter.").format(who=who)
    if kind == "class":
        return _("{who} names {game}.").format(who=who, game=_(CLASS_NAMES[event["class"]]))
    if kind == "game":
        return game_line(event, names) + "."
    if kind == "kontra":
        return _("{who}: Kontra!").format(who=who)
    if kind == "retour":
        return _("{who}: Retour!").format(who=who)
    if kind == "partner":
        return _("{who} holds the called Sau: the partner.").format(who=who)
    if kind == "deal_end":
        return deal_sentence(event, names)
    return None


def deal_sentence(event: Event, names: list[str]) -> str:
    no = event.get("deal_no")
    kind = event.get("kind")
    if kind in DEAL_KINDS:
        return _("Deal {no}: {what}").format(no=no, what=_(DEAL_KINDS[str(kind)]))
    cents = event.get("cents") or []
    paid = _(", ").join(_("{who} {amount}").format(who=names[s], amount=money(c, signed=True))
                        for s, c in enumerate(cents))
    if event.get("game") == RAMSCH:
        return _("Deal {no} (Ramsch) ends: {paid}.").format(no=no, paid=paid)
    how = _("won") if event.get("won") else _("lost")
    return _("Deal {no} ends: {game} {how} with {points} card points; {paid}.").format(
        no=no, game=game_line(event, names), how=how, points=event.get("party_points"),
        paid=paid)


def sheet_lines(record: Mapping[str, Any]) -> list[str]:
    """What made a played deal's value, in words: Schneider, Schwarz, Laufende,
    Kontra, Retour (the German words in every language)."""
    lines = []
    if record.get("schwarz"):
        lines.append(_("Schneider and Schwarz"))
    elif record.get("schneider"):
        lines.append(_("Schneider"))
    running = record.get("laufende") or 0
    if running:
        party = record.get("laufende_party")
        lines.append(_("{n} Laufende (declaring party)").format(n=running) if party == "declaring"
                     else _("{n} Laufende (opponents)").format(n=running))
    if record.get("kontra") is not None:
        lines.append(_("Kontra"))
    if record.get("retour") is not None:
        lines.append(_("Retour"))
    return lines


def buttons(legal: list[Action]) -> Buttons:
    """The auction's calls and Kontra/Retour as buttons (the cards are played from
    the hand); the first call is the main choice, never a Kontra or Retour, which a
    seat may as well not say."""
    shown = tuple(a.wire for a in legal if not isinstance(a, Play))
    optional = (KONTRA.wire, RETOUR.wire)
    return shown, tuple(w for w in shown[:1] if w not in optional)


PRESENTATION = Presentation(
    game="schafkopf_classic",
    face=face,
    deck=frozenset(SCHAFKOPF_DECK),
    suit_names={code: name for code, (_symbol, name) in SUITS.items()},
    trump=trump,
    action_labels=ACTIONS,
    buttons=buttons,
    sentence=sentence,
    score_measure=N_("cents"),
    score_text=money,
    host_end_note=N_("The deal in progress is called off and pays nothing; the best "
                     "balances win."),
    option_choices={"all_pass": (("redeal", N_("deal again")),
                                 ("ramsch", N_("Ramsch: the most card points lose")))},
    extras={"money": money, "game_line": game_line, "game_name": game_name,
            "sheet_lines": sheet_lines, "games": CLASS_NAMES, "sauen": SAUEN},
    reads={
        "board": Reads(view=("declared", "declarer", "called", "trump", "forehand",
                             "kontra", "retour", "named", "partner", "phase", "said",
                             "seat", "tricks_won"),
                       derived=secret_partner, parts=trick_parts("declared", "trump")),
        "status": Reads(view=("best", "declared", "phase", "step", "trick", "turn"),
                        parts=facts("schafkopf_classic", "deal_no", "deals", "played",
                                    "tariff", "rules")),
        "actions": Reads(),
        "hand": Reads(view=("hand", "declared", "trump")),
        "result": Reads(view=("last_deal", "phase", "players", "results", "scores",
                              "winners"), derived=deal_begun),
    },
)
