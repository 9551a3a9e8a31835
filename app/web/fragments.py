"""Pushes: each fragment rendered once for the seats that see it alike, and only
what changed sent.

When the table changes, every open socket renders its seat's fragments (the blocks
of ``table/frame.html``). Much of that is the same for every seat: the trick on the
board, the scores, the notice, the version. :class:`SharedFragments` keeps, per room
and until the room's next change, each fragment it rendered with the inputs it was
rendered from; a seat whose inputs are equal gets the same HTML without rendering.

What "inputs" means, so that reusing HTML can never show a seat anything it would
not have rendered itself:

* the names of the context a block and the templates it includes mention (found in
  their syntax trees; a template whose name cannot be worked out makes the block
  depend on every name). Names that are the same for every seat of a room at one
  moment (``SAME_FOR_ALL``: the room, the seat names, the status...) are not
  compared; every other one is (the seat, the legal actions, the host flag, the
  turn clock in milliseconds...);
* the keys of the seat's ``view`` that the render actually read (recorded while it
  ran; a render that went through the whole view depends on all of it). A seat's
  own hand is in its view only, so a block that reads the hand is never the same for
  two seats;
* the language, and the room's change count (every change, version or not, starts a
  new count and drops what was kept).

Equal inputs give equal HTML, so the HTML another seat gets from the cache is the
HTML it would have rendered: it holds nothing more than that seat may see.

:func:`narrowed` makes a changed fragment smaller still: when only elements with an
``id`` inside it changed (a seat's plate in the ring, the trick on the board), those
elements go alone, each swapped by its id.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jinja2 import TemplateNotFound, nodes
from jinja2.meta import find_undeclared_variables

from app import i18n
from app.rooms.room import Room
from app.web.presentation import find, on_change
from app.web.render import (
    FRAGMENTS,
    FRAME,
    env,
    fragment_id,
    frame_context,
    render_block,
    render_fragments,
    table_context,
)

# context names that are equal for every seat of a room between two of its changes
SAME_FOR_ALL = frozenset({
    "room", "status", "game", "info", "P", "names", "teams", "holding", "hold",
    "waiting_for", "stand_ins", "released", "connected", "version", "oob", "oobattr"})
MISSING = object()


class ViewReads(Mapping[str, Any]):
    """A seat's view that notes which keys a render read (and whether it read all)."""

    # underscored: a template's ``view.x`` tries attributes before keys
    def __init__(self, view: Mapping[str, Any]) -> None:
        self._view = view
        self._read: dict[str, Any] = {}
        self._all = False

    def start(self) -> None:
        """Note afresh: the next block's render begins."""
        self._read = {}
        self._all = False

    def __getitem__(self, key: str) -> Any:
        try:
            value = self._view[key]
        except KeyError:
            self._read[key] = MISSING
            raise
        self._read[key] = value
        return value

    def __iter__(self) -> Iterator[str]:
        self._all = True
        return iter(self._view)

    def __len__(self) -> int:
        self._all = True
        return len(self._view)


@dataclass(frozen=True)
class Rendered:
    inputs: tuple[Any, ...]  # the values of the block's seat-dependent names
    read: dict[str, Any]  # view key -> value read (MISSING: absent)
    whole_view: Mapping[str, Any] | None  # the view, when the render went through all of it
    html: str

    def fits(self, inputs: tuple[Any, ...], view: Mapping[str, Any]) -> bool:
        if inputs != self.inputs:
            return False
        if self.whole_view is not None:
            return view == self.whole_view
        return all(view.get(k, MISSING) == v if v is not MISSING else k not in view
                   for k, v in self.read.items())


# (game, block) -> the context names the block depends on per seat (None: all of them)
_names: dict[tuple[str, str], frozenset[str] | None] = {}
on_change.append(_names.clear)


def _templates(expr: nodes.Expr, game: str) -> list[str] | None:
    """The template names an include/import expression can name; None if unknown."""
    if isinstance(expr, nodes.Const) and isinstance(expr.value, str):
        return [expr.value]
    if isinstance(expr, nodes.List | nodes.Tuple):
        out: list[str] = []
        for item in expr.items:
            names = _templates(item, game)
            if names is None:
                return None
            out += names
        return out
    if (isinstance(expr, nodes.Call) and isinstance(expr.node, nodes.Getattr)
            and isinstance(expr.node.node, nodes.Name) and expr.node.node.name == "P"
            and expr.node.attr == "template" and len(expr.args) == 1 and not expr.kwargs
            and isinstance(expr.args[0], nodes.Const)):
        p = find(game)
        return [p.template(str(expr.args[0].value))] if p is not None else None
    return None


def _mentioned(body: nodes.Template, game: str, path: set[str],
               seen: dict[str, set[str]]) -> set[str] | None:
    """Every name a piece of template and what it includes mention (None: unknown).
    ``path``: the templates being read (an include of one of them adds nothing new);
    ``seen``: the names of each template read already."""
    names = set(find_undeclared_variables(body))
    for node in body.find_all((nodes.Include, nodes.Import, nodes.FromImport)):
        assert isinstance(node, nodes.Include | nodes.Import | nodes.FromImport)
        targets = _templates(node.template, game)
        if targets is None:
            return None
        for name in targets:
            if name in path:
                continue
            if name not in seen:
                try:
                    source = env.loader.get_source(env, name)[0]  # type: ignore[union-attr]
                except TemplateNotFound:  # one of a list of choices that does not exist
                    seen[name] = set()
                    continue
                more = _mentioned(env.parse(source), game, path | {name}, seen)
                if more is None:
                    return None
                seen[name] = more
            names |= seen[name]
    return names


def seat_names(game: str, block: str) -> frozenset[str] | None:
    """The context names a block of the frame depends on that differ between seats
    (``view`` aside: it is compared by the keys read); None when unknown. Worked out
    for all blocks of a game at once, the first time it is asked."""
    key = (game, block)
    if key not in _names:
        source = env.loader.get_source(env, FRAME)[0]  # type: ignore[union-attr]
        seen: dict[str, set[str]] = {}  # template -> names, shared by the blocks
        for found in env.parse(source).find_all(nodes.Block):
            assert isinstance(found, nodes.Block)
            body = nodes.Template(found.body)
            body.set_environment(env)
            mentioned = _mentioned(body, game, {FRAME}, seen)
            _names[(game, found.name)] = (frozenset(mentioned - SAME_FOR_ALL - {"view"})
                                          if mentioned is not None else None)
        _names.setdefault(key, None)
    return _names[key]


def warm() -> None:
    """Work out every game's block inputs ahead of the first push (a first push of a
    game would otherwise pay a few hundred milliseconds for it)."""
    from app.games import GAMES

    for game in GAMES:
        seat_names(game, FRAGMENTS[0])


class SharedFragments:
    """One room's fragments of its current state, each kept with its inputs."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], list[Rendered]] = {}
        self.renders = 0  # blocks rendered (for tests and the benchmark)
        self.reused = 0  # blocks given from what was kept

    def changed(self, _room: Room) -> None:
        self.kept.clear()

    def render(self, room: Room, seat: int | None, is_host: bool) -> dict[str, str]:
        if env.auto_reload:  # development: a template may change, and what it mentions
            return render_fragments(room, seat, is_host)
        ctx = table_context(room, seat, is_host)
        view = ctx["view"]
        reads = ViewReads(view)
        context = frame_context({**ctx, "view": reads})  # one for the seat's blocks
        language = i18n.get_language()
        out = {}
        for block in FRAGMENTS:
            names = seat_names(room.game, block)
            inputs = tuple(ctx.get(n, MISSING) for n in sorted(
                names if names is not None else set(ctx) - SAME_FOR_ALL - {"view"}))
            kept = self.kept.setdefault((language, block), [])
            html = next((r.html for r in kept if r.fits(inputs, view)), None)
            if html is not None:
                self.reused += 1
            else:
                reads.start()
                self.renders += 1
                try:
                    html = render_block(block, context)
                except Exception:  # something wanted the view as a dict: not kept
                    html = render_block(block, frame_context(ctx))
                else:
                    kept.append(Rendered(inputs, reads._read,
                                         view if reads._all else None, html))
            out[fragment_id(block)] = html
        return out


_shared: dict[int, SharedFragments] = {}


def shared(room: Room) -> SharedFragments:
    """The room's shared fragments, told of every change of the room."""
    found = _shared.get(id(room))
    if found is None:
        found = _shared[id(room)] = SharedFragments()
        room.listeners.add(found.changed)
        weakref.finalize(room, _shared.pop, id(room), None)
    return found


# a start or end tag (quoted attribute values may hold anything but their quote)
TAG = re.compile(r"""<(/?)([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(/?)>""")
ID = re.compile(r"""\sid=(?:"([^"]+)"|'([^']+)')""")
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                  "meta", "source", "track", "wbr"})
OOB_AT = re.compile(r"^<([a-zA-Z][\w-]*)")


Split = tuple[str, dict[str, str]] | None  # what inner_ids gives


@lru_cache(maxsize=512)  # a fragment shared by the seats is taken apart once
def inner_ids(html: str) -> Split:
    """A fragment with its outermost inner elements that carry an id taken out: the
    rest (with a mark where each was) and id -> element (not to be changed: it is
    kept for the next caller). None if the tags do not nest (then the fragment is
    only ever sent whole)."""
    if html.find(" id=", html.find(">")) < 0:  # no id inside the outermost element
        return html, {}
    shell: list[str] = []
    parts: dict[str, str] = {}
    depth = 0
    cut = 0  # end of the last piece taken into the shell
    inside: tuple[str, int, int] | None = None  # id, start, depth it opened at
    for m in TAG.finditer(html):
        closing, name = m[1], m[2].lower()
        empty = bool(m[4]) or name in VOID
        if closing:
            depth -= 1
            if depth < 0:
                return None
            if inside is not None and depth == inside[2]:
                key, start, _ = inside
                shell += [html[cut:start], f"\0{key}\0"]
                parts[key] = html[start:m.end()]
                cut, inside = m.end(), None
            continue
        found = ID.search(m[3]) if inside is None and depth >= 1 else None
        if found is not None:
            key = found[1] or found[2]
            if key in parts:
                return None
            if empty:
                shell += [html[cut:m.start()], f"\0{key}\0"]
                parts[key] = m[0]
                cut = m.end()
            else:
                inside = (key, m.start(), depth)
        if not empty:
            depth += 1
    if depth != 0 or inside is not None:
        return None
    shell.append(html[cut:])
    return "".join(shell), parts


def narrowed(old: str, new: str) -> str | None:
    """What to send instead of ``new`` when only elements with an id inside it
    changed since ``old``: those elements, each swapped by its id. None when more
    changed (the fragment goes whole)."""
    return narrowed_split(inner_ids(old), inner_ids(new))


def narrowed_split(a: Split, b: Split) -> str | None:
    """:func:`narrowed` of two fragments already taken apart by :func:`inner_ids`."""
    if a is None or b is None or a[0] != b[0]:
        return None
    return "".join(OOB_AT.sub(r'<\1 hx-swap-oob="true"', html, count=1)
                   for key, html in b[1].items() if a[1][key] != html)
