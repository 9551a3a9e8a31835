"""Options of the table itself, the same for every game: how long a turn may take,
when an absent player is played for, how long a finished trick and a deal's result
stay on the board, whether spectators may chat, whether a seated person may ask the
strong bot for a hint (a practice table).

A room's options arrive as one dict (lobby form or API); :func:`split_options`
separates these from the game's own options, which the engine checks.
"""

from __future__ import annotations

from typing import Any

from app.games import Option
from app.i18n import N_

TABLE_OPTIONS: tuple[Option, ...] = (
    Option("turn_clock", N_("Turn clock (seconds)"), "int", 0, choices=(0, 30, 60, 120),
           help=N_("Seconds a player has for a move before a bot plays for them; "
                   "0: no clock.")),
    Option("away_seconds", N_("Away after (seconds)"), "int", 45, minimum=10, maximum=600,
           help=N_("A player with no open page for this long is played for by a bot "
                   "when it is their turn.")),
    Option("trick_pause_ms", N_("Trick pause (ms)"), "int", 1500, minimum=0, maximum=5000,
           step=100, help=N_("How long a finished trick stays on the table; 0: no pause.")),
    Option("next_deal_s", N_("Result shown for (seconds)"), "int", 15, minimum=0,
           maximum=120, help=N_("How long a deal's result stays until the next deal, "
                                "unless everyone pressed Next deal; 0: no wait.")),
    # off unless the host opens it: a table's link may reach people nobody invited
    Option("spectator_chat", N_("Spectators may chat"), "bool", False,
           help=N_("Whether people watching the table may write in its chat.")),
    # a practice table (the lobby's "Practice table" switches it on): a seated person
    # may ask the strong bot what it would do in their seat now (app.rooms.hints)
    Option("hints", N_("Hints"), "bool", False,
           help=N_("Hint button: the strong bot's choice for your seat, with its "
                   "estimates.")),
)
TABLE_OPTION_NAMES = frozenset(o.name for o in TABLE_OPTIONS)
TABLE_DEFAULTS: dict[str, Any] = {o.name: o.default for o in TABLE_OPTIONS}


def split_options(options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(game options, table options)``: the table's are checked here (ValueError
    with a readable reason) and completed with their defaults; the game's are left
    for the engine to check."""
    game: dict[str, Any] = {}
    table = dict(TABLE_DEFAULTS)
    spec = {o.name: o for o in TABLE_OPTIONS}
    for key, value in options.items():
        if key in spec:
            table[key] = spec[key].check(value)
        else:
            game[key] = value
    return game, table


def table_options(saved: dict[str, Any] | None) -> dict[str, Any]:
    """The table options of a saved room, with defaults for any added since."""
    return {**TABLE_DEFAULTS, **(saved or {})}
