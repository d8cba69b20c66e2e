"""Oh Hell's fixed encoding: the exact-tricks family's (``cardsim.games.exact_tricks.encoding``)."""

from cardsim.games.exact_tricks.encoding import *  # noqa: F403
from cardsim.games.exact_tricks.encoding import __all__  # noqa: F401
