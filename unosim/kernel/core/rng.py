"""Counter-based random streams: (seed, game, round, purpose) -> xoshiro256** state.

Every game owns ``N_STREAMS`` independent streams (the deal, table events, one per
seat's decisions), each seeded by hashing its whole key with splitmix64, so results do
not depend on chunking, threads or workers, and a rule change that alters one seat's
decisions leaves the deal and the other streams aligned (common random numbers).
"""

import numpy as np

from ..compile.jit import called, inlined, llvm_inlined
from .index import ix

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_MASK32 = np.uint64(0xFFFFFFFF)


@inlined
def mix64(z):
    """splitmix64's finaliser: a bijective 64-bit hash."""
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@inlined
def round_key(seed, game, rnd):
    """Hash of (seed, game, round); every field goes through the mixer, so adjacent seeds
    or game indices give unrelated keys, not shifted copies of one sequence."""
    h = mix64(np.uint64(seed) + _GAMMA)
    h = mix64(h ^ (np.uint64(game) + _GAMMA * np.uint64(2)))
    return mix64(h ^ (np.uint64(rnd) + _GAMMA * np.uint64(3)))


@inlined
def key_state(x):
    """The xoshiro256** state (s0, s1, s2, s3) that the splitmix64 sequence from key
    ``x`` fills: its next four outputs."""
    return (
        mix64(x + _GAMMA),
        mix64(x + _GAMMA * np.uint64(2)),
        mix64(x + _GAMMA * np.uint64(3)),
        mix64(x + _GAMMA * np.uint64(4)),
    )


@called
def seed_streams(st, seed, game, rnd, n_streams):
    """Fill ``st[:n_streams]`` (uint64[N_STREAMS, 4]) for one round of one game."""
    h = round_key(seed, game, rnd)
    for s in range(n_streams):
        s0, s1, s2, s3 = key_state(mix64(h ^ (np.uint64(s) + _GAMMA * np.uint64(4))))
        st[s, 0] = s0
        st[s, 1] = s1
        st[s, 2] = s2
        st[s, 3] = s3


@inlined
def step(s0, s1, s2, s3):
    """xoshiro256** step of the state (s0, s1, s2, s3): (result, new state). (Its two
    rotations are written out: this is inlined at some fifty places, and each inlined
    call costs compile time.)"""
    x = s1 * np.uint64(5)
    result = ((x << np.uint64(7)) | (x >> np.uint64(57))) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = (s3 << np.uint64(45)) | (s3 >> np.uint64(19))
    return result, s0, s1, s2, s3


@inlined
def next_u64(st, s):
    """xoshiro256** step of stream ``s`` (``_next_u64``)."""
    return _next_u64(st, np.int64(s))


@llvm_inlined
def _next_u64(st, s):
    """``next_u64``'s body, typed once instead of at each of its call sites."""
    u = ix(s)  # a stream's row, unsigned (``index``)
    result, s0, s1, s2, s3 = step(st[u, 0], st[u, 1], st[u, 2], st[u, 3])
    st[u, 0] = s0
    st[u, 1] = s1
    st[u, 2] = s2
    st[u, 3] = s3
    return result


@inlined
def below_state(n, s0, s1, s2, s3):
    """Uniform integer in [0, n) for 1 <= n < 2**32, exactly (Lemire's method), from the
    state (s0, s1, s2, s3) in local variables: (the integer, new state)."""
    nn = np.uint64(n)
    x, s0, s1, s2, s3 = step(s0, s1, s2, s3)
    m = (x >> np.uint64(32)) * nn
    low = m & _MASK32
    if low < nn:
        t = (np.uint64(0x100000000) - nn) % nn
        while low < t:
            x, s0, s1, s2, s3 = step(s0, s1, s2, s3)
            m = (x >> np.uint64(32)) * nn
            low = m & _MASK32
    return np.int64(m >> np.uint64(32)), s0, s1, s2, s3


@inlined
def below(st, s, n):
    """Uniform integer in [0, n) for 1 <= n < 2**32 from stream ``s`` (``below_state``)."""
    return _below(st, np.int64(s), np.int64(n))


@llvm_inlined
def _below(st, s, n):
    """``below``'s body, typed once instead of at each of its call sites."""
    u = ix(s)  # a stream's row, unsigned (``index``)
    v, s0, s1, s2, s3 = below_state(n, st[u, 0], st[u, 1], st[u, 2], st[u, 3])
    st[u, 0] = s0
    st[u, 1] = s1
    st[u, 2] = s2
    st[u, 3] = s3
    return v


@inlined
def chance(st, s, p):
    """True with probability ``p`` (float); consumes one draw only when 0 < p < 1."""
    if p <= 0.0:
        return False
    if p >= 1.0:
        return True
    return (next_u64(st, s) >> np.uint64(11)) * (1.0 / 9007199254740992.0) < p


@inlined
def chance32(st, s, thr):
    """True with probability ``thr / 2**32`` (int64 threshold, as rules store it)."""
    if thr <= 0:
        return False
    if thr >= 4294967296:
        return True
    return np.int64(next_u64(st, s) >> np.uint64(32)) < thr
