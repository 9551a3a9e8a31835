"""What the web shows of a game, kept in one place per game.

Each module in :mod:`app.web.games` exposes ``PRESENTATION = Presentation(...)``: its
card faces and names, suit labels, trump marker, badges, action labels, the sentences
its events make in a replay, the measure of its score and the folder of its templates
(``templates/games/<game>/`` unless it says otherwise). Its own style and script are
``static/games/<game>.css`` and ``static/games/<game>.js``, found by name like its
templates: a page of the game includes them when they are there (``P.style``,
``P.script``), no other page does, and no shared file names them. The modules are found with
:mod:`pkgutil`, so a new game adds a module and never edits a list; a game that is
registered at run time (a test's toy game) calls :func:`register` with a presentation
that may bring its own template folder.

Shared code asks ``presentation(game)`` and never branches on a game's name.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.games.actions import Action, Exchange, Play
from app.i18n import N_, _, ngettext
from app.web.assets import assets, static_url

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
RULES = ROOT / "docs" / "rules"

Event = Mapping[str, Any]
View = Mapping[str, Any]


@dataclass(frozen=True)
class Face:
    """How one card code looks on the table (only for codes the viewer may see).

    The picture is a symbol of a sprite under ``static/cards/`` (drawn by
    ``scripts/make_cards.py``); the corner ``rank``, the ``name`` written on the card
    and the ``title`` are words of the page's language, drawn over it in HTML."""

    code: str
    rank: str  # big text in the corner
    suit: str  # a symbol id in static/img/suits.svg, or "" for none
    colour: str  # css class
    title: str  # readable name (tooltip and screen readers)
    center: str = ""  # a glyph for the suit where a card is written as text ("K♥")
    art: str = ""  # the card's picture: "<sprite>.svg#<symbol>" under static/cards
    name: str = ""  # a name written across the card (court cards, special cards)

    @property
    def picture(self) -> str:
        """The URL of the card's picture ("" when it has none), under the sprite's
        content-hashed name."""
        if not self.art:
            return ""
        sprite, sep, symbol = self.art.partition("#")
        return static_url(f"cards/{sprite}") + sep + symbol


def _no_trump(code: str, view: View) -> bool:
    return False


def _no_badge(code: str, view: View) -> str:
    return ""


def _no_label(action: Action) -> str | None:
    return None


def _no_sentence(event: Event, names: list[str]) -> str | None:
    return None


Buttons = tuple[tuple[str, ...], tuple[str, ...]]


def trick_game_buttons(legal: list[Action]) -> Buttons:
    """The row of action buttons of most games (of the seat's typed legal actions,
    their strings): every legal action but the cards (played from the hand) and the
    exchange (a form on the hand), the first one drawn as the main choice."""
    shown = tuple(a.wire for a in legal if not isinstance(a, (Play, Exchange)))
    return shown, shown[:1]


@dataclass(frozen=True)
class Reads:
    """What this game's template inside one fragment of the table reads
    (:mod:`app.web.fragments`): keys of the seat's view, and names of the table's
    context beyond those the fragment's shared template reads. The fragment is drawn
    from these alone, so seats whose values are equal share one drawing."""

    view: tuple[str, ...] = ()
    context: tuple[str, ...] = ()
    #: values the template reads by name, worked out from the seat's view (so that
    #: the fragment is drawn again when they change, not whenever the view does)
    derived: Callable[[View], Mapping[str, Any]] | None = None
    #: elements of the fragment drawn on their own from what they read (the template
    #: shows each as ``part["<id>"]``), pushed alone when only they changed
    parts: tuple[Part, ...] = ()


@dataclass(frozen=True)
class Part:
    """An element of a fragment (its outermost element carries ``id`` and
    ``hx-swap-oob``) drawn from ``template`` with what ``reads`` names, for instance
    the trick on the board, which changes with every card while the rest of the
    board stays."""

    id: str
    template: str
    reads: Reads


def deal_begun(view: View) -> dict[str, bool]:
    """``deal_begun``: a card of the deal in play was played (a trick lies on the
    table or was won); until then the table shows the last deal's result."""
    return {"deal_begun": bool(view.get("trick")) or any(view.get("tricks_won") or ())}


def trick_parts(*trump: str) -> tuple[Part, ...]:
    """The trick on a trick game's board as parts of it: the trick
    (``table/trick.html``), the note under it once it is won
    (``table/trick_note.html``) and the last trick folded away
    (``table/last_trick.html``), each drawn from what it reads (``trump``: the keys
    of the view the game's trump marker reads), each pushed alone when only it
    changed."""
    return (Part("trick", "table/trick.html",
                 Reads(view=("last_trick", "leader", "phase", "trick", *trump))),
            Part("trick-note", "table/trick_note.html",
                 Reads(view=("last_trick",), derived=trick_won)),
            Part("last-trick", "table/last_trick.html",
                 Reads(view=("last_trick", *trump), derived=trick_open)))


def trick_open(view: View) -> dict[str, bool]:
    """``trick_open``: a trick is being played (the last one is folded away
    meanwhile); not the trick itself, which changes with every card."""
    return {"trick_open": bool(view.get("trick"))}


def trick_won(view: View) -> dict[str, Any]:
    """What the note under a won trick says: ``won`` (the trick lies won, nobody has
    led the next), ``over`` (it was the match's last) and ``leads`` (who leads next,
    while the note shows)."""
    won = not view.get("trick") and bool(view.get("last_trick"))
    over = view.get("phase") == "over"
    return {"won": won, "over": over, "leads": view.get("turn") if won and not over else None}


def facts(game: str, *view: str) -> tuple[Part, ...]:
    """What stands of the deal above a game's turn line (``games/<game>/facts.html``,
    an element ``#facts``) as a part of its status, drawn from the keys ``view`` of
    the seat's view: the turn line changes with every move, the facts seldom."""
    return (Part("facts", f"games/{game}/facts.html", Reads(view=view)),)


class FormError(ValueError):
    """A game's form could not be turned into an action (the message says why)."""


@dataclass(frozen=True)
class Presentation:
    """Everything the web shows for one game (``GAMES`` key ``game``).

    Strings held here are marked with ``N_`` and translated where they are shown;
    functions return text that is already translated.
    """

    game: str
    #: card code -> Face (rank, suit symbol, colour class, readable title)
    face: Callable[[str], Face]
    #: every card code of this game's deck (the rules pages draw these codes)
    deck: frozenset[str] = frozenset()
    #: suit code -> readable suit name (``N_``-marked); unknown suits show their code
    suit_names: Mapping[str, str] = field(default_factory=dict)
    #: whether a card in the viewer's hand is a trump now (a marker on it)
    trump: Callable[[str, View], bool] = _no_trump
    #: a short badge on a card in the viewer's hand ("" for none), given the view
    badge: Callable[[str, View], str] = _no_badge
    #: this game's words for its actions (``N_``-marked); others show the action itself
    action_labels: Mapping[str, str] = field(default_factory=dict)
    #: the seat's legal actions drawn as the row of buttons under the table, and those
    #: of them drawn as the main choice (``table/actions.html``)
    buttons: Callable[[list[Action]], Buttons] = trick_game_buttons
    #: one public event of this game as a replay sentence; None leaves the event to
    #: the shared sentences (play, trick, deal, deal_end, match_end), "" says nothing
    sentence: Callable[[Event, list[str]], str | None] = _no_sentence
    #: what the final score counts, for the standings ("points", "units", "chips")
    score_measure: str = N_("points")
    #: a seat's score as its plate at the table shows it (say, cents as euros),
    #: in the page's language
    score_text: Callable[[int], str] = str
    #: a typed action in the game's words where ``action_labels`` has none and the
    #: shared wording (a card, an exchange) does not fit, say a challenge of a
    #: review's options; None: not one of the game's own
    typed_label: Callable[[Action], str | None] = _no_label
    #: what the host's "end the game" box says will happen (games with host_can_end)
    host_end_note: str = ""
    #: why a seat is out of the match (``Match.seats_out``), said on its page
    out_note: str = ""
    #: the folder of this game's templates; None: templates/games/<game>/
    templates: Path | None = None
    #: the reasons of chip transfers (games with a chip ledger), ``N_``-marked
    chip_reasons: Mapping[str, str] = field(default_factory=dict)
    #: options the lobby and the rematch form offer as a choice of values, each with
    #: an ``N_``-marked note ("about 10 minutes"): ``{option: ((value, note), ...)}``;
    #: the engine still takes any value in the option's range (the JSON API). For a
    #: "choice" option (words) the note is the word's label ("deal again")
    option_choices: Mapping[str, tuple[tuple[int | str, str], ...]] = field(
        default_factory=dict)
    #: anything else this game's own templates need (as ``P.extras``)
    extras: Mapping[str, Any] = field(default_factory=dict)
    #: forms this game's templates send with ``action`` = the form's name: each
    #: turns the form's fields and the seat's view into the engine's action string,
    #: or raises :class:`FormError` with a message for the player
    forms: Mapping[str, Callable[[Mapping[str, Any], View], str]] = field(
        default_factory=dict)
    #: what this game's templates in the table's fragments read, by fragment id
    #: ("board", "status", "actions", "hand", "result"): see :class:`Reads`. A fragment
    #: the game says nothing of is drawn from the seat's whole view and context (always
    #: right, never shared between seats)
    reads: Mapping[str, Reads] = field(default_factory=dict)

    @property
    def template_dir(self) -> Path:
        return self.templates if self.templates is not None else TEMPLATES / "games" / self.game

    @property
    def rules_url(self) -> str:
        """The page with this game's rules ("" when ``docs/rules/<game>.md`` is
        missing, say for a game registered at run time)."""
        return f"/rules/{self.game}" if (RULES / f"{self.game}.md").is_file() else ""

    def template(self, name: str) -> str:
        """The loader's name of this game's template ``name`` (e.g. "board.html")."""
        return f"games/{self.game}/{name}"

    @property
    def style(self) -> str | None:
        """This game's own stylesheet (``games/<game>.css`` under ``static/``), for
        ``static_url``; None when it has none."""
        return self._static("css")

    @property
    def script(self) -> str | None:
        """This game's own script at the table (``games/<game>.js``); None when none."""
        return self._static("js")

    def _static(self, suffix: str) -> str | None:
        path = f"games/{self.game}.{suffix}"
        return path if assets().get(path) is not None else None

    def card_title(self, code: str) -> str:
        return self.face(code).title

    def suit_label(self, suit: str) -> str:
        name = self.suit_names.get(suit)
        return _(name) if name else suit

    def is_trump(self, code: str, view: View) -> bool:
        return self.trump(code, view)

    def card_badge(self, code: str, view: View) -> str:
        return self.badge(code, view)

    def action_label(self, action: str) -> str:
        label = self.action_labels.get(action)
        return _(label) if label else action

    def chip_reason(self, reason: str) -> str:
        """A chip transfer's reason in words ("start" is every ledger's first row)."""
        if reason == "start":
            return _("start")
        words = self.chip_reasons.get(reason)
        return _(words) if words else reason

    def measure(self) -> str:
        return _(self.score_measure)

    def final_trick(self, last_deal: Mapping[str, Any] | None) -> dict[str, Any] | None:
        """The last trick of a finished deal as ``{"plays": [{"seat", "card"}],
        "winner"}``, from ``last_deal["tricks"]`` (plays stored as ``[seat, card]``
        or ``{"seat", "card"}``); None for a deal without tricks."""
        tricks = (last_deal or {}).get("tricks") or []
        if not tricks or not isinstance(tricks[-1], Mapping):
            return None
        plays = []
        for entry in tricks[-1].get("plays") or []:
            if isinstance(entry, Mapping):
                plays.append({"seat": entry.get("seat"), "card": entry.get("card")})
            elif isinstance(entry, list | tuple) and len(entry) == 2:
                plays.append({"seat": entry[0], "card": entry[1]})
        if not plays:
            return None
        return {"plays": plays, "winner": tricks[-1].get("winner")}

    def describe(self, event: Event, names: list[str]) -> str | None:
        """One public event as a sentence (None for bookkeeping events)."""
        own = self.sentence(event, names)
        if own is not None:
            return own or None
        return shared_sentence(self, event, names)


# ----- sentences every game shares ----------------------------------------------

def seat_name(event: Event, names: list[str], key: str = "seat") -> str:
    seat = event.get(key)
    return names[seat] if isinstance(seat, int) else ""


def together(names: list[str], seats: list[int] | tuple[int, ...]) -> str:
    return _(" & ").join(names[s] for s in seats)


#: why a bot played for a person (a room event in the log, see app.rooms.turns)
STAND_IN_REASONS = {
    "away": N_("away from the table"),
    "clock": N_("out of time"),
    "released": N_("seat released by the host"),
}


def shared_sentence(p: Presentation, event: Event, names: list[str]) -> str | None:
    """The events of the engine contract that read the same in every game."""
    kind = event.get("type")
    if kind == "play":
        return _("{who} plays {card}.").format(who=seat_name(event, names),
                                               card=p.card_title(event["card"]))
    if kind == "trick":
        if "points" in event:
            return _("{who} takes the trick ({points} points).").format(
                who=names[event["winner"]], points=event["points"])
        return _("{who} takes the trick.").format(who=names[event["winner"]])
    if kind == "deal":
        if "trump" in event:
            return _("Deal {no}: {dealer} deals, trump {trump}.").format(
                no=event["deal_no"], dealer=names[event["dealer"]],
                trump=p.suit_label(str(event["trump"])[:1]) if p.suit_names
                else p.card_title(str(event["trump"])))
        return _("Deal {no}: {dealer} deals.").format(no=event["deal_no"],
                                                     dealer=names[event["dealer"]])
    if kind == "deal_end":
        return _("Deal {no} ends.").format(no=event.get("deal_no"))
    if kind == "stand_in":
        why = STAND_IN_REASONS.get(str(event.get("reason")), STAND_IN_REASONS["away"])
        return _("A bot plays for {who} ({why}).").format(who=seat_name(event, names),
                                                          why=_(why))
    if kind == "hint":  # a person's move at a practice table after a hint (app.rooms.hints)
        return _("{who} was shown a hint for this move.").format(who=seat_name(event, names))
    if kind == "match_end":
        winners = list(event["winners"])
        return ngettext("{who} wins the match.", "{who} win the match.", len(winners)).format(
            who=together(names, winners))
    return None


# ----- the registry -----------------------------------------------------------------

_registry: dict[str, Presentation] = {}
_discovered = False


def _discover() -> None:
    """Register ``PRESENTATION`` of every module in :mod:`app.web.games` (once)."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    from app.web import games

    for module_info in pkgutil.iter_modules(games.__path__, games.__name__ + "."):
        module = importlib.import_module(module_info.name)
        found = getattr(module, "PRESENTATION", None)
        if isinstance(found, Presentation) and found.game not in _registry:
            _registry[found.game] = found


# called after a presentation is registered or removed (the template loader forgets
# the templates it compiled: a game registered again may bring another folder)
on_change: list[Callable[[], None]] = []


def register(p: Presentation, *, replace: bool = False) -> Presentation:
    """Add the presentation of a game registered at run time (say, a test's game)."""
    _discover()
    old = _registry.get(p.game)
    if old is not None and old is not p and not replace:
        raise ValueError(f"a presentation for {p.game!r} is registered already")
    _registry[p.game] = p
    for hook in on_change:
        hook()
    return p


def unregister(game: str) -> None:
    _discover()
    _registry.pop(game, None)
    for hook in on_change:
        hook()


def find(game: str) -> Presentation | None:
    _discover()
    return _registry.get(game)


def presentation(game: str) -> Presentation:
    """The presentation of ``game``. Raises KeyError for a game nobody presents."""
    found = find(game)
    if found is None:
        raise KeyError(f"no presentation for game {game!r}")
    return found


def presentations() -> dict[str, Presentation]:
    _discover()
    return dict(_registry)
