"""What a seat decides at its turn: one word per kind of decision, and the code the state machines use for it."""

DECISIONS = ("predict", "bid", "trump", "auction", "call", "discard", "card")
PREDICT, BID, TRUMP, AUCTION, CALL, DISCARD, CARD = range(len(DECISIONS))
DONE = -1  # the round is over: nobody is to move

# The Python bot method that answers each decision (the protocol's names).
BOT_METHODS = {"predict": "predict", "bid": "bid", "trump": "choose_trump", "auction": "bid", "call": "call",
               "discard": "discard", "card": "play"}  # fmt: skip
