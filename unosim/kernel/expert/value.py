"""How the ``expert`` scores a rollout cut by its horizon with ``X_VALUE == VALUE_FIT``.

Each seat's chance to go out first is a softmax over the seats of a utility read from its
hand (``fitted_share``): ``CUT_HAND[d, h - 1]`` (``h`` its cards, capped at
``CUT_MAX_HAND``; ``d`` its distance after the seat to move next, in the direction of
play, capped at 3), ``CUT_WILD`` and ``CUT_WD4`` by its wild-type cards other than Wild
Draw Fours and by its Wild Draw Fours, ``CUT_COLOURS`` by the colours it holds,
``CUT_MATCH[d]`` when it holds the current colour or a wild-type card, ``CUT_D2`` and
``CUT_SR`` when it holds a Draw Two and a Skip or Reverse, ``CUT_SELF`` for the expert
itself (its rollout policy is the stronger player). Fitted by maximum likelihood (a
conditional logit, with a 1e-6 ridge penalty) on the 7.4 million turn starts of 160,000
official 4-player rounds, the tuned policy against 3 random or 3 heuristic players
(``tools/fit_cut_value.py`` prints these tables; log loss of the winner on the held-out
fifth 1.201, against 1.268 for the inverse hand sizes and 1.386 for a uniform guess).
"""

import math

import numpy as np

from ..compile.jit import inlined
from ..core.kinds import DRAW_TWO, N_COLOURS, REVERSE, SKIP, WILD_DRAW_FOUR
from ..core.layout import G_COLOUR, G_DIR, H_MASK, H_TOTAL, H_WILD

CUT_MAX_HAND = 16
CUT_HAND = np.array(
    [
        [2.866, 1.936, 1.381, 0.952, 0.586, 0.273, 0.0, -0.247,
         -0.511, -0.738, -0.959, -1.182, -1.378, -1.519, -1.787, -1.805],
        [2.699, 1.934, 1.437, 1.048, 0.717, 0.433, 0.176, -0.068,
         -0.325, -0.542, -0.748, -0.990, -1.149, -1.302, -1.539, -1.553],
        [2.687, 1.949, 1.475, 1.102, 0.785, 0.510, 0.256, -0.008,
         -0.247, -0.468, -0.680, -0.882, -1.076, -1.289, -1.467, -1.547],
        [2.641, 1.938, 1.492, 1.137, 0.834, 0.566, 0.311, 0.073,
         -0.165, -0.401, -0.592, -0.850, -1.004, -1.203, -1.383, -1.397],
    ]
)  # fmt: skip
CUT_WILD = np.array([0.0, 0.513, 1.043, 1.489])  # 0, 1, 2, 3+ wild-type cards
CUT_WD4 = np.array([0.0, 0.732, 1.416])  # 0, 1, 2+ Wild Draw Fours
CUT_COLOURS = np.array([1.326, 0.0, -0.160, -0.165, -0.104])  # colours held: 0..4
CUT_MATCH = np.array([0.688, 0.404, 0.295, 0.220])
CUT_D2 = 0.226
CUT_SR = 0.059
CUT_SELF = 0.199
_D2_BIT = 1 << DRAW_TWO  # H_MASK bit of a colour's Draw Two
_SR_BITS = (1 << SKIP) | (1 << REVERSE)  # ... of its Skip and Reverse


@inlined
def fitted_share(rd, p, n, nxt):
    """Seat ``p``'s chance to go out first in round state ``rd`` (``n`` seats, seat
    ``nxt`` to move), by the fitted model: a float in (0, 1)."""
    g, hinfo, hands = rd.game_state, rd.hand_summary, rd.hands
    colour = g[G_COLOUR]
    tot = 0.0
    mine = 0.0
    for q in range(n):
        d = min(3, ((q - nxt) * g[G_DIR]) % n)
        h = min(CUT_MAX_HAND, max(1, hinfo[q, H_TOTAL]))
        wd4 = hands[q, WILD_DRAW_FOUR]
        wild = hinfo[q, H_WILD] - wd4
        u = CUT_HAND[d, h - 1] + CUT_WILD[min(3, wild)] + CUT_WD4[min(2, wd4)]
        held = 0
        bits = 0
        for c in range(N_COLOURS):
            if hinfo[q, c] > 0:
                held += 1
            bits |= hinfo[q, H_MASK + c]
        u += CUT_COLOURS[held]
        if hinfo[q, H_WILD] > 0 or (0 <= colour < N_COLOURS and hinfo[q, colour] > 0):
            u += CUT_MATCH[d]
        if bits & _D2_BIT:
            u += CUT_D2
        if bits & _SR_BITS:
            u += CUT_SR
        if q == p:
            u += CUT_SELF
        e = math.exp(u)
        tot += e
        if q == p:
            mine = e
    return mine / tot
