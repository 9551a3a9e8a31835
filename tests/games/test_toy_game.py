"""A fifth game added from outside ``app/``: Stich (``tests/games/toy_game.py``),
registered at test time. Every engine-contract check of ``test_engine_contract``
that takes a game runs for it too, and nothing in ``app/`` had to change."""

from __future__ import annotations

import inspect
import itertools
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.games import GAMES, IllegalAction, new_match, restore
from tests.games import contract
from tests.games import test_engine_contract as engine_contract
from tests.games.toy_game import DECK, INFO, NAME, ToyMatch, registered

APP_DIR = Path(__file__).resolve().parents[2] / "app"
OTHER_GAMES = ["schafkopf", "schafkopf_classic", "beutelschneider", "mauscheln", "luegenbeutel"]


@pytest.fixture
def toy() -> Iterator[None]:
    """``GAMES["toy"]`` during the test only."""
    with registered():
        yield
    assert NAME not in GAMES


# ----- the contract checks, each with every argument it takes --------------------------
ARGUMENTS: dict[str, list[Any]] = {
    "name": [NAME],
    "players": list(range(INFO.min_players, INFO.max_players + 1)),
    "quick": [False, True],
    "seeded": [True, False],
}


def contract_checks() -> list[tuple[str, Callable[..., None], dict[str, Any]]]:
    """Every test of ``test_engine_contract`` that is about one game (it takes
    ``name``), with each combination of the arguments it asks for."""
    checks = []
    for test_name, function in vars(engine_contract).items():
        if not test_name.startswith("test_") or not callable(function):
            continue
        params = list(inspect.signature(function).parameters)
        if "name" not in params:
            continue
        unknown = set(params) - set(ARGUMENTS)
        assert not unknown, f"{test_name} takes {unknown}: teach ARGUMENTS about it"
        for values in itertools.product(*(ARGUMENTS[p] for p in params)):
            kwargs = dict(zip(params, values, strict=True))
            label = "-".join(f"{k}={v}" for k, v in kwargs.items() if k != "name")
            checks.append((f"{test_name}[{label}]" if label else test_name, function, kwargs))
    return checks


CHECKS = contract_checks()


def test_the_contract_checks_are_found() -> None:
    names = {label.split("[")[0] for label, _, _ in CHECKS}
    assert "test_random_playouts_never_crash_and_views_stay_json" in names
    assert "test_snapshot_json_restore_continues_identically" in names
    assert "test_verify_accepts_exactly_the_legal_actions_and_changes_nothing" in names
    assert len(names) >= 15


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("check,kwargs", [(f, k) for _, f, k in CHECKS],
                         ids=[label for label, _, _ in CHECKS])
def test_the_engine_contract_holds_for_the_toy_game(
        check: Callable[..., None], kwargs: dict[str, Any]) -> None:
    check(**kwargs)


# ----- registration --------------------------------------------------------------------
def test_the_toy_game_exists_only_while_registered() -> None:
    assert NAME not in GAMES
    with pytest.raises(ValueError):
        new_match(NAME, 2)
    with registered():
        assert list(GAMES) == [*OTHER_GAMES, NAME], "listed after the four, by position"
        assert GAMES[NAME] is INFO and INFO.match_class is ToyMatch
    assert list(GAMES) == OTHER_GAMES
    with pytest.raises(ValueError):
        restore({"format": 1, "game": NAME, "rng": None, "state": {}})


def test_adding_the_toy_game_needed_no_change_in_app() -> None:
    for path in APP_DIR.rglob("*"):
        if path.suffix in (".py", ".html", ".md", ".js"):
            text = path.read_text(encoding="utf-8")
            assert "toy_game" not in text and '"toy"' not in text, path


@pytest.mark.usefixtures("toy")
def test_new_match_and_restore_work_for_the_toy_game() -> None:
    m = new_match(NAME, 3, {"dealer": 2, "hands": 2}, seed=5)
    assert isinstance(m, ToyMatch) and m.options["hands"] == 2
    rng = random.Random(5)
    contract.advance(m, rng, 5)
    copy = restore(json.loads(json.dumps(m.snapshot())))
    assert isinstance(copy, ToyMatch)
    assert contract.state_of(copy) == contract.state_of(m)
    contract.play_random(m, random.Random(1))
    contract.play_random(copy, random.Random(1))
    assert m.is_over and copy.is_over and m.winners == copy.winners


# ----- the rules of Stich, on the shared trick play ------------------------------------
STACKED = {"hands": [["R6", "R1", "B2", "B3", "B4", "B5"], ["R2", "R3", "R4", "R5", "B1", "B6"]]}


@pytest.mark.usefixtures("toy")
def test_forehand_leads_and_the_highest_card_of_the_led_suit_wins() -> None:
    m = new_match(NAME, 2, {"dealer": 1}, seed=1, deals=[STACKED])
    assert m.to_act() == {0}
    events = contract.act(m, "0:play:R1 1:play:R5")
    assert [e["type"] for e in events] == ["play", "play", "trick"]
    assert events[-1]["winner"] == 1 and m.to_act() == {1}, "the winner leads the next"


@pytest.mark.usefixtures("toy")
def test_a_player_must_follow_suit_and_is_told_so() -> None:
    m = new_match(NAME, 2, {"dealer": 1}, seed=1, deals=[STACKED])
    m.apply(0, "play:B2")
    assert m.legal_actions(1) == ["play:B6", "play:B1"]
    with pytest.raises(IllegalAction, match="you must follow suit: blue was led"):
        m.verify(1, "play:R2")
    with pytest.raises(IllegalAction, match="not your turn"):
        m.verify(0, "play:R6")
    with pytest.raises(IllegalAction, match="you do not hold 'R6'"):
        m.verify(1, "play:R6")


@pytest.mark.usefixtures("toy")
def test_the_most_tricks_win_and_the_records_are_the_shared_ones() -> None:
    m = new_match(NAME, 2, {"dealer": 1}, seed=1, deals=[STACKED])
    events: list[dict[str, Any]] = []
    for _ in range(6):  # seat 1 can win every trick: it holds the high red and blue
        leader = next(iter(m.to_act()))
        events += m.apply(leader, m.legal_actions(leader)[-1])
        other = 1 - leader
        events += m.apply(other, m.legal_actions(other)[0])
    (end,) = [e for e in events if e["type"] == "deal_end"]
    assert end["deal_no"] == 1 and sum(end["scores"]) == 6 == sum(end["tricks_won"])
    assert events[-1] == {"type": "match_end", "winners": m.winners, "scores": m.scores}
    assert m.winners == [s for s in (0, 1) if m.scores[s] == max(m.scores)]
    assert m.view(0)["last_deal"]["tricks_won"] == end["tricks_won"]


@pytest.mark.usefixtures("toy")
def test_a_stacked_deal_that_is_not_the_deck_is_refused() -> None:
    wrong = {"hands": [list(DECK[:6]), [*DECK[6:11], DECK[0]]]}
    with pytest.raises(ValueError, match="permutation"):
        new_match(NAME, 2, deals=[wrong])
    with pytest.raises(ValueError):
        new_match(NAME, 3, deals=[STACKED])
