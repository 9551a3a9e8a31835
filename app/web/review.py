"""A person's deal, reviewed (issue 28): the JSON API and the table's panel.

``GET /api/rooms/{room}/review?deal=N`` with the seat's token answers the review of
deal N for that token's seat (202 with ``"status": "pending"`` while it is worked
out; the first request starts it). ``GET /r/{room}/review?deal=N`` draws the same
for the table page of the seat's browser (its seat cookie), polling while pending.
Actions are named in the game's words (the presentation's labels, card titles) and
the reason in the request's language; nobody but the token's holder sees it, unless
they shared their reviews with the table once the match was over
(``/r/{room}/reviews``'s button, ``POST /api/rooms/{room}/review/share``): then the
others at the match read them with ``seat=s`` (their own token or cookie deciding
that they may), read-only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from app import i18n
from app.bots.review import THRESHOLDS
from app.bots.search import SILENCE
from app.db import repo
from app.games import GAMES
from app.games.actions import Exchange, Lay, Play, Skip
from app.i18n import _
from app.rooms.errors import RoomError
from app.rooms.reviews import FAILED, READY, ReviewAnswer
from app.web import replay
from app.web.api import ERRORS
from app.web.deps import HOST_COOKIE, SEAT_COOKIE, Service, bearer_token, origin_allowed
from app.web.messages import error_text
from app.web.presentation import find
from app.web.render import templates

router = APIRouter(tags=["api"])
SLOT = re.compile(r"review(-[0-9]{1,6})?")  # where a page holds a review


class ReviewOption(BaseModel):
    action: str
    label: str = Field(description="the action in the game's words")
    estimate: float = Field(description="the search's estimate of the deal's result for "
                            "the seat after this action, in the game's measure")


class ReviewDecision(BaseModel):
    seq: int = Field(description="the step of the match the decision made")
    chosen: str
    best: str
    options: list[ReviewOption] = Field(
        description="the seat's legal actions then, in order (and letting the moment "
        "pass, where the seat acted though it need not have)")
    mistake: bool = Field(description="the best option led by more than the game's "
                          "threshold (and more than the search's noise)")
    reason: str = Field(description="why, for a mistake (in the request's language)")
    loss: float = Field(description="estimate of the best less that of the chosen")


class Review(BaseModel):
    deal: int
    seat: int
    status: str = Field(description='"ready", or "pending" (202) while it is worked out')
    decisions: list[ReviewDecision]
    complete: bool = Field(True, description="false: the server restarted during the "
                           "deal and its first decisions were not kept")
    measure: str = Field("", description="what an estimate counts, the game's measure: "
                         "units, points, chips or cents (in the request's language)")
    retry_in: int | None = Field(None, description='"failed" (503) only: the work on the '
                                 "review failed; seconds until it is tried again")


class Sharing(BaseModel):
    shared: bool = Field(description="true: share your reviews of the finished match "
                         "with the others at it; false: withdraw them")


class Shared(BaseModel):
    seat: int = Field(description="your seat")
    shared: bool
    seats: list[int] = Field(description="every seat whose person shares their reviews")


def option_label(game: str, action: str) -> str:
    """``action`` in the game's words: its label, the card it plays, or letting the
    moment pass."""
    if action == SILENCE.get(game):
        return _("Let it pass")
    p = find(game)
    if p is None:
        return action
    if action in p.action_labels:
        return p.action_label(action)
    typed = GAMES[game].match_class.parser.read(action)
    if isinstance(typed, Play | Lay | Skip) and typed.card in p.deck:
        title = p.card_title(typed.card)
        if isinstance(typed, Lay):
            return _("Lay %(card)s") % {"card": title}
        if isinstance(typed, Skip):
            return _("%(card)s as Aussetzen") % {"card": title}
        return title
    if isinstance(typed, Exchange):
        if not typed.discards:
            return _("Keep every card")
        return _("Exchange %(cards)s") % {"cards": ", ".join(
            p.card_title(c) if c in p.deck else c for c in typed.discards)}
    if typed is not None:
        return p.typed_label(typed) or action
    return action


def reason_text(game: str, reason: dict[str, Any] | None) -> str:
    """A kept reason in the request's language (an action it names in the game's
    words, a number in the language's way)."""
    if not reason:
        return ""
    params = {}
    for name, value in (reason.get("params") or {}).items():
        if isinstance(value, dict):
            value = reason_text(game, value)
        elif isinstance(value, str):  # an action (``best``), a card, a suit: in words
            p = find(game)
            if name == "card" and p is not None and value in p.deck:
                value = p.card_title(value)
            elif name == "suit" and p is not None:
                value = p.suit_label(value)
            else:
                value = option_label(game, value)
        elif isinstance(value, float):
            value = i18n.format_number(value, 1)
        params[name] = value
    english = str(reason.get("text", ""))
    key = str(reason.get("key", ""))
    try:
        return _(key).format(**params) if key else english
    except (KeyError, IndexError, ValueError):  # a template naming a missing field
        return english


def review_of(answer: ReviewAnswer) -> Review:
    game = answer.game
    p = find(game)
    return Review(deal=answer.deal_no, seat=answer.seat, status=answer.status,
                  complete=answer.complete, measure=p.measure() if p is not None else "",
                  retry_in=answer.retry_in,
                  decisions=[ReviewDecision(
                      seq=d["seq"], chosen=d["chosen"], best=d["best"],
                      options=[ReviewOption(action=o["action"],
                                            label=option_label(game, o["action"]),
                                            estimate=o["estimate"]) for o in d["options"]],
                      mistake=bool(d["mistake"]), reason=reason_text(game, d.get("reason")),
                      loss=float(d.get("loss", 0.0))) for d in answer.decisions])


@router.get("/api/rooms/{room_id}/review", response_model=Review,
            response_model_exclude_none=True,
            responses={**ERRORS, 202: {"model": Review,
                                       "description": "pending: being worked out"}})
async def review_api(room_id: str, deal: int, request: Request, service: Service,
                     seat: int | None = None) -> Any:
    """Your review of finished deal ``deal``, with your seat token: for each of your
    decisions, the options you had with the search's estimate of each, the best,
    and whether yours was a mistake and why. Worked out once, when first asked (202,
    ``"pending"``: ask again in a second); afterwards read at once, also after the
    match and after a restart. If the work failed: 503, ``"failed"`` with
    ``retry_in`` seconds (and Retry-After) until it is tried again. ``seat``: the
    review of that seat's person, who shared their reviews with the table (your token,
    a seat's or the host's at that match, says you may). 401 without a token, 403 for
    a token without a seat (the host's alone, unless ``seat``), for a spectator's and
    for reviews not shared, 404 for a deal not finished."""
    answer = await service.reviews.ask(room_id, bearer_token(request), deal, seat)
    out = review_of(answer)
    if answer.status == READY:
        return out
    if answer.status == FAILED:
        return JSONResponse(out.model_dump(), status_code=503,
                            headers={"Retry-After": str(answer.retry_in or 1)})
    return JSONResponse(out.model_dump(exclude_none=True), status_code=202)


@router.post("/api/rooms/{room_id}/review/share", response_model=Shared, responses=ERRORS)
async def share_api(room_id: str, body: Sharing, request: Request,
                    service: Service) -> Shared:
    """Share your reviews of this finished match with the others at it (their tokens
    then read them with ``seat``), or withdraw them. 409 while the match is on."""
    mine, shares = await service.reviews.share(room_id, bearer_token(request), body.shared)
    return Shared(seat=mine, shared=mine in shares, seats=sorted(shares))


def _cookie_token(request: Request, seat: int | None) -> str | None:
    """The browser's token at the room: its seat's; reading a review another person
    shared, the host's too."""
    token = request.cookies.get(SEAT_COOKIE)
    if token is None and seat is not None:
        token = request.cookies.get(HOST_COOKIE)
    return token


@router.get("/r/{room_id}/review", response_class=HTMLResponse, include_in_schema=False)
async def review_panel(room_id: str, deal: int, request: Request, service: Service,
                       slot: str = "review", seat: int | None = None) -> HTMLResponse:
    """The panel "Your deal, reviewed" of the seat cookie's seat, drawn into the
    element ``slot`` of its page (the table's ``review``, a deal's ``review-N`` of the
    match's reviews); while pending it asks again there. ``seat``: the review that
    seat's person shared."""
    if not SLOT.fullmatch(slot):
        slot = "review"
    try:
        answer = await service.reviews.ask(room_id, _cookie_token(request, seat), deal, seat)
    except RoomError as exc:
        return templates.TemplateResponse(request, "table/review.html", {
            "room_id": room_id, "deal": deal, "slot": slot, "error": error_text(exc)})
    review = review_of(answer)
    within, _count, _costly = summary(answer.game, [review], {})
    return templates.TemplateResponse(request, "table/review.html", {
        "room_id": room_id, "deal": deal, "slot": slot, "error": None,
        "review": review, "whose": answer.whose, "within": within})


@dataclass(frozen=True)
class Costly:
    """One of a person's costliest decisions of a match, and where the replay shows it."""

    deal_no: int
    decision: ReviewDecision
    step: int | None  # the replay's step of it (a finished match's), None before


def summary(game: str, reviews: list[Review], steps: dict[int, int]
            ) -> tuple[int, int, list[Costly]]:
    """Over the reviewed deals: decisions within the game's threshold of the best, all
    decisions, and the three that cost the most (``steps``: replay step per seq)."""
    threshold = THRESHOLDS.get(game, 0.0)
    made = [(r.deal, d) for r in reviews for d in r.decisions]
    within = sum(1 for _, d in made if d.loss <= threshold)
    costly = sorted((m for m in made if m[1].loss > 0), key=lambda m: -m[1].loss)[:3]
    return within, len(made), [Costly(no, d, steps.get(d.seq)) for no, d in costly]


@router.get("/r/{room_id}/reviews", response_class=HTMLResponse, include_in_schema=False)
async def reviews_page(room_id: str, request: Request, service: Service,
                       seat: int | None = None) -> HTMLResponse:
    """Every finished deal of the match for the seat cookie's seat: the reviews asked
    for so far, a button for each of the others, and the summary of the reviewed
    ones (the share of decisions close to the best, the three costliest with links
    into the replay once the match is finished). Only that seat's browser sees it;
    once the match is over it may share it with the table, and the others there
    (``seat``) read it."""
    return await _reviews_page(room_id, request, service, seat)


async def _reviews_page(room_id: str, request: Request, service: Service,
                        seat: int | None, share_error: str | None = None,
                        status_code: int = 200) -> HTMLResponse:
    token = _cookie_token(request, seat)
    if token is None:  # the history links here for anybody: a browser's own refusal
        return templates.TemplateResponse(request, "reviews.html", {
            "error": _("This browser has no seat at this match. Your reviews open in the "
                       "browser you played it in, which keeps your seat."),
            "room_id": room_id}, status_code=401)
    try:
        who, answers = await service.reviews.overview(room_id, token, seat)
    except RoomError as exc:
        return templates.TemplateResponse(request, "reviews.html", {
            "error": error_text(exc), "room_id": room_id}, status_code=exc.status)
    ready = [review_of(a) for a in answers if a.status == READY]
    finished = who.status == "finished"
    steps: dict[int, int] = {}
    if finished:
        match = await service.db.read(repo.get_match, match_id=room_id)
        log = await service.db.read(repo.action_log, match_id=room_id)
        if match is not None:
            steps = {s.seq: s.index for s in replay.build(
                who.game, log, [seat.name for seat in match.seats])}
    within, count, costly = summary(who.game, ready, steps)
    own = seat is None or seat == who.seat
    shown = who.seat if own else seat
    return templates.TemplateResponse(request, "reviews.html", {
        "error": None, "room_id": room_id, "game": who.game, "finished": finished,
        "answers": answers, "ready": {r.deal: r for r in ready},
        "within": within, "count": count, "costly": costly,
        # another person's reviews they shared (read-only): their name
        "whose": None if own else who.names.get(seat or 0, ""),
        "shown_seat": shown, "own": own, "is_shared": shown in who.shares,
        # the others' shared reviews this person may read
        "others": [(s, who.names.get(s, "")) for s in sorted(who.shares) if s != shown],
        "share_error": share_error}, status_code=status_code)


@router.post("/r/{room_id}/reviews/share", include_in_schema=False)
async def share_form(room_id: str, request: Request, service: Service,
                     shared: str = Form("")) -> Response:
    """The button on the seat cookie's reviews: share them with the table ("1") or
    withdraw them ("0"); back to the page, which says so (or why not)."""
    if not origin_allowed(request):
        return HTMLResponse(_("Cross-site request refused."), status_code=403)
    try:
        await service.reviews.share(room_id, request.cookies.get(SEAT_COOKIE), shared == "1")
    except RoomError as exc:
        return await _reviews_page(room_id, request, service, None,
                                   share_error=error_text(exc), status_code=exc.status)
    return RedirectResponse(f"/r/{room_id}/reviews#share", status_code=303)
