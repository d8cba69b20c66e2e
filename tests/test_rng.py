"""Random streams: SipHash-2-4 matches its published test vector, and bots' private streams are apart."""

import numpy as np

from cardsim.rng import bot_seed, round_key, seed_bot_stream, seed_streams, siphash24


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
