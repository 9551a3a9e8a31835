"""Pushes that render each fragment once for the seats that see it alike.

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
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from jinja2 import TemplateNotFound, nodes
from jinja2.meta import find_undeclared_variables

from app import i18n
from app.rooms.room import Room
from app.web.presentation import find, on_change
from app.web.render import FRAGMENTS, FRAME, env, fragment_id, render_block, table_context

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


def _mentioned(body: nodes.Template, game: str, seen: set[str]) -> set[str] | None:
    """Every name a piece of template and what it includes mention (None: unknown)."""
    names = set(find_undeclared_variables(body))
    for node in body.find_all((nodes.Include, nodes.Import, nodes.FromImport)):
        assert isinstance(node, nodes.Include | nodes.Import | nodes.FromImport)
        targets = _templates(node.template, game)
        if targets is None:
            return None
        for name in targets:
            if name in seen:
                continue
            seen.add(name)
            try:
                source = env.loader.get_source(env, name)[0]  # type: ignore[union-attr]
            except TemplateNotFound:
                continue  # one of a list of choices that does not exist
            more = _mentioned(env.parse(source), game, seen)
            if more is None:
                return None
            names |= more
    return names


def seat_names(game: str, block: str) -> frozenset[str] | None:
    """The context names a block of the frame depends on that differ between seats
    (``view`` aside: it is compared by the keys read); None when unknown."""
    key = (game, block)
    if key not in _names:
        source = env.loader.get_source(env, FRAME)[0]  # type: ignore[union-attr]
        found = next((b for b in env.parse(source).find_all(nodes.Block)
                      if b.name == block), None)
        names = None
        if found is not None:
            body = nodes.Template(found.body)
            body.set_environment(env)
            mentioned = _mentioned(body, game, {FRAME})
            if mentioned is not None:
                names = frozenset(mentioned - SAME_FOR_ALL - {"view"})
        _names[key] = names
    return _names[key]


class SharedFragments:
    """One room's fragments of its current state, each kept with its inputs."""

    def __init__(self) -> None:
        self.kept: dict[tuple[str, str], list[Rendered]] = {}
        self.renders = 0  # blocks rendered (for tests and the benchmark)
        self.reused = 0  # blocks given from what was kept

    def changed(self, _room: Room) -> None:
        self.kept.clear()

    def render(self, room: Room, seat: int | None, is_host: bool) -> dict[str, str]:
        ctx = table_context(room, seat, is_host)
        view = ctx["view"]
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
                reads = ViewReads(view)
                self.renders += 1
                try:
                    html = render_block(block, {**ctx, "view": reads})
                except Exception:  # something wanted the view as a dict: not kept
                    html = render_block(block, ctx)
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
