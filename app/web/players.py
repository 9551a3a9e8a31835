"""One person, two browsers: "that was me" for the standings.

The standings count a browser as a person (its player cookie, app.web.deps). Who
plays on a phone and on a laptop is two rows until they link the two:

- ``POST /players/link`` (from the browser that keeps its identity, with a player
  cookie): a one-time link, valid for ``LINK_MINUTES``, shown only to that browser;
- ``GET /players/link/{code}`` in the other browser: what linking does, and a button;
- ``POST /players/link/{code}``: the other browser's seats count as the first
  browser's player from now on (one UPDATE), and the other browser gets the same
  player cookie, so what it plays later counts there too. The link is used up.

The codes live in this process's memory (a restart forgets them: make a new link).
Neither browser ever sees the other's player token except through the link that the
first browser chose to show.
"""

from __future__ import annotations

import hmac
import secrets
import time
from dataclasses import dataclass, field

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from app.db import repo
from app.i18n import _
from app.web.deps import (
    PLAYER_COOKIE,
    Service,
    absolute_url,
    origin_allowed,
    public_base,
    set_player_cookie,
    valid_player_token,
)
from app.web.render import templates
from app.web.share import count_drawing, qr_svg

router = APIRouter(include_in_schema=False)

LINK_MINUTES = 10
MAX_LINKS = 1000  # open links on the whole server; the oldest go first


@dataclass
class Links:
    """Open one-time links: code -> (the first browser's player token, expiry)."""

    open: dict[str, tuple[str, float]] = field(default_factory=dict)

    def make(self, player: str) -> str:
        now = time.monotonic()
        for code, (owner, until) in list(self.open.items()):
            if until <= now or owner == player:  # expired, or this browser's older link
                del self.open[code]
        while len(self.open) >= MAX_LINKS:
            del self.open[next(iter(self.open))]
        code = secrets.token_urlsafe(18)
        self.open[code] = (player, now + LINK_MINUTES * 60)
        return code

    def peek(self, code: str) -> str | None:
        found = self.open.get(code)
        if found is None or found[1] <= time.monotonic():
            self.open.pop(code, None)
            return None
        return found[0]

    def take(self, code: str) -> str | None:
        player = self.peek(code)
        self.open.pop(code, None)
        return player


LINKS = Links()


def _page(request: Request, status: int = 200, **ctx: object) -> HTMLResponse:
    return templates.TemplateResponse(request, "player_link.html",
                                      {"minutes": LINK_MINUTES, **ctx}, status_code=status)


def _refused(request: Request) -> HTMLResponse:
    return HTMLResponse(_("Cross-site request refused."), status_code=403)


@router.post("/players/link", response_class=HTMLResponse)
async def make_link(request: Request) -> Response:
    if not origin_allowed(request):
        return _refused(request)
    player = valid_player_token(request.cookies.get(PLAYER_COOKIE))
    if player is None:  # a browser that never sat down has nothing to link
        return _page(request, status=400, state="nobody")
    public_base(request)  # a Host that no link can be made of: 400 before a code is made
    count_drawing(request)  # 429 past RATE_QR, before a code is made
    url = absolute_url(request, "player_link", code=LINKS.make(player))
    return _page(request, state="made", link=url,
                 qr=qr_svg(url, _("QR code of the link for your other browser")))


@router.get("/players/link/{code}", response_class=HTMLResponse, name="player_link")
async def open_link(code: str, request: Request) -> HTMLResponse:
    player = LINKS.peek(code)
    if player is None:
        return _page(request, status=404, state="gone")
    if hmac.compare_digest(player, request.cookies.get(PLAYER_COOKIE) or ""):
        return _page(request, state="same")
    return _page(request, state="confirm", code=code)


@router.post("/players/link/{code}", response_class=HTMLResponse)
async def use_link(code: str, request: Request, service: Service) -> Response:
    if not origin_allowed(request):
        return _refused(request)
    player = LINKS.take(code)
    if player is None:
        return _page(request, status=404, state="gone")
    mine = valid_player_token(request.cookies.get(PLAYER_COOKIE))
    if mine is not None and mine != player:
        await service.db.run(repo.merge_players, from_key=repo.token_hash(mine),
                             into_key=repo.token_hash(player))
    response = RedirectResponse("/standings?linked=1", status_code=303)
    set_player_cookie(request, response, player)
    return response
