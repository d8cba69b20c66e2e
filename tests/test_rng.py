"""Random streams: xoshiro256** and Lemire's bounded draws match a plain Python reference, SipHash-2-4 matches its
published test vector, and bots' private streams are apart."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from cardsim.rng import below, bot_seed, next_u64, round_key, seed_bot_stream, seed_streams, siphash24

M64 = 2**64 - 1


def _reference_next(state: list[int]) -> int:
    """xoshiro256** (Blackman & Vigna's reference code), advancing ``state`` in place."""
    s0, s1, s2, s3 = state
    result = ((((s1 * 5) & M64) << 7 | ((s1 * 5) & M64) >> 57) & M64) * 9 & M64
    t = (s1 << 17) & M64
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << 45 | s3 >> 19) & M64
    state[:] = s0, s1, s2, s3
    return result


def _reference_below(state: list[int], n: int) -> int:
    """Lemire's unbiased draw from 0..n-1 on 32-bit words, with its rejections."""
    m = (_reference_next(state) >> 32) * n
    if m & 0xFFFFFFFF < n:
        threshold = (2**32 - n) % n
        while m & 0xFFFFFFFF < threshold:
            m = (_reference_next(state) >> 32) * n
    return m >> 32


@njit(cache=True)
def _draws(states: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    out = np.empty(2 * bounds.shape[0], np.uint64)
    for i in range(bounds.shape[0]):
        out[2 * i] = next_u64(states, 1)
        out[2 * i + 1] = below(states, 1, bounds[i])
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(0, M64), st.lists(st.one_of(st.integers(1, 50), st.integers(2**31, 2**32 - 1)), min_size=1,
                                     max_size=40))  # fmt: skip
def test_draws_match_the_reference_generator_rejections_included(seed, bounds):
    # Bounds near 2**32 reject about half of the first draws, so the rejection step (a call of its own) runs too.
    states = np.empty((2, 4), np.uint64)
    seed_streams(states, np.uint64(seed), 0, 0)
    state = [int(v) for v in states[1]]
    expected = []
    for n in bounds:
        expected += [_reference_next(state), _reference_below(state, n)]
    assert _draws(states, np.array(bounds, np.int64)).tolist() == expected
    assert [int(v) for v in states[1]] == state


def test_siphash24_matches_the_reference_vector():
    # Aumasson & Bernstein's vectors: key 00..0f, message 00..07 -> 62 24 93 9a 79 f5 f5 93 (little-endian)
    key0, key1 = np.uint64(0x0706050403020100), np.uint64(0x0F0E0D0C0B0A0908)
    assert int(siphash24(key0, key1, np.uint64(0x0706050403020100))) == 0x93F5F5799A932462


def test_private_bot_streams_differ_by_seat_and_round_and_from_the_shared_streams():
    shared = np.empty((5, 4), np.uint64)
    seed_streams(shared, np.uint64(7), 3, 0)
    private = np.empty((8, 4), np.uint64)
    for seat in range(4):
        seed_bot_stream(private, seat, np.uint64(7), 3, 0, seat)
        seed_bot_stream(private, 4 + seat, np.uint64(7), 4, 0, seat)
    rows = {tuple(r) for r in np.vstack([shared, private]).tolist()}
    assert len(rows) == 13
    assert len({bot_seed(7, 3, 0, s) for s in range(4)} | {bot_seed(7, 3, 1, 0)}) == 5


def test_round_key_is_the_shared_streams_key():
    states = np.empty((1, 4), np.uint64)
    seed_streams(states, np.uint64(11), 2, 1)
    key = int(round_key(np.uint64(11), 2, 1))
    gamma = 0x9E3779B97F4A7C15
    from cardsim.rng import splitmix64

    assert int(states[0, 0]) == int(splitmix64(np.uint64(key)))
    assert int(states[0, 1]) == int(splitmix64(np.uint64((key + gamma) % 2**64)))
