"""Information Set Monte Carlo Tree Search (single-observer ISMCTS) over card actions, in flat numpy arrays.

Game-independent: a node's children are indexed by card (0..cards-1), so any trick-taking game whose moves are
cards can use it. A tree is the tuple ``new_tree(max_nodes, cards)`` returns:

- ``children[node, card]`` (int32): the child reached by playing ``card`` at ``node``, -1 if not expanded;
- ``visits[node]``, ``avail[node]``: how often the node was chosen, and how often its card was legal when its
  parent was visited (availability counts: in a determinization only some cards are legal);
- ``value[node]``: the sum of the rewards, to the seat that played the node's card, of the iterations through it;
- ``mover[node]``: that seat; ``size[0]``: nodes in use (node 0 is the root, the decision to make).

One iteration of a game's bot (SO-ISMCTS, Cowling, Powley and Whitehouse 2012)::

    deal = a determinization sampled from the bot's information set (cardsim.infoset)
    node, path[0], depth = 0, 0, 1
    while the round is not over:
        legal = the cards the seat to move may play in this deal
        card, child = select(tree, node, legal, c, rng, stream)  # UCB; child -1: an untried card
        new = child < 0
        if new:
            child = expand(tree, node, card, seat)               # -1 when the tree is full
        play card in the deal
        if child < 0:
            break
        path[depth], depth, node = child, depth + 1, child
        if new:
            break
    play the round out with a fast policy; rewards[seat] for every seat (scaled to about 0..1)
    backpropagate(tree, path, depth, rewards)

and the decision is ``best_card(tree, legal)``, the most visited card at the root. Every function is a plain
``@njit(cache=True)`` kernel over the tree's arrays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.cards import bit, lowest_card, nth_card, popcount
from cardsim.rng import below


@njit(cache=True)
def new_tree(max_nodes: int, cards: int) -> tuple:
    """An empty tree (just the root) with room for ``max_nodes`` nodes over a deck of ``cards`` cards."""
    children = np.full((max_nodes, cards), -1, np.int32)
    size = np.ones(1, np.int64)
    mover = np.full(max_nodes, -1, np.int64)
    return children, np.zeros(max_nodes, np.int64), np.zeros(max_nodes, np.int64), np.zeros(max_nodes), mover, size


@njit(cache=True)
def select(tree: tuple, node: int, legal: np.uint64, c: float, rng: np.ndarray, stream: int) -> tuple:
    """The card to play at ``node`` among ``legal`` and its child: a uniformly drawn untried legal card (child -1)
    if there is one, else the child with the highest UCB, value / visits + c * sqrt(ln(avail) / visits).
    Counts one availability for every expanded legal child."""
    children, visits, avail, value = tree[0], tree[1], tree[2], tree[3]
    untried = np.uint64(0)
    best, best_child, best_score = -1, -1, -np.inf
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - np.uint64(1)
        child = children[node, card]
        if child < 0:
            untried |= bit(card)
            continue
        avail[child] += 1
        if visits[child] == 0:  # expanded but not yet backed up (a caller's choice): try it first
            score = np.inf
        else:
            score = value[child] / visits[child] + c * np.sqrt(np.log(avail[child]) / visits[child])
        if score > best_score:
            best, best_child, best_score = card, child, score
    if untried:
        return nth_card(untried, below(rng, stream, popcount(untried))), -1
    return best, best_child


@njit(cache=True)
def expand(tree: tuple, node: int, card: int, seat: int) -> int:
    """Add the child of ``node`` reached when ``seat`` plays ``card``; its index, or -1 when the tree is full."""
    children, avail, mover, size = tree[0], tree[2], tree[4], tree[5]
    child = size[0]
    if child >= children.shape[0]:
        return -1
    size[0] = child + 1
    children[node, card] = child
    mover[child] = seat
    avail[child] = 1  # available in this very iteration
    return child


@njit(cache=True)
def backpropagate(tree: tuple, path: np.ndarray, depth: int, rewards: np.ndarray) -> None:
    """Count one visit of the nodes ``path[:depth]`` (the root first) and add each node's mover's reward."""
    visits, value, mover = tree[1], tree[3], tree[4]
    visits[path[0]] += 1
    for d in range(1, depth):
        node = path[d]
        visits[node] += 1
        value[node] += rewards[mover[node]]


@njit(cache=True)
def best_card(tree: tuple, legal: np.uint64) -> int:
    """The most visited card at the root among ``legal`` (ties: the lowest card); -1 if none was tried."""
    children, visits = tree[0], tree[1]
    best, most = -1, 0
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - np.uint64(1)
        child = children[0, card]
        if child >= 0 and visits[child] > most:
            best, most = card, visits[child]
    return best
