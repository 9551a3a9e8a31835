"""The lobby's form: read into a game, a player count and options, and shown again
exactly as it was entered when the room cannot be opened, with what to change
next to the field it is about.

Every field of the form is named ``game``, ``<game>.players``, ``<game>.<option>``
or ``table.<option>``. A refusal (:class:`app.rooms.errors.RoomError`) names the
options it is about in ``fields`` (the engine's :class:`app.games.OptionError`
does, and so do the form's own checks here); those become form fields. A limit
(429: too many tables opened, or open, from the client's address, or on the
server) is about opening the table at all: it is said next to the "Open the
table" button (:data:`OPEN_FIELD`) and above the form. Any other error about
nothing in the form is shown above the form only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.games import GAMES, Option
from app.i18n import N_, get_language
from app.rooms.errors import RoomError
from app.rooms.table_options import TABLE_OPTION_NAMES, TABLE_OPTIONS
from app.web.messages import error_text
from app.web.option_form import WHOLE_NUMBER, read_options

GAME_FIELD = "game"
TABLE = "table"
OPEN_FIELD = "open"  # the "Open the table" button: where a limit is said


def players_field(game: str) -> str:
    return f"{game}.players"


def field_id(name: str) -> str:
    """The HTML id of the form field ``name`` (dots are not welcome in ids)."""
    return "f-" + name.replace(".", "-")


@dataclass(frozen=True)
class FieldError:
    """A refusal as one field shows it: the message's element id, and the message
    where the field shows it (the last field of those it is about), else ""."""

    id: str
    message: str = ""


@dataclass
class LobbyForm:
    """What the lobby shows: the chosen game, every field's value, the errors."""

    game: str
    values: dict[str, Any]
    errors: dict[str, FieldError] = field(default_factory=dict)
    error: str = ""  # the message above the form
    error_target: str = ""  # the id of the first field it is about ("" for none)

    def context(self) -> dict[str, Any]:
        return {"lobby": self, "error": self.error, "table_options": TABLE_OPTIONS,
                "lobby_games": lobby_order()}


def lobby_order(language: str | None = None) -> list[str]:
    """The games as the lobby lists them in ``language`` (None: the page's): those
    its visitors play first (``GameInfo.first_for``), then ``GAMES``' order."""
    lang = language or get_language()
    return sorted(GAMES, key=lambda name: lang not in GAMES[name].first_for)


def _refuse(message: str, *fields: str) -> RoomError:
    err = RoomError(message)
    err.fields = fields
    return err


def parse(form: Mapping[str, Any]) -> tuple[str, int | None, dict[str, Any]]:
    """The game chosen in the lobby form, its player count (None: the game's
    smallest) and its options with the table's own ("table.<option>", the same for
    every game), typed; :class:`RoomError` naming the fields otherwise."""
    game = str(form.get(GAME_FIELD, ""))
    if game not in GAMES:
        raise _refuse(N_("Please choose a game."), GAME_FIELD)
    info = GAMES[game]
    players = None
    raw_players = form.get(players_field(game))
    if raw_players not in (None, ""):
        if not WHOLE_NUMBER.fullmatch(str(raw_players).strip()):
            raise _refuse(N_("Players must be a number."), "players")
        players = int(str(raw_players).strip())
    options = read_options(info.options, form, f"{game}.")
    if any(k.startswith(TABLE + ".") for k in form):
        options.update(read_options(TABLE_OPTIONS, form, f"{TABLE}."))
    return game, players, options


def _defaults() -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, info in GAMES.items():
        values[players_field(name)] = info.min_players
        for o in info.options:
            values[f"{name}.{o.name}"] = o.default
    for o in TABLE_OPTIONS:
        values[f"{TABLE}.{o.name}"] = o.default
    return values


def fresh() -> LobbyForm:
    """The lobby as it first opens: the first game of the page's language, every
    default."""
    return LobbyForm(game=lobby_order()[0], values=_defaults())


def _as_entered(form: Mapping[str, Any]) -> dict[str, Any]:
    """Every field as the form sent it: a checkbox is on exactly when it was sent
    (an unticked box sends nothing), any other field keeps its text (as typed)."""
    values = _defaults()

    def enter(key: str, o: Option) -> None:
        if o.kind == "bool":
            values[key] = key in form
        elif key in form:  # a field left out keeps its default, as the server did
            values[key] = str(form[key])

    for name, info in GAMES.items():
        for o in info.options:
            enter(f"{name}.{o.name}", o)
        if (raw := form.get(players_field(name))) is not None:
            values[players_field(name)] = str(raw)
    if any(k.startswith(TABLE + ".") for k in form):
        for o in TABLE_OPTIONS:
            enter(f"{TABLE}.{o.name}", o)
    return values


def _form_field(game: str, name: str) -> str | None:
    """The lobby field of an option (or "players", "game") the refusal names."""
    if name in (GAME_FIELD, OPEN_FIELD):
        return name
    if game not in GAMES:
        return None
    if name == "players":  # a game for a fixed number has no such field
        info = GAMES[game]
        return players_field(game) if info.min_players != info.max_players else None
    if name in TABLE_OPTION_NAMES:
        return f"{TABLE}.{name}"
    if any(o.name == name for o in GAMES[game].options):
        return f"{game}.{name}"
    return None


def _order(game: str) -> list[str]:
    """The lobby's fields in the order the page shows them."""
    order = [GAME_FIELD]
    for name, info in GAMES.items():
        order.append(players_field(name))
        order += [f"{name}.{o.name}" for o in info.options]
    return order + [f"{TABLE}.{o.name}" for o in TABLE_OPTIONS] + [OPEN_FIELD]


def refused(form: Mapping[str, Any], exc: RoomError) -> LobbyForm:
    """The lobby form as it was sent, with ``exc`` above it and next to its fields."""
    game = str(form.get(GAME_FIELD, ""))
    message = error_text(exc, game if game in GAMES else None)
    named = getattr(exc, "fields", ()) or ((OPEN_FIELD,) if exc.status == 429 else ())
    fields = [f for name in named if (f := _form_field(game, name))]
    order = _order(game)
    fields.sort(key=order.index)
    lobby = LobbyForm(game=game if game in GAMES else next(iter(GAMES)),
                      values=_as_entered(form), error=message)
    if fields:
        error_id = "err-" + field_id(fields[-1])[2:]
        lobby.errors = {f: FieldError(error_id) for f in fields}
        lobby.errors[fields[-1]] = FieldError(error_id, message)
        lobby.error_target = field_id(fields[0])
    return lobby
