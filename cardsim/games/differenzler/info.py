"""What shared code says and does about Differenzler (``cardsim.games.info``)."""

from cardsim.games.info import Advice, Cases, GameInfo, GameLabels, Reference, Studies

INFO = GameInfo(
    name="differenzler",
    title="Differenzler",
    players=(4,),
    default_players=4,
    shown=("trump_card",),
    labels=GameLabels("penalty points", "round", "prediction", "points", "prediction (card points)",
                      "points taken (card points)", bid_bin=10),  # fmt: skip
    estimates={"fast": 8, "strong": 42, "check": 10, "strong check": 50, "python": 10, "replay": 7,
               "strong replay": 40, "advice": 13, "strong advice": 22, "round": 8, "strong timing": 41,
               "numba": 26},  # fmt: skip
    studies=Studies(tournament=("rounds", 200_000, 400), ladder="random,heuristic,ismcts"),
    cases=Cases(
        variants=(("predictions=open", "exact_bonus=10"),
                  ("game_rounds=12", "zero_bonus=zero_trick", "exact_bonus=10")),  # fmt: skip
        strong_bots=("mc:samples=2:bid_samples=2", "ismcts:iterations=8:bid_samples=2", "omniscient:iterations=8",
                     "mc_v1:samples=2:bid_samples=2", "ismcts_v1:iterations=8:bid_samples=2"),
        record_scores="penalties",
        steps_per_round=40,  # four predictions and 36 cards
    ),
    examples=(
        "simulate differenzler --bots heuristic,random,random,random --rounds 1000000 --seed 7",
        "simulate differenzler --bots heuristic --games 10000 --rule exact_bonus=10 --out games.parquet",
        "replay differenzler --seed 7 --round 12 --bots heuristic,random,random,random",
        "tournament differenzler --bots heuristic,heuristic,random,random --rounds 1000000 --dask-local 2",
        "ladder differenzler --bots random,heuristic,mc --deals 2000 --out results/ladder-dz",
    ),
    advice=Advice(hand="SA SK H9", trump="the dealer's shown card (e.g. H6)"),
    example_bot="Lucky",
    reference=Reference("benchmarks/reference_differenzler.c", {"rounds": ("{units}", "{seed}")}),
    illegal_reward=-157.0,  # minus the largest penalty of a round, |prediction - points| <= 157
)
