"""The docs/engine.md contract, checked for every game registered in ``app.games.GAMES``.

Nothing here knows a particular game: the parametrisation is read from the registry
at collection time, so a newly registered engine is covered the moment it appears.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from app.games import GAMES, IllegalAction, Match, new_match, register, restore, unregister
from tests.games import contract

GAME_NAMES = sorted(GAMES)
SEATINGS = [(name, n) for name in GAME_NAMES
            for n in range(GAMES[name].min_players, GAMES[name].max_players + 1)]
SEATING_IDS = [f"{name}-{n}p" for name, n in SEATINGS]
MAX_STEPS = 3_000
GAMES_DIR = Path(__file__).resolve().parents[2] / "app" / "games"
FORBIDDEN_IMPORTS = ("fastapi", "starlette", "sqlalchemy", "jinja2",
                     "app.web", "app.rooms", "app.db", "app.bots")


def quick_options(name: str) -> dict[str, Any]:
    """Every whole-number option at its minimum, the shortest matches a room allows;
    at 1 where the minimum is 0 (a number of deals 0 means "until the host ends it",
    a match that never ends by itself)."""
    return {o.name: max(o.minimum, 1) for o in GAMES[name].options
            if o.kind == "int" and o.minimum is not None}


def _plain(obj: Any, where: str) -> None:
    if isinstance(obj, dict):
        for key, value in obj.items():
            assert isinstance(key, str), f"{where}: key {key!r} is not a string"
            _plain(value, f"{where}.{key}")
    elif isinstance(obj, list):
        for i, item in enumerate(obj):
            _plain(item, f"{where}[{i}]")
    elif isinstance(obj, float):
        assert math.isfinite(obj), f"{where}: {obj!r}"
    else:
        assert obj is None or isinstance(obj, str | int | bool), \
            f"{where}: {type(obj).__name__} is not a JSON type"


def assert_plain_json(obj: Any, where: str = "") -> None:
    """Only JSON types: str keys, lists (no tuples or sets), finite numbers; so the
    object survives JSON unchanged."""
    _plain(obj, where)
    assert json.loads(json.dumps(obj, allow_nan=False)) == obj, where


def check_surface(m: Match, name: str) -> list[dict[str, Any]]:
    """What must hold at any moment of any match; returns the views (spectator first)."""
    views = [m.view(seat) for seat in [None, *range(m.players)]]
    for seat, view in zip([None, *range(m.players)], views, strict=True):
        assert isinstance(view, dict)
        assert_plain_json(view, f"{name} view({seat})")
    acting = m.to_act()
    assert isinstance(acting, set) and acting <= set(range(m.players))
    assert isinstance(m.phase, str) and m.phase
    assert m.is_over == (m.phase == "over")
    assert isinstance(m.scores, list) and len(m.scores) == m.players
    for seat in range(m.players):
        legal = m.legal_actions(seat)
        assert isinstance(legal, list) and all(isinstance(a, str) for a in legal)
        assert bool(legal) == (seat in acting), f"seat {seat}: legal {legal} vs to_act {acting}"
    if m.is_over:
        assert not acting
        assert m.winners and set(m.winners) <= set(range(m.players))
    else:
        assert acting, "a running match always has someone to act"
        assert m.winners == []
    return views


class Playout:
    """A bounded random playout that checks the surface after every step."""

    def __init__(self, m: Match, name: str, seed: int) -> None:
        self.m, self.name, self.rng = m, name, random.Random(seed)
        self.actions: set[str] = set()
        self.saw_last_deal = False

    def check(self) -> None:
        m = self.m
        views = check_surface(m, self.name)
        has = [v.get("last_deal") is not None for v in views]
        deal_ended = getattr(m, "deal_no", 0) > 1 or m.is_over or self.saw_last_deal
        if deal_ended:
            assert all(has), "last_deal is in every view once a deal has ended"
        self.saw_last_deal = self.saw_last_deal or any(has)
        for seat in range(m.players):
            self.actions.update(m.legal_actions(seat))

    def run(self, max_steps: int = MAX_STEPS) -> Match:
        self.check()
        for _ in range(max_steps):
            if self.m.is_over:
                break
            seat, action = contract.random_step(self.m, self.rng)
            events = self.m.apply(seat, action)
            assert isinstance(events, list)
            assert_plain_json(events, f"{self.name} events of {action}")
            self.check()
        return self.m


def finished_match(name: str, tries: int = 8) -> Playout:
    """A random match played to the end with the quickest options, or skip."""
    info = GAMES[name]
    for seed in range(tries):
        players = info.min_players + seed % (info.max_players - info.min_players + 1)
        play = Playout(new_match(name, players, quick_options(name), seed=seed), name, seed)
        if play.run(max_steps=20_000).is_over:
            return play
    pytest.skip(f"no random {name} match ended within the bound")


# ----- the registry ------------------------------------------------------------------
def test_registry_holds_at_least_schafkopf() -> None:
    assert "schafkopf" in GAMES


@pytest.mark.parametrize("name", GAME_NAMES)
def test_game_info_describes_the_game(name: str) -> None:
    info = GAMES[name]
    assert info.name == name
    assert isinstance(info.title, str) and info.title.strip()
    assert isinstance(info.min_players, int) and isinstance(info.max_players, int)
    assert 1 <= info.min_players <= info.max_players
    defaults = info.default_options
    assert isinstance(defaults, dict)
    assert_plain_json(defaults, f"{name} default_options")
    assert set(defaults) == {o.name for o in info.options}
    m = new_match(name, info.min_players, dict(defaults), seed=1)
    for key, value in defaults.items():
        assert m.options[key] == value


# ----- new_match ---------------------------------------------------------------------
@pytest.mark.parametrize("name,players", SEATINGS, ids=SEATING_IDS)
def test_new_match_works_for_every_allowed_player_count(name: str, players: int) -> None:
    m = new_match(name, players, seed=players)
    assert m.players == players
    assert not m.is_over and m.winners == []
    check_surface(m, name)
    assert_plain_json(m.snapshot(), f"{name} snapshot")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_player_counts_outside_the_range_raise_value_error(name: str) -> None:
    info = GAMES[name]
    for players in (info.min_players - 1, info.max_players + 1, 0, -1, "4", 4.0, None, True):
        with pytest.raises(ValueError):
            new_match(name, players, seed=1)  # type: ignore[arg-type]


def test_unknown_game_raises_value_error() -> None:
    for name in ("skat", "", "Schafkopf", None):
        with pytest.raises(ValueError):
            new_match(name, 4)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        restore({"format": 1, "game": "skat", "rng": None, "state": {}})


@pytest.mark.parametrize("name", GAME_NAMES)
def test_unknown_or_malformed_options_raise_value_error(name: str) -> None:
    info = GAMES[name]
    bad: list[dict[str, Any]] = [{"no_such_option": 1}, {"dealer": info.max_players},
                                 {"dealer": -1}, {"dealer": "0"}]
    for o in info.options:
        if o.kind == "int":
            bad += [{o.name: "1"}, {o.name: True}, {o.name: 1.5}]
            if o.minimum is not None:
                bad.append({o.name: o.minimum - 1})
            if o.maximum is not None:
                bad.append({o.name: o.maximum + 1})
        elif o.kind == "bool":
            bad += [{o.name: 1}, {o.name: "true"}, {o.name: None}]
    for options in bad:
        with pytest.raises(ValueError):
            new_match(name, info.min_players, options, seed=1)


# ----- random playouts ---------------------------------------------------------------
@pytest.mark.parametrize("name,players", SEATINGS, ids=SEATING_IDS)
@pytest.mark.parametrize("quick", [False, True], ids=["default-options", "quick-options"])
def test_random_playouts_never_crash_and_views_stay_json(
        name: str, players: int, quick: bool) -> None:
    options = quick_options(name) if quick else {}
    m = new_match(name, players, options, seed=players)
    play = Playout(m, name, seed=players)
    play.run()
    assert play.actions, "somebody could act at some point"


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_finished_match_has_nobody_to_act_and_refuses_every_action(name: str) -> None:
    play = finished_match(name)
    m = play.m
    assert m.phase == "over" and m.is_over
    assert m.to_act() == set()
    for seat in [None, *range(m.players)]:
        assert m.view(seat).get("last_deal") is not None, "the last deal stays on the table"
    for seat in range(m.players):
        assert m.legal_actions(seat) == []
        for action in sorted(play.actions)[:200]:
            contract.assert_refused_unchanged(m, seat, action)
    contract.check_illegal_and_malformed(m, random.Random(0))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_last_deal_appears_once_a_deal_has_ended(name: str) -> None:
    play = finished_match(name)  # checks every view after every step on the way
    assert play.saw_last_deal, "a finished match has ended at least one deal"


@pytest.mark.parametrize("name,players", SEATINGS, ids=SEATING_IDS)
def test_illegal_and_malformed_actions_change_nothing(name: str, players: int) -> None:
    m = new_match(name, players, seed=players)
    rng = random.Random(players)
    for _ in range(4):  # at the start and at three later points
        contract.check_illegal_and_malformed(m, rng)
        for _ in range(rng.randrange(5, 40)):
            if m.is_over:
                break
            m.apply(*contract.random_step(m, rng))


@pytest.mark.parametrize("name,players", SEATINGS, ids=SEATING_IDS)
def test_snapshot_json_restore_continues_identically(name: str, players: int) -> None:
    m = new_match(name, players, quick_options(name), seed=players)
    rng = random.Random(players)
    for stop in (0, 13, 50):
        contract.advance(m, rng, stop)
        contract.check_snapshot_roundtrip(m, stop, steps=150)


@pytest.mark.parametrize("name,players", SEATINGS, ids=SEATING_IDS)
def test_same_seed_and_same_actions_give_the_same_match(name: str, players: int) -> None:
    a = new_match(name, players, seed=7)
    b = new_match(name, players, seed=7)
    assert contract.state_of(a) == contract.state_of(b)
    rng = random.Random(7)
    for _ in range(400):
        if a.is_over:
            break
        seat, action = contract.random_step(a, rng)
        assert a.apply(seat, action) == b.apply(seat, action)
    for seat in [None, *range(players)]:
        assert a.view(seat) == b.view(seat)
    assert contract.state_of(a) == contract.state_of(b)


def scramble(obj: Any) -> None:
    """Empty every list and dict inside ``obj``, depth first."""
    if isinstance(obj, dict):
        for value in obj.values():
            scramble(value)
        obj.clear()
    elif isinstance(obj, list):
        for item in obj:
            scramble(item)
        obj.clear()


@pytest.mark.parametrize("name", GAME_NAMES)
def test_views_and_events_do_not_alias_the_match_state(name: str) -> None:
    info = GAMES[name]
    m = new_match(name, info.min_players, quick_options(name), seed=3)
    rng = random.Random(3)
    for _ in range(MAX_STEPS):
        if m.is_over:
            break
        before = contract.state_of(m)
        views = [m.view(seat) for seat in [None, *range(m.players)]]
        kept = json.loads(json.dumps(views))
        scramble(views)
        assert contract.state_of(m) == before, "changing a view changed the match"
        assert [m.view(seat) for seat in [None, *range(m.players)]] == kept
        seat, action = contract.random_step(m, rng)
        events = m.apply(seat, action)
        after = contract.state_of(m)
        scramble(events)
        assert contract.state_of(m) == after, "changing an event changed the match"


@pytest.mark.parametrize("name,players", SEATINGS, ids=SEATING_IDS)
def test_a_shared_view_is_the_view_with_its_records_shared_between_views(
        name: str, players: int) -> None:
    """``shared_view`` shows exactly what ``view`` shows; in a game whose views are
    made fresh (``fresh_views``) its finished deal and list of finished deals are one
    object for every seat and for a copy of the match while they stay the same, and
    never the match state itself (any other game's shared view is its plain view)."""
    m = new_match(name, players, quick_options(name), seed=players + 4)
    sharing = m.fresh_views
    rng = random.Random(players)
    shared_once = False
    for _ in range(MAX_STEPS):
        seats = [None, *range(m.players)]
        shared = [m.shared_view(seat) for seat in seats]
        assert shared == [m.view(seat) for seat in seats]
        twin = m.copy()
        for key in ("last_deal", "results"):
            if shared[0].get(key):
                shared_once = True
                values = [v[key] for v in shared] + [twin.shared_view(None)[key]]
                assert all((v is values[0]) is sharing for v in values[1:]), key
                assert values[0] is not getattr(m, key, None)
        if m.is_over:
            break
        m = twin
        m.apply(*contract.random_step(m, rng))
    assert shared_once, "some finished deal was shown"


# ----- purity ---------------------------------------------------------------------------
def imported_modules(path: Path) -> list[str]:
    """Absolute names of every module ``path`` imports (relative imports resolved)."""
    package = ["app", "games", *path.relative_to(GAMES_DIR).parts[:-1]]
    names = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            names.append(module)
            names += [f"{module}.{alias.name}" for alias in node.names]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute)
              and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                  "__import__", "import_module")
              and node.args and isinstance(node.args[0], ast.Constant)):
            names.append(str(node.args[0].value))
    return names


ENGINE_FILES = sorted(GAMES_DIR.rglob("*.py"))


def test_the_purity_check_sees_the_engine_files() -> None:
    assert GAMES_DIR / "base.py" in ENGINE_FILES
    assert "app.games.base.Match" in imported_modules(GAMES_DIR / "__init__.py")


@pytest.mark.parametrize("path", ENGINE_FILES, ids=[p.name for p in ENGINE_FILES])
def test_engines_import_no_web_database_room_or_bot_code(path: Path) -> None:
    for module in imported_modules(path):
        for banned in FORBIDDEN_IMPORTS:
            assert module != banned and not module.startswith(banned + "."), \
                f"{path.name} imports {module}"


@pytest.mark.parametrize("seeded", [True, False], ids=["seeded", "unseeded"])
@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_copy_is_independent_and_a_seeded_copy_plays_on_identically(
        name: str, seeded: bool) -> None:
    info = GAMES[name]
    m = new_match(name, info.min_players, {"dealer": 0}, seed=5 if seeded else None)
    rng = random.Random(8)
    for _ in range(30):
        if m.is_over:
            break
        seat, action = contract.random_step(m, rng)
        m.apply(seat, action)
    before = contract.state_of(m)
    twin = m.copy()
    assert contract.state_of(twin) == before
    steps = random.Random(3)
    for _ in range(200):
        if twin.is_over:
            break
        seat, action = contract.random_step(twin, steps)
        twin.apply(seat, action)
    assert contract.state_of(m) == before, "playing the copy leaves the original alone"
    if seeded:
        replay = random.Random(3)
        for _ in range(200):
            if m.is_over:
                break
            seat, action = contract.random_step(m, replay)
            m.apply(seat, action)
        assert contract.state_of(m) == contract.state_of(twin)


# ----- one validation path -------------------------------------------------------------
def candidate_actions(m: Match) -> list[str]:
    """Every seat's legal actions, near misses of them (a list in another order, a
    card named twice, a stray space) and malformed strings."""
    actions: set[str] = set()
    for seat in range(m.players):
        for action in m.legal_actions(seat):
            actions.add(action)
            actions.add(action + " ")
            kind, _, body = action.partition(":")
            parts = body.split(",")
            if len(parts) > 1:
                actions.add(kind + ":" + ",".join(reversed(parts)))
                actions.add(kind + ":" + ",".join([parts[0], *parts]))
            elif body:
                actions.add(kind + ":" + body + "," + body)
    return sorted(actions) + [a for a in contract.MALFORMED_ACTIONS if isinstance(a, str)]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_verify_accepts_exactly_the_legal_actions_and_changes_nothing(name: str) -> None:
    info = GAMES[name]
    m = new_match(name, info.min_players, quick_options(name), seed=11)
    rng = random.Random(11)
    for _ in range(300):
        before = contract.state_of(m)
        candidates = candidate_actions(m)
        for seat in range(m.players):
            legal = set(m.legal_actions(seat))
            for action in candidates:
                if action in legal:
                    m.verify(seat, action)
                else:
                    with pytest.raises(IllegalAction) as refused:
                        m.verify(seat, action)
                    assert str(refused.value)
        assert contract.state_of(m) == before, "verify never changes the match"
        if m.is_over:
            break
        m.apply(*contract.random_step(m, rng))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_apply_refuses_with_the_same_reason_verify_gives(name: str) -> None:
    info = GAMES[name]
    m = new_match(name, info.min_players, quick_options(name), seed=4)
    rng = random.Random(4)
    for _ in range(60):
        if m.is_over:
            break
        for seat in range(m.players):
            for action in candidate_actions(m):
                if action in m.legal_actions(seat):
                    continue
                with pytest.raises(IllegalAction) as by_verify:
                    m.verify(seat, action)
                with pytest.raises(IllegalAction) as by_apply:
                    m.apply(seat, action)
                assert str(by_apply.value) == str(by_verify.value)
        m.apply(*contract.random_step(m, rng))


# ----- the registry: declared once, lobby order, run-time registration ------------------
def test_the_lobby_order_is_the_declared_position() -> None:
    assert list(GAMES)[:5] == ["schafkopf", "schafkopf_classic", "beutelschneider",
                               "mauscheln", "luegenbeutel"]
    positions = [info.position for info in GAMES.values()]
    assert positions == sorted(positions)


def test_each_game_declares_what_the_server_must_provide() -> None:
    flags = {name: (info.keeps_chip_ledger, info.host_can_end, info.challenge_windows)
             for name, info in GAMES.items()}
    assert flags["mauscheln"] == (True, True, False)
    assert flags["luegenbeutel"] == (False, False, True)
    assert flags["schafkopf"] == flags["beutelschneider"] == (False, False, False)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_game_info_is_declared_next_to_its_engine(name: str) -> None:
    info = GAMES[name]
    module = __import__(info.match_class.__module__, fromlist=["INFO"])
    assert module.INFO is info
    assert (info.min_players, info.max_players, info.options) == (
        info.match_class.min_players, info.match_class.max_players,
        info.match_class.options_spec)
    assert isinstance(info.blurb, str) and info.blurb.strip()


def test_register_adds_a_game_in_position_order_and_unregister_removes_it() -> None:
    base = GAMES["schafkopf"]
    early = dataclasses.replace(base, name="early_copy", position=base.position - 1)
    register(early)
    try:
        assert list(GAMES)[0] == "early_copy"
        assert new_match("early_copy", 4, seed=1).name == "schafkopf"
        register(early)  # the same entry again changes nothing
        with pytest.raises(ValueError):
            register(dataclasses.replace(early, title="Another game"))
    finally:
        unregister("early_copy")
    assert "early_copy" not in GAMES
    with pytest.raises(ValueError):
        new_match("early_copy", 4)


# ----- the typed records of a deal -----------------------------------------------------
def check_records(m: Match, events: list[dict[str, Any]]) -> None:
    """deal / deal_end / match_end carry one name per idea, in every game. With a chip
    ledger, the transfers of all deals so far add up to the scores minus the start
    (the same for every seat; the first deal's stake is among its transfers)."""
    info = GAMES[m.name]
    ends = [e for e in events if e["type"] == "deal_end"]
    starts = [e for e in events if e["type"] == "deal"]
    assert [e["deal_no"] for e in ends] == list(range(1, len(ends) + 1)), \
        "exactly one deal_end per finished deal, numbered from 1"
    assert [e["deal_no"] for e in starts] == list(range(2, len(starts) + 2))
    assert not [e for e in events if e["type"] in ("round_end", "round")]
    net = [0] * m.players
    start: list[int] | None = None
    for end in ends:
        assert isinstance(end["scores"], list) and len(end["scores"]) == m.players
        assert all(isinstance(s, int) for s in end["scores"])
        assert "chips" not in end and "totals" not in end and "round" not in end
        if info.keeps_chip_ledger:
            assert isinstance(end["pot"], int)
            for transfer in end["transfers"]:
                net[transfer["seat"]] += transfer["amount"]
            if start is None:
                start = [s - n for s, n in zip(end["scores"], net, strict=True)]
                assert len(set(start)) == 1, "every seat starts with the same chips"
            assert net == [s - s0 for s, s0 in zip(end["scores"], start, strict=True)], \
                "the transfers of all deals add up to the scores"
    finals = [e for e in events if e["type"] == "match_end"]
    if m.is_over:
        assert len(finals) == 1 and events[-1]["type"] in ("match_end",)
        assert finals[0]["winners"] == m.winners and finals[0]["scores"] == m.scores
        assert ends and ends[-1]["scores"] == m.scores
        assert len(ends) == m.view(None)["deal_no"]
    else:
        assert not finals


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_deal_ends_with_one_deal_end_record_and_the_match_with_match_end(
        name: str) -> None:
    info = GAMES[name]
    for seed in range(3):
        m = new_match(name, info.min_players, quick_options(name), seed=seed)
        rng = random.Random(seed)
        events: list[dict[str, Any]] = []
        for _ in range(3_000):
            if m.is_over:
                break
            events += m.apply(*contract.random_step(m, rng))
        if not m.is_over and info.host_can_end:
            events += m.end_by_host()
        check_records(m, events)


# ----- the view header -------------------------------------------------------------------
HEADER = ("game", "phase", "seat", "players", "dealer", "deal_no", "scores", "to_act",
          "winners")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_view_starts_with_the_same_header(name: str) -> None:
    info = GAMES[name]
    m = new_match(name, info.max_players, quick_options(name), seed=2)
    rng = random.Random(2)
    for _ in range(200):
        acting = m.to_act()
        for seat in [None, *range(m.players)]:
            view = m.view(seat)
            # the seats that may act; a seat that may but need not (Kontra) only in
            # its own view
            shown = {s for s in acting if m.must_act(s) or s == seat
                     or info.challenge_windows}
            assert {k: view[k] for k in HEADER} == {
                "game": name, "phase": m.phase, "seat": seat, "players": m.players,
                "dealer": view["dealer"], "deal_no": view["deal_no"], "scores": m.scores,
                "to_act": sorted(shown), "winners": m.winners}
            assert isinstance(view["dealer"], int) and view["deal_no"] >= 1
            assert "round" not in view and "chips" not in view
        if m.is_over:
            break
        m.apply(*contract.random_step(m, rng))


# ----- who the game waits for, challenge windows, the host's end --------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
def test_must_act_and_challenge_windows_follow_the_declaration(name: str) -> None:
    info = GAMES[name]
    m = new_match(name, info.min_players, quick_options(name), seed=6)
    rng = random.Random(6)
    seen: set[int] = set()
    current = m.challenge_window()
    opened = 0
    for _ in range(1_500):
        acting = m.to_act()
        waited_for = {s for s in range(m.players) if m.must_act(s)}
        assert waited_for <= acting
        if not info.challenge_windows:
            assert m.challenge_window() is None
            # a seat beside the one awaited may act without being waited for (the
            # classic Schafkopf's Kontra, from any seat allowed to say it): no view but
            # its own shows it, or the others would learn who may say it
            if not m.is_over:
                assert len(waited_for) == 1, "the game waits for one seat at a time"
            for viewer in [None, *range(m.players)]:
                shown = set(m.view(viewer)["to_act"])
                assert shown <= acting
                assert shown - waited_for <= {viewer}, \
                    f"view({viewer}) shows {shown - waited_for} may act unawaited"
        elif not m.is_over and m.phase == "play":
            assert len(waited_for) == 1, "in play the game waits for the player on turn only"
        window = m.challenge_window()
        if window is not None and window != current:
            assert window not in seen, "a new window gets a new id"
            seen.add(window)
            opened += 1
        current = window
        if m.is_over:
            break
        m.apply(*contract.random_step(m, rng))
    if info.challenge_windows:
        assert opened > 0


@pytest.mark.parametrize("name", GAME_NAMES)
def test_end_by_host_only_where_the_game_declares_it(name: str) -> None:
    info = GAMES[name]
    m = new_match(name, info.min_players, {"dealer": 0}, seed=8)
    contract.advance(m, random.Random(8), 5)  # a few moves into the first deal
    assert not m.is_over
    before = contract.state_of(m)
    if not info.host_can_end:
        with pytest.raises(IllegalAction, match="ends by itself"):
            m.end_by_host()
        assert contract.state_of(m) == before
        return
    events = m.end_by_host()
    assert m.is_over and events[-1]["type"] == "match_end"
    assert_plain_json(events, f"{name} end_by_host")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_unseeded_matches_share_the_system_randomness_and_stay_unseeded(name: str) -> None:
    """Every unseeded match, new or restored from its snapshot, draws from the one
    ``secrets.SystemRandom`` (no replayable state, and no unused generator state of
    its own, about 2.9 KB a room); seeded matches keep their own generator."""
    import secrets

    info = GAMES[name]
    a, b = new_match(name, info.min_players), new_match(name, info.min_players)
    assert isinstance(a.rng, secrets.SystemRandom) and a.rng is b.rng
    back = restore(a.snapshot())
    assert back.rng is a.rng and back.snapshot()["rng"] is None
    seeded = new_match(name, info.min_players, seed=3)
    assert not isinstance(seeded.rng, secrets.SystemRandom) and seeded.rng is not a.rng
    assert restore(seeded.snapshot()).rng is not seeded.rng
