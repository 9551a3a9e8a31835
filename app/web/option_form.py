"""Options from a form: the one reader of option fields for the lobby's form and the
host's "Play again" form (as htmx sends it over the table's socket).

Both forms draw their option fields with ``templates/table/option_field.html``: a
field is named ``<prefix><option>`` and an on/off option is a checkbox of value
"1". The rules are the same for both:

- an on/off option is on when its field holds a checkbox's value ("on", "1",
  "true", or a script's ``true``), off when the field is missing (an unticked box
  sends nothing) or says "", "0", "false" (or ``false``); anything else is refused
  ("{option} is either on or off.");
- a choice among words (``kind`` "choice", say "redeal" or "ramsch") is one of
  its words as sent, which the game checks; anything but a string is refused
  ("{option} must be one of …");
- a number is ASCII digits (``int()`` would take any script's digits, "٣٠") or,
  from a script, a JSON number that is a whole number (never ``true`` or 1.5);
  anything else is refused ("{option} must be a whole number."); a number field
  left empty or missing is not read (the option keeps its default, or the room's
  value for a rematch);
- the range, the choices and the step of an option are the game's to check
  (:meth:`app.games.Option.check`, when the room is opened or the rematch made), so
  both forms say the same there too.

A refusal is a :class:`~app.rooms.errors.BadRequest` whose ``fields`` name the
option, so the lobby shows it next to the field.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from app.games import Option
from app.i18n import _
from app.rooms.errors import BadRequest

WHOLE_NUMBER = re.compile(r"-?[0-9]+")  # ASCII digits only (int() takes any script's)

# a form's checkbox is there ("on", or its value) or not; a script may send a boolean
FORM_ON, FORM_OFF = ("on", "1", "true"), ("", "0", "false")


def _refuse(message: str, opt: Option) -> BadRequest:
    err = BadRequest(message)
    err.fields = (opt.name,)
    return err


def read_switch(opt: Option, raw: Any) -> bool:
    """An on/off option's field (None when the form did not send it)."""
    if raw is None or isinstance(raw, bool):
        return bool(raw)
    if isinstance(raw, str) and raw.lower() in FORM_ON + FORM_OFF:
        return raw.lower() in FORM_ON
    raise _refuse(_("{option} is either on or off.").format(option=_(opt.label)), opt)


def read_number(opt: Option, raw: Any) -> int:
    """A number option's field (not empty)."""
    if isinstance(raw, str) and WHOLE_NUMBER.fullmatch(raw.strip()):
        return int(raw.strip())
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise _refuse(_("{option} must be a whole number.").format(option=_(opt.label)), opt)
    return raw


def read_choice(opt: Option, raw: Any) -> str:
    """A choice option's field (not empty): the word as sent (the game checks it is
    one of its words)."""
    if not isinstance(raw, str):
        raise _refuse(_("{option} must be one of {choices}").format(
            option=_(opt.label), choices=", ".join(str(c) for c in opt.choices)), opt)
    return raw.strip()


def read_options(spec: Iterable[Option], form: Mapping[str, Any], prefix: str
                 ) -> dict[str, Any]:
    """The options of ``spec`` from the form's fields ``<prefix><option>``, typed; a
    number field left empty or missing is left out."""
    options: dict[str, Any] = {}
    for opt in spec:
        raw = form.get(prefix + opt.name)
        if opt.kind == "bool":
            options[opt.name] = read_switch(opt, raw)
        elif raw is not None and raw != "":
            read = read_choice if opt.kind == "choice" else read_number
            options[opt.name] = read(opt, raw)
    return options
