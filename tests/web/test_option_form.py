"""One reader of options from a form (app/web/option_form.py) for the lobby and the
host's "Play again" form: the same input is read the same way, or refused with the
same sentence about the same option."""

from __future__ import annotations

from typing import Any

import pytest

from app.rooms.errors import RoomError
from app.web.lobby import parse
from app.web.share import rematch_changes

# (the field's option, what the form sent, the options read or the refusal's words)
CASES: list[tuple[str, Any, Any]] = [
    ("chips", "30", 30),
    ("chips", " 30 ", 30),
    ("chips", "\u0663\u0660", "Starting chips must be a whole number."),  # Arabic digits
    ("chips", "3_0", "Starting chips must be a whole number."),
    ("chips", "30.0", "Starting chips must be a whole number."),
    ("chips", "", None),  # left empty: not read
    ("knock", "1", True),
    ("knock", "on", True),
    ("knock", "0", False),
    ("knock", "", False),
    ("knock", "maybe", "is either on or off."),
]


def _lobby(name: str, value: Any) -> Any:
    try:
        _game, _players, options = parse({"game": "mauscheln", f"mauscheln.{name}": value})
    except RoomError as exc:
        assert exc.fields == (name,)
        return exc.message
    return options.get(name)


def _rematch(name: str, value: Any) -> Any:
    try:
        return rematch_changes("mauscheln", {f"opt.{name}": value}).get(name)
    except RoomError as exc:
        assert exc.fields == (name,)
        return exc.message


@pytest.mark.parametrize(("name", "value", "expected"), CASES)
def test_the_lobby_and_the_rematch_form_read_options_alike(
        name: str, value: Any, expected: Any) -> None:
    lobby, rematch = _lobby(name, value), _rematch(name, value)
    assert lobby == rematch, (lobby, rematch)
    if isinstance(expected, str) and not isinstance(lobby, int):
        assert expected in lobby
    else:
        assert lobby == expected


def test_an_unticked_box_is_off_in_both_forms() -> None:
    _game, _players, options = parse({"game": "mauscheln"})
    assert options["knock"] is False
    assert rematch_changes("mauscheln", {"opt.chips": "30"})["knock"] is False
