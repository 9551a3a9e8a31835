"""Lügenbeutel at the table: numbered cards laid face down, rounds, the liar's call."""

from __future__ import annotations

from app.games.actions import Accept, Action, Challenge, End, Pass
from app.games.luegenbeutel import COPIES
from app.i18n import N_, _
from app.web.presentation import Event, Face, Presentation, Reads, facts, seat_name

NAMES = {"J": N_("Joker"), "L": N_("Lügenbeutel"), "A": N_("Aussetzen")}
ACTIONS = {"pass": N_("Pass (draw a card)"), "end": N_("End my turn"),
           "accept": N_("No challenge")}
ORDINALS = {1: N_("1st"), 2: N_("2nd"), 3: N_("3rd")}
# The targets the lobby offers, with how long a match to each usually lasts: the
# median of bench/luegenbeutel_length.py at four seats, one or two people with easy
# bots, at the table's default pacing (README, docs/rules/luegenbeutel.md).
TARGETS = (
    (200, N_("about 10 minutes")),
    (300, N_("about 15 minutes")),
    (500, N_("about half an hour")),
    (1000, N_("about an hour and a quarter")),
)


def face(code: str) -> Face:
    if code in NAMES:
        name = _(NAMES[code])
        return Face(code, code, "", f"lb-{code.lower()}", name, art=f"luegenbeutel.svg#{code}",
                    name=name)
    return Face(code, code, "", f"lb-{code.lower()}", _("number {n}").format(n=code),
                art=f"luegenbeutel.svg#{code}")


def ordinal(n: int) -> str:
    """Which card of a turn, in the page's language: "1st", "2nd", "3rd", "4th"..."""
    return _(ORDINALS[n]) if n in ORDINALS else _("%(n)sth") % {"n": n}


def stacks(hand: list[str]) -> list[tuple[str, int]]:
    """The hand as stacks of equal cards, in the hand's order: ``[(card, count)]``
    (a hand of 17 to 33 cards stays one row of big targets on a phone)."""
    out: list[tuple[str, int]] = []
    for code in hand:
        if out and out[-1][0] == code:
            out[-1] = (code, out[-1][1] + 1)
        else:
            out.append((code, 1))
    return out


def sentence(event: Event, names: list[str]) -> str | None:
    kind = event.get("type")
    who = seat_name(event, names)
    if kind == "deal":  # a deal is a round here
        return _("Round {no}: {dealer} deals.").format(no=event["deal_no"],
                                                      dealer=names[event["dealer"]])
    if kind == "deal_end":
        winner = event["winner"]
        return _("{who} wins round {no} and scores {points}.").format(
            who=names[winner], no=event["deal_no"], points=event["points"][winner])
    if kind == "lay":
        return _("{who} lays a card face down as {number}.").format(who=who,
                                                                    number=event["number"])
    if kind == "skip":
        return _("{who} skips with a face-down Aussetzen.").format(who=who)
    if kind == "pass":
        return _("{who} passes and draws a card.").format(who=who)
    if kind == "end":
        return _("{who} ends the turn ({count} face down).").format(
            who=who, count=event.get("count", 0))
    if kind == "last_card":
        return _("{who} has no cards left.").format(who=who)
    if kind == "accept":
        return _("{who} lets it stand.").format(who=who)
    if kind == "challenge":
        text = (_("{challenger} calls “Lügenbeutel!” on {accused}: a lie.") if event["caught"]
                else _("{challenger} calls “Lügenbeutel!” on {accused}: true."))
        return text.format(challenger=names[event["challenger"]],
                           accused=names[event["accused"]])
    if kind == "die":
        return _("{who} rolls a {die}.").format(who=who, die=event["die"])
    if kind == "draw":
        return _("{who} draws {count}.").format(who=who, count=event["count"])
    if kind == "reshuffle":
        return _("After the 10 the pile is shuffled into a new stock.")
    return None


def buttons(legal: list[Action]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Ending the turn, passing and letting a claim stand are buttons; laying and
    skipping are done on the hand, calling the liar on the stack."""
    shown = tuple(a.wire for a in legal if isinstance(a, (End, Pass, Accept)))
    return shown, tuple(a.wire for a in legal if isinstance(a, (End, Accept)))


def typed_label(action: Action) -> str | None:
    """A challenge in words (a review lists it among the seat's options)."""
    if not isinstance(action, Challenge):
        return None
    if action.position == "all":
        return _("“Lügenbeutel!” on the whole turn")
    return _("“Lügenbeutel!” on card %(n)s") % {"n": action.position}


PRESENTATION = Presentation(
    game="luegenbeutel",
    typed_label=typed_label,
    buttons=buttons,
    face=face,
    deck=frozenset(COPIES),
    action_labels=ACTIONS,
    sentence=sentence,
    score_measure=N_("points"),
    extras={"stacks": stacks, "ordinal": ordinal},
    option_choices={"target": TARGETS},
    reads={
        "board": Reads(view=("laid", "last_challenge", "last_deal", "number", "phase", "stack",
                             "turn"), context=("at_turn", "legal")),
        "status": Reads(view=("challenge", "laid", "number", "phase", "turn"),
                        context=("legal", "window_ms"),
                        parts=facts("luegenbeutel", "deal_no", "discard_count", "number",
                                    "stock_count", "target")),
        "actions": Reads(),
        "hand": Reads(view=("drawn", "hand", "number"), context=("legal",)),
        "result": Reads(view=("laid", "last_deal", "number", "phase", "players", "results",
                              "scores", "stack", "winners")),
    },
)
