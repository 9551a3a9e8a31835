"""The classic Schafkopf's house bot against random play, in duplicate, on the engine
itself (issue 27): whole deals, the auction included, paid in cents.

A *board* is a seeded match (``deals`` 0: it never ends by itself) played for a
number of deals. The house bot sits at seats 0 and 2 and random play at 1 and 3;
then the same board is played again with the seats swapped. The deck of every deal
depends on the seed only (the bots never draw from the match's generator), so both
runs see the same cards, also after a deal nobody played. Per board:

    advantage = mean over the two runs of (mean cents of the house bot's seats
                - mean cents of the random seats), divided by the deals ended

Boards are independent: the mean over boards comes with a Student-t 95 % interval.

Each step asks first the seats that may say Kontra or Retour but need not (clockwise
from the seat on turn; ``choose_optional``), then the seat on turn (``choose``), as
the room does: a random seat's optional answer is a random legal action or silence
as often as any one action (``app.bots.api.RandomBot``).

This script stands beside ``bench/arena.py`` while the game is not in
``app.games.GAMES`` (the arena finds its games and house bots there).

Usage (from the repository root):

    .venv/bin/python bench/schafkopf_classic_duplicate.py --boards 200 --deals 8
    .venv/bin/python bench/schafkopf_classic_duplicate.py --option all_pass=ramsch --option geier=1
    .venv/bin/python bench/schafkopf_classic_duplicate.py --self-play 400   # the bot's games
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.bots import schafkopf_classic as house  # noqa: E402
from app.bots.api import RandomBot  # noqa: E402
from app.games.schafkopf_classic import SchafkopfClassicMatch  # noqa: E402

PLAYERS = 4
SEATS_X = (0, 2)
GAME = SchafkopfClassicMatch.name


class HouseBot:
    """The house bot of ``app.bots.schafkopf_classic`` with its own generator (what
    ``app.bots.api.HeuristicBot`` is once the game is registered)."""

    kind = "heuristic"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        action = house.choose(view, legal, self.rng)
        assert action in legal, (action, legal)
        return action

    def choose_optional(self, view: dict[str, Any], legal: list[str]) -> str | None:
        action = house.optional(view, legal, self.rng)
        assert action is None or action in legal, (action, legal)
        return action


def bot_for(kind: str, seed: int) -> Any:
    return HouseBot(seed) if kind == "heuristic" else RandomBot(GAME, seed)


def step(m: SchafkopfClassicMatch, bots: list[Any]) -> list[dict[str, Any]]:
    """One action: a seat that may double but need not, then the seat on turn."""
    turn = m.view(None)["turn"]
    for seat in sorted(m.to_act() - {turn}, key=lambda s: (s - turn) % PLAYERS):
        answer = bots[seat].choose_optional(m.view(seat), m.legal_actions(seat))
        if answer is not None:
            return m.apply(seat, answer)
    return m.apply(turn, bots[turn].choose(m.view(turn), m.legal_actions(turn)))


def play_board(board: int, kinds: list[str], deals: int, options: dict[str, Any]
               ) -> tuple[list[int], int, list[dict[str, Any]]]:
    """One run of a board: cents won per seat, deals ended, the deal records."""
    m = SchafkopfClassicMatch(PLAYERS, dict(options, dealer=board % PLAYERS, deals=0),
                              seed=board)
    bots = [bot_for(kinds[s], board * 16 + s) for s in range(PLAYERS)]
    ended = 0
    records: list[dict[str, Any]] = []
    while ended < deals:
        for event in step(m, bots):
            if event.get("type") == "deal_end":
                ended += 1
                records.append(event)
    return list(m.scores), ended, records


def board_advantage(args: tuple[int, int, dict[str, Any]]) -> float:
    board, deals, options = args
    total = 0.0
    for swapped in (False, True):
        x_seats = [s for s in range(PLAYERS) if (s in SEATS_X) != swapped]
        kinds = ["heuristic" if s in x_seats else "random" for s in range(PLAYERS)]
        cents, ended, _ = play_board(board, kinds, deals, options)
        x = statistics.mean(cents[s] for s in x_seats)
        y = statistics.mean(cents[s] for s in range(PLAYERS) if s not in x_seats)
        total += (x - y) / ended
    return total / 2


def t_quantile(df: int) -> float:
    """Student t, two-sided 95 % (the expansion bench/arena.py uses)."""
    z = 1.959964
    return (z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
            + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3))


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and its 95 % interval."""
    mean = statistics.mean(values)
    half = t_quantile(len(values) - 1) * statistics.stdev(values) / len(values) ** 0.5
    return mean, mean - half, mean + half


def duplicate(boards: int, deals: int, options: dict[str, Any], seed: int = 1,
              jobs: int = 1) -> list[float]:
    """The house bot's advantage over random play per board, cents per deal."""
    work = [(seed + b, deals, options) for b in range(boards)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            return list(pool.map(board_advantage, work))
    return [board_advantage(w) for w in work]


def self_play(boards: int, deals: int, options: dict[str, Any]) -> None:
    """The bot at all four seats: which games it plays, how often it wins them."""
    # deals, won, declarer's cents, Kontra said, Kontra right, Retour said, Retour right
    games: dict[str, list[int]] = defaultdict(lambda: [0] * 7)
    for board in range(boards):
        _, _, records = play_board(board, ["heuristic"] * PLAYERS, deals, options)
        for r in records:
            name = r.get("game") or r["kind"]
            entry = games[name]
            entry[0] += 1
            if r.get("declarer") is not None:
                entry[1] += bool(r["won"])
                entry[2] += r["cents"][r["declarer"]]
            if r.get("kontra") is not None:
                entry[3] += 1
                entry[4] += not r["won"]
            if r.get("retour") is not None:
                entry[5] += 1
                entry[6] += bool(r["won"])
    total = sum(e[0] for e in games.values())
    for name, (n, won, cents, kontra, right, retour, good) in sorted(
            games.items(), key=lambda kv: -kv[1][0]):
        print(f"  {name:10s} {n:6d} deals ({n / total:6.1%})  declarer won {won / n:6.1%}, "
              f"{cents / n:+7.1f} cents per deal; Kontra {kontra} (right {right}), "
              f"Retour {retour} (right {good})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=200)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a table option (geier=1, tout=0, kontra=0, all_pass=ramsch)")
    parser.add_argument("--self-play", type=int, default=0, metavar="BOARDS",
                        help="instead: the bot at every seat, its games and their results")
    args = parser.parse_args()
    options: dict[str, Any] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = value if not value.isdigit() else (
            bool(int(value)) if name in ("geier", "tout", "kontra") else int(value))
    if args.self_play:
        self_play(args.self_play, args.deals, options)
        return
    if args.boards < 2:
        parser.error("--boards: at least 2 for an interval")
    t0 = time.perf_counter()
    advantages = duplicate(args.boards, args.deals, options, args.seed, args.jobs)
    mean, low, high = interval(advantages)
    verdict = "above 0" if low > 0 else "not above 0"
    print(f"{GAME} heuristic vs random, options {options or 'default'}: {args.boards} "
          f"boards x 2 runs x {args.deals} deals: {mean:+.2f} [{low:+.2f}, {high:+.2f}] "
          f"cents per deal (95 %), {verdict}, {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
