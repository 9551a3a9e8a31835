"""A push carries only the fragments that changed for its socket, and a fragment that
is the same for several seats is rendered once: the same HTML each seat would have
rendered for itself, never more than that seat may see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from app import i18n
from app.games import new_match
from app.rooms.clock import ManualClock
from app.rooms.room import Room, Seat
from app.web.fragments import (
    FRAGMENTS,
    PLATE_TEMPLATE,
    Drawn,
    SharedFragments,
    changes,
    render_fragments,
    shared,
)
from app.web.render import env, room_context
from tests.conftest import Server
from tests.web.apiclient import Table, sit_in_order
from tests.web.frames import (
    TABLE_IDS,
    TableSocket,
    frame_actions,
    frame_version,
    hidden_titles,
    open_socket,
    top_level,
)
from tests.web.test_render_states import VARIANTS


def _ids(raw: str) -> set[str]:
    """The fragments a push touches (a plate or the trick alone counts as its
    fragment)."""
    out = set()
    for key, _ in top_level(raw):
        if key in TABLE_IDS:
            out.add(key)
        elif key is not None and key.startswith("plate-"):
            out.add("seats")
        elif key in ("trick", "trick-note", "last-trick"):  # parts of the board
            out.add("board")
    return out


def _next(ws: Any, version: int) -> str:
    """The raw pushes up to the one that shows ``version``, joined."""
    pushes = []
    while True:
        ws.recv(timeout=5)
        pushes.append(ws.last_raw)
        if frame_version(ws.last_raw) >= version:
            return "".join(pushes)


def test_a_push_sends_only_what_changed_and_a_new_socket_gets_everything(
        sqlite_server: Server) -> None:
    table = Table(sqlite_server.base, "schafkopf", options={"dealer": 3}, seed=4)
    seats = sit_in_order(table, ("Anna", "Bert", "Cilli", "Done"))
    assert table.start().status_code == 200
    sockets = [open_socket(sqlite_server.ws_base, table.room, tok) for _, tok in seats]
    try:
        firsts = [ws.recv(timeout=5) for ws in sockets]
        for ws in sockets:
            assert _ids(ws.last_raw) == set(TABLE_IDS)  # the whole table first
        version = frame_version(firsts[0])
        me = next(i for i, f in enumerate(firsts) if frame_actions(f))
        nxt = (me + 1) % 4
        assert table.act(seats[me][1], frame_actions(firsts[me])[0], version).status_code == 200
        hands = [table.view(tok)["view"]["hand"] for _, tok in seats]  # the cards held now
        raws = [_next(ws, version + 1) for ws in sockets]
        for i, raw in enumerate(raws):
            ids = _ids(raw)
            assert {"board", "version"} <= ids, [k for k, _ in top_level(raw)]  # the card
            # a hand is sent again only where it changed: the card left the player's
            # hand, and the next player's cards became playable
            assert ("hand" in ids) == (i in (me, nxt)), (i, ids)
            assert "host-end" not in ids and "rematch" not in ids
            others = [c for j, h in enumerate(hands) if j != i for c in h]
            assert not any(t in raw for t in hidden_titles("schafkopf", others))
        # the unchanged hand is still on the page (the socket keeps what it was sent)
        assert 'id="hand"' in sockets[(me + 2) % 4].table["hand"]
        # a reconnect (a reload, a new tab) gets the whole table again
        again = open_socket(sqlite_server.ws_base, table.room, seats[me][1])
        try:
            again.recv(timeout=5)
            assert _ids(again.last_raw) == set(TABLE_IDS)
            assert frame_version(again.last_raw) == version + 1
        finally:
            again.close()
    finally:
        for ws in sockets:
            ws.close()


def _room(game: str, players: int, options: dict[str, Any], seed: int) -> Room:
    # a clock that stands still: the time left until a bot plays for a seat nobody is
    # at is drawn on its plate, and must not move between the renders compared
    room = Room(id="r", game=game, players=players, options=options, host_token_hash="h",
                clock=ManualClock(start=0.0))
    room.seats = [Seat(index=i, name=f"P{i}", token_hash=str(i)) for i in range(players)]
    room.match = new_match(game, players, dict(options, dealer=0), seed=seed)
    return room


def test_a_shared_fragment_is_the_same_for_every_seat_and_holds_no_hand() -> None:
    room = _room("schafkopf", 4, {}, seed=5)
    match = room.match
    assert match is not None
    for _ in range(2):  # two cards on the table
        seat = sorted(match.to_act())[0]
        match.apply(seat, match.legal_actions(seat)[0])
    cache = shared(room)
    room.changed()
    per_seat = {seat: cache.render(room, seat, seat == 0) for seat in [0, 1, 2, 3, None]}
    # the board is rendered once and is the same for everybody, the spectator too
    boards = {f["board"] for f in per_seat.values()}
    assert len(boards) == 1
    board = boards.pop()
    assert board.count('class="played') == 2
    cards = [c for s in range(4) for c in match.view(s)["hand"]]
    assert not any(t in board for t in hidden_titles("schafkopf", cards))
    # each hand is its own: four different ones, none holding another seat's cards
    assert len({per_seat[s]["hand"] for s in range(4)}) == 4
    for s in range(4):
        others = [c for o in range(4) if o != s for c in match.view(o)["hand"]]
        assert not any(t in per_seat[s]["hand"] for t in hidden_titles("schafkopf", others))
    # 11 fragments, 4 plates, the trick's 3 parts and the status's facts for 5 viewers:
    # the shared ones are rendered once
    assert cache.renders + cache.reused == 5 * (len(FRAGMENTS) + 4 + 3 + 1)
    assert len(cache.kept[("en", "games/schafkopf/facts.html")]) == 1  # the same for all
    assert cache.reused >= 4 * 3  # board, notice, version at least
    # a change of the room starts afresh
    before = cache.renders
    room.changed()
    cache.render(room, 1, False)
    assert cache.renders == before + len(FRAGMENTS) + 4 + 3 + 1


def test_the_ring_of_plates_is_the_same_for_every_seated_player() -> None:
    """The plates round the table are placed in CSS from the viewer's seat (kept on
    the viewer's own hand), so after a change the seated players that are not the
    host all get the same ring, and it is rendered at most twice: host and others."""
    room = _room("schafkopf", 4, {}, seed=7)
    match = room.match
    assert match is not None
    cache = shared(room)
    for _ in range(3):
        seat = sorted(match.to_act())[0]
        match.apply(seat, match.legal_actions(seat)[0])
        room.version += 1
        room.changed()
        renders = cache.renders
        per_seat = {s: cache.render(room, s, s == 0) for s in range(4)}
        assert len({per_seat[s]["seats"] for s in (1, 2, 3)}) == 1
        assert len(cache.kept[("en", "table/fragments/seats.html")]) <= 2
        assert cache.renders - renders <= 2 + 4 * 2 + 3 * (len(FRAGMENTS) - 1)
        ring = per_seat[1]["seats"]
        assert " me" not in ring and "--x" not in ring and ring.count('class="you"') == 4
        assert [f'data-seat="{s}" style="--s: {s}"' in ring for s in range(4)] == [True] * 4
        # each seat's own hand tells the page whose it is
        for s in range(4):
            assert f'class="hand-area" data-seat="{s}"' in per_seat[s]["hand"]
    assert 'class="hand-area" data-seat=""' in cache.render(room, None, False)["hand"]
    seats = next(f for f in FRAGMENTS if f.id == "seats")
    assert not {"seat", "order", "ring"} & set(seats.names)


@pytest.mark.parametrize(("game", "players", "options"), VARIANTS,
                         ids=[f"{g}-{n}-{'-'.join(o) or 'plain'}" for g, n, o in VARIANTS])
def test_shared_rendering_gives_each_seat_exactly_its_own_table(
        game: str, players: int, options: dict[str, Any]) -> None:
    """Whatever the game and the state, the fragments a seat gets (kept from an
    earlier push of its own, or from another seat's of this moment) are the ones it
    renders for itself afresh, in both languages, the host's and a spectator's too."""
    room = _room(game, players, options, seed=players + 1)
    for s in range(players):
        room.arrive(s)
    cache = SharedFragments()
    rng = random.Random(players)
    match = room.match
    assert match is not None
    memos: dict[tuple[int | None, str], dict[str, Drawn]] = {}
    for step in range(60):
        room.version = step
        room.tell()
        for language in ("en", "de") if step % 3 == 0 else ("en",):
            with i18n.language(language):
                for seat in [*range(players), None]:
                    parts = cache.parts(room, seat, seat == 0, memos.get((seat, language)))
                    memos[(seat, language)] = parts  # what this seat's socket has now
                    got = {fid: part.html for fid, part in parts.items()}
                    assert got == render_fragments(room, seat, seat == 0), (step, seat)
        if match.is_over:
            break
        seat = rng.choice(sorted(match.to_act()))
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    # most fragments come from what was kept: of one seat's earlier push, or another's
    assert cache.reused > cache.renders, (cache.reused, cache.renders)


def test_a_fragment_is_rendered_again_only_when_what_it_shows_changed() -> None:
    """After a card is played, a seat whose cards did not change keeps its hand (the
    very HTML it was given), and the fragments every seat sees alike are rendered
    once; the result, the notice and the host's tools are not rendered at all."""
    room = _room("schafkopf", 4, {}, seed=6)
    for s in range(4):
        room.arrive(s)
    match = room.match
    assert match is not None
    cache = SharedFragments()
    seat = sorted(match.to_act())[0]
    match.apply(seat, match.legal_actions(seat)[0])  # the deal has begun
    room.changed()
    first = {s: cache.parts(room, s, False) for s in range(4)}
    seat = sorted(match.to_act())[0]
    match.apply(seat, match.legal_actions(seat)[0])
    room.changed()
    before = cache.renders
    after = {s: cache.parts(room, s, False, first[s]) for s in range(4)}
    nxt = sorted(match.to_act())[0]
    for s in range(4):
        if s not in (seat, nxt):
            assert after[s]["hand"] is first[s]["hand"]
        assert after[s]["result"] is first[s]["result"]
        assert after[s]["notice"] is first[s]["notice"]
        # the turn line moved on, what stands of the deal did not: not drawn again
        assert after[s]["status"].parts[0] is first[s]["status"].parts[0]
        assert {k: p.html for k, p in after[s].items()} == render_fragments(room, s, False)
    assert after[seat]["hand"] != first[seat]["hand"]
    rendered = cache.renders - before
    # the board with its trick, the ring with its two plates whose turn mark moved,
    # the version, once; two hands; the status, the turn signal and the buttons for
    # the one to play and the others
    assert rendered <= 6 + 2 + 3 * 2, rendered


def test_a_plate_or_the_trick_goes_alone_when_only_it_changed() -> None:
    """After a card is played, the ring sends the two plates whose turn mark moved
    and the board its trick, each swapped by its id; the page put together from them
    is the table drawn afresh. Anything else that changed goes whole."""
    room = _room("schafkopf", 4, {}, seed=8)
    for s in range(4):
        room.arrive(s)
    match = room.match
    assert match is not None
    cache = SharedFragments()
    page = TableSocket(None)  # type: ignore[arg-type]  # only its fragments are used
    before = cache.parts(room, 1, False)
    page.table = {fid: d.html for fid, d in before.items()}
    alone = trick_alone = 0
    for _ in range(12):
        seat = sorted(match.to_act())[0]
        match.apply(seat, match.legal_actions(seat)[0])
        room.version += 1
        room.changed()
        after = cache.parts(room, 1, False, before)
        push = changes(before, after)
        keys = [key for key, _ in top_level(push)]
        assert "version" in keys and len(keys) == len(set(keys))
        plates = [k for k in keys if k and k.startswith("plate-")]
        if plates:
            alone += 1
            assert "seats" not in keys and len(plates) < 4
        if "trick" in keys:
            trick_alone += 1
            assert "board" not in keys
        for key, html in top_level(push):
            assert key is not None
            if key in page.table:
                page.table[key] = html
            else:
                assert page.swap_inner(key, html), key
        assert page.table == render_fragments(room, 1, False)
        before = after
    assert alone >= 10 and trick_alone >= 8


def test_in_development_nothing_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """With DEV a template may change between two pushes: every seat renders all."""
    monkeypatch.setattr(env, "auto_reload", True)
    room = _room("schafkopf", 4, {}, seed=5)
    cache = SharedFragments()
    first = cache.parts(room, 0, False)
    for seat in [0, 1, None]:
        again = cache.parts(room, seat, False, first)
        assert {k: d.html for k, d in again.items()} == render_fragments(room, seat, False)
        assert all(again[k] is not first[k] for k in first)
    assert cache.reused == 0


def test_rendering_is_stock_jinja2() -> None:
    """One plain Jinja2 environment (no subclass of its environment, context or code
    generator); templates compiled once and kept in its own cache outside
    development; the table's templates compiled before the first push."""
    from jinja2 import Environment
    from jinja2.compiler import CodeGenerator
    from jinja2.runtime import Context

    from app.web import fragments

    assert type(env) is Environment
    assert env.context_class is Context and env.code_generator_class is CodeGenerator
    assert env.auto_reload is False
    assert env.get_template(PLATE_TEMPLATE) is env.get_template(PLATE_TEMPLATE)
    assert env.cache is not None
    env.cache.clear()
    fragments.warm()
    compiled = {key[1] for key in env.cache}
    assert {f.template for f in FRAGMENTS} <= compiled
    assert "games/schafkopf/board.html" in compiled


@pytest.mark.parametrize(("game", "players", "options"), VARIANTS,
                         ids=[f"{g}-{n}-{'-'.join(o) or 'plain'}" for g, n, o in VARIANTS])
def test_drawing_a_push_leaves_no_reference_cycles(
        game: str, players: int, options: dict[str, Any]) -> None:
    """What a push renders is freed as soon as it is sent: no reference cycles (a
    macro defined or imported with the context in a template makes one per render),
    so nothing waits for the cycle collector, whose passes over every live object
    pause the event loop under load (see app.cycles)."""
    import gc

    room = _room(game, players, options, seed=players + 2)
    cache = shared(room)
    rng = random.Random(players)
    match = room.match
    assert match is not None
    cache.render(room, 0, True)  # templates compiled and kept before counting
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for step in range(40):
            room.version = step
            room.changed()
            with i18n.language("de" if step % 2 else "en"):
                for seat in [*range(players), None]:
                    cache.render(room, seat, seat == 0)
            if match.is_over:
                break
            seat = rng.choice(sorted(match.to_act()))
            match.apply(seat, rng.choice(match.legal_actions(seat)))
        gc.collect()
        left = [type(o).__qualname__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()
    assert left == [], sorted(set(left))


def test_the_table_templates_read_of_the_room_only_what_its_copy_holds() -> None:
    """The table's templates see the room as :class:`TableFacts`, a copy compared by
    value; a ``room.x`` it lacks would be drawn empty (and not noticed by the
    comparison), so every one they use is one of its fields."""
    import dataclasses
    from pathlib import Path

    from jinja2 import nodes

    from app.web.render import TableFacts

    known = {f.name for f in dataclasses.fields(TableFacts)} | {"is_present"}
    root = Path(__file__).resolve().parents[2] / "templates"
    used: dict[str, set[str]] = {}
    for path in [*(root / "table").rglob("*.html"), *(root / "games").glob("*/*.html")]:
        if path.name.startswith("chat") or path.name == "history.html":
            continue  # drawn from the room itself (the chat, the match history)
        tree = env.parse(path.read_text())
        for node in tree.find_all(nodes.Getattr):
            if isinstance(node.node, nodes.Name) and node.node.name == "room":
                used.setdefault(node.attr, set()).add(path.name)
    assert used, "the templates read the room"
    assert set(used) <= known, {k: v for k, v in used.items() if k not in known}
@pytest.mark.parametrize("game", ["schafkopf", "beutelschneider"])
def test_the_result_under_the_table_is_not_drawn_again_for_a_card_played(game: str) -> None:
    """With a finished deal on show under the table, a card played in the middle of
    the next deal changes nothing the result shows, and it is not drawn again (it
    reads only whether the deal has begun, ``deal_begun``)."""
    room = _room(game, 4, {}, seed=3)
    match = room.match
    assert match is not None

    def public() -> dict[str, Any]:
        return match.view(None)

    # into the second deal, past its first trick, with a trick begun and not ended
    while not (public()["deal_no"] >= 2 and sum(public()["tricks_won"]) >= 1
               and 1 <= len(public()["trick"]) <= 2):
        seat = sorted(match.to_act())[0]
        match.apply(seat, match.legal_actions(seat)[0])
    room.changed()
    cache = SharedFragments()
    first = {s: cache.parts(room, s, False) for s in range(4)}
    assert public()["last_deal"], "the first deal's result is there to show"
    seat = sorted(match.to_act())[0]
    match.apply(seat, [a for a in match.legal_actions(seat) if a.startswith("play:")][0])
    room.changed()
    after = {s: cache.parts(room, s, False, first[s]) for s in range(4)}
    for s in range(4):
        assert after[s]["result"] is first[s]["result"]
        assert after[s]["result"].html == render_fragments(room, s, False)["result"]


def test_host_tools_before_the_match_and_one_ring_for_host_and_guests_during_it() -> None:
    """Being the host shows on the plates and the status only before the match (seat
    or remove a bot, start): once it runs, host and guests share both, drawn once."""
    room = _room("schafkopf", 4, {}, seed=3)
    match = room.match
    room.match = None
    room.seats[3] = Seat(index=3, name="Bot", token_hash="b", is_bot=True, level="easy")
    room.changed()
    cache = shared(room)
    host, guest = cache.render(room, 0, True), cache.render(room, 1, False)
    assert 'data-cmd="remove_bot" data-seat="3"' in host["seats"]
    assert 'data-cmd="start"' in host["status"]
    assert "remove_bot" not in guest["seats"] and 'data-cmd="start"' not in guest["status"]
    assert "The host starts the match." in guest["status"]
    room.match = match
    room.version += 1
    room.changed()
    renders = cache.renders
    host, guest = cache.render(room, 0, True), cache.render(room, 1, False)
    assert "remove_bot" not in host["seats"] and host["seats"] == guest["seats"]
    plates = cache.kept[("en", PLATE_TEMPLATE)]
    assert len(plates) == 4  # one drawing per plate for host and guest alike
    assert cache.renders - renders < 2 * (len(FRAGMENTS) + 4 + 3 + 1)


def test_the_room_context_is_read_again_within_a_moment_only_while_a_clock_runs() -> None:
    """A moment's pushes on a busy server may take seconds: without a running clock
    the room's part of the context is worked out once for all of them; with the turn
    clock running a late push shows the time left then, not at the moment's start."""
    room = _room("schafkopf", 4, {}, seed=2)
    room.present = {s: 1 for s in range(4)}  # everybody's socket is open: nobody away
    room.changed()
    first = room_context(room)
    room.clock._now += 5.0  # seconds pass within one moment, nothing ticks
    assert room_context(room) is first
    room.changed()
    room.turn_deadline, room.turn_version = room.clock.now() + 30.0, room.version
    ticking = room_context(room)
    assert ticking["clock_ms"] == 30_000
    room.clock._now += 2.0
    late = room_context(room)
    assert late is not ticking and late["clock_ms"] == 28_000
    assert room_context(room) is late  # read again only after ROOM_CONTEXT_TTL
