"""Which free seat "any free seat" gives, in a game with teams.

Friends who join one after the other want to play together, so people fill the
seats team by team, in the order the game declares its teams (the engine view's
``teams``): at four seats whose partners sit opposite each other (``[[0, 2], [1,
3]]``) the first person sits at 0, the next at 2, then 1 and 3. A person goes to a
team that already has somebody in it and a seat left, before a team of nobody yet,
so the friend of somebody who picked a seat sits beside them too. Bots fill the
seats from the other end, in the teams nobody sits in yet, so a bot the host seats
between two friends' joins does not take the friend's place. A person who picks a
seat gets that seat. In a game without teams the first free seat is taken.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.rooms.room import Room


def partner_order(teams: Sequence[Sequence[int]], players: int) -> list[int]:
    """Every seat, team by team (each team's seats in the order it lists them), then
    the seats of no team: the order in which joins fill a table."""
    order: list[int] = []
    for team in teams:
        order += [s for s in team if 0 <= s < players and s not in order]
    return order + [s for s in range(players) if s not in order]


def next_free_seat(room: Room, is_bot: bool) -> int:
    """The free seat a join without a chosen seat gets (the room has one)."""
    free = room.free_seats
    teams = room.teams()
    if not teams:
        return free[0]
    order = partner_order(teams, room.players)
    team_of = {s: i for i, team in enumerate(teams) for s in team}

    def has_people(seat: int) -> bool:
        """The seat's team has a person in it (a seat of no team: never)."""
        team = team_of.get(seat)
        return team is not None and any(
            (p := room.seats[s]) is not None and not p.is_bot for s in teams[team])

    if is_bot:
        return min(free, key=lambda s: (has_people(s), -order.index(s)))
    return min(free, key=lambda s: (not has_people(s), order.index(s)))
