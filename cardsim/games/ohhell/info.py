"""What shared code says and does about Oh Hell (``cardsim.games.info``)."""

from cardsim.games.info import Advice, Cases, GameInfo, GameLabels, Reference, Studies

INFO = GameInfo(
    name="ohhell",
    title="Oh Hell",
    players=(3, 4, 5, 6, 7),
    default_players=4,
    shown=("turned",),
    labels=GameLabels("points", "round", "bid", "tricks", "bid (tricks)", "tricks taken (tricks)"),
    # the exact-tricks family's kernels, as Wizard's (one compile serves both games)
    estimates={"fast": 12, "strong": 40, "check": 19, "strong check": 49, "python": 15, "replay": 13,
               "strong replay": 39, "advice": 20, "strong advice": 47, "round": 10, "strong timing": 38,
               "numba": 33},  # fmt: skip
    studies=Studies(tournament=("games", 5_000, 8), ladder="random,rulebased,heuristic,ismcts", strength="games"),
    cases=Cases(
        variants=(("players=3", "hook=false"), ("players=7", "off_bid_penalty=true", "points_per_trick=5"),
                  ("players=5", "num_suits=3", "num_cards_per_suit=6", "num_tricks_fixed=3")),  # fmt: skip
        strong_bots=("mc:samples=2:bid_samples=2", "ismcts:iterations=8:bid_samples=2", "omniscient:iterations=8",
                     "mc_v1:samples=2:bid_samples=2", "ismcts_v1:iterations=8:bid_samples=2"),
        record_scores="scores",
    ),
    examples=(
        "simulate ohhell --players 5 --bots heuristic,random,random,random,random --games 100000",
        "simulate ohhell --bots random --rounds 1000000 --cards 12 --rule off_bid_penalty=true",
        'advise ohhell --hand "SA HK H2 C7" --trump S --seat 1 --players 4',
    ),
    advice=Advice(hand="SA HK H2 C7", trump="the trump suit S/H/D/C, or the turned card (H7)", strong=True),
    example_bot="OhHellCounter",
    reference=Reference(  # the default rules only (52 cards, the hook, points_per_trick 1, no off_bid_penalty)
        "benchmarks/reference_ohhell.c",
        {"rounds": ("rounds", "{units}", "{seed}", "{players}", "{num_tricks_fixed}"),
         "games": ("games", "{units}", "{seed}", "{players}")},  # fmt: skip
        counts={"exact_bid_rate": "exact_bids"},
    ),
    openspiel="oh_hell",
    cards_rule="num_tricks_fixed",
    illegal_reward=-20.0,  # below any round at the default rules (0 at worst; with off_bid_penalty -1 per trick off)
)
