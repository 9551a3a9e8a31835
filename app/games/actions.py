"""Typed actions: what a seat does, read once from the string that spells it.

Strings stay the wire and log format (docs/engine.md: ``legal_actions``, ``apply``,
the action log). Inside, the engines and the bots work on the typed action a string
spells: a frozen dataclass per kind of action, whose ``wire`` (and ``str()``) is
exactly that string. A game reads a string with its :class:`~app.games.base.Parser`
(the kinds it knows, each string read once); nothing else takes an action string
apart. An engine dispatches on the type of an action, never on a prefix.

Each kind says how it is spelled (``spelled``) and reads its own spelling back
(``read``: the action, or None for a string that is not of this kind). A kind reads
any text where a card is named (``play:ZZ`` is ``Play("ZZ")``, a card nobody holds):
whether a card is held is a question of legality, answered with the reason a player
reads ("you do not hold 'ZZ'"), not of spelling.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Literal


@dataclass(frozen=True, slots=True, eq=False)
class Action:
    """The base of every typed action. ``wire`` is the string that spells it, made
    once when the action is made (a legal list is spelled out at every turn).

    Two actions are equal when they are of one kind and spell the same string (its
    fields, read back); they hash as their string. Written here once for every kind
    (``eq=False`` on each): a bot's sets of actions and a check against a legal list
    compare strings whose hashes are kept, not tuples of fields."""

    wire: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "wire", self.spelled())

    def spelled(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return self.wire

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and other.wire == self.wire)

    def __hash__(self) -> int:
        return hash(self.wire)

    @classmethod
    def read(cls, text: str) -> Action | None:
        """The action of this kind that ``text`` spells, or None."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True, eq=False)
class _Carded(Action):
    """An action that names one card: ``<prefix><card>``."""

    card: str
    prefix: ClassVar[str] = ""

    def spelled(self) -> str:
        return self.prefix + self.card

    @classmethod
    def read(cls, text: str) -> Action | None:
        return cls(text[len(cls.prefix) :]) if text.startswith(cls.prefix) else None


@dataclass(frozen=True, slots=True, eq=False)
class _Said(Action):
    """A decision with a yes and a no word (``yes_no``): ``yes`` says which."""

    yes: bool
    yes_no: ClassVar[tuple[str, str]] = ("", "")

    def spelled(self) -> str:
        return self.yes_no[0] if self.yes else self.yes_no[1]

    @classmethod
    def read(cls, text: str) -> Action | None:
        yes, no = cls.yes_no
        return cls(True) if text == yes else cls(False) if text == no else None


# ----- trick play (every game but Lügenbeutel) ------------------------------------------
@dataclass(frozen=True, slots=True, eq=False)
class Play(_Carded):
    """``play:<card>``: play a card to the trick."""

    prefix: ClassVar[str] = "play:"


class Plays(dict[str, Play]):
    """``PLAYS[card]``: the one :class:`Play` of each card, made on first use (a trick
    game lists its plays at every turn; a card's play is made once). Engines look up
    the cards of their decks only."""

    def __missing__(self, card: str) -> Play:
        play = self[card] = Play(card)
        return play


class PlayWires(dict[str, str]):
    """``PLAY_WIRES[card]``: the string of the card's :class:`Play` (a trick game spells
    its plays at every turn)."""

    def __missing__(self, card: str) -> str:
        wire = self[card] = PLAYS[card].wire
        return wire


PLAYS = Plays()
PLAY_WIRES = PlayWires()


# ----- Mauscheln's words and the exchange ------------------------------------------------
@dataclass(frozen=True, slots=True, eq=False)
class Knock(_Said):
    """``knock`` (yes) / ``no_knock``: the dealer's blind decision on a turned-up Ace."""

    yes_no: ClassVar[tuple[str, str]] = ("knock", "no_knock")


@dataclass(frozen=True, slots=True, eq=False)
class Bid(_Said):
    """``mauschel`` (yes) / ``pass``: play the deal as sneaker, or not."""

    yes_no: ClassVar[tuple[str, str]] = ("mauschel", "pass")


@dataclass(frozen=True, slots=True, eq=False)
class Answer(_Said):
    """``join`` (yes) / ``fold``: play along against the sneaker, or not."""

    yes_no: ClassVar[tuple[str, str]] = ("join", "fold")


KNOCK, NO_KNOCK = Knock(True), Knock(False)
MAUSCHEL, PASS_BID = Bid(True), Bid(False)
JOIN, FOLD = Answer(True), Answer(False)


@dataclass(frozen=True, slots=True, eq=False)
class Exchange(Action):
    """``exchange:<c1>,<c2>,...``: discard these cards (in hand order) and draw as
    many; ``exchange:`` discards nothing."""

    discards: tuple[str, ...]
    prefix: ClassVar[str] = "exchange:"

    def spelled(self) -> str:
        return self.spell(self.discards)

    @classmethod
    def spell(cls, discards: Sequence[str]) -> str:
        """The string of the exchange of ``discards``, without making it."""
        return cls.prefix + ",".join(discards)

    @classmethod
    def read(cls, text: str) -> Action | None:
        if not text.startswith(cls.prefix):
            return None
        body = text[len(cls.prefix) :]
        return cls(tuple(body.split(",")) if body else ())


# ----- Lügenbeutel -----------------------------------------------------------------------
@dataclass(frozen=True, slots=True, eq=False)
class Lay(_Carded):
    """``lay:<card>``: lay one card face down, claimed as the required number."""

    prefix: ClassVar[str] = "lay:"


@dataclass(frozen=True, slots=True, eq=False)
class Skip(_Carded):
    """``skip:<card>``: lay one card claimed as Aussetzen; the whole turn."""

    prefix: ClassVar[str] = "skip:"


@dataclass(frozen=True, slots=True, eq=False)
class _Word(Action):
    """An action that is one fixed word."""

    word: ClassVar[str] = ""

    def spelled(self) -> str:
        return self.word

    @classmethod
    def read(cls, text: str) -> Action | None:
        return cls() if text == cls.word else None


@dataclass(frozen=True, slots=True, eq=False)
class Pass(_Word):
    """``pass``: draw one card instead of laying."""

    word: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True, eq=False)
class End(_Word):
    """``end``: close the turn."""

    word: ClassVar[str] = "end"


@dataclass(frozen=True, slots=True, eq=False)
class Accept(_Word):
    """``accept``: let an emptied hand win the round (no challenge)."""

    word: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True, eq=False)
class Challenge(Action):
    """``challenge:<i>`` (the i-th card of the open turn, from 1) or ``challenge:all``
    (the whole turn, in the ``reveal_all`` variant)."""

    position: int | Literal["all"]
    prefix: ClassVar[str] = "challenge:"

    def spelled(self) -> str:
        return f"{self.prefix}{self.position}"

    @classmethod
    def read(cls, text: str) -> Action | None:
        if not text.startswith(cls.prefix):
            return None
        arg = text[len(cls.prefix) :]
        if arg == "all":
            return cls("all")
        # digits only, as legal_actions spells them (no sign, space or leading zero)
        if arg.isascii() and arg.isdigit() and str(int(arg)) == arg:
            return cls(int(arg))
        return None


# ----- the classic Schafkopf's auction and doublings ----------------------------------------
@dataclass(frozen=True, slots=True, eq=False)
class Speak(_Said):
    """``bid`` (yes, "Ich spiel") / ``pass`` ("weiter"): whether the seat would play;
    when the bidders name their game, ``pass`` withdraws."""

    yes_no: ClassVar[tuple[str, str]] = ("bid", "pass")


@dataclass(frozen=True, slots=True, eq=False)
class _Named(Action):
    """An action that names one thing that is not a card (a game, a suit):
    ``<prefix><name>``. Like a card, any text is read as the name; whether it names
    something that may be named now is legality."""

    name: str
    prefix: ClassVar[str] = ""

    def spelled(self) -> str:
        return self.prefix + self.name

    @classmethod
    def read(cls, text: str) -> Action | None:
        return cls(text[len(cls.prefix) :]) if text.startswith(cls.prefix) else None


@dataclass(frozen=True, slots=True, eq=False)
class NameGame(_Named):
    """``class:<game>``: name a class of game in the auction (``rufspiel``, ``wenz``,
    ``geier``, ``solo``, ``wenz_tout``, ``geier_tout``, ``solo_tout``)."""

    prefix: ClassVar[str] = "class:"


@dataclass(frozen=True, slots=True, eq=False)
class CallSau(_Named):
    """``call:<suit>``: the declarer of a Rufspiel calls the Sau of that suit."""

    prefix: ClassVar[str] = "call:"


@dataclass(frozen=True, slots=True, eq=False)
class ChooseTrump(_Named):
    """``trump:<suit>``: the declarer of a Farbsolo chooses the trump suit."""

    prefix: ClassVar[str] = "trump:"


@dataclass(frozen=True, slots=True, eq=False)
class Kontra(_Word):
    """``kontra``: an opponent of the declaring party doubles the deal's value."""

    word: ClassVar[str] = "kontra"


@dataclass(frozen=True, slots=True, eq=False)
class Retour(_Word):
    """``retour``: the declaring party doubles a Kontra'd deal's value again."""

    word: ClassVar[str] = "retour"


BID, PASS_SPEAK = Speak(True), Speak(False)
KONTRA, RETOUR = Kontra(), Retour()
