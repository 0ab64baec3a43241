"""The measure of the limit: a stripped numba prototype of official UNO for `random` players.

It plays only what ``official`` with ``random`` players at any table size needs (RULES.md
2-5 without house rules: `random` never bluffs, challenges, forgets UNO or draws while
holding a legal card, always plays a legal drawn card and names a colour uniformly, so the
rules about bluffs, challenges and UNO calls never act), as cheaply as a sound player can:

- a card is one small integer, ``colour << 4 | rank``, so its colour and rank are a shift
  and a mask; a wild top card has the rank ``NO_RANK``, which no card in hand has, so
  matching it needs no branch;
- each hand keeps its counts per kind, per colour and per rank, so the number of legal
  cards is five lookups, and a list of its cards per colour, so the k-th card of the
  current colour is one lookup (a card leaves a list by swapping in the list's last);
- the draw pile is kept in no order and each draw takes a uniformly random card of it
  (a lazy shuffle: a round pays only for the cards it draws);
- the random numbers come from PCG32 (a 64-bit LCG with a permuted output) whose state
  is a local variable, bounded by Lemire's multiply-and-reject (exactly uniform);
- the card effects (next seat, penalty, direction) are tables indexed by the card;
- the round is compiled without numba's reference counting and indexes its arrays with
  unsigned integers (``_round``, ``_u``): two taxes of numba's that a round allocating
  nothing need not pay.

Its games are not unosim's (other random streams), but they follow the same rules, so
the two agree statistically (``tests/meta/test_prototype.py``). It imports nothing of
unosim. ``make bench`` times it beside ``unosim.simulate``'s kernel on the same games.

    python benchmarks/prototype.py [--games 200000] [--players 4] [--threads 1]
"""

from __future__ import annotations

import argparse
import sys
import time

import numba
import numpy as np

N_COLOURS = 4
SKIP, REVERSE, DRAW_TWO = 10, 11, 12
NO_RANK = 13  # the rank of a wild top card: no card in hand has it
WILD, WD4 = 84, 85  # the two wild cards' codes (coloured cards: colour << 4 | rank)
N_CODES = 86
MAX_TURNS = 5000
HAND = 7

# a seat's block of ``SEAT`` counts in the int32 array ``seats``: copies held of each code
# (the wild ones included), then per rank (all colours; NO_RANK's stays 0), per colour,
# and the hand's size
RANK_N, COLOUR_N, SIZE, SEAT = 64, 80, 86, 88
LIST = 32  # slots of a seat's list of one colour's ranks (a colour has 25 cards)

# winner (-1 when truncated), turns, points, cards drawn (RULES.md 6), the seat that took
# the first turn, and the cards found at the end in the pile, the discards and the hands
# (108 unless a card was lost or duplicated: a check, not a statistic)
COLUMNS = ("winner", "turns", "points", "cards_drawn", "first_player", "cards_counted")

DECK = np.array(
    [c << 4 | r for c in range(N_COLOURS) for r in range(13) for _ in range(1 if r == 0 else 2)]
    + [WILD] * 4
    + [WD4] * 4,
    dtype=np.int8,
)
POINTS = np.zeros(N_CODES, np.int32)
for _c in range(N_COLOURS):
    for _r in range(13):
        POINTS[_c << 4 | _r] = _r if _r < 10 else 20
POINTS[WILD] = POINTS[WD4] = 50
RANK_POINTS = POINTS[:16].copy()  # by rank (the lists hold ranks)

# array indices are cast to unsigned: numba wraps a negative signed index as Python does,
# a test and an add on every access (a tenth of the round's time), and none on an unsigned
_u = np.uint64
_M32 = np.uint64(0xFFFFFFFF)
_PCG_MUL = np.uint64(6364136223846793005)
_PCG_INC = np.uint64(1442695040888963407)


@numba.njit(cache=True)
def mix64(z):
    """splitmix64's output function: a bijective hash seeding each round's state."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True, inline="always")
def _pcg32(s):
    """PCG32 (XSH RR): 32 random bits from state ``s``, and the next state. The LCG step
    is one multiply-add on a local variable; the output's xorshift and rotation by the
    top bits hide the LCG's weak low bits (O'Neill 2014)."""
    x = (((s >> np.uint64(18)) ^ s) >> np.uint64(27)) & _M32
    rot = s >> np.uint64(59)
    out = ((x >> rot) | (x << ((np.uint64(32) - rot) & np.uint64(31)))) & _M32
    return out, s * _PCG_MUL + _PCG_INC


@numba.njit(cache=True, inline="always")
def _below(s, n):
    """A uniform integer in [0, n) for 1 <= n < 2**32, and the next state: Lemire's
    multiply-shift, exact by rejecting the rare low products (taken with odds n / 2**32,
    so the branch is predictable)."""
    nn = np.uint64(n)
    r, s = _pcg32(s)
    m = r * nn
    if (m & _M32) < nn:
        t = (np.uint64(0x100000000) - nn) % nn
        while (m & _M32) < t:
            r, s = _pcg32(s)
            m = r * nn
    return np.int64(m >> np.uint64(32)), s


@numba.njit(cache=True, inline="always")
def _draw(pile, npile, disc, ndisc, s):
    """A card drawn uniformly from the ``npile`` cards of ``pile`` (kept in no order, so
    this is a lazy shuffle: the last card fills the hole); when the pile is empty the
    discards but the top become the pile (RULES.md 4.2). Returns (card, or -1 when there
    is nothing to draw, pile size, discard size, state)."""
    if npile == 0:
        npile = ndisc - 1
        if npile == 0:
            return -1, npile, ndisc, s
        for i in range(npile):
            pile[i] = disc[i]
        disc[0] = disc[_u(npile)]
        ndisc = 1
    j, s = _below(s, npile)
    k = np.int64(pile[_u(j)])
    npile -= 1
    pile[_u(j)] = pile[_u(npile)]
    return k, npile, ndisc, s


@numba.njit(cache=True, inline="always")
def _gain(seats, lists, p, k):
    """Card ``k`` into seat ``p``'s hand: its counts, and its colour's list."""
    b = p * SEAT
    seats[_u(b + k)] += 1
    seats[_u(b + SIZE)] += 1
    if k < WILD:
        c = k >> 4
        r = k & 15
        own = seats[_u(b + COLOUR_N + c)]
        lists[_u((p * N_COLOURS + c) * LIST + own)] = r
        seats[_u(b + COLOUR_N + c)] = own + 1
        seats[_u(b + RANK_N + r)] += 1


@numba.njit(cache=True, inline="always")
def _pick(seats, lists, p, colour, rank, s):
    """A legal card of seat ``p``, uniform over the physical cards (RULES.md 10), taken out
    of its hand; -1 when it holds none. Returns (card, state).

    The legal cards are those of the current colour (the list's u-th), those of the top
    card's rank in the other colours, the wilds, and the Wild Draw Fours when it holds
    none of the colour (RULES.md 4.1, 4.3)."""
    b = p * SEAT
    own = np.int64(seats[_u(b + COLOUR_N + colour)])
    same_rank = np.int64(seats[_u(b + RANK_N + rank)] - seats[_u(b + (colour << 4) + rank)])
    wilds = np.int64(seats[_u(b + WILD)])
    n = own + same_rank + wilds
    if own == 0:
        n += seats[_u(b + WD4)]
    if n == 0:
        return -1, s
    u, s = _below(s, n)
    seats[_u(b + SIZE)] -= 1
    if u < own:
        at = (p * N_COLOURS + colour) * LIST
        r = np.int64(lists[_u(at + u)])
        lists[_u(at + u)] = lists[_u(at + own - 1)]
        seats[_u(b + COLOUR_N + colour)] = own - 1
        k = colour << 4 | r
    elif u < own + same_rank:
        u -= own
        c = 0
        for c in range(N_COLOURS):
            if c != colour:
                u -= seats[_u(b + (c << 4) + rank)]
                if u < 0:
                    break
        at = (p * N_COLOURS + c) * LIST
        last = seats[_u(b + COLOUR_N + c)] - 1
        i = 0
        while lists[_u(at + i)] != rank:
            i += 1
        lists[_u(at + i)] = lists[_u(at + last)]
        seats[_u(b + COLOUR_N + c)] = last
        k = c << 4 | rank
    else:
        k = WILD if u < own + same_rank + wilds else WD4
        seats[_u(b + k)] -= 1
        return k, s
    seats[_u(b + k)] -= 1
    seats[_u(b + RANK_N + (k & 15))] -= 1
    return k, s


@numba.njit(cache=True, inline="always")
def _advance(p, delta, n):
    """Seat ``p`` moved by ``delta`` (|delta| <= 2 <= n) around ``n`` seats, without a
    division."""
    p += delta
    if p >= n:
        p -= n
    elif p < 0:
        p += n
    return p


@numba.njit(cache=True)
def _effects(n):
    """Per card code: how many seats play moves on (2 past a Skip, Draw Two, Wild Draw
    Four, and a Reverse at 2 seats), the factor of the direction (-1 for a Reverse at
    more than 2 seats) and the penalty the next seat draws."""
    step = np.ones(N_CODES, np.int64)
    flip = np.ones(N_CODES, np.int64)
    penalty = np.zeros(N_CODES, np.int64)
    for c in range(N_COLOURS):
        step[c << 4 | SKIP] = 2
        step[c << 4 | DRAW_TWO] = 2
        penalty[c << 4 | DRAW_TWO] = 2
        if n == 2:
            step[c << 4 | REVERSE] = 2
        else:
            flip[c << 4 | REVERSE] = -1
    step[WD4] = 2
    penalty[WD4] = 4
    return step, flip, penalty


@numba.njit(cache=True, _nrt=False)
def _round(n, s, pile, disc, seats, lists, step, flip, penalty, out):
    """One round at ``n`` seats from PCG32 state ``s`` into ``out`` (int64[6],
    ``COLUMNS``).

    Compiled without numba's reference counting (``_nrt=False``): the round allocates
    nothing, and the counts numba otherwise keeps on every array passed to an inlined
    helper (an atomic increment at its entry, a decrement at each exit, which numba's
    pruning cannot remove across branches) cost a third to two fifths of its time. Any
    allocation in it would be a compile error."""
    for i in range(n * SEAT):
        seats[i] = 0
    npile = DECK.size
    for i in range(npile):
        pile[i] = DECK[i]
    ndisc = 0
    for _ in range(HAND):
        for p in range(n):
            k, npile, ndisc, s = _draw(pile, npile, disc, ndisc, s)
            _gain(seats, lists, p, k)
    # the first card (RULES.md 3): a Wild Draw Four goes back into the pile
    top, npile, ndisc, s = _draw(pile, npile, disc, ndisc, s)
    while top == WD4:
        pile[_u(npile)] = top
        top, npile, ndisc, s = _draw(pile, npile + 1, disc, ndisc, s)
    disc[0] = top
    ndisc = 1
    drawn = 0
    d, p = 1, 0
    if top == WILD:
        colour, s = _below(s, N_COLOURS)
        rank = NO_RANK
    else:
        colour, rank = top >> 4, top & 15
        if rank == SKIP:
            p = 1 % n
        elif rank == REVERSE:
            p = n - 1
            d = -1 if n > 2 else 1
        elif rank == DRAW_TWO:
            for _ in range(2):
                k, npile, ndisc, s = _draw(pile, npile, disc, ndisc, s)
                if k >= 0:
                    _gain(seats, lists, 0, k)
                    drawn += 1
            p = 1 % n
    out[4] = p
    turns = 0
    winner = -1
    while turns < MAX_TURNS:
        turns += 1
        k, s = _pick(seats, lists, p, colour, rank, s)
        if k < 0:
            # no legal card: draw one and play it if legal; a Wild Draw Four drawn is
            # legal, since a seat with no legal card holds none of the colour
            k, npile, ndisc, s = _draw(pile, npile, disc, ndisc, s)
            if k < 0:
                p = _advance(p, d, n)
                continue
            drawn += 1
            if k < WILD and k >> 4 != colour and k & 15 != rank:
                _gain(seats, lists, p, k)
                p = _advance(p, d, n)
                continue
        disc[_u(ndisc)] = k
        ndisc += 1
        if k >= WILD:
            colour, s = _below(s, N_COLOURS)
            rank = NO_RANK
        else:
            colour, rank = k >> 4, k & 15
        d *= flip[_u(k)]
        if penalty[_u(k)] > 0:
            v = _advance(p, d, n)
            for _ in range(penalty[_u(k)]):
                k2, npile, ndisc, s = _draw(pile, npile, disc, ndisc, s)
                if k2 >= 0:
                    _gain(seats, lists, v, k2)
                    drawn += 1
        if seats[_u(p * SEAT + SIZE)] == 0:  # a card drawn and played is never the last
            winner = p
            break
        p = _advance(p, d * step[_u(k)], n)
    held = 0
    for q in range(n):
        held += seats[q * SEAT + SIZE]
    points = 0
    if winner >= 0:
        for q in range(n):
            b = q * SEAT
            points += POINTS[WILD] * (seats[b + WILD] + seats[b + WD4])
            for c in range(N_COLOURS):
                at = (q * N_COLOURS + c) * LIST
                for i in range(seats[b + COLOUR_N + c]):
                    points += RANK_POINTS[lists[at + i]]
    out[0] = winner
    out[1] = turns
    out[2] = points
    out[3] = drawn
    out[5] = npile + ndisc + held


@numba.njit(cache=True, parallel=True)
def play(seed, first, n_games, n, out):
    """Rounds ``first .. first + n_games - 1`` at ``n`` seats into ``out``
    (int64[n_games, 6], ``COLUMNS``); round g's state is a hash of (seed, g), so the
    results do not depend on chunks or threads."""
    step, flip, penalty = _effects(n)
    key = mix64(np.uint64(seed))
    n_chunks = min(n_games, 64)
    for c in numba.prange(n_chunks):
        pile = np.empty(DECK.size, np.int8)
        disc = np.empty(DECK.size, np.int8)
        seats = np.zeros(n * SEAT, np.int32)
        lists = np.zeros(n * N_COLOURS * LIST, np.int8)
        for g in range(c * n_games // n_chunks, (c + 1) * n_games // n_chunks):
            s = mix64(key ^ np.uint64(first + g))
            _round(n, s, pile, disc, seats, lists, step, flip, penalty, out[g])


def simulate(n_games: int, n_players: int = 4, seed: int = 1, first: int = 0) -> np.ndarray:
    """int64[n_games, 6] of ``COLUMNS`` for rounds ``first ..`` of root ``seed``."""
    if not 2 <= n_players <= 10:
        raise ValueError(f"n_players must be 2 to 10 (RULES.md 1), not {n_players}")
    if n_games < 1 or first < 0:
        raise ValueError(f"n_games must be at least 1 and first at least 0, not {n_games}, {first}")
    out = np.empty((n_games, len(COLUMNS)), np.int64)
    play(seed, first, n_games, n_players, out)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    cores = numba.config.NUMBA_NUM_THREADS
    if not (2 <= a.players <= 10 and a.games >= 1 and 1 <= a.threads <= cores):
        print(
            f"prototype: --players must be 2 to 10, --games at least 1 and --threads 1 to "
            f"{cores} (got {a.players}, {a.games}, {a.threads})",
            file=sys.stderr,
        )
        sys.exit(2)
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
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)
