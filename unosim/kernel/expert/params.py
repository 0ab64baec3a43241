"""The ``expert`` player's parameter slots and the codes its search uses (``expert``).

Parameters per seat: ``expert_params[seat, X_*]``, int64 (``z`` and ``cut`` in hundredths, ``pad``
in
thousandths of 1 / rollouts, ``fut`` in percent, ``deal`` a ``DEAL_*``, ``scope`` a
``SCOPE_*``); what each means: ``unosim.players.expert`` and ``docs/players.md``.
"""

import numpy as np

from ..core.kinds import N_BUILTIN_KINDS, N_COLOURED, N_COLOURS, N_DECLARED_KINDS, N_RANKS
from ..core.layout import MAX_PLAYERS

(
    X_ROLLOUTS,
    X_HORIZON,
    X_CRN,
    X_DRAW,
    X_MODEL,
    X_Z,
    X_ENDGAME,
    X_DEAL,
    X_BLUFF,
    X_RACE,
    X_PAD,
    X_SCOPE,
    X_INFER,
    X_MORE,
    X_DEPTH,
    X_TRIES,
    X_CUT,
    X_FUT,
    X_VALUE,
    X_REUSE,
    X_PILE,
) = range(21)
N_X = 21
# X_VALUE: how a rollout cut by the horizon is scored (``expert_value``)
VALUE_HANDS = 0  # the share of the inverse hand sizes
VALUE_FIT = 1  # a fitted model of who goes out first
# X_PILE: how a determinization's draw pile is drawn from in the rollouts
PILE_SHUFFLED = 0  # dealt in a shuffled order, drawn from its top
PILE_LAZY = 1  # not shuffled: each card drawn is a random one of the pile's
# X_SCOPE: the decisions searched
SCOPE_TURN = 0  # the normal turn's card and colour (and draw, bluff) only
SCOPE_ALL = 1  # also swap targets, penalties (challenge, stack) and the card drawn
# the decision a stop is at (``turn_loop``)
AT_TURN, AT_PENALTY, AT_DRAWN = 0, 1, 2
# the search's tally: searches, rollout turns, choices other than the policy's at each
# decision (``T_CHANGED + AT_*``), among them a 7's swap target and a card played alone
T_SEARCHES, T_TURNS, T_CHANGED, T_TARGET, T_ALONE = 0, 1, 2, 5, 6
N_TALLY = 7
DEAD = -np.inf  # ``dsum`` of a candidate dropped by racing
# X_DEAL: how the hidden cards are dealt in a determinization
DEAL_UNIFORM = 0  # uniformly, hand sizes kept
DEAL_VOIDS = 1  # ... and no card of a colour a seat is known to lack (``MEM_SHORT``)
DEAL_OPEN = 2  # the true hands (a diagnostic: the expert sees every hand)
# the most candidates of one decision: each built-in coloured card (also alone, 8.6; a 7
# once per opponent), each wild-type card once per colour, each declared card once per
# colour and opponent (``expert_moves._declared_variants``), and a draw
MAX_CANDIDATES = (
    N_COLOURS * (2 * (N_RANKS - 1) + MAX_PLAYERS - 1)
    + N_COLOURS * (N_BUILTIN_KINDS - N_COLOURED)
    + N_COLOURS * (MAX_PLAYERS - 1) * N_DECLARED_KINDS
    + 1
)
# the rollout streams' keys of one deal and the next are this far apart (``expert_search``:
# the key of deal i, candidate c is i * KEY_STRIDE + c): a bound on the candidates of a
# decision without declared cards (each built-in kind once per colour, and a draw: 237),
# fixed because built-in games' streams depend on it; the candidates past it (declared
# cards' colours and opponents) take keys from KEY_FAR on
KEY_STRIDE = N_COLOURS * N_BUILTIN_KINDS + 1
KEY_FAR = 1 << 40
