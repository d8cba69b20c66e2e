"""Oh Hell (RULES.md section F): a configuration of the exact-tricks family (``cardsim.games.exact_tricks``) with
OpenSpiel's ``oh_hell`` parameters: ``rules`` (its options, deck and score), ``game`` (front), ``advise``."""
