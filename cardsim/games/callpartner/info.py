"""What shared code says and does about call-partner (``cardsim.games.info``)."""

from cardsim.games.info import Advice, Cases, GameInfo, GameLabels, Studies

INFO = GameInfo(
    name="callpartner",
    title="call-partner",
    players=(3, 4, 5),
    default_players=4,
    shown=("kitty",),
    labels=GameLabels("points", "deal", "bid", "side_points", "bid (card points)",
                      "points taken by the declaring side (card points)", declarers_only=True, hit="made"),  # fmt: skip
    estimates={"fast": 17, "strong": 60, "check": 20, "strong check": 62, "python": 21, "replay": 15,
               "strong replay": 52, "advice": 18, "strong advice": 27, "round": 12, "strong timing": 53,
               "numba": 54},  # fmt: skip
    studies=Studies(tournament=("games", 4_000, 8), ladder="random,heuristic,mc"),
    cases=Cases(
        variants=(("players=3", "all_pass=dealer_forced"), ("players=5", "discards_count=false")),
        strong_bots=("mc:samples=2:bid_samples=2:contract_samples=2",
                     "ismcts:iterations=8:bid_samples=2:contract_samples=2", "omniscient:iterations=8:bid_samples=2",
                     "mc_v1:samples=2:bid_samples=2:contract_samples=2",
                     "ismcts_v1:iterations=8:bid_samples=2:contract_samples=2"),  # fmt: skip
        record_scores="scores",
    ),
    examples=("simulate callpartner --players 5 --bots heuristic --games 100000 --rule all_pass=dealer_forced",),
    advice=Advice(hand="SA SK H9 D2", trump="fixes the contract's trump S/H/D/C (default: the best suit per bid)"),
    example_bot="Steady",
    illegal_reward=-20.0,  # the lowest score of a deal: -bid, bids up to 20
)
