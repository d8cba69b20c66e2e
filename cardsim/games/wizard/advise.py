"""Wizard's bid advice: the exact-tricks family's (``cardsim.games.exact_tricks.advise``) for Wizard."""

from functools import partial

from cardsim.games.exact_tricks import advise as family

advise = partial(family.advise, "wizard")
bid_table = partial(family.bid_table, "wizard")
bid_figures = partial(family.bid_figures, "wizard")
