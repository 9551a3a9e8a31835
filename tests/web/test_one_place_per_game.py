"""One place per game: shared web code and shared templates never name a game, every
game is presented by its own module, and a game registered at run time (with its
templates in any folder) is drawn without touching ``app/``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from app.db.repo import LoggedAction
from app.games import GAMES, GameInfo, Match
from app.rooms.room import Room, Seat
from app.web import replay
from app.web.presentation import (
    TEMPLATES,
    Face,
    Presentation,
    presentation,
    presentations,
    register,
    unregister,
)
from app.web.render import env, render_frame

ROOT = Path(__file__).resolve().parents[2]
GAME_WORDS = {"schafkopf", "beutelschneider", "mauscheln", "luegenbeutel", "lügenbeutel"}
GAME_WORDS |= {name.lower() for name in GAMES} | {info.title.lower() for info in GAMES.values()}
PATTERN = re.compile("|".join(sorted(map(re.escape, GAME_WORDS))), re.IGNORECASE)
TOY_TEMPLATES = Path(__file__).resolve().parent / "toy_templates"


def _offences(files: list[Path], base: Path = ROOT) -> list[str]:
    found = []
    for path in files:
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if PATTERN.search(line):
                found.append(f"{path.relative_to(base)}:{no}: {line.strip()}")
    return found


def _shared_web_modules() -> list[Path]:
    return sorted((ROOT / "app" / "web").glob("*.py"))


def _shared_templates() -> list[Path]:
    games = TEMPLATES / "games"
    return sorted(p for p in TEMPLATES.rglob("*") if p.is_file() and games not in p.parents)


SHARED = {
    "app/web": _shared_web_modules,
    "templates": _shared_templates,
    "app/rooms": lambda: sorted((ROOT / "app" / "rooms").rglob("*.py")),
    "app/db": lambda: sorted((ROOT / "app" / "db").rglob("*.py")),
}


@pytest.mark.parametrize("area", list(SHARED))
def test_shared_code_and_templates_name_no_game(area: str) -> None:
    files = SHARED[area]()
    assert files, f"nothing found under {area}"
    offences = _offences(files)
    assert not offences, "shared code names a game:\n" + "\n".join(offences)


def test_the_check_itself_catches_a_game_name(tmp_path: Path) -> None:
    bad = tmp_path / "x.html"
    bad.write_text('<p>\n{% if game == "Mauscheln" %}chips{% endif %}\n')
    good = tmp_path / "y.html"
    good.write_text("{% if info.keeps_chip_ledger %}chips{% endif %}\n")
    assert _offences([bad, good], tmp_path) == [
        'x.html:2: {% if game == "Mauscheln" %}chips{% endif %}']


def test_every_game_has_its_presentation_and_template_folder() -> None:
    found = presentations()
    assert set(GAMES) <= set(found)
    for game in GAMES:
        p = presentation(game)
        assert p.game == game
        assert p.template_dir == TEMPLATES / "games" / game
        for name in ("status.html", "board.html", "result.html", "history.html"):
            assert (p.template_dir / name).is_file(), f"{game} has no {name}"
            assert env.get_template(p.template(name)).filename == str(p.template_dir / name)
        assert p.measure() in ("points", "units", "chips")
    assert not (TEMPLATES / "history").exists(), "history rows live in each game's folder"


def test_a_presentation_cannot_silently_replace_another() -> None:
    game = next(iter(GAMES))
    twin = Presentation(game=game, face=presentation(game).face)
    with pytest.raises(ValueError):
        register(twin)
    assert presentation(game) is not twin


# ----- a game registered at run time, with its templates from tests/ ---------------

class HighCard(Match):
    """Two players, two cards each, the higher card takes the trick."""

    name: ClassVar[str] = "highcard"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2

    def setup(self) -> None:
        self.deal_no = 1
        self.hands = [["1", "4"], ["2", "3"]]
        self.trick: list[dict[str, Any]] = []
        self.won = [0, 0]
        self.turn = 0
        self.phase = "play"

    def _legal(self, seat: int) -> list[str]:
        return [f"play:{c}" for c in self.hands[seat]] if seat == self.turn else []

    def _apply(self, seat: int, action: str) -> list[dict[str, Any]]:
        card = action[5:]
        self.hands[seat].remove(card)
        self.trick.append({"seat": seat, "card": card})
        events: list[dict[str, Any]] = [{"type": "play", "seat": seat, "card": card}]
        self.turn = 1 - seat
        if len(self.trick) == 2:
            winner = max(self.trick, key=lambda p: int(p["card"]))["seat"]
            self.won[winner] += 1
            self.scores[winner] += 1
            self.trick, self.turn = [], winner
            events.append({"type": "trick", "winner": winner})
            if not self.hands[0]:
                self.phase, self.winners = "over", [max((0, 1), key=self.scores.__getitem__)]
                events += [{"type": "deal_end", "deal_no": 1, "scores": list(self.scores),
                            "winner": self.winners[0]},
                           {"type": "match_end", "winners": self.winners,
                            "scores": list(self.scores)}]
        return events

    def _view(self, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = {"game": self.name, "seat": seat, "players": 2,
                                "phase": self.phase, "deal_no": self.deal_no,
                                "turn": None if self.phase == "over" else self.turn,
                                "trick": list(self.trick), "last_trick": None, "leader": None,
                                "scores": list(self.scores), "winners": list(self.winners),
                                "hand_counts": [len(h) for h in self.hands]}
        if seat is not None:
            view["hand"] = list(self.hands[seat])
        return view

    def _to_act(self) -> set[int]:
        return {self.turn}


@dataclass(frozen=True)
class FlaggedInfo(GameInfo):
    """GameInfo with the engine's display flags set (whether or not it has them yet)."""

    keeps_chip_ledger: bool = False
    host_can_end: bool = False


def highcard_face(code: str) -> Face:
    return Face(code, code, "", "hc-card", f"high card {code}")


@pytest.fixture
def highcard(monkeypatch: pytest.MonkeyPatch) -> Iterator[Presentation]:
    monkeypatch.setitem(GAMES, "highcard", FlaggedInfo(
        name="highcard", title="High card", min_players=2, max_players=2,
        match_class=HighCard, blurb="Higher card wins.", host_can_end=True))
    p = register(Presentation(
        game="highcard", face=highcard_face, templates=TOY_TEMPLATES,
        host_end_note="Nobody wins.",
        sentence=lambda e, names: ("Deal over." if e.get("type") == "deal_end" else None),
    ))
    yield p
    unregister("highcard")


def test_a_game_registered_at_run_time_renders_with_templates_from_tests(
        highcard: Presentation) -> None:
    room = Room(id="r", game="highcard", players=2, options={}, host_token_hash="h")
    room.seats = [Seat(index=i, name=f"P{i}", token_hash=str(i)) for i in range(2)]
    waiting = render_frame(room, 0, is_host=True)
    assert "High card for 2: 2 seated. Higher card wins." in waiting
    room.match = HighCard(2, {}, seed=1)
    html = render_frame(room, 0, is_host=True)
    assert "Your turn: play any card." in html
    assert "Highest card takes the trick." in html
    assert html.count('class="card hc-card playable"') == 2
    assert 'title="high card 4"' in html
    assert "End the game now" in html and "<p>Nobody wins.</p>" in html
    assert "End the game now" not in render_frame(room, 1, is_host=False)
    for seat, action in ((0, "play:4"), (1, "play:3"), (0, "play:1"), (1, "play:2")):
        room.match.apply(seat, action)
    spectator = render_frame(room, None, is_host=False)
    assert '<h2 class="toy-result">P0 wins</h2>' in spectator
    assert "The match is over." in spectator


def test_a_runtime_game_tells_its_replay_with_shared_and_own_sentences(
        highcard: Presentation) -> None:
    match = HighCard(2, {}, seed=1)
    log = []
    for seq, (seat, action) in enumerate(((0, "play:4"), (1, "play:3"),
                                          (0, "play:1"), (1, "play:2")), 1):
        log.append(LoggedAction(seq=seq, seat=seat, action=action,
                                       events=match.apply(seat, action)))
    steps = replay.build("highcard", log, ["Ann", "Bob"])
    assert steps[0].lines == ["Ann plays high card 4."]
    assert steps[1].trick == [("Ann", "4", "high card 4"), ("Bob", "3", "high card 3")]
    assert steps[3].lines == ["Bob plays high card 2.", "Bob takes the trick.", "Deal over.",
                              "Ann wins the match."]
    assert steps[3].scores == [1, 1]


def test_replay_sentences_come_from_the_game_and_the_shared_contract() -> None:
    names = ["Anna", "Bert", "Cilli", "Done"]
    for game in GAMES:
        p = presentation(game)
        assert p.describe({"type": "match_end", "winners": [1], "scores": [0] * 4},
                          names) == "Bert wins the match."
        assert p.describe({"type": "match_end", "winners": [0, 2], "scores": [0] * 4},
                          names) == "Anna & Cilli win the match."
        assert p.describe({"type": "no_such_event"}, names) is None
