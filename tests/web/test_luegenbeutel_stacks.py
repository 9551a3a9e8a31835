"""A Lügenbeutel hand shown as stacks of equal cards (the hand is sorted by the
engine, so equal cards lie together)."""

from __future__ import annotations

from app.games.luegenbeutel import sort_hand
from app.web.games.luegenbeutel import stacks


def test_equal_cards_make_one_stack_with_their_count() -> None:
    hand = sort_hand(["7", "J", "3", "7", "L", "J", "7", "10", "A", "3"])
    assert stacks(hand) == [("3", 2), ("7", 3), ("10", 1), ("A", 1), ("J", 2), ("L", 1)]


def test_every_card_is_in_exactly_one_stack() -> None:
    hand = sort_hand([str(n % 10 + 1) for n in range(33)])
    shown = stacks(hand)
    assert sum(n for _, n in shown) == 33
    assert len({code for code, _ in shown}) == len(shown) == 10


def test_an_empty_hand_has_no_stacks() -> None:
    assert stacks([]) == []


def test_cards_laid_in_a_turn_in_progress_lie_face_down_for_everybody() -> None:
    """While a player lays several cards, the others see them lie there face down,
    how many and as what number, before the turn ends; never which cards."""
    from app.games import new_match
    from app.rooms.room import Room, Seat
    from app.web.fragments import render_fragments
    from tests.web.frames import hidden_titles

    room = Room(id="r", game="luegenbeutel", players=3, options={"challenge_ms": 0},
                host_token_hash="h")
    room.seats = [Seat(index=i, name=n, token_hash=str(i)) for i, n in
                  enumerate(["Eva", "Franz", "Gabi"])]
    room.match = match = new_match("luegenbeutel", 3, {"dealer": 2, "challenge_ms": 0},
                                   seed=3)
    seat = match.view(0)["turn"]
    lays = [a for a in match.legal_actions(seat) if a.startswith("lay:")]
    laid = [lays[0][4:]]
    match.apply(seat, lays[0])
    again = [a for a in match.legal_actions(seat) if a.startswith("lay:")]
    assert again, "more of the number may follow"
    match.apply(seat, again[0])
    laid.append(again[0][4:])
    other = (seat + 1) % 3
    board = render_fragments(room, other, False)["board"]
    assert board.count('class="card back"') == 2
    assert f"{room.seats[seat].name} is laying cards as" in board and "2 so far" in board
    assert not any(t in board for t in hidden_titles("luegenbeutel", laid))
