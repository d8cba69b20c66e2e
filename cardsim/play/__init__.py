"""Sit at the table: people play cardsim's games against its bots (and each other), in the browser or line by line.

One module per idea (docs/play.md):

- ``table``: a session in progress (``setup`` checks its settings, ``Table`` plays them): the people's actions
  refused when wrong, the bots' through the drivers, every person's decision kept for the review
- ``view``: what one seat is shown, from its honest observation only (the JSON message every page gets)
- ``review``: hints and the review, from ``cardsim.advise.option_values`` at the moment of each decision
- ``save``: the session as a results folder (``runner.load_rows`` reads it), each round's record beside it
- ``plain``: the table on stdin and stdout (``--plain``)
- ``server``: the page and its WebSocket (Starlette, uvicorn; the ``[play]`` extra, imported only when serving)
- ``session``: ``cardsim play`` itself: check, compile, play, save

>>> from cardsim.play import Table, setup
>>> table = Table(setup("wizard", bots="heuristic", seed=1))  # you in seat 0
>>> while table.bot_moves():
...     table.play_bot()
>>> table.act(0, table.round.legal()[0])  # a wrong seat, turn or action: CardsimError, nothing changed
"""

from cardsim.play.review import hint, verdict
from cardsim.play.save import reviews, session_folder
from cardsim.play.table import Table, setup

__all__ = ["Table", "hint", "reviews", "session_folder", "setup", "verdict"]
