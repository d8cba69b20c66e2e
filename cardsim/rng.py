"""Counter-based per-round random streams (DESIGN.md, Determinism).

Every random choice of round ``unit`` (sub-round ``sub``) of an experiment with
seed ``seed`` comes from a stream keyed by ``(seed, unit, sub, stream)``:
stream 0 deals the cards, stream ``1 + seat`` serves that seat's built-in random or heuristic
bot. The key seeds a splitmix64 sequence that fills the xoshiro256** states. No
global generator is shared, so results do not depend on threads, chunking,
processes or machines, and any single round can be replayed on its own.
Giving each seat its own stream also means that swapping one bot does not
change another bot's random draws (common random numbers).

splitmix64 is a bijection, so a stream's state gives back the round key and with it the deal. A bot that could
read its stream state (a Python bot, a strong bot) therefore gets a *private* stream instead
(``seed_bot_stream``, ``bot_seed``): keyed by SipHash-2-4 of the round key and the seat, a pseudo-random
function, so its stream does not give back the key. It does not hide a seed that can be guessed: a bot that
tries the seed 0 and a few others against its stream finds the round, and with it every hand. So a bot cardsim
does not trust plays a sealed match (``cardsim.sealed``): a secret seed, and the bot in a process of its own; an
in-process bot is trusted code (DESIGN.md, Random streams).

The states of a round's streams are the rows of one ``uint64[streams, 4]``
array; draws name the array and the stream, so kernels never create array
views (each view costs numba a reference-count update in the hot loop).
The draws ``next_u64`` and ``below`` are written in LLVM IR (numba intrinsics): a kernel draws at dozens of
places, and each draw is then one call for numba to type instead of some 60 inlined IR statements (cold
compiles, docs/performance.md); LLVM gets the same code as from the Python version they replace.
"""

from __future__ import annotations

import secrets

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from cardsim.errors import CardsimError

DEAL_STREAM = 0
MASK64 = (1 << 64) - 1


GOLDEN_GAMMA = np.uint64(0x9E3779B97F4A7C15)
# splitmix64's constants as globals: numba freezes a global as one IR constant, where ``np.uint64(30)`` is a call of
# four statements to type wherever it is inlined (cold compiles, docs/performance.md)
_U27, _U30, _U31 = np.uint64(27), np.uint64(30), np.uint64(31)
_MIX1, _MIX2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
_I64 = ir.IntType(64)


@njit(cache=True, inline="always")
def splitmix64(x: np.uint64) -> np.uint64:
    """The splitmix64 output for state ``x``: ``x`` advanced by the golden gamma, then mixed."""
    z = np.uint64(x) + GOLDEN_GAMMA
    z = (z ^ (z >> _U30)) * _MIX1
    z = (z ^ (z >> _U27)) * _MIX2
    return z ^ (z >> _U31)


@njit(cache=True)
def seed_streams(states: np.ndarray, seed: np.uint64, unit: int, sub: int, streams: int = -1) -> None:
    """Fill rows ``k < streams`` (default: all) of ``states`` (uint64[rows, 4]) with the xoshiro256** state of stream k.

    The key hashes (seed, unit, sub); the states are the splitmix64 sequence
    from that key (the seeding xoshiro's authors recommend). Its terms are
    independent of each other, so the CPU computes them in parallel.
    """
    key = round_key(seed, unit, sub)
    for stream in range(states.shape[0] if streams < 0 else streams):
        for i in range(4):
            states[stream, i] = splitmix64(key + np.uint64(4 * stream + i) * GOLDEN_GAMMA)


@njit(cache=True, inline="always")
def _rotl(x: np.uint64, k: int) -> np.uint64:
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


def _xoshiro_step(context, builder, aryty, states, k) -> ir.Value:
    """LLVM IR of one xoshiro256** step of row ``k`` of the uint64[rows, 4] array ``states``: its 64 random bits."""
    array = context.make_array(aryty)(context, builder, states)
    words = [cgutils.get_item_pointer(context, builder, aryty, array, [k, context.get_constant(types.intp, i)])
             for i in range(4)]  # fmt: skip
    s0, s1, s2, s3 = (builder.load(w) for w in words)

    def const(value):
        return ir.Constant(_I64, value)

    def rotl(x, r):
        return builder.or_(builder.shl(x, const(r)), builder.lshr(x, const(64 - r)))

    result = builder.mul(rotl(builder.mul(s1, const(5)), 7), const(9))
    s2 = builder.xor(s2, s0)
    s3 = builder.xor(s3, s1)
    builder.store(builder.xor(s0, s3), words[0])
    builder.store(builder.xor(s1, s2), words[1])
    builder.store(builder.xor(s2, builder.shl(s1, const(17))), words[2])
    builder.store(rotl(s3, 45), words[3])
    return result


@intrinsic
def next_u64(typingctx, states, k):
    """Next 64 random bits of stream ``k`` (xoshiro256**; advances its state): ``states`` is uint64[streams, 4]."""
    sig = types.uint64(states, types.intp)

    def codegen(context, builder, signature, args):
        return _xoshiro_step(context, builder, signature.args[0], args[0], args[1])

    return sig, codegen


@intrinsic
def below(typingctx, states, k, n):
    """Uniform integer in ``0..n-1`` (1 <= n < 2**32) from stream ``k``, exactly unbiased (Lemire's method: the
    high word of a 32-bit draw times ``n``, drawn again in the rare case, a chance of n / 2**32, that its low word
    falls below 2**32 mod n)."""
    sig = types.int64(states, types.intp, types.uint64)

    def codegen(context, builder, signature, args):
        aryty, (states, k, bound) = signature.args[0], args
        low32 = ir.Constant(_I64, 0xFFFFFFFF)

        def draw():
            m = builder.mul(builder.lshr(_xoshiro_step(context, builder, aryty, states, k), ir.Constant(_I64, 32)),
                            bound)  # fmt: skip
            return m, builder.and_(m, low32)

        m, low = draw()
        result = cgutils.alloca_once_value(builder, m)
        with builder.if_then(builder.icmp_unsigned("<", low, bound), likely=False):
            threshold = builder.urem(builder.sub(ir.Constant(_I64, 1 << 32), bound), bound)
            again = builder.append_basic_block("below.again")
            done = builder.append_basic_block("below.done")
            builder.cbranch(builder.icmp_unsigned("<", low, threshold), again, done)
            builder.position_at_end(again)
            m, low = draw()
            builder.store(m, result)
            builder.cbranch(builder.icmp_unsigned("<", low, threshold), again, done)
            builder.position_at_end(done)
        return builder.lshr(builder.load(result), ir.Constant(_I64, 32))

    return sig, codegen


@njit(cache=True, inline="always")
def round_key(seed: np.uint64, unit: int, sub: int) -> np.uint64:
    """The key of round (seed, unit, sub) that seeds its streams."""
    return splitmix64(splitmix64(splitmix64(np.uint64(seed)) ^ np.uint64(unit)) ^ np.uint64(sub))


@njit(cache=True, inline="always")
def _sipround(v0: np.uint64, v1: np.uint64, v2: np.uint64, v3: np.uint64) -> tuple:
    v0 += v1
    v1 = _rotl(v1, 13) ^ v0
    v0 = _rotl(v0, 32)
    v2 += v3
    v3 = _rotl(v3, 16) ^ v2
    v0 += v3
    v3 = _rotl(v3, 21) ^ v0
    v2 += v1
    v1 = _rotl(v1, 17) ^ v2
    v2 = _rotl(v2, 32)
    return v0, v1, v2, v3


@njit(cache=True)
def siphash24(k0: np.uint64, k1: np.uint64, message: np.uint64) -> np.uint64:
    """SipHash-2-4 (Aumasson & Bernstein) of one 64-bit word under the 128-bit key (k0, k1): a pseudo-random
    function, so its outputs give nothing away about the key."""
    k0, k1, message = np.uint64(k0), np.uint64(k1), np.uint64(message)
    v0 = k0 ^ np.uint64(0x736F6D6570736575)
    v1 = k1 ^ np.uint64(0x646F72616E646F6D)
    v2 = k0 ^ np.uint64(0x6C7967656E657261)
    v3 = k1 ^ np.uint64(0x7465646279746573)
    for word in (message, np.uint64(8) << np.uint64(56)):  # the message, then its length block
        v3 ^= word
        v0, v1, v2, v3 = _sipround(v0, v1, v2, v3)
        v0, v1, v2, v3 = _sipround(v0, v1, v2, v3)
        v0 ^= word
    v2 ^= np.uint64(0xFF)
    for _ in range(4):
        v0, v1, v2, v3 = _sipround(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


BOT_DOMAIN = np.uint64(0x626F7473)  # "bots": the second key word of the private streams
PYTHON_BOT = 1 << 32  # added to the seat for a Python bot's generator seed, apart from the compiled streams


@njit(cache=True)
def seed_bot_stream(states: np.ndarray, row: int, seed: np.uint64, unit: int, sub: int, seat: int) -> None:
    """Row ``row`` of ``states`` (uint64[rows, 4]): the private stream of ``seat``'s bot in round (seed, unit, sub),
    a one-way function of the round key (see the module docstring)."""
    base = siphash24(round_key(seed, unit, sub), BOT_DOMAIN, np.uint64(seat))
    for i in range(4):
        states[row, i] = splitmix64(base + np.uint64(i) * GOLDEN_GAMMA)


def bot_seed(seed: int, unit: int, sub: int, seat: int) -> int:
    """The seed of a Python bot's ``random.Random`` for its seat in round (seed, unit, sub): one-way, like
    ``seed_bot_stream``, and apart from it."""
    key = np.uint64(round_key(np.uint64(seed), unit, sub))  # numba returns a Python int: type it as uint64 always
    return int(siphash24(key, BOT_DOMAIN, np.uint64(PYTHON_BOT + seat)))


MAX_INDEX = 2**63 - 1  # the kernels number units and rounds in int64


def check_index(value: int, what: str) -> int:
    """Validate a round or game index (``what``): any integer 0 <= value < 2**63. A larger one would reach the
    kernels as a uint64, which numba refuses once they are compiled for int64 (RULES.md D1, D3)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 0 <= int(value) <= MAX_INDEX:
        raise CardsimError(f"{what} {value!r} is not allowed: {what}s are numbered from 0 to 2**63-1")
    return int(value)


def resolve_seed(seed: int | None) -> int:
    """A run's seed: ``seed`` checked, or for None a 64-bit seed from the OS, for tournaments whose bot authors
    must not guess the deals (with the one-way bot streams, a bot cannot compute them either). The results store
    it, so the run stays reproducible."""
    return secrets.randbits(64) if seed is None else check_seed(seed)


def check_seed(seed: int) -> int:
    """Validate a user seed: any integer 0 <= seed < 2**64."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= MASK64:
        raise CardsimError(f"seed {seed!r} is not allowed: use an integer from 0 to 2**64-1")
    return int(seed)
