"""The shared skeleton of every rules engine: seat checks, the one validation path
(:meth:`Match.verify`), the registry entry (:class:`GameInfo`), the typed records of
a deal's start and end, the view header, randomness, stacked deals and snapshots.

A game subclasses :class:`Match` and keeps *all* of its state in plain JSON types
(dict, list, str, int, bool, None; never tuples or sets) as instance attributes.
That is what makes ``snapshot()`` a plain copy of ``vars(self)`` and ``restore`` its
inverse, with no per-game serialisation code to get wrong. Attributes whose names
start with an underscore are the engine's working memory, not state: the RNG (its
state goes into the snapshot separately) and caches that are rebuilt on demand.

Worlds: a search bot imagines the cards a seat cannot see and plays on with the
engine itself. :meth:`Match.unseen` says what a seat's view leaves hidden (which
cards, in which places, how many each, what play has ruled out), and
:meth:`Match.from_view` builds the match that view shows with those places filled
in: the same state the engine reaches itself, so every rule stays in the engine.

Actions: a string is the wire and log format of an action; inside, an engine works on
the typed action it spells (:mod:`app.games.actions`). A game's :class:`Parser` reads
a string once; ``apply`` checks the typed action and performs it, and the engine's
hooks (:meth:`Match._actions`, :meth:`Match._permits`, :meth:`Match._perform`) see
only typed actions. ``legal_actions`` spells out the typed list :meth:`Match.legal`
gives.

Speed: search bots play thousands of playouts per decision through this surface, so
the hot paths avoid generic deep copies. ``copy()`` copies each attribute by its
declared shape (:attr:`Match.copy_plan`), ``legal_actions`` remembers its answer
until the next ``apply`` so that ``verify`` need not work it out again, and views
and events are copied structurally (:func:`_clone`) instead of through JSON.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, NotRequired, TypedDict

import orjson

from app.games.actions import Action

SNAPSHOT_FORMAT = 1
DIE_SIDES = 6
ACTION_SHOWN_MAX = 40  # a refused action is quoted back at most this long
PARSER_MEMORY = 4096  # action strings a parser remembers (then it starts afresh)


_NESTED = frozenset({dict, list, tuple})


def _clone(value: Any) -> Any:
    """A deep copy of JSON-native data (dict, list, str, int, float, bool, None; a
    tuple becomes a list, as in JSON). State, views and events are JSON by contract
    (the snapshot round-trip tests hold every engine to it). Scalars are immutable and
    shared; only containers are rebuilt, and a container of scalars costs one
    comprehension: several times faster than a JSON round trip on the small, shallow
    events and view parts the engines copy, and far faster than ``copy.deepcopy``."""
    kind = type(value)
    if kind is dict:
        return {k: _clone(v) if type(v) in _NESTED else v for k, v in value.items()}
    if kind is list or kind is tuple:
        return [_clone(v) if type(v) in _NESTED else v for v in value]
    return value


# How Match.copy() copies a state attribute that holds a container (see copy_plan):
SAME = "same"  # a record that is never changed in place once set: shared by both
FLAT = "flat"  # a list (or dict) of scalars, or of records never changed in place
NESTED = "nested"  # a list of lists of scalars (hands)


# why a match was ended before its natural end (``Match.end_by_host``): the host
# ended it, or the server did because nobody at the table can play on (every
# person's seat is out, ``Match.seats_out``, and only bots would play on)
HOST_ENDS, NOBODY_PLAYS_ON = "host", "nobody_plays_on"
END_REASONS = (HOST_ENDS, NOBODY_PLAYS_ON)

# what a game's money is, when the server keeps a ledger of it (``GameInfo.ledger``):
# CHIPS: chips and a pot; every transfer is between a seat and the pot, the seats'
# chips plus the pot stay what the seats brought, and no balance goes below zero
# (Mauscheln). CENTS: a settlement in cents among the seats; each deal's transfers
# add up to zero, there is no pot, and a balance may be negative (classic Schafkopf)
CHIPS, CENTS = "chips", "cents"
LEDGERS = (CHIPS, CENTS)


def N_(message: str) -> str:  # noqa: N802 - the conventional name of the marker
    """Mark a player-facing constant for the message catalogue without translating it:
    the engines stay pure (no language in here); the web translates where it shows it."""
    return message


class Reason(str):
    """A message for a player that a server can translate: the English text (this
    string itself, as before) plus the ``key`` (the English template, the catalogue's
    msgid) and the ``params`` it was made from.

    ``Reason("you do not hold {card!r}", card="EO")`` is the str ``"you do not hold
    'EO'"`` with ``key`` the template and ``params == {"card": "EO"}``. Parameters
    hold codes (a card ``card``, a suit ``suit``, an option's label ``option``), so a
    translation can show them in its own words; ``shown`` gives the English words
    for those where the English text needs more than the code."""

    key: str
    params: dict[str, Any]

    def __new__(cls, template: str, shown: dict[str, Any] | None = None,
                **params: Any) -> Reason:
        text = template.format(**{**params, **(shown or {})}) if params or shown else template
        obj = super().__new__(cls, text)
        obj.key = template
        obj.params = params
        return obj


class IllegalAction(ValueError):
    """An action that is not legal now. The message is meant for the player.

    ``str(exc)`` is the English message; ``key`` and ``params`` are its template and
    parameters (see :class:`Reason`) so a server can show it in the player's
    language."""

    def __init__(self, message: str, *, key: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(str(message))
        self.key: str = key or str(getattr(message, "key", message))
        self.params: dict[str, Any] = dict(
            params if params is not None else getattr(message, "params", {}))


def not_allowed(action: str) -> Reason:
    """The reason for an action string the game has nothing more to say about."""
    if len(action) > ACTION_SHOWN_MAX:
        action = action[:ACTION_SHOWN_MAX] + "…"
    return Reason(N_("{action!r} is not allowed now"), action=action)


def not_a_text() -> Reason:
    return Reason(N_("an action is a text such as 'play:EO'"))


class Parser:
    """A game's action strings read into typed actions: ``kinds`` are the action
    classes the game knows (:mod:`app.games.actions`), each reading its own
    spelling. The one place where an action string is taken apart.

    A string is read once: the parser remembers what it read (at most
    ``PARSER_MEMORY`` strings, then it starts afresh), so reading the actions of
    every turn costs a dictionary lookup. A string is read only as it is spelled: the
    action read from it spells it again exactly (``read(s).wire == s``)."""

    def __init__(self, *kinds: type[Action]) -> None:
        self.kinds = kinds
        self.known: dict[str, Action] = {}

    def read(self, text: str) -> Action | None:
        """The typed action the string ``text`` spells, or None."""
        action = self.known.get(text)
        if action is not None:
            return action
        for kind in self.kinds:
            action = kind.read(text)
            if action is not None:
                break
        if action is None or action.wire != text:
            return None
        if len(self.known) >= PARSER_MEMORY:
            self.known.clear()
        self.known[text] = action
        return action

    def meant(self, text: str) -> type[Action] | None:
        """For a string that spells no action: the kind it seems meant as, the one
        whose word is the string's before its first colon (``challenge:x`` a
        Challenge, ``lay`` a Lay), for the reason a refusal gives; None if none."""
        word = text.partition(":")[0]
        for kind in self.kinds:
            if word + ":" == getattr(kind, "prefix", None) or word == getattr(kind, "word", None):
                return kind
        return None

    def parse(self, action: object) -> Action:
        """The typed action ``action`` spells; :class:`IllegalAction` with the reason
        for a non-string or a string that spells no action of the game."""
        if not isinstance(action, str):
            raise IllegalAction(not_a_text())
        typed = self.read(action)
        if typed is None:
            raise IllegalAction(not_allowed(action))
        return typed

    def each(self, actions: Iterable[str]) -> list[Action]:
        """:meth:`parse` of every string of ``actions`` (a seat's legal actions)."""
        return [self.parse(a) for a in actions]


class OptionError(ValueError):
    """A number of players or an option a game refuses; ``str(exc)`` is the English
    message, ``key``/``params`` its template and parameters (see :class:`Reason`),
    ``fields`` the names of the options it is about (``"players"`` for the player
    count), so a form can say it next to them."""

    def __init__(self, message: str, fields: tuple[str, ...] = ()) -> None:
        super().__init__(str(message))
        self.key: str = getattr(message, "key", str(message))
        self.params: dict[str, Any] = dict(getattr(message, "params", {}))
        self.fields = fields


@dataclass(frozen=True)
class Option:
    """One room option of a game, as the lobby form offers it."""

    name: str
    label: str
    kind: str  # "int" | "bool" | "choice" (one of the words of ``choices``)
    default: Any
    minimum: int | None = None
    maximum: int | None = None
    step: int | None = None
    help: str = ""
    # the only values allowed (a select in the lobby): numbers, or a "choice"'s words
    choices: tuple[int | str, ...] = ()

    def check(self, value: Any) -> Any:
        """``value`` if it suits this option; :class:`OptionError` (a ValueError)
        with a readable, translatable reason otherwise."""
        label, fields = self.label, (self.name,)
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise OptionError(Reason(N_("{option} must be true or false"), option=label),
                                  fields)
            return value
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.choices:
                raise OptionError(Reason(N_("{option} must be one of {choices}"), option=label,
                                         choices=", ".join(str(c) for c in self.choices)),
                                  fields)
            return value
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(Reason(N_("{option} must be a whole number"), option=label),
                              fields)
        if self.choices and value not in self.choices:
            raise OptionError(Reason(N_("{option} must be one of {choices}"), option=label,
                                     choices=", ".join(str(c) for c in self.choices)), fields)
        if self.minimum is not None and value < self.minimum:
            raise OptionError(Reason(N_("{option} must be at least {minimum}"),
                                     option=label, minimum=self.minimum), fields)
        if self.maximum is not None and value > self.maximum:
            raise OptionError(Reason(N_("{option} must be at most {maximum}"),
                                     option=label, maximum=self.maximum), fields)
        if self.step and value % self.step:
            raise OptionError(Reason(N_("{option} must be a multiple of {step}"),
                                     option=label, step=self.step), fields)
        return value


@dataclass(frozen=True)
class GameInfo:
    """What the registry knows about a game (``GAMES[name]``): what the lobby shows
    and what the server must provide for it. Each engine module declares its own
    ``INFO = GameInfo.of(TheMatch, ...)`` next to the class; ``app.games`` finds it.

    - ``ledger``: the server keeps a ledger of the game's money, :data:`CHIPS` (a pot
      of chips, never below zero) or :data:`CENTS` (a zero-sum settlement in cents,
      balances may be negative); each ``deal_end`` event carries ``transfers`` and
      ``pot`` (0 for cents) and the server checks the ledger by that kind's rules.
      None: no money, no ledger. ``keeps_chip_ledger`` says whether there is one.
    - ``host_can_end``: the game has no natural end; the host calls
      :meth:`Match.end_by_host`.
    - ``challenge_windows``: after some turns the other seats may challenge for
      ``options["challenge_ms"]`` milliseconds (see :meth:`Match.challenge_window`).
    - ``position``: where the lobby lists the game (ascending).
    - ``first_for``: languages ("de") whose visitors find the game first in the
      lobby, before the order of ``position`` (the game their tables play).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    match_class: type[Match]
    options: tuple[Option, ...] = field(default=())
    blurb: str = ""
    position: int = 0
    ledger: str | None = None  # CHIPS, CENTS or None
    host_can_end: bool = False
    challenge_windows: bool = False
    first_for: tuple[str, ...] = ()

    @classmethod
    def of(cls, match_class: type[Match], *, title: str, blurb: str, position: int,
           ledger: str | None = None, host_can_end: bool = False,
           challenge_windows: bool = False, first_for: tuple[str, ...] = ()) -> GameInfo:
        """The entry of ``match_class``: name, player counts and options come from
        the class itself, so they are written down once."""
        return cls(
            name=match_class.name, title=title, min_players=match_class.min_players,
            max_players=match_class.max_players, match_class=match_class,
            options=match_class.options_spec, blurb=blurb, position=position,
            ledger=ledger, host_can_end=host_can_end,
            challenge_windows=challenge_windows, first_for=first_for,
        )

    def __post_init__(self) -> None:
        if self.ledger is not None and self.ledger not in LEDGERS:
            raise ValueError(f"{self.name}: unknown ledger {self.ledger!r}")

    @property
    def keeps_chip_ledger(self) -> bool:
        """Whether the server keeps a ledger of this game's money (chips or cents):
        it opens it with :meth:`Match.chips_at_start` and writes every deal's
        transfers."""
        return self.ledger is not None

    @property
    def default_options(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}


@dataclass
class Unseen:
    """What one seat's view leaves hidden (:meth:`Match.unseen`).

    A *place* is where cards lie that the seat cannot see: ``hand:<seat>`` (another
    hand, or the own one while it is hidden), ``stock`` (top first), ``removed``
    (set aside face down), ``discards:<seat>`` (another seat's discards),
    ``discard`` (a discard pile), ``open`` (the turn open to challenge, in the order
    it was laid) and ``laid`` (the face-down cards of the turn in progress).

    - ``cards``: the cards whose place the seat does not know (a multiset);
    - ``places``: each hidden place and how many of ``cards`` it holds (they add up
      to ``len(cards)``);
    - ``excluded``: cards a place cannot hold (what the play of the deal revealed: a
      card that would have made a seat's play illegal is not in its hand);
    - ``known``: cards that are certainly in a hidden place (not among ``cards``, not
      counted in ``places``), such as a card a challenge turned over and gave back.
    """

    cards: list[str]
    places: dict[str, int]
    excluded: dict[str, set[str]] = field(default_factory=dict)
    known: dict[str, list[str]] = field(default_factory=dict)


# A finished trick as a search remembers it: (seat, card) in play order.
Trick = list[tuple[int, str]]


# ----- the typed records of a deal's course (every game, one name per idea) ----------
class Transfer(TypedDict):
    """One chip movement between a seat and the pot, or one seat's cents of a
    settlement (positive: to the seat)."""

    seat: int
    amount: int
    reason: str


class DealStart(TypedDict, total=False):
    """``{"type": "deal", "deal_no": n, ...}``: deal number ``n`` has been dealt.
    Games add their own public details (dealer, trump, ...)."""

    type: Literal["deal"]
    deal_no: int


class DealEnd(TypedDict):
    """``{"type": "deal_end", ...}``: exactly one per finished deal (or round).

    ``scores`` are the match totals per seat after this deal (points, team units or
    chips, as ``Match.scores``). Games that keep a ledger (``GameInfo.ledger``) add
    ``transfers`` (every chip or cent that moved in the deal) and ``pot`` (the pot
    after it; always 0 for a settlement in cents); every game adds its own details
    beside these."""

    type: Literal["deal_end"]
    deal_no: int
    scores: list[int]
    transfers: NotRequired[list[Transfer]]
    pot: NotRequired[int]


class MatchEnd(TypedDict):
    """``{"type": "match_end", "winners": [...], "scores": [...]}``, the last event."""

    type: Literal["match_end"]
    winners: list[int]
    scores: list[int]


# Unseeded matches (every room people open) draw from the operating system's
# randomness through this one instance: it keeps no state of its own, while each
# instance of it would carry an unused Mersenne Twister state of about 2.9 KB.
SYSTEM_RANDOM = secrets.SystemRandom()


def _make_rng(seed: int | str | None) -> random.Random:
    if seed is None:
        return SYSTEM_RANDOM
    return random.Random(seed)


def _rng_state(rng: random.Random) -> Any:
    if isinstance(rng, secrets.SystemRandom):
        return None
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _rng_from_state(state: Any) -> random.Random:
    if state is None:
        return SYSTEM_RANDOM
    rng = random.Random()
    version, internal, gauss = state
    rng.setstate((version, tuple(internal), gauss))
    return rng


class Match:
    """Base class of a running match. See docs/engine.md for the contract."""

    name: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 8
    options_spec: ClassVar[tuple[Option, ...]] = ()
    # How copy() copies each state attribute that holds a container: SAME, FLAT or
    # NESTED (see above). A container attribute not named here is deep-copied, which
    # is always right and only slower; naming one wrongly (FLAT for a list whose
    # entries are changed in place) would let a copy and its original share state, so
    # a game declares only shapes it keeps. Scalars (str, int, bool, None) are shared.
    # Whether _view returns only containers of its own (see view()).
    fresh_views: ClassVar[bool] = False
    copy_plan: ClassVar[dict[str, str]] = {
        "options": FLAT,
        "scores": FLAT,
        "winners": FLAT,
        "stacked_deals": SAME,  # read only through next_stacked_deal(), which copies
        "last_deal": SAME,  # replaced by a new record after every deal, never edited
    }

    parser: ClassVar[Parser]  # the kinds of action the game knows (see Parser)
    # Whether the game spells some of its legal lists itself (:meth:`_spelled`).
    spells: ClassVar[bool] = False

    # attributes every game has (plain JSON state)
    players: int
    options: dict[str, Any]
    phase: str
    scores: list[int]
    winners: list[int]
    stacked_deals: list[Any]
    deal_no: int  # 1-based number of the current (or last) deal
    last_deal: dict[str, Any] | None  # the finished deal's record, once there is one
    dealer: int

    def __init__(
        self,
        players: int,
        options: dict[str, Any] | None = None,
        seed: int | str | None = None,
        deals: list[Any] | None = None,
    ) -> None:
        self.players = self.check_players(players)
        self.options = self.check_options(players, options or {})
        self._rng = _make_rng(seed)
        self._legal_cache = None
        self._texts = {}
        if deals is not None and not isinstance(deals, list):
            raise ValueError("deals is a list with one entry per deal")
        self.stacked_deals = [_clone(d) for d in (deals or [])]
        self.phase = "setup"
        self.scores = [0] * players
        self.winners = []
        self.deal_no = 0
        self.last_deal = None
        if "dealer" in self.options and self.options["dealer"] is not None:
            self.dealer = int(self.options["dealer"]) % players
        else:
            self.dealer = self._rng.randrange(players)
        self.setup()

    # ----- configuration -------------------------------------------------
    @classmethod
    def check_players(cls, players: Any) -> int:
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(Reason(N_("players must be a whole number")), ("players",))
        if not cls.min_players <= players <= cls.max_players:
            raise OptionError(
                Reason(N_("{game} is played by {low} to {high} players"), game=cls.name,
                       low=cls.min_players, high=cls.max_players)
                if cls.min_players != cls.max_players
                else Reason(N_("{game} is played by exactly {count} players"), game=cls.name,
                            count=cls.min_players),
                ("players",),
            )
        return players

    @classmethod
    def check_options(cls, players: int, options: dict[str, Any]) -> dict[str, Any]:
        """Merge defaults and validate. Raises ValueError with a readable message."""
        spec = {o.name: o for o in cls.options_spec}
        merged: dict[str, Any] = {o.name: o.default for o in cls.options_spec}
        for key, value in options.items():
            if key == "dealer":
                if value is not None and (
                    isinstance(value, bool) or not isinstance(value, int)
                    or not 0 <= value < players
                ):
                    raise OptionError(Reason(N_("dealer must be a seat number")), ("dealer",))
                merged["dealer"] = value
                continue
            if key not in spec:
                raise OptionError(Reason(N_("unknown option {name!r}"), name=key), (key,))
            value = spec[key].check(value)
            merged[key] = value
        cls.check_option_combination(players, merged)
        return merged

    @classmethod
    def check_option_combination(cls, players: int, options: dict[str, Any]) -> None:
        """Games with options that exclude each other override this."""

    # ----- hooks a game implements ----------------------------------------
    def setup(self) -> None:
        """Deal the first deal and set the phase."""
        raise NotImplementedError

    def _actions(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now, typed (the match is not over)."""
        raise NotImplementedError

    def _spelled(self, seat: int) -> list[str] | None:
        """``legal_actions(seat)`` where the game spells it more cheaply than by
        making each typed action (``spells`` says it may), else None: the spelling
        of ``_actions(seat)``, in its order."""
        return None

    def _permits(self, seat: int, action: Action) -> bool:
        """Whether ``action`` is among ``_actions(seat)``. Games override this where
        they can tell without building the whole list; the answer must be the same."""
        wire = action.wire
        return any(listed.wire == wire for listed in self._actions(seat))

    def _perform(self, seat: int, action: Action) -> list[dict[str, Any]]:
        """Carry out an action already known to be legal; return its events."""
        raise NotImplementedError

    def _view(self, seat: int | None) -> dict[str, Any]:
        raise NotImplementedError

    def _to_act(self) -> set[int]:
        raise NotImplementedError

    # ----- the public contract -------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def to_act(self) -> set[int]:
        if self.is_over:
            return set()
        return self._to_act()

    def _check_seat(self, seat: Any) -> int:
        if type(seat) is int and 0 <= seat < self.players:
            return seat  # the usual case, answered first
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction(Reason(N_("there is no seat {seat!r} at this table"), seat=seat))
        return seat

    # ``_legal_cache`` is ``(seat, actions, wires)``: the last answer of legal() or
    # legal_actions() (``wires`` None after legal()), valid until the state changes.
    # Only apply(), simulate() and end_by_host() change a match, and they drop it, so a
    # check right after a caller asked for the legal actions (as every player and bot
    # does) is one membership test instead of working the rules out again.
    _legal_cache: tuple[int, list[Action] | None, list[str] | None] | None

    @classmethod
    def parse(cls, action: object) -> Action:
        """The typed action the string ``action`` spells (:class:`Parser`), or
        :class:`IllegalAction` for a non-string or a string that spells no action of
        this game. Whether it is legal now is :meth:`check`'s question."""
        return cls.parser.parse(action)

    def legal(self, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now, typed: ``legal_actions`` spells them
        (``[a.wire for a in legal(seat)] == legal_actions(seat)``)."""
        seat = self._check_seat(seat)
        if self.is_over:
            return []
        legal = self._actions(seat)
        self._legal_cache = (seat, legal, None)
        return list(legal)  # the caller's own list: changing it cannot touch the cache

    def legal_actions(self, seat: int) -> list[str]:
        seat = self._check_seat(seat)
        if self.is_over:
            return []
        if self.spells:
            spelled = self._spelled(seat)
            if spelled is not None:  # typed when one is taken
                self._legal_cache = (seat, None, spelled)
                return list(spelled)
        legal = self._actions(seat)
        wires = []
        for action in legal:  # a loop: no comprehension's frame (3.11), every turn
            wires.append(action.wire)
        self._legal_cache = (seat, legal, wires)
        return list(wires)

    def _is_legal(self, seat: int, action: Action) -> bool:
        cache = self._legal_cache
        if cache is not None and cache[0] == seat and cache[1] is not None:
            return action in cache[1]
        return self._permits(seat, action)

    def verify(self, seat: int, action: str) -> None:
        """The one validation path: return if ``seat`` may take ``action`` now, else
        raise :class:`IllegalAction` with a reason a player can read. It accepts
        exactly the actions in ``legal_actions(seat)``. ``apply`` runs it first, and
        a server asks it instead of applying an action to learn why it fails."""
        self._verified(seat, action)

    def _verified(self, seat: int, action: str) -> Action:
        """:meth:`verify`, answering the typed action the string spells."""
        seat = self._check_seat(seat)
        if not isinstance(action, str):
            raise IllegalAction(not_a_text())
        if self.is_over:
            raise IllegalAction(Reason(N_("the match is over")))
        cache = self._legal_cache
        if cache is not None and cache[0] == seat and cache[2] is not None:
            # asked right after legal_actions: the typed action is the one listed
            try:
                index = cache[2].index(action)
            except ValueError:
                raise IllegalAction(self.explain_illegal(seat, action)) from None
            if cache[1] is not None:
                return cache[1][index]
            listed = self.parser.known.get(action) or self.parser.read(action)
            if listed is not None:
                return listed
        typed = self.parser.read(action)
        if typed is None or not self._is_legal(seat, typed):
            raise IllegalAction(self.explain_illegal(seat, action))
        return typed

    def check(self, seat: int, action: Action) -> None:
        """:meth:`verify` for a typed action: return if ``seat`` may take it now,
        else raise :class:`IllegalAction` with the reason ``verify`` gives for its
        string."""
        seat = self._check_seat(seat)
        if self.is_over:
            raise IllegalAction(Reason(N_("the match is over")))
        if not self._is_legal(seat, action):
            raise IllegalAction(self.explain_illegal(seat, action.wire))

    def apply(self, seat: int, action: str) -> list[dict[str, Any]]:
        """Apply a legal action and return its public events. An illegal one raises
        :class:`IllegalAction` (see :meth:`verify`) and changes nothing."""
        typed = self._verified(seat, action)
        self._legal_cache = None
        # a copy: events and views must not alias the match state (or module constants)
        events: list[dict[str, Any]] = _clone(self._perform(seat, typed))
        return events

    def simulate(self, seat: int, action: Action | str) -> list[dict[str, Any]]:
        """:meth:`apply` for a search playing out a world of its own (a copy made
        for that), of a typed action (one of :meth:`legal`) or its string: the same
        check and the same change, but the events are the engine's own, not copies.
        They may share containers with the state, so read them at once and never
        change or keep them."""
        if isinstance(action, Action):
            self.check(seat, action)
        else:
            action = self._verified(seat, action)
        self._legal_cache = None
        return self._perform(seat, action)

    def explain_illegal(self, seat: int, action: str) -> str:
        """Why ``action`` (a string outside ``legal_actions(seat)``) is refused, for
        the player. Games refine this (``self.parser.read(action)`` is the typed
        action it spells, None if none); :meth:`verify` and :meth:`check` are its
        callers."""
        if seat not in self._to_act():
            return Reason(N_("it is not your turn"))
        return not_allowed(action)

    def must_act(self, seat: int) -> bool:
        """Whether the game waits for ``seat``: it may act now and the match does not
        go on without it. Games where a seat may act but need not (a challenge
        window) override this."""
        return seat in self.to_act()

    def challenge_window(self) -> int | None:
        """The id of the challenge window open now (a new id each time a window
        opens), or None when none is open. Only games with ``challenge_windows``
        ever open one."""
        return None

    def chips_at_start(self) -> list[int]:
        """The chips each seat brought to the match, before any stake was paid.
        Only games that keep a ledger (``GameInfo.ledger``) have chips (or cents:
        0 each for a settlement); the server opens the ledger with these."""
        raise NotImplementedError(f"{self.name} keeps no chip ledger")

    def seats_out(self) -> list[int]:
        """Seats that take no further part in this match (a Mauscheln player without
        chips): they will never act again. [] in a game everybody plays to the end."""
        return []

    def end_by_host(self, reason: str = HOST_ENDS) -> list[dict[str, Any]]:
        """The host ends the match now (games with ``host_can_end`` only); returns
        the events. ``reason``: who called it off (:data:`END_REASONS`), kept with
        the called-off deal. Other games refuse."""
        raise IllegalAction(Reason(N_("This game ends by itself; the host cannot end it "
                                      "early.")))

    def view_header(self, seat: int | None) -> dict[str, Any]:
        """The keys every view starts with, in every game."""
        header = {
            "game": self.name,
            "phase": self.phase,
            "seat": seat,
            "players": self.players,
            "dealer": self.dealer,
            "deal_no": self.deal_no,
            "scores": list(self.scores),
            "to_act": sorted(self.to_act()),
            "winners": list(self.winners),
        }
        if self.last_deal is not None:
            header["last_deal"] = self.record_copy("last_deal", self.last_deal)
        return header

    # ``_texts`` maps a slot name to (key, length, JSON text, [the copy shared views
    # show]) of the records last shown there; see record_copy and shared_view.
    _texts: dict[str, tuple[Any, int, bytes, list[Any]]]
    _sharing: bool = False

    def record_copy(self, slot: str, records: Any) -> Any:
        """A deep copy of ``records`` for a view: either one record that is never
        changed in place once made (``last_deal``, a finished trick) or an append-only
        list of such records (``results``). Views show these in every call and they
        are the biggest parts of a view, so the JSON text of them is made once and
        each view parses it (``orjson.loads`` builds the copy in C). ``slot`` names the
        place in the view; the text is reused while the same record (for a list: the
        same length and last record) is shown there."""
        if type(records) is list:
            if not records:
                return []
            key, length = records[-1], len(records)
        else:
            key, length = records, -1
        memo = self._texts.get(slot)
        if memo is None or memo[0] is not key or memo[1] != length:
            memo = (key, length, orjson.dumps(records, option=orjson.OPT_NON_STR_KEYS), [])
            self._texts[slot] = memo
        if self._sharing:  # one copy for every shared view while the records stay
            if not memo[3]:
                memo[3].append(orjson.loads(memo[2]))
            return memo[3][0]
        return orjson.loads(memo[2])

    # ----- the typed events every game emits ------------------------------
    def deal_start_event(self, **details: Any) -> dict[str, Any]:
        """The ``deal`` event of the deal just dealt (see :class:`DealStart`)."""
        event: dict[str, Any] = {"type": "deal", "deal_no": self.deal_no}
        event.update(details)
        return event

    def deal_end_event(self, **details: Any) -> dict[str, Any]:
        """The ``deal_end`` event of the deal just finished, with the match totals
        now (see :class:`DealEnd`); build it before the next deal is dealt."""
        event: dict[str, Any] = {"type": "deal_end", "deal_no": self.deal_no,
                                 "scores": list(self.scores)}
        event.update(details)
        return event

    def match_end_event(self, **details: Any) -> dict[str, Any]:
        """The ``match_end`` event (see :class:`MatchEnd`)."""
        event: dict[str, Any] = {"type": "match_end", "winners": list(self.winners),
                                 "scores": list(self.scores)}
        event.update(details)
        return event

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` may know, as the caller's own data: nothing in it aliases the
        match state or a module constant. A game whose ``_view`` builds every
        container afresh and copies the parts of the state it shows declares
        ``fresh_views`` and saves the copy of the whole view."""
        if seat is not None:
            seat = self._check_seat(seat)
        view = self._view(seat)
        return view if self.fresh_views else _clone(view)

    def shared_view(self, seat: int | None = None) -> dict[str, Any]:
        """:meth:`view`, but the records in it (the finished deal, the list of
        finished deals: the biggest parts of a view) are one copy shared by every
        shared view of this match and of its copies while they stay the same: made
        once from their JSON text, never the match state itself. Nothing of it may be
        changed. A server that draws every seat's view after every move parses them
        once instead of once a view, and finds them equal to the last ones at once.
        A game whose views are not made fresh (no ``fresh_views``) shares nothing: its
        shared view is its view."""
        if not self.fresh_views:
            return self.view(seat)
        if seat is not None:
            seat = self._check_seat(seat)
        self._sharing = True
        try:
            return self._view(seat)
        finally:
            self._sharing = False

    # ----- randomness and dealing ----------------------------------------
    # The generator is ``_random``; a copy gets only its state (``_random_state``,
    # shared by the copy and its original, each restoring it when it first draws),
    # so copying a seeded match costs no generator, and copies that never shuffle or
    # roll (most of a search's playouts) never build one.
    _random: random.Random | None = None
    _random_state: Any = None

    @property
    def _rng(self) -> random.Random:
        rng = self._random
        if rng is None:
            rng = self._random = random.Random(0)
            rng.setstate(self._random_state)
            self._random_state = None
        return rng

    @_rng.setter
    def _rng(self, rng: random.Random) -> None:
        self._random = rng
        self._random_state = None

    def _rng_snapshot(self) -> Any:
        """The generator's state for a snapshot (None: the system's randomness)."""
        if self._random is None:
            version, internal, gauss = self._random_state
            return [version, list(internal), gauss]
        return _rng_state(self._random)

    @property
    def rng(self) -> random.Random:
        return self._rng

    def shuffled(self, cards: list[str]) -> list[str]:
        deck = list(cards)
        self._rng.shuffle(deck)
        return deck

    def roll_die(self) -> int:
        return self._rng.randint(1, DIE_SIDES)

    def next_stacked_deal(self) -> Any | None:
        """The stacked deal for the deal about to start, or None to shuffle."""
        index = self.deal_no - 1
        if 0 <= index < len(self.stacked_deals):
            return _clone(self.stacked_deals[index])
        return None

    # ----- snapshots -------------------------------------------------------
    def _state_attrs(self) -> dict[str, Any]:
        """The state attributes (not a copy): every attribute but the underscored."""
        return {k: v for k, v in vars(self).items() if k[0] != "_"}

    def snapshot(self) -> dict[str, Any]:
        state = _clone(self._state_attrs())
        return {
            "format": SNAPSHOT_FORMAT,
            "game": self.name,
            "rng": self._rng_snapshot(),
            "state": state,
        }

    def snapshot_json(self) -> str:
        """``json.dumps(snapshot())``, made straight from the state: the JSON text the
        server stores with every step, without copying the state first (orjson: the
        same JSON as the standard library's, compact, about ten times faster)."""
        return orjson.dumps({"format": SNAPSHOT_FORMAT, "game": self.name,
                             "rng": self._rng_snapshot(), "state": self._state_attrs()},
                            option=orjson.OPT_NON_STR_KEYS).decode()

    @classmethod
    def from_snapshot(cls, snap: dict[str, Any]) -> Match:
        match = cls.__new__(cls)
        for key, value in cls.upgrade_state(_clone(snap["state"])).items():
            setattr(match, key, value)
        match._rng = _rng_from_state(snap["rng"])
        match._legal_cache = None
        match._texts = {}
        return match

    @classmethod
    def _from_state(cls, state: dict[str, Any], seed: int | str | None) -> Match:
        """A match whose state attributes are ``state`` (taken as they are, not
        copied) and whose generator is seeded with ``seed``."""
        match = cls.__new__(cls)
        match.__dict__.update(state)
        match._rng = _make_rng(seed)
        match._legal_cache = None
        match._texts = {}
        return match

    # ----- worlds (search bots) ---------------------------------------------------
    @classmethod
    def unseen(cls, view: dict[str, Any], tricks: list[Trick] | None = None) -> Unseen:
        """What ``view`` (one seat's, as :meth:`view` gave it) leaves hidden: see
        :class:`Unseen`. ``tricks`` are the finished tricks of the deal in progress,
        as the seat saw them (the view shows only the last): a trick game needs them
        once a trick is done. Raises ValueError if the view and the tricks do not fit
        together (a finished trick missing)."""
        raise NotImplementedError(f"{cls.name} cannot say what a view hides")

    @classmethod
    def from_view(cls, view: dict[str, Any], hidden: dict[str, list[str]],
                  tricks: list[Trick] | None = None, seed: int | str | None = None
                  ) -> Match:
        """The match ``view`` shows, with every place of ``unseen(view, tricks)``
        filled from ``hidden`` (place -> cards, the known ones included; ``stock``
        top first, ``open`` in the order laid): it answers every call as a match in
        that state would, and its later shuffles and dice come from ``seed``. What
        the view does not tell and play does not need (earlier deals' records) is
        left out. A search bot imagines a world and plays on with it. Raises
        ValueError where the view cannot be rebuilt (the counts do not fit)."""
        raise NotImplementedError(f"{cls.name} cannot rebuild a match from a view")

    @classmethod
    def upgrade_state(cls, state: dict[str, Any]) -> dict[str, Any]:
        """Bring the state of a snapshot taken by an earlier version up to date (a
        renamed key, say), so that a saved room resumes. Games override this."""
        return state

    def copy(self) -> Match:
        """An independent match in the same state (the server applies each action to
        a copy and keeps it only once the step is written)."""
        twin = self.__class__.__new__(self.__class__)
        plan = self.copy_plan
        fields = twin.__dict__
        for key, value in vars(self).items():
            if key[0] == "_":
                continue  # working memory: set below
            if type(value) in _NESTED:  # scalars are immutable and shared
                how = plan.get(key)
                if how == FLAT:
                    value = value.copy()
                elif how == NESTED:
                    value = [inner.copy() for inner in value]
                elif how != SAME:
                    value = _clone(value)
            fields[key] = value
        rng = self._random
        if rng is None:  # not drawn from since its own copy: share the state
            twin._random, twin._random_state = None, self._random_state
        elif isinstance(rng, secrets.SystemRandom):
            twin._random = rng  # no state to copy
        else:
            state = rng.getstate()  # both go on from here when they first draw
            self._random, self._random_state = None, state
            twin._random, twin._random_state = None, state
        twin._legal_cache = None
        # the records are shared (SAME, FLAT), so are the texts of them already made
        twin._texts = dict(self._texts)
        return twin
