"""The bare baseline of ``bench/load.py``: what pushing a table costs with nothing
else to do.

A small Starlette app with the table socket's address (``/r/{room}/ws``) and the
same frame shape: on every action message from a seat of a table it renders one
Jinja2 fragment per seat of that table (the ``version`` fragment with
``data-version`` and, for the seat whose turn it is, ``data-action`` buttons,
padded to ``BARE_FRAME_BYTES``, the size of a real push) and sends it to each of
the table's four sockets. No engine, no database, no room lock, no checks beyond the
version. The same load client drives it as the real server, so the ratio of the
two is what the real work costs.

Run by ``bench/load.py`` as ``uvicorn bench.bare_app:app`` with the flags of
``scripts/serve.sh``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from jinja2 import Environment
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

SEATS = 4
TARGET_BYTES = int(os.environ.get("BARE_FRAME_BYTES", "5600"))

env = Environment(autoescape=True)
FRAME = env.from_string(
    '<div id="seats" hx-swap-oob="true">'
    '{% for s in range(seats) %}<div class="plate{{ " me" if s == seat }}" data-seat="{{ s }}">'
    '<span class="pname">{{ names[s] }}</span><span class="score">{{ version }}</span></div>'
    '{% endfor %}</div>'
    '<div id="board" hx-swap-oob="true">{% for i in range(rows) %}'
    '<p class="line" data-row="{{ i }}">{{ names[(i + seat) % seats] }} played card '
    '{{ (i * 7 + version) % 32 }} of the deal, version {{ version }}.</p>{% endfor %}</div>'
    '<div id="actions" hx-swap-oob="true">{% if turn == seat %}'
    '{% for c in cards %}<button ws-send data-action="play:{{ c }}" '
    "hx-vals='{\"action\": \"play:{{ c }}\", \"version\": {{ version }}}'>{{ c }}</button>"
    '{% endfor %}{% endif %}</div>'
    '<div id="version" hx-swap-oob="true" data-version="{{ version }}" hidden></div>')
NAMES = ("Anna", "Bert", "Cilli", "Done")
CARDS = ("EO", "GO", "HO", "SO", "EU", "GU", "HU", "SU")


def render(seat: int, version: int, turn: int, rows: int) -> str:
    return FRAME.render(seats=SEATS, seat=seat, version=version, turn=turn, rows=rows,
                        names=NAMES, cards=CARDS)


def _mean_size(rows: int) -> float:
    """The mean frame of a table's four seats (one of them has the buttons)."""
    return sum(len(render(seat, 0, 0, rows).encode()) for seat in range(SEATS)) / SEATS


def _rows_for(target: int) -> int:
    """How many board lines make a mean frame of about ``target`` bytes."""
    one, two = _mean_size(1), _mean_size(2)
    return max(1, round((target - one) / max(1.0, two - one)) + 1)


ROWS = _rows_for(TARGET_BYTES)


@dataclass
class Table:
    version: int = 1
    turn: int = 0
    sockets: dict[int, WebSocket] = field(default_factory=dict)


TABLES: dict[str, Table] = {}


async def push(table: Table) -> None:
    for seat, ws in list(table.sockets.items()):
        await ws.send_text(render(seat, table.version, table.turn, ROWS))


async def table_socket(websocket: WebSocket) -> None:
    room = str(websocket.path_params["room"])
    auth = websocket.headers.get("authorization", "")
    seat = int(auth.rsplit("-", 1)[-1]) if auth.startswith("Bearer ") else 0
    table = TABLES.setdefault(room, Table())
    await websocket.accept()
    table.sockets[seat] = websocket
    await websocket.send_text(render(seat, table.version, table.turn, ROWS))
    try:
        while True:
            data = json.loads(await websocket.receive_text())
            if data.get("version") == table.version and seat == table.turn:
                table.version += 1
                table.turn = (table.turn + 1) % SEATS
                await push(table)
    except WebSocketDisconnect:
        pass
    finally:
        table.sockets.pop(seat, None)


async def healthz(_request: Request) -> PlainTextResponse:
    return PlainTextResponse("ok")


app = Starlette(routes=[Route("/healthz", healthz),
                        WebSocketRoute("/r/{room}/ws", table_socket)])
