"""A learned bidder for the exact-tricks family (Wizard, Oh Hell): the policy ``experiments/learn_bidder.py`` trains
on ``cardsim.envs.BatchEnv`` and what its numba bot computes, in one module, so training and play cannot drift apart
(docs/rl.md, "An example that learns"). ``bots/learned_wizard.py:learned_bidder`` is the bot of the committed
Wizard weights.

- ``features(obs, players, out)``: the policy's input, read from the bit-packed observation of ``cardsim.envs``
  (the exact-tricks encoding, its fields found by name): the round's size, the bidding position, the hand as
  classes relative to trump, and the share of the cards already bid. The training reads BatchEnv's observations
  (``features_batch``, a row at a time), the bot its view encoded by the same ``encode`` BatchEnv calls
  (``bid_of_view``).
- ``Net`` and ``q_values``: a one-hidden-layer network, ``FEATURES`` inputs -> hidden ReLU units -> the expected
  score of each bid 0..20 (points / ``SCALE``); ``best_bid`` takes the legal bid of the highest value, so a refused
  bid (the dealer's under ``plus_minus_one``, Oh Hell's hook) is never chosen. ``greedy_bids`` is the policy over a
  batch of observations, ``bid_of_view`` over one seat's view.
- ``bidder(net, players)``: the numba bot of a network, ``act(view, p, seat, rng) -> int``, which names trump and
  plays its cards as the built-in ``heuristic``. Its weights are constants of its compiled code, so it is compiled
  in each process (about a second; what it calls is cached): a cached copy could outlive a new weights file.

A lineup names a bot file of its own (``bots/learned_wizard.py``): cardsim runs a bot file as a module of its own,
and the cached kernels here must belong to one module only (numba's cache knows a function by its file, not its
module).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from bots.exact_tricks import HEURISTIC
from bots.exact_tricks import act as builtin_act
from cardsim.decisions import BID
from cardsim.encoding import FIRST, KIND, SIZE
from cardsim.games.exact_tricks.encoding import MAX_CARDS, TABLE, encode, fields, obs_bits
from cardsim.games.exact_tricks.rules import DECK_SIZE, MAX_PLAYERS, MIN_PLAYERS, RANK_OF, SUIT_OF, is_jester, is_wizard
from cardsim.games.exact_tricks.state import decision, legal_actions

SCALE = 10.0  # points per unit of the network's output: a Wizard round's score is tens of points
SUITS, RANKS = 4, 13
BID_ROW = next(row for row in TABLE if row[KIND] == BID)  # the encoding's bid actions: bids 0..20
BID_FIRST, BIDS = int(BID_ROW[FIRST]), int(BID_ROW[SIZE])  # the first bid's action index, and how many

# The observation's fields the features read, by name: START[players, k] is the first bit of field READ[k].
READ = ("seat", "dealer", "cards", "hand", "trump", "bids")
SEAT, DEALER, CARDS, HAND, TRUMP, BIDS_SEEN = range(len(READ))
START = np.full((MAX_PLAYERS + 1, len(READ)), -1, np.int64)
OBS_BYTES = np.zeros(MAX_PLAYERS + 1, np.int64)  # the observation's bytes per player count
for _players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
    _at = {field.name: field.start for field in fields(_players)}
    START[_players] = [_at[name] for name in READ]
    OBS_BYTES[_players] = (obs_bits(_players) + 7) // 8

# The feature vector (float32[FEATURES]), by its parts' first index:
SIZE_AT = 0  # one-hot of the cards each, 1..20
POSITION_AT = SIZE_AT + MAX_CARDS  # one-hot of the bidding position 0..6 (0 bids first, after the dealer)
NO_TRUMP = POSITION_AT + MAX_PLAYERS  # 1 if no suit is trump
WIZARDS = NO_TRUMP + 1  # Wizards held (0..4; Oh Hell: 0)
JESTERS = WIZARDS + 1  # Jesters held
TRUMP_RANKS = JESTERS + 1  # 13 bits: the trump ranks held, lowest first
SIDE_RANKS = TRUMP_RANKS + RANKS  # 13 counts: per rank, the cards of it held in the other suits
VOIDS = SIDE_RANKS + RANKS  # the other suits it holds no card of
SINGLETONS = VOIDS + 1  # the other suits it holds one card of
BID_SHARE = SINGLETONS + 1  # the bids it has seen, summed, per card each
FEATURES = BID_SHARE + 1


class Net(NamedTuple):
    """The network's weights (float32): ``w1`` [FEATURES, hidden], ``b1`` [hidden], ``w2`` [hidden, BIDS],
    ``b2`` [BIDS]."""

    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray


@njit(cache=True, inline="always")
def _bit(obs: np.ndarray, k: int) -> int:
    """Bit ``k`` of a bit-packed observation (little-endian, as ``np.unpackbits(obs, bitorder="little")``)."""
    return (obs[k >> 3] >> (k & 7)) & 1


@njit(cache=True)
def _one_hot(obs: np.ndarray, start: int, width: int) -> int:
    """The value of the one-hot field of ``width`` bits at ``start``: the index of its set bit, -1 if none."""
    for j in range(width):
        if _bit(obs, start + j):
            return j
    return -1


@njit(cache=True)
def features(obs: np.ndarray, players: int, out: np.ndarray) -> None:
    """``out`` (float32[FEATURES]): the features of the bidding seat's observation ``obs`` (uint8[bytes], the
    exact-tricks encoding for ``players`` seats), as the parts above say. Reads the observation only."""
    at = START[players]
    out[:] = 0.0
    cards = _one_hot(obs, at[CARDS], MAX_CARDS) + 1
    seat, dealer = _one_hot(obs, at[SEAT], players), _one_hot(obs, at[DEALER], players)
    trump = _one_hot(obs, at[TRUMP], SUITS)
    out[SIZE_AT + cards - 1] = 1.0
    out[POSITION_AT + (seat - dealer - 1) % players] = 1.0
    out[NO_TRUMP] = 1.0 if trump < 0 else 0.0
    length = np.zeros(SUITS, np.int64)
    for card in range(DECK_SIZE):
        if not _bit(obs, at[HAND] + card):
            continue
        if is_wizard(card):
            out[WIZARDS] += 1.0
        elif is_jester(card):
            out[JESTERS] += 1.0
        elif SUIT_OF[card] == trump:
            out[TRUMP_RANKS + RANK_OF[card]] = 1.0
        else:
            out[SIDE_RANKS + RANK_OF[card]] += 1.0
            length[SUIT_OF[card]] += 1
    for suit in range(SUITS):
        if suit != trump and length[suit] <= 1:
            out[VOIDS if length[suit] == 0 else SINGLETONS] += 1.0
    total = 0
    for other in range(players):
        bid = _one_hot(obs, at[BIDS_SEEN] + other * BIDS, BIDS)
        total += max(bid, 0)
    out[BID_SHARE] = total / cards


@njit(cache=True)
def features_batch(obs: np.ndarray, players: int) -> np.ndarray:
    """float32[n, FEATURES]: ``features`` of each row of ``obs`` (uint8[n, bytes])."""
    out = np.empty((obs.shape[0], FEATURES), np.float32)
    for i in range(obs.shape[0]):
        features(obs[i], players, out[i])
    return out


@njit(cache=True)
def q_values(x: np.ndarray, net: Net, hidden: np.ndarray, out: np.ndarray) -> None:
    """``out`` (float64[BIDS]): the network's value of each bid for the features ``x``; ``hidden`` (float64[hidden
    units]) its scratch."""
    w1, b1, w2, b2 = net
    for h in range(b1.shape[0]):
        z = np.float64(b1[h])
        for f in range(x.shape[0]):
            z += x[f] * np.float64(w1[f, h])
        hidden[h] = max(z, 0.0)
    for b in range(BIDS):
        z = np.float64(b2[b])
        for h in range(b1.shape[0]):
            z += hidden[h] * np.float64(w2[h, b])
        out[b] = z


@njit(cache=True)
def best_bid(q: np.ndarray, legal: np.ndarray) -> int:
    """The legal bid (``legal``: int8[BIDS], 1 at the legal bids) of the highest value in ``q`` (the lowest such bid on
    a tie); -1 if none is legal."""
    best = -1
    for b in range(BIDS):
        if legal[b] and (best < 0 or q[b] > q[best]):
            best = b
    return best


@njit(cache=True)
def greedy_bids(obs: np.ndarray, mask: np.ndarray, players: int, net: Net) -> np.ndarray:
    """int64[n]: the policy's bid for each row of ``obs`` (uint8[n, bytes]) with its action mask ``mask``
    (int8[n, actions], BatchEnv's: the bids at ``BID_FIRST``..)."""
    x, q = np.empty(FEATURES, np.float32), np.empty(BIDS)
    hidden, out = np.empty(net.b1.shape[0]), np.empty(obs.shape[0], np.int64)
    for i in range(obs.shape[0]):
        features(obs[i], players, x)
        q_values(x, net, hidden, q)
        out[i] = best_bid(q, mask[i, BID_FIRST : BID_FIRST + BIDS])
    return out


@njit(cache=True)
def bid_of_view(view: Any, p: Any, seat: int, net: Net) -> int:
    """The policy's bid for ``seat`` at its bid (``view``: the round as it may see it, ``state.observe``): its
    view encoded as BatchEnv encodes it, then ``greedy_bids``' computation on that one row."""
    players = view.hands.shape[0]
    obs = np.zeros((1, OBS_BYTES[players]), np.uint8)
    encode(view, p, seat, obs[0])
    codes = np.empty(DECK_SIZE + 1, np.int64)
    mask = np.zeros((1, BID_FIRST + BIDS), np.int8)
    for j in range(legal_actions(view, p, codes)):
        mask[0, BID_FIRST + codes[j]] = 1
    return greedy_bids(obs, mask, players, net)[0]


def bidder(net: Net, players: int) -> Any:
    """The numba bot (``act(view, p, seat, rng) -> int``, docs/bots.md "A fast bot in numba") that bids with ``net``,
    trained for ``players`` seats, and names trump and plays its cards as the built-in heuristic. At another
    number of seats it raises (the run stops, naming it)."""
    w1, b1, w2, b2 = (np.ascontiguousarray(a, np.float32) for a in net)

    @njit
    def learned(view, p, seat, rng):  # noqa: ANN001, ANN202 (numba types)
        if view.hands.shape[0] != players:
            raise ValueError("the learned bidder plays only the number of players it was trained for")
        if decision(view) == BID:
            return bid_of_view(view, p, seat, Net(w1, b1, w2, b2))
        return builtin_act(HEURISTIC, view, p, seat)

    return learned


def save(path: str | Path, net: Net, info: dict) -> None:
    """The network and what it was trained on (``info``: JSON-able, with ``players``) into ``path`` (.npz)."""
    np.savez_compressed(path, **{name: np.asarray(a, np.float32) for name, a in zip(Net._fields, net, strict=True)},
                        info=np.array(json.dumps(info)))  # fmt: skip


def load(path: str | Path) -> tuple[Net, dict]:
    """The network saved at ``path`` and its ``info``."""
    with np.load(path) as data:
        return Net(*(data[name] for name in Net._fields)), json.loads(str(data["info"]))
