"""A round's arrays as two named tuples (none passed in another's place).

``Table``: what a round is played with, never written by it.

===============  ================================  ========================================
field            shape and dtype                   holds
===============  ================================  ========================================
rules            int64[N_RULES]                    the rules (``layout.R_*``, ``to_array``)
strategy_ids     int64[MAX_PLAYERS]                each seat's strategy id (``decide``)
strategy_params  float64[MAX_PLAYERS, N_PARAMS]    strategy parameters per seat (``P_*``)
deck             int16[N_KINDS]                    copies of each kind
points           int16[N_KINDS]                    points of each kind (RULES.md 5)
constants        None or ``family.RuleConstants``  the rules compiled in as constants
===============  ================================  ========================================

``Round``: everything a round writes (``new_round`` allocates one).

============  ===============================  ==============================================
field         shape and dtype                  holds
============  ===============================  ==============================================
game_state    int64[N_G]                       game state (``G_*``)
counters      int64[N_K]                       counters for the record (``K_*``)
memory        int64[N_MEM]                     strategy memory (``MEM_*``)
trace_flags   int64[N_TR]                      trace and test flags (``TR_*``)
hands         int16[MAX_PLAYERS, N_KINDS]      cards of each kind per seat (``piles``)
hand_summary  int32[MAX_PLAYERS, N_H]          hand summary per seat (``H_*``)
pile          int8[deck size]                  the draw pile (``game_state[G_PILE_N]`` cards)
disc          int16[N_KINDS]                   the discard pile, per kind
penalties     int64[MAX_PLAYERS]               penalty points per seat (section 7)
streams       uint64[N_STREAMS, 4]             the random streams (``rng``, ``S_*``)
scratch       int8[deck size]                  work space
seq           int64[deck size]                 the cards of one multi-card play (8.6)
trace         int32[capacity, EV_W]            trace rows (``trace``); capacity 0: none
outside_log   int64[outside.ob_size(...)]      outside seats' log and decision
============  ===============================  ==============================================
"""

from collections import namedtuple

import numpy as np

from ..compile.jit import called, jitted
from .kinds import N_KINDS
from .layout import EV_W, MAX_PLAYERS, N_G, N_H, N_K, N_MEM, N_STREAMS, N_TR

# ``constants``: None, or a ``family.RuleConstants`` (the rules as compile-time
# constants: a kernel specialised for them); built in compiled code, give it explicitly
Table = namedtuple(
    "Table",
    ["rules", "strategy_ids", "strategy_params", "deck", "points", "constants"],
    defaults=(None,),
)
Round = namedtuple(
    "Round",
    [
        "game_state",
        "counters",
        "memory",
        "trace_flags",
        "hands",
        "hand_summary",
        "pile",
        "disc",
        "penalties",
        "streams",
        "scratch",
        "seq",
        "trace",
        "outside_log",
    ],
)


@jitted()
def new_round(deck_n, capacity):
    """A ``Round`` for a deck of ``deck_n`` cards and a trace of ``capacity`` rows (0:
    trace mode off). Allocated once per chunk, never per game."""
    return Round(
        np.zeros(N_G, dtype=np.int64),
        np.zeros(N_K, dtype=np.int64),
        np.zeros(N_MEM, dtype=np.int64),
        np.zeros(N_TR, dtype=np.int64),
        np.zeros((MAX_PLAYERS, N_KINDS), dtype=np.int16),
        np.zeros((MAX_PLAYERS, N_H), dtype=np.int32),
        np.zeros(deck_n, dtype=np.int8),
        np.zeros(N_KINDS, dtype=np.int16),
        np.zeros(MAX_PLAYERS, dtype=np.int64),
        np.zeros((N_STREAMS, 4), dtype=np.uint64),
        np.zeros(deck_n, dtype=np.int8),
        np.zeros(deck_n, dtype=np.int64),
        np.zeros((capacity, EV_W), dtype=np.int32),
        np.zeros(0, dtype=np.int64),
    )


@jitted()
def with_trace(rd, trace):
    """``rd`` with ``trace`` (a wider one, for declared cards) in place of its own."""
    return Round(
        rd.game_state,
        rd.counters,
        rd.memory,
        rd.trace_flags,
        rd.hands,
        rd.hand_summary,
        rd.pile,
        rd.disc,
        rd.penalties,
        rd.streams,
        rd.scratch,
        rd.seq,
        trace,
        rd.outside_log,
    )


@called
def copy_scalars(src, dst):
    """Copy the four scalar arrays (game state, counters, memory, flags) of ``src``
    into ``dst`` (two ``Round``)."""
    for j in range(N_G):
        dst.game_state[j] = src.game_state[j]
    for j in range(N_K):
        dst.counters[j] = src.counters[j]
    for j in range(N_MEM):
        dst.memory[j] = src.memory[j]
    for j in range(N_TR):
        dst.trace_flags[j] = src.trace_flags[j]
