"""The golden machinery itself: a compact golden file still catches any change of a
single seat's view, and says where. The engine is wrapped here, never changed."""

from __future__ import annotations

from typing import Any

import pytest

import tests.games.goldens  # noqa: F401  (registers the golden cases)
from app.games import GAMES
from tests.games import golden

CASE = "schafkopf_deal"


def _tamper(monkeypatch: pytest.MonkeyPatch, *, after_steps: int, seat: int | None) -> None:
    """From the ``after_steps``-th applied action on, ``seat``'s view has one extra key."""
    monkeypatch.delenv("UPDATE_GOLDEN", raising=False)  # never rewrite a file from here
    cls = GAMES[golden.CASES[CASE]["game"]].match_class
    applied = {"n": 0}
    real_apply, real_view = cls.apply, cls.view

    def apply(self: Any, s: int, action: str) -> list[dict[str, Any]]:
        applied["n"] += 1
        return real_apply(self, s, action)

    def view(self: Any, s: int | None = None) -> dict[str, Any]:
        v = real_view(self, s)
        if s == seat and applied["n"] >= after_steps:
            v["tampered"] = True
        return v

    monkeypatch.setattr(cls, "apply", apply)
    monkeypatch.setattr(cls, "view", view)


def test_golden_catches_one_seat_view_change_between_dumps(monkeypatch: pytest.MonkeyPatch) -> None:
    _tamper(monkeypatch, after_steps=5, seat=2)
    with pytest.raises(AssertionError) as err:
        golden.replay(CASE)
    msg = str(err.value)
    assert "step 5 (seat 2 plays" in msg
    assert "seat 2: view+legal digest was" in msg
    assert '"tampered":true' in msg  # the view as it is now
    for other in ("spectator:", "seat 0:", "seat 1:", "seat 3:"):
        assert other not in msg


def test_golden_names_differing_keys_where_a_dump_is_stored(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _tamper(monkeypatch, after_steps=0, seat=None)
    with pytest.raises(AssertionError) as err:
        golden.replay(CASE)
    msg = str(err.value)
    assert "the start differs" in msg
    assert "spectator: view+legal digest was" in msg
    assert "view.tampered: new, now true" in msg


def test_golden_files_say_how_they_were_made() -> None:
    for name, case in golden.CASES.items():
        head, blocks = golden.parse(golden.path_of(name).read_text(encoding="utf-8"))
        assert head == golden.header(name)
        assert f"game={case['game']} players={case['players']}" in head[2]
        assert f"seed={case['seed']}" in head[2]
        assert golden.REGENERATE in head[1]
        assert blocks[0].line.startswith("0 - start | ")
        assert set(blocks[0].dumps) == {"-", *map(str, range(case["players"]))}
        assert 1 < len(blocks) <= case["steps"] + 1
