"""Differenzler bots that cheat or misbehave, for tests/test_sealed.py: in cardsim's own process each cheat works
(the control), in a sealed match none learns anything. A cheat that learns something says so on stderr with a line
``LEARNED <what>``; one that finds nothing says ``NOTHING <what>``.

The rng matcher carries its own copy of cardsim's public seeding (splitmix64, the round key, SipHash-2-4), as an
author who read cardsim's source would write it; it imports nothing of cardsim.
"""

import gc
import json
import os
import random
import sys
import time
from pathlib import Path

MASK = (1 << 64) - 1
GUESSES = range(4)  # seeds a cheater tries: the default 0 and a few more
ROUNDS = range(64)


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class Plain:
    """Predicts 40 and plays its first legal card."""

    def predict(self, obs):
        return 40

    def play(self, obs):
        return obs.legal[0]


# ---------------------------------------------------------------- cheats


def _splitmix64(x: int) -> int:
    z = (x + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def _round_key(seed: int, unit: int, sub: int) -> int:
    return _splitmix64(_splitmix64(_splitmix64(seed) ^ unit) ^ sub)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


def _siphash24(k0: int, k1: int, message: int) -> int:
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D, k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]

    def rounds(n):
        for _ in range(n):
            v[0] = (v[0] + v[1]) & MASK
            v[1] = _rotl(v[1], 13) ^ v[0]
            v[0] = _rotl(v[0], 32)
            v[2] = (v[2] + v[3]) & MASK
            v[3] = _rotl(v[3], 16) ^ v[2]
            v[0] = (v[0] + v[3]) & MASK
            v[3] = _rotl(v[3], 21) ^ v[0]
            v[2] = (v[2] + v[1]) & MASK
            v[1] = _rotl(v[1], 17) ^ v[2]
            v[2] = _rotl(v[2], 32)

    for word in (message, 8 << 56):
        v[3] ^= word
        rounds(2)
        v[0] ^= word
    v[2] ^= 0xFF
    rounds(4)
    return v[0] ^ v[1] ^ v[2] ^ v[3]


def bot_seed(seed: int, unit: int, sub: int, seat: int) -> int:
    """cardsim.rng.bot_seed, from its source."""
    return _siphash24(_round_key(seed, unit, sub), 0x626F7473, (1 << 32) + seat)


class RngMatcher(Plain):
    """Compares its rng's state with the private seeds of guessed seeds and rounds: a match gives the seed and the
    round, and with them every hand."""

    def predict(self, obs):
        state = obs.rng.getstate()
        for seed in GUESSES:
            for unit in ROUNDS:
                if random.Random(bot_seed(seed, unit, 0, obs.seat)).getstate() == state:
                    say(f"LEARNED seed {seed} round {unit}")
                    return 40
        say("NOTHING rng")
        return 40


class HandLookup(Plain):
    """Looks its hand up among the deals of guessed seeds, through cardsim itself."""

    def predict(self, obs):
        try:
            import cardsim

            for seed in GUESSES[:1]:
                for unit in ROUNDS[:16]:
                    record = cardsim.new_round("differenzler", seed=seed, round=unit).record()
                    if sorted(record["hands"][obs.seat]) == sorted(obs.hand):
                        say(f"LEARNED hands {record['hands']}")
                        return 40
        except Exception as exc:  # noqa: BLE001 - a cheat tries, whatever happens
            say(f"NOTHING lookup failed: {type(exc).__name__}")
            return 40
        say("NOTHING lookup")
        return 40


def _holds_hands(value) -> bool:
    """A cardsim round's state or a record: something holding every seat's cards."""
    fields = getattr(value, "_fields", None)
    return (fields is not None and "hands" in fields and "dealt" in fields) or (
        isinstance(value, dict) and "hands" in value and "seed" in value)


class FrameWalker(Plain):
    """Walks up the interpreter's frames and through every object the garbage collector knows, for a round's
    state."""

    def predict(self, obs):
        frame = sys._getframe()
        while frame is not None:
            for value in list(frame.f_locals.values()):
                if _holds_hands(value):
                    say(f"LEARNED state in frame {frame.f_code.co_name}")
                    return 40
            frame = frame.f_back
        if any(_holds_hands(value) for value in gc.get_objects()):
            say("LEARNED state among the objects")
            return 40
        say("NOTHING frames")
        return 40


class MemoryReader(Plain):
    """Reads its parent's memory, environment and command line through /proc."""

    def predict(self, obs):
        parent = os.getppid()
        for name in ("mem", "environ"):
            try:
                with open(f"/proc/{parent}/{name}", "rb") as file:
                    file.read(1)
                say(f"LEARNED /proc/{parent}/{name} is readable")
            except OSError as exc:
                say(f"NOTHING {name}: {type(exc).__name__}")
        return 40


class ResultsReader(Plain):
    """Reads the results folder named in the environment variable's place: its own class attribute ``folder``,
    set by the test (a bot author would find it in cardsim's command line)."""

    folder = ""

    def predict(self, obs):
        config = Path(self.folder) / "config.json"
        try:
            data = json.loads(config.read_text())
        except OSError as exc:
            say(f"NOTHING config: {type(exc).__name__}")
            return 40
        if "seed" in data:
            say(f"LEARNED seed {data['seed']} from config.json")
        else:
            say(f"NOTHING config holds {sorted(data)}")
        try:
            import pyarrow.parquet as pq

            for path in sorted((Path(self.folder) / "rows").glob("*.parquet")):
                if "seed" in pq.read_schema(path).names:
                    say(f"LEARNED seed from {path.name}")
                    return 40
        except OSError as exc:
            say(f"NOTHING rows: {type(exc).__name__}")
        say("NOTHING rows")
        return 40


class Talker(Plain):
    """Tries to reach the world (or a colluding bot): a socket and a file in /tmp."""

    def predict(self, obs):
        import socket

        try:
            socket.create_connection(("127.0.0.1", 9), timeout=0.5)
            say("LEARNED a socket")
        except OSError as exc:
            say(f"NOTHING socket: {type(exc).__name__}")
        try:
            Path("/tmp/cardsim-collusion").write_text(" ".join(obs.hand))
            say("LEARNED a shared file")
        except OSError as exc:
            say(f"NOTHING file: {type(exc).__name__}")
        return 40


# ---------------------------------------------------------------- misbehaviour


class Crasher(Plain):
    """Raises in its third round (its rng's first draw tells the rounds apart in a sealed process too)."""

    rounds = 0

    def predict(self, obs):
        Crasher.rounds += 1
        if Crasher.rounds == 3:
            raise RuntimeError("boom")
        return 40


class Exiter(Plain):
    def predict(self, obs):
        sys.exit(3)


class Hanger(Plain):
    def predict(self, obs):
        time.sleep(3600)


class Illegal(Plain):
    def play(self, obs):
        return "SX"


class Hog(Plain):
    def predict(self, obs):
        hoard = bytearray(8 << 30)  # 8 GB: more than its memory limit
        return len(hoard) % 2


class Printer(Plain):
    """Prints on stdout at every decision (a sealed bot's stdout is a file of the results folder)."""

    def predict(self, obs):
        print(f"predicting for seat {obs.seat}")
        return 40
