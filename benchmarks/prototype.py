"""The measure of the limit: a stripped numba prototype of official UNO for `random` players.

It plays only what ``official`` with ``random`` players at any table size needs (RULES.md
2-5 without house rules; `random` never bluffs, challenges or forgets UNO, so those
rules never act) and keeps hands as counts per card kind and per colour, so counting
the legal cards is O(1) and choosing one is a walk over at most 13 ranks; the draw pile
is shuffled lazily (each draw takes a uniformly random card of the pile), so a round
pays only for the cards it draws. Its games are
not unosim's (other random streams), but they follow the same rules, so the two agree
statistically (``tests/meta/test_prototype.py``). ``make bench`` times it beside
``unosim.simulate``'s kernel on the same number of games.

    python benchmarks/prototype.py [--games 200000] [--players 4] [--threads 1]
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

N_COLOURS, N_RANKS = 4, 13
SKIP, REVERSE, DRAW_TWO = 10, 11, 12
WILD, WD4 = 52, 53
N_KINDS = 54
MAX_TURNS = 5000
HAND = 7

# winner (-1 when truncated), turns, points, cards drawn
COLUMNS = ("winner", "turns", "points", "cards_drawn")

_deck = [c * N_RANKS + r for c in range(N_COLOURS) for r in range(N_RANKS) for _ in range(2)]
for _c in range(N_COLOURS):
    _deck.remove(_c * N_RANKS)  # one 0 per colour
DECK = np.array(sorted(_deck + [WILD] * 4 + [WD4] * 4), dtype=np.int8)
POINTS = np.array([r if r < 10 else 20 for _ in range(4) for r in range(13)] + [50, 50], np.int32)


_U32 = np.uint64(0xFFFFFFFF)


@numba.njit(cache=True, inline="always")
def mix64(z):
    """splitmix64's output function (its own copy: the prototype uses nothing of unosim)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@numba.njit(cache=True, inline="always")
def _step(st):
    """xoshiro256** on the state ``st`` (uint64[4]): the next 64-bit output."""
    out = _rotl(st[1] * np.uint64(5), 7) * np.uint64(9)
    t = st[1] << np.uint64(17)
    st[2] ^= st[0]
    st[3] ^= st[1]
    st[1] ^= st[2]
    st[0] ^= st[3]
    st[2] ^= t
    st[3] = _rotl(st[3], 45)
    return out


@numba.njit(cache=True, inline="always")
def _below(st, n):
    """Uniform integer in [0, n), 1 <= n < 2**32 (Lemire's multiply-and-reject)."""
    nn = np.uint64(n)
    m = (_step(st) >> np.uint64(32)) * nn
    if (m & _U32) < nn:
        t = (np.uint64(0x100000000) - nn) % nn
        while (m & _U32) < t:
            m = (_step(st) >> np.uint64(32)) * nn
    return np.int64(m >> np.uint64(32))


@numba.njit(cache=True, inline="always")
def _take(pile, npile, st):
    """A card drawn uniformly from the ``npile`` cards of ``pile`` (the pile is kept in no
    order: drawing a random card is shuffling lazily). Returns (kind, pile size)."""
    j = _below(st, npile)
    k = pile[j]
    npile -= 1
    pile[j] = pile[npile]
    return k, npile


@numba.njit(cache=True, inline="always")
def _draw(p, pile, npile, disc, ndisc, hand, ccount, hsize, st):
    """Draw one card for seat ``p``; refills the pile from the discards (all but the top)
    when it is empty. Returns (kind or -1, pile size, discard size)."""
    if npile == 0:
        for i in range(ndisc - 1):
            pile[i] = disc[i]
        npile = ndisc - 1
        disc[0] = disc[ndisc - 1]
        ndisc = 1
        if npile == 0:
            return -1, npile, ndisc
    k, npile = _take(pile, npile, st)
    hand[p, k] += 1
    hsize[p] += 1
    if k < WILD:
        ccount[p, k // N_RANKS] += 1
    return k, npile, ndisc


@numba.njit(cache=True, inline="always")
def _pick(p, hand, ccount, colour, rank, st):
    """A legal card of seat ``p`` chosen uniformly over physical cards, or -1."""
    own = ccount[p, colour]
    n = own + hand[p, WILD] + (hand[p, WD4] if own == 0 else 0)
    if rank >= 0:
        for c in range(N_COLOURS):
            if c != colour:
                n += hand[p, c * N_RANKS + rank]
    if n == 0:
        return -1
    u = _below(st, n)
    if u < own:
        base = colour * N_RANKS
        for r in range(N_RANKS):
            u -= hand[p, base + r]
            if u < 0:
                return base + r
    u -= own
    if rank >= 0:
        for c in range(N_COLOURS):
            if c != colour:
                u -= hand[p, c * N_RANKS + rank]
                if u < 0:
                    return c * N_RANKS + rank
    return WILD if u < hand[p, WILD] else WD4


@numba.njit(cache=True, inline="always")
def _next(p, d, n):
    """The seat after ``p`` in direction ``d`` (+1 or -1) at ``n`` seats, without a division."""
    p += d
    if p == n:
        return 0
    if p < 0:
        return n - 1
    return p


@numba.njit(cache=True, inline="always")
def _legal(k, hand, ccount, p, colour, rank):
    if k == WILD:
        return True
    if k == WD4:
        return ccount[p, colour] == 0
    return k // N_RANKS == colour or (rank >= 0 and k % N_RANKS == rank)


@numba.njit(cache=True)
def _round(n, deck, pile, disc, hand, ccount, hsize, st, out):
    """One round at ``n`` seats into ``out`` (int64[4], ``COLUMNS``)."""
    hand[:n] = 0
    ccount[:n] = 0
    hsize[:n] = 0
    npile = deck.size
    pile[:npile] = deck
    for _ in range(HAND):
        for p in range(n):
            k, npile = _take(pile, npile, st)
            hand[p, k] += 1
            hsize[p] += 1
            if k < WILD:
                ccount[p, k // N_RANKS] += 1
    # the first card (RULES.md 3): a Wild Draw Four goes back into the pile
    top, npile = _take(pile, npile, st)
    while top == WD4:
        pile[npile] = top
        top, npile = _take(pile, npile + 1, st)
    disc[0] = top
    ndisc = 1
    drawn = 0
    d, p = 1, 0
    if top == WILD:
        colour, rank = _below(st, 4), -1
    else:
        colour, rank = top // N_RANKS, top % N_RANKS
        if rank == SKIP:
            p = 1 % n
        elif rank == REVERSE:
            p = n - 1
            d = -1 if n > 2 else 1
        elif rank == DRAW_TWO:
            for _ in range(2):
                k, npile, ndisc = _draw(0, pile, npile, disc, ndisc, hand, ccount, hsize, st)
                drawn += k >= 0
            p = 1 % n
    turns = 0
    winner = -1
    while turns < MAX_TURNS:
        turns += 1
        k = _pick(p, hand, ccount, colour, rank, st)
        if k < 0:
            k, npile, ndisc = _draw(p, pile, npile, disc, ndisc, hand, ccount, hsize, st)
            drawn += k >= 0
            if k < 0 or not _legal(k, hand, ccount, p, colour, rank):
                p = _next(p, d, n)
                continue
        hand[p, k] -= 1
        hsize[p] -= 1
        disc[ndisc] = k
        ndisc += 1
        if k >= WILD:
            colour, rank = _below(st, 4), -1
        else:
            ccount[p, k // N_RANKS] -= 1
            colour, rank = k // N_RANKS, k % N_RANKS
        step, penalty = 1, 0
        if k == WD4:
            step, penalty = 2, 4
        elif rank == SKIP:
            step = 2
        elif rank == REVERSE:
            if n == 2:
                step = 2
            else:
                d = -d
        elif rank == DRAW_TWO:
            step, penalty = 2, 2
        if penalty:
            v = _next(p, d, n)
            for _ in range(penalty):
                k2, npile, ndisc = _draw(v, pile, npile, disc, ndisc, hand, ccount, hsize, st)
                drawn += k2 >= 0
        if hsize[p] == 0:
            winner = p
            break
        p = _next(p, d, n)
        if step == 2:
            p = _next(p, d, n)
    points = 0
    if winner >= 0:
        for q in range(n):
            for k in range(N_KINDS):
                points += hand[q, k] * POINTS[k]
    out[0] = winner
    out[1] = turns
    out[2] = points
    out[3] = drawn


@numba.njit(cache=True, parallel=True)
def play(seed, first, n_games, n, out):
    """Rounds ``first .. first + n_games - 1`` at ``n`` seats into ``out``
    (int64[n_games, 4], ``COLUMNS``); round g's stream is keyed on (seed, g)."""
    n_chunks = min(n_games, 64)
    for c in numba.prange(n_chunks):
        pile = np.empty(DECK.size, np.int8)
        disc = np.empty(DECK.size, np.int8)
        hand = np.zeros((n, N_KINDS), np.int32)
        ccount = np.zeros((n, N_COLOURS), np.int32)
        hsize = np.zeros(n, np.int32)
        st = np.empty(4, np.uint64)
        for g in range(c * n_games // n_chunks, (c + 1) * n_games // n_chunks):
            x = mix64(mix64(np.uint64(seed)) ^ np.uint64(first + g))
            for j in range(4):
                x = mix64(x + np.uint64(0x9E3779B97F4A7C15))
                st[j] = x
            _round(n, DECK, pile, disc, hand, ccount, hsize, st, out[g])


def simulate(n_games: int, n_players: int = 4, seed: int = 1, first: int = 0) -> np.ndarray:
    """int64[n_games, 4] of ``COLUMNS`` for rounds ``first ..`` of root ``seed``."""
    out = np.empty((n_games, len(COLUMNS)), np.int64)
    play(seed, first, n_games, n_players, out)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    numba.set_num_threads(a.threads)
    simulate(64, a.players)
    t = time.perf_counter()
    out = simulate(a.games, a.players)
    dt = time.perf_counter() - t
    print(
        f"prototype, official, {a.players} players, random, {a.threads} thread(s): "
        f"{a.games / dt:,.0f} games/s, {dt / out[:, 1].sum() * 1e9:.1f} ns/turn, "
        f"mean turns {out[:, 1].mean():.2f}"
    )


if __name__ == "__main__":
    main()
