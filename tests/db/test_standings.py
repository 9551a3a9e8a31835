"""Standings per person (issue 24): a person is the player key of a browser or API
client, shown by the name of their latest match; the same name from two browsers is
two people; seats without a key (bots, seats from before player keys) count by name.
Grouped in SQL, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from app.db import Database, repo

ANNA_PHONE, ANNA_LAPTOP, OTHER_ANNA = (repo.token_hash(t) for t in ("p1", "p2", "p3"))


def _finished(db: Database, match_id: str, seats: list[tuple[str, str | None, bool]],
              scores: list[int], winners: list[int], *, game: str = "mauscheln",
              chips: int | None = 20, through_step: bool = True) -> None:
    """A finished match: ``seats`` as (name, player key, is bot)."""
    db.run_sync(repo.create_match, match_id=match_id, game=game, players=len(seats),
                options={"chips": chips} if chips is not None else {}, host_token="h")
    for seat, (name, key, bot) in enumerate(seats):
        db.run_sync(repo.add_seat, match_id=match_id, seat=seat, name=name,
                    token=f"{match_id}-{seat}", is_bot=bot, player_key=key)
    start = [chips] * len(seats) if chips is not None else None
    db.run_sync(repo.record_step, match_id=match_id, seq=1, seat=None, action="start",
                events=[], snapshot={}, deals=[], started=True, start_chips=start)
    if through_step:  # as the room writes it
        db.run_sync(repo.record_step, match_id=match_id, seq=2, seat=0, action="x",
                    events=[], snapshot={}, deals=[], finished=(scores, winners))
    else:
        db.run_sync(repo.finish_match, match_id=match_id, final_scores=scores,
                    winners=winners)


def _rows(db: Database, game: str = "mauscheln", **kw: Any) -> list[tuple[Any, ...]]:
    return [(s.name, s.is_bot, s.played, s.won, s.points, s.chips_net, s.is_you)
            for s in db.run_sync(repo.standings, game=game, **kw)]


def test_people_are_their_browsers_not_their_names(db_url: str) -> None:
    db = Database(db_url)
    try:
        _finished(db, "m1", [("Anna", ANNA_PHONE, False), ("Anna", OTHER_ANNA, False),
                             ("Bot Hans", None, True)], [30, 10, 20], [0])
        _finished(db, "m2", [("Anna", ANNA_LAPTOP, False), ("Anna", OTHER_ANNA, False),
                             ("Bot Hans", None, True)], [5, 40, 15], [1], through_step=False)
        # the phone's Anna plays again later under another name: still one person
        _finished(db, "m3", [("Anni", ANNA_PHONE, False), ("Bert", None, False),
                             ("Bot Hans", None, True)], [25, 25, 10], [0, 1])
        rows = _rows(db, player_key=ANNA_PHONE)
        assert rows == [
            ("Anni", False, 2, 2, 55, 15, True),  # m1 + m3, shown by the latest name
            ("Anna", False, 2, 1, 50, 10, False),  # the other Anna's browser
            ("Bert", False, 1, 1, 25, 5, False),  # no key: by name
            ("Anna", False, 1, 0, 5, -15, False),  # the laptop: somebody else so far
            ("Bot Hans", True, 3, 0, 45, -15, False),
        ]
        assert all(not r[-1] for r in _rows(db))  # nobody asks: nobody is "you"
        assert _rows(db, game="schafkopf") == []
    finally:
        db.close()


def test_seats_from_before_player_keys_count_by_name_and_games_without_chips(
        db_url: str) -> None:
    db = Database(db_url)
    try:
        for n in range(3):
            _finished(db, f"s{n}", [("Anna", None, False), ("Bert", None, False),
                                    ("Anna", ANNA_PHONE, False), ("Cilli", None, False)],
                      [11, 4, 11, 4], [0, 2], game="schafkopf", chips=None)
        rows = _rows(db, game="schafkopf", player_key=ANNA_PHONE)
        assert sorted(rows) == sorted([
            ("Anna", False, 3, 3, 33, 0, False), ("Anna", False, 3, 3, 33, 0, True),
            ("Bert", False, 3, 0, 12, 0, False), ("Cilli", False, 3, 0, 12, 0, False)])
    finally:
        db.close()


def test_standings_are_one_query_however_many_matches(db_url: str) -> None:
    db = Database(db_url)
    try:
        for n in range(12):
            _finished(db, f"q{n}", [("Anna", ANNA_PHONE, False), ("Bert", None, False),
                                    ("Bot Hans", None, True)], [30, 10, 20], [0])
        statements: list[str] = []

        def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            statements.append(statement)

        event.listen(db.engine, "before_cursor_execute", seen)
        try:
            rows = _rows(db)
        finally:
            event.remove(db.engine, "before_cursor_execute", seen)
        assert [r[:4] for r in rows] == [("Anna", False, 12, 12), ("Bert", False, 12, 0),
                                         ("Bot Hans", True, 12, 0)]
        selects = [s for s in statements if s.lstrip().upper().startswith(("SELECT", "WITH"))]
        assert len(selects) == 1 and "GROUP BY" in selects[0].upper()
    finally:
        db.close()


def test_one_person_on_two_browsers_can_be_merged(db_url: str) -> None:
    db = Database(db_url)
    try:
        _finished(db, "m1", [("Anna", ANNA_PHONE, False), ("Bert", None, False)], [30, 10], [0])
        _finished(db, "m2", [("Anna", ANNA_LAPTOP, False), ("Bert", None, False)], [5, 35], [1])
        assert len(_rows(db)) == 3
        assert db.run_sync(repo.merge_players, from_key=ANNA_LAPTOP, into_key=ANNA_PHONE) == 1
        assert ("Anna", False, 2, 1, 35, -5, True) in _rows(db, player_key=ANNA_PHONE)
        assert len(_rows(db)) == 2
    finally:
        db.close()


def test_a_rematch_keeps_each_seats_player(db_url: str) -> None:
    db = Database(db_url)
    try:
        _finished(db, "m1", [("Anna", ANNA_PHONE, False), ("Bot Hans", None, True)],
                  [30, 10], [0])
        old = db.run_sync(repo.open_match, match_id="m1")
        assert old is not None
        db.run_sync(repo.create_rematch, old_id="m1", new_id="m2", options={"chips": 20},
                    table_options={}, seed=None, seats=old.seats)
        db.run_sync(repo.record_step, match_id="m2", seq=1, seat=None, action="start",
                    events=[], snapshot={}, deals=[], started=True, start_chips=[20, 20])
        db.run_sync(repo.record_step, match_id="m2", seq=2, seat=0, action="x",
                    events=[], snapshot={}, deals=[], finished=([40, 0], [0]))
        assert _rows(db, player_key=ANNA_PHONE)[0] == ("Anna", False, 2, 2, 70, 30, True)
    finally:
        db.close()
