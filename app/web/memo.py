"""``{% memo %} ... {% endmemo %}``: a part of a table template drawn once and given
again, without drawing it, while what it reads stays the same.

A push draws a fragment again when anything in it changed, though most of it is
usually as it was: three of the four plates round the table, the cards of a hand
that did not move, the table of finished deals under the scores. Wrapped in
``{% memo %}``, such a part keeps its HTML with its inputs, and gives it again while
they are equal. The inputs are worked out the way :mod:`app.web.fragments` works
out a fragment's:

* every name the part mentions that it does not set itself, found in its syntax tree
  when the template is compiled (the context's values, the template's own variables
  set before it, the loop variable, the environment's functions); the table's
  context holds values only (:func:`app.web.render.table_context`), so equal values
  mean the part reads the same;
* the keys of the seat's view it read (recorded while it was drawn), and the
  language.

A part must not include or import templates (their names would not be seen) and
must not read ``loop`` (set what it needs of it before the tag): both are refused
when the template is compiled.

Kept parts live per room (the store :func:`drawing` makes current while a room's
fragments are rendered) and are dropped when nobody asked for them for a few moments
of the room (:attr:`Store.PRUNE_EVERY`). Outside a push (a page, a test's plain
render) a part is simply drawn.
"""

from __future__ import annotations

import contextvars
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from jinja2 import nodes
from jinja2.exceptions import TemplateSyntaxError
from jinja2.ext import Extension
from jinja2.meta import find_undeclared_variables
from jinja2.parser import Parser
from markupsafe import Markup

from app import i18n

MISSING = object()

# a start or end tag (quoted attribute values may hold anything but their quote)
TAG = re.compile(r"""<(/?)([a-zA-Z][\w-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(/?)>""")
ID = re.compile(r"""\sid=(?:"([^"]+)"|'([^']+)')""")
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
                  "meta", "source", "track", "wbr"})
# A part that is one element with an id (a plate, the trick) is marked in the
# fragment it is drawn into, between these two characters (which HTML text never
# holds: they are control characters); the fragment is taken apart at the marks,
# so that a push can send such an element alone (app.web.fragments.marked_split)
# without parsing the fragment, and the marks are removed before anything is sent.
OPEN, CLOSE = "\x02", "\x03"


def element_id(html: str) -> str | None:
    """The id of ``html`` when it is exactly one element that carries an id on its
    outermost tag, else None. Only the tags of that element's name are looked at:
    drawn HTML holds no "<" but in its tags (text and attribute values are escaped)."""
    first = TAG.match(html)
    if first is None or first[1]:
        return None
    found = ID.search(first[3])
    if found is None:
        return None
    key = found[1] or found[2]
    name = first[2].lower()
    if first[4] or name in VOID:
        return key if first.end() == len(html) else None
    depth = 0
    for m in _same_name(name).finditer(html):
        depth += -1 if m[1] else 1
        if depth == 0:
            return key if m.end() == len(html) else None
    return None


@lru_cache(maxsize=64)
def _same_name(name: str) -> re.Pattern[str]:
    """Start and end tags of elements called ``name``."""
    return re.compile(rf"<(/?){re.escape(name)}(?=[\s/>])[^>]*>", re.IGNORECASE)


class Reads:
    """What a render read of a seat's view: key -> value (MISSING: absent), and
    whether it went through the whole view."""

    __slots__ = ("all", "keys")

    def __init__(self) -> None:
        self.keys: dict[str, Any] = {}
        self.all = False


class ViewReads(Mapping[str, Any]):
    """A seat's view that notes what a render reads of it (into ``_reads``)."""

    # underscored: a template's ``view.x`` is an attribute before it is a key
    __slots__ = ("_reads", "_view")

    def __init__(self, view: Mapping[str, Any]) -> None:
        self._view = view
        self._reads = Reads()

    def start(self) -> Reads:
        """Note afresh (the next block's render begins); the new notes."""
        self._reads = Reads()
        return self._reads

    def __getitem__(self, key: str) -> Any:
        try:
            value = self._view[key]
        except KeyError:
            self._reads.keys[key] = MISSING
            raise
        self._reads.keys[key] = value
        return value

    def __iter__(self) -> Iterator[str]:
        self._reads.all = True
        return iter(self._view)

    def __len__(self) -> int:
        self._reads.all = True
        return len(self._view)


Split = tuple[str, dict[str, str]] | None  # a fragment taken apart: see fragments.inner_ids


@dataclass(frozen=True, slots=True)
class Part:
    """Drawn HTML kept with what it was drawn from (a fragment, or a part of one)."""

    language: str
    values: tuple[Any, ...]  # the values of the names it mentions
    read: dict[str, Any]  # what it read of the view
    whole: Mapping[str, Any] | None  # the view, when it was read whole
    html: str  # a part: with the marks of the elements in it; a fragment: without
    split: Split = None  # a fragment: taken apart at the marks (None: not known)

    def fits(self, language: str, values: tuple[Any, ...], view: Mapping[str, Any]) -> bool:
        return (values == self.values and language == self.language
                and read_alike(self, view))


def read_alike(part: Part, view: Mapping[str, Any]) -> bool:
    """Whether ``view`` holds what ``part`` read of its view."""
    if part.whole is not None:
        return view == part.whole
    for key, value in part.read.items():
        if value is MISSING:
            if key in view:
                return False
        else:
            now = view.get(key, MISSING)
            if now is not value and now != value:
                return False
    return True


class Store:
    """One room's kept parts: by the tag they come from, then by their values (a
    dict lookup when the values can be hashed, as nearly all are: a hand's parts
    are its cards), each with the moment it was last given."""

    PRUNE_EVERY = 4  # moments; a part nobody asked for in that long is dropped then

    def __init__(self) -> None:
        self.parts: dict[str, dict[Any, list[list[Any]]]] = {}
        self.moment = 0
        self.drawn = 0  # parts drawn (tests and the benchmark)
        self.given = 0  # parts given from what was kept

    def next_moment(self, moment: int) -> None:
        """The room moved on to ``moment``; now and then, parts left unused for long
        are dropped."""
        self.moment = moment
        if moment % self.PRUNE_EVERY:
            return
        oldest = moment - self.PRUNE_EVERY
        for tag, by_values in list(self.parts.items()):
            for values, kept in list(by_values.items()):
                fresh = [k for k in kept if k[0] >= oldest]
                if fresh:
                    by_values[values] = fresh
                else:
                    del by_values[values]
            if not by_values:
                del self.parts[tag]

    def find(self, where: str, language: str, values: tuple[Any, ...],
             view: Mapping[str, Any]) -> Part | None:
        by_values = self.parts.get(where)
        if by_values is None:
            return None
        try:
            bucket = by_values.get(values)  # found by its values: they are equal
            hashed = True
        except TypeError:
            bucket = by_values.get(UNHASHABLE)
            hashed = False
        for entry in bucket or ():
            part: Part = entry[1]
            if (part.language == language and (hashed or part.values == values)
                    and read_alike(part, view)):
                entry[0] = self.moment
                return part
        return None

    def keep(self, where: str, part: Part) -> None:
        self._bucket(where, part.values).append([self.moment, part])

    def _bucket(self, where: str, values: tuple[Any, ...]) -> list[list[Any]]:
        by_values = self.parts.setdefault(where, {})
        try:
            return by_values.setdefault(values, [])
        except TypeError:  # a list or a dict among the values: compared one by one
            return by_values.setdefault(UNHASHABLE, [])


UNHASHABLE = object()


_current: contextvars.ContextVar[Store | None] = contextvars.ContextVar(
    "memo_store", default=None)


@contextmanager
def drawing(store: Store) -> Iterator[None]:
    """Make ``store`` the one ``{% memo %}`` parts are kept in, for a room's render."""
    token = _current.set(store)
    try:
        yield
    finally:
        _current.reset(token)


def marked(html: str) -> str:
    """A part as it goes into its fragment: when it is one element with an id, that
    element between the marks (the marks of elements inside it removed: only the
    outermost is sent alone)."""
    if OPEN in html:
        html = html.replace(OPEN, "").replace(CLOSE, "")
    body = html.strip()
    if not body or element_id(body) is None:
        return html
    start = html.index(body)
    return f"{html[:start]}{OPEN}{body}{CLOSE}{html[start + len(body):]}"


class MemoExtension(Extension):
    tags = {"memo"}

    def parse(self, parser: Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endmemo",), drop_needle=True)
        where = f"{parser.name or '?'}:{lineno}"
        tree = nodes.Template(body, lineno=lineno)
        tree.set_environment(self.environment)
        for node in tree.find_all((nodes.Include, nodes.Import, nodes.FromImport)):
            raise TemplateSyntaxError("{% memo %} cannot include or import a template",
                                      node.lineno, parser.name, parser.filename)
        names = set(find_undeclared_variables(tree))
        if names & {"loop", "caller", "varargs", "kwargs"}:
            raise TemplateSyntaxError(
                "{% memo %} cannot read loop, caller, varargs or kwargs; set what it "
                "needs before it", lineno, parser.name, parser.filename)
        values = nodes.Tuple([nodes.Name(n, "load") for n in sorted(names - {"view"})],
                             "load")
        view = nodes.Name("view", "load") if "view" in names else nodes.Const(None)
        call = self.call_method("_draw", [nodes.Const(where), values, view])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _draw(self, where: str, values: tuple[Any, ...], view: Any, caller: Any) -> Markup:
        store = _current.get()
        if store is None or (view is not None and type(view) is not ViewReads):
            return Markup(caller())  # outside a push, or a view whose reads are not noted
        seen: Mapping[str, Any] = view._view if view is not None else {}
        language = i18n.get_language()
        found = store.find(where, language, values, seen)
        if found is not None:
            store.given += 1
            if view is not None:  # what the part read, the block around it read too
                reads = view._reads
                reads.keys.update(found.read)
                reads.all = reads.all or found.whole is not None
            return str.__new__(Markup, found.html)  # kept HTML: no check to make
        if view is not None:
            outer = view._reads
            inner = view._reads = Reads()
            try:
                html = marked(caller())
            finally:
                view._reads = outer
            outer.keys.update(inner.keys)
            outer.all = outer.all or inner.all
            part = Part(language, values, inner.keys, seen if inner.all else None, html)
        else:
            part = Part(language, values, {}, None, marked(caller()))
        store.drawn += 1
        store.keep(where, part)
        return str.__new__(Markup, part.html)
