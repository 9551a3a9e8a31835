"""The hint of a practice table (issue 28, :mod:`app.bots.hint` and
:meth:`app.bots.pool.BotPool.hint`): the strong bot's choice for a seat with its
estimates per legal action, the same whatever the seat cannot see, best first with
the choice among the top three; without estimates where the bot did not search; in a
bot's worker, counted as a bot's request, and leaving the seat's memory as it was."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest

from app.bots import choose_action
from app.bots.hint import HOUSE_RULES, MIN_WORLDS, ONE_OPTION, hint, top
from app.bots.pool import BotPool
from app.bots.search import SILENCE
from app.games import new_match
from tests.bots.test_review import PLAYERS, twin_matches
from tests.bots.test_review import REVIEWED_GAMES as GAMES
from tests.loops import run

SAMPLES = 3  # worlds per hint: quick and deterministic (no time budget)


def _tokens(value: Any) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", json.dumps(value, default=str)))


@pytest.mark.parametrize("game", GAMES)
def test_two_deals_differing_only_in_hidden_cards_give_the_same_hint(game: str) -> None:
    players = PLAYERS[game]
    compared = searched = 0
    for seed in range(3):
        a, b = twin_matches(game, players, seed)
        rng = random.Random(seed)
        known: set[str] = set(SILENCE.values())
        for _step in range(40):
            if a.view(0) != b.view(0) or a.is_over or a.deal_no != 1 or b.deal_no != 1:
                break
            if 0 in a.to_act() and a.legal_actions(0) == b.legal_actions(0):
                view, legal = a.view(0), a.legal_actions(0)
                optional = not a.must_act(0)
                got_a = hint(game, view, legal, None, budget_ms=None, seed=seed,
                             optional=optional, max_samples=SAMPLES)
                got_b = hint(game, b.view(0), b.legal_actions(0), None, budget_ms=None,
                             seed=seed, optional=optional, max_samples=SAMPLES)
                assert got_a == got_b
                known |= _tokens(view) | _tokens(legal)
                # nothing the seat could not see: every action named is spelled with
                # what its view and legal actions showed
                assert _tokens([got_a["action"]] + [o["action"] for o in got_a["options"]]) \
                    <= known
                _check_shape(game, got_a, legal, optional)
                compared += 1
                searched += got_a["searched"]
            seats = sorted(a.to_act() & b.to_act())
            if not seats:
                break
            seat = rng.choice(seats)
            common = [x for x in a.legal_actions(seat) if x in b.legal_actions(seat)]
            if not common:
                break
            action = choose_action(game, a.view(seat), common, rng)
            a.apply(seat, action)
            b.apply(seat, action)
    assert compared >= 3 and searched >= 1


def _check_shape(game: str, got: dict[str, Any], legal: list[str], optional: bool) -> None:
    """Best first, one entry per legal action (or silence), the choice among them."""
    allowed = set(legal) | ({SILENCE[game]} if optional and game in SILENCE else set())
    assert got["action"] in allowed
    if not got["searched"]:
        assert got["options"] == [] and got["why"] in (ONE_OPTION, HOUSE_RULES)
        return
    actions = [o["action"] for o in got["options"]]
    estimates = [o["estimate"] for o in got["options"]]
    assert len(set(actions)) == len(actions) and set(actions) <= allowed
    assert estimates == sorted(estimates, reverse=True)
    assert got["action"] in actions and got["samples"] >= 1
    shown = top(got["options"], got["action"])
    assert len(shown) == min(3, len(actions))
    assert got["action"] in [o["action"] for o in shown]
    assert [o["estimate"] for o in shown] == sorted((o["estimate"] for o in shown),
                                                    reverse=True)


def test_the_top_three_keep_the_choice() -> None:
    options = [{"action": a, "estimate": e} for a, e in
               (("a", 3.0), ("b", 2.0), ("c", 1.0), ("d", 0.5), ("e", -1.0))]
    assert [o["action"] for o in top(options, "b")] == ["a", "b", "c"]
    # the bot kept its own play, fourth by the estimates: it takes the third place
    assert [o["action"] for o in top(options, "d")] == ["a", "b", "d"]
    assert [o["action"] for o in top(options[:2], "b")] == ["a", "b"]


def test_a_seat_with_one_legal_action_gets_no_estimates() -> None:
    match = new_match("schafkopf", 4, {"dealer": 3}, seed=5)
    seat = sorted(match.to_act())[0]
    legal = match.legal_actions(seat)[:1]
    got = hint("schafkopf", match.view(seat), legal, None, budget_ms=None, seed=1,
               max_samples=SAMPLES)
    assert got == {"action": legal[0], "searched": False, "why": ONE_OPTION, "samples": 0,
                   "options": []}


def test_a_hint_weighs_its_options_however_late_the_search_starts() -> None:
    """A budget spent before the first world (a busy pool shares its time out)
    still gets estimates: a hint weighs ``MIN_WORLDS`` worlds whatever the clock
    says, where a bot at the table would have let its house rules answer."""
    match = new_match("schafkopf", 4, {"dealer": 3}, seed=5)
    seat = sorted(match.to_act())[0]
    legal = match.legal_actions(seat)
    assert len(legal) > 1
    got = hint("schafkopf", match.view(seat), legal, None, budget_ms=0.001, seed=1)
    assert got["searched"] is True and got["samples"] >= MIN_WORLDS
    assert got["options"] and {o["action"] for o in got["options"]} <= set(legal)


def test_a_view_the_search_cannot_read_is_answered_by_the_house_rules() -> None:
    """A memory that does not fit the view (a trick it never saw) leaves the search
    without worlds: the house rules answer and the hint says so, with no numbers."""
    match = new_match("schafkopf", 4, {"dealer": 3}, seed=5)
    rng = random.Random(2)
    played = 0
    while True:  # past the first trick, to a seat with a choice
        seat = sorted(match.to_act())[0]
        if played >= 5 and len(match.legal_actions(seat)) > 1:
            break
        match.apply(seat, choose_action("schafkopf", match.view(seat),
                                        match.legal_actions(seat), rng))
        played += 1
    view = match.view(seat)
    view.pop("last_trick", None)  # the finished trick is not known any more
    got = hint("schafkopf", view, match.legal_actions(seat), None, budget_ms=None, seed=1,
               max_samples=SAMPLES)
    if got["searched"]:  # the game's search drew worlds all the same: nothing to test
        pytest.skip("the search read the view")
    assert got["why"] == HOUSE_RULES and got["options"] == []
    assert got["action"] in match.legal_actions(seat)


def test_the_pool_thinks_in_a_bot_s_worker_and_leaves_the_memory_as_it_was() -> None:
    async def scenario() -> None:
        pool = BotPool(size=1, budget_ms=60)
        try:
            match = new_match("schafkopf", 4, {"dealer": 3}, seed=3)
            seat = sorted(match.to_act())[0]
            key = ("room", seat)
            pool.observe(key, match.view(None), seat=seat)
            before = pool._memory[key].state()
            asked = asyncio.create_task(pool.hint("schafkopf", match.view(seat),
                                                  match.legal_actions(seat), memory=key,
                                                  seed=4))
            await asyncio.sleep(0.01)
            assert pool.in_flight == 1 and pool.bot_waiting(), "counted as a bot's request"
            got = await asyncio.wait_for(asked, 60)
            assert pool.in_flight == 0
            assert got["action"] in match.legal_actions(seat)
            assert pool._memory[key].state() == before, "a hint is not an action"
            with pytest.raises(ValueError):
                await pool.hint("schafkopf", match.view(seat), [], seed=1)
        finally:
            pool.close()

    run(scenario())
