"""Trace mode: the same kernel, writing one row per event into ``trace``.

``trace`` is ``int16[capacity, EV_W]``; with capacity 0 (every untraced run) an event
costs one comparison. Rows hold the event, the state before it and the acting seat's
hand, so a checker outside the kernel can judge each move (layout.EV_*).
"""
from ..cards import N_KINDS
from .jit import hot
from .layout import (
    EV_COLOUR,
    EV_FLAGS,
    EV_HAND,
    EV_KIND,
    EV_PEND,
    EV_SEAT,
    EV_TOP,
    EV_TURN,
    EV_TYPE,
    G_COLOUR,
    G_PEND_DRAW,
    G_TOP,
    G_TRACE_N,
    G_TURNS,
)


@hot
def trace_event(g, trace, hands, typ, p, k, flags):
    i = g[G_TRACE_N]
    if i < trace.shape[0]:
        trace[i, EV_TYPE] = typ
        trace[i, EV_SEAT] = p
        trace[i, EV_KIND] = k
        trace[i, EV_TOP] = g[G_TOP]
        trace[i, EV_COLOUR] = g[G_COLOUR]
        trace[i, EV_PEND] = g[G_PEND_DRAW]
        trace[i, EV_FLAGS] = flags
        trace[i, EV_TURN] = g[G_TURNS]
        for kk in range(N_KINDS):
            trace[i, EV_HAND + kk] = hands[p, kk]
        g[G_TRACE_N] = i + 1
