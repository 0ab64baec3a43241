"""Card kinds as small integers and their lookup tables (RULES.md section 2), the
kernel's own copy of what ``unosim.game.cards`` publishes.

A *kind* is one of ``N_KINDS`` integers. Coloured kinds come first, one block of
``N_RANKS`` per colour: ``kind = colour * N_RANKS + rank`` with ranks 0-9 the numbers,
then Skip, Reverse, Draw Two. Wild-type kinds follow (``WILD`` .. ``GRAYSKULL``); they
have no colour (``COLOUR[kind] == -1``) and no rank (``RANK[kind] == -1``).

Declared cards (``docs/cards.md``) take reserved kinds after the built-in ones, which
keep their numbers: up to ``MAX_DECLARED`` cards, card ``d`` either wild (kind
``DECLARED_WILD + d``, right after ``GRAYSKULL``, so the wild-type kinds stay one run) or
coloured (kinds ``DECLARED_COLOURED + 4 * d + colour``, rank ``DECLARED_RANK + d``, so
two colours of one declared card share a rank). ``KIND_AT[colour, rank]`` is the kind
of any coloured card. What a declared card does is data in the rule array
(``layout.R_DECL``), not in these tables (their declared entries are 0).

What each kind does is a table indexed by kind (``DRAW_PENALTY``, ``ATTACKS``,
``PENDING``, ``SWAPS``), built once here: the kernel reads them (numba takes global
arrays as constants) instead of comparing a kind with a list of kinds.
"""

import numpy as np

N_COLOURS = 4

# ranks of coloured cards: 0-9 the numbers, then the action cards
N_NUMBERS = 10  # ranks below this are number cards (8.8)
ZERO, SEVEN = 0, 7  # the Seven-Zero ranks (8.2)
SKIP, REVERSE, DRAW_TWO = 10, 11, 12
N_RANKS = 13  # the built-in ranks
MAX_DECLARED = 4  # declared cards a rule set may add
DECLARED_RANK = N_RANKS  # + d: the rank of coloured declared card d
N_ALL_RANKS = N_RANKS + MAX_DECLARED  # 17: every rank a coloured kind may have

# wild-type kinds
N_COLOURED = N_COLOURS * N_RANKS  # 52
WILD = N_COLOURED  # 52
WILD_DRAW_FOUR = 53
SHUFFLE_HANDS = 54
CUSTOMIZABLE = 55
SNORLAX = 56
GRENINJA = 57
GRAYSKULL = 58
N_BUILTIN_KINDS = 59  # the built-in kinds; declared kinds follow
DECLARED_WILD = 59  # + d: declared card d when it is wild
N_WILD_END = DECLARED_WILD + MAX_DECLARED  # 63: the wild-type kinds are N_COLOURED .. 62
DECLARED_COLOURED = N_WILD_END  # + 4 * d + colour: declared card d when it is coloured
N_KINDS = DECLARED_COLOURED + MAX_DECLARED * N_COLOURS  # 79
N_DECLARED_KINDS = N_KINDS - N_BUILTIN_KINDS  # 20

# penalties of the draw cards (RULES.md 2, 4.3)
DRAW_TWO_PENALTY = 2
WILD_DRAW_FOUR_PENALTY = 4
SPECIAL_DRAW = 3  # Snorlax's and Powers of Grayskull's draws

# lookup tables, indexed by kind
COLOUR = np.full(N_KINDS, -1, dtype=np.int8)
RANK = np.full(N_KINDS, -1, dtype=np.int8)
for _c in range(N_COLOURS):
    for _r in range(N_RANKS):
        COLOUR[_c * N_RANKS + _r] = _c
        RANK[_c * N_RANKS + _r] = _r
KIND_AT = np.zeros((N_COLOURS, N_ALL_RANKS), dtype=np.int64)  # the kind of (colour, rank)
for _c in range(N_COLOURS):
    for _r in range(N_ALL_RANKS):
        _k = _c * N_RANKS + _r
        if _r >= N_RANKS:
            _k = DECLARED_COLOURED + N_COLOURS * (_r - N_RANKS) + _c
        KIND_AT[_c, _r] = _k
        COLOUR[_k] = _c
        RANK[_k] = _r
COLOUR.flags.writeable = False
RANK.flags.writeable = False
KIND_AT.flags.writeable = False


def _table(values: dict, dtype) -> np.ndarray:
    """A read-only ``dtype[N_KINDS]`` table: ``values[kind]``, 0 for the kinds not named."""
    t = np.zeros(N_KINDS, dtype=dtype)
    for k, v in values.items():
        t[k] = v
    t.flags.writeable = False
    return t


def _coloured(rank: int) -> list[int]:
    return [c * N_RANKS + rank for c in range(N_COLOURS)]


# the cards a pending draw penalty grows by, stackable (RULES.md 4.3, 8.1)
DRAW_PENALTY = _table(
    {**{k: DRAW_TWO_PENALTY for k in _coloured(DRAW_TWO)}, WILD_DRAW_FOUR: WILD_DRAW_FOUR_PENALTY},
    np.int64,
)
# whom a kind attacks (section 2, 4.5-4.6): nobody, the next player (a Skip, a Draw
# Two, Wild Draw Four, Snorlax, Greninja), the next player with two players only (a
# Reverse acts as a Skip), every other player (Powers of Grayskull)
ATTACK_NONE, ATTACK_NEXT, ATTACK_HEADS_UP, ATTACK_OTHERS = 0, 1, 2, 3
ATTACKS = _table(
    {
        **{k: ATTACK_NEXT for k in _coloured(SKIP) + _coloured(DRAW_TWO)},
        **{k: ATTACK_HEADS_UP for k in _coloured(REVERSE)},
        WILD_DRAW_FOUR: ATTACK_NEXT,
        SNORLAX: ATTACK_NEXT,
        GRENINJA: ATTACK_NEXT,
        GRAYSKULL: ATTACK_OTHERS,
    },
    np.int8,
)
# 1: the effect waits for the next player's turn (``G_PEND_SPECIAL``): Snorlax, Greninja
PENDING = _table({SNORLAX: 1, GRENINJA: 1}, np.int8)
# how a kind moves hands (8.2, section 2): not at all, with one chosen opponent (a 7
# under Seven-Zero, Wild Customizable under ``blank_card = swap_hands``), every hand one
# seat on (a 0 under Seven-Zero), all hands shuffled and dealt again (Shuffle Hands)
SWAP_NONE, SWAP_ONE, SWAP_ROTATE, SWAP_ALL = 0, 1, 2, 3
SWAPS = _table(
    {
        **{k: SWAP_ONE for k in _coloured(SEVEN)},
        **{k: SWAP_ROTATE for k in _coloured(ZERO)},
        CUSTOMIZABLE: SWAP_ONE,
        SHUFFLE_HANDS: SWAP_ALL,
    },
    np.int8,
)
