"""The server's app with the classic Schafkopf declared as paid in cents
(``GameInfo.ledger = CENTS``), for tests of the settlement through a real server
while the game's own entry does not declare it yet; once it does, this changes
nothing. Served as ``uvicorn tests.web.cents_app:app`` in its own process
(tests/web/test_classic_settlement.py); never import it into the test process,
whose ``GAMES`` it would change."""

from __future__ import annotations

import dataclasses

from app.games import CENTS, GAMES

GAME = "schafkopf_classic"
if GAMES[GAME].ledger != CENTS:
    GAMES[GAME] = dataclasses.replace(GAMES[GAME], ledger=CENTS)

from app.main import app  # noqa: E402 - after the declaration, which the app reads

__all__ = ["app"]
