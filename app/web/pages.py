"""HTML pages: the lobby, the table page with its join form, and the history."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.db import repo
from app.games import GAMES
from app.i18n import _
from app.rooms.errors import Forbidden, RoomError, ServedElsewhere
from app.web import lobby as lobby_form
from app.web import replay, settlement
from app.web.chat_view import chat_context
from app.web.deps import (
    HOST_COOKIE,
    SEAT_COOKIE,
    Service,
    origin_allowed,
    player_key,
    player_token,
    set_player_cookie,
    set_room_cookie,
)
from app.web.fragments import render_fragments
from app.web.limits import client_key
from app.web.messages import error_text
from app.web.presentation import find, presentation
from app.web.render import table_context, templates
from app.web.settlement import in_money
from app.web.share import room_url

router = APIRouter(include_in_schema=False)
log = logging.getLogger("stammtisch.web")


def _retry_after(exc: RoomError) -> dict[str, str]:
    seconds = getattr(exc, "retry_after", None)
    return {"Retry-After": str(seconds)} if seconds else {}


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    return templates.TemplateResponse(request, "lobby.html", lobby_form.fresh().context())


@router.post("/rooms")
async def create_room_form(request: Request, service: Service) -> Response:
    if not origin_allowed(request):
        return HTMLResponse(_("Cross-site request refused."), status_code=403)
    form = dict(await request.form())
    try:
        game, players, options = lobby_form.parse(form)
        client = client_key(request)
        request.app.state.limits.room_created(client)
        # "Practice table": hints on and strong bots in every seat but the opener's
        open_room = service.open_practice if form.get("practice") else service.create
        room, host_token = await open_room(game=game, players=players, options=options,
                                           client=client)
    except RoomError as exc:  # the form comes back as it was, saying what to change
        return templates.TemplateResponse(request, "lobby.html",
                                          lobby_form.refused(form, exc).context(),
                                          status_code=exc.status if exc.status >= 400 else 400,
                                          headers=_retry_after(exc))
    response = RedirectResponse(f"/r/{room.id}", status_code=303)
    set_room_cookie(request, response, HOST_COOKIE, host_token, room.id)
    return response


async def _room_page(request: Request, service: Service, room_id: str, *,
                     join_error: str | None = None, join_name: str | None = None,
                     status_code: int = 200) -> Response:
    room = service.rooms.get(room_id)
    if room is None or room.next_id:
        # a table that moved on to a rematch sends its visitors after it
        moved = room is not None or bool(
            await service.db.read(repo.next_match_id, match_id=room_id))
        if moved:
            return RedirectResponse(f"/r/{room_id}/next", status_code=303)
        return templates.TemplateResponse(request, "closed.html", {}, status_code=404)
    seat = room.seat_of(request.cookies.get(SEAT_COOKIE))
    is_host = room.is_host(request.cookies.get(HOST_COOKIE))
    ctx = table_context(room, seat, is_host, fresh=True)
    ctx.update(chat_context(room, seat, is_host, await service.chat.messages(room)))
    ctx.update(room_url=room_url(request, room.id), join_error=join_error,
               join_name=join_name, table=render_fragments(room, seat, is_host))
    return templates.TemplateResponse(request, "room.html", ctx, status_code=status_code)


@router.get("/r/{room_id}", response_class=HTMLResponse, name="room_page")
async def room_page(room_id: str, request: Request, service: Service) -> Response:
    return await _room_page(request, service, room_id)


@router.post("/r/{room_id}/join")
async def join_form(room_id: str, request: Request, service: Service,
                    name: str = Form(""), seat: str = Form("")) -> Response:
    """Take a seat: the free seat picked on the table (``seat``; empty: the first
    free one), or in a running match a seat the host released ("Take this seat")."""
    if not origin_allowed(request):
        return HTMLResponse(_("Cross-site request refused."), status_code=403)
    try:
        room = service.get(room_id)
        if room.seat_of(request.cookies.get(SEAT_COOKIE)) is not None:
            raise Forbidden("You already have a seat at this table.")
        request.app.state.limits.joined(client_key(request))
        player = player_token(request)
        seat_no, token = await service.join(room_id, name, seat=seat.strip() or None,
                                            player_key=repo.token_hash(player))
    except ServedElsewhere:  # the room left this process: 503, not its closed page
        raise
    except RoomError as exc:
        page = await _room_page(request, service, room_id, join_error=error_text(exc),
                                join_name=name[:24], status_code=exc.status)
        page.headers.update(_retry_after(exc))
        return page
    response = RedirectResponse(f"/r/{room_id}", status_code=303)
    set_room_cookie(request, response, SEAT_COOKIE, token, room_id)
    set_player_cookie(request, response, player)
    log.info("seat %d taken by the join form", seat_no)
    return response


@router.get("/history", response_class=HTMLResponse)
async def history(request: Request, service: Service, game: str | None = None) -> HTMLResponse:
    if game is not None and game not in GAMES:
        game = None
    matches = await service.db.read(repo.finished_matches, game=game, limit=200)
    return templates.TemplateResponse(request, "history.html",
                                      {"matches": matches, "game_filter": game})


@router.get("/history/{match_id}", response_class=HTMLResponse)
async def history_match(match_id: str, request: Request, service: Service) -> HTMLResponse:
    match = await service.db.read(repo.get_match, match_id=match_id)
    if match is None or match.status != "finished":
        return templates.TemplateResponse(request, "closed.html", {"history": True},
                                          status_code=404)
    p = find(match.game)
    next_href = None
    # a rematch is linked only once it is finished: the history is public, and a
    # table still being played belongs to the people the host gave its link
    if match.next_match_id and await service.db.read(
            repo.match_status, match_id=match.next_match_id) == "finished":
        next_href = f"/history/{match.next_match_id}"
    money = in_money(match.game)
    # a game paid in cents: the settlement sheet, from the ledger rows
    sheet = settlement.from_ledger(
        await service.db.read(repo.ledger, match_id=match_id), match.players,
        [d.deal_no for d in match.deals]) if money else []
    # the reviews shared with the table (read by the players of the match only)
    names = {s.seat: s.name for s in match.seats}
    shared = [(seat, names.get(seat, "")) for seat in sorted(
        await service.db.read(repo.review_shares, match_id=match_id))]
    return templates.TemplateResponse(request, "match.html", {
        "m": match, "info": GAMES.get(match.game), "P": p, "shared": shared,
        "measure": p.measure() if p else _("points"), "next_href": next_href,
        "deal_scores": [(d.deal_no, d.scores_after) for d in match.deals],
        "money": money, "sheet": sheet})


@router.get("/r/{room_id}/ledger", response_class=HTMLResponse)
async def chip_ledger(room_id: str, request: Request, service: Service) -> HTMLResponse:
    """Balances, pot and every transfer of a chips game, straight from the ledger."""
    match = await service.db.read(repo.get_match, match_id=room_id)
    if match is None:
        return templates.TemplateResponse(request, "closed.html", {}, status_code=404)
    rows = await service.db.read(repo.ledger, match_id=room_id)
    room = service.rooms.get(room_id)
    balances = [0] * match.players
    for row in rows:
        balances[row.seat] += row.amount
    start_total = sum(r.amount for r in rows if r.reason == "start")
    deals: dict[int, list[repo.ChipTransfer]] = {}
    for row in rows:
        deals.setdefault(row.deal_no, []).append(row)
    money = in_money(match.game)
    return templates.TemplateResponse(request, "ledger.html", {
        "m": match, "balances": balances, "pot": start_total - sum(balances),
        "deals": deals, "P": find(match.game), "money": money,
        "sheet": settlement.from_ledger(rows, match.players) if money else [],
        # the way back to a table that is still this match's (not to its rematch)
        "room_open": room is not None and not room.next_id,
    })


async def _replay_steps(service: Service, match_id: str
                        ) -> tuple[repo.MatchInfo, list[replay.Step]] | None:
    """A finished match and its replay's steps (public events only); None if there
    is no such finished match."""
    match = await service.db.read(repo.get_match, match_id=match_id)
    if match is None or match.status != "finished":
        return None
    log = await service.db.read(repo.action_log, match_id=match_id)
    return match, replay.build(match.game, log, [s.name for s in match.seats])


@router.get("/history/{match_id}/replay", response_class=HTMLResponse)
async def replay_match(match_id: str, request: Request, service: Service,
                       step: int = 0) -> HTMLResponse:
    """Step through a finished match as the table saw it (public events only). The
    page holds the steps of the deal of ``step``; static/js/replay.js steps through
    them in place and fetches other deals' steps (:func:`replay_deal`) as needed."""
    found = await _replay_steps(service, match_id)
    if found is None:
        return templates.TemplateResponse(request, "closed.html", {"history": True},
                                          status_code=404)
    match, steps = found
    step = max(0, min(step, len(steps) - 1)) if steps else 0
    current = steps[step] if steps else None
    return templates.TemplateResponse(request, "replay.html", {
        "m": match, "P": presentation(match.game), "steps": steps, "step": step,
        "current": current, "deals": replay.deals(steps),
        "shown": replay.deal_steps(steps, current.deal_no) if current else [],
        "hints": replay.hints_used(match.deals, [s.name for s in match.seats]),
    })


@router.get("/history/{match_id}/replay/deal/{deal_no}", response_class=HTMLResponse)
async def replay_deal(match_id: str, deal_no: int, request: Request,
                      service: Service) -> HTMLResponse:
    """One deal's steps of a replay, as the replay page holds them (all hidden)."""
    found = await _replay_steps(service, match_id)
    shown = replay.deal_steps(found[1], deal_no) if found else []
    if found is None or not shown:
        return HTMLResponse(_("This match has no recorded steps."), status_code=404)
    return templates.TemplateResponse(request, "replay_steps.html", {
        "m": found[0], "P": presentation(found[0].game), "shown": shown, "step": -1,
        "hints": replay.hints_used(found[0].deals, [s.name for s in found[0].seats])})


@router.get("/standings", response_class=HTMLResponse)
async def standings(request: Request, service: Service, game: str | None = None,
                    linked: bool = False) -> HTMLResponse:
    """Per game (the first one by default): matches played and won per player name,
    the average final score, and for games that keep a ledger the net chips (or the
    net balance in euros and cents of a game paid in cents)."""
    if game not in GAMES:
        game = next(iter(GAMES))
    me = player_key(request)
    rows = await service.db.read(repo.standings, game=game, player_key=me)
    return templates.TemplateResponse(request, "standings.html", {
        "rows": rows, "game_filter": game, "info": GAMES[game], "P": presentation(game),
        "money": in_money(game),
        "has_player": me is not None, "linked": linked,
    })
