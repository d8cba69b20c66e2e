"""A learned Wizard bidder as a numba bot: it bids with the network ``experiments/learn_bidder.py`` trained on
``cardsim.envs.BatchEnv`` (the committed ``bots/learned_wizard.npz``: 4 players, every round size 1..15), and names
trump and plays its cards as the built-in ``heuristic`` (docs/rl.md, "An example that learns").

    cardsim tournament wizard --bots bots/learned_wizard.py:learned_bidder,heuristic,heuristic,heuristic --games 2000

The policy, its features and the bot's code are ``bots/exact_tricks_learned.py``; this file makes the bot of the
committed weights under a name a lineup can give.
"""

from __future__ import annotations

from pathlib import Path

from bots.exact_tricks_learned import bidder, load

WEIGHTS = Path(__file__).with_name("learned_wizard.npz")

_net, _info = load(WEIGHTS)
learned_bidder = bidder(_net, _info["players"])
