"""The golden playthrough cases, one registration per game."""

from tests.games.golden import register

register("schafkopf_deal", game="schafkopf", players=4, options={"dealer": 3}, seed=2024,
         pick_seed=11, steps=32)
