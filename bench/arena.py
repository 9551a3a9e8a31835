"""Bot strength: the house bot against random legal play, many seeded matches.

Prints, per game, how often the bot seats win and their mean score, beside what
chance alone would give. Usage: python bench/arena.py [matches] [game ...]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.bots import choose_action  # noqa: E402
from app.games import GAMES, new_match  # noqa: E402

# which seats the bot plays; the others play random legal actions
SETUPS: dict[str, tuple[int, list[int], dict[str, int]]] = {
    "schafkopf": (4, [0, 2], {"target": 11}),
    "beutelschneider": (4, [0], {"target": 100}),
    "mauscheln": (4, [0], {}),
    "luegenbeutel": (4, [0], {"target": 200}),
}


def play(game: str, seed: int) -> tuple[bool, float]:
    players, bot_seats, options = SETUPS[game]
    m = new_match(game, players, dict(options, dealer=seed % players), seed=seed)
    rng = random.Random(seed * 7 + 1)
    for _ in range(200_000):
        if m.is_over:
            break
        seat = rng.choice(sorted(m.to_act()))
        legal = m.legal_actions(seat)
        if seat in bot_seats:
            action = choose_action(game, m.view(seat), legal, rng)
        else:
            action = rng.choice(legal)
        m.apply(seat, action)
    else:
        if GAMES[game].host_can_end:  # a game without a natural end: the host ends it
            m.end_by_host()
    won = any(s in bot_seats for s in m.winners)
    score = statistics.mean(m.scores[s] for s in bot_seats)
    return won, score


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    games = sys.argv[2:] or [g for g in SETUPS if g in GAMES]
    for game in games:
        players, bot_seats, _ = SETUPS[game]
        chance = len(bot_seats) / players if game != "schafkopf" else 0.5
        t0 = time.perf_counter()
        results = [play(game, seed) for seed in range(matches)]
        wins = sum(w for w, _ in results)
        print(f"{game:16s} bot win rate {wins / matches:6.1%} (chance {chance:.0%}) "
              f"over {matches} matches, mean bot score "
              f"{statistics.mean(s for _, s in results):8.1f}, "
              f"{time.perf_counter() - t0:5.1f} s")


if __name__ == "__main__":
    main()
