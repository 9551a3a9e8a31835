"""The table's fragments: what each is drawn from, stated here, and each drawn once
for all the seats that see it alike.

A seat's table is the fragments below, in page order; each is one template under
``templates/table/fragments/`` whose outermost element carries the fragment's id and
``hx-swap-oob``, so the page and a push hold the very same HTML. A fragment names
what it is drawn from:

* ``names``: the names of the seat's table context (:func:`app.web.render.table_context`)
  its shared template reads;
* for the fragments that show a game's own template (the board, the status, the
  buttons, the hand, the result): what that game's template reads, which the game's
  presentation declares (:class:`app.web.presentation.Reads`: keys of the seat's view
  and more context names). A game that declares nothing for a fragment has it drawn
  from the seat's whole view and context.

The fragment's context is exactly those values, and nothing else reaches its
template, so the context is its key: two seats (or two moments) whose contexts are
equal get the same HTML, and it is drawn once. A seat's context is made from that
seat's own table context, so a fragment can never hold more than its seat may see;
``tests/web/test_fragment_inputs.py`` checks that each declared context draws the
same HTML as the whole table context, for every game, state and seat.

Some elements of a fragment are parts of it, drawn on their own from what they read:
the ring's plates (``plate.html``, one per seat) and, in the trick games, the board's
trick, the note under it and the last trick (declared by the game, ``Reads.parts``).
A fragment whose own context stayed while some of its parts changed is sent as those
parts alone, each swapped by its id.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from markupsafe import Markup

from app import i18n
from app.rooms.room import Room
from app.web.presentation import Presentation, Reads
from app.web.render import env, on_change, table_context


@dataclass(frozen=True, slots=True)
class Fragment:
    """One fragment of the table: its element id and the context names its shared
    template reads; ``game``: whether it shows a template of the game's own (then what
    that reads comes from the game's presentation, :attr:`Presentation.reads`)."""

    id: str
    names: tuple[str, ...]
    game: bool = False
    template: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "template", f"table/fragments/{self.id.replace('-', '_')}.html")


# the names of what a game's own template inside a fragment may read besides its
# declared ones: the game, its presentation and the players' names
GAME = ("P", "game", "names")

FRAGMENTS: tuple[Fragment, ...] = (
    Fragment("turn-signal", ("info", "my_turn", "title", "turn_key")),
    Fragment("notice", ("room",)),
    Fragment("seats", ("room",)),  # and its plates (PLATE)
    Fragment("board", (*GAME, "hold", "holding", "info", "room", "status", "teams",
                       "viewer_free"), game=True),
    Fragment("status", (*GAME, "at_turn", "hold", "holding", "host_setup", "nobody_plays_on",
                        "pause_ms", "released", "room", "status", "waiting_for", "watching"),
             game=True),
    Fragment("actions", (*GAME, "buttons", "hint_offer", "hold", "holding", "nobody_plays_on",
                         "queued", "room", "seat", "status", "stood_in", "waiting_for"),
             game=True),
    Fragment("hand", (*GAME, "holding", "info", "is_host", "nobody_plays_on", "playable",
                      "seat", "seats_out", "status"), game=True),
    Fragment("result", (*GAME, "holding", "room", "status"), game=True),
    Fragment("host-end", ("P", "info", "is_host", "names", "room", "stand_ins", "status")),
    Fragment("rematch", ("P", "is_host", "rematch_fields", "rematch_values", "room", "seat",
                         "status")),
    Fragment("version", ("status", "version")),
)
FRAGMENT_IDS = tuple(f.id for f in FRAGMENTS)
SEATS = "seats"
# what a plate of the ring (``plate.html``) is drawn from, besides its Plate (``p``)
PLATE = ("game", "host_setup", "viewer_free")
PLATE_TEMPLATE = "table/fragments/plate.html"


def context_of(fragment: Fragment, ctx: Mapping[str, Any], p: Presentation) -> dict[str, Any]:
    """What ``fragment`` is drawn from, taken from a seat's table context."""
    if not fragment.game:
        return {name: ctx[name] for name in fragment.names}
    reads = p.reads.get(fragment.id)
    if reads is None:  # the game said nothing: everything of the seat
        return dict(ctx)
    return declared(fragment.names, reads, ctx)


def declared(names: tuple[str, ...], reads: Reads, ctx: Mapping[str, Any]) -> dict[str, Any]:
    """The context names ``names`` and what ``reads`` says, of a seat's table context."""
    out = {name: ctx[name] for name in names}
    for name in reads.context:
        out[name] = ctx[name]
    view = ctx["view"]
    out["view"] = {key: view[key] for key in reads.view if key in view}
    if reads.derived is not None:
        out.update(reads.derived(view))
    return out


def plate_contexts(ctx: Mapping[str, Any]) -> list[dict[str, Any]]:
    """What each plate of the ring is drawn from."""
    common = {name: ctx[name] for name in PLATE}
    return [{"p": plate, **common} for plate in ctx["plates"]]


# what a part of a game's fragment may read besides what it declares
PART = ("game", "names", "room")


def parts_of(fragment: Fragment, ctx: Mapping[str, Any],
             p: Presentation) -> list[tuple[str, str, dict[str, Any]]]:
    """The parts of a fragment: (element id, template, what it is drawn from)."""
    if fragment.id == SEATS:
        return [(f"plate-{c['p'].seat}", PLATE_TEMPLATE, c) for c in plate_contexts(ctx)]
    reads = p.reads.get(fragment.id) if fragment.game else None
    if reads is None:
        return []
    return [(part.id, part.template, declared(PART, part.reads, ctx)) for part in reads.parts]


class Drawn:
    """A fragment (or a part of one) as drawn: the template and the context it is
    drawn from, in a language, its parts (the ring's plates, the board's trick), and
    its HTML, drawn when it is first asked for: when only its parts changed, a push
    sends those and the whole is never needed, and a part the fragment does not show
    now (the facts above the turn line before the match starts) is never drawn."""

    __slots__ = ("_html", "context", "id", "language", "parts", "template")

    def __init__(self, language: str, template: str, context: dict[str, Any],
                 parts: tuple[Drawn, ...] = (), id: str = "",  # noqa: A002
                 html: Markup | None = None) -> None:
        self.language = language
        self.template = template
        self.context = context
        self.parts = parts
        self.id = id  # a part's element id
        self._html = html

    @property
    def html(self) -> Markup:
        if self._html is None:
            self._html = draw(self.template, self.context, self.parts)
        return self._html

    def fits(self, language: str, context: Mapping[str, Any],
             parts: tuple[Drawn, ...] = ()) -> bool:
        return (self.language == language and self.parts == parts
                and (self.context is context or self.context == context))


class Parts(Mapping[str, Markup]):
    """A fragment's parts by id for its template (``part["trick"]``, ``part.facts``),
    each drawn when the template shows it."""

    __slots__ = ("_by_id",)

    def __init__(self, parts: tuple[Drawn, ...]) -> None:
        self._by_id = {d.id: d for d in parts}

    def __getitem__(self, pid: str) -> Markup:
        return self._by_id[pid].html

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)


def draw(template: str, context: Mapping[str, Any], parts: tuple[Drawn, ...] = ()) -> Markup:
    """A fragment's HTML from its context and its parts (``part``, by id and in
    order): markup, as the template escaped what it holds.

    Rendered as Jinja2's documented ``Template.make_module(vars, shared=True)``, whose
    text is the rendered template, with the environment's globals put in ``vars``
    here: ``render()`` would merge them into every context from the template's
    ``ChainMap`` of globals, which took a fifth of the table's drawing time."""
    names = {**env.globals, **context}
    if parts:
        names["part"] = Parts(parts)
    return Markup(str(env.get_template(template).make_module(names, shared=True)).strip())


def render_fragments(room: Room, seat: int | None, is_host: bool) -> dict[str, Markup]:
    """Every fragment of this seat's table drawn afresh: id -> HTML (a page load)."""
    ctx = table_context(room, seat, is_host, fresh=True)
    p = ctx["P"]
    language = i18n.get_language()
    out = {}
    for fragment in FRAGMENTS:
        parts = tuple(Drawn(language, template, c, id=pid)
                      for pid, template, c in parts_of(fragment, ctx, p))
        out[fragment.id] = draw(fragment.template, context_of(fragment, ctx, p), parts)
    return out


def render_frame(room: Room, seat: int | None, is_host: bool) -> str:
    """The whole table of a seat in one push."""
    return "".join(render_fragments(room, seat, is_host).values())


def render_notice(error: str | None) -> str:
    """The notice fragment alone (``room.error``, translated), as a push carries it:
    sent while the room's lock is held by a write that waits for the database
    (app.rooms.recovery), when the rest of the table cannot be drawn. A slow
    database holds up every table at once, and each of their sockets is sent the
    same few notices: each is drawn once per language."""
    return _notice(error, i18n.translations())


@lru_cache(maxsize=64)
def _notice(error: str | None, _catalogue: Any) -> str:
    return draw(FRAGMENTS[1].template, {"room": {"error": error}})


on_change.append(_notice.cache_clear)


class SharedFragments:
    """One room's fragments of its current moment (between two of its announcements,
    ``Room.moment``), each kept with its context, so that a seat whose context equals
    one drawn already is given that HTML."""

    def __init__(self) -> None:
        self.moment = -1
        self.kept: dict[tuple[str, str], list[Drawn]] = {}
        self.renders = 0  # fragments and parts new this moment, drawn when shown (tests, bench)
        self.reused = 0  # given from what was kept

    def render(self, room: Room, seat: int | None, is_host: bool,
               memo: Mapping[str, Drawn] | None = None) -> dict[str, str]:
        """Every fragment of this seat's table: id -> HTML (see :meth:`parts`)."""
        return {fid: part.html for fid, part in self.parts(room, seat, is_host, memo).items()}

    def parts(self, room: Room, seat: int | None, is_host: bool,
              memo: Mapping[str, Drawn] | None = None) -> dict[str, Drawn]:
        """Every fragment of this seat's table: id -> the drawn fragment. ``memo``:
        what the caller (a socket) was given last, by id, looked at first. In
        development (templates reloaded) nothing is kept: a template may change
        between two pushes."""
        if env.auto_reload:
            memo = None
            self.kept.clear()
        if self.moment != room.moment:
            self.moment = room.moment
            self.kept.clear()
        ctx = table_context(room, seat, is_host)
        p = ctx["P"]
        language = i18n.get_language()
        memo = memo or {}
        out = {}
        for fragment in FRAGMENTS:
            old = memo.get(fragment.id)
            before = old.parts if old is not None else ()
            parts = tuple(
                self._find(language, template, c, before[i] if i < len(before) else None,
                           pid=pid)
                for i, (pid, template, c) in enumerate(parts_of(fragment, ctx, p)))
            out[fragment.id] = self._find(language, fragment.template,
                                          context_of(fragment, ctx, p), old, parts)
        return out

    def _find(self, language: str, template: str, context: dict[str, Any],
              old: Drawn | None, parts: tuple[Drawn, ...] = (), pid: str = "") -> Drawn:
        """The drawing of ``context``: the caller's own from before, one of this
        moment's, or drawn now and kept."""
        if old is not None and old.fits(language, context, parts):
            self.reused += 1
            return old
        kept = self.kept.setdefault((language, template), [])
        for found in kept:
            if found.fits(language, context, parts):
                self.reused += 1
                return found
        self.renders += 1
        drawn = Drawn(language, template, context, parts, pid)
        kept.append(drawn)
        return drawn


def changes(before: Mapping[str, Drawn], now: Mapping[str, Drawn]) -> str:
    """What a socket that has ``before`` is sent to have ``now``: each fragment it
    does not have (of one whose parts alone changed, those parts: plates of the
    ring, the trick on the board), and the version."""
    out = []
    for key, drawn in now.items():
        old = before.get(key)
        if key == "version" or old is None:
            out.append(drawn.html)
        elif old is drawn:
            continue
        elif (drawn.parts and [d.id for d in old.parts] == [d.id for d in drawn.parts]
              and old.language == drawn.language and old.context == drawn.context):
            out.extend(new.html for was, new in zip(old.parts, drawn.parts, strict=True)
                       if was is not new and was.html != new.html)
        elif old.html != drawn.html:
            out.append(drawn.html)
    return "".join(out)


_shared: dict[int, SharedFragments] = {}


def shared(room: Room) -> SharedFragments:
    """The room's shared fragments."""
    found = _shared.get(id(room))
    if found is None:
        found = _shared[id(room)] = SharedFragments()
        weakref.finalize(room, _shared.pop, id(room), None)
    return found


def warm() -> None:
    """Compile the table's templates and every game's ahead of the first push (the
    first push of a game would otherwise wait for it)."""
    for name in env.list_templates():
        if name.startswith(("table/", "games/")):
            env.get_template(name)
