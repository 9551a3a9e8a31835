"""The match's last trick stays in every trick game's view once the match is over
(``last_trick``), as it does after every other trick: the table shows it on the felt
instead of an empty one."""

from __future__ import annotations

import random

import pytest

from app.games import Match, new_match


def play_out(m: Match, seed: int, limit: int = 20_000) -> None:
    """Random legal moves (the first seat to act) until the match is over."""
    rng = random.Random(seed)
    for _ in range(limit):
        if m.is_over:
            return
        seat = min(m.to_act())
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    raise AssertionError("the match did not end")


def final_trick(m: Match) -> dict[str, object]:
    tricks = m.view(None)["last_deal"]["tricks"]
    last = tricks[-1]
    plays = [{"seat": p[0], "card": p[1]} if isinstance(p, list) else
             {"seat": p["seat"], "card": p["card"]} for p in last["plays"]]
    return {"plays": plays, "winner": last["winner"]}


@pytest.mark.parametrize(("game", "players", "options"), [
    ("schafkopf", 4, {"target": 1, "dealer": 3}),
    ("beutelschneider", 4, {"dealer": 0}),
    ("beutelschneider", 3, {"dealer": 0}),
    ("mauscheln", 3, {"chips": 8, "dealer": 0}),
    ("mauscheln", 5, {"chips": 8, "dealer": 0}),
])
def test_the_last_trick_is_in_the_view_once_the_match_is_over(
        game: str, players: int, options: dict[str, object]) -> None:
    m = new_match(game, players, options, seed=11)
    play_out(m, seed=3)
    last_deal = m.view(None)["last_deal"]
    assert last_deal.get("kind", "played") == "played", "a deal played out ends the match"
    want = final_trick(m)
    for seat in (None, *range(players)):
        view = m.view(seat)
        assert view["phase"] == "over" and view["trick"] == []
        shown = view["last_trick"]
        assert shown is not None, (game, seat)
        assert [{"seat": p["seat"], "card": p["card"]} for p in shown["plays"]] == want["plays"]
        assert shown["winner"] == want["winner"]
    assert m.view(None)["last_trick"] == m.copy().view(None)["last_trick"]


def test_a_mauscheln_game_the_host_ends_shows_no_trick_of_the_called_off_deal() -> None:
    m = new_match("mauscheln", 3, {"dealer": 0}, seed=11)
    rng = random.Random(5)
    while not (m.phase == "play" and m.view(None)["last_trick"] is not None):
        seat = min(m.to_act())
        m.apply(seat, rng.choice(m.legal_actions(seat)))
    m.end_by_host()
    assert m.is_over and m.view(None)["last_deal"]["kind"] == "cancelled"
    assert m.view(None)["last_trick"] is None, "nothing of a called-off deal counts"
