"""Rendering: the templates' environment, and what a seat's table is drawn from.

Stock Jinja2 through its public API: one :class:`jinja2.Environment` with a loader
(:class:`TemplateLoader`), globals and filters, the i18n extension and
:class:`OneBreak`. Templates come from ``templates/``; ``games/<game>/...`` comes from
the folder of that game's presentation (``templates/games/<game>/`` for the built-in
games, any folder for a game registered at run time). Words go through ``_``
(jinja2.ext.i18n). :func:`table_context` is everything a seat's table is drawn from;
:mod:`app.web.fragments` says what each fragment of it reads and draws it.
"""

from __future__ import annotations

import json
import re
import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from fastapi.templating import Jinja2Templates
from jinja2 import BaseLoader, Environment, FileSystemLoader, TemplateNotFound
from jinja2.ext import Extension
from jinja2.lexer import Token, TokenStream
from markupsafe import Markup

from app import i18n
from app.config import get_settings
from app.games import GAMES
from app.games.actions import PLAY_WIRES, Action, Challenge, Exchange, Lay, Play, Skip
from app.rooms.room import Room
from app.rooms.table_options import TABLE_OPTIONS
from app.rooms.table_state import seat_state, table_state
from app.web.assets import static_url
from app.web.cards import Face, card_badge, face, is_trump, suit_label
from app.web.charts import score_chart
from app.web.presentation import (
    TEMPLATES,
    find,
    on_change,
    presentation,
    presentations,
    together,
)
from app.web.settlement import in_money
from app.web.share import rematch_fields


class TemplateLoader(BaseLoader):
    """Shared templates from ``templates/``; ``games/<game>/<name>`` from the folder
    the game's presentation names, looked up when the template is loaded."""

    def __init__(self) -> None:
        self.shared = FileSystemLoader(str(TEMPLATES))
        # names looked for and not found (a game without its own actions.html, say):
        # Jinja2 keeps only templates it found, so each render would ask the disk again
        self.missing: set[str] = set()

    def get_source(self, environment: Environment,
                   template: str) -> tuple[str, str | None, Callable[[], bool] | None]:
        if template in self.missing:
            raise TemplateNotFound(template)
        try:
            return self._source(environment, template)
        except TemplateNotFound:
            if not environment.auto_reload:  # in development a file may be added
                self.missing.add(template)
            raise

    def _source(self, environment: Environment,
                template: str) -> tuple[str, str | None, Callable[[], bool] | None]:
        prefix, _, rest = template.partition("/")
        game, _, name = rest.partition("/")
        if prefix == "games" and name:
            p = find(game)
            if p is None:
                raise TemplateNotFound(template)
            folder = p.template_dir
            source, filename, uptodate = FileSystemLoader(str(folder)).get_source(
                environment, name)

            def fresh() -> bool:  # the game may be registered again with another folder
                q = find(game)
                return (q is not None and q.template_dir == folder
                        and (uptodate is None or uptodate()))

            return source, filename, fresh
        return self.shared.get_source(environment, template)

    def list_templates(self) -> list[str]:
        names = {t for t in self.shared.list_templates() if not t.startswith("games/")}
        for game, p in presentations().items():
            if p.template_dir.is_dir():
                names.update(f"games/{game}/{t}"
                             for t in FileSystemLoader(str(p.template_dir)).list_templates())
        return sorted(names)


BREAKS = re.compile(r"[ \t\r]*\n[ \t\r\n]*")


class OneBreak(Extension):
    """Each run of spaces and line breaks in a template's own text that holds a line
    break becomes one line break, when the template is compiled: the browser shows
    one space for it either way (no template has <pre> or <textarea>), the pushes are
    smaller, and nothing is left to trim at every render."""

    def filter_stream(self, stream: TokenStream) -> Iterator[Token]:
        for token in stream:
            if token.type == "data":
                token = Token(token.lineno, "data", BREAKS.sub("\n", token.value))
            yield token


loader = TemplateLoader()
env = Environment(loader=loader, autoescape=True, extensions=[OneBreak, "jinja2.ext.i18n"],
                  auto_reload=get_settings().dev)
templates = Jinja2Templates(env=env)
on_change.append(loader.missing.clear)
# Templates are compiled once and kept (Jinja2's own cache); only in development
# (DEV=true) is every template's file checked for a change on each render.
on_change.append(env.cache.clear if env.cache is not None else lambda: None)
env.install_gettext_callables(  # type: ignore[attr-defined]
    lambda message: i18n.gettext(message),
    lambda singular, plural, n: i18n.ngettext(singular, plural, n),
    newstyle=True,
)


@lru_cache(maxsize=4096)
def _catalogue_markup(catalogue: Any, message: str) -> Markup:
    """A message of a catalogue as markup, ``%`` not applied yet."""
    return Markup(catalogue.gettext(message))


@lru_cache(maxsize=4096)
def _catalogue_text(catalogue: Any, message: str) -> Markup:
    """A message without placeholders, translated and ``%%`` undone, as a template
    shows it."""
    return _catalogue_markup(catalogue, message) % {}


def template_gettext(message: str, **variables: Any) -> Markup:
    """``{{ _("...") }}`` in a template: the message in the current language (a
    context variable: per request, per socket), its placeholders filled with escaped
    values, like Jinja2's "newstyle" gettext. Unlike that one it takes no template
    context, so a call inside a loop does not copy the context first, and a message
    without placeholders is translated once per catalogue."""
    catalogue = i18n.translations()
    if not variables:
        return _catalogue_text(catalogue, message)
    return _catalogue_markup(catalogue, message) % variables


def template_ngettext(singular: str, plural: str, num: int, **variables: Any) -> Markup:
    """``{{ ngettext(...) }}``: as :func:`template_gettext`, ``num`` is a variable."""
    variables.setdefault("num", num)
    return Markup(i18n.ngettext(singular, plural, num)) % variables


env.globals.update(_=template_gettext, gettext=template_gettext, ngettext=template_ngettext)


def _translate(message: object) -> str:
    """``{{ text|tr }}``: a string marked with ``N_`` elsewhere, translated now
    (no ``%`` formatting, unlike ``_``)."""
    return i18n.gettext(str(message)) if message else ""


def _switch_next(request: Any) -> str:
    """Where the language switch goes back to: this page (GET), else the lobby."""
    if request is None or getattr(request, "method", "GET") != "GET":
        return "/"
    query = urlencode([(k, v) for k, v in request.query_params.multi_items() if k != "lang"])
    return request.url.path + ("?" + query if query else "")


def action_label(game: str, action: str) -> str:
    return presentation(game).action_label(action)


def _vals(**values: Any) -> Markup:
    """hx-vals JSON, escaped for an attribute."""
    return Markup.escape(json.dumps(values, separators=(",", ":")))


@lru_cache(maxsize=4096)
def card_face(f: Face) -> Markup:
    """``{{ card_face(f) }}``: the inside of a card (its picture, corner, name and
    readable title, ``table/card_face.html``), rendered once per face."""
    return Markup(env.get_template("table/card_face.html").render(f=f))


on_change.append(card_face.cache_clear)


def hand_card(game: str, code: str, action: str | None, trump: bool, badge: str,
              why: str | None = None) -> Markup:
    """``{{ hand_card(...) }}``: one card of a hand (``table/hand_card.html``): what it
    looks like depends on these and the language only, so each look is drawn once
    for every table. A card without an ``action`` (it cannot be played now) asks
    the server why with ``why``, the action it would be (``play:EO``), when given."""
    return _hand_card(game, code, action, bool(trump), badge or "", why,
                      i18n.translations())


@lru_cache(maxsize=8192)
def _hand_card(game: str, code: str, action: str | None, trump: bool, badge: str,
               why: str | None, _catalogue: Any) -> Markup:
    return Markup(env.get_template("table/hand_card.html").render(
        game=game, code=code, action=action, trump=trump, badge=badge, why=why).strip())


on_change.append(_hand_card.cache_clear)


def hand_cards(game: str, hand: list[str], playable: Mapping[str, str],
               view: Mapping[str, Any]) -> Markup:
    """``{{ hand_cards(game, view.hand, playable, view) }}``: every card of a hand in
    one call (each card's look drawn once, :func:`hand_card`), its trump mark and
    badge asked of the game's presentation. A card that cannot be played now asks
    why (the engine's reason) of its play when tapped."""
    p = presentation(game)
    catalogue = i18n.translations()
    cards = []
    for code in hand:
        action = playable.get(code)
        cards.append(_hand_card(game, code, action, bool(p.trump(code, view)),
                                p.badge(code, view) or "",
                                None if action else PLAY_WIRES[code], catalogue))
    return Markup("\n").join(cards)


def card_span(game: str, code: str, view: Mapping[str, Any] | None = None) -> Markup:
    """``{{ card_span(game, code, view) }}``: a face-up card on the table (a played
    card, the last trick's), its trump mark from ``view`` (none without one); each
    look drawn once (``table/card_span.html``)."""
    trump = view is not None and bool(presentation(game).trump(code, view))
    return _card_span(game, code, trump, i18n.translations())


@lru_cache(maxsize=4096)
def _card_span(game: str, code: str, trump: bool, _catalogue: Any) -> Markup:
    return Markup(env.get_template("table/card_span.html").render(
        game=game, code=code, trump=trump).strip())


on_change.append(_card_span.cache_clear)


@lru_cache(maxsize=512)
def _chart(catalogue: Any, names: tuple[str | None, ...],
           deals: tuple[tuple[int, tuple[int, ...]], ...], measure: str, table: bool,
           money: bool) -> Markup:
    return score_chart(list(names), deals, measure, chart_id="table-chart", table=table,
                       money=money)


def table_chart(room: Any, names: list[str | None], measure: str, table: bool,
                game: str = "") -> Markup:
    """``{{ table_chart(...) }}``: the table's score chart (:func:`score_chart`) of the
    room's finished deals (balances in euros and cents for a ``game`` paid in cents).
    The scores change once a deal while the table is drawn at every push, so each
    chart is drawn once per language and kept."""
    deals = tuple((no, tuple(scores)) for no, scores in room.deal_scores)
    return _chart(i18n.translations(), tuple(names), deals, measure, table,
                  in_money(game))


on_change.append(_chart.cache_clear)


def _of_kind(values: list[str], kind: type[Action]) -> list[Action]:
    """``{{ legal | of_kind(Exchange) }}``: the legal actions of one kind, typed (each
    kind reads its own spelling)."""
    return [a for a in map(kind.read, values) if a is not None]


def _by_card(values: list[str], kind: type[Lay | Skip | Play]) -> dict[str, str]:
    """``{{ legal | by_card(Lay) }}``: the card each legal action of a kind that names
    one names, and the action's string (what a button on that card sends)."""
    return {a.card: a.wire for a in _of_kind(values, kind) if isinstance(a, kind)}


def _by_position(values: list[str]) -> dict[int | str, str]:
    """``{{ legal | by_position }}``: each legal challenge's position (1.., "all") and
    its string."""
    return {a.position: a.wire for a in _of_kind(values, Challenge)
            if isinstance(a, Challenge)}


def _among(values: list[str], wanted: list[str]) -> list[str]:
    """``{{ legal | among(["end", "pass"]) }}``: those that are one of ``wanted``."""
    return [v for v in values if v in wanted]


env.globals.update(GAMES=GAMES, TABLE_OPTIONS=TABLE_OPTIONS, presentation=presentation,
                   face=face, card_face=card_face, hand_card=hand_card, hand_cards=hand_cards,
                   card_span=card_span, suit_label=suit_label,
                   is_trump=is_trump, card_badge=card_badge,
                   action_label=action_label, vals=_vals, language=i18n.get_language,
                   LANGUAGES=i18n.LANGUAGES, switch_next=_switch_next, score_chart=score_chart,
                   table_chart=table_chart, static_url=static_url, together=together,
                   in_money=in_money,
                   # the kinds of action a template picks from the legal ones (of_kind)
                   Exchange=Exchange, Lay=Lay, Skip=Skip)
env.filters.update(tr=_translate, of_kind=_of_kind, by_card=_by_card,
                   by_position=_by_position, among=_among,
                   number=i18n.format_number, signed=i18n.format_signed,
                   datetime=i18n.format_datetime, date=i18n.format_date,
                   money=i18n.format_money,
                   timedelta=i18n.format_timedelta)


TURN_MARK = "▶ "  # the tab title starts with it while it is your turn


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """What the table shows of a seat's player (a copy: seats change in place)."""

    name: str
    is_bot: bool
    level: str


@dataclass(frozen=True, slots=True)
class TableFacts:
    """The room as the table's templates see it (``room`` in their context): copies
    of what they read, so that the context of one moment compares equal to another's
    exactly when the templates would read the same (:mod:`app.web.fragments` keeps a
    fragment for as long as its inputs stay equal)."""

    id: str
    players: int
    error: str | None
    options: dict[str, Any]
    table: dict[str, Any]
    seats: tuple[SeatFacts | None, ...]
    free_seats: tuple[int, ...]
    present: frozenset[int]  # seats a person has a page or socket open at
    next_id: str | None
    deal_scores: tuple[tuple[int, tuple[int, ...]], ...]
    shared_reviews: tuple[int, ...] = ()  # seats whose person shared their reviews

    @classmethod
    def of(cls, room: Room) -> TableFacts:
        return cls(
            id=room.id, players=room.players, error=room.error, options=dict(room.options),
            table=dict(room.table),
            seats=tuple(SeatFacts(p.name, p.is_bot, p.level) if p is not None else None
                        for p in room.seats),
            free_seats=tuple(room.free_seats), present=frozenset(room.present),
            next_id=room.next_id,
            deal_scores=tuple((no, tuple(scores)) for no, scores in room.deal_scores),
            shared_reviews=tuple(room.shared_reviews))

    def is_present(self, seat: int) -> bool:
        """As :meth:`app.rooms.room.Room.is_present`."""
        player = self.seats[seat]
        return bool(player and (player.is_bot or seat in self.present))


@dataclass(frozen=True, slots=True)
class Plate:
    """What the plate of one seat round the table shows (from the spectator's view:
    the same for every seat)."""

    seat: int
    name: str | None
    player: SeatFacts | None
    present: bool  # a person has a page or socket open at the seat (or a bot plays it)
    turn: bool
    team: int | None
    winner: bool
    stand_in: str | None  # why a bot plays for the person (None: nobody does)
    deals: bool
    count: int | None  # cards in hand, where the game shows them
    score: int | None
    away: int | None  # ms until a bot plays for a seat nobody is at
    clock: int | None  # ms left on the turn clock, for a seat it runs for
    deadline: int | None  # when it runs out (ms since the epoch)
    turn_clock: int  # the table's seconds per move
    css: str  # the plate's classes (what it shows as its state)


def plate_css(turn: bool, team: int | None, winner: bool, stand_in: str | None,
              free: bool) -> str:
    """The classes of a plate: ``plate`` and its state."""
    return "".join(("plate", " turn" if turn else "",
                    f" team{team}" if team is not None else "", " winner" if winner else "",
                    " stood-in" if stand_in else "", " free" if free else ""))


def plates(facts: TableFacts, public: Mapping[str, Any], holding: bool,
           teams: tuple[tuple[int, ...], ...], stand_ins: Mapping[int, str],
           away: Mapping[int, int],
           clock_ms: int | None, clock_at: int | None,
           clock_seats: list[int]) -> tuple[Plate, ...]:
    team_of = {s: i for i, team in enumerate(teams) for s in team}
    winners = public.get("winners") or ()
    counts = public.get("hand_counts")
    scores = public.get("scores")
    if holding:  # the finished deal is shown; the engine has dealt the next one
        counts = None  # its hands are not on the table yet
        scores = (public.get("last_deal") or {}).get("scores", scores)
    out = []
    for s, p in enumerate(facts.seats):
        turn = not holding and "turn" in public and public["turn"] == s
        team, winner, stand_in = team_of.get(s), s in winners, stand_ins.get(s)
        out.append(Plate(
            seat=s, name=p.name if p else None, player=p, present=facts.is_present(s),
            turn=turn, team=team, winner=winner, stand_in=stand_in,
            deals=not holding and "dealer" in public and public["dealer"] == s,
            count=counts[s] if counts is not None else None,
            score=scores[s] if scores is not None else None, away=away.get(s),
            clock=clock_ms if s in clock_seats else None,
            deadline=clock_at if s in clock_seats else None,
            turn_clock=facts.table.get("turn_clock", 0),
            css=plate_css(turn, team, winner, stand_in, p is None)))
    return tuple(out)


MISSING = object()


# The part of a table's context that is the same for every seat is worked out once
# per moment of the room (between two of its announcements, ``Room.moment``). The
# times left on its clocks are read then too; a moment that lasts while a clock runs
# is read again after this long, so a late page never shows an old countdown. Without
# a running clock nothing in it changes within a moment: it is kept however long the
# moment's pushes take (a busy server's pushes of one moment may take seconds).
ROOM_CONTEXT_TTL = 0.25
_room_contexts: weakref.WeakKeyDictionary[Room, tuple[int, float | None, dict[str, Any]]] = (
    weakref.WeakKeyDictionary())


def room_context(room: Room, fresh: bool = False) -> dict[str, Any]:
    """Everything of the table's context that does not depend on the seat: values
    only (copies, never the room's own lists, sets or records). Kept for the
    pushes of one moment; ``fresh``: read now (a page load). A value equal to the
    last moment's is that very object, so that comparing the inputs of a kept
    fragment with this moment's finds them equal at once."""
    kept = _room_contexts.get(room)
    now = room.clock.now()
    if (not fresh and kept is not None and kept[0] == room.moment
            and (kept[1] is None or now - kept[1] < ROOM_CONTEXT_TTL)):
        return kept[2]
    state = table_state(room)
    ticking = bool(state.pause_ms or state.window_ms or state.clock_ms is not None
                   or state.away_ms)
    facts = TableFacts.of(room)
    ctx = {
        "room": facts, "names": tuple(room.names()), "info": GAMES[room.game],
        "P": presentation(room.game), "status": state.status, "game": room.game,
        "version": state.version, "window_ms": state.window_ms, "teams": state.teams,
        "holding": state.holding, "hold": state.hold, "waiting_for": state.waiting_for,
        "pause_ms": state.pause_ms, "stand_ins": state.stand_ins, "released": state.released,
        "clock_ms": state.clock_ms, "clock_at": state.clock_at,
        "clock_seats": state.clock_seats, "connected": state.connected,
        "seats_out": state.seats_out, "nobody_plays_on": state.nobody_plays_on,
        "away_ms": state.away_ms,
        "plates": plates(facts, state.public, state.holding, state.teams, state.stand_ins,
                         state.away_ms, state.clock_ms, state.clock_at,
                         list(state.clock_seats)),
    }
    if kept is not None:
        before = kept[2]
        for key, value in ctx.items():
            old = before.get(key, MISSING)
            if old is not value and old == value:
                ctx[key] = old
    _room_contexts[room] = (room.moment, now if ticking else None, ctx)
    return ctx


def table_context(room: Room, seat: int | None, is_host: bool,
                  fresh: bool = False) -> dict[str, Any]:
    """What a seat's table is drawn from: the room's part (:func:`room_context`) and
    the seat's own (:func:`app.rooms.table_state.seat_state`: its view, its legal
    actions, whether it is its turn...)."""
    shared = room_context(room, fresh)
    own = seat_state(room, seat, shared["holding"], shared["status"])
    view, legal, my_turn = own.view, own.legal, own.my_turn
    actions = shared["info"].match_class.parser.each(legal)  # typed, read once each
    title = f"{i18n.gettext(shared['info'].title)} · Stammtisch"  # the page's language
    return {
        **shared, "seat": seat, "is_host": is_host, "view": view, "legal": legal,
        "buttons": shared["P"].buttons(actions),
        "playable": {a.card: a.wire for a in actions if isinstance(a, Play)},
        **rematch_context(room, is_host),
        # the seat's turn in the view, and what the turn signal keys a new turn by
        "at_turn": seat is not None and view.get("turn") == seat,
        "turn_key": shared["version"] if my_turn else "",
        "watching": seat is None,
        # a practice table's Hint button: a seated person who may act now
        "hint_offer": bool(shared["room"].table.get("hints")) and bool(legal)
        and shared["status"] == "playing" and not shared["holding"],
        "stood_in": own.stood_in, "queued": own.queued,
        "my_turn": my_turn, "title": (TURN_MARK + title) if my_turn else title,
        # the host's tools before the match (seat, remove a bot, swap, start): what
        # the plates and the status read of being the host, so that host and guests
        # share them once the match runs
        "host_setup": is_host and shared["status"] == "waiting",
        "viewer_free": seat is None and room.match is None and bool(room.free_seats),
    }


def rematch_context(room: Room, is_host: bool) -> dict[str, Any]:
    """The host's "Play again" form: the options it may change, filled in as now."""
    if not is_host or room.status != "finished" or room.next_id:
        return {"rematch_fields": [], "rematch_values": {}}
    return {"rematch_fields": rematch_fields(room.game),
            "rematch_values": {**room.options, **room.table}}


def render_flash(message: str, kind: str = "error") -> str:
    return env.get_template("table/flash.html").render(message=message, kind=kind, oob=True)
