"""cardsim.search: the ISMCTS tree (expansion, availability counts, UCB, backpropagation, the decision)."""

import numpy as np
from numba import njit

from cardsim.rng import below, seed_streams
from cardsim.search import backpropagate, best_card, expand, new_tree, select


def streams(seed: int) -> np.ndarray:
    rng = np.empty((2, 4), np.uint64)
    seed_streams(rng, np.uint64(seed), 0, 0)
    return rng


def mask(*cards: int) -> np.uint64:
    return np.uint64(sum(1 << c for c in cards))


def test_untried_cards_first_then_the_full_tree_refuses():
    tree = new_tree(3, 10)
    rng = streams(1)
    tried = set()
    for _ in range(2):
        card, child = select(tree, 0, mask(2, 7), 1.0, rng, 1)
        assert child == -1 and card in (2, 7) and card not in tried
        tried.add(card)
        child = expand(tree, 0, card, 1)
        assert child == len(tried)
        backpropagate(tree, np.array([0, child]), 2, np.array([0.0, 0.5]))
    assert tried == {2, 7} and tree[5][0] == 3
    assert expand(tree, 1, 4, 2) == -1  # full: nothing changes
    assert tree[5][0] == 3 and (tree[0][1] == -1).all()


def test_availability_counts_only_legal_children():
    tree = new_tree(4, 10)
    for card in (1, 3, 5):
        expand(tree, 0, card, 0)
    for child in (1, 2, 3):
        tree[1][child], tree[3][child] = 1, 0.5
    select(tree, 0, mask(1, 5), 0.5, streams(2), 1)
    assert list(tree[2][1:4]) == [2, 1, 2]  # 1 at expansion, +1 when legal at a visit


def test_ucb_prefers_value_then_exploration():
    tree = new_tree(3, 4)
    a, b = expand(tree, 0, 0, 0), expand(tree, 0, 1, 0)
    tree[1][a], tree[3][a], tree[1][b], tree[3][b] = 10, 9.0, 10, 5.0  # means 0.9 and 0.5
    assert select(tree, 0, mask(0, 1), 0.0, streams(3), 1) == (0, a)
    tree[1][a], tree[3][a], tree[2][a] = 1000, 900.0, 1000  # equal mean, b far less visited
    tree[1][b], tree[3][b], tree[2][b] = 1, 0.9, 1000
    assert select(tree, 0, mask(0, 1), 1.0, streams(3), 1) == (1, b)


def test_backpropagate_adds_each_movers_reward():
    tree = new_tree(4, 8)
    first = expand(tree, 0, 3, 0)
    second = expand(tree, first, 5, 1)
    backpropagate(tree, np.array([0, first, second]), 3, np.array([0.25, 0.75]))
    backpropagate(tree, np.array([0, first, second]), 2, np.array([1.0, 0.0]))
    assert list(tree[1][:3]) == [2, 2, 1]
    assert list(tree[3][:3]) == [0.0, 1.25, 0.75]
    assert best_card(tree, mask(3, 5)) == 3 and best_card(tree, mask(5)) == -1


@njit(cache=True)
def _duel(iterations: int, c: float, rng: np.ndarray) -> int:
    """A two-move game: seat 0 picks card 0..3, then seat 1 picks 4..7 to minimise seat 0's reward; seat 0's reward
    for (a, b) is PAYOFF[a, b - 4] (zero-sum). The minimax choice is card 2 (its worst case 0.6 is the best)."""
    payoff = np.array([[0.9, 0.1, 0.9, 0.9], [0.5, 0.5, 0.5, 0.5], [0.7, 0.6, 0.8, 0.7], [1.0, 0.0, 0.0, 1.0]])
    tree = new_tree(iterations + 1, 8)
    path = np.zeros(3, np.int64)
    rewards = np.zeros(2)
    for _ in range(iterations):
        node, depth, moves = 0, 1, np.zeros(2, np.int64)
        for seat in range(2):
            legal = np.uint64(0xF) << np.uint64(4 * seat)
            card, child = select(tree, node, legal, c, rng, 1)
            new = child < 0
            if new:
                child = expand(tree, node, card, seat)
            moves[seat] = card
            path[depth], depth, node = child, depth + 1, child
            if new:
                break
        if depth == 2:  # the rollout: seat 1 answers at random
            moves[1] = 4 + below(rng, 1, 4)
        rewards[0] = payoff[moves[0], moves[1] - 4]
        rewards[1] = 1.0 - rewards[0]
        backpropagate(tree, path, depth, rewards)
    return best_card(tree, np.uint64(0xF))


def test_search_finds_the_minimax_move_of_a_small_game():
    assert [_duel(3000, 0.5, streams(seed)) for seed in range(3)] == [2, 2, 2]
