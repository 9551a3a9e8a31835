"""Golden playthroughs (after OpenSpiel's playthrough files): a recorded seeded
match, one text line per step, checked exactly on replay.

Each step line names the actor, the action, a short summary (to_act, phase, deal,
scores, hand sizes, number of legal actions per seat), a digest of every seat's
view plus legal actions (spectator ``-`` and seats ``0..n-1``) and the events as
compact JSON. The digest is the first 12 hex digits of the sha256 of the seat's
*dump*: ``{"legal": [...], "view": {...}}`` as canonical JSON (sorted keys, no
spaces). The full dumps are written out under the step line at the start, where the
phase or the deal changes, and at the end, so a reviewer sees the shape of every
view and a failure there can name the keys that differ.

Replay renders the same text from the engine, using the stored actions, and fails
at the first step whose text differs: any change of a seat's view, its legal actions,
the events, to_act, scores or phase changes that step's text.

Regenerate after a deliberate rules change, then read the diff before committing::

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/games -k golden

(or ``.venv/bin/python -m tests.games.golden [name ...]``; no name means all cases).
Never edit a golden file by hand.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.games import IllegalAction, new_match

GOLDEN_DIR = Path(__file__).parent / "golden"
REGENERATE = "UPDATE_GOLDEN=1 .venv/bin/pytest tests/games -k golden"
DIGEST_LEN = 12

# name -> how the recorded match is set up; the actions are picked by a seeded RNG
# at record time and then stored, so replay does not depend on that picking.
CASES: dict[str, dict[str, Any]] = {}


def register(name: str, *, game: str, players: int, options: dict[str, Any], seed: int,
             pick_seed: int, steps: int, deals: list[Any] | None = None) -> None:
    CASES[name] = dict(game=game, players=players, options=options, seed=seed,
                       pick_seed=pick_seed, steps=steps, deals=deals)


def path_of(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.txt"


# ----- rendering ---------------------------------------------------------------------------
def canon(value: Any) -> str:
    """Canonical compact JSON: sorted keys, no spaces, UTF-8 kept readable."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(dump: str) -> str:
    return hashlib.sha256(dump.encode()).hexdigest()[:DIGEST_LEN]


def _who(seat: int | None) -> str:
    return "-" if seat is None else str(seat)


def _bare(value: Any) -> str:
    """A summary value: a plain word as it is, anything else as compact JSON."""
    if isinstance(value, str) and re.fullmatch(r"[\w.:,-]+", value):
        return value
    return canon(value)


@dataclass
class Frame:
    """Everything the golden checks about a match after one step."""

    to_act: list[int]
    over: bool
    dumps: dict[str, str]  # who ("-", "0", ...) -> canonical {"legal", "view"} JSON
    spectator: dict[str, Any]
    legal_counts: list[int]


def frame_of(m: Any) -> Frame:
    seats: list[int | None] = [None, *range(m.players)]
    dumps: dict[str, str] = {}
    counts: list[int] = []
    for seat in seats:
        legal = [] if seat is None else m.legal_actions(seat)
        if seat is not None:
            counts.append(len(legal))
        dumps[_who(seat)] = canon({"legal": legal, "view": m.view(seat)})
    return Frame(to_act=sorted(m.to_act()), over=bool(m.is_over), dumps=dumps,
                 spectator=json.loads(dumps["-"])["view"], legal_counts=counts)


def _summary(f: Frame) -> str:
    v = f.spectator
    parts = [f"to_act={canon(f.to_act)}"]
    for label, key in (("phase", "phase"), ("deal", "deal_no"), ("scores", "scores"),
                       ("hands", "hand_counts")):
        if key in v:
            parts.append(f"{label}={_bare(v[key])}")
    parts.append(f"legal={canon(f.legal_counts)}")
    if f.over:
        parts.append("over=true")
    return " ".join(parts)


def step_line(n: int, seat: int | None, action: str, events: list[Any], f: Frame) -> str:
    digests = " ".join(f"{who}:{digest(d)}" for who, d in f.dumps.items())
    return f"{n} {_who(seat)} {action} | {_summary(f)} | {digests} | {canon(events)}"


def dump_lines(f: Frame) -> list[str]:
    return [f"    {who} {d}" for who, d in f.dumps.items()]


def _checkpoint(prev: Frame | None, f: Frame) -> bool:
    """Dump the full views at the start and wherever the phase or the deal changes."""
    if prev is None:
        return True
    return any(prev.spectator.get(k) != f.spectator.get(k) for k in ("phase", "deal_no"))


def header(name: str) -> list[str]:
    c = CASES[name]
    return [
        f"# Golden playthrough {name!r}, written by tests/games/golden.py: do not edit by hand.",
        f"# Regenerate: {REGENERATE}  (then read the diff)",
        f"# game={c['game']} players={c['players']} options={canon(c['options'])}"
        f" seed={canon(c['seed'])} deals={canon(c['deals'])}",
        f"# Actions picked by random.Random({c['pick_seed']}) among to_act and legal_actions,"
        f" at most {c['steps']} steps; replay uses the stored ones.",
        "# Step line: <step> <seat> <action> | to_act phase deal scores hands legal(counts)"
        " | <who>:<digest> for spectator - and each seat | <events>",
        f"# <digest>: first {DIGEST_LEN} hex of sha256 of the seat's dump,"
        ' canonical JSON {"legal":[...],"view":{...}} (sorted keys, no spaces).',
        "# Indented lines '<who> <dump>' give the full dumps at the start, where phase or"
        " deal changes, and at the end.",
    ]


def _is_action(action: Any) -> bool:
    return isinstance(action, str) and bool(action) and not re.search(r"\s|\|", action)


# ----- recording ---------------------------------------------------------------------------
def record(name: str) -> list[str]:
    """Play the case with seeded picks and render the golden text, line by line."""
    c = CASES[name]
    m = new_match(c["game"], c["players"], c["options"], seed=c["seed"], deals=c["deals"])
    pick = random.Random(c["pick_seed"])
    f = frame_of(m)
    blocks = [[step_line(0, None, "start", [], f), *dump_lines(f)]]
    for n in range(1, c["steps"] + 1):
        if m.is_over:
            break
        seat = pick.choice(f.to_act)
        action = pick.choice(m.legal_actions(seat))
        assert _is_action(action), f"action {action!r} cannot go on a golden step line"
        events = m.apply(seat, action)
        prev, f = f, frame_of(m)
        line = step_line(n, seat, action, events, f)
        blocks.append([line, *dump_lines(f)] if _checkpoint(prev, f) else [line])
    if len(blocks[-1]) == 1:  # the end always shows the full views
        blocks[-1].extend(dump_lines(f))
    return header(name) + [line for block in blocks for line in block]


def write(name: str) -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    path_of(name).write_text("\n".join(record(name)) + "\n", encoding="utf-8")


# ----- replay ------------------------------------------------------------------------------
@dataclass
class Block:
    line: str
    dumps: dict[str, str]  # empty where the step line stands alone

    @property
    def parts(self) -> list[str]:
        return self.line.split(" | ", 3)

    @property
    def seat_action(self) -> tuple[int | None, str]:
        _, who, action = self.parts[0].split(" ")
        return (None if who == "-" else int(who)), action

    @property
    def digests(self) -> dict[str, str]:
        return dict(tok.split(":", 1) for tok in self.parts[2].split())

    def render(self) -> list[str]:
        return [self.line, *(f"    {w} {d}" for w, d in self.dumps.items())]


def parse(text: str) -> tuple[list[str], list[Block]]:
    head: list[str] = []
    blocks: list[Block] = []
    for raw in text.splitlines():
        if raw.startswith("#"):
            head.append(raw)
        elif raw.startswith("    "):
            who, dump = raw[4:].split(" ", 1)
            blocks[-1].dumps[who] = dump
        elif raw.strip():
            blocks.append(Block(raw, {}))
    return head, blocks


def _short(value: Any, limit: int = 300) -> str:
    s = value if isinstance(value, str) else canon(value)
    return s if len(s) <= limit else s[:limit] + f"... ({len(s)} chars)"


def _key_diff(want: str, got: str) -> list[str]:
    """'view.hand: was ... now ...' for each top-level key that differs."""
    w, g = json.loads(want), json.loads(got)
    out = []
    if w.get("legal") != g.get("legal"):
        out.append(f"legal: was {_short(w.get('legal'))} now {_short(g.get('legal'))}")
    wv, gv = w.get("view", {}), g.get("view", {})
    for key in sorted(set(wv) | set(gv)):
        if key not in gv:
            out.append(f"view.{key}: removed (was {_short(wv[key])})")
        elif key not in wv:
            out.append(f"view.{key}: new, now {_short(gv[key])}")
        elif wv[key] != gv[key]:
            out.append(f"view.{key}: was {_short(wv[key])} now {_short(gv[key])}")
    return out


def explain(name: str, n: int, want: Block, got: Block, now: Frame) -> str:
    """A readable account of the first step whose text differs; ``now`` is the frame
    the engine gives at that step."""
    seat, action = want.seat_action
    what = "the start" if n == 0 else f"step {n} (seat {seat} plays {action!r})"
    msg = [f"golden {name!r}: {what} differs from {path_of(name)} (the first difference)."]
    wp, gp = want.parts, got.parts
    if len(wp) == 4 and len(gp) == 4:
        ws = dict(t.split("=", 1) for t in wp[1].split() if "=" in t)
        gs = dict(t.split("=", 1) for t in gp[1].split() if "=" in t)
        for key in [*ws, *(k for k in gs if k not in ws)]:
            if ws.get(key) != gs.get(key):
                msg.append(f"  {key}: was {ws.get(key, '(absent)')} now {gs.get(key, '(absent)')}")
        if wp[3] != gp[3]:
            msg.append(f"  events: was {_short(wp[3], 600)}")
            msg.append(f"          now {_short(gp[3], 600)}")
        wd, gd = want.digests, got.digests
        changed = [w for w in gd if wd.get(w) != gd[w]] + [w for w in wd if w not in gd]
        for i, who in enumerate(changed):
            label = "spectator" if who == "-" else f"seat {who}"
            msg.append(f"  {label}: view+legal digest was {wd.get(who)} now {gd.get(who)}")
            if i:
                continue  # the first differing seat is shown in full; the others named
            if who in want.dumps and who in now.dumps:
                msg.extend(f"    {d}" for d in _key_diff(want.dumps[who], now.dumps[who]))
            else:
                msg.append("    (no full dump stored at this step: only the digest is known)")
            if who in now.dumps:
                msg.append(f"    now: {_short(now.dumps[who], 3000)}")
        for who in set(want.dumps) ^ set(got.dumps):
            msg.append(f"  full dump of {who!r}: stored {who in want.dumps}, now {who in got.dumps}"
                       " (a phase or deal change moved)")
    msg += [f"  stored line: {_short(want.line, 1000)}", f"  now:         {_short(got.line, 1000)}",
            f"If the change is intended, regenerate with: {REGENERATE}"
            " and review `git diff tests/games/golden`."]
    return "\n".join(msg)


def replay(name: str) -> None:
    """Replay a golden file with its stored actions and assert every step's text is
    identical; set UPDATE_GOLDEN=1 to rewrite the file from the engine first."""
    if os.environ.get("UPDATE_GOLDEN"):
        write(name)
    path = path_of(name)
    assert path.exists(), f"no golden file {path}; create it with: {REGENERATE}"
    head, blocks = parse(path.read_text(encoding="utf-8"))
    assert head == header(name), (
        f"golden {name!r}: the header of {path} does not match its registration in "
        f"tests/games/goldens.py (game, players, options, seed or picking changed).\n"
        f"  stored: {head}\n  now:    {header(name)}\nRegenerate with: {REGENERATE}")
    assert blocks, f"golden {name!r}: {path} has no steps"
    c = CASES[name]
    m = new_match(c["game"], c["players"], c["options"], seed=c["seed"], deals=c["deals"])
    prev: Frame | None = None
    last = len(blocks) - 1
    for n, want in enumerate(blocks):
        if n == 0:
            seat, action, events = None, "start", []
        else:
            seat, action = want.seat_action
            assert not m.is_over, (
                f"golden {name!r}: the match is over before step {n} ({path} has {last} steps)."
                f"\n  spectator now: {_short(canon(m.view(None)), 3000)}\nRegenerate: {REGENERATE}")
            assert seat is not None
            try:
                events = m.apply(seat, action)
            except IllegalAction as exc:
                raise AssertionError(
                    f"golden {name!r}: step {n}: seat {seat} may no longer play {action!r} "
                    f"({exc}).\n  legal now: {m.legal_actions(seat)}\n  to_act now: "
                    f"{sorted(m.to_act())}\n  seat {seat} view now: "
                    f"{_short(canon(m.view(seat)), 3000)}"
                    f"\nIf the change is intended, regenerate with: {REGENERATE}") from None
        f = frame_of(m)
        dumps = f.dumps if (_checkpoint(prev, f) or n == last) else {}
        got = Block(step_line(n, seat, action, events, f), dict(dumps))
        assert got.render() == want.render(), explain(name, n, want, got, f)
        prev = f
    stopped_early = last < c["steps"] and not m.is_over
    assert not stopped_early, (
        f"golden {name!r}: {path} ends after step {last} because the match was over, "
        f"but now it goes on (to_act {sorted(m.to_act())}). Regenerate with: {REGENERATE}")


if __name__ == "__main__":
    # import the module under its real name so the registrations land in its CASES
    import tests.games.goldens  # noqa: F401
    from tests.games import golden

    for arg in sys.argv[1:] or sorted(golden.CASES):
        golden.write(arg)
        print("wrote", golden.path_of(arg))
