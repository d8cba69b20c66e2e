"""The exact-tricks family (RULES.md B Wizard, F Oh Hell): each player bids the exact number of tricks it will take.

One state machine (``state``), one batch driver (``play``) and one set of bots (``bots.exact_tricks``,
``bots.exact_tricks_strong``) over rule data (``state.Params``: the deck, the score's coefficients, the round sizes,
the bidding variant, the heuristic's table); ``rules`` holds the tables and kernels and ``ExactTricksRules``, what a
game of the family declares. Each game is a configuration: its rules class (``cardsim.games.wizard.rules``) and its
front (``game.py``).
"""
