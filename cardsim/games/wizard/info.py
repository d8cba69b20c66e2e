"""What shared code says and does about Wizard (``cardsim.games.info``)."""

from cardsim.games.info import Advice, Cases, GameInfo, GameLabels, Reference, Studies

INFO = GameInfo(
    name="wizard",
    title="Wizard",
    players=(3, 4, 5, 6),
    default_players=4,
    shown=("turned", "trump"),
    labels=GameLabels("points", "round", "bid", "tricks", "bid (tricks)", "tricks taken (tricks)"),
    estimates={"fast": 12, "strong": 40, "check": 19, "strong check": 49, "python": 15, "replay": 13,
               "strong replay": 39, "advice": 20, "strong advice": 47, "round": 10, "strong timing": 38,
               "numba": 33},  # fmt: skip
    studies=Studies(tournament=("games", 5_000, 8), ladder="random,rulebased,heuristic,ismcts", strength="games"),
    cases=Cases(
        variants=(("players=3", "bidding=secret"), ("players=6", "bidding=hidden"),
                  ("players=5", "cards=4", "plus_minus_one=true")),  # fmt: skip
        strong_bots=("mc:samples=2:bid_samples=2", "ismcts:iterations=8:bid_samples=2", "omniscient:iterations=8",
                     "mc_v1:samples=2:bid_samples=2", "ismcts_v1:iterations=8:bid_samples=2"),
        record_scores="scores",
    ),
    examples=(
        "simulate wizard --players 4 --bots heuristic,random,random,random --games 100000 --rule schedule=tournament",
        "simulate wizard --players 5 --bots heuristic --rounds 1000000 --cards 7",
        "tournament wizard --bots heuristic,random,random,random --games 10000 --out results/wiz",
        "tournament wizard --bots heuristic,random,random,random --games 10000 --out results/wiz --resume",
        'advise wizard --hand "W1 H13 H2 C7" --trump S --seat 1 --players 4',
        "info wizard",
    ),
    advice=Advice(hand="W1 H13 H2 C7", trump="the trump suit S/H/D/C, N for none, or the turned card (H7, J2)",
                  strong=True),  # fmt: skip
    example_bot="WizardCounter",
    reference=Reference(
        "benchmarks/reference_wizard.c",
        {"rounds": ("rounds", "{units}", "{seed}", "{players}", "{cards}"),
         "games": ("games", "{units}", "{seed}", "{players}")},  # fmt: skip
        counts={"exact_bid_rate": "exact_bids"},
    ),
    illegal_reward=-200.0,  # the lowest score of a round: -10 per trick off, 20 tricks
)
