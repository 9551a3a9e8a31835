"""Each person's decisions in the deal being played, kept for the review (issue 28).

Production decks come from the system's randomness, so a deal cannot be replayed
afterwards: the room notes each decision of a person (never a bot's seat, nor a bot
playing for a person) as it is made, with the seat's view and legal actions just
before it, and the action chosen. The view is the one the table drew for the seat
at that version (:func:`app.rooms.table_state.seat_state` keeps it in
``Room.seen``), so a move costs no view of its own; only a client that acted
without having been drawn the table (the JSON API) has one made. It is kept in
memory until the deal ends, and then written in the same transaction as the deal's
end, one row per deal and seat (:class:`app.db.repo.SeatDecisions`), so that a
finished deal's decisions survive any restart.

A view is kept as JSON text compressed (zlib, level 1): about 500 bytes of JSON
become about 250. As plain JSON each view was a block of the C allocator's own
(Python's small-object allocator takes blocks up to 512 bytes), and a deal's ~30 of
them per table, scattered among the short-lived strings of the pushes, kept the
allocator from giving its memory back: a table's RSS grew by about 230 KiB while
the deal was played (``bench/load.py``, 300 tables, 60 s: 417 KiB per table against
188 without keeping the decisions); compressed, 206 KiB.

Earlier deals' records (``last_deal``, ``results``) are left out of the stored view:
they are public, grow with the match, and a search never reads them (``from_view``
drops them).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

import orjson

from app.db.repo import SeatDecisions
from app.rooms.room import Room

# a view's records of earlier deals, not kept with a decision
EARLIER_DEALS = ("last_deal", "results")


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a person: at step ``seq`` of the match, in deal ``deal_no``."""

    deal_no: int
    seat: int
    seq: int
    holder: str  # the hash of the seat token it was made with
    view: bytes  # the seat's view just before it, as JSON compressed (see above)
    legal: list[str]
    chosen: str


def note(room: Room, seat: int, action: str) -> Decision | None:
    """The decision ``action`` of the person at ``seat`` about to be applied (the
    caller holds the room's lock and the action was verified); None for a bot's seat
    or a room without a match."""
    match, player = room.match, room.seats[seat]
    if match is None or player is None or player.is_bot:
        return None
    seen = room.seen.get(seat)
    if seen is not None and seen[0] == room.version:
        view, legal = seen[1], seen[2]
    else:  # not drawn at this version (a move over the JSON API)
        view, legal = room.view_and_legal(seat, shared=True)
    kept = {k: v for k, v in view.items() if k not in EARLIER_DEALS}
    return Decision(match.deal_no, seat, room.version + 1, player.token_hash,
                    zlib.compress(orjson.dumps(kept, option=orjson.OPT_NON_STR_KEYS), 1),
                    list(legal), action)


def of_deal(room: Room, pending: list[Decision], deal_no: int) -> tuple[SeatDecisions, ...]:
    """The rows of deal ``deal_no``'s decisions, one per seat that decided."""
    by_seat: dict[int, list[dict[str, Any]]] = {}
    for d in pending:
        if d.deal_no == deal_no:
            by_seat.setdefault(d.seat, []).append(
                {"seq": d.seq, "holder": d.holder, "view": orjson.Fragment(zlib.decompress(d.view)),
                 "legal": d.legal, "chosen": d.chosen})
    if not by_seat:
        return ()
    complete = deal_no >= room.decisions_from
    return tuple(SeatDecisions(seat, points, complete)
                 for seat, points in sorted(by_seat.items()))
