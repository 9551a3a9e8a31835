"""A push carries only the fragments that changed for its socket, and a fragment that
is the same for several seats is rendered once: the same HTML each seat would have
rendered for itself, never more than that seat may see."""

from __future__ import annotations

import random
from typing import Any

import pytest
from jinja2 import TemplateNotFound

from app import i18n
from app.games import new_match
from app.rooms.clock import ManualClock
from app.rooms.room import Room, Seat
from app.web.fragments import SharedFragments, narrowed, seat_names, shared
from app.web.memo import Part, ViewReads
from app.web.render import FRAGMENTS, env, fragment_id, render_fragments
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

INSIDE = {"trick": "board", "last-trick": "board"}  # elements with an id, pushed alone


def _ids(raw: str) -> set[str]:
    """The fragments a push touches (a plate or the trick alone counts as its
    fragment)."""
    out = set()
    for key, _ in top_level(raw):
        if key in TABLE_IDS:
            out.add(key)
        elif key is not None and key.startswith("plate-"):
            out.add("seats")
        elif key in INSIDE:
            out.add(INSIDE[key])
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
    assert "hand" not in seat_names("schafkopf", "board")  # type: ignore[operator]
    # each hand is its own: four different ones, none holding another seat's cards
    assert len({per_seat[s]["hand"] for s in range(4)}) == 4
    for s in range(4):
        others = [c for o in range(4) if o != s for c in match.view(o)["hand"]]
        assert not any(t in per_seat[s]["hand"] for t in hidden_titles("schafkopf", others))
    # 11 fragments for 5 viewers: the shared ones are rendered once
    assert cache.renders + cache.reused == 5 * len(FRAGMENTS)
    assert cache.reused >= 4 * 3  # board, notice, version at least
    # a change of the room starts afresh
    before = cache.renders
    room.changed()
    cache.render(room, 1, False)
    assert cache.renders == before + len(FRAGMENTS)


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
        assert len(cache.kept[("en", "seats")]) <= 2
        assert cache.renders - renders <= 2 + 3 * (len(FRAGMENTS) - 1)
        ring = per_seat[1]["seats"]
        assert " me" not in ring and "--x" not in ring and ring.count('class="you"') == 4
        assert [f'data-seat="{s}" style="--s: {s}"' in ring for s in range(4)] == [True] * 4
        # each seat's own hand tells the page whose it is
        for s in range(4):
            assert f'class="hand-area" data-seat="{s}"' in per_seat[s]["hand"]
    assert 'class="hand-area" data-seat=""' in cache.render(room, None, False)["hand"]
    assert not {"seat", "order", "ring"} & (seat_names("schafkopf", "seats") or {"seat"})


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
    memos: dict[tuple[int | None, str], dict[str, Part]] = {}
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
        assert {k: p.html for k, p in after[s].items()} == render_fragments(room, s, False)
    assert after[seat]["hand"] != first[seat]["hand"]
    rendered = cache.renders - before
    # the board, the ring, the version once; two hands; the status, the turn signal
    # and the buttons for the one to play and the others
    assert rendered <= 3 + 2 + 3 * 2, rendered


def test_a_fragment_that_changed_inside_sends_only_those_elements() -> None:
    """A plate of the ring, the trick on the board: pushed alone when nothing else in
    their fragment changed, and put in place by id they give the whole new fragment."""
    room = _room("schafkopf", 4, {}, seed=3)
    match = room.match
    assert match is not None
    rng = random.Random(2)
    page = TableSocket(None)  # type: ignore[arg-type]  # only its fragments are used
    page.table = render_fragments(room, 2, False)
    narrow: dict[str, int] = {}
    for _ in range(40):
        seat = sorted(match.to_act())[0]
        match.apply(seat, rng.choice(match.legal_actions(seat)))
        room.version += 1
        new = render_fragments(room, 2, False)
        for key, html in new.items():
            old = page.table[key]
            if old == html:
                continue
            small = narrowed(old, html)
            if small is None:
                page.table[key] = html
                continue
            narrow[key] = narrow.get(key, 0) + 1
            assert len(small) < len(html)
            for inner, part in top_level(small):
                assert inner is not None and 'hx-swap-oob="true"' in part
                assert page.swap_inner(inner, part)
            assert page.table[key] == html
    assert narrow.get("seats", 0) > 10 and narrow.get("board", 0) > 10
    assert narrowed("<div>x</div>", "<div>y</div>") is None  # nothing with an id inside
    assert narrowed('<div id="a"><p id="b">1</p></div>',
                    '<div id="a"><p id="b">2</p></div>') == '<p hx-swap-oob="true" id="b">2</p>'
    assert narrowed('<div id="a"><p id="b">1</p>x</div>',
                    '<div id="a"><p id="b">2</p>y</div>') is None  # more than that changed
    assert narrowed('<div id="a"><p id="b">1</div>', '<div id="a"><p id="b">2</div>') is None


def test_the_view_records_what_a_render_reads() -> None:
    reads = ViewReads({"trump": "H", "hand": ["HA"]})
    assert reads.get("trump") == "H" and reads.get("nope") is None and "hand" in reads
    assert set(reads._reads.keys) == {"trump", "nope", "hand"} and not reads._reads.all
    assert sorted(reads) == ["hand", "trump"] and reads._reads.all


def test_in_development_nothing_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """With DEV a template may change between two pushes: every seat renders all."""
    monkeypatch.setattr(env, "auto_reload", True)
    room = _room("schafkopf", 4, {}, seed=5)
    cache = SharedFragments()
    for seat in [0, 1, None]:
        assert cache.render(room, seat, False) == render_fragments(room, seat, False)
    assert cache.kept == {} and cache.reused == 0


def test_a_loaded_template_is_found_by_its_name_until_the_games_change(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Includes find their template in a plain dict: the one Jinja2 loaded, for a
    name and for a list of choices alike; a change of the games drops them, and in
    development every lookup goes to Jinja2 (which checks the file)."""
    from app.web.presentation import on_change

    trick = env.get_template("table/trick.html")
    assert env.get_template("table/trick.html") is trick
    assert env.loaded["table/trick.html"] is trick
    assert env.select_template(["games/schafkopf/nope.html", "table/trick.html"]) is trick
    assert env.loaded[("games/schafkopf/nope.html", "table/trick.html")] is trick
    with pytest.raises(TemplateNotFound):
        env.get_template("games/schafkopf/nope.html")
    assert env.loaded.clear in on_change
    env.loaded.clear()
    assert env.get_template("table/trick.html") is trick  # from Jinja2's own cache
    assert env.loaded == {"table/trick.html": trick}
    env.loaded.clear()
    monkeypatch.setattr(env, "auto_reload", True)
    env.get_template("table/trick.html")
    assert env.loaded == {}


def test_templates_are_compiled_once_outside_development() -> None:
    assert env.auto_reload is False
    assert [fragment_id(b) for b in FRAGMENTS] == TABLE_IDS
    assert "seat" in (seat_names("schafkopf", "hand") or ())
    assert {"version", "status"} <= (seat_names("schafkopf", "version") or set())
    assert "seat" not in (seat_names("schafkopf", "status") or {"seat"})


def test_the_server_works_out_every_games_fragments_before_the_first_push() -> None:
    from app.games import GAMES
    from app.web import fragments
    from app.web.render import FRAGMENTS

    fragments._names.clear()
    fragments.warm()
    for game in GAMES:
        for block in FRAGMENTS:
            assert (game, block) in fragments._names, (game, block)
    assert any(names for names in fragments._names.values()), "some blocks differ by seat"


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
    for path in [*(root / "table").glob("*.html"), *(root / "games").glob("*/*.html")]:
        if path.name.startswith("chat") or path.name == "history.html":
            continue  # drawn from the room itself (the chat, the match history)
        tree = env.parse(path.read_text())
        for node in tree.find_all(nodes.Getattr):
            if isinstance(node.node, nodes.Name) and node.node.name == "room":
                used.setdefault(node.attr, set()).add(path.name)
    assert used, "the templates read the room"
    assert set(used) <= known, {k: v for k, v in used.items() if k not in known}


def test_a_plate_or_the_trick_goes_alone_without_taking_the_fragment_apart() -> None:
    """The plates and the trick are marked where they are drawn, so a push knows
    them without parsing: after a card is played, the ring sends the plates whose
    turn mark moved and the board its trick, each swapped by its id, and the page
    put together from them is the table drawn afresh."""
    from app.web.fragments import narrowed_split, split_of
    from app.web.memo import CLOSE, OPEN, element_id

    room = _room("schafkopf", 4, {}, seed=8)
    for s in range(4):
        room.arrive(s)
    match = room.match
    assert match is not None
    cache = SharedFragments()
    before = cache.parts(room, 1, False)
    assert before["seats"].split is not None and set(before["seats"].split[1]) == {
        f"plate-{s}" for s in range(4)}
    assert set(before["board"].split[1]) == {"trick"}  # type: ignore[index]
    seat = sorted(match.to_act())[0]
    match.apply(seat, match.legal_actions(seat)[0])
    room.changed()
    after = cache.parts(room, 1, False, before)
    for fid, plates in (("seats", 2), ("board", 1)):
        small = narrowed_split(split_of(before[fid]), split_of(after[fid]))
        assert small is not None and len(small) < len(after[fid].html)
        assert len(top_level(small)) == plates, top_level(small)
        page = TableSocket(None)  # type: ignore[arg-type]
        page.table = {fid: before[fid].html}
        for inner, part in top_level(small):
            assert inner is not None and page.swap_inner(inner, part)
        assert page.table[fid] == after[fid].html == render_fragments(room, 1, False)[fid]
    for part in after.values():
        assert OPEN not in part.html and CLOSE not in part.html
    assert element_id('<div id="a"><p>1</p></div>') == "a"
    assert element_id('<div id="a">1</div><div>2</div>') is None  # two elements
    assert element_id('<div>1</div>') is None and element_id('<br id="b">') == "b"


def test_a_kept_part_nobody_asked_for_in_a_while_is_dropped() -> None:
    """A room's store keeps a part while some push asks for it; one left unused for
    ``PRUNE_EVERY`` moments is dropped at the next pruning (memory per room)."""
    from app.web.memo import Store

    store = Store()
    view: dict[str, Any] = {}
    used = Part("en", ("used",), {}, None, "<p>used</p>")
    old = Part("en", ("old",), {}, None, "<p>old</p>")
    store.keep("t:1", used)
    store.keep("t:1", old)
    for moment in range(1, 3 * Store.PRUNE_EVERY + 1):
        store.next_moment(moment)
        assert store.find("t:1", "en", ("used",), view) is used
        if moment == 1:
            assert store.find("t:1", "en", ("old",), view) is old
    assert store.find("t:1", "en", ("old",), view) is None
    assert store.find("t:1", "de", ("used",), view) is None, "kept per language"
    assert list(store.parts["t:1"]) == [("used",)]


@pytest.mark.parametrize("game", ["schafkopf", "beutelschneider"])
def test_the_result_under_the_table_is_not_drawn_again_for_a_card_played(game: str) -> None:
    """With a finished deal on show under the table, a card played in the middle of
    the next deal changes nothing the result shows, and it is not drawn again (it
    reads whether a trick lies on the table only while no trick was won yet)."""
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
