"""Oh Hell's bid advice: the exact-tricks family's (``cardsim.games.exact_tricks.advise``) for Oh Hell."""

from functools import partial

from cardsim.games.exact_tricks import advise as family

advise = partial(family.advise, "ohhell")
bid_table = partial(family.bid_table, "ohhell")
bid_figures = partial(family.bid_figures, "ohhell")
