"""The golden playthrough cases, one registration per game."""

from tests.games.golden import register

register("schafkopf_deal", game="schafkopf", players=4, options={"dealer": 3}, seed=2024,
         pick_seed=11, steps=32)
register("luegenbeutel_round", game="luegenbeutel", players=3, options={"dealer": 2}, seed=3,
         pick_seed=5, steps=40)
register("beutelschneider_hand3", game="beutelschneider", players=3, options={"dealer": 2},
         seed=1997, pick_seed=24176, steps=30)
register("mauscheln_deal", game="mauscheln", players=4, options={"dealer": 3}, seed=2024,
         pick_seed=4, steps=21)
