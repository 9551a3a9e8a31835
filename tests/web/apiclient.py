"""A tiny JSON API client for tests, the way a home-made bot would talk to us."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import httpx

#: tables opened by tests play without pauses (no trick pause, no held result),
#: unless a test names its own pacing: a home-made bot then has to wait (202)
NO_PAUSES = {"trick_pause_ms": 0, "next_deal_s": 0}


class Table:
    def __init__(self, base: str, game: str = "schafkopf", players: int | None = None,
                 options: dict[str, Any] | None = None, seed: int | None = None) -> None:
        self.http = httpx.Client(base_url=base, timeout=10)
        body: dict[str, Any] = {"game": game, "options": {**NO_PAUSES, **(options or {})}}
        if players is not None:
            body["players"] = players
        if seed is not None:
            body["seed"] = seed
        r = self.http.post("/api/rooms", json=body)
        assert r.status_code == 201, r.text
        data = r.json()
        self.room: str = data["room"]
        self.url: str = data["url"]
        self.host_token: str = data["host_token"]
        self.tokens: list[str] = []
        self.players: list[str] = []  # the player token of each join, in order

    @classmethod
    def attach(cls, base: str, room: str) -> Table:
        """A second client (its own connection) for a room that already exists."""
        table = cls.__new__(cls)
        table.http = httpx.Client(base_url=base, timeout=10)
        table.room, table.url, table.host_token, table.tokens = room, "", "", []
        table.players = []
        return table

    def join(self, name: str, player: str | None = None,
             seat: int | None = None) -> tuple[int, str]:
        """Take a seat as ``name`` (``seat``, or the one the server picks); ``player``:
        the player token of an earlier join (the same person in the standings). The
        answer's player token is in ``players``."""
        body: dict[str, Any] = {"name": name}
        if player is not None:
            body["player"] = player
        if seat is not None:
            body["seat"] = seat
        r = self.http.post(f"/api/rooms/{self.room}/join", json=body)
        assert r.status_code == 200, r.text
        assert seat is None or r.json()["seat"] == seat
        seat, token = r.json()["seat"], r.json()["token"]
        self.tokens.append(token)
        self.players.append(r.json()["player"])
        return seat, token

    def start(self) -> httpx.Response:
        return self.http.post(f"/api/rooms/{self.room}/start",
                              headers={"Authorization": f"Bearer {self.host_token}"})

    def view(self, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        r = self.http.get(f"/api/rooms/{self.room}/view", headers=headers)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def act(self, token: str | None, action: Any, version: Any) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.post(f"/api/rooms/{self.room}/actions", headers=headers,
                              json={"action": action, "version": version})

    def close(self) -> None:
        self.http.close()


def sit_in_order(table: Table, names: Iterable[str], first: int = 0) -> list[tuple[int, str]]:
    """Each of ``names`` picks the next seat in turn (``first``, then on): for tests
    that count seats by who joined when (without a pick, people who join one after
    the other become partners in a game with teams). ``(seat, token)`` of each."""
    return [table.join(name, seat=seat) for seat, name in enumerate(names, start=first)]
