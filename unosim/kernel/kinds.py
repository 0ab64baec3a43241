"""Card kinds as small integers and their lookup tables (RULES.md section 2), the
kernel's own copy of what ``unosim.game.cards`` publishes.

A *kind* is one of ``N_KINDS`` integers. Coloured kinds come first, one block of
``N_RANKS`` per colour: ``kind = colour * N_RANKS + rank`` with ranks 0-9 the numbers,
then Skip, Reverse, Draw Two. Wild-type kinds follow (``WILD`` .. ``GRAYSKULL``); they
have no colour (``COLOUR[kind] == -1``) and no rank (``RANK[kind] == -1``).
"""

import numpy as np

N_COLOURS = 4

# ranks of coloured cards: 0-9 the numbers, then the action cards
N_NUMBERS = 10  # ranks below this are number cards (8.8)
ZERO, SEVEN = 0, 7  # the Seven-Zero ranks (8.2)
SKIP, REVERSE, DRAW_TWO = 10, 11, 12
N_RANKS = 13

# wild-type kinds
N_COLOURED = N_COLOURS * N_RANKS  # 52
WILD = N_COLOURED  # 52
WILD_DRAW_FOUR = 53
SHUFFLE_HANDS = 54
CUSTOMIZABLE = 55
SNORLAX = 56
GRENINJA = 57
GRAYSKULL = 58
N_KINDS = 59

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
COLOUR.flags.writeable = False
RANK.flags.writeable = False
