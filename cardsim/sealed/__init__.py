"""Sealed matches: Python bots that cardsim does not trust, each in a process of its own.

- ``host.py``: the bot's side, a script that never imports cardsim; it seals its process, then answers decisions.
- ``process.py``: cardsim's side of one such process (start, ask with a time limit, stop) and the lineup entry
  that asks it (``SealedBot``); what a forfeit is (``Forfeits``).

In-process bots are trusted code whose observation holds only their seat's view; a sealed bot cannot read
cardsim's memory, files, the seed or another bot (docs/experiments.md, "Sealed matches").
"""
