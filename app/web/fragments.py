"""Pushes: each fragment rendered only when what it shows changed, once for the
seats that see it alike, and only what changed sent.

When the table changes, every open socket needs its seat's fragments (the blocks of
``table/frame.html``). Most of them are as they were (the seats' hands but two, the
result, the notice...), and much of the rest is the same for every seat (the trick on
the board, the ring of plates, the version). A fragment is kept with the inputs it
was rendered from, and given again, without rendering, to any seat of any later
moment whose inputs are equal: each socket keeps the last fragments it was given
(``memo``), and each room keeps those rendered in its current moment
(:class:`SharedFragments`, cleared when the room announces a change).

What "inputs" means, so that reusing HTML can never show a seat anything it would
not have rendered itself:

* the values of the context names a block and the templates it includes mention
  (found in their syntax trees; a template whose name cannot be worked out makes the
  block depend on every name). The context holds values only
  (:func:`app.web.render.table_context`: the room as a copy, :class:`TableFacts`), so
  equal values mean the templates read the same;
* the keys of the seat's ``view`` that the render actually read (recorded while it
  ran; a render that went through the whole view depends on all of it). A seat's
  own hand is in its view only, so a block that reads the hand is never the same for
  two seats;
* the language.

Templates are pure: equal inputs give equal HTML, so the HTML a seat is given is the
HTML it would have rendered: it holds nothing more than that seat may see.

:func:`narrowed` makes a changed fragment smaller still: when only elements with an
``id`` inside it changed (a seat's plate in the ring, the trick on the board), those
elements go alone, each swapped by its id.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Mapping
from functools import lru_cache
from operator import itemgetter
from typing import Any

from jinja2 import TemplateNotFound, nodes
from jinja2.meta import find_undeclared_variables

from app import i18n
from app.rooms.room import Room
from app.web.memo import (
    CLOSE,
    ID,
    OPEN,
    TAG,
    VOID,
    Part,
    Split,
    Store,
    ViewReads,
    drawing,
    read_alike,
)
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
    """The names a block of the frame and what it includes mention (``view`` aside:
    it is compared by the keys read; globals of the environment among them), None
    when unknown. Worked out for all blocks of a game at once, the first time it is
    asked."""
    key = (game, block)
    if key not in _names:
        source = env.loader.get_source(env, FRAME)[0]  # type: ignore[union-attr]
        seen: dict[str, set[str]] = {}  # template -> names, shared by the blocks
        for found in env.parse(source).find_all(nodes.Block):
            assert isinstance(found, nodes.Block)
            body = nodes.Template(found.body)
            body.set_environment(env)
            mentioned = _mentioned(body, game, {FRAME}, seen)
            _names[(game, found.name)] = (frozenset(mentioned - {"view"})
                                          if mentioned is not None else None)
        _names.setdefault(key, None)
    return _names[key]


def warm() -> None:
    """Work out every game's block inputs ahead of the first push (a first push of a
    game would otherwise pay a few hundred milliseconds for it)."""
    from app.games import GAMES

    for game in GAMES:
        seat_names(game, FRAGMENTS[0])


Inputs = Callable[[Mapping[str, Any]], tuple[Any, ...]]
# (game, block) -> the block's inputs taken from a table context
_inputs: dict[tuple[str, str], Inputs] = {}
on_change.append(_inputs.clear)


# compared first: the inputs that tell seats and moments apart at once
FIRST = {name: i for i, name in enumerate(
    ("seat", "is_host", "at_turn", "my_turn", "version", "status", "holding", "turn_key"))}


def inputs_of(game: str, block: str, ctx: Mapping[str, Any]) -> Inputs:
    """What takes a block's inputs from a table context: the values of the context
    names it mentions, in a fixed order (every context has the same names)."""
    key = (game, block)
    found = _inputs.get(key)
    if found is None:
        mentioned = seat_names(game, block)
        names = sorted((set(ctx) if mentioned is None else mentioned & set(ctx)) - {"view"},
                       key=lambda n: (FIRST.get(n, len(FIRST)), n))
        if not names:
            found = _no_inputs
        elif len(names) == 1:
            found = _one_input(names[0])
        else:
            found = itemgetter(*names)
        _inputs[key] = found
    return found


_plans: dict[str, list[tuple[str, str, Inputs]]] = {}
on_change.append(_plans.clear)


def plan(game: str, ctx: Mapping[str, Any]) -> list[tuple[str, str, Inputs]]:
    """The blocks of a game's table in page order: (block, fragment id, inputs)."""
    found = _plans.get(game)
    if found is None:
        found = _plans[game] = [(b, fragment_id(b), inputs_of(game, b, ctx))
                                for b in FRAGMENTS]
    return found


def _no_inputs(_ctx: Mapping[str, Any]) -> tuple[Any, ...]:
    return ()


def _one_input(name: str) -> Inputs:
    def get(ctx: Mapping[str, Any]) -> tuple[Any, ...]:
        return (ctx[name],)
    return get


class SharedFragments:
    """One room's fragments of its current moment, each kept with its inputs, and
    the parts of fragments its templates keep (``{% memo %}``, :mod:`app.web.memo`)."""

    def __init__(self) -> None:
        self.moment = -1
        self.kept: dict[tuple[str, str], list[Part]] = {}
        self.store = Store()
        self.renders = 0  # blocks rendered (for tests and the benchmark)
        self.reused = 0  # blocks given from what was kept

    def render(self, room: Room, seat: int | None, is_host: bool,
               memo: dict[str, Part] | None = None) -> dict[str, str]:
        """Every fragment of this seat's table: id -> HTML (see :meth:`parts`)."""
        return {fid: part.html for fid, part in self.parts(room, seat, is_host, memo).items()}

    def parts(self, room: Room, seat: int | None, is_host: bool,
              memo: Mapping[str, Part] | None = None) -> dict[str, Part]:
        """Every fragment of this seat's table: id -> the drawn fragment. ``memo``:
        what the caller (a socket) was given last, by id, looked at first."""
        if env.auto_reload:  # development: a template may change, and what it mentions
            return {fid: Part(i18n.get_language(), (), {}, None, html)
                    for fid, html in render_fragments(room, seat, is_host).items()}
        if self.moment != room.moment:
            self.moment = room.moment
            self.kept.clear()
            self.store.next_moment(room.moment)
        ctx = table_context(room, seat, is_host)
        view = ctx["view"]
        language = i18n.get_language()
        reads: ViewReads | None = None
        context = None  # the blocks' rendering context, made when one must be rendered
        out = {}
        for block, fid, inputs_from in plan(room.game, ctx):
            inputs = inputs_from(ctx)
            got = memo.get(fid) if memo is not None else None
            if (got is None or got.values != inputs or got.language != language
                    or not read_alike(got, view)):
                got = next((r for r in self.kept.get((language, block), ())
                            if r.values == inputs and read_alike(r, view)), None)
                if got is None:
                    if reads is None or context is None:
                        reads = ViewReads(view)
                        context = frame_context({**ctx, "view": reads})
                    noted = reads.start()
                    self.renders += 1
                    try:
                        with drawing(self.store):
                            html = render_block(block, context)
                    except Exception:  # something wanted the view as a dict: not kept
                        out[fid] = Part(language, inputs, {}, None,
                                        render_block(block, frame_context(ctx)))
                        continue
                    split: Split = (html, {})
                    if OPEN in html:
                        html, split = marked_split(html)
                    got = Part(language, inputs, noted.keys, view if noted.all else None,
                               html, split)
                    self.kept.setdefault((language, block), []).append(got)
                else:
                    self.reused += 1
            else:
                self.reused += 1
            out[fid] = got
        return out


_shared: dict[int, SharedFragments] = {}


def shared(room: Room) -> SharedFragments:
    """The room's shared fragments."""
    found = _shared.get(id(room))
    if found is None:
        found = _shared[id(room)] = SharedFragments()
        weakref.finalize(room, _shared.pop, id(room), None)
    return found


OOB_AT = re.compile(r"^<([a-zA-Z][\w-]*)")




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


def split_of(part: Part) -> Split:
    """A drawn fragment taken apart (:func:`inner_ids` when it was not at drawing)."""
    return part.split if part.split is not None else inner_ids(part.html)


def marked_split(html: str) -> tuple[str, Split]:
    """A fragment drawn with marked parts (:func:`app.web.memo.marked`): the HTML
    without the marks, and the fragment taken apart at them, as :func:`inner_ids`
    gives it (None if two parts have the same id: then it is only sent whole)."""
    pieces = html.split(OPEN)
    clean = [pieces[0]]
    shell = [pieces[0]]
    parts: dict[str, str] = {}
    for piece in pieces[1:]:
        element, rest = piece.split(CLOSE, 1)
        found = ID.search(element, 0, element.find(">"))
        key = (found[1] or found[2]) if found else ""
        if not key or key in parts:
            return html.replace(OPEN, "").replace(CLOSE, ""), None
        parts[key] = element
        clean += [element, rest]
        shell += [f"\0{key}\0", rest]
    return "".join(clean), ("".join(shell), parts)


def narrowed(old: str, new: str) -> str | None:
    """What to send instead of ``new`` when only elements with an id inside it
    changed since ``old``: those elements, each swapped by its id. None when more
    changed (the fragment goes whole)."""
    return narrowed_split(inner_ids(old), inner_ids(new))


# the last narrowings of fragments the seats share (every socket that had the same
# fragment before asks for the same one): (id(a), id(b)) -> (a, b, result); a and b
# are kept with it, so their ids stay theirs
_narrowings: dict[tuple[int, int], tuple[Split, Split, str | None]] = {}
NARROWINGS_KEPT = 256


def narrowed_split(a: Split, b: Split) -> str | None:
    """:func:`narrowed` of two fragments already taken apart by :func:`inner_ids`."""
    if a is None or b is None or a[0] != b[0]:
        return None
    pair = (id(a), id(b))
    kept = _narrowings.get(pair)
    if kept is not None and kept[0] is a and kept[1] is b:
        return kept[2]
    out = "".join(OOB_AT.sub(r'<\1 hx-swap-oob="true"', html, count=1)
                  for key, html in b[1].items() if a[1][key] != html)
    if len(_narrowings) >= NARROWINGS_KEPT:
        _narrowings.clear()
    _narrowings[pair] = (a, b, out)
    return out
