"""Trace mode: the same kernel, writing one row per atomic step into ``trace``.

``trace`` is ``int32[capacity, EV_W]`` (int32: the turn count reaches max_turns,
1,000,000; ``EV_W_DECL`` wide when the rule set declares cards: the declared kinds'
hands follow from ``EV_DECL``; ``sim.engine.trace_hands`` reads both); with capacity 0 (every
untraced run) an event costs one comparison. A round with outside seats has a capacity
of at least 1, so that its events reach ``_write_event``, which keeps their public
history (``outside.history_event``). A row holds the step (layout.E_*), the state after
it and every hand after it, so a checker outside the kernel can replay the round and
judge each step."""

import numpy as np

from ..compile.jit import called, inlined
from ..outside.protocol import history_event
from .kinds import N_BUILTIN_KINDS, N_DECLARED_KINDS
from .layout import (
    EV_AUX,
    EV_COLOUR,
    EV_DECL,
    EV_DIR,
    EV_DISC,
    EV_FLAGS,
    EV_HANDS,
    EV_KIND,
    EV_PEND,
    EV_PILE,
    EV_SEAT,
    EV_SKIP,
    EV_SPECIAL,
    EV_TOP,
    EV_TURN,
    EV_TYPE,
    EV_W,
    G_COLOUR,
    G_DIR,
    G_DISC_N,
    G_N,
    G_PEND_DRAW,
    G_PEND_SKIP,
    G_PEND_SPECIAL,
    G_PILE_N,
    G_SKIPS,
    G_TOP,
    K_TURNS,
    TR_EVENTS,
)


@inlined
def trace_event(rd, typ, p, k, flags, aux):
    """Seat ``p``'s step ``typ`` (``layout.E_*``) with card ``k``, into ``rd.trace``
    (``state.Round``) when it has room at all."""
    if rd.trace.shape[0] != 0:
        # int64 arguments: one compiled ``_write_event`` instead of one per literal mix
        _write_event(rd, np.int64(typ), np.int64(p), np.int64(k), np.int64(flags), np.int64(aux))


@called
def _write_event(rd, typ, p, k, flags, aux):
    """The row itself, not inlined: ``trace_event`` is called from some sixty places of
    the turn path, and inlining this body at each made the cold compile much longer."""
    trace = rd.trace
    g = rd.game_state
    if rd.outside_log.shape[0] != 0:  # a round with outside seats keeps their public history
        history_event(rd, typ, p, k, flags, aux)
    cap = trace.shape[0]
    i = rd.trace_flags[TR_EVENTS]
    rd.trace_flags[TR_EVENTS] = i + 1  # counts every event, so a caller can retry with room for all
    if i < cap:
        trace[i, EV_TYPE] = typ
        trace[i, EV_SEAT] = p
        trace[i, EV_KIND] = k
        trace[i, EV_FLAGS] = flags
        trace[i, EV_AUX] = aux
        trace[i, EV_TOP] = g[G_TOP]
        trace[i, EV_COLOUR] = g[G_COLOUR]
        trace[i, EV_DIR] = g[G_DIR]
        trace[i, EV_PEND] = g[G_PEND_DRAW]
        trace[i, EV_SKIP] = g[G_PEND_SKIP]
        trace[i, EV_SPECIAL] = g[G_PEND_SPECIAL]
        trace[i, EV_TURN] = rd.counters[K_TURNS]
        trace[i, EV_PILE] = g[G_PILE_N]
        trace[i, EV_DISC] = g[G_DISC_N]
        for q in range(g[G_N]):
            for kk in range(N_BUILTIN_KINDS):
                trace[i, EV_HANDS + q * N_BUILTIN_KINDS + kk] = rd.hands[q, kk]
        if trace.shape[1] > EV_W:  # declared cards: their skips wait too
            for q in range(g[G_N]):
                trace[i, EV_SKIP] += g[G_SKIPS + q]
            for q in range(g[G_N]):
                for kk in range(N_DECLARED_KINDS):
                    trace[i, EV_DECL + q * N_DECLARED_KINDS + kk] = rd.hands[
                        q, N_BUILTIN_KINDS + kk
                    ]
